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
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <random>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <thread>
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

TEST(AtomicWrite, TakesTheModeOfTheFileAsItIsWhenWritten) {
  // A chmod after the read leaves the stamp alone (ctime is not in it) and
  // is kept.
  test::TempDir D;
  D.write("a.py", "old\n");
  ASSERT_EQ(0, ::chmod(D.path("a.py").c_str(), 0644));
  FileStamp S = stampOf(D.path("a.py"));
  ASSERT_EQ(0, ::chmod(D.path("a.py").c_str(), 0600));
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
  ASSERT_EQ(0, ::chmod(D.path().c_str(), 0755));
  ASSERT_EQ(0, ::chmod(D.path("ro/a.py").c_str(), 0666));
  ASSERT_EQ(0, ::chmod(D.path("ro").c_str(), 0555));
  // Root writes in any directory: the write is tried as another user.
  auto Write = [&] { return messageOf(writeFileAtomically(D.path("ro/a.py"), "new\n", S)); };
  std::string Msg = test::runAsNobody(Write).value_or("");
  if (::geteuid() != 0)
    Msg = Write();
  ::chmod(D.path("ro").c_str(), 0755);
  EXPECT_TRUE(
      llvm::StringRef(Msg).startswith(D.path("ro/a.py") + ": cannot create a temporary file"))
      << Msg;
  EXPECT_TRUE(llvm::StringRef(Msg).endswith("; not written")) << Msg;
  EXPECT_EQ("old\n", D.read("ro/a.py"));
  EXPECT_EQ(Names{"a.py"}, listDir(D.path("ro")));
}

// ------------------------------------------------- what is not written ---

TEST(AtomicWrite, RefusesAReadOnlyFileAlsoAsRoot) {
  // root passes access(W_OK) on any file: the mode bits decide.
  test::TempDir D;
  D.write("a.py", "old\n");
  ASSERT_EQ(0, ::chmod(D.path("a.py").c_str(), 0444));
  std::string Msg =
      messageOf(writeFileAtomically(D.path("a.py"), "new\n", stampOf(D.path("a.py"))));
  EXPECT_EQ(D.path("a.py") + ": read-only (mode 0444): no write permission; not written", Msg);
  EXPECT_EQ("old\n", D.read("a.py"));
  EXPECT_EQ(0444u, modeOf(D.path("a.py")));
  EXPECT_EQ(Names{"a.py"}, listDir(D.path()));
  // Without a stamp (a report file) too.
  EXPECT_NE("", messageOf(writeOutputFile(D.path("a.py"), "new\n")));
  EXPECT_EQ("old\n", D.read("a.py"));
}

TEST(AtomicWrite, RefusesAFileTheUserMayNotWrite) {
  // A file of root's, 0644, in a directory everyone may write: nobody can
  // rename over it, but must not.
  test::TempDir D;
  D.write("a.py", "old\n");
  ASSERT_EQ(0, ::chmod(D.path().c_str(), 0777));
  FileStamp S = stampOf(D.path("a.py"));
  auto Msg = test::runAsNobody(
      [&] { return messageOf(writeFileAtomically(D.path("a.py"), "new\n", S)); });
  if (!Msg)
    GTEST_SKIP() << "needs root, to make a file that another user cannot write";
  EXPECT_EQ(D.path("a.py") + ": no write permission for uid 65534 (mode 0644, owner uid 0); "
                             "not written",
            *Msg);
  EXPECT_EQ("old\n", D.read("a.py"));
  EXPECT_EQ(Names{"a.py"}, listDir(D.path()));
}

