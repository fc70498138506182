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
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <random>
#include <string>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

namespace devport {
namespace {

/// "Path: Why; not written".
llvm::Error fail(llvm::StringRef Path, const std::string &Why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: %s; not written",
                                 Path.str().c_str(), Why.c_str());
}

llvm::Error changedOnDisk(llvm::StringRef Path) {
  return fail(Path, "changed on disk since it was read");
}

std::string errnoText(int E) { return std::strerror(E); }

std::string octalMode(mode_t M) {
  char Buf[8];
  std::snprintf(Buf, sizeof(Buf), "%04o", static_cast<unsigned>(M & 07777));
  return Buf;
}

int64_t mtimeNs(const struct stat &St) {
  return static_cast<int64_t>(St.st_mtim.tv_sec) * 1000000000 + St.st_mtim.tv_nsec;
}

bool sameStamp(const struct stat &St, const FileStamp &S) {
  return static_cast<uint64_t>(St.st_size) == S.Size && mtimeNs(St) == S.MTimeNs &&
         St.st_ino == S.Inode && St.st_dev == S.Device;
}

/// Closes a descriptor when destroyed.
struct FileHandle {
  int FD = -1;
  explicit FileHandle(int FD) : FD(FD) {}
  ~FileHandle() {
    if (FD >= 0)
      ::close(FD);
  }
  FileHandle(const FileHandle &) = delete;
  FileHandle &operator=(const FileHandle &) = delete;
};

/// Six random letters and digits, as mkstemp() puts in place of XXXXXX.
std::string randomSuffix() {
  static const char Chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  thread_local std::mt19937_64 Gen{std::random_device{}()};
  std::string S(6, 'x');
  for (char &C : S)
    C = Chars[Gen() % (sizeof(Chars) - 1)];
  return S;
}

/// The temporary file beside a target, in its directory. It is created
/// unnamed (O_TMPFILE) where the file system can, so that a process killed
/// before name() leaves nothing behind; otherwise with mkstemp(). Either way
/// it holds a shared flock() from before it has a name until the descriptor
/// is closed, which is how removeStaleTempFile() tells a live one. Removed
/// when destroyed unless released.
class TempFile {
public:
  explicit TempFile(llvm::StringRef Target) {
    llvm::StringRef D = llvm::sys::path::parent_path(Target);
    Dir = D.empty() ? std::string(".") : D.str();
    Prefix = Dir + "/." + llvm::sys::path::filename(Target).str() + ".devport-";
#ifdef O_TMPFILE
    // Naming it goes through /proc/self/fd (linkat with AT_EMPTY_PATH needs
    // a capability), so only where /proc is there.
    if (::access("/proc/self/fd", X_OK) == 0) {
      FD = ::open(Dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
      if (FD >= 0) {
        ::flock(FD, LOCK_SH);
        return;
      }
      if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) {
        Err = errno;
        return;
      }
    }
#endif
    createNamed();
  }
  ~TempFile() {
    if (FD >= 0)
      ::close(FD);
    if (Named && !Released)
      ::unlink(Path.c_str());
  }
  TempFile(const TempFile &) = delete;
  TempFile &operator=(const TempFile &) = delete;

  int fd() const { return FD; }
  int error() const { return Err; }
  const std::string &path() const { return Path; }
  const std::string &dir() const { return Dir; }

