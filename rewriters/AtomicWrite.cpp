//===--- AtomicWrite.cpp - Writing a file without losing it ---------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "rewriters/AtomicWrite.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace devport {
namespace {

/// "Path: Why; not written".
llvm::Error fail(llvm::StringRef Path, const std::string &Why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: %s; not written",
                                 Path.str().c_str(), Why.c_str());
}

std::string errnoText(int E) { return std::strerror(E); }

bool sameStamp(const FileStamp &A, const FileStamp &B) {
  return A.Size == B.Size && A.MTimeNs == B.MTimeNs && A.Inode == B.Inode && A.Device == B.Device;
}

/// The temporary file beside a target, in its directory: removed when
/// destroyed unless released.
class TempFile {
public:
  explicit TempFile(llvm::StringRef Target) {
    llvm::StringRef D = llvm::sys::path::parent_path(Target);
    Dir = D.empty() ? std::string(".") : D.str();
    Path = Dir + "/." + llvm::sys::path::filename(Target).str() + ".devport-XXXXXX";
    FD = ::mkstemp(Path.data());
    Err = FD < 0 ? errno : 0;
  }
  ~TempFile() {
    if (FD >= 0)
      ::close(FD);
    if (!Released && Err == 0)
      ::unlink(Path.c_str());
  }
  TempFile(const TempFile &) = delete;
  TempFile &operator=(const TempFile &) = delete;

  int fd() const { return FD; }
  int error() const { return Err; }
  const std::string &path() const { return Path; }
  const std::string &dir() const { return Dir; }
  /// Closes the descriptor; errno on failure, else 0.
  int close() {
    int R = ::close(FD);
    FD = -1;
    return R == 0 ? 0 : errno;
  }
  /// The file was renamed away: nothing to remove.
  void release() { Released = true; }

private:
  std::string Dir, Path;
  int FD = -1;
  int Err = 0;
  bool Released = false;
};

/// Makes a rename in Dir durable. The content is already in place, so a
/// failure here is not reported.
void syncDirectory(const std::string &Dir) {
  int DirFD = ::open(Dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (DirFD >= 0) {
    (void)::fsync(DirFD);
    ::close(DirFD);
  }
}

/// Writes all of Content to FD; errno on failure, else 0.
int writeAll(int FD, llvm::StringRef Content) {
  const char *P = Content.data();
  size_t Left = Content.size();
  while (Left > 0) {
    ssize_t N = ::write(FD, P, Left);
    if (N < 0) {
      if (errno == EINTR)
        continue;
      return errno;
    }
    P += N;
    Left -= static_cast<size_t>(N);
  }
  return 0;
}

/// Writes Content to Tmp (the temporary file for Path), gives it Mode, syncs
/// and closes it.
llvm::Error fill(TempFile &Tmp, llvm::StringRef Path, llvm::StringRef Content, uint32_t Mode) {
  if (int E = writeAll(Tmp.fd(), Content))
    return fail(Path, "cannot write " + Tmp.path() + ": " + errnoText(E));
  if (::fchmod(Tmp.fd(), static_cast<mode_t>(Mode)) != 0)
    return fail(Path, "cannot set permissions: " + errnoText(errno));
  if (::fsync(Tmp.fd()) != 0)
    return fail(Path, "cannot sync " + Tmp.path() + ": " + errnoText(errno));
  if (int E = Tmp.close())
    return fail(Path, "cannot close " + Tmp.path() + ": " + errnoText(E));
  return llvm::Error::success();
}

} // namespace

llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Content,
                                const FileStamp &Expected) {
  // Write through a symlink to its target, so that the link stays a link.
  llvm::SmallString<256> Target;
  if (std::error_code EC = llvm::sys::fs::real_path(Path, Target)) {
    if (Expected.Valid && EC == std::errc::no_such_file_or_directory)
      return fail(Path, "changed on disk since it was read");
    return fail(Path, "cannot resolve path: " + EC.message());
  }
  struct stat St;
  if (::stat(Target.c_str(), &St) != 0) {
    int E = errno;
    if (Expected.Valid && E == ENOENT)
      return fail(Path, "changed on disk since it was read");
    return fail(Path, "cannot stat: " + errnoText(E));
  }
  if (!S_ISREG(St.st_mode))
    return fail(Path, "not a regular file");
  auto Now = statFile(Target);
  if (!Now)
    return fail(Path, "cannot stat: " + llvm::errorToErrorCode(Now.takeError()).message());
  if (Expected.Valid && !sameStamp(*Now, Expected))
    return fail(Path, "changed on disk since it was read");
  // Mode 0 means a stamp built by hand without one: keep the file's own.
  uint32_t Mode = Expected.Valid && Expected.Mode != 0 ? Expected.Mode : Now->Mode;

  TempFile Tmp(Target);
  if (Tmp.error())
    return fail(Path,
                "cannot create a temporary file in " + Tmp.dir() + ": " + errnoText(Tmp.error()));
  // Keep the owner where we may (as root, or a group we belong to); a file we
  // could write but not chown simply becomes ours, as with any editor.
  if (St.st_uid != ::geteuid() || St.st_gid != ::getegid()) {
    if (::fchown(Tmp.fd(), St.st_uid, St.st_gid) != 0 &&
        ::fchown(Tmp.fd(), static_cast<uid_t>(-1), St.st_gid) != 0) {
      // Not fatal: see above.
    }
  }
  if (llvm::Error E = fill(Tmp, Path, Content, Mode))
    return E;

  // Check again just before the rename: the window is as small as it gets.
  auto Before = statFile(Target);
  if (!Before) {
    llvm::consumeError(Before.takeError());
    return fail(Path, "changed on disk since it was read");
  }
  if (!sameStamp(*Before, Expected.Valid ? Expected : *Now))
    return fail(Path, "changed on disk since it was read");
  if (::rename(Tmp.path().c_str(), Target.c_str()) != 0)
    return fail(Path, "cannot replace the file: " + errnoText(errno));
  Tmp.release();
  syncDirectory(Tmp.dir());
  return llvm::Error::success();
}

llvm::Error writeOutputFile(llvm::StringRef Path, llvm::StringRef Content) {
  if (llvm::sys::fs::exists(Path))
    return writeFileAtomically(Path, Content, FileStamp{});
  TempFile Tmp(Path);
  if (Tmp.error())
    return fail(Path,
                "cannot create a temporary file in " + Tmp.dir() + ": " + errnoText(Tmp.error()));
  mode_t Mask = ::umask(0);
  ::umask(Mask);
  if (llvm::Error E = fill(Tmp, Path, Content, 0666 & ~Mask))
    return E;
  if (::rename(Tmp.path().c_str(), Path.str().c_str()) != 0)
    return fail(Path, "cannot create the file: " + errnoText(errno));
  Tmp.release();
  syncDirectory(Tmp.dir());
  return llvm::Error::success();
}

} // namespace devport
