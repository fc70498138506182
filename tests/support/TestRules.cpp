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

const char *const SynchronizeRule = R"yaml(id: cuda-synchronize
language: python
category: device-runtime
severity: warning
message: "`torch.cuda.synchronize()` waits for CUDA devices only"
any:
  - torch.cuda.synchronize()
  - torch.cuda.synchronize($DEV)
  - torch.cuda.synchronize(device=$DEV)
fix:
  - since: "2.6"
    template: torch.accelerator.synchronize($DEV)
)yaml";

const char *const DeviceCountRule = R"yaml(id: cuda-device-count
language: python
category: device-runtime
severity: warning
message: "`torch.cuda.device_count()` counts CUDA devices only"
pattern: torch.cuda.device_count()
fix:
  - since: "2.6"
    template: torch.accelerator.device_count()
)yaml";

const char *const IsAvailableRule = R"yaml(id: cuda-is-available
language: python
category: device-runtime
severity: warning
message: "`torch.cuda.is_available()` checks for CUDA only"
pattern: torch.cuda.is_available()
)yaml";

} // namespace devport::test
