//===--- Sarif.h - The SARIF 2.1.0 format of a batch run -------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `--format sarif`: one SARIF 2.1.0 log (OASIS Static Analysis Results
/// Interchange Format) for code-scanning services and editors. tool.driver
/// lists every rule with its documentation; each finding is a result with its
/// rule, level, location (relative to the root, under uriBaseId %SRCROOT%) and
/// its fix as artifactChanges; findings that keep rules account for are
/// results with a suppression. Columns are UTF-16 code units (columnKind
/// "utf16CodeUnits", set explicitly), 1-based, end exclusive. docs/cli.md
/// documents the mapping; tests/report/validate_sarif.js checks the output
/// against the official schema.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_REPORT_SARIF_H
#define DEVPORT_REPORT_SARIF_H

#include "core/Reporter.h"
#include "core/Rule.h"
#include "report/Paths.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace devport {

struct SarifOptions {
  std::string ToolVersion = "0.0.0";
  /// The tool's home page (tool.driver.informationUri), an absolute URI.
  std::string InformationUri;
  /// Absolute URI of the docs/ folder, ending in `/`: a rule's helpUri is
  /// DocsUri + "rules/<id>.md".
  std::string DocsUri;
  /// The rules to describe (the run's rule database); ids that results name
  /// and it lacks are described by id only. May be null.
  const RuleSet *Rules = nullptr;
  /// What the locations are relative to. Required.
  const RootPaths *Root = nullptr;
  /// Also list the keep matches, as informational results.
  bool ShowKept = false;
};

/// Writes the log when the run finishes (the rules come before the results,
/// and the rules that results use are known only then); holds the results
/// until then.
class SarifReporter final : public Reporter {
public:
  SarifReporter(llvm::raw_ostream &Out, llvm::raw_ostream &Err, SarifOptions Opts)
      : Out(Out), Err(Err), Opts(std::move(Opts)) {}
  void file(const FileReport &R) override;
  void finish(const Summary &S) override;

private:
  /// Starts the rules array with the rule database's rules.
  void listRules();
  /// The index of Id in the rules array, added when new.
  size_t ruleIndex(const std::string &Id);

  llvm::raw_ostream &Out, &Err;
  SarifOptions Opts;
  std::vector<std::string> RuleIds; ///< tool.driver.rules, in order.
  bool RulesListed = false;
  llvm::json::Array Results, Notifications;
};

} // namespace devport

#endif
