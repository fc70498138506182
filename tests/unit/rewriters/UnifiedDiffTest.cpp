//===--- UnifiedDiffTest.cpp - Unified diffs ------------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "rewriters/UnifiedDiff.h"

#include "tests/support/TestFiles.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <random>

namespace devport {
namespace {

/// Lines of T, split after each '\n', as the diff sees them.
std::vector<std::string> linesOf(llvm::StringRef T) {
  std::vector<std::string> Out;
  while (!T.empty()) {
    size_t NL = T.find('\n');
    size_t End = NL == llvm::StringRef::npos ? T.size() : NL + 1;
    Out.push_back(T.take_front(End).str());
    T = T.drop_front(End);
  }
  return Out;
}

/// Applies a unified diff to Old strictly (context must match, counts must
/// add up), without any external program; nullopt if the diff is malformed.
std::optional<std::string> applyDiff(llvm::StringRef Old, llvm::StringRef Diff) {
  std::vector<std::string> In = linesOf(Old), Patch = linesOf(Diff);
  if (Patch.size() < 2 || !llvm::StringRef(Patch[0]).startswith("--- ") ||
      !llvm::StringRef(Patch[1]).startswith("+++ "))
    return std::nullopt;
  std::string Out;
  size_t Pos = 0; // next line of In to copy
  size_t P = 2;
  auto ParseSide = [](llvm::StringRef S, size_t &Start, size_t &Len) {
    auto [A, B] = S.split(',');
    Len = 1;
    return !A.getAsInteger(10, Start) && (B.empty() || !B.getAsInteger(10, Len));
  };
  while (P < Patch.size()) {
    llvm::StringRef H = llvm::StringRef(Patch[P++]).rtrim("\n");
    llvm::SmallVector<llvm::StringRef, 4> F;
    H.split(F, ' ');
    size_t SA, LA, SB, LB;
    if (F.size() != 4 || F[0] != "@@" || F[3] != "@@" || !F[1].consume_front("-") ||
        !F[2].consume_front("+") || !ParseSide(F[1], SA, LA) || !ParseSide(F[2], SB, LB))
      return std::nullopt;
    size_t First = LA ? SA - 1 : SA; // 0-based first old line of the hunk
    if (First < Pos || First > In.size())
      return std::nullopt;
    for (; Pos < First; ++Pos)
      Out += In[Pos];
    size_t SeenA = 0, SeenB = 0;
    while (SeenA < LA || SeenB < LB) {
      if (P >= Patch.size() || Patch[P].empty())
        return std::nullopt;
      std::string Body = Patch[P].substr(1);
      char Tag = Patch[P][0];
      ++P;
      if (P < Patch.size() && Patch[P] == "\\ No newline at end of file\n") {
        if (Body.empty() || Body.back() != '\n')
          return std::nullopt;
        Body.pop_back();
        ++P;
      }
      if (Tag == ' ' || Tag == '-') {
        if (Pos >= In.size() || In[Pos] != Body)
          return std::nullopt;
        ++Pos, ++SeenA;
      }
      if (Tag == ' ' || Tag == '+') {
        Out += Body;
        ++SeenB;
      } else if (Tag != '-') {
        return std::nullopt;
      }
    }
    if (SeenA != LA || SeenB != LB)
      return std::nullopt;
  }
  for (; Pos < In.size(); ++Pos)
    Out += In[Pos];
  return Out;
}

/// Number of '-' and '+' lines in a diff.
size_t changedLines(llvm::StringRef Diff) {
  size_t N = 0;
  for (const std::string &L : linesOf(Diff))
    if ((L[0] == '-' || L[0] == '+') && !llvm::StringRef(L).startswith("--- ") &&
        !llvm::StringRef(L).startswith("+++ "))
      ++N;
  return N;
}

/// The fewest deleted plus inserted lines that turn A into B (LCS by DP).
size_t editDistance(llvm::StringRef A, llvm::StringRef B) {
  std::vector<std::string> X = linesOf(A), Y = linesOf(B);
  std::vector<std::vector<size_t>> L(X.size() + 1, std::vector<size_t>(Y.size() + 1, 0));
  for (size_t I = X.size(); I-- > 0;)
    for (size_t J = Y.size(); J-- > 0;)
      L[I][J] = X[I] == Y[J] ? L[I + 1][J + 1] + 1 : std::max(L[I + 1][J], L[I][J + 1]);
  return X.size() + Y.size() - 2 * L[0][0];
}

std::string numbered(int From, int To, const char *Suffix = "\n") {
  std::string S;
  for (int I = From; I <= To; ++I)
    S += std::to_string(I) + Suffix;
  return S;
}

TEST(UnifiedDiff, EqualTextsGiveNothing) {
  EXPECT_EQ("", unifiedDiff("a", "b", "x\n", "x\n"));
  EXPECT_EQ("", unifiedDiff("a", "b", "", ""));
}

TEST(UnifiedDiff, OneChangedLine) {
  EXPECT_EQ("--- a.py\n+++ b.py\n@@ -1,3 +1,3 @@\n 1\n-2\n+two\n 3\n",
            unifiedDiff("a.py", "b.py", "1\n2\n3\n", "1\ntwo\n3\n"));
}

TEST(UnifiedDiff, NamesAreWrittenAsGitWritesThem) {
  // A space: a tab after the name (patch would end the name at the space);
  // a tab, a newline, `"` or `\`: quoted with C escapes. UTF-8 stays as is.
  auto Header = [](llvm::StringRef Name) {
    std::string D = unifiedDiff(Name, Name, "a\n", "b\n");
    return D.substr(0, D.find("@@"));
  };
  EXPECT_EQ("--- dir/a.py\n+++ dir/a.py\n", Header("dir/a.py"));
  EXPECT_EQ("--- my dir/a b.py\t\n+++ my dir/a b.py\t\n", Header("my dir/a b.py"));
  EXPECT_EQ("--- \"a\\tb.py\"\n+++ \"a\\tb.py\"\n", Header("a\tb.py"));
  auto FirstLine = [&](llvm::StringRef Name) {
    std::string H = Header(Name);
    return H.substr(0, H.find('\n') + 1);
  };
  EXPECT_EQ("--- \"a\\nb \\\"c\\\\d\\001.py\"\t\n", FirstLine("a\nb \"c\\d\x01.py"));
  EXPECT_EQ("--- \xC3\xA9.py\n", FirstLine("\xC3\xA9.py"));
}

TEST(UnifiedDiff, ContextIsCutAtThreeLines) {
  std::string Old = numbered(1, 10);
  std::string New = Old;
  New.replace(New.find("5\n"), 2, "five\n");
  EXPECT_EQ("--- f\n+++ f\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n",
            unifiedDiff("f", "f", Old, New));
  EXPECT_EQ("--- f\n+++ f\n@@ -4,3 +4,3 @@\n 4\n-5\n+five\n 6\n",
            unifiedDiff("f", "f", Old, New, 1));
  EXPECT_EQ("--- f\n+++ f\n@@ -5 +5 @@\n-5\n+five\n", unifiedDiff("f", "f", Old, New, 0));
}

TEST(UnifiedDiff, EmptySidesNameTheLineBefore) {
  EXPECT_EQ("--- f\n+++ f\n@@ -0,0 +1 @@\n+x\n", unifiedDiff("f", "f", "", "x\n"));
  EXPECT_EQ("--- f\n+++ f\n@@ -1,2 +0,0 @@\n-x\n-y\n", unifiedDiff("f", "f", "x\ny\n", ""));
  // Pure insertion and deletion without context: `-a-1,0` as GNU diff.
  EXPECT_EQ("--- f\n+++ f\n@@ -3,0 +4,2 @@\n+new\n+new2\n",
            unifiedDiff("f", "f", numbered(1, 6), "1\n2\n3\nnew\nnew2\n4\n5\n6\n", 0));
  EXPECT_EQ("--- f\n+++ f\n@@ -4 +3,0 @@\n-4\n",
            unifiedDiff("f", "f", numbered(1, 6), "1\n2\n3\n5\n6\n", 0));
}

TEST(UnifiedDiff, InsertionsAtStartAndEnd) {
  EXPECT_EQ("--- f\n+++ f\n@@ -1,2 +1,3 @@\n+import torch\n a\n b\n",
            unifiedDiff("f", "f", "a\nb\n", "import torch\na\nb\n"));
  EXPECT_EQ("--- f\n+++ f\n@@ -1,2 +1,3 @@\n a\n b\n+c\n",
            unifiedDiff("f", "f", "a\nb\n", "a\nb\nc\n"));
}

TEST(UnifiedDiff, NoNewlineAtEndOfFile) {
  EXPECT_EQ("--- f\n+++ f\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n"
            "\\ No newline at end of file\n",
            unifiedDiff("f", "f", "a", "b"));
  // Adding the final newline changes the last line.
  EXPECT_EQ("--- f\n+++ f\n@@ -1,2 +1,2 @@\n x\n-y\n\\ No newline at end of file\n+y\n",
            unifiedDiff("f", "f", "x\ny", "x\ny\n"));
  EXPECT_EQ("--- f\n+++ f\n@@ -1,2 +1,2 @@\n x\n-y\n+y\n\\ No newline at end of file\n",
            unifiedDiff("f", "f", "x\ny\n", "x\ny"));
  // An unchanged last line without a newline is context with the marker.
  EXPECT_EQ("--- f\n+++ f\n@@ -1,2 +1,2 @@\n-x\n+X\n y\n\\ No newline at end of file\n",
            unifiedDiff("f", "f", "x\ny", "X\ny"));
}

TEST(UnifiedDiff, LinesKeepTheirEndings) {
  EXPECT_EQ("--- f\n+++ f\n@@ -1,3 +1,3 @@\n a\r\n-b\r\n+B\r\n c\r\n",
            unifiedDiff("f", "f", "a\r\nb\r\nc\r\n", "a\r\nB\r\nc\r\n"));
  // Only the line ending changed.
  EXPECT_EQ("--- f\n+++ f\n@@ -1 +1 @@\n-a\n+a\r\n", unifiedDiff("f", "f", "a\n", "a\r\n"));
  // A lone CR does not end a line.
  EXPECT_EQ("--- f\n+++ f\n@@ -1 +1 @@\n-a\rb\n+a\rc\n", unifiedDiff("f", "f", "a\rb\n", "a\rc\n"));
}

TEST(UnifiedDiff, NearbyChangesShareAHunk) {
  std::string Old = numbered(1, 30);
  auto Change = [&](std::initializer_list<int> Lines) {
    std::string New;
    for (int I = 1; I <= 30; ++I)
      New += (std::find(Lines.begin(), Lines.end(), I) != Lines.end() ? "x" : std::to_string(I)) +
             "\n";
    return unifiedDiff("f", "f", Old, New);
  };
  // Six unchanged lines between two changes (2 * context): one hunk.
  std::string D = Change({5, 12});
  EXPECT_NE(std::string::npos, D.find("@@ -2,14 +2,14 @@")) << D;
  EXPECT_EQ(1u, llvm::StringRef(D).count("@@ -"));
  // Seven: two hunks.
  D = Change({5, 13});
  EXPECT_NE(std::string::npos, D.find("@@ -2,7 +2,7 @@")) << D;
  EXPECT_NE(std::string::npos, D.find("@@ -10,7 +10,7 @@")) << D;
  EXPECT_EQ(2u, llvm::StringRef(D).count("@@ -"));
}

TEST(UnifiedDiff, HunkLinesMatchTheHeaders) {
  std::string Old = numbered(1, 40), New = numbered(1, 40);
  New.replace(New.find("\n2\n") + 1, 2, "two\nextra\n");
  New.erase(New.find("\n20\n") + 1, 3);
  New += "41\n";
  std::string D = unifiedDiff("f", "f", Old, New);
  EXPECT_EQ("--- f\n+++ f\n"
            "@@ -1,5 +1,6 @@\n 1\n-2\n+two\n+extra\n 3\n 4\n 5\n"
            "@@ -17,7 +18,6 @@\n 17\n 18\n 19\n-20\n 21\n 22\n 23\n"
            "@@ -38,3 +38,4 @@\n 38\n 39\n 40\n+41\n",
            D);
  EXPECT_EQ(New, applyDiff(Old, D));
}

TEST(UnifiedDiff, IsMinimalOnSmallRandomTexts) {
  std::mt19937 Rng(42);
  for (int Case = 0; Case < 400; ++Case) {
    auto Random = [&] {
      std::string S;
      int N = static_cast<int>(Rng() % 25);
      for (int I = 0; I < N; ++I)
        S += std::string(1, static_cast<char>('a' + Rng() % 4)) + (Rng() % 9 ? "\n" : "\r\n");
      if (Rng() % 4 == 0 && !S.empty())
        S.pop_back(); // no final newline (or a final lone CR)
      return S;
    };
    std::string Old = Random(), New = Random();
    unsigned Context = Rng() % 4;
    std::string D = unifiedDiff("f", "f", Old, New, Context);
    ASSERT_EQ(New, applyDiff(Old, D)) << "old:\n" << Old << "\nnew:\n" << New << "\ndiff:\n" << D;
    EXPECT_EQ(editDistance(Old, New), changedLines(D)) << D;
  }
}

TEST(UnifiedDiff, VeryDifferentTextsStayFastAndCorrect) {
  // Few distinct lines in random order: the search gets long and settles
  // for a good (not the best) script past its cost limit.
  std::mt19937 Rng(7);
  std::string Old, New;
  for (int I = 0; I < 20000; ++I) {
    Old += "line " + std::to_string(Rng() % 8) + "\n";
    New += "line " + std::to_string(Rng() % 8) + "\n";
  }
  auto T0 = std::chrono::steady_clock::now();
  std::string D = unifiedDiff("f", "f", Old, New);
  auto Secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - T0).count();
  EXPECT_EQ(New, applyDiff(Old, D));
  EXPECT_LT(Secs, 20.0);
  // Nothing in common at all.
  Old = numbered(1, 100000), New = numbered(1, 100000, "x\n");
  D = unifiedDiff("f", "f", Old, New);
  EXPECT_EQ(New, applyDiff(Old, D));
  EXPECT_EQ(200000u, changedLines(D));
}

TEST(UnifiedDiff, LargeFileWithFewChangesIsFast) {
  std::string Old = numbered(1, 300000), New = "import torch\n" + Old;
  New.replace(New.find("\n150000\n") + 1, 6, "changed");
  New += "end\n";
  auto T0 = std::chrono::steady_clock::now();
  std::string D = unifiedDiff("f", "f", Old, New);
  auto Secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - T0).count();
  EXPECT_EQ(4u, changedLines(D));
  EXPECT_EQ(3u, llvm::StringRef(D).count("@@ -"));
  EXPECT_EQ(New, applyDiff(Old, D));
  EXPECT_LT(Secs, 10.0);
}

