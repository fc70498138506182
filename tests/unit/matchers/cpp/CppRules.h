//===--- CppRules.h - The repository's C++ rules, compiled lexically ------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Shared by the lexical engine's unit tests: rules/cpp loaded from the
/// source tree and compiled once (patterns alone, and by the backend).
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_TESTS_UNIT_MATCHERS_CPP_CPPRULES_H
#define DEVPORT_TESTS_UNIT_MATCHERS_CPP_CPPRULES_H

#include "matchers/cpp/CppBackend.h"
#include "matchers/cpp/CppMatcher.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

namespace devport::cpp {

/// The rules (kept alive) and their compiled patterns.
struct CompiledCppRules {
  RuleSet Rules;
  std::unique_ptr<CppMatcher> M;
};

/// rules/cpp compiled, once; M is null (and the test failed) if they do not
/// load or compile.
inline const CompiledCppRules &cppRules() {
  static CompiledCppRules C = [] {
    CompiledCppRules Out;
    auto Rules = RuleSet::loadDirectory(DEVPORT_SOURCE_DIR "/rules/cpp");
    EXPECT_TRUE(bool(Rules)) << (Rules ? "" : llvm::toString(Rules.takeError()));
    if (!Rules)
      return Out;
    Out.Rules = std::move(*Rules);
    std::vector<const Rule *> Ptrs;
    for (const auto &R : Out.Rules.rules())
      Ptrs.push_back(R.get());
    auto M = CppMatcher::compile(Ptrs);
    EXPECT_TRUE(bool(M)) << (M ? "" : llvm::toString(M.takeError()));
    if (M)
      Out.M = std::move(*M);
    return Out;
  }();
  return C;
}

/// rules/cpp compiled by the C++ backend with the semantic engine off (no
/// compile database read: the lexical engine, region lexing and the roles
/// are what these tests are about), once; null (and the test failed) if
/// they do not compile.
inline const CompiledRules *lexicalBackendRules() {
  static std::unique_ptr<CompiledRules> C = []() -> std::unique_ptr<CompiledRules> {
    BackendOptions Lexical;
    Lexical.Semantic = false;
    auto R = CppBackend().compile(cppRules().Rules, Lexical);
    EXPECT_TRUE(bool(R)) << (R ? "" : llvm::toString(R.takeError()));
    return R ? std::move(*R) : nullptr;
  }();
  return C.get();
}

} // namespace devport::cpp

#endif
