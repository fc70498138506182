//===--- Regions.h - The statements of a file that rules can need ---------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Region parsing for batch runs (docs/architecture.md, "Region parsing"). A
/// Python file that passes the prefilter is mostly code no rule can match:
/// over PyTorch, the lines that hold a rule's word are a tenth of the bytes of
/// the files that have one. maskRegions() reads the file's logical lines in
/// one lexical pass (strings, comments, brackets, continuations and
/// indentation, as Python's tokenizer does) and keeps what the matcher and
/// the fix review can look at:
///
///  - every statement holding an anchor (the offsets the caller found; not
///    one in prose, a statement of plain strings alone, but for a doctest or
///    a rule's string value in it; not one where no pattern can find its
///    word, WordUse: `cuda` inside `use_cuda` or in "cudaMalloc"), a
///    name that an import binds to a prefix of a pattern's qualified name
///    (`tc` after `import torch.cuda as tc`), or, later in the same function
///    (class, for `self.NAME`), a name that an anchored statement assigns
///    (`use_cuda` after `use_cuda = torch.cuda.is_available()`: its uses are
///    guards, and a later `device = "cpu"` makes a default, that Review.cpp
///    follows);
///  - a whole compound statement where its header holds one and something
///    looks at the whole: a guard (`if`, `elif`, `while`, a `skip`
///    decorator: Review.cpp checks what it guards), a `def` with one in its
///    parameters, or a statement of a kind that some pattern matches whole
///    (RegionRules::WholeStatements); other headers are kept alone;
///  - after a statement that picks a device with a "cpu" alternative in a
///    function (at module level), the lines of the rest of the function
///    (module) that the review of guarded code reads (a collective, float64:
///    Review.cpp, pickReachesCollective(), deviceReachesFloat64()), and in a
///    file that says `gym` the tensors made there (dtypelessConversion());
///  - the statement before an anchored `if` in its block (an `if` on another
///    backend there makes the two a ladder: Review.cpp);
///  - after an anchored `if` that may exit early, the rest of its block, and
///    after an anchored `assert`, the rest of its function (what a guard
///    guards, Review.cpp's addFollowing);
///  - every import (and `NAME = pytest.importorskip("M")` or
///    `importlib.import_module("M")`, which bind as one does), the module's
///    first statements (where a new import goes),
///    every comment (suppressions), and the headers of every statement that
///    encloses something kept, with all their clauses and decorators (the
///    scopes and conditions around a finding).
///
/// Everything else is replaced by spaces, newlines kept, so that every offset,
/// line and column of the masked text is that of the file and every node the
/// parser builds for kept code has the bytes it has in the file. A block left
/// empty gets a `0` as its first statement so that its header still parses.
/// A table (a module-level `NAME = [...]` of 2 KiB or more) keeps only its
/// elements that hold a mark, the others each a `0` placeholder, while no
/// pattern can match it or its statement (RegionRules::TablesSplit).
/// The ranges given with the text are its lines that are not blank (kept
/// statements, comments, fillers): tree-sitter parses only those (included
/// ranges), as it would skip the blank ones, without reading the rest.
/// The result must give the same findings and fixes as the whole file (the
/// test `regions.equivalence` and tests/corpus/regions.sh check it); where the
/// layout is not clear-cut (an unterminated string or bracket, inconsistent
/// indentation, tabs mixed with spaces, a lone CR, a number that runs into a
/// name, a U+FEFF, U+2060 or U+200B in code (blanks to tree-sitter-python),
/// a character that no Python token has (a backquote, `$`, `?`, a `!` but
/// in `!=`: a line of prose), a line that ends where no statement can: after `.`, an operator or
/// a keyword such as `and`, where tree-sitter reads on into the next line;
/// a line that starts none: a `:` at its end with no compound keyword,
/// `and` or `or` first; a compound keyword with no `:` outside brackets)
/// there is no masked text and the caller parses the
/// whole file.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_MATCHERS_PYTHON_REGIONS_H
#define DEVPORT_MATCHERS_PYTHON_REGIONS_H

#include "core/LanguageBackend.h"
#include "core/MemoRegex.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

#include <bitset>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace devport::python {