/// Applies Diff to Old with the system's `patch -p0` and returns the result,
/// or nullopt when there is no `patch`.
std::optional<std::string> patchWith(const std::string &Old, const std::string &Diff) {
  auto Patch = llvm::sys::findProgramByName("patch");
  if (!Patch)
    return std::nullopt;
  test::TempDir D;
  D.write("f.py", Old);
  D.write("f.diff", Diff);
  std::string Dir = D.path(), Input = D.path("f.diff");
  llvm::StringRef Args[] = {*Patch, "-s", "-f", "-p0", "--no-backup-if-mismatch",
                            "-d",   Dir,  "-i", Input};
  llvm::Optional<llvm::StringRef> Redirects[] = {llvm::StringRef("/dev/null"), llvm::None,
                                                 llvm::None};
  std::string ErrMsg;
  int RC = llvm::sys::ExecuteAndWait(*Patch, Args, llvm::None, Redirects, 0, 0, &ErrMsg);
  EXPECT_EQ(0, RC) << ErrMsg << "\n" << Diff;
  // `patch` may remove a file that became empty.
  return llvm::sys::fs::exists(D.path("f.py")) ? D.read("f.py") : std::string();
}

/// Applies Diff with `git apply -p0` outside a repository; nullopt without git.
std::optional<std::string> gitApplyWith(const std::string &Old, const std::string &Diff) {
  auto Git = llvm::sys::findProgramByName("git");
  if (!Git)
    return std::nullopt;
  test::TempDir D;
  D.write("f.py", Old);
  D.write("f.diff", Diff);
  std::string Dir = D.path(), Input = D.path("f.diff");
  llvm::StringRef Args[] = {
      *Git, "-C", Dir, "apply", "-p0", "--unidiff-zero", "--whitespace=nowarn", Input};
  llvm::Optional<llvm::StringRef> Redirects[] = {llvm::StringRef("/dev/null"), llvm::None,
                                                 llvm::None};
  std::string ErrMsg;
  int RC = llvm::sys::ExecuteAndWait(*Git, Args, llvm::None, Redirects, 0, 0, &ErrMsg);
  EXPECT_EQ(0, RC) << ErrMsg << "\n" << Diff;
  return llvm::sys::fs::exists(D.path("f.py")) ? D.read("f.py") : std::string();
}

