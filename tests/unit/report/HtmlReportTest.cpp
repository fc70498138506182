//===--- HtmlReportTest.cpp - The migration report's model and page -------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "report/HtmlReport.h"

#include "report/Reporters.h"

#include "tests/support/Expected.h"
#include "tests/support/TestFiles.h"
#include "tests/support/TestReports.h"
#include "tests/support/TestRules.h"

#include "llvm/ADT/StringExtras.h"

#include <gtest/gtest.h>

namespace devport {
namespace {

using test::findingOf;

/// test::reportOf(), and Kept keep matches.
FileReport reportOf(const std::string &Path, llvm::StringRef Code,
                    const std::vector<test::TestFinding> &Findings, size_t Kept = 0) {
  FileReport R = test::reportOf(Path, Code, Findings);
  for (size_t I = 0; I < Kept; ++I)
    R.Kept.push_back(findingOf("keep-cudnn", {0, 1}, std::nullopt));
  return R;
}

std::string categoryOf(llvm::StringRef Rule) {
  if (Rule.startswith("keep-"))
    return "keep";
  if (Rule == "cuda-device-check")
    return "device-check";
  return "device-runtime";
}

const auto Safe = Applicability::Safe;
const auto Unsafe = Applicability::Unsafe;
const auto DisplayOnly = Applicability::DisplayOnly;

TEST(HtmlEscape, EscapesEverythingThatMatters) {
  EXPECT_EQ("a &lt;b&gt; &amp;amp; &quot;c&quot; &#39;d&#39;", htmlEscape("a <b> &amp; \"c\" 'd'"));
  EXPECT_EQ("plain `torch.cuda` text", htmlEscape("plain `torch.cuda` text"));
  EXPECT_EQ("", htmlEscape(""));
}

TEST(MigrationReport, CountsPerDirectoryCategoryAndRule) {
  MigrationReport M({"proj"}, categoryOf);
  M.add(reportOf(
      "proj/a.py", "[[x]]\n[[y]]\n[[z]]\n",
      {{"cuda-synchronize", Safe}, {"cuda-stream", Unsafe}, {"cuda-device-check", std::nullopt}},
      /*Kept=*/2));
  M.add(reportOf("proj/sub/b.py", "[[x]]\n[[y]]\n",
                 {{"cuda-synchronize", Safe}, {"cuda-device-check", DisplayOnly}}));
  M.add(reportOf("proj/sub/c.py", "x\n", {}));
  M.add(reportOf("proj/sub/deeper/d.py", "[[x]]\n", {{"cuda-device-check", std::nullopt}}));

  EXPECT_EQ("proj", M.base());
  const WorkTally &T = M.total();
  EXPECT_EQ(4u, T.Files);
  EXPECT_EQ(2u, T.Safe);
  EXPECT_EQ(1u, T.Unsafe);
  EXPECT_EQ(3u, T.Manual);
  EXPECT_EQ(2u, T.Kept);
  EXPECT_EQ(6u, T.findings());
  EXPECT_EQ(4u, T.remaining());

  ASSERT_EQ(3u, M.byDirectory().size());
  const WorkTally &Top = M.byDirectory().at(".");
  EXPECT_EQ(1u, Top.Files);
  EXPECT_EQ(3u, Top.findings());
  EXPECT_EQ(2u, Top.Kept);
  const WorkTally &Sub = M.byDirectory().at("sub");
  EXPECT_EQ(2u, Sub.Files); // the clean file counts as scanned
  EXPECT_EQ(1u, Sub.Safe);
  EXPECT_EQ(1u, Sub.Manual);
  EXPECT_EQ(1u, M.byDirectory().at("sub/deeper").Manual);

  EXPECT_EQ(3u, M.byCategory().at("device-check").Manual);
  EXPECT_EQ(2u, M.byCategory().at("device-runtime").Safe);
  EXPECT_EQ(2u, M.byCategory().at("keep").Kept);
  EXPECT_EQ(2u, M.byRule().at("cuda-synchronize").Safe);
  EXPECT_EQ(2u, M.byRule().at("keep-cudnn").Kept);

  ASSERT_EQ(3u, M.manual().size());
  EXPECT_EQ("a.py", M.manual()[0].Path);
  EXPECT_EQ(3u, M.manual()[0].Line);
  EXPECT_EQ(1u, M.manual()[0].Column);
  EXPECT_EQ("sub/b.py", M.manual()[1].Path);
  EXPECT_EQ("sub/deeper/d.py", M.manual()[2].Path);
}

TEST(MigrationReport, PathsAreShownUnderTheRootsCommonDirectory) {
  MigrationReport One({"./proj/"}, categoryOf);
  EXPECT_EQ("a.py", One.shown("proj/a.py"));
  EXPECT_EQ("a.py", One.shown("./proj/a.py"));
  test::TempDir D; // a root that is a file stands for its directory
  D.write("sub/a.py", "x\n");
  MigrationReport File({D.path("sub/a.py")}, categoryOf);
  EXPECT_EQ(D.path("sub"), File.base());
  EXPECT_EQ("a.py", File.shown(D.path("sub/a.py")));
  MigrationReport Two({"proj/src", "proj/tests"}, categoryOf);
  EXPECT_EQ("proj", Two.base());
  EXPECT_EQ("src/a.py", Two.shown("proj/src/a.py"));
  MigrationReport None({"src", "tests"}, categoryOf);
  EXPECT_EQ("", None.base());
  EXPECT_EQ("src/a.py", None.shown("src/a.py"));
  MigrationReport Dot({"."}, categoryOf);
  EXPECT_EQ("src/a.py", Dot.shown("./src/a.py"));
  MigrationReport Prefix({"/tmp/projx", "/tmp/proj"}, categoryOf);
  EXPECT_EQ("/tmp", Prefix.base()); // whole components only
}

TEST(MigrationReport, BaselineTrend) {
  MigrationReport M({"p"}, categoryOf);
  FileReport A = reportOf("p/a.py", "[[x]]\n[[y]]\n",
                          {{"cuda-synchronize", Safe}, {"cuda-device-check", std::nullopt}});
  std::vector<bool> Known{true, false};
  M.add(A, &Known);
  Baseline::Entry Gone;
  Gone.Path = "p/old/b.py";
  Gone.Rule = "cuda-device-check";
  M.addFixed(Gone);
  const WorkTally &T = M.total();
  EXPECT_EQ(2u, T.Then); // the known one and the fixed one
  EXPECT_EQ(1u, T.New);
  EXPECT_EQ(1u, T.Fixed);
  EXPECT_EQ(1u, M.byDirectory().at("old").Fixed);
  EXPECT_EQ(1u, M.byDirectory().at("old").Then);
  EXPECT_EQ(0u, M.byDirectory().at("old").findings());
  EXPECT_EQ(1u, M.byCategory().at("device-check").New);
  EXPECT_EQ(1u, M.byCategory().at("device-check").Fixed);
  ASSERT_EQ(1u, M.manual().size());
  EXPECT_TRUE(M.manual()[0].New);
}

MigrationReport sample() {
  MigrationReport M({"proj"}, categoryOf);
  M.add(reportOf("proj/a.py", "[[x]]\n[[y]]\n",
                 {{"cuda-synchronize", Safe}, {"cuda-device-check", std::nullopt}}, 1));
  FileReport B = reportOf("proj/<b&c>.py", "x\n", {});
  B.Findings.push_back(findingOf("cuda-device-check", {0, 1}, std::nullopt,
                                 "check against `\"cuda\"` <script>alert(1)</script>"));
  M.add(B);
  M.addError("proj/bad.py: not valid UTF-8 & <binary>");
  return M;
}

TEST(RenderHtml, IsOneSelfContainedPage) {
  std::string H = renderHtml(sample(), HtmlOptions{}, nullptr, nullptr);
  EXPECT_TRUE(llvm::StringRef(H).startswith("<!DOCTYPE html>"));
  EXPECT_TRUE(llvm::StringRef(H).rtrim().endswith("</html>"));
  // Nothing to fetch: no external stylesheet, script, image, font or frame.
  for (const char *Bad :
       {"<link", "src=", "@import", "url(", "http://", "https://", "<iframe", "<img"})
    EXPECT_EQ(std::string::npos, H.find(Bad)) << Bad;
  EXPECT_NE(std::string::npos, H.find("<svg")) << "the chart";
  EXPECT_NE(std::string::npos, H.find("<style>"));
  EXPECT_NE(std::string::npos, H.find("<script>"));
}

TEST(RenderHtml, EscapesWhatItShows) {
  std::string H = renderHtml(sample(), HtmlOptions{}, nullptr, nullptr);
  EXPECT_EQ(std::string::npos, H.find("<script>alert")) << "a message is text";
  EXPECT_NE(std::string::npos, H.find("check against <code>&quot;cuda&quot;</code> "
                                      "&lt;script&gt;alert(1)&lt;/script&gt;"))
      << H;
  EXPECT_NE(std::string::npos, H.find("&lt;b&amp;c&gt;.py"));
  EXPECT_NE(std::string::npos, H.find("not valid UTF-8 &amp; &lt;binary&gt;"));
  EXPECT_EQ(std::string::npos, H.find("<b&c>"));
}

TEST(RenderHtml, ChartHasABarPerFamilyWithWidths) {
  std::string H = renderHtml(sample(), HtmlOptions{}, nullptr, nullptr);
  // One group per family, its segments with non-zero widths.
  EXPECT_NE(std::string::npos, H.find("data-family=\"device-check\""));
  EXPECT_NE(std::string::npos, H.find("data-family=\"device-runtime\""));
  EXPECT_NE(std::string::npos, H.find("data-family=\"keep\""));
  EXPECT_EQ(std::string::npos, H.find("width=\"0\""));
}

const char *const DeviceCheckRule = R"yaml(id: cuda-device-check
language: python
category: device-check
severity: info
message: "device-type check against `\"cuda\"`"
pattern: $X == "cuda"
)yaml";

TEST(RenderHtml, RuleLinksGoToTheEmbeddedPagesOrTheDocsUrl) {
  ASSERT_THAT_EXPECTED_VALUE(Rules, test::loadRules({test::SynchronizeRule, DeviceCheckRule}));
  std::string Embedded = renderHtml(sample(), HtmlOptions{}, &Rules, nullptr);
  EXPECT_NE(std::string::npos, Embedded.find("href=\"#rule-cuda-device-check\""));
  // The page is `devport explain`'s text.
  size_t Page = Embedded.find("<details id=\"rule-cuda-device-check\">");
  ASSERT_NE(std::string::npos, Page);
  EXPECT_NE(std::string::npos, Embedded.find("# cuda-device-check", Page));
  // A rule with no page (keep rules: nothing to do) is not a link.
  EXPECT_EQ(std::string::npos, Embedded.find("#rule-keep-cudnn"));
  EXPECT_NE(std::string::npos, Embedded.find("<code>keep-cudnn</code>"));

  std::string NoRules = renderHtml(sample(), HtmlOptions{}, nullptr, nullptr);
  EXPECT_EQ(std::string::npos, NoRules.find("href=\"#rule-"));
  HtmlOptions O;
  O.DocsUrl = "https://example.org/docs/rules/";
  std::string Linked = renderHtml(sample(), O, nullptr, nullptr);
  EXPECT_NE(std::string::npos,
            Linked.find("href=\"https://example.org/docs/rules/cuda-device-check.md\""));
}

TEST(RenderHtml, ManualItemsAreGroupedByRuleThenFile) {
  MigrationReport M({"p"}, categoryOf);
  M.add(reportOf("p/a.py", "[[x]]\n\n[[y]]\n[[z]]\n",
                 {{"cuda-device-check", std::nullopt},
                  {"cuda-device-check", std::nullopt},
                  {"cuda-is-available", std::nullopt}}));
  M.add(reportOf("p/b.py", "\n[[x]] == [[y]]\n",
                 {{"cuda-device-check", std::nullopt}, {"cuda-device-check", std::nullopt}}));
  FileReport Odd = reportOf("p/c.py", "x\n", {});
  Odd.Findings.push_back(findingOf("cuda-odd", {0, 1}, std::nullopt, "odd ` tick <x>"));
  M.add(Odd);
  std::string H = renderHtml(M, HtmlOptions{}, nullptr, nullptr);
  size_t Check = H.find("<details class=\"grp\" data-rule=\"cuda-device-check\">");
  size_t Avail = H.find("<details class=\"grp\" data-rule=\"cuda-is-available\">");
  ASSERT_NE(std::string::npos, Check);
  ASSERT_NE(std::string::npos, Avail);
  EXPECT_LT(Check, Avail); // the rule with more items first
  EXPECT_NE(std::string::npos, H.find("<b>4</b> <code>cuda-device-check</code> message "
                                      "<span class=\"sub\">in 2 files</span>",
                                      Check));
  EXPECT_NE(std::string::npos, H.find("<li><code>a.py</code>: 1, 3</li>", Check));
  EXPECT_NE(std::string::npos, H.find("<li><code>b.py</code>: 2 &times;2</li>", Check));
  EXPECT_NE(std::string::npos, H.find("odd ` tick &lt;x&gt;")); // a lone backquote is text
}

TEST(RenderHtml, SameInputSamePage) {
  EXPECT_EQ(renderHtml(sample(), HtmlOptions{}, nullptr, nullptr),
            renderHtml(sample(), HtmlOptions{}, nullptr, nullptr));
}

TEST(RenderHtml, DirectoriesComeByRemainingWorkFirst) {
  MigrationReport M({"p"}, categoryOf);
  M.add(reportOf("p/little/a.py", "[[x]]\n", {{"cuda-device-check", std::nullopt}}));
  M.add(reportOf("p/lots/a.py", "[[x]]\n[[y]]\n[[z]]\n",
                 {{"cuda-device-check", std::nullopt},
                  {"cuda-device-check", std::nullopt},
                  {"cuda-synchronize", Unsafe}}));
  M.add(reportOf("p/safe/a.py", "[[x]]\n[[y]]\n[[z]]\n[[w]]\n",
                 {{"cuda-synchronize", Safe},
                  {"cuda-synchronize", Safe},
                  {"cuda-synchronize", Safe},
                  {"cuda-synchronize", Safe}}));
  std::string H = renderHtml(M, HtmlOptions{}, nullptr, nullptr);
  size_t Lots = H.find(">lots<"), Little = H.find(">little<"), SafeDir = H.find(">safe<");
  ASSERT_NE(std::string::npos, Lots);
  ASSERT_NE(std::string::npos, Little);
  ASSERT_NE(std::string::npos, SafeDir);
  EXPECT_LT(Lots, Little);
  EXPECT_LT(Little, SafeDir);
}

TEST(HtmlReporter, WritesThePageAndPrintsErrorsAsCheckDoes) {
  test::TempDir D;
  std::string O, E;
  llvm::raw_string_ostream Out(O), Err(E);
  MigrationReport M({D.path()}, categoryOf);
  HtmlReporter R(D.path("report.html"), Out, Err, std::move(M), HtmlOptions{}, nullptr, nullptr,
                 nullptr);
  R.begin(2);
  R.file(reportOf(D.path("a.py"), "[[x]]\n", {{"cuda-synchronize", Safe}}));
  FileReport Bad;
  Bad.Path = D.path("bad.py");
  Bad.Error = D.path("bad.py") + ": not valid UTF-8";
  R.file(Bad);
  R.finish(Summary{});
  EXPECT_TRUE(test::succeeded(R.takeError()));
  EXPECT_EQ("devport: error: " + D.path("bad.py") + ": not valid UTF-8\n", Err.str());
  EXPECT_EQ("", Out.str());
  std::string Page = D.read("report.html");
  EXPECT_NE(std::string::npos, Page.find("bad.py: not valid UTF-8"));
  EXPECT_EQ(Page.size(), R.bytes());
}

TEST(HtmlReporter, DashWritesToStandardOutput) {
  std::string O, E;
  llvm::raw_string_ostream Out(O), Err(E);
  HtmlReporter R("-", Out, Err, MigrationReport({"."}, categoryOf), HtmlOptions{}, nullptr, nullptr,
                 nullptr);
  R.finish(Summary{});
  EXPECT_TRUE(test::succeeded(R.takeError()));
  EXPECT_TRUE(llvm::StringRef(Out.str()).startswith("<!DOCTYPE html>"));
}

TEST(HtmlReporter, AnUnwritablePathIsAnError) {
  test::TempDir D;
  std::string O, E;
  llvm::raw_string_ostream Out(O), Err(E);
  HtmlReporter R(D.path("no/such/dir/report.html"), Out, Err, MigrationReport({"."}, categoryOf),
                 HtmlOptions{}, nullptr, nullptr, nullptr);
  R.finish(Summary{});
  llvm::Error Failed = R.takeError();
  ASSERT_TRUE(bool(Failed));
  std::string Msg = llvm::toString(std::move(Failed));
  EXPECT_NE(std::string::npos, Msg.find(D.path("no/such/dir/report.html"))) << Msg;
}

} // namespace
} // namespace devport
