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

#include "llvm/Support/Regex.h"

#include <gtest/gtest.h>

namespace devport {
namespace {

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
