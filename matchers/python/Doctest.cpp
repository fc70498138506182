//===--- Doctest.cpp - The code of a docstring's doctests -----------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "matchers/python/Doctest.h"

#include <algorithm>

namespace devport::python {

EmbeddedCode extractDoctest(llvm::StringRef Text, ByteRange Range) {
  EmbeddedCode Out;
  Out.What = "doctest";
  uint32_t Pos = Range.Begin;
  while (Pos < Range.End) {
    uint32_t Eol = Pos;
    while (Eol < Range.End && Text[Eol] != '\n' && Text[Eol] != '\r')
      ++Eol;
    llvm::StringRef Line = Text.slice(Pos, Eol);
    llvm::StringRef Trimmed = Line.ltrim(" \t");
    uint32_t Indent = static_cast<uint32_t>(Line.size() - Trimmed.size());
    bool Prompt = Trimmed.startswith(">>> ") || Trimmed.startswith("... ") ||
                  Trimmed == ">>>" || Trimmed == "...";
    // A backslash means an escape the file and the string disagree on: skip.
    if (Prompt && !Trimmed.contains('\\')) {
      uint32_t CodeAt = Pos + Indent + std::min<uint32_t>(4, static_cast<uint32_t>(Trimmed.size()));
      llvm::StringRef Code = Text.slice(CodeAt, Eol);
      // The docstring's closing quotes may end the last line.
      if (Eol == Range.End)
        Code = Code.rtrim("\"'");
      Out.Segments.push_back({static_cast<uint32_t>(Out.Code.size()), CodeAt,
                              static_cast<uint32_t>(Code.size())});
      Out.Code += Code.str() + "\n";
    }
    Pos = Eol;
    while (Pos < Range.End && (Text[Pos] == '\n' || Text[Pos] == '\r'))
      ++Pos;
  }
  return Out;
}

} // namespace devport::python
