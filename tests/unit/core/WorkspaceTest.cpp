//===--- WorkspaceTest.cpp - Which files to check -------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// collectFiles(): the walk, the skip list, .gitignore semantics (git's
/// rules, checked against `git check-ignore` by hand), --exclude globs,
/// explicit paths, symlinks and the spelling of the output; matchGlob(); and
/// the TempDir test helper everything here stands on.
///
//===----------------------------------------------------------------------===//

#include "core/Workspace.h"

#include "tests/support/TestFiles.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace devport {
namespace {

using Paths = std::vector<std::string>;

/// Runs the test body in a directory and goes back on scope exit (excludes
/// and relative roots are relative to the current directory).
class ScopedCwd {
public:
  explicit ScopedCwd(llvm::StringRef Dir) {
    llvm::sys::fs::current_path(Old);
    EXPECT_FALSE(llvm::sys::fs::set_current_path(Dir)) << Dir.str();
  }
  ~ScopedCwd() { llvm::sys::fs::set_current_path(Old); }

private:
  llvm::SmallString<256> Old;
};

/// collectFiles() run inside D on relative Roots; fails the test on error.
WorkspaceFiles collectIn(const test::TempDir &D, Paths Roots = {"."},
                         WorkspaceOptions O = WorkspaceOptions::forTest()) {
  ScopedCwd Cwd(D.path());
  auto R = collectFiles(Roots, O);
  if (!R) {
    ADD_FAILURE() << llvm::toString(R.takeError());
    return {};
  }
  return std::move(*R);
}

/// The files collectFiles() finds from the root "." inside D, without the
/// "./" prefix.
Paths collect(const test::TempDir &D, WorkspaceOptions O = WorkspaceOptions::forTest()) {
  Paths Out;
  for (const std::string &F : collectIn(D, {"."}, O).Files) {
    EXPECT_EQ(0u, llvm::StringRef(F).find("./")) << F;
    Out.push_back(F.substr(2));
  }
  return Out;
}

/// A TempDir that is the root of a git work tree.
struct Repo : test::TempDir {
  Repo() { mkdir(".git/info"); }
};

void touch(const test::TempDir &D, std::initializer_list<const char *> Files) {
  for (const char *F : Files)
    D.write(F, "x = 1\n");
}

// ----------------------------------------------------------------- walk ---

TEST(WorkspaceTest, WalksPythonFilesSorted) {
  test::TempDir D;
  touch(D, {"b.py", "a.py", "pkg/z.pyi", "pkg/readme.md", "pkg/sub/c.py", "setup.cfg", "A.py",
            "pkg/data.py.txt"});
  EXPECT_EQ((Paths{"A.py", "a.py", "b.py", "pkg/sub/c.py", "pkg/z.pyi"}), collect(D));
}

TEST(WorkspaceTest, ExtensionsOption) {
  test::TempDir D;
  touch(D, {"a.py", "b.pyx", "c.pxd"});
  WorkspaceOptions O = WorkspaceOptions::forTest();
  O.Extensions = {".pyx", ".pxd"};
  EXPECT_EQ((Paths{"b.pyx", "c.pxd"}), collect(D, O));
}

TEST(WorkspaceTest, SkipsToolAndVcsDirectories) {
  test::TempDir D;
  for (const char *Dir : {".git", ".hg", ".svn", ".bzr", ".venv", "venv", ".tox", ".nox",
                          ".mypy_cache", ".ruff_cache", ".pytest_cache", "__pycache__",
                          "node_modules", ".eggs", "__pypackages__", "buck-out", "_build"}) {
    D.write(std::string(Dir) + "/x.py", "");
    D.write(std::string("pkg/") + Dir + "/y.py", "");
  }
  // Only directories with exactly these names are skipped.
  touch(D, {"venv.py", "myvenv/a.py", "pkg/_build_tools/b.py", "pkg/.gitx/c.py"});
  EXPECT_EQ((Paths{"myvenv/a.py", "pkg/.gitx/c.py", "pkg/_build_tools/b.py", "venv.py"}),
            collect(D));
}

TEST(WorkspaceTest, SkipListDoesNotApplyToTheRootsNamed) {
  test::TempDir D;
  touch(D, {".venv/lib/site.py", "node_modules/pkg/x.py"});
  WorkspaceFiles R = collectIn(D, {".venv/lib", "node_modules"});
  EXPECT_EQ((Paths{".venv/lib/site.py", "node_modules/pkg/x.py"}), R.Files);
}

TEST(WorkspaceTest, EmptyDirectoryAndEmptyPathList) {
  test::TempDir D;
  D.mkdir("empty");
  EXPECT_EQ(Paths{}, collectIn(D, {"empty"}).Files);
  EXPECT_EQ(Paths{}, collectIn(D, {}).Files);
}

// ------------------------------------------------------------ gitignore ---

TEST(WorkspaceTest, GitignoreCommentsBlanksAndEscapes) {
  Repo D;
  D.write(".gitignore", "# ignored.py\n"
                        "\n"
                        "   \n"
                        "\\#hash.py\n"
                        "\\!bang.py\n"
                        "trailing.py   \n"
                        "star\\*.py\n");
  touch(D,
        {"ignored.py", "#hash.py", "!bang.py", "trailing.py", "star*.py", "starx.py", "kept.py"});
  // `# ignored.py` is a comment; `\#` and `\!` escape; trailing spaces go;
  // `\*` is a literal star.
  EXPECT_EQ((Paths{"ignored.py", "kept.py", "starx.py"}), collect(D));
}

TEST(WorkspaceTest, GitignoreCrlfAndByteOrderMark) {
  Repo D;
  D.write(".gitignore", "\xEF\xBB\xBF"
                        "first.py\r\n"
                        "second.py\r\n");
  touch(D, {"first.py", "second.py", "third.py"});
  EXPECT_EQ((Paths{"third.py"}), collect(D));
}

TEST(WorkspaceTest, GitignoreNegationLastMatchWins) {
  Repo D;
  D.write(".gitignore", "*.gen.py\n"
                        "!keep.gen.py\n"
                        "!again.gen.py\n"
                        "again.gen.py\n");
  touch(D,
        {"a.gen.py", "keep.gen.py", "again.gen.py", "sub/b.gen.py", "sub/keep.gen.py", "plain.py"});
  EXPECT_EQ((Paths{"keep.gen.py", "plain.py", "sub/keep.gen.py"}), collect(D));
}

TEST(WorkspaceTest, GitignoreAnchoring) {
  Repo D;
  // A leading '/' or an inner '/' anchors to the .gitignore's directory; a
  // pattern without one matches a name at any depth.
  D.write(".gitignore", "/top.py\n"
                        "sub/anchored.py\n"
                        "anywhere.py\n");
  D.write("pkg/.gitignore", "/local.py\n"
                            "deep/inner.py\n");
  touch(D, {"top.py", "sub/top.py", "sub/anchored.py", "other/sub/anchored.py", "anywhere.py",
            "x/y/anywhere.py", "pkg/local.py", "pkg/deep/local.py", "pkg/deep/inner.py",
            "deep/inner.py", "pkg/x/deep/inner.py"});
  EXPECT_EQ((Paths{"deep/inner.py", "other/sub/anchored.py", "pkg/deep/local.py",
                   "pkg/x/deep/inner.py", "sub/top.py"}),
            collect(D));
}

TEST(WorkspaceTest, GitignoreDirectoryOnlyPatterns) {
  Repo D;
  D.write(".gitignore", "out.py/\n"
                        "/build/\n"
                        "cache/\n");
  // `out.py/` ignores the directory named out.py, not the file sub/out.py.
  touch(D, {"out.py/x.py", "sub/out.py", "build/a.py", "src/build/b.py", "src/cache/c.py",
            "cache.py"});
  EXPECT_EQ((Paths{"cache.py", "src/build/b.py", "sub/out.py"}), collect(D));
}

TEST(WorkspaceTest, GitignoreDoubleStar) {
  Repo D;
  D.write(".gitignore", "**/gen\n"       // a directory or file named gen anywhere
                        "docs/**/*.py\n" // zero or more directories between
                        "vendor/**\n"    // everything inside vendor, not vendor itself
                        "!vendor/keep.py\n"
                        "a**z.py\n"); // not a whole segment: an ordinary `*`
  touch(D, {"gen/a.py", "x/y/gen/b.py", "docs/d.py", "docs/a/b/c.py", "notdocs/e.py", "vendor/v.py",
            "vendor/keep.py", "vendor/sub/w.py", "abcz.py", "a/z.py", "generate.py"});
  EXPECT_EQ((Paths{"a/z.py", "generate.py", "notdocs/e.py", "vendor/keep.py"}), collect(D));
}

TEST(WorkspaceTest, GitignoreCharacterClasses) {
  Repo D;
  D.write(".gitignore", "f[0-9].py\n"
                        "g[!a].py\n"
                        "h[[:upper:]].py\n"
                        "q?.py\n");
  touch(D, {"f1.py", "fa.py", "ga.py", "gb.py", "hX.py", "hx.py", "qq.py", "q.py"});
  EXPECT_EQ((Paths{"fa.py", "ga.py", "hx.py", "q.py"}), collect(D));
}

TEST(WorkspaceTest, NegationCannotReincludeInsideAnIgnoredDirectory) {
  Repo D;
  D.write(".gitignore", "build/\n"
                        "!build/keep.py\n"
                        "/gen/*\n"
                        "!/gen/sub/\n");
  D.write("build/.gitignore", "!*.py\n");
  // gen/ itself is not ignored (only what it holds), so gen/sub can come back.
  touch(D, {"build/keep.py", "build/x.py", "gen/a.py", "gen/sub/b.py"});
  EXPECT_EQ((Paths{"gen/sub/b.py"}), collect(D));
}

TEST(WorkspaceTest, DeeperGitignoreOverridesShallower) {
  Repo D;
  D.write(".gitignore", "gen_*.py\n"
                        "*.py\n"
                        "!src/\n"
                        "!src/**/*.py\n");
  D.write("src/.gitignore", "!gen_keep.py\n"
                            "local.py\n");
  D.write("src/deep/.gitignore", "!local.py\n");
  touch(D, {"root.py", "gen_keep.py", "src/a.py", "src/gen_keep.py", "src/local.py",
            "src/deep/local.py", "src/deep/gen_x.py"});
  EXPECT_EQ((Paths{"src/a.py", "src/deep/gen_x.py", "src/deep/local.py", "src/gen_keep.py"}),
            collect(D));
}

TEST(WorkspaceTest, GitignoreOfAncestorsUpToTheRepositoryRoot) {
  test::TempDir D;
  // outer/ is not part of the repository: its .gitignore does not count.
  D.write("outer/.gitignore", "*.py\n");
  D.mkdir("outer/repo/.git/info");
  D.write("outer/repo/.git/info/exclude", "secret.py\n");
  D.write("outer/repo/.gitignore", "gen/\n/proj/local.py\n");
  D.write("outer/repo/proj/.gitignore", "mine.py\n");
  touch(D, {"outer/repo/proj/src/a.py", "outer/repo/proj/src/gen/b.py",
            "outer/repo/proj/src/secret.py", "outer/repo/proj/src/mine.py",
            "outer/repo/proj/local.py", "outer/repo/proj/keep.py"});
  EXPECT_EQ((Paths{"outer/repo/proj/src/a.py"}), collectIn(D, {"outer/repo/proj/src"}).Files);
  EXPECT_EQ((Paths{"outer/repo/proj/keep.py", "outer/repo/proj/src/a.py"}),
            collectIn(D, {"outer/repo/proj"}).Files);
}

TEST(WorkspaceTest, InfoExcludeHasTheLowestPrecedence) {
  Repo D;
  D.write(".git/info/exclude", "*.py\n");
  D.write(".gitignore", "!keep.py\n");
  touch(D, {"keep.py", "other.py"});
  EXPECT_EQ((Paths{"keep.py"}), collect(D));
}

TEST(WorkspaceTest, NestedRepositoryStartsFresh) {
  Repo D;
  D.write(".gitignore", "vendored.py\n");
  D.mkdir("inner/.git/info");
  D.write("inner/.git/info/exclude", "inner_only.py\n");
  // A submodule: .git is a file naming the git directory.
  D.mkdir("modules/sub");
  D.write("sub/.git", "gitdir: ../modules/sub\n");
  D.write("modules/sub/info/exclude", "sub_only.py\n");
  touch(D, {"vendored.py", "inner/vendored.py", "inner/inner_only.py", "sub/vendored.py",
            "sub/sub_only.py", "inner_only.py"});
  EXPECT_EQ((Paths{"inner/vendored.py", "inner_only.py", "sub/vendored.py"}), collect(D));
}

TEST(WorkspaceTest, GitignoreOutsideARepositoryAppliesBelowTheRoot) {
  test::TempDir D;
  D.write(".gitignore", "*.py\n");
  D.write("proj/.gitignore", "gen.py\n");
  touch(D, {"proj/a.py", "proj/gen.py"});
  // No .git anywhere: the walked tree's own .gitignore files count, the
  // ancestors' do not.
  EXPECT_EQ((Paths{"proj/a.py"}), collectIn(D, {"proj"}).Files);
}

TEST(WorkspaceTest, RespectGitignoreOff) {
  Repo D;
  D.write(".gitignore", "*.py\n");
  D.write(".git/info/exclude", "*.py\n");
  touch(D, {"a.py", "sub/b.py"});
  WorkspaceOptions O = WorkspaceOptions::forTest();
  O.RespectGitignore = false;
  EXPECT_EQ((Paths{"a.py", "sub/b.py"}), collect(D, O));
  EXPECT_EQ(Paths{}, collect(D));
}

// ------------------------------------------------------------- excludes ---

TEST(WorkspaceTest, ExcludesMatchNamesAtAnyDepthAndPathsFromTheCwd) {
  test::TempDir D;
  touch(D, {"a.py", "third_party/x.py", "pkg/third_party/y.py", "pkg/gen_b.py", "gen_c.py",
            "build/z.py", "pkg/build.py", "pkg/out/w.py", "out/v.py"});
  WorkspaceOptions O = WorkspaceOptions::forTest();
  O.Excludes = {"third_party", "**/gen_*.py", "build/", "./pkg/out"};
  EXPECT_EQ((Paths{"a.py", "out/v.py", "pkg/build.py"}), collect(D, O));
}

TEST(WorkspaceTest, ExcludesAreRelativeToTheCurrentDirectory) {
  test::TempDir D;
  touch(D, {"proj/a/x.py", "proj/b/x.py"});
  WorkspaceOptions O = WorkspaceOptions::forTest();
  O.Excludes = {"a/x.py"};
  {
    ScopedCwd Cwd(D.path("proj"));
    auto R = collectFiles({"."}, O);
    ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
    EXPECT_EQ((Paths{"./b/x.py"}), R->Files);
  }
  // From D, the same glob names nothing.
  EXPECT_EQ((Paths{"proj/a/x.py", "proj/b/x.py"}), collectIn(D, {"proj"}, O).Files);
}

TEST(WorkspaceTest, ExcludesApplyToExplicitPaths) {
  test::TempDir D;
  touch(D, {"third_party/x.py", "pkg/gen/y.py", "pkg/z.py", "tool.txt", "keep.py"});
  WorkspaceOptions O = WorkspaceOptions::forTest();
  O.Excludes = {"third_party", "pkg/gen/", "*.txt"};
  EXPECT_EQ(
      (Paths{"keep.py", "pkg/z.py"}),
      collectIn(
          D, {"third_party/x.py", "pkg/gen/y.py", "tool.txt", "keep.py", "third_party", "pkg"}, O)
          .Files);
}

TEST(WorkspaceTest, NegatedExcludeReincludes) {
  test::TempDir D;
  touch(D, {"gen_a.py", "gen_keep.py"});
  WorkspaceOptions O = WorkspaceOptions::forTest();
  O.Excludes = {"gen_*.py", "!gen_keep.py"};
  EXPECT_EQ((Paths{"gen_keep.py"}), collect(D, O));
}

// ------------------------------------------------------- explicit paths ---

TEST(WorkspaceTest, ExplicitFilesAreKeptWhateverTheirExtensionOrGitignore) {
  Repo D;
  D.write(".gitignore", "ignored.py\nignored_dir/\n");
  touch(D, {"ignored.py", "tool.txt", "script", "ignored_dir/a.py", ".venv/b.py"});
  EXPECT_EQ(
      (Paths{".venv/b.py", "ignored.py", "ignored_dir/a.py", "script", "tool.txt"}),
      collectIn(D, {"ignored.py", "tool.txt", "script", "ignored_dir/a.py", ".venv/b.py"}).Files);
  // A directory named explicitly is walked even if ignored; its contents are
  // not matched against the pattern that names the directory itself.
  EXPECT_EQ((Paths{"ignored_dir/a.py"}), collectIn(D, {"ignored_dir"}).Files);
}

TEST(WorkspaceTest, MissingPathIsAnError) {
  test::TempDir D;
  touch(D, {"a.py"});
  ScopedCwd Cwd(D.path());
  auto R = collectFiles({"a.py", "nope/b.py"}, WorkspaceOptions::forTest());
  ASSERT_FALSE(static_cast<bool>(R));
  EXPECT_EQ("nope/b.py: no such file or directory", llvm::toString(R.takeError()));
  auto Abs = collectFiles({"/definitely/not/here.py"}, WorkspaceOptions::forTest());
  ASSERT_FALSE(static_cast<bool>(Abs));
  EXPECT_EQ("/definitely/not/here.py: no such file or directory", llvm::toString(Abs.takeError()));
}

TEST(WorkspaceTest, ALongListIsLookedUpOnSeveralThreadsWithTheSameResult) {
  // Over 512 paths a thread, the named paths are looked up in parallel:
  // the files, their order and the first error are those of one thread.
  test::TempDir D;
  Paths Named;
  for (int I = 0; I < 1500; ++I) {
    std::string F = "d" + std::to_string(I % 7) + "/f" + std::to_string(I) + ".py";
    D.write(F, "");
    Named.push_back(F);
  }
  D.symlink("d0/f0.py", "link.py");
  Named.push_back("link.py");
  Named.push_back("d3");
  Named.push_back("./d1/f1.py");
  WorkspaceOptions One = WorkspaceOptions::forTest(), Four = WorkspaceOptions::forTest();
  One.Threads = 1;
  Four.Threads = 4;
  WorkspaceFiles A = collectIn(D, Named, One), B = collectIn(D, Named, Four);
  EXPECT_EQ(1500u, A.Files.size());
  EXPECT_EQ(A.Files, B.Files);
  Named[1200] = "missing/late.py";
  Named[900] = "missing/early.py";
  ScopedCwd Cwd(D.path());
  for (const WorkspaceOptions &O : {One, Four}) {
    auto R = collectFiles(Named, O);
    ASSERT_FALSE(static_cast<bool>(R));
    EXPECT_EQ("missing/early.py: no such file or directory", llvm::toString(R.takeError()));
  }
}

// ------------------------------------------------------------- symlinks ---

TEST(WorkspaceTest, SymlinkedDirectoriesAreNotFollowedSymlinkedFilesAre) {
  test::TempDir D;
  touch(D, {"real/a.py"});
  D.symlink(D.path("real"), "loop"); // would be real/ a second time
  D.symlink("..", "real/up");        // a cycle
  D.symlink(D.path("real/a.py"), "link.py"); // real/a.py again: kept once
  D.symlink("real/b.py", "b.py");
  touch(D, {"real/b.py"});
  D.symlink("missing.py", "broken.py"); // dropped quietly while walking
  WorkspaceFiles R = collectIn(D);
  EXPECT_EQ((Paths{"./real/a.py", "./real/b.py"}), R.Files);
  EXPECT_EQ(Paths{}, R.Warnings);
  EXPECT_TRUE(R.Errors.empty());
}

TEST(WorkspaceTest, EachRealFileIsListedOnce) {
  // Two symlinks to one file gave it to two threads at once, the second
  // finding it "changed on disk". A file and a link to it: the file's name.
  test::TempDir D;
  touch(D, {"lib/real.py"});
  D.symlink("../lib/real.py", "pkg/one.py");
  D.symlink("../lib/real.py", "pkg/two.py");
  EXPECT_EQ((Paths{"pkg/one.py"}), collectIn(D, {"pkg"}).Files);
  EXPECT_EQ((Paths{"./lib/real.py"}), collectIn(D).Files);
  EXPECT_EQ((Paths{"lib/real.py"}), collectIn(D, {"pkg/two.py", "lib/real.py", "lib"}).Files);
  // A root reached through a symlinked directory and directly.
  D.symlink("lib", "alias");
  EXPECT_EQ((Paths{"alias/real.py"}), collectIn(D, {"lib", "alias"}).Files);
}

TEST(WorkspaceTest, NamedFilesAreOneFileWhateverTheDirectorySpelling) {
  // A named file's identity is its directory's real path and its name: a
  // symlinked directory, and `..` after one (resolved as the system does,
  // not as text), name the same file.
  test::TempDir D;
  touch(D, {"lib/real.py", "lib/sub/x.py", "b.py", "lib/b.py"});
  D.symlink("lib", "alias");
  D.symlink("lib/sub", "sublink");
  EXPECT_EQ((Paths{"alias/real.py"}), collectIn(D, {"alias/real.py", "lib/real.py"}).Files);
  // sublink/.. is lib/, not the directory that holds sublink.
  EXPECT_EQ((Paths{"lib/b.py"}), collectIn(D, {"sublink/../b.py", "lib/b.py"}).Files);
  EXPECT_EQ((Paths{"b.py", "lib/b.py"}), collectIn(D, {"b.py", "lib/b.py"}).Files);
  // A file named twice, and through ./
  EXPECT_EQ((Paths{"./b.py"}), collectIn(D, {"b.py", "./b.py"}).Files);
  // Below a symlinked directory, and through a link to a directory inside
  // it (each directory's real path is its parent's plus its name, unless
  // it is a link).
  EXPECT_EQ((Paths{"alias/sub/x.py"}),
            collectIn(D, {"lib/sub/x.py", "alias/sub/x.py", "sublink/x.py"}).Files);
  D.symlink("alias/sub", "deeplink");
  EXPECT_EQ((Paths{"deeplink/x.py", "lib/real.py"}),
            collectIn(D, {"lib/sub/x.py", "deeplink/x.py", "lib/real.py"}).Files);
}

TEST(WorkspaceTest, SymlinkedRootDirectoryIsWalked) {
  test::TempDir D;
  touch(D, {"real/a.py"});
  D.symlink("real", "alias");
  EXPECT_EQ((Paths{"alias/a.py"}), collectIn(D, {"alias"}).Files);
}

TEST(WorkspaceTest, BrokenSymlinkNamedExplicitlyIsAnError) {
  test::TempDir D;
  touch(D, {"a.py"});
  D.symlink("missing.py", "broken.py");
  ScopedCwd Cwd(D.path());
  auto R = collectFiles({"a.py", "broken.py"}, WorkspaceOptions::forTest());
  ASSERT_FALSE(static_cast<bool>(R));
  EXPECT_EQ("broken.py: broken symbolic link to missing.py", llvm::toString(R.takeError()));
}

TEST(WorkspaceTest, UnreadableDirectoryIsAnError) {
  // Root reads every directory: the walk runs as another user.
  test::TempDir D;
  touch(D, {"a.py", "locked/b.py"});
  ASSERT_EQ(0, ::chmod(D.path().c_str(), 0755));
  ASSERT_EQ(0, ::chmod(D.path("locked").c_str(), 0));
  auto Walk = [&] {
    WorkspaceFiles R = collectIn(D);
    std::string Out;
    for (const std::string &F : R.Files)
      Out += "file " + F + "\n";
    for (const WalkError &E : R.Errors)
      Out += "error " + E.Path + " | " + E.Message + "\n";
    for (const std::string &W : R.Warnings)
      Out += "warning " + W + "\n";
    return Out;
  };
  std::string Got = test::runAsNobody(Walk).value_or("");
  if (::geteuid() != 0)
    Got = Walk();
  ::chmod(D.path("locked").c_str(), 0755);
  EXPECT_EQ("file ./a.py\n"
            "error ./locked | ./locked: cannot read directory: permission denied\n",
            Got);
}

/// Makes Depth nested directories "d" under Dir (relative: any depth),
/// with a file b.py in the deepest, and removes them when destroyed.
class DeepTree {
public:
  DeepTree(const std::string &Dir, unsigned Depth) : Dir(Dir), Depth(Depth) {
    ScopedCwd Cwd(Dir);
    for (unsigned I = 0; I < Depth; ++I)
      if (::mkdir("d", 0755) != 0 || ::chdir("d") != 0) {
        ADD_FAILURE() << "cannot make level " << I << ": " << std::strerror(errno);
        this->Depth = I;
        return;
      }
    int FD = ::open("b.py", O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
    EXPECT_LE(0, FD);
    ::close(FD);
  }
  ~DeepTree() {
    ScopedCwd Cwd(Dir);
    for (unsigned I = 0; I < Depth; ++I)
      (void)::chdir("d");
    ::unlink("b.py");
    for (unsigned I = 0; I < Depth; ++I)
      if (::chdir("..") != 0 || ::rmdir("d") != 0)
        ADD_FAILURE() << "cannot remove level " << Depth - I << ": " << std::strerror(errno);
  }

private:
  std::string Dir;
  unsigned Depth;
};

TEST(WorkspaceTest, DeepTreesAreWalkedWithoutRecursion) {
  // 2,000 levels overflowed the sanitizer build's stack when the walk
  // recursed. (The path stays under PATH_MAX.)
  test::TempDir D;
  DeepTree Tree(D.path(), 2000);
  touch(D, {"a.py"});
  WorkspaceFiles R = collectIn(D);
  ASSERT_EQ(2u, R.Files.size());
  EXPECT_EQ("./a.py", R.Files[0]);
  EXPECT_TRUE(llvm::StringRef(R.Files[1]).endswith("/d/d/b.py"));
  EXPECT_EQ(2 + 2 * 2000 + 4, R.Files[1].size());
  EXPECT_TRUE(R.Errors.empty());
}

TEST(WorkspaceTest, DirectoryDeeperThanPathMaxIsAnError) {
  test::TempDir D;
  DeepTree Tree(D.path(), 2100); // "d/" * 2100: 4,200 bytes
  touch(D, {"a.py"});
  WorkspaceFiles R = collectIn(D);
  EXPECT_EQ((Paths{"./a.py"}), R.Files);
  ASSERT_EQ(1u, R.Errors.size());
  llvm::StringRef Msg = R.Errors[0].Message;
  EXPECT_TRUE(Msg.endswith(": cannot read directory: file name too long")) << Msg.take_back(80).str();
}

TEST(WorkspaceTest, TempFilesOfInterruptedFixesAreListedWhenAsked) {
  test::TempDir D;
  touch(D, {"pkg/a.py", "pkg/.a.py.devport-Ab12Cd", "pkg/.b.py.devport-XXXXXX", "c.py",
            ".c.py.devport-000000", "pkg/.a.py.devport-short", "pkg/a.py.devport-Ab12Cd"});
  D.mkdir("pkg/.d.py.devport-Dir000");
  WorkspaceOptions O = WorkspaceOptions::forTest();
  EXPECT_EQ(Paths{}, collectIn(D, {"."}, O).TempFiles);
  O.FindTempFiles = true;
  WorkspaceFiles R = collectIn(D, {"."}, O);
  EXPECT_EQ((Paths{"./.c.py.devport-000000", "./pkg/.a.py.devport-Ab12Cd",
                   "./pkg/.b.py.devport-XXXXXX"}),
            R.TempFiles);
  EXPECT_EQ((Paths{"./c.py", "./pkg/a.py"}), R.Files);
  // For a file named, its directory is looked at.
  EXPECT_EQ((Paths{"pkg/.a.py.devport-Ab12Cd", "pkg/.b.py.devport-XXXXXX"}),
            collectIn(D, {"pkg/a.py"}, O).TempFiles);
  EXPECT_EQ(Paths{".c.py.devport-000000"}, collectIn(D, {"c.py"}, O).TempFiles);
}

TEST(WorkspaceTest, TempFileNames) {
  EXPECT_TRUE(isTempFileName(".a.py.devport-Ab12Cd"));
  EXPECT_TRUE(isTempFileName(".report.html.devport-000000"));
  EXPECT_FALSE(isTempFileName("a.py.devport-Ab12Cd"));
  EXPECT_FALSE(isTempFileName(".a.py.devport-Ab12C"));
  EXPECT_FALSE(isTempFileName(".a.py.devport-Ab12C-"));
  EXPECT_FALSE(isTempFileName("..devport-Ab12Cd"));
  EXPECT_FALSE(isTempFileName(".a.py.devport-Ab12Cde"));
}

// ------------------------------------------------------------ spellings ---

TEST(WorkspaceTest, OutputIsSpelledAsTheRoot) {
  test::TempDir D;
  touch(D, {"src/a.py", "src/sub/b.py"});
  EXPECT_EQ((Paths{"src/a.py", "src/sub/b.py"}), collectIn(D, {"src"}).Files);
  EXPECT_EQ((Paths{"./src/a.py", "./src/sub/b.py"}), collectIn(D, {"./src"}).Files);
  EXPECT_EQ((Paths{"src/a.py", "src/sub/b.py"}), collectIn(D, {"src/"}).Files);
  EXPECT_EQ((Paths{"src/a.py", "src/sub/b.py"}), collectIn(D, {"src//"}).Files);
  EXPECT_EQ((Paths{"./src/a.py", "./src/sub/b.py"}), collectIn(D, {"."}).Files);
  EXPECT_EQ((Paths{D.path("src/a.py"), D.path("src/sub/b.py")}),
            collectIn(D, {D.path("src")}).Files);
  EXPECT_EQ((Paths{"src/sub/../sub/b.py"}), collectIn(D, {"src/sub/../sub"}).Files);
}

TEST(WorkspaceTest, OutputIsSortedAndEachFileListedOnce) {
  test::TempDir D;
  touch(D, {"b/x.py", "a/y.py", "a/z.py"});
  // The same file reached twice is kept once, under the spelling that sorts
  // first.
  EXPECT_EQ((Paths{"./a/y.py", "./a/z.py", "b/x.py"}),
            collectIn(D, {"b", "a", "a/z.py", "./a", "b/x.py", "b"}).Files);
  // Sorted by spelling, not by the files' real paths; named files in order
  // or not.
  touch(D, {"m.py", "n.py"});
  for (Paths Named : {Paths{"n.py", "./m.py", "a/y.py"}, Paths{"./m.py", "a/y.py", "n.py"}})
    EXPECT_EQ((Paths{"./m.py", "a/y.py", "n.py"}), collectIn(D, Named).Files);
}

// ------------------------------------------------------------ matchGlob ---

TEST(MatchGlobTest, BasenameAndAnchoredPatterns) {
  EXPECT_TRUE(matchGlob("*.py", "a/b/c.py", false));
  EXPECT_TRUE(matchGlob("c.py", "a/b/c.py", false));
  EXPECT_FALSE(matchGlob("b/c.py", "a/b/c.py", false)); // inner '/' anchors
  EXPECT_TRUE(matchGlob("a/b/c.py", "a/b/c.py", false));
  EXPECT_TRUE(matchGlob("/a/*.py", "a/c.py", false));
  EXPECT_FALSE(matchGlob("/a/*.py", "a/b/c.py", false));
  EXPECT_FALSE(matchGlob("/c.py", "a/c.py", false));
  EXPECT_TRUE(matchGlob("build/", "build", true));
  EXPECT_FALSE(matchGlob("build/", "build", false));
  EXPECT_TRUE(matchGlob("build/", "src/build", true));
  EXPECT_TRUE(matchGlob("!x.py", "x.py", false)); // the glob, negation aside
}

TEST(MatchGlobTest, Stars) {
  EXPECT_TRUE(matchGlob("a/*.py", "a/.hidden.py", false)); // no special dotfile rule
  EXPECT_FALSE(matchGlob("a/*", "a/b/c", false));          // `*` stops at '/'
  EXPECT_TRUE(matchGlob("a/*/c", "a/b/c", false));
  EXPECT_FALSE(matchGlob("a/*/c", "a/c", false));
  EXPECT_FALSE(matchGlob("a/*/c", "a/b/d/c", false));
  EXPECT_TRUE(matchGlob("a*b*c", "axxbyyc", false));
  EXPECT_FALSE(matchGlob("a*b*c", "axxbyy", false));
  EXPECT_TRUE(matchGlob("*", "anything", false));
}

TEST(MatchGlobTest, DoubleStars) {
  EXPECT_TRUE(matchGlob("**/c.py", "c.py", false));
  EXPECT_TRUE(matchGlob("**/c.py", "x/y/c.py", false));
  EXPECT_TRUE(matchGlob("a/**/c.py", "a/c.py", false));
  EXPECT_TRUE(matchGlob("a/**/c.py", "a/x/y/c.py", false));
  EXPECT_FALSE(matchGlob("a/**/c.py", "b/a/c.py", false));
  EXPECT_TRUE(matchGlob("a/**", "a/x", false));
  EXPECT_TRUE(matchGlob("a/**", "a/x/y", true));
  EXPECT_FALSE(matchGlob("a/**", "a", true));
  EXPECT_TRUE(matchGlob("**", "x/y/z", false));
  EXPECT_TRUE(matchGlob("**/", "x/y", true));
  EXPECT_FALSE(matchGlob("**/", "x/y", false));
  // `**` not filling a whole segment is an ordinary `*`.
  EXPECT_TRUE(matchGlob("a**z", "abcz", false));
  EXPECT_FALSE(matchGlob("x/a**z", "x/ab/cz", false));
  EXPECT_TRUE(matchGlob("a/**/b/**/c", "a/x/b/y/z/c", false));
}

TEST(MatchGlobTest, QuestionMarksClassesAndEscapes) {
  EXPECT_TRUE(matchGlob("?.py", "a.py", false));
  EXPECT_FALSE(matchGlob("?.py", "ab.py", false));
  EXPECT_FALSE(matchGlob("a?b", "a/b", false));
  EXPECT_TRUE(matchGlob("f[0-9].py", "f7.py", false));
  EXPECT_FALSE(matchGlob("f[!0-9].py", "f7.py", false));
  EXPECT_TRUE(matchGlob("f[^0-9].py", "fx.py", false));
  EXPECT_TRUE(matchGlob("f[]x].py", "f].py", false)); // ']' first is literal
  EXPECT_TRUE(matchGlob("f[a-].py", "f-.py", false)); // '-' last is literal
  EXPECT_TRUE(matchGlob("f[[:digit:]x].py", "f5.py", false));
  EXPECT_TRUE(matchGlob("f[[:digit:]x].py", "fx.py", false));
  EXPECT_FALSE(matchGlob("f[[:digit:]].py", "fa.py", false));
  EXPECT_FALSE(matchGlob("f[[:nope:]].py", "fa.py", false)); // unknown class
  EXPECT_FALSE(matchGlob("f[ab.py", "fa.py", false));        // unclosed
  EXPECT_FALSE(matchGlob("a[/]b", "a/b", false));            // classes never match '/'
  EXPECT_TRUE(matchGlob("\\#x.py", "#x.py", false));
  EXPECT_TRUE(matchGlob("\\!x.py", "!x.py", false));
  EXPECT_TRUE(matchGlob("a\\?b", "a?b", false));
  EXPECT_FALSE(matchGlob("a\\?b", "axb", false));
  EXPECT_TRUE(matchGlob("f[\\]].py", "f].py", false));
}

TEST(MatchGlobTest, LineSyntax) {
  EXPECT_FALSE(matchGlob("# comment", "# comment", false));
  EXPECT_FALSE(matchGlob("", "", false));
  EXPECT_FALSE(matchGlob("/", "x", true));
  EXPECT_TRUE(matchGlob("x.py   ", "x.py", false)); // trailing spaces trimmed
  EXPECT_TRUE(matchGlob("x\\ ", "x ", false));      // unless escaped
  EXPECT_TRUE(matchGlob("x\\  ", "x ", false));
  EXPECT_FALSE(matchGlob("x\\ ", "x", false));
  EXPECT_TRUE(matchGlob(" x", " x", false));       // leading spaces stay
  EXPECT_TRUE(matchGlob("x.py\r", "x.py", false)); // CRLF files
}

TEST(MatchGlobTest, PathologicalPatternsStayFast) {
  // Each `*` retries at every position: exponential without wildmatch's
  // abort results.
  std::string Text(200, 'a');
  EXPECT_FALSE(matchGlob("*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b", Text, false));
  std::string Deep;
  for (int I = 0; I < 50; ++I)
    Deep += "d/";
  Deep += "x";
  EXPECT_FALSE(matchGlob("**/a/**/a/**/a/**/a/**/a/**/y", Deep, false));
}

// -------------------------------------------------------------- TempDir ---

TEST(TempDirTest, WritesReadsAndMakesDirectories) {
  test::TempDir D;
  EXPECT_TRUE(llvm::sys::fs::is_directory(D.path()));
  EXPECT_TRUE(llvm::sys::path::is_absolute(D.path()));
  EXPECT_EQ(D.path(), D.path(""));
  EXPECT_EQ(D.path() + "/a/b.py", D.path("a/b.py"));
  // Bytes as given: no newline translation, NULs kept.
  D.write("a/b/c.py", llvm::StringRef("x\r\n\0y", 5));
  EXPECT_EQ(std::string("x\r\n\0y", 5), D.read("a/b/c.py"));
  EXPECT_EQ(D.read("a/b/c.py"), test::readFile(D.path("a/b/c.py")));
  D.write("a/b/c.py", "shorter");
  EXPECT_EQ("shorter", D.read("a/b/c.py"));
  D.mkdir("e/f");
  EXPECT_TRUE(llvm::sys::fs::is_directory(D.path("e/f")));
  D.symlink("../a/b/c.py", "links/c.py");
  EXPECT_EQ("shorter", D.read("links/c.py"));
}

TEST(TempDirTest, RemovesItsTreeButNotWhatLinksPointTo) {
  test::TempDir Outside;
  Outside.write("kept.py", "k");
  std::string Root;
  {
    test::TempDir D;
    Root = D.path();
    D.symlink(Outside.path(), "links/outside");
    D.write("e/f/g.py", "");
    EXPECT_EQ("k", D.read("links/outside/kept.py"));
  }
  EXPECT_FALSE(llvm::sys::fs::exists(Root));
  EXPECT_EQ("k", Outside.read("kept.py"));
}

TEST(TempDirTest, EachIsUnique) {
  test::TempDir A, B;
  EXPECT_NE(A.path(), B.path());
  EXPECT_NE(std::string::npos, A.path().find("devport-test"));
}

TEST(WorkspaceTest, AbsolutePathCleansAsRemoveDotsDoes) {
  // Every path of up to four components from these, relative (to a
  // directory given) or absolute: as remove_dots() and the trailing slashes
  // dropped make it (absolutePath() skips remove_dots() where it would
  // change nothing).
  const char *Parts[] = {"a", "bc", ".", "..", "", ".x", "x.", "..."};
  auto Reference = [](llvm::StringRef Cwd, llvm::StringRef P) {
    llvm::SmallString<256> A(P);
    if (!llvm::sys::path::is_absolute(A)) {
      A = Cwd;
      llvm::sys::path::append(A, P);
    }
    llvm::sys::path::remove_dots(A, true);
    while (A.size() > 1 && A.back() == '/')
      A.pop_back();
    return std::string(A.str());
  };
  size_t Count = 0;
  std::vector<std::string> Paths = {""};
  for (int Depth = 0; Depth < 4; ++Depth) {
    std::vector<std::string> Next;
    for (const std::string &P : Paths)
      for (const char *C : Parts)
        Next.push_back(P.empty() ? std::string(C) : P + "/" + C);
    for (const std::string &P : Next)
      for (const std::string &Q : {P, "/" + P, P + "/"}) {
        for (const char *Cwd : {"/w/d", "/", "", "/w/d/", "rel"})
          EXPECT_EQ(Reference(Cwd, Q), absolutePath(Cwd, Q)) << Cwd << " " << Q;
        ++Count;
      }
    Paths = std::move(Next);
  }
  EXPECT_GT(Count, 10000u);
  EXPECT_EQ(absolutePath("/w", "a//b/./c/../d/"), "/w/a/b/d");
  EXPECT_EQ(absolutePath("/w", "/"), "/");
}

} // namespace
} // namespace devport
