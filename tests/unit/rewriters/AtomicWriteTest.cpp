//===--- AtomicWriteTest.cpp - Replacing files safely ---------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "rewriters/AtomicWrite.h"

#include "tests/support/TestFiles.h"

#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sys/stat.h>
#include <unistd.h>

namespace devport {
namespace {

/// The names in Dir, sorted.
std::vector<std::string> listDir(llvm::StringRef Dir) {
  std::vector<std::string> Names;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC))
    Names.push_back(llvm::sys::path::filename(It->path()).str());
  EXPECT_FALSE(EC) << EC.message();
  std::sort(Names.begin(), Names.end());
  return Names;
}

unsigned modeOf(const std::string &Path) {
  struct stat St;
  EXPECT_EQ(0, ::stat(Path.c_str(), &St)) << Path;
  return St.st_mode & 07777;
}

FileStamp stampOf(const std::string &Path) {
  auto S = statFile(Path);
  EXPECT_TRUE(static_cast<bool>(S)) << llvm::toString(S.takeError());
  return S ? *S : FileStamp();
}

/// The error's message ("" for success).
std::string messageOf(llvm::Error E) { return E ? llvm::toString(std::move(E)) : ""; }

using Names = std::vector<std::string>;

TEST(AtomicWrite, ReplacesTheContent) {
  test::TempDir D;
  D.write("a.py", "old\n");
  EXPECT_EQ("", messageOf(writeFileAtomically(D.path("a.py"), "new\r\ncontent",
                                              stampOf(D.path("a.py")))));
  EXPECT_EQ("new\r\ncontent", D.read("a.py"));
  EXPECT_EQ(Names{"a.py"}, listDir(D.path()));
}

TEST(AtomicWrite, KeepsModeAndLeavesNoTempFiles) {
  test::TempDir D;
  D.write("run.py", "old\n");
  D.write("other.py", "x\n");
  ASSERT_EQ(0, ::chmod(D.path("run.py").c_str(), 0755));
  EXPECT_EQ("",
            messageOf(writeFileAtomically(D.path("run.py"), "new\n", stampOf(D.path("run.py")))));
  EXPECT_EQ("new\n", D.read("run.py"));
  EXPECT_EQ(0755u, modeOf(D.path("run.py")));
  EXPECT_EQ((Names{"other.py", "run.py"}), listDir(D.path()));
}

TEST(AtomicWrite, TakesTheModeFromTheStamp) {
  test::TempDir D;
  D.write("a.py", "old\n");
  ASSERT_EQ(0, ::chmod(D.path("a.py").c_str(), 0644));
  FileStamp S = stampOf(D.path("a.py"));
  S.Mode = 0600;
  EXPECT_EQ("", messageOf(writeFileAtomically(D.path("a.py"), "new\n", S)));
  EXPECT_EQ(0600u, modeOf(D.path("a.py")));
}

TEST(AtomicWrite, WithoutAStampKeepsTheCurrentMode) {
  test::TempDir D;
  D.write("a.py", "old\n");
  ASSERT_EQ(0, ::chmod(D.path("a.py").c_str(), 0751));
  EXPECT_EQ("", messageOf(writeFileAtomically(D.path("a.py"), "new\n", FileStamp())));
  EXPECT_EQ("new\n", D.read("a.py"));
  EXPECT_EQ(0751u, modeOf(D.path("a.py")));
}

TEST(AtomicWrite, RefusesAFileChangedAfterItWasRead) {
  test::TempDir D;
  D.write("a.py", "old\n");
  FileStamp S = stampOf(D.path("a.py"));
  D.write("a.py", "changed by someone else\n");
  std::string Msg = messageOf(writeFileAtomically(D.path("a.py"), "new\n", S));
  EXPECT_EQ(D.path("a.py") + ": changed on disk since it was read; not written", Msg);
  EXPECT_EQ("changed by someone else\n", D.read("a.py"));
  EXPECT_EQ(Names{"a.py"}, listDir(D.path()));
}

TEST(AtomicWrite, RefusesAFileWhoseTimeChangedButNotItsSize) {
  test::TempDir D;
  D.write("a.py", "old\n");
  FileStamp S = stampOf(D.path("a.py"));
  D.write("a.py", "new\n");
  int FD;
  ASSERT_FALSE(llvm::sys::fs::openFileForWrite(D.path("a.py"), FD, llvm::sys::fs::CD_OpenExisting,
                                               llvm::sys::fs::OF_Append));
  auto Later = llvm::sys::toTimePoint(S.MTimeNs / 1000000000 + 5, 0);
  EXPECT_FALSE(llvm::sys::fs::setLastAccessAndModificationTime(FD, Later));
  ::close(FD);
  std::string Msg = messageOf(writeFileAtomically(D.path("a.py"), "mine\n", S));
  EXPECT_NE(std::string::npos, Msg.find("changed on disk since it was read")) << Msg;
  EXPECT_EQ("new\n", D.read("a.py"));
}

TEST(AtomicWrite, RefusesAFileReplacedByAnother) {
  // Same size, but a different inode (an editor's own atomic save).
  test::TempDir D;
  D.write("a.py", "old\n");
  FileStamp S = stampOf(D.path("a.py"));
  D.write("b.py", "odl\n");
  ASSERT_FALSE(llvm::sys::fs::rename(D.path("b.py"), D.path("a.py")));
  std::string Msg = messageOf(writeFileAtomically(D.path("a.py"), "mine\n", S));
  EXPECT_NE(std::string::npos, Msg.find("changed on disk since it was read")) << Msg;
  EXPECT_EQ("odl\n", D.read("a.py"));
}

