//===--- TokenDiffPromise.h - Checking what tokenEdits promises -----------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// checkPromise(Src, R, Replacement, Tokenizer) checks rewriters/TokenDiff.h's
/// promise for one case: edits inside R, sorted, not overlapping, no no-ops;
/// bytes outside R unchanged; the tokens inside R those of the replacement
/// (a kept trailing comma aside); with no comment or line break in Src[R],
/// the replacement up to whitespace. Shared by the property tests of the
/// rewriters (a toy tokenizer) and of the Python backend (its tokenizer).
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_TESTS_SUPPORT_TOKENDIFFPROMISE_H
#define DEVPORT_TESTS_SUPPORT_TOKENDIFFPROMISE_H

#include "rewriters/EditApplier.h"
#include "rewriters/TokenDiff.h"

#include "llvm/ADT/StringRef.h"

#include <random>
#include <string>
#include <vector>

namespace devport::test {

inline std::vector<std::string> tokenTexts(llvm::StringRef T, Tokenizer Tokenize) {
  std::vector<std::string> Out;
  for (Token K : Tokenize(T))
    Out.push_back(T.slice(K.Begin, K.End).str());
  return Out;
}

inline bool isCloser(const std::string &S) { return S == ")" || S == "]" || S == "}"; }

/// Toks without the commas that stand before a closing bracket.
inline std::vector<std::string> withoutTrailingCommas(const std::vector<std::string> &Toks) {
  std::vector<std::string> Out;
  for (size_t I = 0; I < Toks.size(); ++I) {
    size_t J = I;
    while (J < Toks.size() && Toks[J] == ",")
      ++J;
    if (J > I && J < Toks.size() && isCloser(Toks[J]))
      I = J; // a run of commas before a closer: dropped
    Out.push_back(Toks[I]);
  }
  return Out;
}

/// Whether every byte of T outside its tokens is one of Allowed.
inline bool triviaOnly(llvm::StringRef T, Tokenizer Tokenize, llvm::StringRef Allowed) {
  uint32_t Pos = 0;
  auto Gap = [&](uint32_t End) {
    return T.slice(Pos, End).find_first_not_of(Allowed) == llvm::StringRef::npos;
  };
  for (Token K : Tokenize(T)) {
    if (!Gap(K.Begin))
      return false;
    Pos = K.End;
  }
  return Gap(static_cast<uint32_t>(T.size()));
}

inline std::string withoutWhitespace(llvm::StringRef S) {
  std::string Out;
  for (char C : S)
    if (C != ' ' && C != '\t' && C != '\n' && C != '\r')
      Out += C;
  return Out;
}

/// S as a C string literal, for failure messages.
inline std::string shown(llvm::StringRef S) {
  std::string Out = "\"";
  for (char C : S)
    Out += C == '\n'   ? "\\n"
           : C == '\t' ? "\\t"
           : C == '\r' ? "\\r"
           : C == '"'  ? "\\\""
           : C == '\\' ? "\\\\"
                       : std::string(1, C);
  return Out + "\"";
}

/// Checks tokenEdits(Src, R, Rep) against its promise; an empty string if it
/// holds, else what broke (with the case, to paste into a unit test).
inline std::string checkPromise(llvm::StringRef Src, ByteRange R, llvm::StringRef Rep,
                         Tokenizer Tokenize) {
  std::vector<Edit> Es = tokenEdits(Src, R, Rep, Tokenize);
  std::string Case = "Src=" + shown(Src) + " R=[" + std::to_string(R.Begin) + "," +
                     std::to_string(R.End) + ") Rep=" + shown(Rep) + " edits:";
  for (const Edit &E : Es)
    Case += " [" + std::to_string(E.Range.Begin) + "," + std::to_string(E.Range.End) + ")->" +
            shown(E.Replacement);
  auto Broken = [&](const std::string &What) { return What + "\n  " + Case; };

  for (size_t I = 0; I < Es.size(); ++I) {
    const Edit &E = Es[I];
    if (E.Range.Begin > E.Range.End || !R.contains(E.Range))
      return Broken("an edit outside R");
    if (Src.slice(E.Range.Begin, E.Range.End) == E.Replacement)
      return Broken("a no-op edit");
    if (I > 0 && (Es[I - 1].Range.End > E.Range.Begin || Es[I - 1].Range.overlaps(E.Range)))
      return Broken("edits unsorted or overlapping");
  }
  Fix F;
  F.Edits = Es;
  const Fix *Ptr = &F;
  ApplyResult A = applyFixes(Src, {Ptr});
  if (!Es.empty() && A.Applied.size() != 1)
    return Broken("applyFixes refused the edits");
  const std::string &Out = A.Text;
  size_t Tail = Src.size() - R.End;
  if (Out.size() < R.Begin + Tail || Out.compare(0, R.Begin, Src.data(), R.Begin) != 0 ||
      Out.compare(Out.size() - Tail, Tail, Src.data() + R.End, Tail) != 0)
    return Broken("bytes outside R changed: " + shown(Out));
  llvm::StringRef Inside = llvm::StringRef(Out).slice(R.Begin, Out.size() - Tail);
  llvm::StringRef Old = Src.slice(R.Begin, R.End);

  std::vector<std::string> Got = tokenTexts(Inside, Tokenize), Want = tokenTexts(Rep, Tokenize);
  std::vector<std::string> OldToks = tokenTexts(Old, Tokenize);
  if (OldToks == Want && !Es.empty())
    return Broken("edits although the tokens are the same");
  bool OldTrailingComma = withoutTrailingCommas(OldToks).size() != OldToks.size();
  if (OldTrailingComma ? withoutTrailingCommas(Got) != withoutTrailingCommas(Want) : Got != Want)
    return Broken("tokens inside R differ from the replacement's: " + shown(Inside));
  // Src[R] without comments and line breaks keeps only blanks: the rest is
  // the replacement's (if the replacement has no comment either).
  bool Flat = triviaOnly(Old, Tokenize, " \t") && triviaOnly(Rep, Tokenize, " \t\r\n");
  if (Flat && !OldTrailingComma && withoutWhitespace(Inside) != withoutWhitespace(Rep))
    return Broken("not the replacement up to whitespace: " + shown(Inside));
  return "";
}


/// What trivia a generated text may have between its tokens.
enum class Layout {
  Flat,                 ///< Blanks (or nothing where tokens stay apart).
  Lines,                ///< Also line breaks and comments.
  LinesAndContinuations ///< Also backslash-newline.
};

/// Random sources, ranges and replacements for the property tests. Derived
/// supplies the language: `std::string token()` and
/// `std::string trivia(const std::string &L, const std::string &R, Layout)`.
template <typename Derived> class TokenSequenceGenerator {
public:
  /// How cases are drawn.
  struct Shape {
    unsigned SourceLinesPercent; ///< Sources laid out with lines and continuations.
    size_t Before, Inside, After; ///< At most this many tokens around and in R.
    unsigned ReplacementLayoutPercent; ///< Replacements laid out like code (else flat).
    unsigned PaddedPercent;       ///< Replacements with a blank at each end (0: never drawn).
  };

  TokenSequenceGenerator(uint32_t Seed, Shape S) : Rng(Seed), S(S) {}

  size_t below(size_t N) { return std::uniform_int_distribution<size_t>(0, N - 1)(Rng); }
  bool chance(unsigned Percent) { return below(100) < Percent; }

  /// Joins Toks with trivia.
  std::string join(const std::vector<std::string> &Toks, Layout Lay) {
    std::string Out;
    for (size_t I = 0; I < Toks.size(); ++I) {
      if (I > 0)
        Out += self().trivia(Toks[I - 1], Toks[I], Lay);
      Out += Toks[I];
    }
    return Out;
  }

  std::vector<std::string> tokens(size_t Max) {
    std::vector<std::string> Out(below(Max + 1));
    for (std::string &T : Out)
      T = self().token();
    return Out;
  }

  /// Old's tokens, randomly kept, dropped, replaced and added to.
  std::vector<std::string> mutate(const std::vector<std::string> &Old) {
    std::vector<std::string> Out;
    for (const std::string &T : Old) {
      unsigned Roll = below(100);
      if (Roll < 55)
        Out.push_back(T);
      else if (Roll < 70)
        Out.push_back(self().token());
      else if (Roll < 85) {
        Out.push_back(T);
        Out.push_back(self().token());
      } // else dropped
    }
    if (chance(20))
      Out.insert(Out.begin(), self().token());
    return Out;
  }

  /// A source with a range R and a replacement for it: R covers tokens (and
  /// sometimes the trivia at its edges), the replacement is a mutation of
  /// them, laid out flat as templates give it, or with RepLayout, as a
  /// `$$$A` binding brings the layout of the code along.
  void next(std::string &Src, ByteRange &R, std::string &Rep, Layout RepLayout) {
    Layout SrcLayout =
        chance(S.SourceLinesPercent) ? Layout::LinesAndContinuations : Layout::Flat;
    std::vector<std::string> Before = tokens(S.Before), Inside = tokens(S.Inside),
                             After = tokens(S.After);
    Src = join(Before, SrcLayout);
    std::string Lead, Trail;
    if (!Before.empty())
      Lead = Inside.empty() ? " " : self().trivia(Before.back(), Inside.front(), SrcLayout);
    if (!After.empty())
      Trail = Inside.empty() ? " " : self().trivia(Inside.back(), After.front(), SrcLayout);
    bool LeadInside = chance(20), TrailInside = chance(20);
    Src += LeadInside ? "" : Lead;
    R.Begin = Src.size();
    Src += (LeadInside ? Lead : "") + join(Inside, SrcLayout) + (TrailInside ? Trail : "");
    R.End = Src.size();
    Src += (TrailInside ? "" : Trail) + join(After, SrcLayout);
    Rep = join(mutate(Inside), chance(S.ReplacementLayoutPercent) ? RepLayout : Layout::Flat);
    if (S.PaddedPercent && chance(S.PaddedPercent))
      Rep = " " + Rep + " ";
  }

private:
  Derived &self() { return static_cast<Derived &>(*this); }

  std::mt19937 Rng;
  Shape S;
};

} // namespace devport::test

#endif