TEST(AtomicWrite, RefusesAFileOfAnotherUserThatAReplacementWouldTake) {
  // Writable by everyone, so nobody may write it, but a replacement would be
  // nobody's file: refused, the owner stays root.
  test::TempDir D;
  D.write("a.py", "old\n");
  ASSERT_EQ(0, ::chmod(D.path().c_str(), 0777));
  ASSERT_EQ(0, ::chmod(D.path("a.py").c_str(), 0666));
  FileStamp S = stampOf(D.path("a.py"));
  auto Msg = test::runAsNobody(
      [&] { return messageOf(writeFileAtomically(D.path("a.py"), "new\n", S)); });
  if (!Msg)
    GTEST_SKIP() << "needs root, to make a file of another user";
  EXPECT_EQ(D.path("a.py") + ": owned by uid 0, and a replacement by uid 65534 would change "
                             "its owner; not written",
            *Msg);
  EXPECT_EQ("old\n", D.read("a.py"));
  EXPECT_EQ(Names{"a.py"}, listDir(D.path()));
}

TEST(AtomicWrite, KeepsTheOwnerAndGroupOfAnotherUsersFileAsRoot) {
  if (::geteuid() != 0)
    GTEST_SKIP() << "only root can give a file to another user";
  test::TempDir D;
  D.write("a.py", "old\n");
  ASSERT_EQ(0, ::chown(D.path("a.py").c_str(), test::NobodyId, test::NobodyId));
  ASSERT_EQ(0, ::chmod(D.path("a.py").c_str(), 0640));
  EXPECT_EQ("", messageOf(writeFileAtomically(D.path("a.py"), "new\n", stampOf(D.path("a.py")))));
  struct stat St;
  ASSERT_EQ(0, ::stat(D.path("a.py").c_str(), &St));
  EXPECT_EQ(test::NobodyId, St.st_uid);
  EXPECT_EQ(test::NobodyId, St.st_gid);
  EXPECT_EQ(0640u, St.st_mode & 07777);
  EXPECT_EQ("new\n", D.read("a.py"));
}

TEST(AtomicWrite, KeepsExtendedAttributes) {
  test::TempDir D;
  D.write("a.py", "old\n");
  const char Value[] = "kept";
  if (::setxattr(D.path("a.py").c_str(), "user.devport-test", Value, 4, 0) != 0)
    GTEST_SKIP() << "no user extended attributes here: " << std::strerror(errno);
  EXPECT_EQ("", messageOf(writeFileAtomically(D.path("a.py"), "new\n", stampOf(D.path("a.py")))));
  char Buf[16] = {};
  ssize_t N = ::getxattr(D.path("a.py").c_str(), "user.devport-test", Buf, sizeof(Buf));
  EXPECT_EQ("kept", std::string(Buf, N > 0 ? static_cast<size_t>(N) : 0));
  EXPECT_EQ("new\n", D.read("a.py"));
}

TEST(AtomicWrite, RefusesAFileWithOtherHardLinks) {
  // Replacing one name would leave the other with the old text: neither is
  // written.
  test::TempDir D;
  D.write("a.py", "old\n");
  ASSERT_EQ(0, ::link(D.path("a.py").c_str(), D.path("b.py").c_str()));
  std::string Msg =
      messageOf(writeFileAtomically(D.path("a.py"), "new\n", stampOf(D.path("a.py"))));
  EXPECT_EQ(D.path("a.py") + ": it has 2 hard links, which a replacement would split (the "
                             "other names would keep the old text); not written",
            Msg);
  EXPECT_EQ("old\n", D.read("a.py"));
  EXPECT_EQ("old\n", D.read("b.py"));
  EXPECT_EQ(stampOf(D.path("a.py")).Inode, stampOf(D.path("b.py")).Inode);
  EXPECT_EQ((Names{"a.py", "b.py"}), listDir(D.path()));
}

