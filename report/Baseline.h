//===--- Baseline.h - Findings known from an earlier run ------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A baseline is the output of an earlier `devport check --format json`. It
/// lets `check --baseline` report only the findings that are new since, and
/// `report --baseline` show the trend. A finding is identified across edits
/// by its file, its rule and its fingerprint: a hash of its source line with
/// all whitespace removed, and which occurrence of that rule on such a line in
/// the file it is ("<16 hex digits>:<n>", n from 1). Line numbers take no
/// part, so the lines above a finding can change without making it new. This
/// is how GitHub code scanning's primaryLocationLineHash (SARIF
/// partialFingerprints) and Psalm's baseline identify a result.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_REPORT_BASELINE_H
#define DEVPORT_REPORT_BASELINE_H

#include "core/Diagnostic.h"
#include "core/Outcome.h"
#include "core/SourceFile.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace devport {

/// The fingerprints of one file's findings, in their order (sorted by
/// position, as a FileReport holds them).
std::vector<std::string> fingerprints(const SourceFile &F, llvm::ArrayRef<Diagnostic> Findings);

/// A path as baselines compare them: `.` and `..` components resolved, no
/// leading `./`, `/` separators.
std::string baselinePath(llvm::StringRef Path);

class Baseline {
public:
  /// One finding of the earlier run.
  struct Entry {
    std::string Path; ///< baselinePath() of the JSON's "path".
    std::string Rule;
    std::string Fingerprint;
    int64_t Line = 0;
    bool Matched = false; ///< A finding of this run matched it.
  };

  /// Reads File, the JSON of `devport check --format json`. Errors name the
  /// file and say what is wrong ("old.json: not valid JSON: [3:1, byte=40]:
  /// ...", "old.json: diagnostics[2]: no \"fingerprint\" ...").
  static llvm::Expected<Baseline> load(llvm::StringRef File);
  /// The same from text; Name is used in the errors.
  static llvm::Expected<Baseline> parse(llvm::StringRef Json, llvm::StringRef Name);

  /// For each of F's findings (in their order): whether the baseline has it.
  /// Each entry matches one finding at most; the entries matched are marked.
  std::vector<bool> match(const SourceFile &F, llvm::ArrayRef<Diagnostic> Findings);

  /// Drops R's findings that the baseline has; returns how many it dropped.
  size_t removeKnown(FileReport &R);

  /// The entries no finding has matched, in path order: fixed since, or in
  /// files this run did not see. With Roots, only those under one of them
  /// (a file or directory path; `.` is everything).
  std::vector<const Entry *> unmatched(llvm::ArrayRef<std::string> Roots = {}) const;

  size_t size() const { return Size; }

private:
  /// Entries by baselinePath(), each list in the JSON's order.
  std::map<std::string, std::vector<Entry>, std::less<>> ByPath;
  size_t Size = 0;
};

} // namespace devport

#endif
