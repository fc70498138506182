//===--- Reporters.h - The text and JSON formats of a batch run -----------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The Reporters of `devport check` and `devport fix`: compiler-style text
/// (with unified diffs for `fix --diff`) and the JSON documented in
/// docs/cli.md. Both write each file's part as it arrives; the JSON reporter
/// streams the "diagnostics" array and keeps only the error messages (and the
/// keep matches with --show-kept) until the summary.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_REPORT_REPORTERS_H
#define DEVPORT_REPORT_REPORTERS_H

#include "core/Reporter.h"
#include "report/Statistics.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace devport {

struct ReportOptions {
  bool Fix = false;      ///< A fix run (else a check run).
  bool Diff = false;     ///< fix --diff: show diffs, not findings.
  bool ShowKept = false; ///< List the keep matches too.
  /// --statistics: the text lists counts per rule instead of the findings;
  /// the JSON adds a "statistics" array (report/Statistics.h).
  bool Statistics = false;
  const RuleSet *Rules = nullptr; ///< For the statistics' categories; may be null.
};

/// Findings on Out as `path:line:col: severity: message [rule]` with the
/// source line; read and write errors and fix warnings on Err; a closing
/// summary line.
class TextReporter final : public Reporter {
public:
  TextReporter(llvm::raw_ostream &Out, llvm::raw_ostream &Err, ReportOptions Opts);
  void file(const FileReport &R) override;
  void finish(const Summary &S) override;

private:
  llvm::raw_ostream &Out, &Err;
  ReportOptions Opts;
  std::optional<Statistics> Stats;
};

/// One JSON document on Out: {"diagnostics": [...], "kept": [...] (with
/// ShowKept), "statistics": [...] (with Statistics), "summary": {...}}; fix
/// warnings on Err.
class JsonReporter final : public Reporter {
public:
  JsonReporter(llvm::raw_ostream &Out, llvm::raw_ostream &Err, ReportOptions Opts);
  ~JsonReporter() override;
  void file(const FileReport &R) override;
  void finish(const Summary &S) override;

private:
  void start();

  llvm::raw_ostream &Out, &Err;
  ReportOptions Opts;
  std::unique_ptr<llvm::json::OStream> J;
  std::vector<std::string> Errors;
  /// --show-kept: each kept place, as its element of the "kept" array.
  std::vector<std::string> Kept;
  std::optional<Statistics> Stats;
};

/// The warnings a fix run has about one file (fixes dropped because they
/// would add a syntax error, fixes that did not converge), one per line.
void renderFixWarnings(llvm::raw_ostream &Err, const FileReport &R);

} // namespace devport

#endif
