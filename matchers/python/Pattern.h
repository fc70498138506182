//===--- Pattern.h - Code patterns with metavariables ---------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A rule pattern such as `torch.cuda.set_device($DEV)` is parsed with
/// tree-sitter and compiled into a PatternNode tree that matches syntax trees
/// of real code:
///   - `$X` matches one node (in an argument list: one positional argument,
///     not `k=v`, `*a` or `**k`); a second `$X` must match the same text;
///   - `$$$X` matches any number of consecutive nodes (zero included);
///   - a dotted name (`torch.cuda.set_device`) matches any identifier or
///     attribute chain whose qualified name, after import resolution, is that
///     name (`tc.set_device` after `import torch.cuda as tc`);
///   - a plain string literal matches a string with the same value, whatever
///     its quotes;
///   - anything else matches a node of the same kind with matching children;
///     comments and line continuations in the code are skipped, and in lists
///     (arguments, tuples, ...) punctuation is ignored, so trailing commas and
///     line breaks do not matter.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_MATCHERS_PYTHON_PATTERN_H
#define DEVPORT_MATCHERS_PYTHON_PATTERN_H

#include "core/LanguageBackend.h"
#include "matchers/python/NameResolver.h"
#include "matchers/python/Syntax.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace devport::python {

struct PatternNode {
  enum Kind : uint8_t {
    Node,       ///< Same symbol, children matched in order.
    Leaf,       ///< Same symbol and, for named leaves, same text.
    QualName,   ///< Identifier or attribute chain with this qualified name.
    StringValue,///< A plain string literal with this value.
    Metavar,    ///< $X: one node.
    MetavarSeq, ///< $$$X: any number of nodes.
  };
  Kind K = Node;
  TSSymbol Symbol = 0;
  bool NamedOnly = false;  ///< Node: compare named children only (lists).
  bool Positional = false; ///< Metavar inside an argument list.
  std::string Text;        ///< Leaf text, qualified name, string value or metavariable name.
  std::vector<PatternNode> Children;
};

/// One compiled pattern.
struct Pattern {
  PatternNode Root;
  /// Symbol of the code node the root matches (its dispatch key).
  TSSymbol RootSymbol = 0;
  /// For dispatch: the last segment of the qualified name the root calls or
  /// names (`set_device` for `torch.cuda.set_device($D)`), or "" if none.
  std::string AnchorName;
  /// For dispatch when AnchorName is "": the last segment of the qualified
  /// name whose attribute the root (or the callee) takes by a metavariable
  /// (`cudnn` for `torch.backends.cudnn.$X`), or "".
  std::string ObjectAnchor;
  /// Words that every file matching this pattern contains (the segments of
  /// its qualified names, its string values): the prefilter's input.
  std::vector<std::string> RequiredWords;
  /// Of RequiredWords, the values of the pattern's strings (`cuda` of
  /// `torch.device("cuda")`), and the text of a part of a string that is
  /// neither a value nor an f-string (`"cuda\\n"`): a string of the file
  /// holds these (the others are names, or parts of an f-string).
  std::vector<std::string> ValueWords, StringPartWords;
  /// Of RequiredWords, the names (`torch`, `cuda` of `torch.cuda.$F()`, a
  /// keyword argument's name): whole identifiers of the file's code.
  std::vector<std::string> NameWords;
  /// Metavariables the pattern binds, in order of first appearance.
  std::vector<std::string> Metavars;
};


/// Parses and compiles pattern Text. The error says why (e.g. "pattern is
/// not valid Python: ...", "pattern must be a single expression").
llvm::Expected<Pattern> compilePattern(llvm::StringRef Text);

/// The children of the nodes that patterns compare, each node's read once
/// for one walk of one tree: the patterns tried at a node read the same
/// children (some five times each over PyTorch's sources), and reading a
/// child costs hundreds of instructions where hidden nodes lie between.
class ChildCache {
public:
  ChildCache() = default;
  ChildCache(const ChildCache &) = delete;
  ChildCache &operator=(const ChildCache &) = delete;
  ~ChildCache();

  /// Every child of N (named, anonymous and extras), in order; valid until
  /// the next call. Every node asked for must belong to one tree, which
  /// outlives the cache: a node is known by its id, the address of its slot
  /// in its parent.
  llvm::ArrayRef<TSNode> children(TSNode N);

private:
  llvm::DenseMap<const void *, std::pair<uint32_t, uint32_t>>
      Spans; ///< Node id -> Nodes[first, +count).
  std::vector<TSNode> Nodes;
  TSTreeCursor Cursor; ///< For the wide nodes (forEachChild()), made when first needed.
  bool HasCursor = false;
};

/// Matching context for one file.
struct PatternContext {
  llvm::StringRef Src;
  const NameResolver *Resolver = nullptr;
  llvm::ArrayRef<Scope> Scopes;
  /// The children read by earlier matches of the same tree.
  ChildCache &Children;
};

/// Whether a metavariable (its name) may bind a text: a rule's `where`
/// constraints, asked as each binding is made, so that a pattern such as
/// `def $F($$$A, $P=$S, $$$B)` goes on to the next parameter when the first
/// default (`func=None`) binds $P and $S to what the constraints refuse.
using BindFilter = llvm::function_ref<bool(llvm::StringRef Name, llvm::StringRef Text)>;

/// Matches P against the code node N; on success Bindings holds what the
/// metavariables bound (cleared first), each of them accepted by Accept
/// when one is given. A `def` pattern matches an `async def` too.
bool matchPattern(const Pattern &P, TSNode N, const PatternContext &Ctx,
                  llvm::SmallVectorImpl<BoundVar> &Bindings, BindFilter Accept = nullptr);

} // namespace devport::python

#endif
