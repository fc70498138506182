//===--- PythonBackend.h - The Python language backend --------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Everything about Python that the generic Engine needs, behind
/// LanguageBackend: tree-sitter parsing (incremental from a previous tree),
/// the compiled rules (PythonMatcher: prefilter and one-traversal matching),
/// fixes written with the file's own import aliases and an `import torch`
/// added when the replacement needs one, the `from torch.cuda import ...`
/// names that fixes left unused, `#` directives and doctests.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_MATCHERS_PYTHON_PYTHONBACKEND_H
#define DEVPORT_MATCHERS_PYTHON_PYTHONBACKEND_H

#include "core/LanguageBackend.h"
#include "matchers/python/NameResolver.h"
#include "matchers/python/NodeIndex.h"
#include "matchers/python/Syntax.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <tuple>
#include <vector>

namespace devport::python {

/// A node that matched: its range and symbol (nodes of several symbols can
/// share a range: `x.cuda()` as a statement).
struct MatchedNode {
  ByteRange Range;
  TSSymbol Symbol;
  friend bool operator<(const MatchedNode &A, const MatchedNode &B) {
    return std::tie(A.Range.Begin, A.Range.End, A.Symbol) <
           std::tie(B.Range.Begin, B.Range.End, B.Symbol);
  }
  friend bool operator==(const MatchedNode &A, const MatchedNode &B) {
    return A.Range == B.Range && A.Symbol == B.Symbol;
  }
};

/// What the matcher found in one parse, kept with it for the next version of
/// its text (PythonMatcher::match).
struct MatchRecord {
  /// Each match (its Context left out) and the node it was found at, by
  /// node; at one node, in the order found.
  std::vector<std::pair<MatchedNode, Match>> Matches;
  std::vector<uint32_t> Docstrings; ///< The start of each that held a doctest; sorted.
  std::vector<ByteRange> Comments;  ///< Every comment, in order.
  /// The parse's syntax errors (syntaxErrorRanges); after an edit, one that
  /// held a byte of what it replaced covers what it put in.
  std::vector<ByteRange> Errors;
  uint64_t Imports = 0;             ///< The parse's NameResolver::fingerprint().
  uint64_t Matcher = 0;             ///< The PythonMatcher's serial().
};

/// The MatchRecord of the parse that a parse was made from, carried over the
/// one edit between their texts: offsets in this text, and what was in the
/// text the edit replaced dropped.
struct PriorMatches {
  MatchRecord Record;
  ByteRange Inserted; ///< What the edit put in, in this text.
  /// Where the tree's structure differs from the previous one's
  /// (ts_tree_get_changed_ranges). A line typed at column 0 in a function
  /// takes the statements after it out of the function, and tree-sitter
  /// reads on without an error where Python would see an unexpected indent.
  std::vector<ByteRange> Restructured;
};

/// What the match after an edit matches again: a statement that holds bytes
/// around or in what the edit put in (or those bytes alone, between
/// statements), less its blocks when it changed in its header only
/// (`class C(Base):`), or a range where tree-sitter says the structure
/// changed (PriorMatches::Restructured; no blocks).
struct ChangedStatement {
  ByteRange R;
  std::vector<ByteRange> Blocks;

  /// Whether X holds a byte of this (an empty X: its place) outside the
  /// blocks: what the match after the edit matches again.
  bool touches(ByteRange X) const {
    return X.Begin < R.End && R.Begin < std::max(X.End, X.Begin + 1) &&
           llvm::none_of(Blocks, [&](ByteRange B) { return B.contains(X); });
  }
  /// Whether X lies within this and overlaps none of its blocks (an empty X:
  /// its place).
  bool holds(ByteRange X) const {
    uint32_t End = std::max(X.End, X.Begin + 1);
    return R.Begin <= X.Begin && X.End <= R.End &&
           llvm::none_of(Blocks, [&](ByteRange B) { return B.Begin < End && X.Begin < B.End; });
  }
};

/// A Python text and its tree-sitter tree. The name resolver is built on
/// first use (a parse made only to count syntax errors never needs it).
class PythonParsedFile final : public ParsedFile {
public:
  PythonParsedFile(TreePtr Tree, llvm::StringRef Text);
  ~PythonParsedFile() override;

  llvm::StringRef text() const override { return Text; }
  unsigned syntaxErrors() const override;

