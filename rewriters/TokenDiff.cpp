//===--- TokenDiff.cpp - Edits that keep comments and layout --------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "rewriters/TokenDiff.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>

namespace devport {

std::vector<Edit> tokenEdits(llvm::StringRef Src, ByteRange R, llvm::StringRef Replacement,
                             Tokenizer Tokenize) {
  llvm::StringRef Old = Src.slice(R.Begin, R.End);
  std::vector<Token> A = Tokenize(Old), B = Tokenize(Replacement);
  auto TextA = [&](size_t I) { return Old.slice(A[I].Begin, A[I].End); };
  auto TextB = [&](size_t J) { return Replacement.slice(B[J].Begin, B[J].End); };
  // Too large to align (never for a single call): one edit for the whole text.
  if (A.size() * B.size() > 4000000)
    return {Edit::replacement(R, Replacement.str())};

  // LCS table over tokens, then the aligned pairs.
  size_t N = A.size(), M = B.size();
  std::vector<uint32_t> L((N + 1) * (M + 1), 0);
  auto At = [&](size_t I, size_t J) -> uint32_t & { return L[I * (M + 1) + J]; };
  for (size_t I = N; I-- > 0;)
    for (size_t J = M; J-- > 0;)
      At(I, J) = TextA(I) == TextB(J) ? At(I + 1, J + 1) + 1
                                      : std::max(At(I + 1, J), At(I, J + 1));
  std::vector<std::pair<size_t, size_t>> Pairs;
  for (size_t I = 0, J = 0; I < N && J < M;) {
    if (TextA(I) == TextB(J)) {
      Pairs.push_back({I, J});
      ++I, ++J;
    } else if (At(I + 1, J) >= At(I, J + 1)) {
      ++I;
    } else {
      ++J;
    }
  }

  // Walk the gaps between aligned tokens (and before the first / after the
  // last). Offsets here are relative to Old and Replacement.
  std::vector<Edit> Out;
  bool HavePrev = false;
  size_t PrevI = 0, PrevJ = 0;         // first token index after the previous anchor
  uint32_t PrevEndA = 0, PrevEndB = 0; // end of the previous anchor
  // Ins without its trailing whitespace, but with the line break that ends a
  // comment or a line continuation at its end: without it the code after
  // the edit would join the comment or the continued line.
  auto TrimEnd = [&](llvm::StringRef Ins) {
    llvm::StringRef T = Ins.rtrim();
    if (T.size() == Ins.size())
      return T;
    std::vector<Token> Ts = Tokenize(Ins);
    uint32_t LastEnd = Ts.empty() ? 0 : Ts.back().End;
    if (LastEnd >= T.size())
      return T; // only whitespace after the last token
    size_t Eol = Ins.find_first_of("\r\n", T.size());
    if (Eol == llvm::StringRef::npos)
      return T;
    Eol += Ins.substr(Eol).startswith("\r\n") ? 2 : 1;
    return Ins.take_front(Eol);
  };
  auto Gap = [&](size_t I, size_t J, uint32_t NextBeginA, uint32_t NextBeginB, bool HaveNext) {
    if (I == PrevI && J == PrevJ)
      return; // no token changed here: keep the original trivia
    llvm::StringRef Rep = Replacement.slice(PrevEndB, NextBeginB);
    // Blanks (no line break, no comment) carry no layout worth keeping next
    // to changed tokens: there the replacement's own spacing wins.
    auto Blank = [](llvm::StringRef T) {
      return !T.empty() && T.find_first_not_of(" \t") == llvm::StringRef::npos;
    };
    if (I == PrevI) {
      // Only insertions: right after the previous anchor (or before the
      // next one at the very start), keeping the original trivia after it.
      llvm::StringRef Between = Old.slice(PrevEndA, NextBeginA);
      if (HavePrev && Blank(Between)) {
        Out.push_back(Edit::replacement({R.Begin + PrevEndA, R.Begin + NextBeginA}, Rep.str()));
        return;
      }
      uint32_t At = HavePrev ? PrevEndA : NextBeginA;
      llvm::StringRef Ins = Rep;
      if (HavePrev && NextBeginA > PrevEndA)
        Ins = TrimEnd(Ins);
      Out.push_back(Edit::insertion(R.Begin + At, Ins.str()));
      return;
    }
    // A trailing comma before a closing bracket is layout, not meaning: keep it.
    if (J == PrevJ && I == PrevI + 1 && HaveNext && TextA(PrevI) == "," &&
        llvm::StringRef(")]}").contains(Old[NextBeginA]))
      return;
    uint32_t SpanB = A[PrevI].Begin, SpanE = A[I - 1].End;
    llvm::StringRef Before = Old.slice(PrevEndA, SpanB), After = Old.slice(SpanE, NextBeginA);
    llvm::StringRef Ins = Rep;
    if (HavePrev && Blank(Before))
      SpanB = PrevEndA;
    else if (!Before.empty() || !HavePrev)
      Ins = Ins.ltrim();
    if (HaveNext && Blank(After))
      SpanE = NextBeginA;
    else if (!After.empty() || !HaveNext)
      Ins = TrimEnd(Ins);
    Out.push_back(Edit::replacement({R.Begin + SpanB, R.Begin + SpanE}, Ins.str()));
  };
  for (const auto &[I, J] : Pairs) {
    Gap(I, J, A[I].Begin, B[J].Begin, true);
    HavePrev = true;
    PrevI = I + 1, PrevJ = J + 1;
    PrevEndA = A[I].End, PrevEndB = B[J].End;
  }
  Gap(N, M, static_cast<uint32_t>(Old.size()), static_cast<uint32_t>(Replacement.size()), false);
  // Drop no-ops, and merge edits separated only by unchanged tokens with no
  // trivia between them (`cuda` + `.` + `set_device`), so that a rename of a
  // dotted name is one edit.
  std::vector<Edit> Merged;
  for (Edit &E : Out) {
    if (E.Range.empty() && E.Replacement.empty())
      continue;
    if (Src.slice(E.Range.Begin, E.Range.End) == E.Replacement)
      continue;
    if (!Merged.empty()) {
      Edit &P = Merged.back();
      llvm::StringRef Between = Src.slice(P.Range.End, E.Range.Begin);
      if (P.Range.End <= E.Range.Begin &&
          Between.find_first_of(" \t\r\n#\\") == llvm::StringRef::npos) {
        P.Replacement += Between.str() + E.Replacement;
        P.Range.End = E.Range.End;
        continue;
      }
    }
    Merged.push_back(std::move(E));
  }
  return Merged;
}

} // namespace devport
