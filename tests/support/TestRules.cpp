//===--- TestRules.cpp - Small rule sets written inline in tests ----------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "tests/support/TestRules.h"

#include <string>

namespace devport::test {

namespace {

/// The value of the first `id:` line of Yaml, or "" (the loader then
/// reports the missing id itself).
std::string idOf(llvm::StringRef Yaml) {
  while (!Yaml.empty()) {
    auto [Line, Rest] = Yaml.split('\n');
    Yaml = Rest;
    if (Line.consume_front("id:"))
      return Line.trim().trim("\"'").str();
  }
  return "";
}

} // namespace

llvm::Expected<RuleSet> loadRules(llvm::ArrayRef<llvm::StringRef> Yamls) {
  RuleSet All;
  for (llvm::StringRef Yaml : Yamls) {
    std::string Id = idOf(Yaml);
    auto One = RuleSet::loadBuffer(Id.empty() ? "" : Id + ".yaml", Yaml);
    if (!One)
      return One.takeError();
    if (llvm::Error Err = All.merge(std::move(*One)))
      return std::move(Err);
  }
  return All;
}

} // namespace devport::test