/// Where an occurrence of one of the rules' words may be part of a match
/// (RegionRules::WordUses). A word of a pattern's names (`cuda` of
/// `$X.cuda()`) is found in code, as a whole name (not in `use_cuda`); one of
/// a string the pattern is (`"cuda"` of `torch.device("cuda")`) only in a
/// string of that value; one that a `where` regex requires only in a string
/// that the regex matches, when it matches one quoted string alone
/// (quotedStringCharacters); at the start of a name where the regex starts
/// with it (`^_cuda`: what it reads starts there, with a name), at the end
/// where it ends with it (`patch$`); else anywhere.
struct WordUse {
  uint32_t Length = 0; ///< Of the word: it counts only wholly inside a string.
  /// Where the word counts in code (outside strings and comments), as bits:
  /// as a whole name (`cuda` of `$X.cuda()`), at the start of a name (a
  /// regex `^_cuda`), at its end (`patch$`), anywhere; none: nowhere (a word
  /// of strings).
  enum Code : uint8_t { Nowhere = 0, Name = 1, NameStart = 2, NameEnd = 4, Anywhere = 8 };
  uint8_t InCode = Anywhere;
  /// Some pattern may find the word in any string: a `where` regex of
  /// another shape (`^_cuda`), a string pattern with escapes.
  bool Any = false;
  /// The values of the string patterns that hold the word.
  std::vector<std::string> Values;
  /// The `where` regexes that require it and match one quoted string, each
  /// with the characters that such a string may hold (quotedStringCharacters:
  /// a string with another is not run through the regex).
  struct QuotedRegex {
    std::bitset<256> Chars;
    std::shared_ptr<const MemoRegex> Re;
  };
  std::vector<QuotedRegex> Regexes;

  /// Whether the word counts in the string literal Token (its prefix,
  /// quotes and all): an f-string holds code, so the word counts there
  /// whatever the rules (so does a doctest, `>>>`, which the caller looks
  /// for once a string).
  bool countsIn(llvm::StringRef Token) const;
};

/// What region parsing needs to know of the rules, beyond their words.
struct RegionRules {
  /// Every prefix, in whole segments, of every qualified name in the
  /// patterns (`torch`, `torch.cuda`, `torch.cuda.synchronize`): a name that
  /// an import binds to one of them (`tc` after `import torch.cuda as tc`)
  /// is an anchor wherever it occurs.
  llvm::StringSet<> QualifiedPrefixes;
  /// tree-sitter node types of the statements that some pattern matches as
  /// a whole (`if_statement`, `function_definition`): an anchor in such a
  /// statement's header keeps all of it, not only the header.
  llvm::StringSet<> WholeStatements;
  /// The values of the string literals that patterns are (`"cpu:gloo,cuda:nccl"`):
  /// a statement of plain strings alone (a docstring) holds a match only if
  /// it holds one of them.
  std::vector<std::string> StringValues;
  /// Some pattern's root is another part of a string or an expression
  /// statement: a statement of strings alone may hold a match.
  bool MatchesStrings = false;
  /// Modules whose `from M import name` items the fix rounds remove once
  /// unused (`torch.cuda` and its submodules): every use of such a name is
  /// an anchor, as the clean-up counts them all.
  std::vector<std::string> CleanedModules;
  /// A table (a module-level `NAME = [...]` of many elements) may be parsed
  /// in part: no pattern's root is an assignment, an expression statement
  /// or a metavariable, which could match the statement that holds it.
  bool TablesSplit = true;
  /// By container type that some pattern's root is (`dictionary` for
  /// `{$K: $S}`): the most elements of such a pattern, or SIZE_MAX where one
  /// has a `$$$` among them. A table of that type with no more elements is
  /// parsed whole.
  llvm::StringMap<size_t> ContainerArity;
  /// By word (the index that the caller gives with each anchor): where an
  /// occurrence counts. Empty: wherever a word occurs outside comments.
  std::vector<WordUse> WordUses;
  /// The last name of a custom device expression and of its type expression
  /// (`get_device` of `get_device()`; BackendOptions'): guarded code that
  /// says one may be code ported already, which the review reads
  /// (Review.cpp, portedPlacement()). Empty for the default.
  std::vector<std::string> DeviceWords;
};

/// The last name of Expression (`get_device` of `mylib.get_device()`,
/// `device` of `self.device`), what RegionRules::DeviceWords holds; empty if
/// it has none.
std::string lastNameOfExpression(llvm::StringRef Expression);

/// Text with every statement that no rule can need blanked, given the
/// offsets (sorted) where the rules' anchor words occur (those inside
/// comments or naming a `def` or `class` are ignored; with Words, the index
/// of each one's word, those where it does not count by Rules.WordUses too);
/// nullopt when the
/// whole file must be parsed: its layout is ambiguous, or nothing can be
/// left out. With MarksOnly, only Marks and NothingToMatch, and whatever can
/// be left out (the incremental check of an editor's whole tree).
std::optional<RegionText> maskRegions(llvm::StringRef Text, llvm::ArrayRef<uint32_t> Anchors,
                                      const RegionRules &Rules, bool MarksOnly = false,
                                      llvm::ArrayRef<unsigned> Words = {});

} // namespace devport::python

#endif
