//===--- Statistics.h - Findings counted per rule -------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `--statistics`: how many findings each rule has, how many of them a safe
/// or an unsafe fix would fix and how many are report-only, and how much code
/// the keep rules account for (as `ruff check --statistics` counts). The text
/// and JSON Reporters feed it each file and print it at the end.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_REPORT_STATISTICS_H
#define DEVPORT_REPORT_STATISTICS_H

#include "core/Outcome.h"
#include "core/Rule.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>
#include <vector>

namespace devport {

/// One rule's counts.
struct RuleStatistics {
  std::string Rule;
  std::string Category;   ///< Empty for a rule the rule set does not know.
  size_t Findings = 0;    ///< Findings reported.
  size_t Safe = 0;        ///< ... whose fix is safe.
  size_t Unsafe = 0;      ///< ... whose fix is unsafe.
  size_t ReportOnly = 0;  ///< ... with no fix, or a display-only one.
  /// A keep rule: its matches. A finding rule: its findings that kept code
  /// accounts for (not reported, not in Findings).
  size_t Kept = 0;
};

/// Counts findings per rule over a run.
class Statistics {
public:
  /// Rules gives the categories; may be null.
  explicit Statistics(const RuleSet *Rules) : Rules(Rules) {}

  /// Adds one file's findings and keep matches.
  void add(const FileReport &R);

  /// The rows: most findings first, then most kept, then by rule id.
  std::vector<RuleStatistics> rows() const;

  /// An aligned table with a header and a total line.
  void renderText(llvm::raw_ostream &OS) const;

  /// The rows as a JSON array of {"rule", "category", "findings",
  /// "fixable_safe", "fixable_unsafe", "report_only", "kept"}.
  llvm::json::Array toJSON() const;

private:
  RuleStatistics &row(const std::string &Id);

  const RuleSet *Rules;
  std::map<std::string, RuleStatistics> ByRule;
};

} // namespace devport

#endif
