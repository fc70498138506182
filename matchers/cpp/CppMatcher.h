//===--- CppMatcher.h - Token patterns over C++ (the lexical backend) -----===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The lexical backend's rules: each C++ rule's `pattern:`/`any:` entries are
/// token patterns (`c10::Device($D, $$$REST)`, `$X.is_cuda()`,
/// `#ifdef $M`), lexed by the same raw lexer as the code. A qualified name
/// is one unit and is resolved, not compared as text: `at::kCUDA`,
/// `torch::kCUDA` and `::c10::kCUDA` are the pattern `c10::kCUDA`, and so is
/// `kCUDA` where a `using namespace at;` (c10, torch), a using-declaration or
/// an enclosing `namespace at {` brings it in scope; `namespace dt = c10;`
/// aliases are followed. A name that is only a suffix of the pattern's and
/// that nothing brings in scope still matches, marked unresolved: it is
/// reported, never fixed; unless it starts with a lower-case component
/// (`cuda::x`: many libraries have a `cuda` namespace), which must resolve.
///
/// One forward pass over the tokens keeps the scope stack (namespaces, using
/// directives, what each brace opens) and tries, at each name or literal
/// token, only the patterns anchored on it. Comments are never matched;
/// string literals only where a pattern has a string or a metavariable whose
/// `where` wants one. A conditional directive pattern (`#if`, `#ifdef`,
/// `#elif`) matches the whole branch it opens.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_MATCHERS_CPP_CPPMATCHER_H
#define DEVPORT_MATCHERS_CPP_CPPMATCHER_H

#include "core/LiteralSet.h"
#include "core/LanguageBackend.h"
#include "core/Rule.h"
#include "core/Where.h"
#include "matchers/cpp/CppLexer.h"

#include "llvm/ADT/StringMap.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace devport::cpp {

/// Where a match sits, for the fix: what the lexical context allows.
struct CppContext final : MatchContext {
  /// A name matched only as a suffix, with nothing in scope to resolve it.
  bool Unresolved = false;
  /// Inside a function body (not at namespace or class scope, where it would
  /// run at static initialization or have to be a constant).
  bool InFunction = false;
  /// In a statement that must be a constant expression (`constexpr`,
  /// `static_assert`, a template argument list, a `case` label).
  bool InConstant = false;
  /// In an entry of a table: a braced initializer inside another (`T t[] =
  /// {{"cuda", kCUDA}, ...}`). A call there runs whenever the table is
  /// built, whichever entry is used.
  bool InTable = false;
  /// A function parameter's default argument (`void f(DeviceType d = kCUDA)`):
  /// every call that leaves it out gets it.
  bool InDefaultArgument = false;
  /// In a preprocessor directive (a `#define` body).
  bool InDirective = false;
  /// Semantic engine: part of the match comes from a macro expansion.
  bool InMacro = false;
};

/// One element of a token pattern.
struct PatternElem {
  enum Kind : uint8_t { Tok, Name, Var, Ellipsis } K;
  std::string Text;                 ///< Tok: the spelling; Var/Ellipsis: the name.
  std::vector<std::string> Comps;   ///< Name: components; a last "$X" binds the rest.
  bool Global = false;              ///< Name spelled with a leading `::`.
  TokKind TK = TokKind::Punct;      ///< Tok: its kind.
};

struct CppPattern {
  const Rule *R = nullptr;
  std::vector<PatternElem> Elems;
  size_t Anchor = 0;
  bool Directive = false;  ///< Starts with `#`: matches in directive lines only.
  bool Branch = false;     ///< A conditional directive: the match is its branch.
  std::string Role;        ///< `@<role>-file`: the whole file of that role.
  std::vector<std::string> Words; ///< Prefilter: all must occur in the text.
  /// Prefilter of the lexical engine alone, which finds only what the file
  /// spells: a qualified name's components after its first, there however
  /// the name is written (`cuda` of `torch::cuda::is_available`: in the
  /// name, or in the `using`, namespace alias or `namespace` that brings it
  /// in), and a string literal whole, quotes included (a token's spelling
  /// is compared whole).
  std::vector<std::string> LexicalWords;
  /// Prefilter: one word of each group must occur (a `where` regex of
  /// finitely many strings, `^(USE_CUDA|USE_ROCM|...)$`: finiteLanguage()).
  std::vector<std::vector<std::string>> AnyOf;
};

