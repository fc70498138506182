//===--- TokenDiffPropertyTest.cpp - TokenDiff over Python tokens ---------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The property test of tests/unit/rewriters/TokenDiffTest.cpp with the real
/// Python tokenizer (matchers/python/Tokenizer.h): seeded random
/// recombinations of Python tokens (prefixed, triple-quoted and f-strings,
/// strings holding `#`, numbers, brackets) with the layout Python code has
/// (line breaks and comments inside brackets, continuations), a range R on
/// token boundaries and a replacement made from R's tokens. For each,
/// tokenEdits must keep its promise: edits inside R, sorted, non-overlapping
/// and not no-ops; the text outside R unchanged once applied; inside R the
/// replacement's tokens (a trailing comma before a closing bracket may stay);
/// and, where neither Src[R] nor the replacement has a comment or
/// continuation (nor Src[R] a line break), the replacement itself up to
/// whitespace.
///
//===----------------------------------------------------------------------===//

#include "matchers/python/Tokenizer.h"
#include "rewriters/EditApplier.h"
#include "rewriters/TokenDiff.h"
#include "tests/support/TokenDiffPromise.h"

#include "llvm/ADT/StringExtras.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <iterator>
#include <random>
#include <string>
#include <vector>

namespace devport {
namespace {

using test::Layout;

std::vector<std::string> tokenTexts(llvm::StringRef T) {
  return test::tokenTexts(T, python::tokenize);
}

bool triviaOnly(llvm::StringRef T, llvm::StringRef Allowed) {
  return test::triviaOnly(T, python::tokenize, Allowed);
}

/// Checks tokenEdits with the Python tokenizer against its promise; an empty
/// string if it holds, else what broke and the case.
std::string checkPromise(llvm::StringRef Src, ByteRange R, llvm::StringRef Rep) {
  return test::checkPromise(Src, R, Rep, python::tokenize);
}

using test::shown;

/// Random Python tokens and trivia that python::tokenize reads back as
/// generated.
class Generator : public test::TokenSequenceGenerator<Generator> {
public:
  explicit Generator(uint32_t Seed) : TokenSequenceGenerator(Seed, {60, 5, 16, 5, 25, 0}) {}

  std::string token() {
    static const char *const Names[] = {"torch", "cuda", "accelerator", "device", "self",
                                        "rank",  "x",    "None",        "True",   "synchronize",
                                        "f",     "r",    "b",           "_C"};
    static const char *const Numbers[] = {"0", "1", "1.5", "0x1F", "10_000", "2j"};
    static const char *const Strings[] = {"'cuda'",
                                          "\"cuda:0\"",
                                          "f\"cuda:{i}\"",
                                          "f'{x!r:>{w}}'",
                                          "r'\\d+'",
                                          "b'x'",
                                          "'''a\nb'''",
                                          "\"a # not a comment\"",
                                          "'it\\'s'",
                                          "\"\"",
                                          "u'x'",
                                          "rb\"\\x\"",
                                          "\"\"\"doc \"quoted\" \"\"\"",
                                          "'a\\\nb'",
                                          "Rb'\\''"};
    static const char *const Operators[] = {"(", ")", "[", "]", "{", "}", ",", ".", "=",
                                            ":", "*", "+", "-", "@", "%", "<", "!", ";"};
    switch (below(12)) {
    case 0:
    case 1:
      return Strings[below(std::size(Strings))];
    case 2:
      return Numbers[below(std::size(Numbers))];
    case 3:
    case 4:
    case 5:
    case 6:
    case 7:
      return Operators[below(std::size(Operators))];
    default:
      return Names[below(std::size(Names))];
    }
  }

