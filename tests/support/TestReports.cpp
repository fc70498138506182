//===--- TestReports.cpp - FileReports written inline in tests ------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "tests/support/TestReports.h"

#include "tests/support/Annotations.h"

#include <gtest/gtest.h>

namespace devport::test {

Diagnostic findingOf(std::string Rule, ByteRange At, std::optional<Applicability> App,
                     std::string Message) {
  Diagnostic D;
  D.RuleId = std::move(Rule);
  D.Message = std::move(Message);
  D.Range = At;
  if (App) {
    Fix F;
    F.App = *App;
    D.Fixes.push_back(F);
  }
  return D;
}

FileReport reportOf(const std::string &Path, llvm::StringRef Code,
                    const std::vector<TestFinding> &Findings) {
  Annotations A(Code);
  FileReport R;
  R.Path = Path;
  R.File.emplace(Path, A.code());
  std::vector<ByteRange> Ranges = A.ranges();
  EXPECT_EQ(Ranges.size(), Findings.size()) << Code.str();
  for (size_t I = 0; I < Ranges.size() && I < Findings.size(); ++I)
    R.Findings.push_back(findingOf(Findings[I].Rule, Ranges[I], Findings[I].Fix));
  return R;
}

} // namespace devport::test
