//===--- Engine.h - The per-file pipeline ---------------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Engine runs a rule set over one file at a time, for any language: the
/// file's LanguageBackend (by its path) does the parsing, matching and fix
/// building, the Engine the rest: skip-file directive -> prefilter -> parse
/// -> match (one traversal) -> diagnose -> suppress (`devport: ignore`
/// comments, keep rules) -> fix rounds to a fixpoint, dropping any fix that
/// adds a syntax error, and the import clean-up the fixes call for. Code
/// embedded in a file (doctests) goes through the same steps.
///
/// Clients: the CLI and the fixture runner through Project and BatchRun, and
/// the LSP server (checkIncremental). It knows nothing of terminals, JSON, command-line
/// flags or files on disk beyond the SourceFile it is given.
///
/// Regions: the pipeline parses whole files today. DESIGN.md asks for a batch
/// path that parses only candidate regions; it slots in between the prefilter
/// and the parse (LanguageBackend::parse) without changing this interface.
///
/// Thread-safety: an Engine is immutable after create(); check() and fix()
/// may run concurrently on different files.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_ENGINE_ENGINE_H
#define DEVPORT_ENGINE_ENGINE_H

#include "core/BackendTable.h"
#include "core/Diagnostic.h"
#include "core/LanguageBackend.h"
#include "core/Outcome.h"
#include "core/Rule.h"
#include "core/SourceFile.h"
#include "core/TorchVersion.h"

#include "llvm/Support/Error.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace devport {

struct EngineOptions {
  /// Release the fixes must run on: picks each rule's first fix whose `since`
  /// is at most this.
  TorchVersion Target = TorchVersion::defaultTarget();
  /// fix(): apply Unsafe fixes too (never DisplayOnly ones).
  bool UnsafeFixes = false;
  /// What `$DEVICE` expands to in fix templates: the device the code should
  /// use (a project may say `device` or `self.device`).
  std::string DeviceExpression = DefaultDeviceExpression.str();
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
  /// Which backend module has which function: a safe fix that reaches
  /// `torch.get_device_module().NAME` where some module lacks NAME becomes
  /// unsafe, with a note. Null: no such check.
  std::shared_ptr<const BackendTable> Backends;
  /// Skip the parse of a text that holds no literal some pattern needs.
  /// Tests turn it off to prove it changes nothing.
  bool Prefilter = true;
  /// check() and fix() parse every file whole, not only the regions that
  /// the rules can need (CompiledRules::regionText): `--whole-files`, for
  /// the test that proves region parsing changes nothing, and for debugging.
  bool WholeFiles = false;
  /// Text that, in a comment on a finding's line, marks the line as CUDA by
  /// design (`cuda-comments` in .devport.yaml): the finding is kept.
  std::vector<std::string> CudaComments;
  /// What the backends need to know about the build (C++: compile commands,
  /// semantic mode, CUDA-role globs).
  BackendOptions Build;

  static EngineOptions forTest() { return {}; }
};

class Engine {
public:
  /// Compiles Rules with the backend of each language (defaultBackends()).
  /// Fails with "file:line:col: reason" lines if a rule's pattern cannot be
  /// compiled.
  static llvm::Expected<std::unique_ptr<Engine>> create(RuleSet Rules, EngineOptions Opts);
  /// The same with these backends (the first is used for a path that none of
  /// them claims, e.g. standard input without a name).
  static llvm::Expected<std::unique_ptr<Engine>>
  create(RuleSet Rules, EngineOptions Opts, llvm::ArrayRef<const LanguageBackend *> Backends);
  ~Engine();

  const RuleSet &rules() const { return Rules; }
  const EngineOptions &options() const { return Opts; }

  /// The findings in F, sorted by position then rule id; suppressed ones
  /// (`# devport: ignore[...]`, `# devport: skip-file`) are left out.
  std::vector<Diagnostic> check(const SourceFile &F) const;
  /// check() plus the keep matches.
  CheckResult checkAll(const SourceFile &F) const;
  /// checkAll() for a document that an editor keeps changing. Previous is
  /// the parse of an earlier text of the same document (or null) and Edits
  /// (sorted, non-overlapping, in that text's offsets) turn it into F's
  /// text: the backend re-parses incrementally where it can (Python:
  /// tree-sitter). Parsed receives F's parse, to pass as Previous next time
  /// (it refers to F's text, which must outlive it); a document that once
  /// had a parse keeps one even while the prefilter would skip it, so that
  /// the next change is incremental too.
  CheckResult checkIncremental(const SourceFile &F, const ParsedFile *Previous,
                               llvm::ArrayRef<Edit> Edits,
                               std::unique_ptr<ParsedFile> &Parsed) const;

