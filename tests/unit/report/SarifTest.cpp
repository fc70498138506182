//===--- SarifTest.cpp - The SARIF 2.1.0 format ---------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "report/Sarif.h"

#include "tests/support/Expected.h"
#include "tests/support/TestRules.h"

#include <gtest/gtest.h>

namespace devport {
namespace {

/// The run object of the log that Reports produce.
llvm::json::Object sarifRun(const RuleSet &Rules, const RootPaths &Root,
                            std::vector<FileReport> Reports, bool ShowKept = false) {
  std::string Out, Err;
  llvm::raw_string_ostream OS(Out), ES(Err);
  SarifOptions O;
  O.ToolVersion = "1.2.3";
  O.DocsUri = "https://example.org/docs/";
  O.InformationUri = "https://example.org/docs/cli.md";
  O.Rules = &Rules;
  O.Root = &Root;
  O.ShowKept = ShowKept;
  SarifReporter S(OS, ES, O);
  for (const FileReport &R : Reports)
    S.file(R);
  S.finish(Summary());
  OS.flush();
  auto Log = llvm::json::parse(Out);
  EXPECT_TRUE(bool(Log)) << Out;
  if (!Log) {
    llvm::consumeError(Log.takeError());
    return {};
  }
  const llvm::json::Object *L = Log->getAsObject();
  EXPECT_EQ("2.1.0", L->getString("version").getValueOr(""));
  return *L->getArray("runs")->front().getAsObject();
}

std::string str(const llvm::json::Value &V) { return llvm::formatv("{0}", V).str(); }

TEST(Sarif, DriverListsRulesWithHelp) {
  ASSERT_THAT_EXPECTED_VALUE(Rules, test::loadRules({test::SynchronizeRule,
                                                     test::DeviceCountRule}));
  ASSERT_THAT_EXPECTED_VALUE(Root, RootPaths::create("/"));
  llvm::json::Object Run = sarifRun(Rules, Root, {});
  const llvm::json::Object *Driver = Run.getObject("tool")->getObject("driver");
  EXPECT_EQ("devport", Driver->getString("name").getValueOr(""));
  EXPECT_EQ("1.2.3", Driver->getString("version").getValueOr(""));
  EXPECT_EQ("https://example.org/docs/cli.md", Driver->getString("informationUri").getValueOr(""));
  const llvm::json::Array *R = Driver->getArray("rules");
  ASSERT_EQ(2u, R->size());
  const llvm::json::Object *First = (*R)[0].getAsObject();
  EXPECT_EQ("cuda-device-count", First->getString("id").getValueOr(""));
  EXPECT_EQ("https://example.org/docs/rules/cuda-device-count.md",
            First->getString("helpUri").getValueOr(""));
  EXPECT_EQ("`torch.cuda.device_count()` counts CUDA devices only",
            First->getObject("shortDescription")->getString("text").getValueOr(""));
  EXPECT_TRUE(First->getObject("help")->getString("markdown").getValueOr("").startswith(
      "# cuda-device-count\n"));
  EXPECT_EQ("warning",
            First->getObject("defaultConfiguration")->getString("level").getValueOr(""));
  EXPECT_EQ("utf16CodeUnits", Run.getString("columnKind").getValueOr(""));
  EXPECT_EQ(R"({"%SRCROOT%":{"uri":"file:///"}})", str(*Run.get("originalUriBaseIds")));
  EXPECT_EQ("[]", str(*Run.get("results")));
}

TEST(Sarif, ResultsWithRegionsFixesAndSuppressions) {
  ASSERT_THAT_EXPECTED_VALUE(Rules, test::loadRules({test::SynchronizeRule,
                                                     test::DeviceCountRule}));
  ASSERT_THAT_EXPECTED_VALUE(Root, RootPaths::create("/"));
  FileReport R;
  R.Path = "/w/my dir/a#1.py";
  // U+1F600 is one code point and two UTF-16 code units.
  std::string Text = "s = \"\xF0\x9F\x98\x80\"; torch.cuda.synchronize()\nn = torch.cuda.device_count()\n";
  R.File.emplace(R.Path, Text);
  uint32_t B = static_cast<uint32_t>(Text.find("torch.cuda.s"));
  Diagnostic D;
  D.RuleId = "cuda-synchronize";
  D.Message = "m";
  D.Range = {B, B + 24};
  Fix X;
  X.App = Applicability::Unsafe;
  X.Edits.push_back(Edit::replacement({B + 6, B + 10}, "accelerator"));
  D.Fixes.push_back(X);
  D.Notes.push_back(Note::plain("why"));
  R.Findings.push_back(D);
  uint32_t C = static_cast<uint32_t>(Text.find("torch.cuda.d"));
  Diagnostic K;
  K.RuleId = "keep-something";
  K.Message = "must stay CUDA";
  K.Range = {C - 4, C + 25};
  K.Keeps.push_back({"cuda-device-count", {C, C + 25}});
  R.Kept.push_back(K);
  llvm::json::Object Run = sarifRun(Rules, Root, {R});
  const llvm::json::Array *Results = Run.getArray("results");
  ASSERT_EQ(2u, Results->size());
  const llvm::json::Object *F = (*Results)[0].getAsObject();
  EXPECT_EQ("cuda-synchronize", F->getString("ruleId").getValueOr(""));
  EXPECT_EQ(1, F->getInteger("ruleIndex").getValueOr(-1));
  EXPECT_EQ("warning", F->getString("level").getValueOr(""));
  // Column 10 in code points, 11 in UTF-16 code units.
  EXPECT_EQ(R"([{"physicalLocation":{"artifactLocation":{"uri":"w/my%20dir/a%231.py",)"
            R"("uriBaseId":"%SRCROOT%"},"region":{"endColumn":35,"endLine":1,)"
            R"("startColumn":11,"startLine":1}}}])",
            str(*F->get("locations")));
  EXPECT_EQ(R"j([{"artifactChanges":[{"artifactLocation":{"uri":"w/my%20dir/a%231.py",)j"
            R"j("uriBaseId":"%SRCROOT%"},"replacements":[{"deletedRegion":{"endColumn":21,)j"
            R"j("endLine":1,"startColumn":17,"startLine":1},"insertedContent":)j"
            R"j({"text":"accelerator"}}]}],"description":{"text":"fix (unsafe): )j"
            R"j(torch.accelerator.synchronize()"},"properties":{"applicability":"unsafe"}}])j",
            str(*F->get("fixes")));
  EXPECT_EQ(R"({"notes":["why"]})", str(*F->get("properties")));
  EXPECT_EQ(nullptr, F->get("suppressions"));
  // The finding that kept code accounts for: present, suppressed.
  const llvm::json::Object *S = (*Results)[1].getAsObject();
  EXPECT_EQ("cuda-device-count", S->getString("ruleId").getValueOr(""));
  EXPECT_EQ(0, S->getInteger("ruleIndex").getValueOr(-1));
  EXPECT_EQ(R"j([{"justification":"CUDA by design: must stay CUDA (keep rule keep-something)",)j"
            R"("kind":"external","status":"accepted"}])",
            str(*S->get("suppressions")));
  // An id the rule set lacks is described by id only, after the others.
  const llvm::json::Array *RulesA = Run.getObject("tool")->getObject("driver")->getArray("rules");
  EXPECT_EQ(2u, RulesA->size());
  llvm::json::Object WithKept = sarifRun(Rules, Root, {R}, /*ShowKept=*/true);
  const llvm::json::Array *All = WithKept.getArray("results");
  ASSERT_EQ(3u, All->size());
  const llvm::json::Object *KR = (*All)[1].getAsObject();
  EXPECT_EQ("keep-something", KR->getString("ruleId").getValueOr(""));
  EXPECT_EQ("informational", KR->getString("kind").getValueOr(""));
  EXPECT_EQ(2, KR->getInteger("ruleIndex").getValueOr(-1));
  EXPECT_EQ(R"([{"id":"keep-something"}])",
            str(llvm::json::Array{(*WithKept.getObject("tool")->getObject("driver")->getArray(
                "rules"))[2]}));
}