TEST(AtomicWrite, RefusesAFileAnotherProgramHoldsLocked) {
  test::TempDir D;
  D.write("a.py", "old\n");
  int FD = ::open(D.path("a.py").c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_LE(0, FD);
  ASSERT_EQ(0, ::flock(FD, LOCK_EX));
  std::string Msg =
      messageOf(writeFileAtomically(D.path("a.py"), "new\n", stampOf(D.path("a.py"))));
  ::close(FD);
  EXPECT_EQ(D.path("a.py") + ": locked by another program (flock); not written", Msg);
  EXPECT_EQ("old\n", D.read("a.py"));
  EXPECT_EQ(Names{"a.py"}, listDir(D.path()));
}

// -------------------------------------------------- changes meanwhile ---

/// The stamp SourceFile::read() takes: with the content hash.
FileStamp readStamp(const std::string &Path) {
  FileStamp S = stampOf(Path);
  S.ContentHash = hashContent(test::readFile(Path));
  return S;
}

/// Sets Path's mtime back to the stamp's (as a change within one tick of a
/// coarse clock leaves it).
void restoreMTime(const std::string &Path, const FileStamp &S) {
  struct timespec Times[2];
  Times[0].tv_sec = 0;
  Times[0].tv_nsec = UTIME_OMIT;
  Times[1].tv_sec = S.MTimeNs / 1000000000;
  Times[1].tv_nsec = S.MTimeNs % 1000000000;
  ASSERT_EQ(0, ::utimensat(AT_FDCWD, Path.c_str(), Times, 0));
}

TEST(AtomicWrite, RefusesAChangeThatKeepsSizeAndTime) {
  // Written in place, same size, same mtime: only the content hash tells.
  test::TempDir D;
  D.write("a.py", "old\n");
  FileStamp S = readStamp(D.path("a.py"));
  D.write("a.py", "odl\n");
  restoreMTime(D.path("a.py"), S);
  ASSERT_TRUE(stampOf(D.path("a.py")) == S);
  std::string Msg = messageOf(writeFileAtomically(D.path("a.py"), "new\n", S));
  EXPECT_EQ(D.path("a.py") + ": changed on disk since it was read; not written", Msg);
  EXPECT_EQ("odl\n", D.read("a.py"));
  EXPECT_EQ(Names{"a.py"}, listDir(D.path()));
}

TEST(AtomicWrite, AChangeJustBeforeTheReplaceIsKept) {
  // Another writer at the worst moment: after the temporary file is synced.
  // In place (same size and time) or by its own rename, its text stays.
  test::TempDir D;
  D.write("a.py", "old\n");
  FileStamp S = readStamp(D.path("a.py"));
  std::string Msg = messageOf(writeFileAtomically(D.path("a.py"), "new\n", S, [&] {
    D.write("a.py", "odl\n");
    restoreMTime(D.path("a.py"), S);
  }));
  EXPECT_EQ(D.path("a.py") + ": changed on disk since it was read; not written", Msg);
  EXPECT_EQ("odl\n", D.read("a.py"));
  EXPECT_EQ(Names{"a.py"}, listDir(D.path()));

  D.write("b.py", "old\n");
  S = readStamp(D.path("b.py"));
  Msg = messageOf(writeFileAtomically(D.path("b.py"), "new\n", S, [&] {
    D.write("other", "theirs\n");
    ASSERT_FALSE(llvm::sys::fs::rename(D.path("other"), D.path("b.py")));
  }));
  EXPECT_EQ(D.path("b.py") + ": changed on disk since it was read; not written", Msg);
  EXPECT_EQ("theirs\n", D.read("b.py"));
  EXPECT_EQ((Names{"a.py", "b.py"}), listDir(D.path()));
}

TEST(AtomicWrite, NoUpdateOfARacingWriterIsLost) {
  // Timed trials: a writer replaces the file (as editors save) at a random
  // moment after it was read. Whether that lands before devport's replace
  // (devport must refuse) or after it (the writer's replaces devport's),
  // the writer's text must be what is left.
  test::TempDir D;
  constexpr int Trials = 300;
  int Refused = 0, Lost = 0;
  std::mt19937 Gen(12345);
  for (int I = 0; I < Trials; ++I) {
    D.write("a.py", "base " + std::to_string(I) + "\n");
    FileStamp S = readStamp(D.path("a.py"));
    std::string Theirs = "theirs " + std::to_string(I) + "\n";
    D.write("theirs.tmp", Theirs);
    unsigned Delay = Gen() % 400;
    std::thread Writer([&] {
      std::this_thread::sleep_for(std::chrono::microseconds(Delay));
      (void)::rename(D.path("theirs.tmp").c_str(), D.path("a.py").c_str());
    });
    if (llvm::Error E = writeFileAtomically(D.path("a.py"), "mine\n", S)) {
      llvm::consumeError(std::move(E));
      ++Refused;
    }
    Writer.join();
    if (D.read("a.py") != Theirs)
      ++Lost;
  }
  EXPECT_EQ(0, Lost) << "of " << Trials << " trials (" << Refused << " refused)";
  EXPECT_EQ(Names{"a.py"}, listDir(D.path()));
}

// ------------------------------------------- temporary files left over ---

TEST(RemoveStaleTempFile, RemovesOneNoProcessHolds) {
  test::TempDir D;
  D.write(".a.py.devport-Ab12Cd", "half");
  auto R = removeStaleTempFile(D.path(".a.py.devport-Ab12Cd"));
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  EXPECT_TRUE(*R);
  EXPECT_TRUE(listDir(D.path()).empty());
}

TEST(RemoveStaleTempFile, LeavesOneARunningWriterHolds) {
  // A writer holds a shared lock on its temporary file while it has a name.
  test::TempDir D;
  D.write(".a.py.devport-Ab12Cd", "half");
  int FD = ::open(D.path(".a.py.devport-Ab12Cd").c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_LE(0, FD);
  ASSERT_EQ(0, ::flock(FD, LOCK_SH));
  auto R = removeStaleTempFile(D.path(".a.py.devport-Ab12Cd"));
  ::close(FD);
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  EXPECT_FALSE(*R);
  EXPECT_EQ(Names{".a.py.devport-Ab12Cd"}, listDir(D.path()));
}

TEST(RemoveStaleTempFile, LeavesSymlinksDirectoriesAndMissingFiles) {
  test::TempDir D;
  D.write("a.py", "x");
  D.symlink("a.py", ".a.py.devport-Link00");
  D.mkdir(".a.py.devport-Dir000");
  for (const char *Name :
       {".a.py.devport-Link00", ".a.py.devport-Dir000", ".a.py.devport-None00"}) {
    auto R = removeStaleTempFile(D.path(Name));
    ASSERT_TRUE(static_cast<bool>(R)) << Name << ": " << llvm::toString(R.takeError());
    EXPECT_FALSE(*R) << Name;
  }
  EXPECT_EQ((Names{".a.py.devport-Dir000", ".a.py.devport-Link00", "a.py"}), listDir(D.path()));
}

TEST(RemoveStaleTempFile, WriterAndCleanerTogetherLoseNothing) {
  // One thread writes the file over and over while another removes every
  // temporary file it sees: every write succeeds, none is left.
  test::TempDir D;
  D.write("a.py", "0\n");
  std::atomic<bool> Done{false};
  std::atomic<int> Removed{0};
  std::thread Cleaner([&] {
    while (!Done) {
      std::error_code EC;
      for (llvm::sys::fs::directory_iterator It(D.path(), EC), End; It != End && !EC;
           It.increment(EC))
        if (llvm::StringRef(It->path()).contains(".devport-")) {
          if (auto R = removeStaleTempFile(It->path()))
            Removed += *R;
          else
            llvm::consumeError(R.takeError());
        }
    }
  });
  std::string Errors;
  for (int I = 1; I <= 300; ++I) {
    std::string Msg = messageOf(
        writeFileAtomically(D.path("a.py"), std::to_string(I) + "\n", readStamp(D.path("a.py"))));
    if (!Msg.empty())
      Errors += Msg + "\n";
  }
  Done = true;
  Cleaner.join();
  EXPECT_EQ("", Errors);
  EXPECT_EQ(0, Removed.load());
  EXPECT_EQ("300\n", D.read("a.py"));
  EXPECT_EQ(Names{"a.py"}, listDir(D.path()));
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