  /// Gives the file its name, `.NAME.devport-XXXXXX` (an unnamed one is
  /// linked into the directory; a named one has it already). errno or 0.
  int name() {
    if (Named)
      return 0;
    std::string Proc = "/proc/self/fd/" + std::to_string(FD);
    for (int Try = 0; Try < 100; ++Try) {
      Path = Prefix + randomSuffix();
      if (::linkat(AT_FDCWD, Proc.c_str(), AT_FDCWD, Path.c_str(), AT_SYMLINK_FOLLOW) == 0) {
        Named = true;
        return 0;
      }
      if (errno != EEXIST)
        return errno;
    }
    return EEXIST;
  }
  /// The file was renamed away (or is now the old file, removed by the
  /// caller): nothing to remove.
  void release() { Released = true; }

private:
  void createNamed() {
    for (int Try = 0; Try < 100; ++Try) {
      Path = Prefix + "XXXXXX";
      FD = ::mkostemp(Path.data(), O_CLOEXEC);
      if (FD < 0) {
        Err = errno;
        return;
      }
      // Between mkstemp() and flock() a removeStaleTempFile() may take the
      // file for a stale one and remove it: then make another.
      ::flock(FD, LOCK_SH);
      struct stat St;
      if (::fstat(FD, &St) == 0 && St.st_nlink > 0) {
        Named = true;
        return;
      }
      ::close(FD);
      FD = -1;
    }
    Err = EEXIST;
  }

  std::string Dir, Prefix, Path;
  int FD = -1;
  int Err = 0;
  bool Named = false;
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

/// Refuses what a careful editor refuses: a read-only file (its owner may
/// not write it: the mode bits, which bind root too, who passes access()),
/// a file the user may not write, and a file with other hard links.
llvm::Error checkWritable(llvm::StringRef Path, const std::string &Target,
                          const struct stat &St) {
  if ((St.st_mode & S_IWUSR) == 0)
    return fail(Path, "read-only (mode " + octalMode(St.st_mode) + "): no write permission");
  if (::faccessat(AT_FDCWD, Target.c_str(), W_OK, AT_EACCESS) != 0) {
    int E = errno;
    if (E == EACCES || E == EPERM)
      return fail(Path, "no write permission for uid " + std::to_string(::geteuid()) +
                            " (mode " + octalMode(St.st_mode) + ", owner uid " +
                            std::to_string(St.st_uid) + ")");
    return fail(Path, "cannot write: " + errnoText(E));
  }
  if (St.st_nlink > 1)
    return fail(Path, "it has " + std::to_string(St.st_nlink) +
                          " hard links, which a replacement would split (the other names "
                          "would keep the old text)");
  return llvm::Error::success();
}

/// Gives the temporary file the owner and group of the original, or says why
/// it cannot: a non-root user cannot give a file away, and a replacement
/// that changed hands would be a surprise.
llvm::Error keepOwner(llvm::StringRef Path, const TempFile &Tmp, const struct stat &St) {
  struct stat T;
  if (::fstat(Tmp.fd(), &T) != 0)
    return fail(Path, "cannot stat " + Tmp.path() + ": " + errnoText(errno));
  if (T.st_uid == St.st_uid && T.st_gid == St.st_gid)
    return llvm::Error::success();
  if (::fchown(Tmp.fd(), St.st_uid, St.st_gid) == 0)
    return llvm::Error::success();
  if (T.st_uid != St.st_uid)
    return fail(Path, "owned by uid " + std::to_string(St.st_uid) + ", and a replacement by uid " +
                          std::to_string(::geteuid()) + " would change its owner");
  if (::fchown(Tmp.fd(), static_cast<uid_t>(-1), St.st_gid) != 0)
    return fail(Path, "its group (gid " + std::to_string(St.st_gid) +
                          ") cannot be kept: " + errnoText(errno));
  return llvm::Error::success();
}

/// Copies the extended attributes of From to To. A user attribute or an ACL
/// that cannot be kept is an error; security.* and trusted.* ones (SELinux
/// labels, capabilities) are kept where the system lets us.
llvm::Error copyAttributes(llvm::StringRef Path, int From, int To) {
  ssize_t N = ::flistxattr(From, nullptr, 0);
  if (N <= 0)
    return llvm::Error::success(); // none, or no extended attributes here
  std::string Names(static_cast<size_t>(N), '\0');
  N = ::flistxattr(From, Names.data(), Names.size());
  if (N < 0)
    return fail(Path, "cannot list its extended attributes: " + errnoText(errno));
  Names.resize(static_cast<size_t>(N));
  auto Get = [](int FD, const char *Name, std::string &Value) {
    ssize_t L = ::fgetxattr(FD, Name, nullptr, 0);
    if (L < 0)
      return false;
    Value.assign(static_cast<size_t>(L), '\0');
    L = ::fgetxattr(FD, Name, Value.data(), Value.size());
    if (L < 0)
      return false;
    Value.resize(static_cast<size_t>(L));
    return true;
  };
  for (size_t I = 0; I < Names.size();) {
    std::string Name = Names.c_str() + I;
    I += Name.size() + 1;
    std::string Value, Now;
    if (Name.empty() || !Get(From, Name.c_str(), Value))
      continue;
    if (::fsetxattr(To, Name.c_str(), Value.data(), Value.size(), 0) == 0)
      continue;
    int E = errno;
    if (Get(To, Name.c_str(), Now) && Now == Value)
      continue; // the system gave it already (an inherited label)
    llvm::StringRef NameRef = Name;
    if (NameRef.startswith("user.") || NameRef.startswith("system."))
      return fail(Path, "cannot keep its extended attribute " + Name + ": " + errnoText(E));
  }
  return llvm::Error::success();
}

/// Writes Content to Tmp (the temporary file for Path), gives it Mode and
/// Orig's extended attributes, and syncs it.
llvm::Error fill(TempFile &Tmp, llvm::StringRef Path, llvm::StringRef Content, mode_t Mode,
                 int Orig) {
  if (int E = writeAll(Tmp.fd(), Content))
    return fail(Path, "cannot write a temporary file in " + Tmp.dir() + ": " + errnoText(E));
  if (::fchmod(Tmp.fd(), Mode) != 0)
    return fail(Path, "cannot set permissions: " + errnoText(errno));
  if (Orig >= 0)
    if (llvm::Error E = copyAttributes(Path, Orig, Tmp.fd()))
      return E;
  if (::fsync(Tmp.fd()) != 0)
    return fail(Path, "cannot sync a temporary file in " + Tmp.dir() + ": " + errnoText(errno));
  return llvm::Error::success();
}

/// Is Name still the file FD opened (St, when checked), with the same size
/// and mtime and, when Expected has one, the same content hash?
bool unchanged(int FD, const std::string &Name, const struct stat &St, const FileStamp &Expected) {
  struct stat L, F;
  if (::lstat(Name.c_str(), &L) != 0 || L.st_ino != St.st_ino || L.st_dev != St.st_dev)
    return false;
  if (::fstat(FD, &F) != 0 || F.st_size != St.st_size || mtimeNs(F) != mtimeNs(St))
    return false;
  if (!Expected.ContentHash)
    return true;
  // One byte more than expected tells a file that grew.
  std::string Bytes(static_cast<size_t>(St.st_size) + 1, '\0');
  size_t Got = 0;
  while (Got < Bytes.size()) {
    ssize_t N = ::pread(FD, &Bytes[Got], Bytes.size() - Got, static_cast<off_t>(Got));
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0)
      return false;
    if (N == 0)
      break;
    Got += static_cast<size_t>(N);
  }
  Bytes.resize(Got);
  return hashContent(Bytes) == *Expected.ContentHash;
}

bool exchangeUnsupported(int E) { return E == EINVAL || E == ENOSYS || E == EOPNOTSUPP; }

} // namespace

llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Content,
                                const FileStamp &Expected,
                                llvm::function_ref<void()> BeforeReplace) {
  // Write through a symlink to its target, so that the link stays a link.
  llvm::SmallString<256> TargetBuf;
  if (std::error_code EC = llvm::sys::fs::real_path(Path, TargetBuf)) {
    if (Expected.Valid && EC == std::errc::no_such_file_or_directory)
      return changedOnDisk(Path);
    return fail(Path, "cannot resolve path: " + EC.message());
  }
  std::string Target(TargetBuf.str());
  FileHandle Orig(::open(Target.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC));
  if (Orig.FD < 0) {
    int E = errno;
    if (Expected.Valid && (E == ENOENT || E == ELOOP))
      return changedOnDisk(Path);
    return fail(Path, "cannot open: " + errnoText(E));
  }
  struct stat St;
  if (::fstat(Orig.FD, &St) != 0)
    return fail(Path, "cannot stat: " + errnoText(errno));
  if (!S_ISREG(St.st_mode))
    return fail(Path, "not a regular file");
  if (Expected.Valid && !sameStamp(St, Expected))
    return changedOnDisk(Path);
  if (llvm::Error E = checkWritable(Path, Target, St))
    return E;
  // A shared lock: an editor's exclusive one says it is being written, and
  // ours keeps removeStaleTempFile() off this file once it is the old one
  // under the temporary name.
  if (::flock(Orig.FD, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK)
    return fail(Path, "locked by another program (flock)");

  TempFile Tmp(Target);
  if (Tmp.error())
    return fail(Path,
                "cannot create a temporary file in " + Tmp.dir() + ": " + errnoText(Tmp.error()));
  if (llvm::Error E = keepOwner(Path, Tmp, St))
    return E;
  if (llvm::Error E = fill(Tmp, Path, Content, St.st_mode & 07777, Orig.FD))
    return E;
  if (int E = Tmp.name())
    return fail(Path, "cannot name a temporary file in " + Tmp.dir() + ": " + errnoText(E));
  if (BeforeReplace)
    BeforeReplace();

  // Swap the new file in and look at the old one: if it changed since it
  // was read (by a writer before the swap), swap it back.
  if (::renameat2(AT_FDCWD, Tmp.path().c_str(), AT_FDCWD, Target.c_str(), RENAME_EXCHANGE) ==
      0) {
    if (unchanged(Orig.FD, Tmp.path(), St, Expected)) {
      ::unlink(Tmp.path().c_str()); // the old file
      Tmp.release();
      syncDirectory(Tmp.dir());
      return llvm::Error::success();
    }
    if (::renameat2(AT_FDCWD, Tmp.path().c_str(), AT_FDCWD, Target.c_str(), RENAME_EXCHANGE) !=
        0) {
      Tmp.release();
      return fail(Path, "changed on disk while it was written; that version is kept as " +
                            Tmp.path());
    }
    return changedOnDisk(Path);
  }
  if (!exchangeUnsupported(errno))
    return fail(Path, "cannot replace the file: " + errnoText(errno));
  // No exchange on this file system: check just before the rename.
  if (!unchanged(Orig.FD, Target, St, Expected))
    return changedOnDisk(Path);
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
  if (llvm::Error E = fill(Tmp, Path, Content, 0666 & ~Mask, -1))
    return E;
  if (int E = Tmp.name())
    return fail(Path, "cannot name a temporary file in " + Tmp.dir() + ": " + errnoText(E));
  if (::rename(Tmp.path().c_str(), Path.str().c_str()) != 0)
    return fail(Path, "cannot create the file: " + errnoText(errno));
  Tmp.release();
  syncDirectory(Tmp.dir());
  return llvm::Error::success();
}

llvm::Expected<bool> removeStaleTempFile(llvm::StringRef Path) {
  std::string P = Path.str();
  FileHandle F(::open(P.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (F.FD < 0) {
    if (errno == ENOENT || errno == ELOOP)
      return false; // gone, or a symlink: not ours
    return llvm::createStringError(std::error_code(errno, std::generic_category()),
                                   "%s: cannot open: %s", P.c_str(), std::strerror(errno));
  }
  struct stat St, L;
  if (::fstat(F.FD, &St) != 0 || !S_ISREG(St.st_mode))
    return false;
  // A devport that is writing it holds a shared lock until it is done; a
  // killed one holds nothing.
  if (::flock(F.FD, LOCK_EX | LOCK_NB) != 0)
    return false;
  if (::lstat(P.c_str(), &L) != 0 || L.st_ino != St.st_ino || L.st_dev != St.st_dev)
    return false; // replaced meanwhile
  if (::unlink(P.c_str()) != 0)
    return llvm::createStringError(std::error_code(errno, std::generic_category()),
                                   "%s: cannot remove: %s", P.c_str(), std::strerror(errno));
  return true;
}

} // namespace devport