std::vector<std::pair<std::string, std::string>> patchCases() {
  std::vector<std::pair<std::string, std::string>> Cases = {
      {"a\nb\nc\n", "a\nB\nc\n"},
      {"a\r\nb\r\nc\r\n", "a\r\nB\r\nc\r\n"},       // CRLF
      {"a\r\nb\r\n", "import torch\r\na\r\nb\r\n"}, // CRLF, insertion at start
      {"a\nb", "a\nc"},                             // no final newline on either side
      {"a\nb", "a\nb\n"},                           // final newline added
      {"a\nb\n", "a\nb"},                           // final newline removed
      {"x\n", "import torch\nx\n"},                 // insertion at start
      {"x\n", "x\ny\n"},                            // insertion at end
      {"x", "x\ny"},                                // insertion at end, no newline
      {"", "new\n"},                                // from empty
      {"a\nb\n", "\n"},                             // to a blank line
      {"a\rb\n", "a\rc\n"},                         // a lone CR inside a line
      {numbered(1, 12), "0\n" + numbered(1, 11)},   // shift
      {numbered(1, 12), numbered(1, 12, "\r\n")},   // all line endings
  };
  // Many hunks: every 10th line of 500 changed, some lines gone, some new.
  std::string Old = numbered(1, 500), New;
  for (int I = 1; I <= 500; ++I) {
    if (I % 10 == 0)
      New += "changed " + std::to_string(I) + "\n";
    else if (I % 37 == 0)
      continue;
    else
      New += std::to_string(I) + "\n";
    if (I % 53 == 0)
      New += "inserted\n";
  }
  Cases.push_back({Old, New});
  return Cases;
}

