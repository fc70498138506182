//===--- Where.h - A rule set's `where` constraints, compiled -------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What every language's matcher does with a rule's `where:` entries: the
/// regexes compiled once, checked against the text a match bound, and the
/// regex groups bound as new metavariables (`captures:`).
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_CORE_WHERE_H
#define DEVPORT_CORE_WHERE_H

#include "core/LanguageBackend.h"
#include "core/MemoRegex.h"
#include "core/Rule.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Regex.h"

#include <bitset>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace devport {

/// The most positions a `where` regex may expand to. LLVM's regex engine
/// copies a group once per count of a `{m,n}` repetition, so nested counts
/// multiply: `((((a{255}){255}){255}){255})` is 4 billion copies, gigabytes
/// before the first match.
constexpr uint64_t MaxRegexSize = 10000;

/// Why Re is refused before it is compiled (its counted repetitions expand
/// past MaxRegexSize, or it is longer than 1,000 bytes), or "" when it may be
/// compiled. The estimate counts each atom once per copy that a repetition
/// makes. The rule loader asks it of every `regex` and `not-regex` (with
/// llvm::Regex::isValid), so WhereConstraints compiles only what passed.
std::string regexComplexityProblem(llvm::StringRef Re);

/// The strings of a regex that matches finitely many, at most Limit: `^...$`
/// around characters, escaped operators (`\.`), bracket expressions of
/// characters and ranges (`[uU]`, `[0-9]`), groups of alternatives, each
/// maybe followed by `?` or `{m,n}` of up to 4 copies
/// (`^[uU]?(["'])cuda["']$`: 12 strings). A text matches the regex exactly
/// when it is one of them. Nothing for any other regex, or past Limit.
std::optional<std::vector<std::string>> finiteLanguage(llvm::StringRef Re, size_t Limit);

/// The text of a regex that is a word spelt in either case by bracket
/// expressions (`[Dd][Ee][Vv]`, `[Dd][Ee][Vv][Ii][Cc][Ee]_[Mm][Aa][Pp]`),
/// lowercased: a text matches it when it holds the word in any case. Nothing
/// when a letter stands alone (it would match its own case only), or for any
/// other regex.
std::optional<std::string> caselessLiteral(llvm::StringRef Re);

/// For a regex of alternatives at its top level (`a|b[0-9]|c\.d`), a literal
/// that each alternative requires (requiredLiteral()): a text that holds none
/// of them does not match. Nothing when there is one alternative, or one
/// that requires no literal.
std::optional<std::vector<std::string>> alternativeLiterals(llvm::StringRef Re);

/// Literals of which every text that the POSIX regex Re matches contains
/// one: alternativeLiterals() of the whole, or else those of the first group
/// of alternatives at its top level that no quantifier makes optional
/// (`^[A-Z0-9_]*(CUDA|GPU)[A-Z0-9_]*$`: CUDA, GPU). Empty when there are
/// none (no such group, or alternatives of the whole that avoid any literal).
std::vector<std::string> requiredAlternatives(llvm::StringRef Re);

/// When every text that the POSIX regex Re matches is one quoted string
/// literal (`^`, letters such as a `u` prefix, one or more quotes, then no
/// quote up to the quotes before `$`: `^[uU]?(["'])cuda(:[0-9]*)?["']$`),
/// the characters such a text may hold; a node of Python whose text Re
/// matches is then one string token. Nothing for any other regex or one it
/// cannot read (alternatives of the whole, `.`, classes such as `\s` or
/// `[^...]`, anchors inside).
std::optional<std::bitset<256>> quotedStringCharacters(llvm::StringRef Re);

class WhereConstraints {
public:
  /// Compiles R's `where` entries. An entry for a metavariable that is not
  /// in Bound (what R's patterns bind) is reported with Fail(place, reason)
  /// and left out.
  void add(const Rule &R, llvm::ArrayRef<std::string> Bound,
           llvm::function_ref<void(const RuleLoc &, const std::string &)> Fail);

  /// Whether the text that B binds in Src satisfies R's constraints; binds
  /// the regex captures by appending them to B.
  bool hold(const Rule &R, llvm::SmallVectorImpl<BoundVar> &B, llvm::StringRef Src) const;

  /// Whether Text, bound to the metavariable Name, satisfies R's constraints
  /// on it (true where it has none): what hold() asks of each binding, for a
  /// matcher to ask while it can still try another binding.
  bool accepts(const Rule &R, llvm::StringRef Name, llvm::StringRef Text) const;

  struct Constraint;
  /// R's constraints by metavariable, or null where it has none (hold() and
  /// accepts() are then true whatever is bound): for a matcher to look them
  /// up once a rule, not at each binding.
  const llvm::StringMap<Constraint> *of(const Rule &R) const;
  /// hold() and accepts() with R's constraints (of(R)) at hand.
  bool hold(const llvm::StringMap<Constraint> &OfRule, llvm::SmallVectorImpl<BoundVar> &B,
            llvm::StringRef Src) const;
  bool accepts(const llvm::StringMap<Constraint> &OfRule, llvm::StringRef Name,
               llvm::StringRef Text) const;

private:
  /// One regex and what can answer for it without running it (LLVM's
  /// engine takes microseconds per call, and C++ rules try theirs at every
  /// string literal and `#if`).
  struct Test {
    std::unique_ptr<MemoRegex> Re;
    std::string Needed; ///< A literal that every match contains ("" if none).
    /// finiteLanguage(): the strings; the regex is not run.
    std::optional<llvm::StringSet<>> Exact;
    bool Plain = false; ///< The regex is a plain word: Needed alone answers.
    /// caselessLiteral(): found in any case, the regex matches; else not.
    std::optional<std::string> Caseless;
    /// alternativeLiterals(): none found, no match; with AnyOfAnswers (every
    /// alternative a plain word), one found is a match.
    std::vector<std::string> AnyOf;
    bool AnyOfAnswers = false;
    bool matches(llvm::StringRef T, llvm::SmallVectorImpl<llvm::StringRef> *Groups) const;
  };
  static Test compile(const std::string &Re, bool WantGroups);

public:
  struct Constraint {
    std::optional<Test> Must, MustNot;
    std::vector<std::string> Captures;
  };

private:
  llvm::StringMap<llvm::StringMap<Constraint>> ByRule; ///< rule id -> metavariable -> regexes
};

} // namespace devport

#endif
