//===--- AtomicWrite.cpp - Writing a file without losing it ---------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "rewriters/AtomicWrite.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace devport {

static llvm::Error fail(llvm::StringRef Path, const std::string &Why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: %s; not written",
                                 Path.str().c_str(), Why.c_str());
}

llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Content,
                                const FileStamp &Expected) {
  // Write through a symlink to its target, so that the link stays a link.
  llvm::SmallString<256> Target;
  if (std::error_code EC = llvm::sys::fs::real_path(Path, Target))
    return fail(Path, "cannot resolve path: " + EC.message());
  auto Now = statFile(Target);
  if (!Now) {
    llvm::consumeError(Now.takeError());
    return fail(Path, "cannot stat");
  }
  if (Expected.Valid && !(*Now == Expected))
    return fail(Path, "changed on disk since it was read");
  uint32_t Mode = Expected.Valid ? Expected.Mode : Now->Mode;

  llvm::SmallString<256> Dir(Target);
  llvm::sys::path::remove_filename(Dir);
  std::string Tmp = (Dir.empty() ? std::string(".") : std::string(Dir.str())) + "/." +
                    llvm::sys::path::filename(Target).str() + ".devport-XXXXXX";
  int FD = ::mkstemp(Tmp.data());
  if (FD < 0)
    return fail(Path, std::string("cannot create a temporary file: ") + strerror(errno));
  auto Cleanup = [&](const std::string &Why) {
    ::close(FD);
    ::unlink(Tmp.c_str());
    return fail(Path, Why);
  };
  const char *P = Content.data();
  size_t Left = Content.size();
  while (Left > 0) {
    ssize_t N = ::write(FD, P, Left);
    if (N < 0) {
      if (errno == EINTR)
        continue;
      return Cleanup(std::string("cannot write: ") + strerror(errno));
    }
    P += N;
    Left -= static_cast<size_t>(N);
  }
  if (::fchmod(FD, static_cast<mode_t>(Mode)) != 0)
    return Cleanup(std::string("cannot set permissions: ") + strerror(errno));
  if (::fsync(FD) != 0)
    return Cleanup(std::string("cannot sync: ") + strerror(errno));
  if (::close(FD) != 0) {
    ::unlink(Tmp.c_str());
    return fail(Path, std::string("cannot close: ") + strerror(errno));
  }
  // Check again just before the rename: the window is as small as it gets.
  auto Before = statFile(Target);
  if (!Before || (Expected.Valid && !(*Before == Expected))) {
    if (!Before)
      llvm::consumeError(Before.takeError());
    ::unlink(Tmp.c_str());
    return fail(Path, "changed on disk since it was read");
  }
  if (::rename(Tmp.c_str(), Target.c_str()) != 0) {
    int E = errno;
    ::unlink(Tmp.c_str());
    return fail(Path, std::string("cannot replace: ") + strerror(E));
  }
  return llvm::Error::success();
}

} // namespace devport
