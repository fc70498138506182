//===--- MemoRegexTest.cpp - A regex that remembers its answers -----------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// MemoRegex answers as llvm::Regex does, the first time and from its memo:
/// groups point into the text asked about (not the one first remembered), a
/// group that took no part stays without data, answers without groups do
/// not stand for answers with them, two regexes never share an answer, and
/// a full memo or a long text changes nothing.
///
//===----------------------------------------------------------------------===//

#include "core/MemoRegex.h"

#include "llvm/Support/Regex.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

namespace devport {
namespace {

/// Asks M and LLVM's engine the same question and compares every answer.
void expectSame(const MemoRegex &M, const char *Pattern, llvm::StringRef T) {
  llvm::Regex Ref(Pattern);
  llvm::SmallVector<llvm::StringRef, 4> Want, Got;
  bool Matches = Ref.match(T, &Want);
  ASSERT_EQ(Matches, M.match(T)) << Pattern << " on " << T.str();
  ASSERT_EQ(Matches, M.match(T, &Got)) << Pattern << " on " << T.str();
  ASSERT_EQ(Want.size(), Got.size());
  for (size_t I = 0; I < Want.size(); ++I) {
    EXPECT_EQ(Want[I], Got[I]) << "group " << I;
    EXPECT_EQ(Want[I].data() == nullptr, Got[I].data() == nullptr) << "group " << I;
    if (Got[I].data()) {
      EXPECT_GE(Got[I].data(), T.data()) << "group " << I << " points into T";
      EXPECT_LE(Got[I].data() + Got[I].size(), T.data() + T.size());
    }
  }
}

TEST(MemoRegex, AnswersAsTheEngineDoesTwice) {
  const char *Pattern = "^[uU]?([\"'])cuda(:[0-9]*)?[\"']$";
  MemoRegex M(Pattern);
  for (int Round = 0; Round < 2; ++Round)
    for (const char *T : {"\"cuda\"", "'cuda:0'", "\"cuda:12\"", "\"cpu\"", "", "u'cuda'"})
      expectSame(M, Pattern, T);
}

TEST(MemoRegex, GroupsPointIntoTheTextAsked) {
  MemoRegex M("^\"cuda:([0-9]+)\"$");
  std::string First = "\"cuda:7\"", Second = First; // the same text at another place
  llvm::SmallVector<llvm::StringRef, 2> G;
  ASSERT_TRUE(M.match(First, &G));
  ASSERT_TRUE(M.match(Second, &G));
  ASSERT_EQ(2u, G.size());
  EXPECT_EQ(Second.data() + 6, G[1].data());
  EXPECT_EQ("7", G[1]);
}

TEST(MemoRegex, AGroupThatTookNoPartHasNoData) {
  MemoRegex M("^a(b)?(c)$");
  llvm::SmallVector<llvm::StringRef, 3> G;
  for (int Round = 0; Round < 2; ++Round) {
    ASSERT_TRUE(M.match("ac", &G));
    ASSERT_EQ(3u, G.size());
    EXPECT_EQ(nullptr, G[1].data());
    EXPECT_EQ("c", G[2]);
  }
}

TEST(MemoRegex, AnAnswerWithoutGroupsDoesNotStandForOneWith) {
  MemoRegex M("^(x+)$");
  ASSERT_TRUE(M.match("xx"));
  llvm::SmallVector<llvm::StringRef, 2> G;
  ASSERT_TRUE(M.match("xx", &G));
  ASSERT_EQ(2u, G.size());
  EXPECT_EQ("xx", G[1]);
}

TEST(MemoRegex, TwoRegexesKeepTheirOwnAnswers) {
  MemoRegex Cuda("^cuda$"), Cpu("^cpu$");
  for (int Round = 0; Round < 2; ++Round) {
    EXPECT_TRUE(Cuda.match("cuda"));
    EXPECT_FALSE(Cpu.match("cuda"));
    EXPECT_TRUE(Cpu.match("cpu"));
    EXPECT_FALSE(Cuda.match("cpu"));
  }
  // A regex made where another was destroyed has answers of its own.
  for (int Round = 0; Round < 3; ++Round) {
    auto Yes = std::make_unique<MemoRegex>("^t$");
    EXPECT_TRUE(Yes->match("t"));
    Yes.reset();
    auto No = std::make_unique<MemoRegex>("^u$");
    EXPECT_FALSE(No->match("t"));
  }
}

TEST(MemoRegex, AFullMemoAndLongTextsChangeNothing) {
  const char *Pattern = "^([0-9]+)-([a-z]*)$";
  MemoRegex M(Pattern);
  for (size_t I = 0; I < MemoRegex::MaxAnswers + 10; ++I)
    expectSame(M, Pattern, std::to_string(I) + "-ab");
  expectSame(M, Pattern, "1-ab");
  std::string Long(MemoRegex::MaxRemembered, '7');
  expectSame(M, Pattern, Long + "-x");
  expectSame(M, Pattern, Long + "-x");
  expectSame(M, Pattern, Long.substr(1) + "-");
}

TEST(MemoRegex, ThreadsKeepTheirOwnMemos) {
  const char *Pattern = "^([a-z]+)([0-9]*)$";
  MemoRegex M(Pattern);
  std::vector<std::thread> Threads;
  for (int K = 0; K < 4; ++K)
    Threads.emplace_back([&, K] {
      for (int I = 0; I < 2000; ++I)
        expectSame(M, Pattern, std::string(1 + (I + K) % 5, 'a') + std::to_string(I % 37));
    });
  for (std::thread &T : Threads)
    T.join();
}

} // namespace
} // namespace devport
