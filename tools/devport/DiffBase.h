//===--- DiffBase.h - Lines changed since a git revision ------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `devport check --diff-base REF` reports only the findings on lines that
/// changed since REF, for adopting devport gradually in a large codebase: the
/// lines that `git diff REF` adds or modifies in the working tree (staged or
/// not), and every line of an untracked file that git does not ignore (new
/// code that the next commit may add). A deleted line changes no line that is
/// left. The repository is the current directory's.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_TOOLS_DEVPORT_DIFFBASE_H
#define DEVPORT_TOOLS_DEVPORT_DIFFBASE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace devport {

/// The changed lines of a working tree, by absolute path.
struct ChangedLines {
  /// Absolute path -> changed 1-based line ranges [first, last], sorted.
  std::map<std::string, std::vector<std::pair<unsigned, unsigned>>> Lines;
  /// Absolute paths of files changed whole (untracked).
  std::set<std::string> Whole;

  /// True if AbsPath has a changed line in [First, Last].
  bool touches(const std::string &AbsPath, unsigned First, unsigned Last) const;
};

/// Adds to Out the new-side lines of `git diff -U0` output Diff, whose
/// paths are relative to Top (with the `b/` prefix). Quoted paths
/// (`"b/caf\303\251.py"`) are unquoted; deleted files are skipped.
void addUnifiedDiff(llvm::StringRef Diff, llvm::StringRef Top, ChangedLines &Out);

/// Runs git in the current directory: the changed lines since Ref. Fails
/// with a clear message when git is missing, the directory is not in a git
/// repository, or Ref names no commit.
llvm::Expected<ChangedLines> changedSince(llvm::StringRef Ref);

} // namespace devport

#endif
