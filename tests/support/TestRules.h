//===--- TestRules.h - Small rule sets written inline in tests ------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// loadRules(): a RuleSet from rule files written in the test itself, so
/// that a test depends on the few rules it names and not on the shipped
/// database under rules/. Used by the engine, project and batch-run tests.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_TESTS_SUPPORT_TESTRULES_H
#define DEVPORT_TESTS_SUPPORT_TESTRULES_H

#include "core/Rule.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace devport::test {

/// Loads each of Yamls as one rule file, named `<id>.yaml` after its `id:`
/// line (as the loader requires), and merges them. Fails with the loader's
/// "file:line:col: reason" text for an invalid rule or a duplicate id.
llvm::Expected<RuleSet> loadRules(llvm::ArrayRef<llvm::StringRef> Yamls);

/// Small rules shared by the engine, project and batch-run tests.
/// cuda-synchronize: `torch.cuda.synchronize([$DEV])`, a safe fix (2.6).
extern const char *const SynchronizeRule;
/// cuda-device-count: `torch.cuda.device_count()`, a safe fix (2.6).
extern const char *const DeviceCountRule;
/// cuda-is-available: `torch.cuda.is_available()`, report only.
extern const char *const IsAvailableRule;

} // namespace devport::test

#endif
