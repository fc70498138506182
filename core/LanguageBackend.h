//===--- LanguageBackend.h - The per-language part of the pipeline --------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The generic Engine (engine/Engine.h) runs every file through the same
/// steps: prefilter -> parse -> match -> diagnose -> suppress -> fix rounds.
/// What depends on the language sits behind LanguageBackend: compiling the
/// rules of its language (which gives the prefilter and the matcher),
/// parsing (optionally incrementally from a previous parse), building a fix
/// from a match, reviewing fixes in their context, counting syntax errors, the
/// comment marker of its directives, and the import edits its fixes need. matchers/python/PythonBackend.h is
/// the Python backend; a C++ backend is added by implementing this interface
/// and listing it in engine/Backends.cpp, without touching the Python backend
/// or the Engine.
///
/// Thread-safety: a backend and its CompiledRules are immutable and shared by
/// every thread; a ParsedFile and a MatchResults belong to the thread that
/// made them.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_CORE_LANGUAGEBACKEND_H
#define DEVPORT_CORE_LANGUAGEBACKEND_H

#include "core/Diagnostic.h"
#include "core/Fix.h"
#include "core/Rule.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace devport {

/// Where rules can match in a text, from its regions (RegionText): the
/// matcher may skip a subtree that holds no mark, and takes the text's
/// comments from here instead of visiting them.
struct MatchMarks {
  /// Sorted offsets that a match must hold one of: its anchor word, an alias
  /// it uses.
  std::vector<uint32_t> Offsets;
  /// Every comment of the text, in order, as the language's tokenizer finds
  /// them (those in code that is left out too).
  std::vector<ByteRange> Comments;
};

class CompiledRules;

/// A text parsed by a backend. Owns the syntax tree, not the text: the text
/// must outlive it.
class ParsedFile {
public:
  virtual ~ParsedFile();
  virtual llvm::StringRef text() const = 0;
  /// Syntax errors (error and missing nodes) in the tree: a fix may not add
  /// any.
  virtual unsigned syntaxErrors() const = 0;
  /// RegionText::Marks of the text: the backend's matcher may skip what holds
  /// none. The default ignores them.
  virtual void setMarks(MatchMarks Marks);
  /// Called by the language server's check (Engine::checkIncremental) before
  /// Rules match this parse: the next version of the text will be parsed
  /// from this one, so the backend may keep what its match will need. True
  /// if this match can be limited to what the edit from the previous version
  /// touched and to where that one matched (with the same Rules); then it
  /// will be, and it needs no marks. The default: false.
  virtual bool prepareIncrementalMatch(const CompiledRules &Rules);
};

/// What a metavariable bound in a match: the range of the code it matched.
struct BoundVar {
  std::string Name;
  ByteRange Range;
};

/// Backend data at a match that building its fix needs (Python: the scopes
/// around it, for name lookups). Shared by the matches in the same place.
class MatchContext {
public:
  virtual ~MatchContext();
};

/// One match of one rule; ranges are offsets into the parsed text.
struct Match {
  const Rule *R = nullptr;
  ByteRange Range;
  std::vector<BoundVar> Bindings;
  /// The match lies in or contains a syntax error: report, never fix.
  bool InErrorRegion = false;
  /// Which engine of the backend found it, when it has several (C++:
  /// "semantic" or "lexical"); a static string.
  llvm::StringRef Engine;
  std::shared_ptr<const MatchContext> Context;

  /// The text of Text (the parsed text) that metavariable Name bound, or
  /// nullopt if the match did not bind it: what a template's `$Name` becomes.
  std::optional<std::string> boundText(llvm::StringRef Text, llvm::StringRef Name) const {
    for (const BoundVar &B : Bindings)
      if (B.Name == Name)
        return Text.slice(B.Range.Begin, B.Range.End).str();
    return std::nullopt;
  }
};

/// A comment that holds `devport:`, a candidate directive.
struct DirectiveComment {
  ByteRange Range;
  llvm::StringRef Text; ///< The whole comment, marker included.
};

/// Code embedded in the file and checked with the same rules (Python:
/// doctests in docstrings). Code is one line per embedded line; Segments map
/// it back to the file.
struct EmbeddedCode {
  /// What it is, for messages ("doctest").
  std::string What;
  std::string Code;
  struct Segment {
    uint32_t Code, File, Len;
  };
  std::vector<Segment> Segments; ///< Sorted by Code offset.

