//===--- StatisticsTest.cpp - Findings counted per rule -------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "report/Statistics.h"

#include "tests/support/Expected.h"
#include "tests/support/TestRules.h"

#include <gtest/gtest.h>

namespace devport {
namespace {

Diagnostic finding(const char *Rule, std::optional<Applicability> App) {
  Diagnostic D;
  D.RuleId = Rule;
  if (App) {
    Fix X;
    X.App = *App;
    D.Fixes.push_back(X);
  }
  return D;
}

TEST(Statistics, CountsPerRule) {
  ASSERT_THAT_EXPECTED_VALUE(Rules, test::loadRules({test::SynchronizeRule,
                                                     test::DeviceCountRule}));
  Statistics S(&Rules);
  FileReport A;
  A.Findings = {finding("cuda-synchronize", Applicability::Safe),
                finding("cuda-synchronize", Applicability::Unsafe),
                finding("cuda-synchronize", std::nullopt),
                finding("cuda-device-count", Applicability::DisplayOnly)};
  Diagnostic K;
  K.RuleId = "keep-nvtx";
  K.Keeps = {{"cuda-device-count", {0, 1}}, {"cuda-device-count", {2, 3}}};
  A.Kept = {K};
  S.add(A);
  FileReport B;
  B.Findings = {finding("cuda-synchronize", Applicability::Safe)};
  S.add(B);

  std::vector<RuleStatistics> Rows = S.rows();
  ASSERT_EQ(3u, Rows.size());
  EXPECT_EQ("cuda-synchronize", Rows[0].Rule);
  EXPECT_EQ("device-runtime", Rows[0].Category);
  EXPECT_EQ(4u, Rows[0].Findings);
  EXPECT_EQ(2u, Rows[0].Safe);
  EXPECT_EQ(1u, Rows[0].Unsafe);
  EXPECT_EQ(1u, Rows[0].ReportOnly);
  EXPECT_EQ("cuda-device-count", Rows[1].Rule);
  EXPECT_EQ(1u, Rows[1].ReportOnly);
  EXPECT_EQ(2u, Rows[1].Kept); // its findings inside kept code
  EXPECT_EQ("keep-nvtx", Rows[2].Rule);
  EXPECT_EQ("", Rows[2].Category); // not in the rule set
  EXPECT_EQ(1u, Rows[2].Kept);     // its matches

  std::string Text;
  llvm::raw_string_ostream OS(Text);
  S.renderText(OS);
  OS.flush();
  EXPECT_EQ("rule               category        findings  safe  unsafe  report-only  kept\n"
            "cuda-synchronize   device-runtime         4     2       1            1     0\n"
            "cuda-device-count  device-runtime         1     0       0            1     2\n"
            "keep-nvtx                                 0     0       0            0     1\n"
            "total                                     5     2       1            2     3\n",
            Text);

  llvm::json::Value J = S.toJSON();
  EXPECT_EQ(R"([{"category":"device-runtime","findings":4,"fixable_safe":2,"fixable_unsafe":1,)"
            R"("kept":0,"report_only":1,"rule":"cuda-synchronize"},)"
            R"({"category":"device-runtime","findings":1,"fixable_safe":0,"fixable_unsafe":0,)"
            R"("kept":2,"report_only":1,"rule":"cuda-device-count"},)"
            R"({"category":"","findings":0,"fixable_safe":0,"fixable_unsafe":0,"kept":1,)"
            R"("report_only":0,"rule":"keep-nvtx"}])",
            llvm::formatv("{0}", J).str());
}

} // namespace
} // namespace devport