/// Membership pretest for a few words: never says no to an added word, and
/// says no to most others after two loads. The lexical pass asks it for
/// every token before a hash-table lookup (that lookup was a tenth of the
/// run over PyTorch's C++ tree).
class WordFilter {
public:
  void add(llvm::StringRef W) {
    unsigned K = key(W);
    Bits[K >> 6] |= uint64_t(1) << (K & 63);
  }
  bool mayContain(llvm::StringRef W) const {
    unsigned K = key(W);
    return (Bits[K >> 6] >> (K & 63)) & 1;
  }

private:
  static unsigned key(llvm::StringRef W) {
    if (W.empty())
      return 0;
    return (static_cast<unsigned>(W.size()) * 131 + static_cast<unsigned char>(W.front()) * 31 +
            static_cast<unsigned char>(W.back())) &
           4095;
  }
  uint64_t Bits[64] = {};
};

/// Compiled token patterns of the C++ rules.
class CppMatcher {
public:
  /// Compiles the patterns of every C++ rule in Rules; errors are
  /// "file:line:col: reason" lines.
  static llvm::Expected<std::unique_ptr<CppMatcher>> compile(llvm::ArrayRef<const Rule *> Rules);

  /// False when no pattern can match Text. Lexical: only the lexical engine
  /// will read Text, which needs more of a pattern's words in it (those that
  /// the semantic engine can find through a header: see LexicalWords).
  /// With MentionsDevport, also whether Text holds `devport:`, where the
  /// scan tells (WordRequirements::met()).
  bool mayMatch(llvm::StringRef Text, bool Lexical = false,
                std::optional<bool> *MentionsDevport = nullptr) const;
  /// Region lexing: the statements of Text in which no pattern can match
  /// (no pattern's words but C++ keywords, no directive line, `devport:`,
  /// `using` or `namespace`), as LexedFile's Gaps, and in GapComments the
  /// comments in them. None where a pattern that spans statements may match, or where
  /// Text is not read as modelled (scanSkeleton()).
  std::vector<ByteRange> gaps(llvm::StringRef Text, std::vector<ByteRange> &GapComments) const;
  /// Whether a role pattern (`@cuda-file`) is compiled.
  bool hasRoles() const { return !Roles.empty(); }

  /// Every match in F, in document order. Roles: the roles the file has
  /// ("cuda" for a CUDA-role file: without the role's keep rule, no finding
  /// rule runs there). Only limits the rules run (null: all). In the same
  /// pass, Contexts (if given) gets the lexical context of each offset of
  /// ContextsAt, in that order: for matches found another way.
  std::vector<Match> match(const LexedFile &F, llvm::ArrayRef<std::string> Roles,
                           const std::vector<const Rule *> *Only = nullptr,
                           llvm::ArrayRef<uint32_t> ContextsAt = {},
                           std::vector<std::shared_ptr<CppContext>> *Contexts = nullptr) const;

private:
  std::vector<std::unique_ptr<CppPattern>> Patterns;
  llvm::StringMap<std::vector<const CppPattern *>> ByName; ///< by an anchor name component
  llvm::StringMap<std::vector<const CppPattern *>> ByTok;  ///< by an anchor token spelling
  WordFilter NameFilter, TokFilter;                        ///< ByName's and ByTok's keys
  std::vector<const CppPattern *> Roles;
  WhereConstraints Constraints;
  LiteralSet Literals;    ///< Every pattern's prefilter words.
  /// What region lexing looks for (gaps()), one pass: the patterns' words
  /// but C++ keywords (GapNeeds), the words of the patterns that spell a
  /// brace or a `;` (SpanningNeeds), and the words that keep a statement
  /// whatever the patterns (`devport:`, `using`, `namespace`). GapRoles
  /// says which each word is, by GapRole bits.
  LiteralSet GapWords;
  enum GapRole : uint8_t { Needed = 1, Spanning = 2, Marker = 4 };
  std::vector<uint8_t> GapRoles;
  /// Needs without the C++ keywords and directive names (`if`, `case`,
  /// `return`, `defined`: half of all the pattern words' occurrences over
  /// PyTorch's C++ files), by their words in GapWords: what a statement
  /// must meet to be kept.
  WordRequirements GapNeeds;
  WordRequirements Needs; ///< Each non-role pattern's Words and AnyOf, for mayMatch().
  /// `devport:`, a word of Literals in no requirement: mayMatch() tells
  /// whether a text holds it.
  unsigned Directive = 0;
  WordRequirements LexicalNeeds; ///< The same with each pattern's LexicalWords.
  /// The patterns that spell a brace or a `;` before their end, by their
  /// words in GapWords: they match across statements, so where one may
  /// match, region lexing leaves none out.
  WordRequirements SpanningNeeds;

  friend class MatchPass;
};

} // namespace devport::cpp

#endif
