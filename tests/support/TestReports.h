//===--- TestReports.h - FileReports written inline in tests --------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// reportOf(): the FileReport a check would hand a Reporter, built from
/// annotated code (tests/support/Annotations.h) instead of a run, so that the
/// Reporter, baseline and HTML report tests state their findings where they
/// are in the text.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_TESTS_SUPPORT_TESTREPORTS_H
#define DEVPORT_TESTS_SUPPORT_TESTREPORTS_H

#include "core/Outcome.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace devport::test {

/// A finding of a test report: its rule, and its fix's applicability
/// (nullopt: no fix).
struct TestFinding {
  TestFinding(const char *Rule, std::optional<Applicability> Fix = std::nullopt)
      : Rule(Rule), Fix(Fix) {}
  TestFinding(std::string Rule, std::optional<Applicability> Fix = std::nullopt)
      : Rule(std::move(Rule)), Fix(Fix) {}
  std::string Rule;
  std::optional<Applicability> Fix;
};

/// A Diagnostic of Rule at At with Message, and a fix of App when given.
Diagnostic findingOf(std::string Rule, ByteRange At, std::optional<Applicability> App,
                     std::string Message = "message");

/// Path's report: the text of Code (Annotations markup), and a finding per
/// unnamed range of Code, in order, as Findings says (a test failure if the
/// counts differ).
FileReport reportOf(const std::string &Path, llvm::StringRef Code,
                    const std::vector<TestFinding> &Findings);

} // namespace devport::test

#endif