  /// The file offset of a code offset; nullopt between segments.
  std::optional<uint32_t> toFile(uint32_t CodeOffset) const;
  /// A code range within one segment, as a file range; nullopt if it spans
  /// segments (it is not contiguous in the file).
  std::optional<ByteRange> toFile(ByteRange R) const;
};

/// What one traversal of a parsed text found.
struct MatchResults {
  std::vector<Match> Matches; ///< In document order of their start.
  std::vector<DirectiveComment> Directives;
  std::vector<ByteRange> Comments; ///< Every comment, in document order.
  std::vector<EmbeddedCode> Embedded;
  /// Notes for every finding of this text (C++: why the semantic backend was
  /// not used).
  std::vector<Note> Notes;
};

/// What region parsing parses in a file's place (CompiledRules::regionText):
/// the file's text with every statement that no rule can need replaced by
/// spaces (newlines, comments and every offset kept), and the ranges of it
/// that are not blank, sorted and disjoint: a parser reads only those.
struct RegionText {
  /// Empty where the backend reads the file's own text, of which Ranges
  /// are then what it reads (C++: the statements left out lie between them).
  std::string Text;
  std::vector<ByteRange> Ranges;
  /// Where in Text rules can match, and its comments.
  MatchMarks Marks;
  /// No rule can match anything in the text (its rules' words occur only in
  /// comments, and it has no `devport:` directive): nothing to parse.
  bool NothingToMatch = false;
};

/// The rules of one language, compiled for matching.
class CompiledRules {
public:
  virtual ~CompiledRules();
  /// False when no rule can match Text, which then need not be parsed.
  virtual bool mayMatch(llvm::StringRef Text) const = 0;
  /// The same for the file at Path, for rules that look at the path too (a
  /// C++ file that is CUDA by design is kept whatever its text holds).
  bool mayMatchFile(llvm::StringRef Path, llvm::StringRef Text) const {
    std::optional<bool> MentionsDevport;
    return prefilterFile(Path, Text, MentionsDevport);
  }
  /// mayMatchFile(), and whether Text mentions `devport:` (a directive,
  /// read even where no rule can match) where the same scan tells: where it
  /// read the whole text, finding no possible match. Left unset otherwise,
  /// and by backends whose scan does not look for it.
  virtual bool prefilterFile(llvm::StringRef Path, llvm::StringRef Text,
                             std::optional<bool> &MentionsDevport) const {
    (void)Path;
    (void)MentionsDevport;
    return mayMatch(Text);
  }
  /// Runs every rule over P in one traversal.
  virtual MatchResults match(const ParsedFile &P) const = 0;
  /// Region parsing (batch runs): what to parse and match in the place of
  /// Text, the file at Path, with the same findings and fixes; nullopt to
  /// parse Text itself (the default; C++: a file that the semantic engine
  /// reads).
  virtual std::optional<RegionText> regionText(llvm::StringRef Path, llvm::StringRef Text) const;
  /// What an incremental check of a whole tree needs of regionText(): the
  /// Marks (where the matcher must look) and NothingToMatch, without the
  /// masked text. The default: nothing (the whole tree is matched).
  virtual std::optional<RegionText> regionMarks(llvm::StringRef Text) const;
  /// Matches that the file's path makes whatever its text holds, in
  /// document order (Python: a module that is CUDA by design, `@cuda-file`,
  /// over the whole Text). None by default (C++ makes its own in match()).
  virtual std::vector<Match> pathMatches(llvm::StringRef Path, llvm::StringRef Text) const;
};

/// What buildFix is asked for.
struct FixRequest {
  const RuleFix *Fix = nullptr;
  /// What `$DEVICE` and `$DEVICE_TYPE` expand to.
  std::string DeviceExpression, DeviceTypeExpression;
  /// The range the fix replaces (the match, or its focus).
  ByteRange Target;
};

/// A fix for one match, or the reason there is none; Notes go under the
/// finding either way, in order.
struct BuiltFix {
  std::optional<Fix> Result;
  std::vector<Note> Notes;
};

/// What `$DEVICE` expands to unless a project says otherwise.
inline constexpr llvm::StringLiteral DefaultDeviceExpression =
    "torch.accelerator.current_accelerator()";

/// What a backend needs to know about the build, set per project.
struct BackendOptions {
  /// C++: the directory of compile_commands.json (`-p DIR`); empty: found
  /// upward from each file.
  std::string CompileCommandsDir;
  /// C++: use the semantic backend where a compile command exists (else the
  /// lexical backend everywhere).
  bool Semantic = true;
  /// Extra gitignore-style globs of files that are CUDA by design (C++
  /// files, Python modules), relative to GlobBase (the .devport.yaml's
  /// directory).
  std::vector<std::string> CudaRoleGlobs;
  std::string GlobBase;
  /// What `$DEVICE` and `$DEVICE_TYPE` expand to (the engine's: FixRequest's
  /// for every fix). Code that says them was ported already, by hand or by an
  /// earlier round or run of `fix`: the review judges it as the code a fix
  /// ports, and region parsing keeps it where the review reads it.
  std::string DeviceExpression, DeviceTypeExpression;

