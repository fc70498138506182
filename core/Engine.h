//===--- Engine.h - The per-file pipeline ---------------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Engine runs the rule set over one file at a time: skip-file directive ->
/// prefilter -> parse -> resolve names -> match (one traversal) -> build
/// diagnostics and fixes -> suppression comments. fix() then applies fixes in
/// bounded rounds to a fixpoint, dropping any fix that adds a syntax error.
/// The CLI and (later) the LSP server are its clients; it knows nothing of
/// terminals, JSON or files on disk beyond the SourceFile it is given.
///
/// Regions: the pipeline works on the whole file today. DESIGN.md asks for a
/// batch path that parses only candidate regions; that will slot in between
/// the prefilter and the parse without changing this interface.
///
/// Thread-safety: an Engine is immutable after create(); check() and fix()
/// may run concurrently on different files (each thread parses with its own
/// parser).
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_CORE_ENGINE_H
#define DEVPORT_CORE_ENGINE_H

#include "core/Diagnostic.h"
#include "core/Rule.h"
#include "core/SourceFile.h"
#include "core/TorchVersion.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace devport {
namespace python {
class NameResolver;
class PythonMatcher;
struct RuleMatch;
} // namespace python

struct EngineOptions {
  /// Release the fixes must run on: picks each rule's first fix whose `since`
  /// is at most this.
  TorchVersion Target = TorchVersion::defaultTarget();
  /// fix(): apply Unsafe fixes too (never DisplayOnly ones).
  bool UnsafeFixes = false;
  /// What `$DEVICE` expands to in fix templates: the device the code should
  /// use (a project may say `device` or `self.device`).
  std::string DeviceExpression = "torch.accelerator.current_accelerator()";
  /// What `$DEVICE_TYPE` expands to: its type string. Empty: derived as
  /// `<DeviceExpression>.type`.
  std::string DeviceTypeExpression;
  /// Every rule id of the project's database, sorted: an id in a
  /// `# devport: ignore[...]` comment that is not among them is reported.
  /// Empty: the engine's own rules.
  std::vector<std::string> KnownRuleIds;
  /// Findings in doctests (`>>>` lines of docstrings) get their fixes too;
  /// otherwise they are reported only (`docstrings: fix` in .devport.yaml).
  bool FixDocstrings = false;
  /// fix(): at most this many rounds of match-and-apply.
  unsigned MaxFixRounds = 8;

  static EngineOptions forTest() { return {}; }
};

/// What fix() did to one file.
struct FixOutcome {
  std::string Text;          ///< The fixed text (the original if nothing applied).
  unsigned Applied = 0;      ///< Fixes applied over all rounds.
  unsigned Rounds = 0;       ///< Rounds that applied something.
  bool Converged = true;     ///< False if MaxFixRounds ran out while fixes remained.
  /// Fixes dropped because they would have added a syntax error; one line
  /// each, "line:col: rule-id: reason".
  std::vector<std::string> Dropped;
  /// Findings left in Text (no fix, an unsafe fix without --unsafe-fixes,
  /// or a suppressed one excluded).
  std::vector<Diagnostic> Remaining;

  bool changed(const SourceFile &F) const { return Text != F.text(); }
};

/// Everything check found in one file.
struct CheckResult {
  std::vector<Diagnostic> Findings; ///< Sorted; suppressed and kept ones left out.
  /// Matches of keep rules (code that must stay CUDA), each with a note per
  /// finding it suppressed; listed by `--show-kept`.
  std::vector<Diagnostic> Kept;
};

class Engine {
public:
  /// Compiles Rules for matching. Fails with "file:line:col: reason" lines
  /// if a rule's pattern cannot be compiled.
  static llvm::Expected<std::unique_ptr<Engine>> create(RuleSet Rules, EngineOptions Opts);
  ~Engine();

  const RuleSet &rules() const { return Rules; }
  const EngineOptions &options() const { return Opts; }

  /// The findings in F, sorted by position then rule id; suppressed ones
  /// (`# devport: ignore[...]`, `# devport: skip-file`) are left out.
  std::vector<Diagnostic> check(const SourceFile &F) const;
  /// check() plus the keep matches.
  CheckResult checkAll(const SourceFile &F) const;

  /// Applies the allowed fixes to F's text until nothing changes.
  FixOutcome fix(const SourceFile &F) const;

  /// Whether a fix with this applicability is applied by fix().
  bool allowed(Applicability A) const {
    return A == Applicability::Safe || (A == Applicability::Unsafe && Opts.UnsafeFixes);
  }

  /// What `$DEVICE_TYPE` expands to.
  std::string deviceTypeExpression() const;

private:
  Engine(RuleSet Rules, EngineOptions Opts);
  /// The finding (with its fix, if any) of a finding rule's match in Text.
  Diagnostic diagnose(const python::RuleMatch &M, llvm::StringRef Text, const SourceFile &F,
                      const python::NameResolver &Resolver,
                      llvm::ArrayRef<ByteRange> Comments) const;
  /// The findings of the doctests in the string at Range of F's text.
  void checkDoctest(const SourceFile &F, ByteRange Range, CheckResult &Result) const;
  /// check(); ErrorCount receives the parse's syntax error count.
  CheckResult checkText(const SourceFile &F, unsigned *ErrorCount) const;

  RuleSet Rules;
  EngineOptions Opts;
  std::unique_ptr<python::PythonMatcher> Matcher;
};

/// True if Text has a `# devport: skip-file` comment line in its first ten
/// lines.
bool hasSkipFileDirective(llvm::StringRef Text);

} // namespace devport

#endif
