//===--- Template.cpp - Fix templates -------------------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "rewriters/Template.h"

namespace devport {

static bool isNameStart(char C) { return (C >= 'A' && C <= 'Z') || C == '_'; }
static bool isNameChar(char C) { return isNameStart(C) || (C >= '0' && C <= '9'); }

std::string expandTemplate(llvm::StringRef Template, const MetavarLookup &Lookup) {
  std::string Out;
  Out.reserve(Template.size() + 16);
  for (size_t I = 0; I < Template.size();) {
    char C = Template[I];
    if (C == '$') {
      size_t Dollars = 1;
      while (I + Dollars < Template.size() && Template[I + Dollars] == '$' && Dollars < 3)
        ++Dollars;
      size_t NameAt = I + (Dollars == 3 ? 3 : 1);
      if ((Dollars == 1 || Dollars == 3) && NameAt < Template.size() &&
          isNameStart(Template[NameAt])) {
        size_t End = NameAt;
        while (End < Template.size() && isNameChar(Template[End]))
          ++End;
        std::optional<std::string> Value = Lookup(Template.slice(NameAt, End));
        if (Value && !Value->empty()) {
          Out += *Value;
        } else {
          // An unbound keyword argument goes whole: `priority=$P` -> "".
          size_t K = Out.size();
          while (K > 0 && Out[K - 1] == ' ')
            --K;
          if (K > 0 && Out[K - 1] == '=') {
            size_t NameEnd = K - 1;
            while (NameEnd > 0 && Out[NameEnd - 1] == ' ')
              --NameEnd;
            size_t NameBegin = NameEnd;
            while (NameBegin > 0 && (isNameChar(Out[NameBegin - 1]) ||
                                     (Out[NameBegin - 1] >= 'a' && Out[NameBegin - 1] <= 'z')))
              --NameBegin;
            if (NameBegin < NameEnd)
              Out.resize(NameBegin);
          }
          // Drop a separator: the ", " after it, else the ", " before it.
          size_t J = End;
          while (J < Template.size() && Template[J] == ' ')
            ++J;
          if (J < Template.size() && Template[J] == ',') {
            ++J;
            while (J < Template.size() && Template[J] == ' ')
              ++J;
            End = J;
          } else {
            size_t K = Out.size();
            while (K > 0 && Out[K - 1] == ' ')
              --K;
            if (K > 0 && Out[K - 1] == ',')
              Out.resize(K - 1);
          }
        }
        I = End;
        continue;
      }
      if (Dollars >= 2) {
        Out += '$'; // `$$` is a literal dollar
        I += 2;
        continue;
      }
    }
    Out += C;
    ++I;
  }
  return Out;
}

} // namespace devport
