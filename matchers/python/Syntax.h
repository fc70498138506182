//===--- Syntax.h - tree-sitter-python, wrapped ---------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// RAII owners for tree-sitter parsers and trees, the node symbols and field
/// ids of tree-sitter-python looked up once, and small node helpers. A Parser
/// is not thread-safe: use one per thread. Trees are immutable; a TSNode is
/// valid as long as its tree.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_MATCHERS_PYTHON_SYNTAX_H
#define DEVPORT_MATCHERS_PYTHON_SYNTAX_H

#include "core/Fix.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstring>
#include <memory>
#include <optional>
#include <tree_sitter/api.h>

extern "C" const TSLanguage *tree_sitter_python(void);

namespace devport::python {

class TreeArena;

/// Deletes a tree: node by node (ts_tree_delete), or, for a tree whose every
/// byte is an arena's (parseInArena()), by dropping the arena.
struct TreeDeleter {
  TreeArena *Arena = nullptr; ///< Owned.
  void operator()(TSTree *T) const;
};
using TreePtr = std::unique_ptr<TSTree, TreeDeleter>;

/// Whether T lives in an arena: such a tree is never copied, edited or
/// reparsed (its nodes would be freed one by one).
inline bool inArena(const TreePtr &T) { return T.get_deleter().Arena != nullptr; }

/// A batch run's parse: Text (its Ranges only, if any; see
/// Parser::parseRanges) parsed by a parser of its own whose every allocation,
/// and those of the tree it builds, come from one bump arena that the tree
/// owns. tree-sitter frees the subtrees it drops while it parses one by one
/// and the finished tree node by node; here those frees cost nothing and the
/// tree goes in one step (a check of PyTorch's Python tree took some 7% less
/// time, docs/benchmarks.md). The arena keeps what the
/// parse dropped: some 35 times the parsed text, reclaimed with the tree.
/// Past Budget bytes (by default 1 MiB and 64 per byte parsed: tree-sitter's
/// error recovery can drop hundreds of times the text) the memory is the C
/// library's, and the tree is freed node by node too. Over 1 MiB to parse,
/// the parse is a Parser's (not in an arena).
TreePtr parseInArena(llvm::StringRef Text, llvm::ArrayRef<ByteRange> Ranges = {},
                     std::optional<size_t> Budget = std::nullopt);

/// One tree-sitter parser set to Python.
class Parser {
public:
  Parser();
  ~Parser();
  Parser(const Parser &) = delete;
  Parser &operator=(const Parser &) = delete;

  /// Parses Text (UTF-8). Never fails for well-formed input: syntax errors
  /// become ERROR/MISSING nodes. Returns null only if tree-sitter gives up
  /// (out of memory). With Old, a tree of an earlier text already edited
  /// (ts_tree_edit) to Text's offsets, re-parses incrementally, reusing what
  /// the edits did not touch.
  TreePtr parse(llvm::StringRef Text, const TSTree *Old = nullptr);
  /// Parses only the Ranges of Text (sorted, disjoint byte ranges; tree-sitter's
  /// included ranges): the rest is not read, offsets stay those of Text.
  TreePtr parseRanges(llvm::StringRef Text, llvm::ArrayRef<ByteRange> Ranges);

private:
  TSParser *P;
};

/// Symbols and field ids of the grammar, resolved once.
struct Grammar {
  TSSymbol Module, Call, Attribute, Identifier, ArgumentList, KeywordArgument, String,
      StringStart, StringContent, StringEnd, Interpolation, Comment, FunctionDefinition,
      ClassDefinition, Lambda, ImportStatement, ImportFromStatement, FutureImportStatement,
      AliasedImport, DottedName, WildcardImport, RelativeImport, Error, ExpressionStatement,
      ListSplat, DictionarySplat, Block, DecoratedDefinition, Parameters, LambdaParameters,
      IfStatement, TryStatement, WithStatement, ForStatement, WhileStatement, ElseClause,
      ElifClause, ExceptClause, FinallyClause, MatchStatement, CaseClause, List, Tuple, Set,
      Dictionary, Subscript, ConcatenatedString, Decorator, ParenthesizedExpression, Assignment,
      AugmentedAssignment;
  TSFieldId FFunction, FArguments, FObject, FAttribute, FName, FValue, FAlias, FModuleName, FBody,
      FLeft, FRight;

