//===--- JsonReporterTest.cpp - The JSON document, byte for byte ----------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// JsonReporter writes each diagnostic straight to its stream, and each kept
/// place as its text two levels in. Both must be what llvm::json writes for
/// the same object (keys sorted, two-space indent): other tools parse the
/// document, and users diff it. The reference here builds the objects and
/// lets llvm::json write them.
///
//===----------------------------------------------------------------------===//

#include "report/Reporters.h"

#include "report/Baseline.h"
#include "report/Render.h"

#include "tests/support/TestReports.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

namespace devport {
namespace {

/// The element llvm::json writes for D of F (what the reporter wrote before
/// it streamed them).
llvm::json::Object referenceOf(const SourceFile &F, const Diagnostic &D,
                               const std::string *Fingerprint) {
  LineColumn B = F.lineColumn(D.Range.Begin), E = F.lineColumn(D.Range.End);
  llvm::json::Value FixV = nullptr;
  if (!D.Fixes.empty()) {
    const Fix &X = D.Fixes.front();
    llvm::json::Array Edits;
    for (const Edit &Ed : X.Edits) {
      LineColumn EB = F.lineColumn(Ed.Range.Begin), EE = F.lineColumn(Ed.Range.End);
      Edits.push_back(llvm::json::Object{{"line", EB.Line},
                                         {"column", EB.Column},
                                         {"end_line", EE.Line},
                                         {"end_column", EE.Column},
                                         {"content", Ed.Replacement}});
    }
    FixV = llvm::json::Object{{"applicability", applicabilityName(X.App)},
                              {"title", X.Title},
                              {"edits", std::move(Edits)}};
  }
  llvm::json::Array Notes;
  for (const Note &N : D.Notes)
    Notes.push_back(noteText(N));
  for (const KeptFinding &K : D.Keeps)
    Notes.push_back(keepText(F, K));
  llvm::json::Object O{{"rule", D.RuleId},
                       {"path", F.path()},
                       {"line", B.Line},
                       {"column", B.Column},
                       {"end_line", E.Line},
                       {"end_column", E.Column},
                       {"severity", severityName(D.Sev)},
                       {"message", D.Message},
                       {"fix", std::move(FixV)},
                       {"notes", std::move(Notes)}};
  if (!D.Engine.empty())
    O["engine"] = D.Engine;
  if (Fingerprint)
    O["fingerprint"] = *Fingerprint;
  return O;
}

/// The document up to its summary, as the reporter writes it and as
/// llvm::json writes the reference objects.
std::pair<std::string, std::string> bothOf(const std::vector<FileReport> &Reports) {
  ReportOptions Opts;
  Opts.ShowKept = true;
  std::string Got, Err, Want;
  {
    llvm::raw_string_ostream Out(Got), E(Err);
    JsonReporter J(Out, E, Opts);
    for (const FileReport &R : Reports)
      J.file(R);
    J.finish(Summary{});
  }
  {
    llvm::raw_string_ostream Out(Want);
    llvm::json::OStream J(Out, 2);
    J.objectBegin();
    J.attributeArray("diagnostics", [&] {
      for (const FileReport &R : Reports) {
        std::vector<std::string> FPs = fingerprints(*R.File, R.Findings);
        for (size_t I = 0; I < R.Findings.size(); ++I)
          J.value(referenceOf(*R.File, R.Findings[I], &FPs[I]));
      }
    });
    J.attributeArray("kept", [&] {
      for (const FileReport &R : Reports)
        for (const Diagnostic &K : R.Kept)
          J.value(referenceOf(*R.File, K, nullptr));
    });
    J.attributeBegin("summary");
    J.value(nullptr);
    J.attributeEnd();
    J.objectEnd();
  }
  auto Head = [](const std::string &S) { return S.substr(0, S.find("\n  \"summary\"")); };
  return {Head(Got), Head(Want)};
}

TEST(JsonReporter, WritesEachDiagnosticAsLlvmJsonWouldTheObject) {
  FileReport A = test::reportOf("dir/a.py",
                                "import torch\n"
                                "[[torch.cuda.synchronize()]]\n"
                                "x = [[y.cuda()]] + \"\\u00e9\"  # é\n"
                                "[[z = 1]]\n",
                                {{"cuda-synchronize", Applicability::Safe},
                                 {"tensor-cuda", Applicability::Unsafe},
                                 {"plain"}});
  // A fix of several edits over lines, content with quotes, a newline,
  // a tab, a control character and UTF-8; notes of each kind; keeps; an
  // engine; a message that needs escaping.
  Diagnostic &D = A.Findings[1];
  D.Message = "say \"why\"\\ with\ta newline\nand \x01 and ü";
  D.Fixes.front().Title = "use \"x\"";
  D.Fixes.front().Edits = {Edit::replacement({14, 20}, "a\"b\\c\nd\te\x02 ü"),
                           Edit::insertion(0, "import os\n")};
  D.Notes = {Note::plain("first note"),
             Note{Note::Kind::NoFixForTarget, "", TorchVersion{2, 6}, TorchVersion{2, 9}},
             Note{Note::Kind::EmbeddedReportOnly, "", {}, {}}};
  D.Keeps = {{"cuda-set-device", {14, 20}}, {"other", {0, 5}}};
  A.Findings[2].Engine = "lexical";
  A.Findings[2].Sev = Severity::Error;
  A.Kept = {A.Findings[0], A.Findings[2]};
  A.Kept[1].Keeps = {{"cuda-synchronize", {13, 38}}};
  FileReport B = test::reportOf("b.py", "[[x]]\n", {{"only"}});
  FileReport Empty = test::reportOf("c.py", "pass\n", {});
  auto [Got, Want] = bothOf({A, B, Empty});
  EXPECT_EQ(Want, Got);
  // Nothing kept, nothing found: the arrays are empty as llvm::json writes them.
  auto [GotEmpty, WantEmpty] = bothOf({Empty});
  EXPECT_EQ(WantEmpty, GotEmpty);
}

TEST(JsonReporter, WritesAPathThatIsNotUtf8ByteForByte) {
  // llvm::json would write U+FFFD; the reporter writes the byte as a lone
  // surrogate, in findings and in kept places alike.
  FileReport R = test::reportOf("caf\xe9.py", "[[x]]\n", {{"r"}});
  R.Kept = R.Findings;
  ReportOptions Opts;
  Opts.ShowKept = true;
  std::string Got, Err;
  {
    llvm::raw_string_ostream Out(Got), E(Err);
    JsonReporter J(Out, E, Opts);
    J.file(R);
    J.finish(Summary{});
  }
  size_t First = Got.find("\"path\": \"caf\\udce9.py\"");
  ASSERT_NE(std::string::npos, First) << Got;
  EXPECT_NE(std::string::npos, Got.find("\"path\": \"caf\\udce9.py\"", First + 1)) << Got;
}

} // namespace
} // namespace devport