TEST(AtomicWrite, RefusesAFileDeletedAfterItWasRead) {
  test::TempDir D;
  D.write("a.py", "old\n");
  FileStamp S = stampOf(D.path("a.py"));
  ASSERT_FALSE(llvm::sys::fs::remove(D.path("a.py")));
  std::string Msg = messageOf(writeFileAtomically(D.path("a.py"), "new\n", S));
  EXPECT_EQ(D.path("a.py") + ": changed on disk since it was read; not written", Msg);
  EXPECT_TRUE(listDir(D.path()).empty());
}

TEST(AtomicWrite, WritesThroughASymlink) {
  test::TempDir D;
  D.write("real/a.py", "old\n");
  D.mkdir("links");
  D.symlink(D.path("real/a.py"), "links/a.py");
  ASSERT_EQ(0, ::chmod(D.path("real/a.py").c_str(), 0700));
  FileStamp S = stampOf(D.path("links/a.py"));
  EXPECT_EQ("", messageOf(writeFileAtomically(D.path("links/a.py"), "new\n", S)));
  EXPECT_EQ("new\n", D.read("real/a.py"));
  EXPECT_TRUE(llvm::sys::fs::is_symlink_file(D.path("links/a.py")));
  EXPECT_EQ(0700u, modeOf(D.path("real/a.py")));
  EXPECT_EQ(Names{"a.py"}, listDir(D.path("real")));
  EXPECT_EQ(Names{"a.py"}, listDir(D.path("links")));
}

TEST(AtomicWrite, WritesThroughARelativeSymlink) {
  test::TempDir D;
  D.write("a.py", "old\n");
  D.symlink("a.py", "b.py");
  EXPECT_EQ("", messageOf(writeFileAtomically(D.path("b.py"), "new\n", stampOf(D.path("b.py")))));
  EXPECT_EQ("new\n", D.read("a.py"));
  EXPECT_TRUE(llvm::sys::fs::is_symlink_file(D.path("b.py")));
  EXPECT_EQ((Names{"a.py", "b.py"}), listDir(D.path()));
}

TEST(AtomicWrite, FailsOnAMissingFile) {
  test::TempDir D;
  std::string Msg = messageOf(writeFileAtomically(D.path("none.py"), "new\n", FileStamp()));
  EXPECT_TRUE(llvm::StringRef(Msg).startswith(D.path("none.py") + ": ")) << Msg;
  EXPECT_TRUE(llvm::StringRef(Msg).endswith("; not written")) << Msg;
  EXPECT_TRUE(listDir(D.path()).empty());
}

TEST(AtomicWrite, FailsOnADirectory) {
  test::TempDir D;
  D.mkdir("pkg");
  std::string Msg = messageOf(writeFileAtomically(D.path("pkg"), "new\n", FileStamp()));
  EXPECT_EQ(D.path("pkg") + ": not a regular file; not written", Msg);
  EXPECT_EQ(Names{"pkg"}, listDir(D.path()));
}

TEST(AtomicWrite, FailsCleanlyInAReadOnlyDirectory) {
  test::TempDir D;
  D.write("ro/a.py", "old\n");
  FileStamp S = stampOf(D.path("ro/a.py"));
  ASSERT_EQ(0, ::chmod(D.path("ro").c_str(), 0555));
  if (::access(D.path("ro").c_str(), W_OK) == 0) {
    ::chmod(D.path("ro").c_str(), 0755);
    GTEST_SKIP() << "the directory stays writable (running as root)";
  }
  std::string Msg = messageOf(writeFileAtomically(D.path("ro/a.py"), "new\n", S));
  ::chmod(D.path("ro").c_str(), 0755);
  EXPECT_TRUE(
      llvm::StringRef(Msg).startswith(D.path("ro/a.py") + ": cannot create a temporary file"))
      << Msg;
  EXPECT_TRUE(llvm::StringRef(Msg).endswith("; not written")) << Msg;
  EXPECT_EQ("old\n", D.read("ro/a.py"));
  EXPECT_EQ(Names{"a.py"}, listDir(D.path("ro")));
}

TEST(WriteOutputFile, CreatesANewFileWithTheUmasksMode) {
  test::TempDir D;
  mode_t Old = ::umask(022);
  std::string Msg = messageOf(writeOutputFile(D.path("report.html"), "<html>"));
  ::umask(Old);
  EXPECT_EQ("", Msg);
  EXPECT_EQ("<html>", D.read("report.html"));
  EXPECT_EQ(0644u, modeOf(D.path("report.html")));
  EXPECT_EQ(Names{"report.html"}, listDir(D.path()));
}

TEST(WriteOutputFile, ReplacesAnExistingFileKeepingItsMode) {
  test::TempDir D;
  D.write("report.html", "old");
  ASSERT_EQ(0, ::chmod(D.path("report.html").c_str(), 0600));
  EXPECT_EQ("", messageOf(writeOutputFile(D.path("report.html"), "new")));
  EXPECT_EQ("new", D.read("report.html"));
  EXPECT_EQ(0600u, modeOf(D.path("report.html")));
  EXPECT_EQ(Names{"report.html"}, listDir(D.path()));
}

TEST(WriteOutputFile, FailsInAMissingDirectory) {
  test::TempDir D;
  std::string Msg = messageOf(writeOutputFile(D.path("none/report.html"), "new"));
  EXPECT_TRUE(llvm::StringRef(Msg).startswith(D.path("none/report.html") +
                                              ": cannot create a temporary file in"))
      << Msg;
  EXPECT_TRUE(listDir(D.path()).empty());
}

} // namespace
} // namespace devport
