//===--- LiteralSetTest.cpp -----------------------------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "core/LiteralSet.h"

#include "gtest/gtest.h"

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

TEST(LiteralSet, ScanStopsWhenEnough) {
  LiteralSet S;
  unsigned Ab = S.add("ab"), Cd = S.add("cd"), Ef = S.add("ef");
  S.freeze();
  std::string Text = "xx ab yy cd zz ab ef";
  unsigned Asked = 0;
  std::vector<bool> Found = S.scan(Text, [&](const std::vector<bool> &F) {
    ++Asked;
    return F[Cd];
  });
  EXPECT_TRUE(Found[Ab] && Found[Cd]);
  EXPECT_FALSE(Found[Ef]); // after the stop
  EXPECT_EQ(2u, Asked);    // once per word found
  // Never enough: every word, as without the predicate.
  Found = S.scan(Text, [](const std::vector<bool> &) { return false; });
  EXPECT_TRUE(Found[Ab] && Found[Cd] && Found[Ef]);
  EXPECT_EQ(Found, S.scan(Text));
}

} // namespace
} // namespace devport