  /// Trivia between tokens L and R (empty only where they stay two tokens).
  std::string trivia(const std::string &L, const std::string &R, Layout Lay) {
    static const char *const Lines[] = {
        "\n        ", "\n", "  # device=rank\n    ", "  # (\n", "\r\n    ", "\\\n    ", " \\\r\n"};
    if (Lay != Layout::Flat && chance(25))
      return Lines[below(std::size(Lines) - (Lay == Layout::Lines ? 2 : 0))];
    if (mayTouch(L, R) && chance(50))
      return "";
    return chance(80) ? " " : "  ";
  }

private:
  static bool isOperator(const std::string &T) {
    return T.size() == 1 && !llvm::isAlnum(T[0]) && T[0] != '_' && T[0] != '\'' && T[0] != '"';
  }
  static bool isNumber(const std::string &T) { return !T.empty() && llvm::isDigit(T[0]); }
  /// Whether L and R written without trivia between stay two tokens: one
  /// must be an operator, and a number must not meet a `.` (`1` `.` `5`).
  static bool mayTouch(const std::string &L, const std::string &R) {
    if (!isOperator(L) && !isOperator(R))
      return false;
    return !(isNumber(L) && R == ".") && !(L == "." && isNumber(R));
  }
};

void runCases(uint32_t Seed, int Cases, Layout RepLayout) {
  Generator G(Seed);
  int Failures = 0, WithEdits = 0, Flat = 0, Layered = 0;
  for (int I = 0; I < Cases; ++I) {
    std::string Src, Rep;
    ByteRange R;
    G.next(Src, R, Rep, RepLayout);
    std::string Broken = checkPromise(Src, R, Rep);
    if (!Broken.empty() && ++Failures <= 5)
      ADD_FAILURE() << "case " << I << ": " << Broken;
    WithEdits += !tokenEdits(Src, R, Rep, python::tokenize).empty();
    llvm::StringRef Old = llvm::StringRef(Src).slice(R.Begin, R.End);
    Flat += triviaOnly(Old, " \t");
    Layered += !triviaOnly(Old, " \t\r\n");
  }
  EXPECT_EQ(0, Failures) << "of " << Cases << " cases";
  EXPECT_GT(WithEdits, Cases / 2);
  EXPECT_GT(Flat, Cases / 5);
  EXPECT_GT(Layered, Cases / 5);
  std::printf("[ TokenDiff ] %d Python cases, %d with edits, %d without layout in Src[R], "
              "%d with comments or continuations in Src[R]\n",
              Cases, WithEdits, Flat, Layered);
}

TEST(TokenDiffProperty, GeneratorWritesWhatTheTokenizerReads) {
  Generator G(11);
  for (int I = 0; I < 500; ++I) {
    std::vector<std::string> Toks = G.tokens(24);
    std::string Text = G.join(Toks, Layout::LinesAndContinuations);
    EXPECT_EQ(Toks, tokenTexts(Text)) << shown(Text);
  }
}

TEST(TokenDiffProperty, RandomPythonSourcesAndReplacements) { runCases(1337, 4000, Layout::Lines); }

// Regression (see tests/unit/rewriters/TokenDiffTest.cpp): a replaced run
// ending in a line continuation keeps its line break before a kept comment.
TEST(TokenDiffProperty, RandomPythonReplacementsWithContinuations) {
  runCases(1338, 4000, Layout::LinesAndContinuations);
}

TEST(TokenDiffProperty, PythonContinuationBeforeKeptComment) {
  EXPECT_EQ("", checkPromise("torch.cuda.synchronize(rank  # which\n)", {0, 38},
                             "torch.accelerator.synchronize(rank + 1 \\\n)"));
}

// Regression: with a form feed as the kept trivia, an insertion whose text
// ends in a comment keeps the comment's line break (it commented out `y`).
TEST(TokenDiffProperty, FormFeedAfterInsertedComment) {
  EXPECT_EQ("", checkPromise("a\fy", {0, 3}, "a x  # z\ny"));
}

TEST(TokenDiffProperty, PythonEdgeCases) {
  auto Check = [](llvm::StringRef Src, llvm::StringRef Rep) {
    EXPECT_EQ("", checkPromise(Src, {0, static_cast<uint32_t>(Src.size())}, Rep));
  };
  Check("torch.cuda.synchronize(  # wait\n    device=rank,\n)",
        "torch.accelerator.synchronize(rank)");
  Check("f'cuda:{i}'", "torch.device('cuda', i)");
  Check("x.to('cuda')  # move\n", "x.to(device)");
  Check("torch.cuda.Stream(\n    device=d,  # which\n    priority=-1,\n)",
        "torch.Stream(d, priority=-1)");
  Check("'''a\n# not a comment\n'''", "'''a\n# not a comment\n'''");
  Check("a if c else \\\n    b", "a or b");
  Check("r'x' b'y'", "rb'x' b'y'");
}

} // namespace
} // namespace devport
