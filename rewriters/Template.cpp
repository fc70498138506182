//===--- Template.cpp - Fix templates -------------------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "rewriters/Template.h"
#include "core/Metavariable.h"

#include "llvm/ADT/StringExtras.h"

#include <cassert>

namespace devport {
namespace {

bool isIdentChar(char C) { return llvm::isAlnum(C) || C == '_'; }
bool isSpace(char C) { return C == ' ' || C == '\t' || C == '\r' || C == '\n'; }

/// Size of Out without its trailing whitespace.
size_t trimmedEnd(const std::string &Out, size_t End) {
  while (End > 0 && isSpace(Out[End - 1]))
    --End;
  return End;
}

/// Removes what an unbound metavariable leaves behind in an argument list:
/// its keyword (`key=`) or star (`*`, `**`), then one separating comma with
/// the whitespace around it, preferring the comma before it (`f(a, $B)`)
/// over the one after it (`f($A, b)`). Out holds the expansion so far; Next
/// is the template offset after the metavariable. Returns where to go on in
/// the template.
size_t dropUnboundArgument(std::string &Out, llvm::StringRef Template, size_t Next) {
  // Ex) `key=$K` -> "", but not `a == $B` or `a <= $B`.
  size_t K = trimmedEnd(Out, Out.size());
  if (K > 0 && Out[K - 1] == '=' && !(K > 1 && llvm::StringRef("=!<>").contains(Out[K - 2]))) {
    size_t NameEnd = trimmedEnd(Out, K - 1);
    size_t NameBegin = NameEnd;
    while (NameBegin > 0 && isIdentChar(Out[NameBegin - 1]))
      --NameBegin;
    if (NameBegin < NameEnd)
      Out.resize(NameBegin);
  } else {
    // Ex) `*$ARGS`, `**$KW` -> "".
    size_t Stars = K;
    while (Stars > 0 && K - Stars < 2 && Out[Stars - 1] == '*')
      --Stars;
    size_t Before = trimmedEnd(Out, Stars);
    if (Stars < K && (Before == 0 || Out[Before - 1] == '(' || Out[Before - 1] == ','))
      Out.resize(Stars);
  }
  // Ex) `f(a, $B)` -> "f(a" (then ")" follows).
  size_t Before = trimmedEnd(Out, Out.size());
  if (Before > 0 && Out[Before - 1] == ',') {
    Out.resize(Before - 1);
    return Next;
  }
  // Ex) `f($A, b)` -> "f(" and go on at "b)".
  size_t J = Next;
  while (J < Template.size() && isSpace(Template[J]))
    ++J;
  if (J < Template.size() && Template[J] == ',') {
    ++J;
    while (J < Template.size() && isSpace(Template[J]))
      ++J;
    return J;
  }
  return Next;
}

} // namespace

std::string expandTemplate(llvm::StringRef Template, const MetavarLookup &Lookup) {
  std::string Out;
  Out.reserve(Template.size() + 16);
  unsigned Depth = 0; // brackets open in the template, outside string literals
  char Quote = 0;     // the quote of the template's string literal we are in
  size_t I = 0;       // what of Template is done
  // Copies the text up to End, tracking brackets and string literals
  // (roughly: enough to tell an argument list from the rest). An escape in
  // a string literal never swallows the `$` of a metavariable after it.
  auto CopyTo = [&](size_t End) {
    while (I < End) {
      char C = Template[I];
      if (Quote) {
        if (C == '\\' && I + 1 < End) {
          Out += C;
          Out += Template[I + 1];
          I += 2;
          continue;
        }
        if (C == Quote)
          Quote = 0;
      } else if (C == '\'' || C == '"') {
        Quote = C;
      } else if (C == '(' || C == '[' || C == '{') {
        ++Depth;
      } else if ((C == ')' || C == ']' || C == '}') && Depth > 0) {
        --Depth;
      }
      Out += C;
      ++I;
    }
  };
  forEachMetavariable(Template, [&](const MetavarToken &T) {
    // dropUnboundArgument skips blanks and one comma: never a `$`.
    assert(I <= T.Begin && "the previous run went past this one");
    CopyTo(T.Begin);
    I = T.End;
    if (T.Kind != MetavarToken::Metavar) {
      Out += '$'; // Ex) `$$5` -> "$5"; a lone `$` (`$1`) stays
      return;
    }
    std::optional<std::string> Value = Lookup(T.Name);
    if (Value && !Value->empty()) {
      Out += *Value;
    } else if (Depth > 0 && !Quote) {
      // Unbound (or bound to nothing, as `$$$ARGS` for no arguments) inside
      // an argument list: the argument goes whole.
      I = dropUnboundArgument(Out, Template, T.End);
    } // Elsewhere it just expands to nothing.
  });
  CopyTo(Template.size());
  return Out;
}

} // namespace devport