  static const Grammar &get();
};

inline ByteRange rangeOf(TSNode N) { return {ts_node_start_byte(N), ts_node_end_byte(N)}; }
inline llvm::StringRef textOf(TSNode N, llvm::StringRef Src) {
  return Src.slice(ts_node_start_byte(N), ts_node_end_byte(N));
}
inline bool sameNode(TSNode A, TSNode B) { return A.id == B.id && A.tree == B.tree; }
/// Where Word (not empty) first occurs in Text at or after From, or npos.
/// Not StringRef::find, which fills a 256-entry table per call and then
/// steps byte by byte (a scan of a large file for one word per edit, or a
/// look into each comment, showed in the language server's profile), nor
/// memmem, which took 4.8 instructions a byte for `import` (2.6% of a
/// check): sixteen positions at a time are tested for Word's first and last
/// bytes, and only those that have both are compared.
size_t findWord(llvm::StringRef Text, llvm::StringRef Word, size_t From = 0);

/// Nodes of up to this many children are read by index (forEachChild()).
inline constexpr uint32_t SmallNodeChildren = 8;

/// Calls F(child) for each child of N (named and anonymous), in order, in
/// linear time. A larger node is walked with a cursor: Reuse if given (it is
/// reset to N), else one made for the call.
template <typename F> void forEachChild(TSNode N, F &&Fn, TSTreeCursor *Reuse = nullptr) {
  uint32_t Count = ts_node_child_count(N);
  if (Count <= SmallNodeChildren) {
    // ts_node_child() counts from the first child on every call: for so few
    // that costs less than a cursor's sibling step (some 600 instructions
    // where hidden nodes lie between; 8 did better than 3, 16 or 32).
    for (uint32_t I = 0; I < Count; ++I)
      Fn(ts_node_child(N, I));
    return;
  }
  TSTreeCursor Own;
  TSTreeCursor *C = Reuse;
  if (C) {
    ts_tree_cursor_reset(C, N);
  } else {
    Own = ts_tree_cursor_new(N);
    C = &Own;
  }
  if (ts_tree_cursor_goto_first_child(C)) {
    do
      Fn(ts_tree_cursor_current_node(C));
    while (ts_tree_cursor_goto_next_sibling(C));
  }
  if (!Reuse)
    ts_tree_cursor_delete(&Own);
}

/// Visits N and its descendants in document order with one cursor, in linear
/// time. Fn(node, cursor) returns whether to descend into the node; the
/// cursor gives the node's field in its parent.
template <typename F> void preorder(TSNode N, F &&Fn) {
  TSTreeCursor C = ts_tree_cursor_new(N);
  for (;;) {
    if (Fn(ts_tree_cursor_current_node(&C), &C) && ts_tree_cursor_goto_first_child(&C))
      continue;
    bool Moved = false;
    while (!(Moved = ts_tree_cursor_goto_next_sibling(&C)))
      if (!ts_tree_cursor_goto_parent(&C))
        break;
    if (!Moved)
      break;
  }
  ts_tree_cursor_delete(&C);
}

/// preorder(), with the path from N down to the node's parent (outermost
/// first, empty at N) in Path while Fn(node, cursor) runs: the parents that
/// ts_node_parent() would find by a walk from the root (thousands of
/// instructions a step in a big module).
template <typename F> void preorderWithPath(TSNode N, llvm::SmallVectorImpl<TSNode> &Path, F &&Fn) {
  Path.clear();
  TSTreeCursor C = ts_tree_cursor_new(N);
  for (;;) {
    TSNode At = ts_tree_cursor_current_node(&C);
    if (Fn(At, &C) && ts_tree_cursor_goto_first_child(&C)) {
      Path.push_back(At);
      continue;
    }
    bool Moved = false;
    while (!(Moved = ts_tree_cursor_goto_next_sibling(&C))) {
      if (!ts_tree_cursor_goto_parent(&C))
        break;
      Path.pop_back();
    }
    if (!Moved)
      break;
  }
  ts_tree_cursor_delete(&C);
}

/// The K-th ancestor of N (1: its parent) where Path is the path to N's
/// parent that preorderWithPath() gives (or empty): from Path where it
/// reaches, above it by ts_node_parent(); null above the root.
TSNode ancestorOf(TSNode N, llvm::ArrayRef<TSNode> Path, size_t K);

/// The edit to tell tree-sitter (ts_tree_edit) for replacing Range of Old
/// by Replacement: the same change, its range widened over bytes that stay,
/// within [Floor, Ceiling) (the neighbouring edits of one change). The
/// start moves back into the first token of the line of the last token
/// before the change (after an error, tree-sitter reused that line's tokens
/// lexed where the old text went on: see the definition), and when only
/// blanks follow the change on its line, the end moves past that line's
/// newline (or to the end of the text).
///
/// Why: Python's NEWLINE, INDENT and DEDENT tokens are empty and sit at the
/// end of a line's last token. When a re-parse reaches such a place by
/// lexing, tree-sitter (0.25, ts_parser__reuse_node) compares the old tree's
/// empty tokens there with the scanner state of before them, finds them
/// different after a DEDENT, and skips every old subtree that starts there,
/// which then has to be parsed again: deleting a trailing space on the last
/// line of a class re-parsed the thousand lines after it (18 ms in a
/// 5,570-line module, against 2 ms). Told the widened edit, tree-sitter lets
/// the first token of the range take all of it, so the empty tokens come
/// after the place where lexing resumes and are lexed, not compared.
TSInputEdit editForReparse(llvm::StringRef Old, ByteRange Range, llvm::StringRef Replacement,
                           uint32_t Floor, uint32_t Ceiling);

/// Number of ERROR and MISSING nodes in the tree under N.
unsigned countSyntaxErrors(TSNode N);
/// Whether N's children are statements (a module or a block).
bool holdsStatements(TSNode N);
/// The ranges of the outermost ERROR nodes and of the MISSING nodes under N
/// (empty, where the parser supposed a token), in document order.
std::vector<ByteRange> syntaxErrorRanges(TSNode N);

/// The decoded value of a plain (non-f, non-bytes) string literal node whose
/// content has no escapes or interpolations, e.g. 'cuda' -> cuda; false for
/// anything else.
bool simpleStringValue(TSNode N, llvm::StringRef Src, std::string &Out);

} // namespace devport::python

#endif