  /// Those of DeviceExpression and DeviceTypeExpression that a project set:
  /// not empty, not the default nor its `.type`, which code spells as
  /// torch.accelerator's own calls.
  std::vector<llvm::StringRef> customDevice() const;

  /// Whether Path (as given, or absolute) matches one of CudaRoleGlobs.
  bool inCudaRoleGlobs(llvm::StringRef Path) const;
};

class LanguageBackend {
public:
  virtual ~LanguageBackend();

  /// The `language:` of the rules it runs, e.g. "python".
  virtual llvm::StringRef language() const = 0;
  /// Whether files with this path are in its language (by extension).
  virtual bool handlesPath(llvm::StringRef Path) const = 0;
  /// What starts a comment ("#"): `<marker> devport: ignore[...]`.
  virtual llvm::StringRef commentMarker() const = 0;

  /// Compiles the rules of this language in Rules (which must outlive the
  /// result). Fails with "file:line:col: reason" lines for patterns it cannot
  /// compile, including a pattern with no literal for the prefilter.
  virtual llvm::Expected<std::unique_ptr<CompiledRules>>
  compile(const RuleSet &Rules, const BackendOptions &Opts = {}) const = 0;
  /// Whether compile() of Rules with Opts cannot fail, so that an engine may
  /// leave it until a file of this language is checked (a run of C++ files
  /// does not compile the Python patterns). False unless a backend knows:
  /// a broken user rule or option must fail the run before any file is read.
  virtual bool compileCannotFail(const RuleSet &Rules, const BackendOptions &Opts) const;

  /// Parses Text, which must outlive the result. Given the parse of an
  /// earlier text and the Edits (sorted, non-overlapping, in that text's
  /// offsets) that turned it into Text, the backend may re-parse
  /// incrementally. Bad syntax gives error nodes, not a failure; null only if
  /// the parser gave up.
  virtual std::unique_ptr<ParsedFile> parse(llvm::StringRef Text,
                                            const ParsedFile *Previous = nullptr,
                                            llvm::ArrayRef<Edit> Edits = {}) const = 0;
  /// parse() for the text of the file Path, for a backend whose matching
  /// depends on where the file is (C++: its compile command and role). The
  /// default ignores Path.
  virtual std::unique_ptr<ParsedFile> parseFile(llvm::StringRef Path, llvm::StringRef Text,
                                                const ParsedFile *Previous = nullptr,
                                                llvm::ArrayRef<Edit> Edits = {}) const;

  /// parseFile() of the regions of a file whose text is Text
  /// (CompiledRules::regionText); the result refers to R.Text, or to Text
  /// where R.Text is empty. The default parses that whole.
  virtual std::unique_ptr<ParsedFile> parseRegions(llvm::StringRef Path, llvm::StringRef Text,
                                                   const RegionText &R) const;

  /// The fix for match M of P (Found holds M and the file's comments).
  virtual BuiltFix buildFix(const ParsedFile &P, const MatchResults &Found, const Match &M,
                            const FixRequest &Req) const = 0;

  /// Reviews the findings of P (its own, not embedded code's) once all are
  /// diagnosed, in the context of the code around them: may lower a fix's
  /// applicability or drop it, with a note, and may move findings into Kept
  /// (which holds the keep rules' matches) with a keep entry of its own. The
  /// default does nothing.
  virtual void reviewFixes(const ParsedFile &P, std::vector<Diagnostic> &Findings,
                           std::vector<Diagnostic> &Kept, const BackendOptions &Opts) const;

  /// Tells the backend that the file at Path changed on disk, appeared or
  /// went away (the language server: a save, a watched file's event), for
  /// what its reviews read from files other than the one checked and keep
  /// for the process. Returns whether a check's results may now differ. The
  /// default reads no other file.
  virtual bool forgetFile(llvm::StringRef Path) const;

  /// Edits of After's text that remove imports which Before used and After
  /// no longer uses: the fixes made them unused.
  virtual std::vector<Edit> unusedImportEdits(const ParsedFile &Before,
                                              const ParsedFile &After) const = 0;
};

} // namespace devport

#endif
