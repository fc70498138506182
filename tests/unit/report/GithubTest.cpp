//===--- GithubTest.cpp - GitHub Actions annotations ----------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "report/Github.h"

#include "tests/support/Expected.h"

#include <gtest/gtest.h>

namespace devport {
namespace {

TEST(Github, EscapesDataAndProperties) {
  EXPECT_EQ("50%25 a%0D%0Ab: c, d", escapeGithubData("50% a\r\nb: c, d"));
  EXPECT_EQ("50%25 a%0D%0Ab%3A c%2C d", escapeGithubProperty("50% a\r\nb: c, d"));
  EXPECT_EQ("%2525", escapeGithubData("%25")); // escaped once, read back once
}

Diagnostic finding(ByteRange R, Severity S = Severity::Warning) {
  Diagnostic D;
  D.RuleId = "cuda-synchronize";
  D.Message = "`torch.cuda.synchronize()`: waits, for CUDA only";
  D.Range = R;
  D.Sev = S;
  return D;
}

std::string annotate(const FileReport &R, const RootPaths &Root) {
  std::string Out, Err;
  llvm::raw_string_ostream OS(Out), ES(Err);
  GithubReporter G(OS, ES, Root);
  G.file(R);
  G.finish(Summary());
  OS.flush();
  return Out;
}

TEST(Github, OneCommandPerFinding) {
  ASSERT_THAT_EXPECTED_VALUE(Root, RootPaths::create("/"));
  FileReport R;
  R.Path = "/w/a, b:c.py";
  std::string Text = "import torch\n\xC3\xA9 = torch.cuda.synchronize()\nx = (torch.cuda.\nsynchronize())\n";
  R.File.emplace(R.Path, Text);
  uint32_t B = static_cast<uint32_t>(Text.find("torch.cuda.s"));
  Diagnostic D = finding({B, B + 24});
  Fix X;
  X.App = Applicability::Safe;
  X.Edits.push_back(Edit::replacement({B + 6, B + 10}, "accelerator"));
  D.Fixes.push_back(X);
  R.Findings.push_back(D);
  uint32_t M = static_cast<uint32_t>(Text.find("torch.cuda.\n"));
  R.Findings.push_back(finding({M, M + 25}, Severity::Info));
  std::string Out = annotate(R, Root);
  // Columns count code points (é is one); the property values are escaped.
  EXPECT_EQ("::warning file=w/a%2C b%3Ac.py,line=2,col=5,endLine=2,endColumn=29,"
            "title=devport (cuda-synchronize)::`torch.cuda.synchronize()`: waits, for CUDA "
            "only%0Afix (safe): torch.accelerator.synchronize()\n"
            // Over two lines: no columns; info is a notice.
            "::notice file=w/a%2C b%3Ac.py,line=3,endLine=4,title=devport (cuda-synchronize)::"
            "`torch.cuda.synchronize()`: waits, for CUDA only\n",
            Out);
}

TEST(Github, ErrorsAreErrorCommands) {
  ASSERT_THAT_EXPECTED_VALUE(Root, RootPaths::create("/"));
  FileReport R;
  R.Path = "/w/bad.py";
  R.Error = "/w/bad.py:2:9: not valid UTF-8";
  EXPECT_EQ("::error title=devport::/w/bad.py:2:9: not valid UTF-8\n", annotate(R, Root));
}

} // namespace
} // namespace devport
