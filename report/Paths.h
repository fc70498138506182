//===--- Paths.h - Paths relative to a root, and file URIs ----------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The paths that SARIF and GitHub annotations show are relative to one root
/// (the repository's top level, or `--root DIR`), whatever the current
/// directory and however the user spelled the paths on the command line.
/// RootPaths makes them so and refuses a file outside the root (an error, not
/// a wrong path); percentEncodePath and fileUri turn paths into the URIs that
/// SARIF needs. Used by the SARIF and GitHub Reporters and by the CLI.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_REPORT_PATHS_H
#define DEVPORT_REPORT_PATHS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace devport {

/// Path with every byte but the unreserved characters of RFC 3986
/// (A-Z a-z 0-9 - . _ ~) and the separator `/` percent-encoded: a space is
/// `%20`, `#` is `%23`, `%` is `%25`, `é` (UTF-8 C3 A9) is `%C3%A9`. So the
/// result is a relative URI reference whose first segment can never be taken
/// for a scheme (`:` is encoded too).
std::string percentEncodePath(llvm::StringRef Path);

/// `file:///abs/path` for an absolute POSIX path, percent-encoded; a
/// directory gets a trailing `/` when Dir is set (SARIF's uriBaseIds must
/// end with one).
std::string fileUri(llvm::StringRef AbsPath, bool Dir = false);

/// The nearest directory at or above Dir (made absolute) that holds `.git`
/// (a directory, or a file as in a worktree): the top level of the git
/// repository. Empty when there is none.
std::string findRepositoryRoot(llvm::StringRef Dir);

/// Maps the paths of a run to paths relative to a root directory.
/// Immutable after creation; safe to share between threads.
class RootPaths {
public:
  /// Root made absolute, `.` and `..` removed; an error when it is not a
  /// directory.
  static llvm::Expected<RootPaths> create(llvm::StringRef Root);

  /// The absolute root, without a trailing `/` (except for `/` itself).
  const std::string &root() const { return Root; }

  /// Path (absolute, or relative to the current directory) relative to the
  /// root, with `/` separators and no `./`; the root itself is ".". An error
  /// naming the path and the root when the file is not under the root, even
  /// after resolving symbolic links of both.
  llvm::Expected<std::string> relative(llvm::StringRef Path) const;

private:
  explicit RootPaths(std::string Root, std::string RealRoot)
      : Root(std::move(Root)), RealRoot(std::move(RealRoot)) {}
  std::string Root, RealRoot;
};

} // namespace devport

#endif
