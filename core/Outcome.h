//===--- Outcome.h - What checking and fixing one file produced -----------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Plain structs for the results of the engine's per-file pipeline: the
/// findings and keep matches of a check, the fixed text of a fix, and what a
/// batch run hands to a Reporter for one file. Produced by engine/, consumed
/// by report/, the CLI and the LSP server; none of them knows how the others
/// present it.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_CORE_OUTCOME_H
#define DEVPORT_CORE_OUTCOME_H

#include "core/Diagnostic.h"
#include "core/SourceFile.h"
#include "core/TorchVersion.h"

#include <optional>
#include <string>
#include <vector>

namespace devport {

/// Everything check found in one file.
struct CheckResult {
  std::vector<Diagnostic> Findings; ///< Sorted; suppressed and kept ones left out.
  /// Matches of keep rules (code that must stay CUDA), each listing the
  /// findings it accounts for (Diagnostic::Keeps).
  std::vector<Diagnostic> Kept;
  /// Findings that a `devport: ignore` comment silences, sorted (for
  /// formats that list suppressed findings: SARIF).
  std::vector<Diagnostic> Suppressed;
};

/// A fix that fix() left out because applying it would add a syntax error.
struct DroppedFix {
  std::string RuleId;
  /// Where its finding was, in the text of the round that tried it.
  LineColumn At;
  std::string Reason;
};

/// What fix() did to one file.
struct FixOutcome {
  std::string Text;          ///< The fixed text (the original if nothing applied).
  unsigned Applied = 0;      ///< Fixes applied over all rounds.
  /// The rule of each fix applied, in the order applied (Applied of them).
  std::vector<std::string> AppliedRules;
  unsigned Rounds = 0;       ///< Rounds that applied something.
  bool Converged = true;     ///< False if the round limit ran out while fixes remained.
  std::vector<DroppedFix> Dropped;
  /// Findings left in Text (no fix, an unsafe fix without unsafe fixes
  /// allowed, or a suppressed one excluded); ranges are in Text.
  std::vector<Diagnostic> Remaining;
  /// Whole parses of the file's text that fix() needed (for tests: the
  /// original, then one per round that applied something).
  unsigned Parses = 0;

  bool changed(const SourceFile &F) const { return Text != F.text(); }
};

/// The newest PyTorch release that some fix needs, and a rule whose fix
/// needs it.
struct FixNeed {
  TorchVersion Release;
  std::string RuleId;
};

/// What happened to one file of a batch run: handed to the Reporter in path
/// order, then freed.
struct FileReport {
  std::string Path;
  std::optional<SourceFile> File; ///< Unset if the file could not be read.
  std::string Error;              ///< Could not be read, checked or written.
  /// check: the findings; fix: the findings left (ranges in Fixed->Text).
  std::vector<Diagnostic> Findings;
  std::vector<Diagnostic> Kept;
  std::vector<Diagnostic> Suppressed; ///< check only: silenced by `devport: ignore`.
  std::optional<FixOutcome> Fixed; ///< fix only.
  bool Written = false;            ///< fix wrote the file.
  /// fix had changes to write but could not (Error says why): the report is
  /// then that of check on the file as it is (Fixed unset).
  bool NotWritten = false;
  /// Set by the batch run only when the file's target was given explicitly
  /// and is above its project's floor (TorchTarget::floorBelowTarget()): the
  /// newest release above that floor that a fix applied to the file or
  /// offered for it needs.
  std::optional<FixNeed> FixesNeed;
};

} // namespace devport

#endif
