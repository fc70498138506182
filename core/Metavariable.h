//===--- Metavariable.h - The one lexer of $NAME, $$$NAME and $$ ----------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Reads the `$` runs of rule patterns and fix templates: `$NAME` (one node),
/// `$$$NAME` (a sequence of nodes), `$$` (a literal `$` in templates) and a
/// lone `$` (an error). Every reader of metavariables uses this lexer, so that
/// a text means the same to the rule validator (core/RuleSet.cpp), the
/// pattern compiler (matchers/python/Pattern.cpp) and the template expander
/// (rewriters/Template.cpp).
///
/// The grammar, applied left to right: a run is at most three `$`.
///   - `$NAME` and `$$$NAME`, NAME in [A-Z_][A-Z0-9_]*, are metavariables; the
///     name is as long as possible (`$A1_B` is `A1_B`) and ends at any other
///     character (`$DEVx` is `$DEV` then `x`: the pattern validator rejects
///     it, the lexer does not).
///   - Otherwise two or more `$` are a literal `$` of two characters; the
///     rest of the run is read again (`$$$$X` is `$$`, `$$`, then `X`).
///   - Otherwise a lone `$` is invalid (`$dev`, `$1`, `$` at the end).
///
/// All functions are pure and thread-safe; tokens point into the text they
/// were read from and live as long as it.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_CORE_METAVARIABLE_H
#define DEVPORT_CORE_METAVARIABLE_H

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace devport {

/// One run of `$` in a pattern or template.
struct MetavarToken {
  enum KindT : uint8_t {
    Metavar, ///< `$NAME` (one node) or `$$$NAME` (a sequence).
    Literal, ///< `$$` not followed by a name: a literal `$` in templates.
    Invalid, ///< A lone `$` before a non-name character, e.g. `$dev`, `$1`.
  } Kind;
  bool Sequence = false; ///< `$$$NAME`.
  size_t Begin;          ///< Offset of the first `$`.
  size_t End;            ///< Offset past the run (past the name for Metavar).
  llvm::StringRef Name;  ///< Without the dollars; empty unless Metavar.
};

/// [A-Z_]: a character that can start a metavariable name.
inline bool isMetavarNameStart(char C) { return (C >= 'A' && C <= 'Z') || C == '_'; }
/// [A-Z0-9_]: a character that can continue a metavariable name.
inline bool isMetavarNameChar(char C) { return isMetavarNameStart(C) || (C >= '0' && C <= '9'); }
/// S is a whole metavariable name, without '$': [A-Z_][A-Z0-9_]*.
bool isMetavarName(llvm::StringRef S);

namespace detail {
/// The run that starts at Text[At], which must be a `$`.
MetavarToken lexMetavariableAt(llvm::StringRef Text, size_t At);
} // namespace detail

/// Every `$` run of Text in order (text between runs is not reported).
std::vector<MetavarToken> lexMetavariables(llvm::StringRef Text);

/// The run that starts at Text[At], which must be a `$`: for scanners that
/// walk a template themselves and skip its metavariables.
inline MetavarToken metavariableAt(llvm::StringRef Text, size_t At) {
  return detail::lexMetavariableAt(Text, At);
}

/// Calls Fn(const MetavarToken &) for each run, in order, without allocating.
template <typename F> void forEachMetavariable(llvm::StringRef Text, F &&Fn) {
  for (size_t At = Text.find('$'); At != llvm::StringRef::npos;) {
    MetavarToken T = detail::lexMetavariableAt(Text, At);
    Fn(static_cast<const MetavarToken &>(T));
    At = Text.find('$', T.End);
  }
}

/// Metavariable names in order of first use, without '$' ("$$$ARGS" yields "ARGS").
std::vector<std::string> metavariablesIn(llvm::StringRef Text);

/// A literal that every text matched by the POSIX regex Re contains (the
/// longest run of plain characters that no operator makes optional, outside
/// any group with alternatives), or "" when there is none (alternatives of
/// the whole regex, or only classes and wildcards). Used to let `where`
/// constraints feed the prefilter.
std::string requiredLiteral(llvm::StringRef Re);

/// The index of the `]` that closes the POSIX bracket expression opening at
/// Re[Open] (`[]a]`, `[^]a]` and `[[:alpha:]]` included), or Re.size() if
/// it is not closed.
size_t bracketExpressionEnd(llvm::StringRef Re, size_t Open);

} // namespace devport

#endif
