//===--- BaselineTest.cpp - Matching findings to an earlier run -----------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "report/Baseline.h"

#include "report/Reporters.h"

#include "tests/support/Expected.h"
#include "tests/support/TestFiles.h"
#include "tests/support/TestReports.h"

#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

namespace devport {
namespace {

using test::reportOf;

/// The JSON `devport check --format json` prints for Reports.
std::string jsonOf(const std::vector<FileReport> &Reports) {
  std::string S, E;
  llvm::raw_string_ostream Out(S), Err(E);
  {
    JsonReporter J(Out, Err, ReportOptions{});
    Summary Sum;
    for (const FileReport &R : Reports) {
      J.file(R);
      Sum.Findings += R.Findings.size();
    }
    J.finish(Sum);
  }
  return Out.str();
}

Baseline baselineOf(const std::vector<FileReport> &Reports) {
  auto B = Baseline::parse(jsonOf(Reports), "old.json");
  if (!B) {
    ADD_FAILURE() << llvm::toString(B.takeError());
    return *Baseline::parse(R"({"diagnostics": []})", "empty.json");
  }
  return std::move(*B);
}

std::vector<bool> matchOf(Baseline &B, const FileReport &R) { return B.match(*R.File, R.Findings); }

const char *Old = "import torch\n"
                  "[[torch.cuda.synchronize()]]\n"
                  "x = y.[[cuda]]()\n";

TEST(Baseline, JsonCarriesFingerprints) {
  auto Doc =
      llvm::json::parse(jsonOf({reportOf("a.py", Old, {"cuda-synchronize", "tensor-cuda"})}));
  ASSERT_TRUE(bool(Doc)) << llvm::toString(Doc.takeError());
  const llvm::json::Array *Ds = Doc->getAsObject()->getArray("diagnostics");
  ASSERT_EQ(2u, Ds->size());
  auto FP = (*Ds)[0].getAsObject()->getString("fingerprint");
  ASSERT_TRUE(FP.hasValue());
  EXPECT_EQ(18u, FP->size()) << FP->str(); // 16 hex digits, ":1"
  EXPECT_TRUE(FP->endswith(":1")) << FP->str();
}

TEST(Baseline, LineShiftsStillMatch) {
  Baseline B = baselineOf({reportOf("a.py", Old, {"cuda-synchronize", "tensor-cuda"})});
  FileReport Now = reportOf("a.py",
                            "import torch\n"
                            "import os\n\n\n"
                            "[[torch.cuda.synchronize()]]\n"
                            "# a comment\n"
                            "x = y.[[cuda]]()\n",
                            {"cuda-synchronize", "tensor-cuda"});
  EXPECT_EQ((std::vector<bool>{true, true}), matchOf(B, Now));
  EXPECT_TRUE(B.unmatched().empty());
}

TEST(Baseline, WhitespaceDoesNotMatterButTheLineDoes) {
  Baseline B = baselineOf({reportOf("a.py", Old, {"cuda-synchronize", "tensor-cuda"})});
  FileReport Now = reportOf("a.py",
                            "import torch\n"
                            "if True:\n"
                            "    [[torch.cuda.synchronize( )]]\n"
                            "x = z.[[cuda]]()\n",
                            {"cuda-synchronize", "tensor-cuda"});
  EXPECT_EQ((std::vector<bool>{true, false}), matchOf(B, Now));
  ASSERT_EQ(1u, B.unmatched().size());
  EXPECT_EQ("tensor-cuda", B.unmatched()[0]->Rule);
  EXPECT_EQ(3, B.unmatched()[0]->Line);
}

TEST(Baseline, DuplicatesCountByOccurrence) {
  const char *Two = "a = x.[[cuda]]()\n"
                    "a = x.[[cuda]]()\n";
  Baseline B = baselineOf({reportOf("a.py", Two, {"tensor-cuda", "tensor-cuda"})});
  // One more of the same line: the first two are known, the third is new.
  FileReport Three = reportOf("a.py",
                              "a = x.[[cuda]]()\n"
                              "a = x.[[cuda]]()\n"
                              "a = x.[[cuda]]()\n",
                              {"tensor-cuda", "tensor-cuda", "tensor-cuda"});
  EXPECT_EQ((std::vector<bool>{true, true, false}), matchOf(B, Three));

  // One fewer: one known, one fixed.
  Baseline B2 = baselineOf({reportOf("a.py", Two, {"tensor-cuda", "tensor-cuda"})});
  FileReport One = reportOf("a.py", "a = x.[[cuda]]()\n", {"tensor-cuda"});
  EXPECT_EQ((std::vector<bool>{true}), matchOf(B2, One));
  EXPECT_EQ(1u, B2.unmatched().size());
}

TEST(Baseline, TwoRulesOnOneLineAreCountedApart) {
  Baseline B =
      baselineOf({reportOf("a.py", "[[torch.cuda.x]]([[a.cuda]]())\n", {"rule-a", "rule-b"})});
  FileReport Now = reportOf("a.py", "\n[[torch.cuda.x]]([[a.cuda]]())\n", {"rule-b", "rule-a"});
  EXPECT_EQ((std::vector<bool>{true, true}), matchOf(B, Now));
}

TEST(Baseline, ARenamedRuleIsNew) {
  Baseline B = baselineOf({reportOf("a.py", Old, {"cuda-synchronize", "tensor-cuda"})});
  FileReport Now = reportOf("a.py", Old, {"cuda-sync-renamed", "tensor-cuda"});
  EXPECT_EQ((std::vector<bool>{false, true}), matchOf(B, Now));
  ASSERT_EQ(1u, B.unmatched().size());
  EXPECT_EQ("cuda-synchronize", B.unmatched()[0]->Rule);
}

TEST(Baseline, PathsCompareNormalized) {
  Baseline B = baselineOf({reportOf("./src/../src/a.py", Old, {"r1", "r2"})});
  FileReport Now = reportOf("src/a.py", Old, {"r1", "r2"});
  EXPECT_EQ((std::vector<bool>{true, true}), matchOf(B, Now));
  FileReport Elsewhere = reportOf("lib/a.py", Old, {"r1", "r2"});
  EXPECT_EQ((std::vector<bool>{false, false}), matchOf(B, Elsewhere));
  EXPECT_EQ("src/a.py", baselinePath("./src//a.py"));
  EXPECT_EQ("/abs/a.py", baselinePath("/abs/x/../a.py"));
}

TEST(Baseline, RemoveKnownLeavesTheNewFindings) {
  Baseline B = baselineOf({reportOf("a.py", Old, {"cuda-synchronize", "tensor-cuda"})});
  FileReport Now = reportOf("a.py",
                            "import torch\n"
                            "[[torch.cuda.synchronize()]]\n"
                            "[[torch.cuda.empty_cache()]]\n"
                            "x = y.[[cuda]]()\n",
                            {"cuda-synchronize", "cuda-empty-cache", "tensor-cuda"});
  EXPECT_EQ(2u, B.removeKnown(Now));
  ASSERT_EQ(1u, Now.Findings.size());
  EXPECT_EQ("cuda-empty-cache", Now.Findings[0].RuleId);
}

TEST(Baseline, UnmatchedUnderRoots) {
  Baseline B = baselineOf({reportOf("src/a.py", Old, {"r1", "r2"}),
                           reportOf("tests/b.py", Old, {"r1", "r2"}),
                           reportOf("srcx/c.py", Old, {"r1", "r2"})});
  EXPECT_EQ(6u, B.size());
  EXPECT_EQ(6u, B.unmatched().size());
  EXPECT_EQ(6u, B.unmatched({"."}).size());
  EXPECT_EQ(2u, B.unmatched({"src"}).size());
  EXPECT_EQ(2u, B.unmatched({"./src/"}).size());
  EXPECT_EQ(4u, B.unmatched({"src", "tests/b.py"}).size());
}

std::string errorOf(llvm::StringRef Json) {
  auto B = Baseline::parse(Json, "old.json");
  if (B)
    return "(no error)";
  return llvm::toString(B.takeError());
}

TEST(Baseline, BadFilesSayWhatIsWrong) {
  EXPECT_EQ(0u, errorOf("{oops").find("old.json: not valid JSON: ")) << errorOf("{oops");
  EXPECT_NE(std::string::npos, errorOf("[]").find("old.json: not the JSON of `devport check "
                                                  "--format json` (no \"diagnostics\" array)"))
      << errorOf("[]");
  std::string NoFp = errorOf(R"({"diagnostics": [{"rule": "r", "path": "a.py", "line": 1}]})");
  EXPECT_NE(std::string::npos, NoFp.find("old.json: diagnostics[0]: no \"fingerprint\"")) << NoFp;
  std::string NoRule = errorOf(R"({"diagnostics": [{"path": "a.py", "fingerprint": "x:1"}]})");
  EXPECT_NE(std::string::npos, NoRule.find("old.json: diagnostics[0]: no \"rule\"")) << NoRule;

  test::TempDir D;
  auto Missing = Baseline::load(D.path("missing.json"));
  ASSERT_FALSE(bool(Missing));
  std::string Msg = llvm::toString(Missing.takeError());
  EXPECT_NE(std::string::npos, Msg.find(D.path("missing.json") + ": cannot read: ")) << Msg;
}

TEST(Baseline, LoadsAFile) {
  test::TempDir D;
  D.write("old.json", jsonOf({reportOf("a.py", Old, {"r1", "r2"})}));
  ASSERT_THAT_EXPECTED_VALUE(B, Baseline::load(D.path("old.json")));
  EXPECT_EQ(2u, B.size());
}

} // namespace
} // namespace devport
