//===--- EngineTest.cpp - The per-file pipeline, end to end ---------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "engine/Engine.h"

#include <gtest/gtest.h>

namespace devport {
namespace {

std::unique_ptr<Engine> realRules(EngineOptions O = EngineOptions::forTest()) {
  auto Rules = RuleSet::loadDirectory(DEVPORT_SOURCE_DIR "/rules");
  EXPECT_TRUE(static_cast<bool>(Rules)) << llvm::toString(Rules.takeError());
  auto E = Engine::create(std::move(*Rules), O);
  EXPECT_TRUE(static_cast<bool>(E)) << llvm::toString(E.takeError());
  return std::move(*E);
}

std::unique_ptr<Engine> oneRule(llvm::StringRef Yaml) {
  auto Rules = RuleSet::loadBuffer("test-rule.yaml", Yaml);
  EXPECT_TRUE(static_cast<bool>(Rules)) << llvm::toString(Rules.takeError());
  auto E = Engine::create(std::move(*Rules), EngineOptions::forTest());
  EXPECT_TRUE(static_cast<bool>(E)) << llvm::toString(E.takeError());
  return std::move(*E);
}

std::string fixed(const Engine &E, llvm::StringRef Code) {
  return E.fix(SourceFile("t.py", Code.str())).Text;
}

TEST(Engine, NestedMatchesAreFixedTogether) {
  auto E = realRules();
  SourceFile F("t.py", "import torch\ntorch.cuda.set_device(torch.cuda.current_device())\n");
  FixOutcome O = E->fix(F);
  EXPECT_EQ("import torch\n"
            "torch.accelerator.set_device_index(torch.accelerator.current_device_index())\n",
            O.Text);
  EXPECT_EQ(2u, O.Applied);
  EXPECT_EQ(1u, O.Rounds); // the edits are token-sized, so they do not overlap
  EXPECT_TRUE(O.Converged);
  EXPECT_TRUE(O.Remaining.empty());
}

TEST(Engine, AddsImportOnceWhenTorchIsNotBound) {
  auto E = realRules();
  EXPECT_EQ("import torch\n"
            "torch.accelerator.synchronize()\n"
            "torch.accelerator.synchronize()\n"
            "n = torch.accelerator.device_count()\n",
            fixed(*E, "from torch.cuda import synchronize, device_count\n"
                      "synchronize()\n"
                      "synchronize()\n"
                      "n = device_count()\n"));
}

TEST(Engine, ImportGoesAfterDocstringAndFutureImports) {
  auto E = realRules();
  EXPECT_EQ("\"\"\"Doc.\"\"\"\n"
            "from __future__ import annotations\n"
            "import torch\n"
            "n = torch.accelerator.device_count()\n",
            fixed(*E, "\"\"\"Doc.\"\"\"\n"
                      "from __future__ import annotations\n"
                      "from torch.cuda import device_count\n"
                      "n = device_count()\n"));
}

TEST(Engine, KeepsCrlfAndBom) {
  auto E = realRules();
  std::string In = "\xEF\xBB\xBF"
                   "from torch.cuda import device_count\r\nn = device_count()\r\n";
  std::string Out = fixed(*E, In);
  EXPECT_EQ("\xEF\xBB\xBF"
            "import torch\r\nn = torch.accelerator.device_count()\r\n",
            Out);
}

TEST(Engine, NoFixInsideSyntaxError) {
  auto E = realRules();
  SourceFile F("t.py", "import torch\nx = torch.cuda.device_count() +\ny = 1\n");
  std::vector<Diagnostic> Ds = E->check(F);
  ASSERT_EQ(1u, Ds.size());
  EXPECT_TRUE(Ds[0].Fixes.empty());
  EXPECT_EQ(F.text(), E->fix(F).Text);
}

TEST(Engine, DropsFixThatBreaksSyntax) {
  auto E = oneRule("id: test-rule\nlanguage: python\ncategory: test\nseverity: warning\n"
                   "message: m\npattern: foo($X)\n"
                   "fix:\n  - since: '2.6'\n    template: 'bar($X'\n");
  SourceFile F("t.py", "foo(1)\n");
  FixOutcome O = E->fix(F);
  EXPECT_EQ("foo(1)\n", O.Text);
  ASSERT_EQ(1u, O.Dropped.size());
  EXPECT_EQ("test-rule", O.Dropped[0].RuleId);
  EXPECT_EQ(1u, O.Dropped[0].At.Line);
  EXPECT_EQ(1u, O.Dropped[0].At.Column);
  EXPECT_EQ(1u, O.Remaining.size());
}

TEST(Engine, SuppressionComments) {
  auto E = realRules();
  SourceFile F("t.py", "import torch\n"
                       "a = torch.cuda.device_count()  # devport: ignore\n"
                       "b = torch.cuda.device_count()  # devport: ignore[cuda-device-count]\n"
                       "c = torch.cuda.device_count()  # devport: ignore[cuda-synchronize]\n"
                       "d = '# devport: ignore'; e = torch.cuda.device_count()\n");
  std::vector<Diagnostic> Ds = E->check(F);
  ASSERT_EQ(2u, Ds.size());
  EXPECT_EQ(4u, F.lineOf(Ds[0].Range.Begin) + 1);
  EXPECT_EQ(5u, F.lineOf(Ds[1].Range.Begin) + 1);
}

TEST(Engine, SkipFileDirective) {
  auto E = realRules();
  SourceFile F("t.py", "#!/usr/bin/env python\n# devport: skip-file\nimport torch\n"
                       "torch.cuda.synchronize()\n");
  EXPECT_TRUE(E->check(F).empty());
  EXPECT_TRUE(hasSkipFileDirective("#  devport:  skip-file\n"));
  EXPECT_FALSE(hasSkipFileDirective("x = 1  # devport: skip-file\n"));
}

TEST(Engine, UnsafeFixesOnlyWhenAsked) {
  std::string Code = "import torch\ns = torch.cuda.current_stream()\n";
  auto Safe = realRules();
  EXPECT_EQ(Code, fixed(*Safe, Code));
  EngineOptions O;
  O.UnsafeFixes = true;
  auto Unsafe = realRules(O);
  EXPECT_EQ("import torch\ns = torch.accelerator.current_stream()\n", fixed(*Unsafe, Code));
}

TEST(Engine, TargetTorchPicksTheFix) {
  std::string Code = "import torch\ntorch.cuda.set_device(1)\n";
  EngineOptions O;
  O.Target = {2, 6};
  EXPECT_EQ("import torch\ntorch.accelerator.set_device_idx(1)\n", fixed(*realRules(O), Code));
  O.Target = {2, 5};
  auto Old = realRules(O);
  std::vector<Diagnostic> Ds = Old->check(SourceFile("t.py", Code));
  ASSERT_EQ(1u, Ds.size());
  EXPECT_TRUE(Ds[0].Fixes.empty());
  EXPECT_EQ(Code, fixed(*Old, Code));
}

TEST(Engine, TorchBoundToSomethingElseGetsNoFix) {
  auto E = realRules();
  std::string Code = "from mylib import torch\nimport torch.cuda as tc\ntc.synchronize()\n";
  std::vector<Diagnostic> Ds = E->check(SourceFile("t.py", Code));
  ASSERT_EQ(1u, Ds.size());
  EXPECT_TRUE(Ds[0].Fixes.empty());
  EXPECT_EQ(Code, fixed(*E, Code));
}

TEST(Engine, FixChangesNothingOutsideEdits) {
  auto E = realRules();
  std::string Code = "import torch  # keep   spacing\n\n\n"
                     "x  =  torch.cuda.device_count( )   # trailing\n"
                     "\t# tab comment: torch.cuda.device_count()\n";
  EXPECT_EQ("import torch  # keep   spacing\n\n\n"
            "x  =  torch.accelerator.device_count( )   # trailing\n"
            "\t# tab comment: torch.cuda.device_count()\n",
            fixed(*E, Code));
}


TEST(Engine, KeepRulesSuppressFindingsInsideThem) {
  auto E = realRules();
  SourceFile F("t.py", "import torch\n"
                       "cap = torch.cuda.get_device_capability(torch.cuda.current_device())\n"
                       "ok = torch.cuda.is_available() and torch.backends.cudnn.enabled\n"
                       "n = torch.cuda.device_count()\n");
  CheckResult R = E->checkAll(F);
  ASSERT_EQ(1u, R.Findings.size());
  EXPECT_EQ("cuda-device-count", R.Findings[0].RuleId);
  std::vector<std::string> Kept;
  for (const Diagnostic &K : R.Kept)
    Kept.push_back(K.RuleId);
  EXPECT_EQ((std::vector<std::string>{"keep-device-capability", "keep-cuda-feature-guard",
                                      "keep-cudnn"}),
            Kept);
  ASSERT_EQ(1u, R.Kept[0].Keeps.size());
  EXPECT_EQ("cuda-current-device", R.Kept[0].Keeps[0].RuleId);
  EXPECT_EQ(F.lineColumn(R.Kept[0].Keeps[0].Range.Begin).Line, 2u);
  EXPECT_EQ(F.lineColumn(R.Kept[0].Keeps[0].Range.Begin).Column, 40u);
  EXPECT_EQ("import torch\n"
            "cap = torch.cuda.get_device_capability(torch.cuda.current_device())\n"
            "ok = torch.cuda.is_available() and torch.backends.cudnn.enabled\n"
            "n = torch.accelerator.device_count()\n",
            fixed(*E, F.text()));
}

TEST(Engine, DeviceExpressionIsConfigurable) {
  EngineOptions O;
  O.DeviceExpression = "self.device";
  auto E = realRules(O);
  EXPECT_EQ("x = t.to(self.device)\ny = torch.zeros(1, device=self.device.type)\n",
            fixed(*E, "x = t.cuda()\ny = torch.zeros(1, device=\"cuda\")\n"));
}


TEST(Engine, FixesUseTheFilesOwnAliases) {
  auto E = realRules();
  EXPECT_EQ("import torch as t\nt.accelerator.synchronize()\nx = y.to(t.accelerator.current_accelerator())\n",
            fixed(*E, "import torch as t\nt.cuda.synchronize()\nx = y.cuda()\n"));
  // A plain `import torch` wins over an alias.
  EXPECT_EQ("import torch\nimport torch as t\ntorch.accelerator.synchronize()\n",
            fixed(*E, "import torch\nimport torch as t\nt.cuda.synchronize()\n"));
  // An alias in a function is used there, not elsewhere.
  EXPECT_EQ("def f():\n    import torch as tt\n    tt.accelerator.synchronize()\n",
            fixed(*E, "def f():\n    import torch as tt\n    tt.cuda.synchronize()\n"));
}


TEST(Engine, RemovesOnlyTheImportsItsFixesLeftUnused) {
  auto E = realRules();
  EXPECT_EQ("import torch\nfrom torch.cuda import Stream\ntorch.accelerator.synchronize()\ns = Stream\n",
            fixed(*E, "import torch\nfrom torch.cuda import synchronize, Stream\nsynchronize()\ns = Stream\n"));
  EXPECT_EQ("import torch\nfrom torch.cuda import (\n    nvtx,\n)\ntorch.accelerator.synchronize()\nnvtx.mark('x')\n",
            fixed(*E, "import torch\nfrom torch.cuda import (\n    synchronize,\n    nvtx,\n)\n"
                      "synchronize()\nnvtx.mark('x')\n"));
  // Never used before the fix: not devport's business.
  EXPECT_EQ("import torch\nfrom torch.cuda import nccl\ntorch.accelerator.synchronize()\n",
            fixed(*E, "import torch\nfrom torch.cuda import nccl\ntorch.cuda.synchronize()\n"));
}


TEST(Engine, DoctestsAreReportedAndFixedOnlyOnRequest) {
  std::string Code = "def f():\n"
                     "    \"\"\"\n"
                     "    >>> torch.cuda.synchronize()\n"
                     "    >>> x = torch.zeros(\n"
                     "    ...     2, device=\"cuda\")\n"
                     "    \"\"\"\n";
  auto Report = realRules();
  SourceFile F("t.py", Code);
  std::vector<Diagnostic> Ds = Report->check(F);
  ASSERT_EQ(2u, Ds.size());
  EXPECT_EQ("cuda-synchronize", Ds[0].RuleId);
  EXPECT_EQ(3u, F.lineColumn(Ds[0].Range.Begin).Line);
  EXPECT_EQ(9u, F.lineColumn(Ds[0].Range.Begin).Column);
  EXPECT_EQ("cuda-device-string", Ds[1].RuleId);
  EXPECT_EQ(5u, F.lineColumn(Ds[1].Range.Begin).Line);
  EXPECT_TRUE(Ds[0].Fixes.empty());
  EXPECT_EQ(Code, fixed(*Report, Code));

  EngineOptions O;
  O.FixDocstrings = true;
  auto Fixer = realRules(O);
  EXPECT_EQ("def f():\n"
            "    \"\"\"\n"
            "    >>> torch.accelerator.synchronize()\n"
            "    >>> x = torch.zeros(\n"
            "    ...     2, device=torch.accelerator.current_accelerator().type)\n"
            "    \"\"\"\n",
            fixed(*Fixer, Code));
}

TEST(Engine, PathologicalInputsDoNotCrash) {
  auto E = realRules();
  std::string Chain = "import torch\nx = torch";
  for (int I = 0; I < 200000; ++I)
    Chain += ".a";
  Chain += ".synchronize()\n";
  EXPECT_TRUE(E->check(SourceFile("t.py", Chain)).empty());
  std::string Nested = "import torch\nx = " + std::string(20000, '(') + "torch.cuda.synchronize()" +
                       std::string(20000, ')') + "\n";
  EXPECT_EQ(1u, E->check(SourceFile("t.py", Nested)).size());
  std::string Wide = "import torch\nx = torch.zeros(";
  for (int I = 0; I < 50000; ++I)
    Wide += "1, ";
  Wide += "device=\"cuda\")\n";
  EXPECT_EQ(1u, E->check(SourceFile("t.py", Wide)).size());
}

} // namespace
} // namespace devport
