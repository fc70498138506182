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

struct Token {
  TokKind Kind;
  bool StartOfLine;  ///< First token of its line.
  bool InDirective;  ///< Part of a preprocessor directive line (the `#` too).
  uint32_t Begin, End;
};

/// A conditional-compilation directive and the branch it opens.
struct Conditional {
  uint32_t Hash;       ///< Token index of its `#`.
  ByteRange Branch;    ///< From the directive to the start of the next
                       ///< #elif/#else/#endif of the same #if (or the end).
};

class LexedFile {
public:
  explicit LexedFile(llvm::StringRef Text);

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

private:
  llvm::StringRef Text;
  std::vector<Token> Toks;
  std::vector<ByteRange> Comments;
  std::vector<Conditional> Conds;
  std::vector<ByteRange> Includes;
  unsigned Errors = 0;
};

} // namespace devport::cpp

#endif
