//===--- Rule.h - The rule model and the rule database --------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A Rule is data loaded from one YAML file under rules/<language>/<id>.yaml:
/// what to match (one or more code patterns with metavariables), what to say,
/// and which fix to offer for which PyTorch release. RuleSet loads and
/// validates a whole directory of them; the matchers compile a RuleSet into
/// their dispatch tables (matchers/python/PythonMatcher.h). The YAML schema is
/// documented in rules/schema.json and docs/writing-rules.md.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_CORE_RULE_H
#define DEVPORT_CORE_RULE_H

#include "core/Diagnostic.h"
#include "core/Fix.h"
#include "core/Metavariable.h" // metavariablesIn(), for the callers of this header
#include "core/TorchVersion.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace devport {

/// Where something in a rule file is: for error messages "file:line:col: ...".
struct RuleLoc {
  std::string File;
  unsigned Line = 0;   ///< 1-based; 0 if unknown.
  unsigned Column = 0; ///< 1-based; 0 if unknown.

  /// "file:line:col" (or "file" when the line is unknown).
  std::string str() const;
};

/// A code pattern as written in the rule, e.g. `torch.cuda.set_device($DEV)`.
struct RulePattern {
  std::string Text;
  RuleLoc Loc;
};

/// Constraints on what a metavariable may bind to.
struct MetavarConstraint {
  std::string Regex;    ///< The bound node's source text must match (search).
  std::string NotRegex; ///< ... and must not match.
  /// Names (no '$') bound to the groups of Regex, in order: `captures: [N]`
  /// with regex `cuda:([0-9]+)` binds $N to the index inside the string.
  std::vector<std::string> Captures;
  RuleLoc Loc;
};

/// One fix alternative, chosen by the target PyTorch release.
struct RuleFix {
  TorchVersion Since;   ///< First release that has the replacement.
  std::string Template; ///< Replacement text with $X / $$$X metavariables.
  Applicability App = Applicability::Safe;
  std::string Title;    ///< Optional; default "replace with <template>".
  std::string Note;     ///< Optional; why it is unsafe, what it changes.
  RuleLoc Loc;
};

/// A before/after pair for the documentation and `devport explain`.
struct RuleExample {
  std::string Before;
  std::string After; ///< Empty when the rule has no fix for it.
};

/// What a rule's matches are.
enum class RuleKind {
  Finding, ///< A hardcoded reference to report (and fix).
  Keep,    ///< Code that must stay CUDA: other rules' findings inside it are
           ///< suppressed, and `--show-kept` lists it.
};

struct Rule {
  std::string Id;       ///< kebab-case, unique, equals the file stem.
  RuleKind Kind = RuleKind::Finding;
  std::string Language; ///< "python" or "cpp".
  std::string Category; ///< e.g. "device-runtime"; used by select/ignore.
  Severity Sev = Severity::Warning;
  std::string Message;     ///< One line shown with every finding.
  std::string Description; ///< Optional: what it does and why, for docs/explain.
  std::string Note;        ///< Optional: caveats; shown by explain and in docs.
  std::string Url;         ///< Optional reference.
  std::vector<RulePattern> Patterns;               ///< Any of them matches.
  /// C++ only, optional: a clang-query matcher expression (Clang's dynamic
  /// matcher syntax) for the semantic backend; `.bind("NAME")` binds the
  /// metavariable $NAME. Without one, the lexical patterns run in both modes.
  RulePattern Matcher;
  std::map<std::string, MetavarConstraint> Where;  ///< Keyed by metavariable name (no '$').
  /// Optional metavariable (no '$') whose binding is the finding's range and
  /// what the fix replaces; empty: the whole match.
  std::string Focus;
  std::vector<RuleFix> Fixes;                      ///< In preference order.
  std::vector<RuleExample> Examples;
  RuleLoc Loc; ///< The rule's `id:` line.
  /// Compiled into the binary (RuleSet::loadBuffer(..., Embedded)): the test
  /// suite compiles every such rule, so compiling it cannot fail at run time.
  bool Embedded = false;

  /// The first fix whose Since is at most Target, or null (report only).
  const RuleFix *fixFor(TorchVersion Target) const;
};

/// The rule database. Owns its rules; immutable after loading and safe to
/// share between threads.
class RuleSet {
public:
  RuleSet() = default;

  /// Loads every rules/**/*.yaml under Dir (schema*.yaml files and hidden
  /// files are skipped), sorted by id. Fails on the first invalid file with
  /// "file:line:col: reason"; several problems are joined, one per line.
  static llvm::Expected<RuleSet> loadDirectory(llvm::StringRef Dir);
  /// Loads the given YAML files (same validation).
  static llvm::Expected<RuleSet> loadFiles(llvm::ArrayRef<std::string> Files);
  /// Parses one YAML document from memory; FileName is used in messages and,
  /// unless empty, must match the rule id as the file stem. Embedded: the
  /// rules compiled into the binary from the repository's rules/, which the
  /// test suite loads without it: the walk that checks the YAML's syntax and
  /// depth before the parse (against a stack overflow in LLVM's parser on
  /// hostile input) is skipped, a third of the rules' load at every start.
  static llvm::Expected<RuleSet> loadBuffer(llvm::StringRef FileName, llvm::StringRef Yaml,
                                            bool Embedded = false);

  /// Adds the rules of Other; fails on a duplicate id.
  llvm::Error merge(RuleSet Other);

  llvm::ArrayRef<std::shared_ptr<const Rule>> rules() const { return Rules; }
  const Rule *find(llvm::StringRef Id) const;
  size_t size() const { return Rules.size(); }

  /// A new set holding only the rules whose id or category is in Select
  /// (all if Select is empty) and in neither Ignore. Unknown ids or
  /// categories are an error naming them.
  llvm::Expected<RuleSet> filtered(llvm::ArrayRef<std::string> Select,
                                   llvm::ArrayRef<std::string> Ignore) const;

private:
  std::vector<std::shared_ptr<const Rule>> Rules; // sorted by Id; shared by filtered sets
};

/// The keys the rule-file parser accepts, per mapping; rules/schema.json
/// must list the same (a unit test checks).
struct RuleFileKeys {
  static llvm::ArrayRef<llvm::StringRef> rule();
  static llvm::ArrayRef<llvm::StringRef> fix();
  static llvm::ArrayRef<llvm::StringRef> where();
  static llvm::ArrayRef<llvm::StringRef> example();
};

/// Metavariables a template may use without a pattern binding them: the
/// project's device expression (`$DEVICE`, default
/// `torch.accelerator.current_accelerator()`) and its type string
/// (`$DEVICE_TYPE`, default `torch.accelerator.current_accelerator().type`).
bool isReservedMetavariable(llvm::StringRef Name);

} // namespace devport

#endif
