//===--- RewritersTests.cpp - Edits, diffs, templates, writes -------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "rewriters/AtomicWrite.h"
#include "rewriters/EditApplier.h"
#include "rewriters/Template.h"
#include "rewriters/TokenDiff.h"
#include "rewriters/UnifiedDiff.h"

#include "tests/support/Annotations.h"
#include "tests/support/TestFiles.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

namespace devport {
namespace {

Fix fixOf(std::vector<Edit> Es) {
  Fix F;
  F.Edits = std::move(Es);
  return F;
}

std::string applyAll(llvm::StringRef Text, const std::vector<Fix> &Fs, ApplyResult *Out = nullptr) {
  std::vector<const Fix *> Ptrs;
  for (const Fix &F : Fs)
    Ptrs.push_back(&F);
  ApplyResult R = applyFixes(Text, Ptrs);
  if (Out)
    *Out = R;
  return R.Text;
}

TEST(EditApplier, OuterFixWinsOverNestedOne) {
  test::Annotations A("x = $outer[[f($inner[[g(1)]])]]\n");
  std::vector<Fix> Fs{fixOf({Edit::replacement(A.range("inner"), "G(1)")}),
                      fixOf({Edit::replacement(A.range("outer"), "F(g(1))")})};
  ApplyResult R;
  EXPECT_EQ("x = F(g(1))\n", applyAll(A.code(), Fs, &R));
  EXPECT_EQ(std::vector<size_t>{1}, R.Applied);
  EXPECT_EQ(std::vector<size_t>{0}, R.Skipped);
}

TEST(EditApplier, PartialOverlapEarlierWins) {
  std::vector<Fix> Fs{fixOf({Edit::replacement({2, 6}, "B")}),
                      fixOf({Edit::replacement({0, 4}, "A")})};
  ApplyResult R;
  EXPECT_EQ("A456789", applyAll("0123456789", Fs, &R).substr(0, 7));
  EXPECT_EQ(std::vector<size_t>{1}, R.Applied);
}

TEST(EditApplier, AdjacentEditsBothApply) {
  std::vector<Fix> Fs{fixOf({Edit::replacement({0, 2}, "ab")}),
                      fixOf({Edit::replacement({2, 4}, "cd")})};
  EXPECT_EQ("abcd45", applyAll("012345", Fs));
}

TEST(EditApplier, IdenticalInsertionsAreAppliedOnce) {
  std::string T = "a()\nb()\n";
  std::vector<Fix> Fs{
      fixOf({Edit::insertion(0, "import torch\n"), Edit::replacement({0, 1}, "A")}),
      fixOf({Edit::insertion(0, "import torch\n"), Edit::replacement({4, 5}, "B")})};
  ApplyResult R;
  EXPECT_EQ("import torch\nA()\nB()\n", applyAll(T, Fs, &R));
  EXPECT_EQ(2u, R.Applied.size());
}

TEST(EditApplier, DifferentInsertionsAtOneOffsetConflict) {
  std::vector<Fix> Fs{fixOf({Edit::insertion(1, "x")}), fixOf({Edit::insertion(1, "y")})};
  ApplyResult R;
  EXPECT_EQ("axb", applyAll("ab", Fs, &R));
  EXPECT_EQ(std::vector<size_t>{1}, R.Skipped);
}

TEST(EditApplier, InvalidFixesAreSkipped) {
  std::vector<Fix> Fs{fixOf({Edit::replacement({2, 99}, "x")}),
                      fixOf({Edit::replacement({0, 2}, "x"), Edit::replacement({1, 3}, "y")}),
                      fixOf({})};
  ApplyResult R;
  EXPECT_EQ("abcd", applyAll("abcd", Fs, &R));
  EXPECT_EQ(3u, R.Skipped.size());
}

TEST(EditApplier, KeepsCrlfBomAndNonAsciiBytes) {
  std::string T = "\xEF\xBB\xBF# \xC3\xA9t\xC3\xA9\r\nx = f()\r\n";
  size_t F = T.find("f()");
  std::vector<Fix> Fs{fixOf({Edit::replacement({uint32_t(F), uint32_t(F + 1)}, "g")})};
  EXPECT_EQ("\xEF\xBB\xBF# \xC3\xA9t\xC3\xA9\r\nx = g()\r\n", applyAll(T, Fs));
}

TEST(EditApplier, ManyFixesScale) {
  std::string T;
  std::vector<Fix> Fs;
  for (int I = 0; I < 20000; ++I) {
    uint32_t At = static_cast<uint32_t>(T.size());
    T += "f(x)\n";
    Fs.push_back(fixOf({Edit::replacement({At, At + 1}, "g")}));
  }
  ApplyResult R;
  std::string Out = applyAll(T, Fs, &R);
  EXPECT_EQ(20000u, R.Applied.size());
  EXPECT_EQ(std::string::npos, Out.find("f("));
}

TEST(Template, SubstitutesMetavariables) {
  auto L = [](llvm::StringRef N) -> std::optional<std::string> {
    if (N == "DEV")
      return std::string("rank");
    if (N == "ARGS")
      return std::string("a, b");
    return std::nullopt;
  };
  EXPECT_EQ("torch.accelerator.set_device_index(rank)",
            expandTemplate("torch.accelerator.set_device_index($DEV)", L));
  EXPECT_EQ("f(a, b)", expandTemplate("f($$$ARGS)", L));
  EXPECT_EQ("f()", expandTemplate("f($NONE)", L));
  EXPECT_EQ("f(rank)", expandTemplate("f($NONE, $DEV)", L));
  EXPECT_EQ("f(rank)", expandTemplate("f($DEV, $NONE)", L));
  EXPECT_EQ("f(x)", expandTemplate("f($NONE, x)", L));
  EXPECT_EQ("cost: $5", expandTemplate("cost: $$5", L));
  EXPECT_EQ("torch.Stream(rank)", expandTemplate("torch.Stream($DEV, priority=$P)", L));
  EXPECT_EQ("torch.Stream(priority=rank)", expandTemplate("torch.Stream($NONE, priority=$DEV)", L));
  EXPECT_EQ("f(enabled=rank, a, b)",
            expandTemplate("f(enabled=$DEV, dtype=$DT, $$$ARGS)", L));
  EXPECT_EQ("$lower stays", expandTemplate("$lower stays", L));
}

TEST(TokenDiff, KeepsCommentsAndLayoutAroundUnchangedTokens) {
  std::string Src = "torch.cuda.synchronize(  # wait\n    device=rank,\n)";
  std::vector<Edit> Es = tokenEdits(Src, {0, uint32_t(Src.size())},
                                    "torch.accelerator.synchronize(rank)");
  Fix F = fixOf(Es);
  EXPECT_EQ("torch.accelerator.synchronize(  # wait\n    rank,\n)", applyAll(Src, {F}));
}

TEST(TokenDiff, RenameIsOneEdit) {
  std::string Src = "x = torch.cuda.set_device(rank)";
  std::vector<Edit> Es = tokenEdits(Src, {4, uint32_t(Src.size())},
                                    "torch.accelerator.set_device_index(rank)");
  ASSERT_EQ(1u, Es.size());
  EXPECT_EQ("accelerator.set_device_index", Es[0].Replacement);
  EXPECT_EQ(Src.substr(Es[0].Range.Begin, Es[0].Range.size()), "cuda.set_device");
}

TEST(TokenDiff, DeletionsInsertionsAndStrings) {
  auto Run = [](std::string Src, std::string Rep) {
    std::vector<Edit> Es = tokenEdits(Src, {0, uint32_t(Src.size())}, Rep);
    return applyAll(Src, {fixOf(Es)});
  };
  EXPECT_EQ("f(b)", Run("f(a, b)", "f(b)"));
  EXPECT_EQ("f(a, b)", Run("f(a)", "f(a, b)"));
  EXPECT_EQ("g('x y')", Run("f('x y')", "g('x y')"));
  EXPECT_EQ("not x", Run("x", "not x"));
  EXPECT_EQ("h(1.5)", Run("f(1.5)", "h(1.5)"));
  EXPECT_EQ("a if c else b", Run("a or b", "a if c else b"));
  EXPECT_EQ("f(\"\"\"a\nb\"\"\")", Run("g(\"\"\"a\nb\"\"\")", "f(\"\"\"a\nb\"\"\")"));
}

TEST(UnifiedDiff, EqualTextsGiveNothing) { EXPECT_EQ("", unifiedDiff("a", "b", "x\n", "x\n")); }

TEST(UnifiedDiff, OneChangedLine) {
  EXPECT_EQ("--- a.py\n+++ a.py\n@@ -1,3 +1,3 @@\n 1\n-2\n+two\n 3\n",
            unifiedDiff("a.py", "a.py", "1\n2\n3\n", "1\ntwo\n3\n"));
}

TEST(UnifiedDiff, SeparateHunksAndNoFinalNewline) {
  std::string Old, New;
  for (int I = 1; I <= 20; ++I) {
    Old += std::to_string(I) + "\n";
    New += (I == 2 ? "X" : I == 18 ? "Y" : std::to_string(I)) + "\n";
  }
  std::string D = unifiedDiff("f", "f", Old, New);
  EXPECT_NE(std::string::npos, D.find("@@ -1,5 +1,5 @@"));
  EXPECT_NE(std::string::npos, D.find("@@ -15,6 +15,6 @@"));
  EXPECT_EQ("--- f\n+++ f\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n"
            "\\ No newline at end of file\n",
            unifiedDiff("f", "f", "a", "b"));
  EXPECT_EQ("--- f\n+++ f\n@@ -0,0 +1 @@\n+x\n", unifiedDiff("f", "f", "", "x\n"));
}

/// Applies Diff to Old with the system's `patch` and returns the result.
std::optional<std::string> patchWith(const std::string &Old, const std::string &Diff) {
  auto Patch = llvm::sys::findProgramByName("patch");
  if (!Patch)
    return std::nullopt;
  test::TempDir D;
  D.write("f.py", Old);
  D.write("f.diff", Diff);
  std::string P = *Patch;
  llvm::StringRef Args[] = {P, "-s", "-p0", "-i", "f.diff"};
  llvm::SmallString<128> Cwd;
  llvm::sys::fs::current_path(Cwd);
  EXPECT_EQ(0, ::chdir(D.path().c_str()));
  int RC = llvm::sys::ExecuteAndWait(P, Args);
  EXPECT_EQ(0, ::chdir(Cwd.c_str()));
  EXPECT_EQ(0, RC);
  return D.read("f.py");
}

TEST(UnifiedDiff, PatchAppliesIt) {
  std::vector<std::pair<std::string, std::string>> Cases = {
      {"a\nb\nc\n", "a\nB\nc\n"},
      {"a\r\nb\r\nc\r\n", "a\r\nB\r\nc\r\n"},
      {"a\nb", "a\nc"},
      {"x\n", "import torch\nx\n"},
      {"x\n", "x\ny\n"},
      {"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n"},
      {"", "new\n"},
  };
  for (const auto &[Old, New] : Cases) {
    auto Got = patchWith(Old, unifiedDiff("f.py", "f.py", Old, New));
    if (!Got)
      GTEST_SKIP() << "no `patch` program";
    EXPECT_EQ(New, *Got) << Old;
  }
}

TEST(AtomicWrite, ReplacesContentKeepsModeAndLeavesNoTempFiles) {
  test::TempDir D;
  D.write("a.py", "old\n");
  ::chmod(D.path("a.py").c_str(), 0755);
  auto S = statFile(D.path("a.py"));
  ASSERT_TRUE(static_cast<bool>(S));
  ASSERT_FALSE(static_cast<bool>(writeFileAtomically(D.path("a.py"), "new\n", *S)));
  EXPECT_EQ("new\n", D.read("a.py"));
  struct stat St;
  ASSERT_EQ(0, ::stat(D.path("a.py").c_str(), &St));
  EXPECT_EQ(0755u, St.st_mode & 07777);
  std::error_code EC;
  int Entries = 0;
  for (llvm::sys::fs::directory_iterator It(D.path(), EC), End; It != End && !EC;
       It.increment(EC))
    ++Entries;
  EXPECT_EQ(1, Entries);
}

TEST(AtomicWrite, RefusesAFileChangedSinceRead) {
  test::TempDir D;
  D.write("a.py", "old\n");
  auto S = statFile(D.path("a.py"));
  ASSERT_TRUE(static_cast<bool>(S));
  D.write("a.py", "changed by someone else\n");
  llvm::Error E = writeFileAtomically(D.path("a.py"), "new\n", *S);
  ASSERT_TRUE(static_cast<bool>(E));
  EXPECT_NE(std::string::npos, llvm::toString(std::move(E)).find("changed on disk"));
  EXPECT_EQ("changed by someone else\n", D.read("a.py"));
}

TEST(AtomicWrite, WritesThroughASymlink) {
  test::TempDir D;
  D.write("real.py", "old\n");
  D.symlink(D.path("real.py"), "link.py");
  auto S = statFile(D.path("link.py"));
  ASSERT_TRUE(static_cast<bool>(S));
  ASSERT_FALSE(static_cast<bool>(writeFileAtomically(D.path("link.py"), "new\n", *S)));
  EXPECT_EQ("new\n", D.read("real.py"));
  EXPECT_TRUE(llvm::sys::fs::is_symlink_file(D.path("link.py")));
}

TEST(AtomicWrite, FailsCleanlyInAReadOnlyDirectory) {
  test::TempDir D;
  D.write("ro/a.py", "old\n");
  auto S = statFile(D.path("ro/a.py"));
  ASSERT_TRUE(static_cast<bool>(S));
  ::chmod(D.path("ro").c_str(), 0555);
  if (::access(D.path("ro").c_str(), W_OK) == 0) {
    ::chmod(D.path("ro").c_str(), 0755);
    GTEST_SKIP() << "running as root: directory permissions are not enforced";
  }
  llvm::Error E = writeFileAtomically(D.path("ro/a.py"), "new\n", *S);
  ::chmod(D.path("ro").c_str(), 0755);
  ASSERT_TRUE(static_cast<bool>(E));
  EXPECT_NE(std::string::npos, llvm::toString(std::move(E)).find("not written"));
  EXPECT_EQ("old\n", D.read("ro/a.py"));
}

} // namespace
} // namespace devport