TEST(Sarif, FindingsSilencedInSourceArePresentAndSuppressed) {
  ASSERT_THAT_EXPECTED_VALUE(Rules, test::loadRules({test::SynchronizeRule}));
  ASSERT_THAT_EXPECTED_VALUE(Root, RootPaths::create("/"));
  FileReport R;
  R.Path = "/w/a.py";
  std::string Text = "torch.cuda.synchronize()  # devport: ignore[cuda-synchronize]\n";
  R.File.emplace(R.Path, Text);
  Diagnostic D;
  D.RuleId = "cuda-synchronize";
  D.Message = "m";
  D.Range = {0, 24};
  R.Suppressed.push_back(D);
  llvm::json::Object Run = sarifRun(Rules, Root, {R});
  const llvm::json::Array *Results = Run.getArray("results");
  ASSERT_EQ(1u, Results->size());
  const llvm::json::Object *S = (*Results)[0].getAsObject();
  EXPECT_EQ("cuda-synchronize", S->getString("ruleId").getValueOr(""));
  EXPECT_EQ(R"j([{"justification":"a `devport: ignore` comment on the finding's line",)j"
            R"("kind":"inSource","status":"accepted"}])",
            str(*S->get("suppressions")));
}

TEST(Sarif, ReadErrorsAreNotifications) {
  ASSERT_THAT_EXPECTED_VALUE(Rules, test::loadRules({test::SynchronizeRule}));
  ASSERT_THAT_EXPECTED_VALUE(Root, RootPaths::create("/"));
  FileReport R;
  R.Path = "/w/bad.py";
  R.Error = "/w/bad.py: binary file";
  llvm::json::Object Run = sarifRun(Rules, Root, {R});
  EXPECT_EQ(R"([{"executionSuccessful":true,"toolExecutionNotifications":[{"level":"error",)"
            R"("message":{"text":"/w/bad.py: binary file"}}]}])",
            str(*Run.get("invocations")));
}

} // namespace
} // namespace devport
