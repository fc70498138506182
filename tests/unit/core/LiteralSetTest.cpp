//===--- LiteralSetTest.cpp -----------------------------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "core/LiteralSet.h"

#include "llvm/ADT/STLExtras.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <random>

namespace devport {
namespace {

std::vector<bool> scan(std::vector<std::string> Words, llvm::StringRef Text) {
  LiteralSet S;
  for (const std::string &W : Words)
    S.add(W);
  S.freeze();
  return S.scan(Text);
}

TEST(LiteralSet, FindsEachWordAnywhereIncludingTheEnds) {
  EXPECT_EQ(scan({"cuda", "nccl", "kCUDA", "x"}, "kCUDA at the start, nccl at the end: cuda"),
            (std::vector<bool>{true, true, true, false}));
  EXPECT_EQ(scan({"cuda", "da"}, "cud"), (std::vector<bool>{false, false}));
  EXPECT_EQ(scan({"cuda"}, "cuda"), (std::vector<bool>{true}));
  EXPECT_EQ(scan({"ab", "b"}, "b"), (std::vector<bool>{false, true}));
  EXPECT_EQ(scan({"cuda"}, ""), (std::vector<bool>{false}));
}

TEST(LiteralSet, WordsSharingAPrefixAreTellApart) {
  EXPECT_EQ(scan({"cuda_is", "cuda", "cudnn"}, "torch.cudnn and torch.cuda"),
            (std::vector<bool>{false, true, true}));
  LiteralSet S;
  EXPECT_EQ(S.add("cuda"), 0u);
  EXPECT_EQ(S.add("nccl"), 1u);
  EXPECT_EQ(S.add("cuda"), 0u); // already there
  EXPECT_EQ(S.size(), 2u);
}

TEST(LiteralSet, AgreesWithFindOnBytesOfEveryValue) {
  std::string Text;
  for (int I = 0; I < 512; ++I)
    Text += static_cast<char>((I * 37) & 0xFF);
  std::vector<std::string> Words = {Text.substr(10, 3), Text.substr(500, 12), "\xFF\x00z",
                                    Text.substr(0, 2), "nope"};
  std::vector<bool> Found = scan(Words, Text);
  for (size_t I = 0; I < Words.size(); ++I)
    EXPECT_EQ(Found[I], llvm::StringRef(Text).contains(Words[I])) << I;
}

TEST(LiteralSet, FindAllAgreesWithABruteForceOnRandomWordsAndTexts) {
  // Words of 2 to 20 bytes over a small alphabet, many sharing their first
  // eight bytes and differing after, found anywhere, the text's last bytes
  // included (where fewer than eight are left).
  std::mt19937 Rng(11);
  auto Random = [&](size_t Size) {
    std::string S;
    for (size_t I = 0; I < Size; ++I)
      S += "ab\xC3\x00"[Rng() % 4];
    return S;
  };
  for (int Case = 0; Case < 300; ++Case) {
    LiteralSet S;
    std::vector<std::string> Words;
    std::string Common = Random(8);
    for (int W = 0; W < 6; ++W) {
      std::string Word = Case % 2 ? Common + Random(Rng() % 12) : Random(2 + Rng() % 18);
      if (Word.size() < 2 || S.add(Word) != Words.size())
        continue;
      Words.push_back(Word);
    }
    S.freeze();
    std::string Text = Random(Rng() % 200);
    for (const std::string &W : Words) // plant each, one at the very end
      if (Rng() % 2)
        Text.insert(Rng() % (Text.size() + 1), W);
    if (!Words.empty())
      Text += Words[Rng() % Words.size()];
    std::vector<LiteralSet::Occurrence> Out;
    S.findAll(Text, Out);
    std::vector<std::pair<uint32_t, unsigned>> Got, Want;
    for (const auto &O : Out)
      Got.push_back({O.Offset, O.Word});
    for (size_t At = 0; At < Text.size(); ++At)
      for (unsigned I = 0; I < Words.size(); ++I)
        if (llvm::StringRef(Text).substr(At).startswith(Words[I]))
          Want.push_back({static_cast<uint32_t>(At), I});
    std::sort(Got.begin(), Got.end());
    ASSERT_EQ(Want, Got) << Case;
    std::vector<bool> Found = S.scan(Text);
    for (unsigned I = 0; I < Words.size(); ++I)
      ASSERT_EQ(llvm::StringRef(Text).contains(Words[I]), bool(Found[I])) << Case << " " << I;
  }
}

TEST(LiteralSet, WordsAtEveryOffsetOfTextsOfEveryLengthAroundABlock) {
  // The scan tests sixteen positions at a time, then the rest one by one: a
  // word at each offset of texts of 1 to 40 bytes (across the first blocks'
  // ends, and ending the text), and a two-byte pair alone in the last byte
  // (which starts no word: it has no second byte).
  LiteralSet S;
  unsigned Two = S.add("ab"), Three = S.add("xyz"), Long = S.add("cudas");
  S.freeze();
  for (size_t Size = 1; Size <= 40; ++Size)
    for (unsigned W : {Two, Three, Long}) {
      llvm::StringRef Word = S.word(W);
      for (size_t At = 0; At + Word.size() <= Size; ++At) {
        std::string Text(Size, '.');
        Text.replace(At, Word.size(), Word.str());
        std::vector<bool> Found = S.scan(Text);
        EXPECT_TRUE(Found[W]) << Size << " " << At << " " << Word.str();
        EXPECT_EQ(std::count(Found.begin(), Found.end(), true), 1) << Size << " " << At;
        std::vector<LiteralSet::Occurrence> Out;
        S.findAll(Text, Out);
        ASSERT_EQ(Out.size(), 1u) << Size << " " << At << " " << Word.str();
        EXPECT_EQ(Out[0].Offset, At);
        EXPECT_EQ(Out[0].Word, W);
      }
      std::string Cut(Size - 1, '.');
      Cut += 'a'; // "ab" cut at the end
      EXPECT_FALSE(S.scan(Cut)[Two]) << Size;
    }
}

TEST(LiteralSet, FindAllGivesEveryOccurrenceInOrder) {
  LiteralSet S;
  S.add("cuda");
  S.add("da");
  S.add("x");
  S.freeze();
  std::vector<LiteralSet::Occurrence> Out;
  S.findAll("cuda x cudax", Out);
  std::vector<std::pair<uint32_t, unsigned>> Got;
  for (const auto &O : Out)
    Got.push_back({O.Offset, O.Word});
  EXPECT_EQ(Got, (std::vector<std::pair<uint32_t, unsigned>>{
                     {0, 0}, {2, 1}, {5, 2}, {7, 0}, {9, 1}, {11, 2}}));
}

TEST(LiteralSet, ScanStopsWhenAskedTo) {
  LiteralSet S;
  unsigned Ab = S.add("ab"), Cd = S.add("cd"), Ef = S.add("ef");
  S.freeze();
  std::string Text = "xx ab yy cd zz ab ef";
  std::vector<unsigned> Seen;
  std::vector<bool> Found = S.scan(Text, [&](unsigned W) {
    Seen.push_back(W);
    return W == Cd;
  });
  EXPECT_TRUE(Found[Ab] && Found[Cd]);
  EXPECT_FALSE(Found[Ef]); // after the stop
  EXPECT_EQ((std::vector<unsigned>{Ab, Cd}), Seen); // once per word found, in order
  // Never stopped: every word, as without the callback.
  Found = S.scan(Text, [](unsigned) { return false; });
  EXPECT_TRUE(Found[Ab] && Found[Cd] && Found[Ef]);
  EXPECT_EQ(Found, S.scan(Text));
}

TEST(LiteralSet, RequirementsAreMetAsABruteForceSaysOnRandomTexts) {
  LiteralSet S;
  std::vector<std::string> Words = {"cuda", "nccl", "if", "USE_CUDA", "USE_ROCM", "x", "da"};
  std::vector<unsigned> Id;
  for (const std::string &W : Words)
    Id.push_back(S.add(W));
  unsigned Also = S.add("ROCM"); // in no requirement
  S.freeze();
  struct Req {
    std::vector<unsigned> All;
    std::vector<std::vector<unsigned>> Any;
  };
  std::vector<Req> Reqs = {{{Id[0], Id[1]}, {}},
                           {{Id[2]}, {{Id[3], Id[4]}}},
                           {{Id[5], Id[5]}, {{Id[6]}, {Id[1], Id[6]}}}};
  WordRequirements R;
  for (const Req &Q : Reqs)
    R.add(Q.All, Q.Any);
  std::mt19937 Rng(7);
  const char *Pieces[] = {"cu", "da", "nc", "cl", "if", "USE_", "CUDA", "ROCM", "x", " ", "\n"};
  for (int T = 0; T < 2000; ++T) {
    std::string Text;
    for (int K = Rng() % 12; K > 0; --K)
      Text += Pieces[Rng() % (sizeof(Pieces) / sizeof(Pieces[0]))];
    auto Has = [&](unsigned I) { return llvm::StringRef(Text).contains(Words[I]); };
    bool Want = llvm::any_of(Reqs, [&](const Req &Q) {
      return llvm::all_of(Q.All, Has) &&
             llvm::all_of(Q.Any, [&](const auto &G) { return llvm::any_of(G, Has); });
    });
    EXPECT_EQ(Want, R.met(S, Text)) << Text;
    // A word of no requirement is told where no requirement is met (the
    // scan read all of the text).
    std::optional<bool> HasAlso;
    EXPECT_EQ(Want, R.met(S, Text, Also, HasAlso)) << Text;
    if (Want)
      EXPECT_FALSE(HasAlso.has_value()) << Text;
    else
      EXPECT_EQ(std::optional<bool>(llvm::StringRef(Text).contains("ROCM")), HasAlso) << Text;
  }
  // No requirement: never met; an empty one: always.
  EXPECT_FALSE(WordRequirements().met(S, "cuda"));
  WordRequirements Empty;
  Empty.add({});
  EXPECT_TRUE(Empty.met(S, ""));
}

} // namespace
} // namespace devport
