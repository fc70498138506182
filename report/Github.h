//===--- Github.h - GitHub Actions annotations of a batch run -------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `--format github`: one GitHub Actions workflow command per finding,
/// `::warning file=PATH,line=L,col=C,endLine=L2,endColumn=C2,title=T::MESSAGE`,
/// which the runner turns into annotations on the pull request. PATH is
/// relative to the root (the repository's top level or `--root`); columns
/// count code points as the text output does, and are left out for a finding
/// that spans lines (GitHub ignores them there). Severity error gives
/// `::error`, warning `::warning`, info and hint `::notice`.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_REPORT_GITHUB_H
#define DEVPORT_REPORT_GITHUB_H

#include "core/Reporter.h"
#include "report/Paths.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace devport {

/// A command's message as GitHub reads it back: `%` -> `%25`, CR -> `%0D`,
/// LF -> `%0A` (what @actions/core's escapeData does).
std::string escapeGithubData(llvm::StringRef S);
/// A property value: escapeGithubData plus `:` -> `%3A` and `,` -> `%2C`.
std::string escapeGithubProperty(llvm::StringRef S);

class GithubReporter final : public Reporter {
public:
  /// Root is required and must outlive the reporter.
  GithubReporter(llvm::raw_ostream &Out, llvm::raw_ostream &Err, const RootPaths &Root)
      : Out(Out), Err(Err), Root(Root) {}
  void file(const FileReport &R) override;
  void finish(const Summary &S) override;

private:
  llvm::raw_ostream &Out, &Err;
  const RootPaths &Root;
};

} // namespace devport

#endif
