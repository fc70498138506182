//===--- HtmlReport.h - The migration report: one self-contained page ----===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `devport report`: a batch run summed up in one HTML page that needs
/// nothing else (inline CSS, SVG and a few lines of JavaScript; no fonts,
/// scripts or images from elsewhere), for whoever plans a port. It shows the
/// totals (files, references found, fixable safely or unsafely, needing a
/// human, kept as CUDA), a bar chart per rule family (the rules' `category`),
/// a table per directory sortable by the work left after `devport fix`, a
/// table per rule, the findings that need a human with links to their rule
/// pages (embedded in the page, or under `--docs-url`), and with a baseline
/// the trend: findings then and now, fixed and new.
///
/// MigrationReport is the model (plain counts, filled file by file in path
/// order, so the page is the same whatever the thread count); renderHtml()
/// turns it into the page; HtmlReporter is the Reporter that does both and
/// writes the page atomically at the end.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_REPORT_HTMLREPORT_H
#define DEVPORT_REPORT_HTMLREPORT_H

#include "core/BackendTable.h"
#include "core/Reporter.h"
#include "core/Rule.h"
#include "report/Baseline.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace devport {

/// Text for HTML content and attribute values: & < > " ' escaped.
std::string htmlEscape(llvm::StringRef S);

/// The findings of one group (the run, a rule family, a rule, a directory).
struct WorkTally {
  size_t Files = 0;  ///< Files checked (per directory and in total).
  size_t Safe = 0;   ///< Findings with a safe fix: `devport fix` does them.
  size_t Unsafe = 0; ///< ... with an unsafe fix: `--unsafe-fixes`, after review.
  size_t Manual = 0; ///< ... with no fix (or a display-only one): a human's job.
  size_t Kept = 0;   ///< Keep matches: CUDA by design, nothing to do.
  // With a baseline:
  size_t Then = 0;  ///< Findings in the baseline.
  size_t New = 0;   ///< Findings now that the baseline does not have.
  size_t Fixed = 0; ///< Baseline findings not found now.

  size_t findings() const { return Safe + Unsafe + Manual; }
  /// What is left after `devport fix`: the unsafe and the manual findings.
  size_t remaining() const { return Unsafe + Manual; }
};

/// A finding that needs a human.
struct ManualItem {
  std::string Path; ///< As MigrationReport::shown() prints it.
  unsigned Line = 0, Column = 0;
  std::string Rule, Message;
  bool New = false; ///< Not in the baseline (with a baseline only).
};

class MigrationReport {
public:
  /// Roots: the paths the run was given; paths are shown relative to their
  /// common directory. CategoryOf: a rule id's family (its `category`).
  MigrationReport(std::vector<std::string> Roots,
                  std::function<std::string(llvm::StringRef RuleId)> CategoryOf);

  /// One file's report, in path order. Known: for each finding, whether the
  /// baseline has it (null without a baseline).
  void add(const FileReport &R, const std::vector<bool> *Known = nullptr);
  /// A baseline finding that this run did not find.
  void addFixed(const Baseline::Entry &E);
  /// Files that could not be read or checked, with why.
  void addError(std::string Message) { Errors.push_back(std::move(Message)); }

  /// Path relative to the common directory of the roots (base()).
  std::string shown(llvm::StringRef Path) const;
  /// The directory paths are shown under ("" when the roots share none).
  const std::string &base() const { return Base; }
  const std::vector<std::string> &roots() const { return Roots; }

  const WorkTally &total() const { return Total; }
  const std::map<std::string, WorkTally> &byCategory() const { return ByCategory; }
  const std::map<std::string, WorkTally> &byRule() const { return ByRule; }
  /// Keyed by directory as shown ("." for the base itself).
  const std::map<std::string, WorkTally> &byDirectory() const { return ByDirectory; }
  const std::vector<ManualItem> &manual() const { return Manual; }
  const std::vector<std::string> &errors() const { return Errors; }
  std::string categoryOf(llvm::StringRef Rule) const { return CategoryOf(Rule); }

private:
  std::string directoryOf(llvm::StringRef Path) const;

  std::vector<std::string> Roots;
  std::function<std::string(llvm::StringRef)> CategoryOf;
  std::string Base;
  WorkTally Total;
  std::map<std::string, WorkTally> ByCategory, ByRule, ByDirectory;
  std::vector<ManualItem> Manual;
  std::vector<std::string> Errors;
};

struct HtmlOptions {
  std::string Title = "Device portability report";
  /// Where a rule id links to: Base + "<id>.md" when set; else to the rule's
  /// page embedded at the end of the report.
  std::string DocsUrl;
  /// The baseline file's name, when there is one (the trend is shown).
  std::string BaselineName;
  /// "PyTorch 2.9 (default)": what the fixes target (HtmlReporter says it
  /// from the Summary when empty).
  std::string Target;
  std::string Generator = "devport";
};

/// The whole page. Rules (may be null): the rule pages embedded for the rules
/// the report names (`devport explain`'s text, with Backends).
std::string renderHtml(const MigrationReport &M, const HtmlOptions &O, const RuleSet *Rules,
                       const BackendTable *Backends);

/// The Reporter of `devport report`: prints the errors of files that could
/// not be checked on Err (as `check` does), fills a MigrationReport (matching
/// findings to B when given) and at the end writes the page to OutPath
/// atomically (`-`: to Out). takeError() says whether writing failed.
class HtmlReporter final : public Reporter {
public:
  HtmlReporter(std::string OutPath, llvm::raw_ostream &Out, llvm::raw_ostream &Err,
               MigrationReport Model, HtmlOptions Opts, const RuleSet *Rules,
               const BackendTable *Backends, Baseline *B);
  void file(const FileReport &R) override;
  void finish(const Summary &S) override;
  llvm::Error takeError();
  const MigrationReport &model() const { return Model; }
  /// The page's size in bytes once written.
  size_t bytes() const { return Bytes; }

private:
  std::string OutPath;
  llvm::raw_ostream &Out, &Err;
  MigrationReport Model;
  HtmlOptions Opts;
  const RuleSet *Rules;
  const BackendTable *Backends;
  Baseline *B;
  std::string WriteError;
  size_t Bytes = 0;
};

} // namespace devport

#endif
