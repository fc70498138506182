//===--- WhereTest.cpp - Regex complexity of `where` constraints ----------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// regexComplexityProblem(): what a user rule's `where` regex may cost before
/// LLVM's engine compiles it (nested counted repetitions are copied).
///
//===----------------------------------------------------------------------===//

#include "core/Where.h"

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

} // namespace
} // namespace devport
