//===--- Metavariable.cpp - The one lexer of $NAME, $$$NAME and $$ --------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The lexer of `$` runs declared in Metavariable.h.
///
//===----------------------------------------------------------------------===//

#include "core/Metavariable.h"

#include "llvm/ADT/StringExtras.h"

#include "llvm/ADT/STLExtras.h"

#include <cassert>
#include <vector>

namespace devport {

bool isMetavarName(llvm::StringRef S) {
  return !S.empty() && isMetavarNameStart(S.front()) && llvm::all_of(S, isMetavarNameChar);
}

MetavarToken detail::lexMetavariableAt(llvm::StringRef Text, size_t At) {
  assert(At < Text.size() && Text[At] == '$' && "a run starts at a '$'");
  size_t Dollars = 1;
  while (Dollars < 3 && At + Dollars < Text.size() && Text[At + Dollars] == '$')
    ++Dollars;
  size_t NameAt = At + Dollars;
  // Ex) `$DEV`, `$$$ARGS`
  if ((Dollars == 1 || Dollars == 3) && NameAt < Text.size() && isMetavarNameStart(Text[NameAt])) {
    size_t End = NameAt + 1;
    while (End < Text.size() && isMetavarNameChar(Text[End]))
      ++End;
    return {MetavarToken::Metavar, Dollars == 3, At, End, Text.slice(NameAt, End)};
  }
  // Ex) `$$5` -> "$5"; `$$$x` is `$$` then `$x`.
  if (Dollars >= 2)
    return {MetavarToken::Literal, false, At, At + 2, {}};
  // Ex) `$dev`, `$1`, `$` at the end
  return {MetavarToken::Invalid, false, At, At + 1, {}};
}

std::vector<MetavarToken> lexMetavariables(llvm::StringRef Text) {
  std::vector<MetavarToken> Out;
  forEachMetavariable(Text, [&](const MetavarToken &T) { Out.push_back(T); });
  return Out;
}

std::vector<std::string> metavariablesIn(llvm::StringRef Text) {
  std::vector<std::string> Out;
  forEachMetavariable(Text, [&](const MetavarToken &T) {
    if (T.Kind == MetavarToken::Metavar && !llvm::is_contained(Out, T.Name))
      Out.push_back(T.Name.str());
  });
  return Out;
}

size_t bracketExpressionEnd(llvm::StringRef Re, size_t Open) {
  size_t J = Open + 1;
  if (J < Re.size() && Re[J] == '^')
    ++J;
  if (J < Re.size() && Re[J] == ']')
    ++J;
  while (J < Re.size() && Re[J] != ']') {
    if (Re[J] == '[' && J + 1 < Re.size() &&
        (Re[J + 1] == ':' || Re[J + 1] == '.' || Re[J + 1] == '=')) {
      size_t E = Re.find(std::string{Re[J + 1], ']'}, J + 2);
      J = E == llvm::StringRef::npos ? Re.size() : E + 2;
      continue;
    }
    ++J;
  }
  return J;
}

std::string requiredLiteral(llvm::StringRef Re) {
  std::string Best, Cur;
  // Best as it was at each open group: a group that a quantifier makes
  // optional (`(abc)?`, `(abc)*`, `(abc){0,2}`), or that holds alternatives
  // (`(abc|de)`), gives back what it found.
  struct Open {
    std::string Best;
    bool Alternatives = false;
  };
  std::vector<Open> AtOpen;
  auto Flush = [&] {
    if (Cur.size() > Best.size())
      Best = Cur;
    Cur.clear();
  };
  for (size_t I = 0; I < Re.size(); ++I) {
    char C = Re[I];
    if (C == '|') {
      if (AtOpen.empty())
        return ""; // an alternative of the whole may avoid any literal
      AtOpen.back().Alternatives = true;
      Flush();
      continue;
    }
    if (C == '[') {
      // A class of one character (`[.]`) is that character.
      if (I + 2 < Re.size() && Re[I + 2] == ']' && Re[I + 1] != '^' && Re[I + 1] != '[') {
        Cur += Re[I + 1];
        I += 2;
        continue;
      }
      Flush();
      I = bracketExpressionEnd(Re, I);
      // A quantifier after the class applies to the class, not to Cur.
      continue;
    }
    if (C == '(') {
      Flush();
      AtOpen.push_back({Best});
      continue;
    }
    if (C == ')') {
      Flush();
      if (!AtOpen.empty()) {
        char Q = I + 1 < Re.size() ? Re[I + 1] : '\0';
        // `{1,}` too: erring on the safe side.
        if (AtOpen.back().Alternatives || Q == '?' || Q == '*' || Q == '{')
          Best = AtOpen.back().Best;
        AtOpen.pop_back();
      }
      continue;
    }
    if (C == '?' || C == '*' || C == '{') {
      // The previous character is optional (or repeated): drop it.
      if (!Cur.empty())
        Cur.pop_back();
      Flush();
      if (C == '{')
        I = std::min(Re.size() - 1, Re.find('}', I) == llvm::StringRef::npos ? Re.size() - 1
                                                                         : Re.find('}', I));
      continue;
    }
    if (C == '+' ) {
      Flush();
      continue;
    }
    if (C == '\\' && I + 1 < Re.size()) {
      char N = Re[++I];
      if (llvm::isAlnum(N)) { // \d, \w...: a class
        Flush();
        continue;
      }
      Cur += N;
      continue;
    }
    if (C == '^' || C == '$' || C == '.') {
      Flush();
      continue;
    }
    Cur += C;
  }
  Flush();
  return Best;
}

} // namespace devport
