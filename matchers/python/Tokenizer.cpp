//===--- Tokenizer.cpp - Python tokens for token-level edits --------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "matchers/python/Tokenizer.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>

namespace devport::python {

static bool isIdentChar(char C) {
  return llvm::isAlnum(C) || C == '_' || (static_cast<unsigned char>(C) & 0x80);
}

std::vector<Token> tokenize(llvm::StringRef T) {
  std::vector<Token> Out;
  size_t I = 0, N = T.size();
  while (I < N) {
    char C = T[I];
    if (C == ' ' || C == '\t' || C == '\n' || C == '\r' || C == '\f') {
      ++I;
      continue;
    }
    if (C == '\\' && I + 1 < N && (T[I + 1] == '\n' || T[I + 1] == '\r')) {
      I += 2;
      continue;
    }
    if (C == '#') {
      while (I < N && T[I] != '\n' && T[I] != '\r')
        ++I;
      continue;
    }
    size_t B = I;
    // A string, with an optional prefix (r, b, f, u, and pairs of them).
    size_t Q = I;
    while (Q < N && Q - I < 2 && llvm::StringRef("rRbBfFuU").contains(T[Q]))
      ++Q;
    if (Q < N && (T[Q] == '\'' || T[Q] == '"')) {
      char Quote = T[Q];
      bool Triple = Q + 2 < N && T[Q + 1] == Quote && T[Q + 2] == Quote;
      size_t J = Q + (Triple ? 3 : 1);
      while (J < N) {
        if (T[J] == '\\') {
          J += 2;
          continue;
        }
        if (Triple ? (J + 2 < N && T[J] == Quote && T[J + 1] == Quote && T[J + 2] == Quote)
                   : T[J] == Quote) {
          J += Triple ? 3 : 1;
          break;
        }
        if (!Triple && (T[J] == '\n' || T[J] == '\r'))
          break; // unterminated: stop at the line's end
        ++J;
      }
      I = std::min(J, N);
      Out.push_back({static_cast<uint32_t>(B), static_cast<uint32_t>(I)});
      continue;
    }
    if (isIdentChar(C)) {
      while (I < N && (isIdentChar(T[I]) || (T[I] == '.' && I + 1 < N && llvm::isDigit(T[I + 1]) &&
                                             llvm::isDigit(T[B]))))
        ++I;
    } else {
      ++I; // one operator character
    }
    Out.push_back({static_cast<uint32_t>(B), static_cast<uint32_t>(I)});
  }
  return Out;
}

} // namespace devport::python
