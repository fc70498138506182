//===--- Paths.cpp - Paths relative to a root, and file URIs --------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "report/Paths.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <optional>

namespace devport {

std::string percentEncodePath(llvm::StringRef Path) {
  std::string Out;
  Out.reserve(Path.size());
  for (char C : Path) {
    unsigned char U = static_cast<unsigned char>(C);
    if (llvm::isAlnum(C) || C == '-' || C == '.' || C == '_' || C == '~' || C == '/') {
      Out += C;
      continue;
    }
    Out += '%';
    Out += llvm::hexdigit(U >> 4);
    Out += llvm::hexdigit(U & 0xF);
  }
  return Out;
}

std::string fileUri(llvm::StringRef AbsPath, bool Dir) {
  std::string Uri = "file://" + percentEncodePath(AbsPath);
  if (Dir && !llvm::StringRef(Uri).endswith("/"))
    Uri += '/';
  return Uri;
}

/// Path made absolute against the current directory, `.` and `..` removed.
static std::string absoluteClean(llvm::StringRef Path) {
  llvm::SmallString<256> P(Path);
  llvm::sys::fs::make_absolute(P);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P.str());
}

std::string findRepositoryRoot(llvm::StringRef Dir) {
  std::string D = absoluteClean(Dir);
  for (llvm::StringRef Cur = D; !Cur.empty(); Cur = llvm::sys::path::parent_path(Cur)) {
    llvm::SmallString<256> Git(Cur);
    llvm::sys::path::append(Git, ".git");
    if (llvm::sys::fs::exists(Git))
      return Cur.str();
  }
  return "";
}

llvm::Expected<RootPaths> RootPaths::create(llvm::StringRef Root) {
  std::string Abs = absoluteClean(Root);
  if (!llvm::sys::fs::is_directory(Abs))
    return llvm::createStringError(std::errc::not_a_directory, "--root %s: not a directory",
                                   Root.str().c_str());
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(Abs, Real))
    Real = Abs;
  return RootPaths(Abs, std::string(Real.str()));
}

/// Path relative to Root when under it.
static std::optional<std::string> under(llvm::StringRef Root, llvm::StringRef Path) {
  if (Path == Root)
    return std::string(".");
  if (Root == "/")
    return Path.drop_front().str();
  if (Path.startswith(Root) && Path[Root.size()] == '/')
    return Path.drop_front(Root.size() + 1).str();
  return std::nullopt;
}

llvm::Expected<std::string> RootPaths::relative(llvm::StringRef Path) const {
  std::string Abs = absoluteClean(Path);
  if (auto R = under(Root, Abs))
    return *R;
  // The same place spelled through a symbolic link (Ex) /tmp -> /private/tmp):
  // the file's directory resolved, its name kept.
  llvm::SmallString<256> RealDir;
  if (!llvm::sys::fs::real_path(llvm::sys::path::parent_path(Abs), RealDir)) {
    llvm::sys::path::append(RealDir, llvm::sys::path::filename(Abs));
    if (auto R = under(RealRoot, RealDir))
      return *R;
  }
  return llvm::createStringError(std::errc::invalid_argument,
                                 "%s: outside the root %s (set the root with --root DIR)",
                                 Path.str().c_str(), Root.c_str());
}

} // namespace devport
