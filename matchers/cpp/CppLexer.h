//===--- CppLexer.h - C++ tokens from Clang's raw lexer -------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The lexical C++ backend's view of a file: clang::Lexer in raw mode (no
/// preprocessor, no headers) turns the text into tokens, comments and
/// preprocessor directives. Qualified names (`::c10::DeviceType::CUDA`) are
/// grouped into one unit, the conditional-compilation structure
/// (`#if`/`#elif`/`#else`/`#endif`) is recorded so a directive's branch is a
/// range, and what a raw lexer can see as broken (an unterminated literal or
/// comment, a closing bracket without its opener) is counted: a fix may not
/// add any.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_MATCHERS_CPP_CPPLEXER_H
#define DEVPORT_MATCHERS_CPP_CPPLEXER_H

#include "core/Fix.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <vector>

namespace devport::cpp {

enum class TokKind : uint8_t {
  Identifier, ///< Keywords too: the raw lexer does not tell them apart.
  Number,
  String,     ///< "..." (any prefix), raw strings included.
  Char,
  Punct,      ///< Operators and brackets; `::` is its own token.
  Unknown,    ///< What the raw lexer could not lex (an unterminated literal, a stray byte).
};

/// Token::Punct of the punctuators of more than one byte that matching asks
/// about; a one-byte punctuator's is its byte.
enum : uint8_t { PunctColonColon = 0x80, PunctArrow = 0x81, PunctOther = 0xff };

struct Token {
  TokKind Kind;
  bool StartOfLine;  ///< First token of its line.
  bool InDirective;  ///< Part of a preprocessor directive line (the `#` too).
  /// A punctuator's spelling in a byte (its byte, PunctColonColon,
  /// PunctArrow or PunctOther), so that matching tells `{` or `::` without
  /// reading the text; 0 for other kinds.
  uint8_t Punct;
  uint32_t Begin, End;
};

/// A conditional-compilation directive and the branch it opens.
struct Conditional {
  uint32_t Hash;       ///< Token index of its `#`.
  ByteRange Branch;    ///< From the directive to the start of the next
                       ///< #elif/#else/#endif of the same #if (or the end).
};

/// What a scan of C++ text can tell without lexing it (region lexing,
/// CppMatcher::gaps): the brace pairs of code, and the places the scan does
/// not read as the lexer does. It reads comments, string and character
/// literals, directive lines and brackets; where it meets what it does not
/// model (a raw string, a line splice in code, a digit separator or a
/// prefixed character literal, an unterminated literal or comment, brackets
/// that do not pair), it stops: what comes after is not read.
struct Skeleton {
  static constexpr uint32_t NoParent = UINT32_MAX; ///< The file's own level.
  static constexpr uint32_t Unclosed = UINT32_MAX; ///< No `}` before the scan stopped.
  struct Pair {
    uint32_t Open, Close; ///< Offsets of a code `{` and its `}` (or Unclosed).
    uint32_t Parent;      ///< The pair around it (its index in Pairs), or NoParent.
  };
  /// A `;` or `}` that ends a statement: where the innermost open bracket
  /// is the `{` of pair Parent (or none: NoParent).
  struct Boundary {
    uint32_t At, Parent;
  };
  std::vector<Pair> Pairs;          ///< In the order of their Open.
  std::vector<Boundary> Boundaries; ///< In order.
  std::vector<ByteRange> Directives; ///< Directive lines (and their splices), `#` on, in order.
  std::vector<ByteRange> Comments;  ///< In order, outside directive lines.
  uint32_t Read = 0;                ///< Where the scan stopped (the text's size if at its end).
};

/// Scans Text once (a few instructions a byte, against some fifty for
/// lexing and matching it).
Skeleton scanSkeleton(llvm::StringRef Text);

class LexedFile {
public:
  explicit LexedFile(llvm::StringRef Text);
  /// Text lexed except in Gaps (in order): each whole statements of code,
  /// from just after a `;`, `{` or `}` (or the text's start) to just after
  /// another or to a `}`, with no directive line, unterminated literal or
  /// comment, or unpaired bracket in them (CppMatcher::gaps). The tokens are
  /// those of the whole text less those in the gaps, and the comments the
  /// lexed ones and GapComments (those in the gaps, from scanSkeleton()).
  LexedFile(llvm::StringRef Text, llvm::ArrayRef<ByteRange> Gaps,
            llvm::ArrayRef<ByteRange> GapComments);

  llvm::StringRef text() const { return Text; }
  const std::vector<Token> &tokens() const { return Toks; }
  llvm::StringRef spelling(const Token &T) const { return Text.slice(T.Begin, T.End); }
  llvm::StringRef spelling(size_t I) const { return spelling(Toks[I]); }
  /// Every comment, in order.
  const std::vector<ByteRange> &comments() const { return Comments; }
  /// `#if`, `#ifdef`, `#ifndef`, `#elif`, `#else` directives and their branches.
  const std::vector<Conditional> &conditionals() const { return Conds; }
  /// Unterminated literals and comments, stray bytes, unbalanced brackets.
  unsigned errors() const { return Errors; }
  /// The index of the first token that ends after Offset (tokens().size() if none).
  size_t tokenAt(uint32_t Offset) const;
  /// The `#include` lines: their ranges, whole lines.
  const std::vector<ByteRange> &includes() const { return Includes; }
  /// The statements left out (the Gaps constructor's), in order.
  const std::vector<ByteRange> &gaps() const { return Gaps; }
  bool partial() const { return !Gaps.empty(); }

private:
  llvm::StringRef Text;
  std::vector<Token> Toks;
  std::vector<ByteRange> Comments;
  std::vector<Conditional> Conds;
  std::vector<ByteRange> Includes;
  unsigned Errors = 0;
  std::vector<ByteRange> Gaps;
};

} // namespace devport::cpp

#endif
