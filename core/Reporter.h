//===--- Reporter.h - Where a batch run's results go ----------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A Reporter receives a batch run's results one file at a time, in
/// deterministic path order, as soon as that file and every earlier one are
/// done (engine/BatchRun.h), and a Summary at the end. It must not keep the
/// FileReport: the run frees it afterwards, so that memory stays bounded by
/// the files in flight rather than by the codebase. The text, JSON, SARIF and
/// GitHub formats and the HTML report are Reporters (report/).
///
/// Thread-safety: a batch run calls a Reporter from one thread at a time.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_CORE_REPORTER_H
#define DEVPORT_CORE_REPORTER_H

#include "core/Outcome.h"
#include "core/ProjectRequirements.h"
#include "core/TorchVersion.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace devport {

/// A target release that files of a batch run had.
struct TargetUse {
  TorchTarget Target;
  size_t Files = 0; ///< How many files had it.
  /// When the target was given explicitly above the project's floor: the
  /// newest release above the floor that a fix applied or offered needs.
  std::optional<FixNeed> FixesNeed;
};

/// Totals of a batch run, accumulated while the files stream by.
struct Summary {
  size_t Files = 0;         ///< Files checked (excluded ones not counted).
  size_t Findings = 0;      ///< Findings (check) or findings left (fix).
  size_t Fixable = 0;       ///< ... whose fix the run's settings apply.
  size_t UnsafeFixable = 0; ///< ... whose fix needs unsafe fixes allowed.
  size_t Kept = 0;          ///< Keep matches.
  size_t Errors = 0;        ///< Files (or directories) not read, checked or written.
  size_t NotWritten = 0;    ///< fix: files with fixes that could not be written (in Errors).
  size_t Applied = 0;       ///< fix: fixes applied (written, unless a diff).
  size_t Changed = 0;       ///< fix: files whose text changed (written, unless a diff).
  bool DiffNonEmpty = false;
  /// The release the fixes target (of the first file).
  TorchVersion Target = TorchVersion::defaultTarget();
  /// Every distinct target the files had, and where it came from, in the
  /// order of their first file; one (the front end's or the default) when no
  /// file was checked.
  std::vector<TargetUse> Targets;

  /// The use of T, added if new.
  TargetUse &use(const TorchTarget &T) {
    for (TargetUse &U : Targets)
      if (U.Target == T)
        return U;
    Targets.push_back({T, 0, std::nullopt});
    return Targets.back();
  }
};

class Reporter {
public:
  virtual ~Reporter();
  /// Before the first file: how many files the run will report.
  virtual void begin(size_t Files) { (void)Files; }
  /// One file's results; called in path order.
  virtual void file(const FileReport &R) = 0;
  /// After the last file.
  virtual void finish(const Summary &S) = 0;
};

} // namespace devport

#endif
