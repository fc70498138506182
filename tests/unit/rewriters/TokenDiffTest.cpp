//===--- TokenDiffTest.cpp - TokenDiff's promise, on random inputs --------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A property test of rewriters/TokenDiff.h with a small tokenizer of its own
/// (the rewriters know no language): seeded random sources, ranges and
/// replacements, and for each the promise of tokenEdits: every edit inside R,
/// sorted and non-overlapping, no no-op edit; applied with applyFixes they
/// leave the text outside R byte-identical and give, inside R, the tokens of
/// the replacement (a trailing comma the source had before a closing bracket
/// may stay: TokenDiff.cpp keeps it on purpose); where neither Src[R] nor
/// the replacement has a comment or continuation (nor Src[R] a line break),
/// the replacement itself up to whitespace. The Python tokenizer gets the
/// same test in tests/unit/matchers/python/TokenDiffPropertyTest.cpp.
///
//===----------------------------------------------------------------------===//

#include "rewriters/TokenDiff.h"
#include "rewriters/EditApplier.h"
#include "tests/support/TokenDiffPromise.h"

#include "llvm/ADT/StringExtras.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <random>
#include <string>
#include <vector>

namespace devport {
namespace {

using test::Layout;

using test::checkPromise;
using test::shown;
using test::tokenTexts;
using test::triviaOnly;

/// Identifiers and numbers, '...' and "..." strings (backslash escapes; an
/// unterminated one ends at its line's end), single punctuation characters.
/// Whitespace, backslash-newline and `#` comments are trivia.
std::vector<Token> tinyTokenize(llvm::StringRef T) {
  std::vector<Token> Out;
  size_t I = 0, N = T.size();
  auto Word = [](char C) { return llvm::isAlnum(C) || C == '_'; };
  while (I < N) {
    char C = T[I];
    if (C == ' ' || C == '\t' || C == '\n' || C == '\r') {
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
    if (C == '\'' || C == '"') {
      ++I;
      while (I < N && T[I] != C && T[I] != '\n' && T[I] != '\r')
        I += T[I] == '\\' ? 2 : 1;
      if (I < N && T[I] == C)
        ++I;
      I = std::min(I, N);
    } else if (Word(C)) {
      while (I < N && Word(T[I]))
        ++I;
    } else {
      ++I;
    }
    Out.push_back({static_cast<uint32_t>(B), static_cast<uint32_t>(I)});
  }
  return Out;
}

/// Random token texts and trivia that tinyTokenize reads back as generated.
class Generator : public test::TokenSequenceGenerator<Generator> {
public:
  explicit Generator(uint32_t Seed) : TokenSequenceGenerator(Seed, {50, 4, 14, 4, 20, 5}) {}

  std::string token() {
    static const char *const Words[] = {"a",      "b", "x", "torch", "cuda",
                                        "device", "f", "0", "1",     "42"};
    static const char *const Strings[] = {"'s'",       "\"t u\"",  "'cuda'",
                                          "\"a # b\"", "'it\\'s'", "''"};
    static const char *const Puncts[] = {"(", ")", "[", "]", ",", ".", "=", "+", ":", "*"};
    switch (below(10)) {
    case 0:
      return Strings[below(std::size(Strings))];
    case 1:
    case 2:
    case 3:
    case 4:
      return Puncts[below(std::size(Puncts))];
    default:
      return Words[below(std::size(Words))];
    }
  }

  /// Trivia to put between tokens L and R (empty only where they stay two).
  std::string trivia(const std::string &L, const std::string &R, Layout Lay) {
    static const char *const Blanks[] = {" ", " ", "  ", "\t"};
    static const char *const Lines[] = {"\n",     "\n    ", "  # note\n    ", " # a, b)\n",
                                        "\r\n  ", "\\\n  ", " \\\n"};
    if (Lay != Layout::Flat && chance(25))
      return Lines[below(std::size(Lines) - (Lay == Layout::Lines ? 2 : 0))];
    if ((!isWord(L) || !isWord(R)) && chance(50))
      return "";
    return Blanks[below(std::size(Blanks))];
  }

private:
  static bool isWord(const std::string &T) {
    return !T.empty() && (llvm::isAlnum(T[0]) || T[0] == '_' || T[0] == '\'' || T[0] == '"');
  }
};

/// Runs Cases random cases; failures are reported (the first 5).
void runCases(uint32_t Seed, int Cases, Layout RepLayout) {
  Generator G(Seed);
  int Failures = 0, WithEdits = 0, Flat = 0;
  for (int I = 0; I < Cases; ++I) {
    std::string Src, Rep;
    ByteRange R;
    G.next(Src, R, Rep, RepLayout);
    std::string Broken = checkPromise(Src, R, Rep, tinyTokenize);
    if (!Broken.empty() && ++Failures <= 5)
      ADD_FAILURE() << "case " << I << ": " << Broken;
    WithEdits += !tokenEdits(Src, R, Rep, tinyTokenize).empty();
    Flat += triviaOnly(llvm::StringRef(Src).slice(R.Begin, R.End), tinyTokenize, " \t");
  }
  EXPECT_EQ(0, Failures) << "of " << Cases << " cases";
  // The cases exercise what they should: most change something, many are flat.
  EXPECT_GT(WithEdits, Cases / 2);
  EXPECT_GT(Flat, Cases / 4);
  std::printf("[ TokenDiff ] %d cases, %d with edits, %d without layout in Src[R]\n", Cases,
              WithEdits, Flat);
}

TEST(TokenDiffProperty, TinyTokenizerReadsWhatTheGeneratorWrites) {
  Generator G(7);
  for (int I = 0; I < 500; ++I) {
    std::vector<std::string> Toks = G.tokens(20);
    std::string Text = G.join(Toks, Layout::LinesAndContinuations);
    EXPECT_EQ(Toks, tokenTexts(Text, tinyTokenize)) << shown(Text);
  }
}

TEST(TokenDiffProperty, RandomSourcesAndReplacements) { runCases(20240611, 4000, Layout::Lines); }

// Regression: a changed run of the replacement that ends in a line
// continuation, before a comment or line break the source keeps, keeps the
// continuation's line break (it lost it and left a stray `\`).
TEST(TokenDiffProperty, RandomReplacementsWithLineContinuations) {
  runCases(20240612, 4000, Layout::LinesAndContinuations);
}

TEST(TokenDiffProperty, ContinuationBeforeKeptCommentKeepsItsLineBreak) {
  EXPECT_EQ("", checkPromise("f(x  # c\n)", {0, 10}, "f(y \\\n)", tinyTokenize));
}

TEST(TokenDiffProperty, EdgeCases) {
  auto Check = [](llvm::StringRef Src, ByteRange R, llvm::StringRef Rep) {
    EXPECT_EQ("", checkPromise(Src, R, Rep, tinyTokenize));
  };
  Check("", {0, 0}, "a");
  Check("x", {0, 1}, "");
  Check("x  # c", {0, 6}, "");
  Check("  # only trivia\n", {0, 16}, "f(a)");
  Check("f(a)", {0, 4}, "  # c\n");
  Check("a b", {1, 2}, "c");
  Check("g(x, y)", {0, 7}, "g(y, x)");
  Check("f(  # keep\n  a,\n)", {0, 17}, "h(a)");
  Check("f(a,)", {0, 5}, "f(a)"); // the trailing comma stays (layout)
}

} // namespace
} // namespace devport