TEST(UnifiedDiff, PatchAppliesIt) {
  for (const auto &[Old, New] : patchCases()) {
    std::string D = unifiedDiff("f.py", "f.py", Old, New);
    EXPECT_EQ(New, applyDiff(Old, D)) << D;
    auto Got = patchWith(Old, D);
    if (!Got)
      GTEST_SKIP() << "no `patch` program";
    EXPECT_EQ(New, *Got) << D;
  }
}

TEST(UnifiedDiff, PatchAppliesItWithoutContext) {
  for (const auto &[Old, New] : patchCases()) {
    std::string D = unifiedDiff("f.py", "f.py", Old, New, 0);
    EXPECT_EQ(New, applyDiff(Old, D)) << D;
    auto Got = patchWith(Old, D);
    if (!Got)
      GTEST_SKIP() << "no `patch` program";
    EXPECT_EQ(New, *Got) << D;
  }
}

TEST(UnifiedDiff, GitApplyAcceptsIt) {
  for (const auto &[Old, New] : patchCases()) {
    if (Old.empty())
      continue; // git wants a creation patch (/dev/null) for that one
    auto Got = gitApplyWith(Old, unifiedDiff("f.py", "f.py", Old, New));
    if (!Got)
      GTEST_SKIP() << "no `git` program";
    EXPECT_EQ(New, *Got) << Old;
  }
}

} // namespace
} // namespace devport
