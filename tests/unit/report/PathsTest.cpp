//===--- PathsTest.cpp - Root-relative paths and file URIs ----------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "report/Paths.h"

#include "tests/support/Expected.h"
#include "tests/support/TestFiles.h"

#include <gtest/gtest.h>

namespace devport {
namespace {

TEST(Paths, PercentEncodesAllButUnreservedAndSlash) {
  EXPECT_EQ("src/a_b-c.d~e.py", percentEncodePath("src/a_b-c.d~e.py"));
  EXPECT_EQ("my%20dir/a%23b.py", percentEncodePath("my dir/a#b.py"));
  EXPECT_EQ("100%25.py", percentEncodePath("100%.py"));
  EXPECT_EQ("caf%C3%A9.py", percentEncodePath("caf\xC3\xA9.py"));
  EXPECT_EQ("c%3Ad%3Fe%26f%2Bg", percentEncodePath("c:d?e&f+g")); // never a scheme
}

TEST(Paths, FileUri) {
  EXPECT_EQ("file:///tmp/my%20repo", fileUri("/tmp/my repo"));
  EXPECT_EQ("file:///tmp/my%20repo/", fileUri("/tmp/my repo", /*Dir=*/true));
  EXPECT_EQ("file:///", fileUri("/", /*Dir=*/true));
}

TEST(Paths, RelativeToRoot) {
  test::TempDir D;
  D.write("repo/src/a.py", "");
  D.write("other/b.py", "");
  ASSERT_THAT_EXPECTED_VALUE(Root, RootPaths::create(D.path("repo")));
  ASSERT_THAT_EXPECTED_VALUE(A, Root.relative(D.path("repo/src/a.py")));
  EXPECT_EQ("src/a.py", A);
  ASSERT_THAT_EXPECTED_VALUE(Dots, Root.relative(D.path("repo/src/../src/./a.py")));
  EXPECT_EQ("src/a.py", Dots);
  auto Outside = Root.relative(D.path("other/b.py"));
  ASSERT_FALSE(bool(Outside));
  std::string Msg = llvm::toString(Outside.takeError());
  EXPECT_NE(std::string::npos, Msg.find("outside the root")) << Msg;
  // A sibling whose name starts like the root is outside it.
  D.write("repo2/c.py", "");
  EXPECT_FALSE(bool(Root.relative(D.path("repo2/c.py"))));
  llvm::consumeError(Root.relative(D.path("repo2/c.py")).takeError());
}

TEST(Paths, RelativeThroughSymlink) {
  test::TempDir D;
  D.write("repo/a.py", "");
  D.symlink(D.path("repo"), "link");
  ASSERT_THAT_EXPECTED_VALUE(Root, RootPaths::create(D.path("repo")));
  ASSERT_THAT_EXPECTED_VALUE(A, Root.relative(D.path("link/a.py")));
  EXPECT_EQ("a.py", A);
}

TEST(Paths, RootMustBeADirectory) {
  test::TempDir D;
  D.write("f.py", "");
  EXPECT_FALSE(bool(RootPaths::create(D.path("f.py"))));
  llvm::consumeError(RootPaths::create(D.path("f.py")).takeError());
}

TEST(Paths, FindsRepositoryRoot) {
  test::TempDir D;
  D.mkdir("repo/.git");
  D.mkdir("repo/src/pkg");
  D.write("wt/.git", "gitdir: /elsewhere\n"); // a worktree's .git is a file
  D.mkdir("wt/sub");
  EXPECT_EQ(D.path("repo"), findRepositoryRoot(D.path("repo/src/pkg")));
  EXPECT_EQ(D.path("wt"), findRepositoryRoot(D.path("wt/sub")));
}

} // namespace
} // namespace devport