  /// Applies the allowed fixes to F's text until nothing changes.
  FixOutcome fix(const SourceFile &F) const;

  /// Whether a fix with this applicability is applied by fix().
  bool allowed(Applicability A) const {
    return A == Applicability::Safe || (A == Applicability::Unsafe && Opts.UnsafeFixes);
  }

  /// What `$DEVICE_TYPE` expands to.
  std::string deviceTypeExpression() const;

  /// The backend that reads Path.
  const LanguageBackend &backendFor(llvm::StringRef Path) const { return *languageFor(Path).Backend; }
  /// The languages whose rules are compiled so far (those create() left
  /// are compiled by the first check of one of their files).
  std::vector<llvm::StringRef> compiledLanguages() const;
  /// Compiles now the rules of Path's language, if create() left them, as
  /// the first check of such a file would (a batch does it while its files
  /// are collected, where the first file's workers waited for it).
  void prepare(llvm::StringRef Path) const { (void)rulesOf(languageFor(Path)); }

private:
  /// A backend and the rules of its language, compiled by it: in create(),
  /// or when the language is first needed where compiling cannot fail
  /// (LanguageBackend::compileCannotFail).
  struct Language {
    const LanguageBackend *Backend = nullptr;
    mutable std::once_flag Compiled;
    mutable std::unique_ptr<CompiledRules> Rules;
    mutable std::atomic<bool> Ready{false}; ///< Rules is set.
  };
  struct Embedded;

  Engine(RuleSet Rules, EngineOptions Opts);
  const Language &languageFor(llvm::StringRef Path) const;
  /// L's compiled rules, compiled now if create() left them.
  const CompiledRules &rulesOf(const Language &L) const;
  /// Whether F needs no parse: a skip-file directive, or nothing to match.
  bool skips(const Language &L, llvm::StringRef Path, llvm::StringRef Text) const;
  /// The parse that check() and fix() match: of the regions of Text that
  /// the rules can need, kept in Regions, or of Text itself (Regions.Text
  /// empty) with WholeFiles, where the backend has no regions for it, or
  /// where the regions have a syntax error. With MayBeNone, null where no
  /// rule can match anything in Text (RegionText::NothingToMatch).
  std::unique_ptr<ParsedFile> parseRegions(const Language &L, llvm::StringRef Path,
                                           llvm::StringRef Text, RegionText &Regions,
                                           bool MayBeNone) const;
  /// The findings and keep matches of F, parsed as P.
  CheckResult checkParsed(const SourceFile &F, const Language &L, const ParsedFile &P) const;
  /// The finding (with its fix, if any) of a finding rule's match in P;
  /// Around names what P is in notes ("code", or embedded code's "doctest").
  Diagnostic diagnose(const Language &L, const ParsedFile &P, const MatchResults &Found,
                      const Match &M, const std::string &Path,
                      llvm::StringRef Around = "code") const;
  /// Makes X unsafe, with a note, where its template reaches a function of
  /// torch.get_device_module() that some backend module lacks.
  void checkBackends(const RuleFix &RF, const Match &M, llvm::StringRef Text, Fix &X,
                     Diagnostic &D) const;
  /// The findings of embedded code (a doctest), in file offsets.
  void diagnoseEmbedded(const SourceFile &F, const Language &L, const Embedded &E,
                        std::vector<Diagnostic> &Out) const;

  RuleSet Rules;
  EngineOptions Opts;
  std::vector<std::unique_ptr<Language>> Languages;
};

/// True if Text has a `<Marker> devport: skip-file` comment line in its
/// first ten lines.
bool hasSkipFileDirective(llvm::StringRef Text, llvm::StringRef Marker = "#");

} // namespace devport

#endif
