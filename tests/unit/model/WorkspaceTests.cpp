//===--- WorkspaceTests.cpp - Which files to check ------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "core/Workspace.h"

#include "tests/support/TestFiles.h"

#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>
#include <unistd.h>

namespace devport {
namespace {

/// Collects under D (as an absolute path) and returns the paths relative to it.
std::vector<std::string> collect(const test::TempDir &D, WorkspaceOptions O = {},
                                 std::vector<std::string> Paths = {""}) {
  for (std::string &P : Paths)
    P = P.empty() ? D.path() : D.path(P);
  auto R = collectFiles(Paths, O);
  EXPECT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  std::vector<std::string> Out;
  for (const std::string &F : R->Files)
    Out.push_back(F.substr(D.path().size() + 1));
  return Out;
}

TEST(Workspace, WalksPythonFilesSortedAndSkipsToolDirectories) {
  test::TempDir D;
  for (const char *F : {"b.py", "a.py", "pkg/c.pyi", "pkg/readme.md", ".git/x.py",
                        "node_modules/y.py", "pkg/__pycache__/z.py", ".venv/lib/w.py"})
    D.write(F, "x = 1\n");
  EXPECT_EQ((std::vector<std::string>{"a.py", "b.py", "pkg/c.pyi"}), collect(D));
}

TEST(Workspace, GitignoreSemantics) {
  test::TempDir D;
  D.mkdir(".git");
  D.write(".gitignore", "# comment\n*.gen.py\nbuild/\n/top.py\n!keep.gen.py\ndocs/**/*.py\n"
                        "sub/anchored.py\n");
  for (const char *F : {"a.py", "x.gen.py", "keep.gen.py", "build/b.py", "top.py", "sub/top.py",
                        "docs/a/b/c.py", "docs/d.py", "sub/anchored.py", "other/sub/anchored.py",
                        "build.py"})
    D.write(F, "");
  // `docs/**/*.py` matches docs/d.py too: `**/` is zero or more directories.
  EXPECT_EQ((std::vector<std::string>{"a.py", "build.py", "keep.gen.py",
                                      "other/sub/anchored.py", "sub/top.py"}),
            collect(D));
}

TEST(Workspace, NestedGitignoreOverridesAndIgnoredDirectoriesStayIgnored) {
  test::TempDir D;
  D.mkdir(".git");
  D.write(".gitignore", "*.py\n!src/\n!src/*.py\nignored/\n");
  D.write("src/.gitignore", "!*.py\nlocal.py\n");
  D.write("ignored/.gitignore", "!*.py\n");
  for (const char *F : {"root.py", "src/a.py", "src/local.py", "ignored/b.py"})
    D.write(F, "");
  EXPECT_EQ((std::vector<std::string>{"src/a.py"}), collect(D));
  WorkspaceOptions NoIgnore;
  NoIgnore.RespectGitignore = false;
  EXPECT_EQ(4u, collect(D, NoIgnore).size());
}

TEST(Workspace, GitignoreOfAnAncestorApplies) {
  test::TempDir D;
  D.mkdir(".git");
  D.write(".gitignore", "gen/\n");
  D.write("proj/gen/a.py", "");
  D.write("proj/b.py", "");
  D.write(".git/info/exclude", "secret.py\n");
  D.write("proj/secret.py", "");
  EXPECT_EQ((std::vector<std::string>{"proj/b.py"}), collect(D, {}, {"proj"}));
}

TEST(Workspace, ExcludesAndExplicitFiles) {
  test::TempDir D;
  D.mkdir(".git");
  D.write(".gitignore", "ignored.py\n");
  for (const char *F : {"a.py", "third_party/x.py", "pkg/gen_b.py", "ignored.py", "tool.txt"})
    D.write(F, "");
  WorkspaceOptions O;
  O.Excludes = {"third_party", "**/gen_*.py"};
  EXPECT_EQ((std::vector<std::string>{"a.py"}), collect(D, O));
  // Named files are checked even if ignored or not *.py, but excludes apply.
  EXPECT_EQ((std::vector<std::string>{"ignored.py", "tool.txt"}),
            collect(D, O, {"ignored.py", "tool.txt", "third_party/x.py"}));
}

TEST(Workspace, SymlinkedDirectoriesAreNotFollowedFilesAre) {
  test::TempDir D;
  D.write("real/a.py", "");
  D.symlink(D.path("real"), "loop");
  D.symlink(D.path("real/a.py"), "link.py");
  EXPECT_EQ((std::vector<std::string>{"link.py", "real/a.py"}), collect(D));
}

TEST(Workspace, MissingPathIsAnError) {
  auto R = collectFiles({"/definitely/not/here.py"}, {});
  ASSERT_FALSE(static_cast<bool>(R));
  EXPECT_EQ("/definitely/not/here.py: no such file or directory", llvm::toString(R.takeError()));
}

TEST(Workspace, SpellingOfTheRootIsKept) {
  test::TempDir D;
  D.write("src/a.py", "");
  llvm::SmallString<128> Old;
  llvm::sys::fs::current_path(Old);
  ASSERT_EQ(0, ::chdir(D.path().c_str()));
  auto R = collectFiles({"./src", "src/"}, {});
  ASSERT_EQ(0, ::chdir(Old.c_str()));
  ASSERT_TRUE(static_cast<bool>(R));
  // One file, one entry: the spelling that sorts first (fix must not write it twice).
  EXPECT_EQ((std::vector<std::string>{"./src/a.py"}), R->Files);
}

TEST(Workspace, MatchGlob) {
  EXPECT_TRUE(matchGlob("*.py", "a/b/c.py", false));
  EXPECT_TRUE(matchGlob("/a/*.py", "a/c.py", false));
  EXPECT_FALSE(matchGlob("/a/*.py", "a/b/c.py", false));
  EXPECT_TRUE(matchGlob("a/**/c.py", "a/c.py", false));
  EXPECT_TRUE(matchGlob("a/**/c.py", "a/x/y/c.py", false));
  EXPECT_TRUE(matchGlob("**/c.py", "x/c.py", false));
  EXPECT_TRUE(matchGlob("a/**", "a/x/y", false));
  EXPECT_FALSE(matchGlob("a/**", "a", true));
  EXPECT_TRUE(matchGlob("build/", "build", true));
  EXPECT_FALSE(matchGlob("build/", "build", false));
  EXPECT_TRUE(matchGlob("f[0-9].py", "f7.py", false));
  EXPECT_FALSE(matchGlob("f[!0-9].py", "f7.py", false));
  EXPECT_TRUE(matchGlob("\\#x.py", "#x.py", false));
  EXPECT_TRUE(matchGlob("?.py", "a.py", false));
  EXPECT_FALSE(matchGlob("# comment", "# comment", false));
}

} // namespace
} // namespace devport