  TSNode root() const { return ts_tree_root_node(Tree.get()); }
  const TSTree *tree() const { return Tree.get(); }
  /// Whether the tree is a batch run's, in an arena (parseInArena()).
  bool inArena() const { return python::inArena(Tree); }
  const NameResolver &resolver() const;
  /// The tree's NodeIndex, built when first asked: the match after an edit
  /// and the review find nodes by position in the same tree.
  const NodeIndex &index() const;
  /// RegionText::Marks, if given (null: the matcher visits everything).
  const MatchMarks *marks() const { return Marks ? &*Marks : nullptr; }
  void setMarks(MatchMarks M) override { Marks = std::move(M); }
  /// The previous version's matches, if this parse was made from one with
  /// one edit and that one was matched (and recorded).
  const PriorMatches *prior() const { return Prior ? &*Prior : nullptr; }
  void setPrior(PriorMatches P) { Prior = std::move(P); }
  /// With a prior: what the match after the edit matches again, built when
  /// first asked.
  const std::vector<ChangedStatement> &changes() const;
  /// Its match keeps a MatchRecord for the next version. True with a prior
  /// made by the same PythonMatcher, imports that bind the same names in
  /// both versions (NameResolver::fingerprint()) and every syntax error of
  /// either within one of changes(), outside its blocks: an error node
  /// around unchanged code changes that code's place in the tree, and
  /// tree-sitter's changed ranges do not always say so.
  bool prepareIncrementalMatch(const CompiledRules &Rules) override;
  /// Whether the match is to keep a MatchRecord (prepareIncrementalMatch was
  /// called: batch runs never start a parse from a previous one).
  bool recorded() const { return Recorded; }
  /// Whether the match is to be limited to the edit (its answer).
  bool editOnly() const { return EditOnly; }
  /// Whether the module imports torch only under a condition, where it can
  /// (in a `try`, an `if`, a function or a class), and not at its top level:
  /// an optional dependency. Computed when first asked.
  bool importsTorchOnlyUnderACondition() const;
  /// Where this parse's matches were (set by the matcher).
  const MatchRecord *record() const { return Record ? &*Record : nullptr; }
  void setRecord(MatchRecord R) const { Record = std::move(R); }

private:
  TreePtr Tree;
  std::optional<MatchMarks> Marks;
  std::optional<PriorMatches> Prior;
  bool Recorded = false, EditOnly = false;
  mutable std::optional<MatchRecord> Record;
  llvm::StringRef Text;
  mutable std::optional<unsigned> Errors;
  mutable std::unique_ptr<NameResolver> Resolver;
  mutable std::unique_ptr<NodeIndex> Index;
  mutable std::optional<std::vector<ChangedStatement>> Changes;
  mutable std::optional<bool> TorchOptional;
};

class PythonBackend final : public LanguageBackend {
public:
  llvm::StringRef language() const override { return "python"; }
  bool handlesPath(llvm::StringRef Path) const override;
  llvm::StringRef commentMarker() const override { return "#"; }

  llvm::Expected<std::unique_ptr<CompiledRules>>
  compile(const RuleSet &Rules, const BackendOptions &Opts = {}) const override;
  /// True when every Python rule is embedded (compile() reads no option).
  bool compileCannotFail(const RuleSet &Rules, const BackendOptions &Opts) const override;
  std::unique_ptr<ParsedFile> parse(llvm::StringRef Text, const ParsedFile *Previous = nullptr,
                                    llvm::ArrayRef<Edit> Edits = {}) const override;
  std::unique_ptr<ParsedFile> parseRegions(llvm::StringRef Path, llvm::StringRef Text,
                                           const RegionText &R) const override;
  BuiltFix buildFix(const ParsedFile &P, const MatchResults &Found, const Match &M,
                    const FixRequest &Req) const override;
  void reviewFixes(const ParsedFile &P, std::vector<Diagnostic> &Findings,
                   std::vector<Diagnostic> &Kept, const BackendOptions &Opts) const override;
  bool forgetFile(llvm::StringRef Path) const override;
  std::vector<Edit> unusedImportEdits(const ParsedFile &Before,
                                      const ParsedFile &After) const override;
};

/// Rewrites the dotted names of a template to the aliases the file already
/// has at Scopes: `torch.distributed.X` becomes `dist.X` after `import
/// torch.distributed as dist`, `torch.X` becomes `t.X` after `import torch as
/// t` (when no plain `torch` is bound). Metavariables and strings are left
/// alone.
std::string useAliases(llvm::StringRef Template, const NameResolver &R,
                       llvm::ArrayRef<Scope> Scopes);

/// Roots of the dotted names a template uses (`torch` in
/// `torch.accelerator.synchronize($D)`), skipping metavariables, attribute
/// names and string contents.
std::vector<std::string> templateRoots(llvm::StringRef Template);

} // namespace devport::python

#endif
