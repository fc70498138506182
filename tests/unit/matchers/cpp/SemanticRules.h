//===--- SemanticRules.h - Rule files compiled for the semantic engine ----===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Shared by the semantic engine's unit tests and its integration tests on
/// the real PyTorch headers: rule files written in the test, loaded and their
/// matchers compiled.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_TESTS_UNIT_MATCHERS_CPP_SEMANTICRULES_H
#define DEVPORT_TESTS_UNIT_MATCHERS_CPP_SEMANTICRULES_H

#include "matchers/cpp/Semantic.h"
#include "tests/support/TestRules.h"

#include <memory>
#include <string>
#include <vector>

namespace devport::cpp {

/// The rules (kept alive) and their compiled matchers.
struct CompiledSemanticRules {
  RuleSet Rules;
  std::unique_ptr<SemanticMatchers> M;
};

inline llvm::Expected<CompiledSemanticRules> compileSemanticRules(llvm::ArrayRef<std::string> Yamls) {
  std::vector<llvm::StringRef> Refs(Yamls.begin(), Yamls.end());
  auto Rules = devport::test::loadRules(Refs);
  if (!Rules)
    return Rules.takeError();
  CompiledSemanticRules C{std::move(*Rules), nullptr};
  std::vector<const Rule *> Ptrs;
  for (const auto &R : C.Rules.rules())
    Ptrs.push_back(R.get());
  auto M = SemanticMatchers::compile(Ptrs);
  if (!M)
    return M.takeError();
  C.M = std::move(*M);
  return std::move(C);
}

} // namespace devport::cpp

#endif
