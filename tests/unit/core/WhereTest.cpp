//===--- WhereTest.cpp - Regex complexity of `where` constraints ----------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// regexComplexityProblem(): what a user rule's `where` regex may cost before
/// LLVM's engine compiles it (nested counted repetitions are copied); and
/// WhereConstraints::hold(), whose shortcuts (a required literal, a set of
/// exact words) must answer as the regex does.
///
//===----------------------------------------------------------------------===//

#include "core/Where.h"

#include "core/Metavariable.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

#include <gtest/gtest.h>

#include <random>

namespace devport {
namespace {

TEST(WhereRegex, OneQuotedStringIsTold) {
  // The rules' own: a prefix, quotes, no quote between, quotes.
  for (const char *Re :
       {"^[uU]?([\"'])cuda([:][0-9]*)?[\"']$", "^[uU]?([\"'])cuda(:[0-9]*)?[\"']$",
        "^[uU]?([\"']{1,3})cuda:([0-9]+)[\"']{1,3}$",
        "^[uU]?[\"']torch[.]cuda[.][A-Z][A-Za-z0-9]*Tensor[\"']$",
        "^([uU]?[\"'])([A-Za-z0-9_.]*)torch[.]cuda[.](memory[.])?(empty_cache|memory_stats)([\"'])"
        "$",
        "^[uU]?([\"'])(gpu|cuda|cuda:[0-9]+)[\"']$", "^\"cuda\"$", "^'a\\.b'$", "^rb'x'$"})
    EXPECT_TRUE(quotedStringCharacters(Re)) << Re;
  // What may match more than one token, or may not be a string at all.
  for (const char *Re : {"cuda",
                         "^cuda$",
                         "^_cuda",
                         "Backend[.]NCCL$",
                         "patch$",
                         "^[\"'].*[\"']$",
                         "^[\"'][^x]*[\"']$",
                         "^[\"'][a-z\"]*[\"']$",
                         "^[\"']a[\"'] [\"']b[\"']$",
                         "^[\"']a[\"']|^b$",
                         "^[\"']?cuda[\"']$",
                         "^[\"']cuda[\"']?$",
                         "^[\"']{0,1}cuda[\"']$",
                         "^[\"'](a|\")[\"']$",
                         "^[\"']\\s[\"']$",
                         "^[\"'][[:alpha:]][\"']$",
                         "^[\"']$",
                         "^[\"']cuda[\"']",
                         "[\"']cuda[\"']$",
                         "^x[0-9][\"']cuda[\"']$",
                         "^[\"']a(b[\"'])?$",
                         "^([\"']a)*[\"']$",
                         "^[\"']a[\"']+[\"']$"})
    EXPECT_FALSE(quotedStringCharacters(Re)) << Re;
}

TEST(WhereRegex, AQuotedStringRegexMatchesOneStringOfItsCharacters) {
  // Texts put together from prefixes, quotes and parts of the rules' words:
  // whatever such a regex matches is letters, a run of quotes, no quote,
  // a run of quotes, and only characters that it gives.
  const char *Regexes[] = {"^[uU]?([\"'])cuda(:[0-9]*)?[\"']$",
                           "^[uU]?([\"']{1,3})cuda:([0-9]+)[\"']{1,3}$",
                           "^([uU]?[\"'])([A-Za-z0-9_.]*)torch[.]cuda[.](set_)?device([\"'])$",
                           "^[uU]?([\"'])(gpu|cuda|cuda:[0-9]+)[\"']$"};
  const char *Prefixes[] = {"", "", "u", "U", "r", "b", "f", "x "};
  const char *Quotes[] = {"\"", "'", "\"\"\"", "'''", "\"'", ""};
  const char *Parts[] = {"cuda", ":",   "0",  "12", "torch.cuda.", "device", "set_",
                         "a",    "gpu", "\"", "'",  " ",           "x.y"};
  std::mt19937 Rng(20261128);
  auto Pick = [&](auto &A) { return std::string(A[Rng() % std::size(A)]); };
  for (const char *Re : Regexes) {
    std::optional<std::bitset<256>> Chars = quotedStringCharacters(Re);
    ASSERT_TRUE(Chars) << Re;
    llvm::Regex R(Re);
    unsigned Matched = 0;
    for (int I = 0; I < 200000; ++I) {
      std::string T = Pick(Prefixes) + Pick(Quotes);
      for (unsigned K = Rng() % 5; K > 0; --K)
        T += Pick(Parts);
      T += Pick(Quotes);
      if (!R.match(T))
        continue;
      ++Matched;
      for (char C : T)
        EXPECT_TRUE(Chars->test(static_cast<unsigned char>(C))) << Re << " matches " << T;
      llvm::StringRef S(T);
      S = S.drop_while([](char C) { return llvm::isAlpha(C); });
      llvm::StringRef Open = S.take_while([](char C) { return C == '"' || C == '\''; });
      llvm::StringRef Rest = S.drop_front(Open.size());
      llvm::StringRef Close = Rest.substr(Rest.find_last_not_of("\"'") + 1);
      EXPECT_FALSE(Open.empty()) << T;
      EXPECT_FALSE(Close.empty()) << T;
      EXPECT_EQ(llvm::StringRef::npos, Rest.drop_back(Close.size()).find_first_of("\"'")) << T;
    }
    EXPECT_GT(Matched, 10u) << Re;
  }
}

TEST(WhereRegex, OrdinaryRegexesPass) {
  for (const char *Re :
       {"^\"cuda:([0-9]+)\"$", "^[uU]?([\"']{1,3})cuda:([0-9]+)[\"']{1,3}$", "(a|aa)*b", "^None$",
        "[[:alpha:]_]+", "x{1000}", "(ab){50}c{10}", "[]{}]{3}", "\\{{5}"})
    EXPECT_EQ("", regexComplexityProblem(Re)) << Re;
}

TEST(WhereRegex, NestedCountedRepetitionIsRefused) {
  for (const char *Re : {"((((a{255}){255}){255}){255})", "((a{200}){200})", "(x{101}){100}",
                         "((ab){100}){100}", "(a{100,}){101}"})
    EXPECT_NE("", regexComplexityProblem(Re)) << Re;
  EXPECT_NE("", regexComplexityProblem(std::string(1001, 'a')));
  EXPECT_NE(std::string::npos,
            regexComplexityProblem("(a{255}){255}").find("more than 10000 positions"));
}

TEST(WhereRegex, RequiredLiteralSkipsOptionalGroupsAndAlternatives) {
  struct Case {
    const char *Re, *Literal;
  } Cases[] = {
      // A group that may be absent requires nothing it contains.
      {"x(abcd)?y", "x"},
      {"ab(cdef)*", "ab"},
      {"(((cuda)))?k", "k"},
      {"(cuda){0,2}", ""},
      {"^\"cuda(:[0-9]+)?\"$", "\"cuda"},
      // Groups that must be there still do.
      {"x(abcd)y", "abcd"},
      {"(cuda)+", "cuda"},
      {"((cu)da)?x(cuda)", "cuda"},
      // An alternative gives up only what its group holds.
      {"^([uU]?[\"'])([A-Za-z0-9_.]*)torch[.]cuda[.](memory[.]|random[.])?"
       "(is_available|device_count)([\"'])$",
       "torch.cuda."},
      {"(a|b)cuda", "cuda"},
      {"x(abc|de)", "x"},
      {"(ab(cdef|gh)ij)", "ab"},
      {"(cuda|xpu)", ""},
      {"^(cuda|xpu)$", ""},
      {"cuda|xpu", ""},
      {"(cuda)|xpu", ""},
      {"a\\|b", "a|b"}, // an escaped bar is a character
  };
  for (const Case &K : Cases)
    EXPECT_EQ(K.Literal, requiredLiteral(K.Re)) << K.Re;
}

TEST(WhereRegex, RequiredLiteralIsInEveryMatch) {
  // On texts that match, the literal is there.
  struct Case {
    const char *Re;
    std::vector<const char *> Matching;
  } Cases[] = {
      {"x(abcd)?y", {"xy", "xabcdy"}},
      {"(a|b)cuda", {"acuda", "bcuda"}},
      {"x(abc|de)", {"xabc", "xde"}},
      {"(ab(cdef|gh)ij)", {"abcdefij", "abghij"}},
      {"^\"torch[.]cuda[.](memory[.]|random[.])?(seed|init)\"$",
       {"\"torch.cuda.seed\"", "\"torch.cuda.memory.init\""}},
  };
  for (const Case &K : Cases) {
    std::string Lit = requiredLiteral(K.Re);
    llvm::Regex R(K.Re);
    for (const char *T : K.Matching) {
      ASSERT_TRUE(R.match(T)) << K.Re << " on " << T;
      EXPECT_NE(std::string::npos, std::string(T).find(Lit)) << K.Re << ": " << Lit << " in " << T;
    }
  }
}

/// hold() on one metavariable bound to Text, for a rule with that regex.
bool holds(llvm::StringRef Re, llvm::StringRef Text, bool Not = false) {
  Rule R;
  R.Id = "r";
  MetavarConstraint C;
  (Not ? C.NotRegex : C.Regex) = Re.str();
  R.Where["X"] = C;
  WhereConstraints W;
  W.add(R, {"X"}, [](const RuleLoc &, const std::string &) { ADD_FAILURE(); });
  llvm::SmallVector<BoundVar, 4> B{{"X", {0, static_cast<uint32_t>(Text.size())}}};
  return W.hold(R, B, Text);
}

TEST(WhereRegex, ShortcutsAnswerAsTheRegex) {
  const char *Res[] = {"^(USE_CUDA|WITH_CUDA|__CUDACC__)$",
                       "^(CPU|CUDA|TPU)$",
                       "^CUDA$",
                       "^(CUDA)$",
                       "CUDA",
                       "^\"cuda(:[0-9]+)?\"$",
                       "^\"[A-Z]+\"$",
                       "([dD]evice\\(\\)|[dD]evice|[dD]ev)$",
                       "^(a.b|c)$",
                       "^a|c$",
                       "^(a)|(c)$",
                       "x(abcd)?y",
                       "^$"};
  const char *Texts[] = {"USE_CUDA", "USE_CUDAX", "XUSE_CUDA", "WITH_CUDA", "__CUDACC__", "CUDA",
                         "CUDA_", "cuda", "TPU", "CPU", "\"cuda\"", "\"cuda:0\"",
                         "\"cuda:\"", "\"TPU\"", "x.device()", "dev", "a", "", "axb",
                         "c", "ac", "ca", "xy", "xabcdy", "xabcy", "USE_CUDA|WITH_CUDA"};
  for (const char *Re : Res) {
    llvm::Regex Ref(Re);
    ASSERT_TRUE(Ref.isValid()) << Re;
    for (const char *T : Texts) {
      EXPECT_EQ(Ref.match(T), holds(Re, T)) << Re << " on " << T;
      EXPECT_EQ(!Ref.match(T), holds(Re, T, /*Not=*/true)) << Re << " on " << T;
    }
  }
}

TEST(WhereRegex, FiniteLanguageListsTheStringsOfAnchoredFiniteRegexes) {
  auto Q = [](const char *Re) { return finiteLanguage(Re, 256); };
  auto Cuda = Q("^[uU]?([\"'])cuda[\"']$");
  ASSERT_TRUE(Cuda);
  EXPECT_EQ(12u, Cuda->size());
  EXPECT_TRUE(llvm::is_contained(*Cuda, "u\"cuda'"));
  EXPECT_EQ((std::vector<std::string>{"DoubleTensor", "FloatTensor"}),
            *Q("^(Float|Double)Tensor$"));
  EXPECT_EQ((std::vector<std::string>{"xx", "xxx"}), *Q("^x{2,3}$"));
  EXPECT_EQ((std::vector<std::string>{"", "a.b"}), *Q("^(a\\.b)?$"));
  EXPECT_EQ(10u, Q("^[0-9]$")->size());
  // Infinite, unanchored, alternatives at the top, or past the limit: nothing.
  for (const char *Re :
       {"^[0-9]+$", "^a*$", "^a.b$", "cuda", "^cuda", "cuda$", "^a|b$", "^(a|b){5}$", "^[^a]$",
        "^[[:alpha:]]$", "^\\d$", "^a{2,}$", "^[0-9][0-9][0-9]$", "^a??$", "^a\\$"})
    EXPECT_FALSE(Q(Re)) << Re;
  EXPECT_TRUE(finiteLanguage("^[0-9][0-9]$", 100));
  EXPECT_FALSE(finiteLanguage("^[0-9][0-9]$", 99));
}

TEST(WhereRegex, CaselessLiteralAndAlternativeLiterals) {
  EXPECT_EQ("dev", caselessLiteral("[Dd][Ee][Vv]"));
  EXPECT_EQ("device_map", caselessLiteral("[Dd][Ee][Vv][Ii][Cc][Ee]_[Mm][Aa][Pp]"));
  EXPECT_EQ("d.x_", caselessLiteral("[dD]\\.[Xx]_"));
  for (const char *Re :
       {"[Dd]ev", "dev", "[Dd][Ee][Vv]+", "^[Dd]", "[Dd][Ee][Vv]$", "[DE]", "[Dd]|[Ee]", "[dd]"})
    EXPECT_FALSE(caselessLiteral(Re)) << Re;
  EXPECT_EQ((std::vector<std::string>{"cudnn", "SM", "version.cuda", "nccl"}),
            *alternativeLiterals("cudnn|SM[0-9]|version\\.cuda|nccl"));
  EXPECT_EQ((std::vector<std::string>{"a", "b"}), *alternativeLiterals("^a|b$"));
  for (const char *Re :
       {"(a|b)", "cuda", "a|[0-9]", "a|", "[a|b]c", "a\\|b", "ab|cd(ef", "ab|cd[ef", "ab|cd\\"})
    EXPECT_FALSE(alternativeLiterals(Re)) << Re;
}

TEST(WhereRegex, RequiredAlternativesAreThoseOfAGroupThatEveryMatchPassesThrough) {
  using V = std::vector<std::string>;
  EXPECT_EQ((V{"CUDA", "GPU"}), requiredAlternatives("^[A-Z0-9_]*(CUDA|GPU)[A-Z0-9_]*$"));
  // The first group, of quotes, has no alternatives; the second has.
  EXPECT_EQ((V{"gpu", "cuda", "cuda:"}),
            requiredAlternatives("^[uU]?([\"'])(gpu|cuda|cuda:[0-9]+)[\"']$"));
  EXPECT_EQ((V{"a", "b"}), requiredAlternatives("a|b"));         // the whole's
  EXPECT_EQ((V{"ab", "c"}), requiredAlternatives("x*(ab|c)+y")); // one or more
  for (const char *Re : {"(a|b)?c", "(a|b)*c", "(a|b){0,1}c", "(a|b)x|[0-9]+", "(a|[0-9])x", "cuda",
                         "(cuda)", "[(a|b)]", "(a|b"})
    EXPECT_TRUE(requiredAlternatives(Re).empty()) << Re;
  // Every text that a regex matches holds one of them.
  std::mt19937 Rng(7);
  const char Chars[] = "abcxyGPUCDA_019:'\"";
  for (const char *Re : {"^[A-Z0-9_]*(CUDA|GPU)[A-Z0-9_]*$", "x*(ab|c)+y", "(a|b)(c|d)",
                         "^[uU]?([\"'])(gpu|cuda|cuda:[0-9]+)[\"']$"}) {
    llvm::Regex R(Re);
    std::vector<std::string> Any = requiredAlternatives(Re);
    ASSERT_FALSE(Any.empty()) << Re;
    for (int K = 0; K < 20000; ++K) {
      std::string T;
      for (int L = Rng() % 9; L > 0; --L)
        T += Chars[Rng() % (sizeof(Chars) - 1)];
      if (K % 4 == 0) // a piece that may match
        T.insert(Rng() % (T.size() + 1), Any[Rng() % Any.size()]);
      if (R.match(T))
        EXPECT_TRUE(
            llvm::any_of(Any, [&](const std::string &W) { return T.find(W) != std::string::npos; }))
            << Re << " on " << T;
    }
  }
}

TEST(WhereRegex, ShortcutsAnswerAsTheRegexOnManyTexts) {
  // The rules' regexes and more of the shapes the shortcuts read, on texts
  // drawn from their strings (each with one character changed, dropped or
  // doubled, and with a prefix or suffix) and random texts over the
  // characters they name: hold() answers as LLVM's engine, with `regex` and
  // with `not-regex`.
  const char *Res[] = {
      "^[uU]?([\"'])cuda[\"']$",
      "^[uU]?([\"'])nccl[\"']$",
      "[Dd][Ee][Vv]",
      "[Bb][Aa][Cc][Kk][Ee][Nn][Dd]",
      "[Dd][Ee][Vv][Ii][Cc][Ee]_[Mm][Aa][Pp]",
      "get_device_capability|cudnn|nvtx|CUDAGraph|_sleep|version\\.cuda|nccl|CUDNN|SM[0-9]",
      "^[uU]?([\"'])cuda(:[0-9]*)?[\"']$",
      "^[uU]?([\"']{1,3})cuda:([0-9]+)[\"']{1,3}$",
      "^(Float|Double|Half|BFloat16|Long|Int|Short|Char|Byte|Bool|Complex(Float|Double))Tensor$",
      "^[uU]?[\"'](is_available|device_count|synchronize)[\"']$",
      "^[uU]?([\"'])(gpu|cuda|cuda:[0-9]+)[\"']$",
      "^[0-9]+$|(^|[.])(device|dev)$|_device$",
      "(^|[.])(device|dev)$|_device$",
      "^$|^(non_blocking|memory_format)[[:space:]]*=",
      "^[A-Z0-9_]*(CUDA|GPU)[A-Z0-9_]*$",
      "(^|,)[[:space:]]*device[[:space:]]*=",
      "patch$",
      "cuda|nccl",
      "cuda|xpu|mps",
      "^a|b$",
      "^x{2,3}$",
      "^(a\\.b)?c$",
      "^[a-c][0-2]?$",
      "[Xx]\\.[Yy]",
      "^[uU]?(\"|'){1,2}cu$"};
  std::mt19937 Rand(11);
  const std::string Alphabet = "cudaCUDAnclgpuGPUdevDEVic_mapMAP:0123456789'\"uU. ,=xXyY";
  for (const char *Re : Res) {
    llvm::Regex Ref(Re);
    ASSERT_TRUE(Ref.isValid()) << Re;
    std::vector<std::string> Texts;
    std::vector<std::string> Seeds = {"",   "cuda",         "\"cuda\"", "dev", "x.y",         "xx",
                                      "ac", "a_device_map", "backend",  "SM8", "version.cuda"};
    if (auto Words = finiteLanguage(Re, 256))
      llvm::append_range(Seeds, *Words);
    for (size_t N = Seeds.size(), K = 0; K < N; ++K) {
      std::string Upper = Seeds[K], Mixed = Seeds[K];
      for (size_t I = 0; I < Upper.size(); ++I) {
        Upper[I] = llvm::toUpper(Upper[I]);
        Mixed[I] = I % 2 ? llvm::toUpper(Mixed[I]) : Mixed[I];
      }
      Seeds.push_back(Upper);
      Seeds.push_back(Mixed);
    }
    for (const std::string &S : Seeds) {
      Texts.push_back(S);
      Texts.push_back("a" + S);
      Texts.push_back(S + "a");
      for (size_t I = 0; I < S.size(); ++I) {
        Texts.push_back(S.substr(0, I) + S.substr(I + 1));
        Texts.push_back(S.substr(0, I + 1) + S.substr(I));
        for (char C : {'c', 'C', '\'', '"', '0', '.', 'x'}) {
          std::string T = S;
          T[I] = C;
          Texts.push_back(T);
        }
      }
    }
    for (int K = 0; K < 300; ++K) {
      std::string T;
      for (int L = Rand() % 16; L > 0; --L)
        T += Alphabet[Rand() % Alphabet.size()];
      Texts.push_back(T);
    }
    for (const std::string &T : Texts) {
      ASSERT_EQ(Ref.match(T), holds(Re, T)) << Re << " on " << T;
      ASSERT_EQ(!Ref.match(T), holds(Re, T, /*Not=*/true)) << Re << " on " << T;
    }
  }
}

TEST(WhereRegex, CapturesStillBind) {
  Rule R;
  R.Id = "r";
  MetavarConstraint C;
  C.Regex = "^\"cuda:([0-9]+)\"$";
  C.Captures = {"I"};
  R.Where["S"] = C;
  WhereConstraints W;
  W.add(R, {"S"}, [](const RuleLoc &, const std::string &) { ADD_FAILURE(); });
  llvm::StringRef Src = "f(\"cuda:12\")";
  llvm::SmallVector<BoundVar, 4> B{{"S", {2, 11}}};
  ASSERT_TRUE(W.hold(R, B, Src));
  ASSERT_EQ(2u, B.size());
  EXPECT_EQ("I", B[1].Name);
  EXPECT_EQ("12", Src.slice(B[1].Range.Begin, B[1].Range.End));
}

} // namespace
} // namespace devport
