//===--- EngineTest.cpp - The per-file pipeline, end to end ---------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
//
// Every test builds its engine from the few rules it names, written below as
// rule files (the same format as rules/python/*.yaml), so that a change to
// the shipped database cannot change what these tests check.
//
//===----------------------------------------------------------------------===//

#include "engine/Engine.h"

#include "tests/support/Expected.h"
#include "tests/support/TestRules.h"

#include <gtest/gtest.h>

namespace devport {
namespace {

const char *SetDevice = R"yaml(id: cuda-set-device
language: python
category: device-runtime
severity: warning
message: "`torch.cuda.set_device()` selects a CUDA device only"
any:
  - torch.cuda.set_device($DEV)
  - torch.cuda.set_device(device=$DEV)
fix:
  - since: "2.7"
    template: torch.accelerator.set_device_index($DEV)
  - since: "2.6"
    template: torch.accelerator.set_device_idx($DEV)
)yaml";

const char *CurrentDevice = R"yaml(id: cuda-current-device
language: python
category: device-runtime
severity: warning
message: "`torch.cuda.current_device()` returns the CUDA device index only"
pattern: torch.cuda.current_device()
fix:
  - since: "2.7"
    template: torch.accelerator.current_device_index()
  - since: "2.6"
    template: torch.accelerator.current_device_idx()
)yaml";

const char *CurrentStream = R"yaml(id: cuda-current-stream
language: python
category: device-runtime
severity: warning
message: "`torch.cuda.current_stream()` returns a CUDA stream only"
pattern: torch.cuda.current_stream()
fix:
  - since: "2.6"
    template: torch.accelerator.current_stream()
    applicability: unsafe
    note: "returns a generic `torch.Stream`"
)yaml";

/// Report only: no fix.
const char *CudaMethod = R"yaml(id: cuda-method
language: python
category: device-placement
severity: warning
message: "`.cuda()` moves to a CUDA device only"
pattern: $X.cuda()
fix:
  - since: "2.6"
    template: $X.to($DEVICE)
)yaml";

const char *DeviceString = R"yaml(id: cuda-device-string
language: python
category: device-placement
severity: warning
message: "`\"cuda\"` as a device picks CUDA only"
pattern: $F($$$A, device=$S, $$$B)
where:
  S:
    regex: '^[uU]?(["''])cuda["'']$'
focus: S
fix:
  - since: "2.6"
    template: $DEVICE_TYPE
)yaml";

const char *KeepCapability = R"yaml(id: keep-device-capability
kind: keep
language: python
category: keep
severity: info
message: "`torch.cuda.get_device_capability()` has SM semantics: kept"
pattern: torch.cuda.get_device_capability($$$A)
)yaml";

const char *KeepFeatureGuard = R"yaml(id: keep-cuda-feature-guard
kind: keep
language: python
category: keep
severity: info
message: "a `torch.cuda.is_available()` guard of a CUDA-only feature: kept"
pattern: torch.cuda.is_available() and $Y
where:
  Y:
    regex: 'cudnn'
)yaml";

const char *KeepCudnn = R"yaml(id: keep-cudnn
kind: keep
language: python
category: keep
severity: info
message: "cuDNN settings are CUDA-specific: kept"
pattern: torch.backends.cudnn.$X
)yaml";

/// An engine over the given rule files.
llvm::Expected<std::unique_ptr<Engine>> engineWith(llvm::ArrayRef<llvm::StringRef> Rules,
                                                   EngineOptions O = EngineOptions::forTest()) {
  auto S = test::loadRules(Rules);
  if (!S)
    return S.takeError();
  return Engine::create(std::move(*S), std::move(O));
}

std::string fixed(const Engine &E, llvm::StringRef Code) {
  return E.fix(SourceFile("t.py", Code.str())).Text;
}

/// The text of R in F.
std::string textOf(const SourceFile &F, ByteRange R) {
  return F.text().slice(R.Begin, R.End).str();
}

TEST(Engine, NestedMatchesAreFixedTogether) {
  ASSERT_THAT_EXPECTED_VALUE(E, engineWith({SetDevice, CurrentDevice}));
  SourceFile F("t.py", "import torch\ntorch.cuda.set_device(torch.cuda.current_device())\n");
  FixOutcome O = E->fix(F);
  EXPECT_EQ("import torch\n"
            "torch.accelerator.set_device_index(torch.accelerator.current_device_index())\n",
            O.Text);
  EXPECT_EQ(2u, O.Applied);
  std::vector<std::string> Rules = O.AppliedRules;
  std::sort(Rules.begin(), Rules.end());
  EXPECT_EQ((std::vector<std::string>{"cuda-current-device", "cuda-set-device"}), Rules);
  EXPECT_EQ(1u, O.Rounds); // the edits are token-sized, so they do not overlap
  EXPECT_TRUE(O.Converged);
  EXPECT_TRUE(O.Remaining.empty());
}

TEST(Engine, AddsImportOnceWhenTorchIsNotBound) {
  ASSERT_THAT_EXPECTED_VALUE(E, engineWith({test::SynchronizeRule, test::DeviceCountRule}));
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
  ASSERT_THAT_EXPECTED_VALUE(E, engineWith({test::DeviceCountRule}));
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
  ASSERT_THAT_EXPECTED_VALUE(E, engineWith({test::DeviceCountRule}));
  std::string In = "\xEF\xBB\xBF"
                   "from torch.cuda import device_count\r\nn = device_count()\r\n";
  std::string Out = fixed(*E, In);
  EXPECT_EQ("\xEF\xBB\xBF"
            "import torch\r\nn = torch.accelerator.device_count()\r\n",
            Out);
}

TEST(Engine, NoFixInsideSyntaxError) {
  ASSERT_THAT_EXPECTED_VALUE(E, engineWith({test::DeviceCountRule}));
  SourceFile F("t.py", "import torch\nx = torch.cuda.device_count() +\ny = 1\n");
  std::vector<Diagnostic> Ds = E->check(F);
  ASSERT_EQ(1u, Ds.size());
  EXPECT_TRUE(Ds[0].Fixes.empty());
  EXPECT_EQ(F.text(), E->fix(F).Text);
}

TEST(Engine, DropsFixThatBreaksSyntax) {
  ASSERT_THAT_EXPECTED_VALUE(
      E, engineWith({"id: test-rule\nlanguage: python\ncategory: test\nseverity: warning\n"
                     "message: m\npattern: foo($X)\n"
                     "fix:\n  - since: '2.6'\n    template: 'bar($X'\n"}));
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
  ASSERT_THAT_EXPECTED_VALUE(E, engineWith({test::DeviceCountRule, test::SynchronizeRule}));
  SourceFile F("t.py", "import torch\n"
                       "a = torch.cuda.device_count()  # devport: ignore\n"
                       "b = torch.cuda.device_count()  # devport: ignore[cuda-device-count]\n"
                       "c = torch.cuda.device_count()  # devport: ignore[cuda-synchronize]\n"
                       "d = '# devport: ignore'; e = torch.cuda.device_count()\n");
  std::vector<Diagnostic> Ds = E->check(F);
  ASSERT_EQ(2u, Ds.size());
  EXPECT_EQ("cuda-device-count", Ds[0].RuleId);
  EXPECT_EQ(4u, F.lineOf(Ds[0].Range.Begin) + 1);
  EXPECT_EQ("cuda-device-count", Ds[1].RuleId);
  EXPECT_EQ(5u, F.lineOf(Ds[1].Range.Begin) + 1);
  // The silenced ones are kept aside, in order, for SARIF's suppressions.
  CheckResult All = E->checkAll(F);
  ASSERT_EQ(2u, All.Suppressed.size());
  EXPECT_EQ(2u, F.lineOf(All.Suppressed[0].Range.Begin) + 1);
  EXPECT_EQ(3u, F.lineOf(All.Suppressed[1].Range.Begin) + 1);
}

TEST(Engine, SuppressionAfterAnotherDirectiveInTheSameComment) {
  ASSERT_THAT_EXPECTED_VALUE(E, engineWith({test::DeviceCountRule}));
  SourceFile F("t.py", "import torch\n"
                       "a = torch.cuda.device_count()  # type: ignore  # devport: ignore\n"
                       "b = torch.cuda.device_count()  # noqa: E501 # devport: ignore[cuda-device-count]\n"
                       "c = torch.cuda.device_count()  # see devport: docs\n"
                       "d = torch.cuda.device_count()  # type: ignore\n");
  std::vector<Diagnostic> Ds = E->check(F);
  ASSERT_EQ(2u, Ds.size());
  EXPECT_EQ(4u, F.lineOf(Ds[0].Range.Begin) + 1);
  EXPECT_EQ(5u, F.lineOf(Ds[1].Range.Begin) + 1);
}

TEST(Engine, UnknownRuleInSuppressionIsReported) {
  ASSERT_THAT_EXPECTED_VALUE(E, engineWith({test::DeviceCountRule}));
  SourceFile F("t.py", "import torch\n"
                       "a = torch.cuda.device_count()  # devport: ignore[cuda-device-cnt]\n");
  std::vector<Diagnostic> Ds = E->check(F);
  ASSERT_EQ(2u, Ds.size());
  EXPECT_EQ("cuda-device-count", Ds[0].RuleId); // not suppressed by the typo
  EXPECT_EQ("devport-directive", Ds[1].RuleId);
  EXPECT_EQ(Severity::Error, Ds[1].Sev);
  EXPECT_EQ("# devport: ignore[cuda-device-cnt]", textOf(F, Ds[1].Range));
  EXPECT_NE(std::string::npos, Ds[1].Message.find("'cuda-device-cnt'")) << Ds[1].Message;
}

TEST(Engine, SkipFileDirective) {
  ASSERT_THAT_EXPECTED_VALUE(E, engineWith({test::SynchronizeRule}));
  SourceFile F("t.py", "#!/usr/bin/env python\n# devport: skip-file\nimport torch\n"
                       "torch.cuda.synchronize()\n");
  EXPECT_TRUE(E->check(F).empty());
  EXPECT_EQ(F.text(), E->fix(F).Text);
  EXPECT_TRUE(hasSkipFileDirective("#  devport:  skip-file\n"));
  EXPECT_FALSE(hasSkipFileDirective("x = 1  # devport: skip-file\n"));
}

TEST(Engine, UnsafeFixesOnlyWhenAsked) {
  std::string Code = "import torch\ns = torch.cuda.current_stream()\n";
  ASSERT_THAT_EXPECTED_VALUE(Safe, engineWith({CurrentStream}));
  EXPECT_EQ(Code, fixed(*Safe, Code));
  EngineOptions O;
  O.UnsafeFixes = true;
  ASSERT_THAT_EXPECTED_VALUE(Unsafe, engineWith({CurrentStream}, O));
  EXPECT_EQ("import torch\ns = torch.accelerator.current_stream()\n", fixed(*Unsafe, Code));
}

TEST(Engine, TargetTorchPicksTheFix) {
  std::string Code = "import torch\ntorch.cuda.set_device(1)\n";
  ASSERT_THAT_EXPECTED_VALUE(Default, engineWith({SetDevice}));
  EXPECT_EQ("import torch\ntorch.accelerator.set_device_index(1)\n", fixed(*Default, Code));
  EngineOptions O;
  O.Target = {2, 6};
  ASSERT_THAT_EXPECTED_VALUE(E26, engineWith({SetDevice}, O));
  EXPECT_EQ("import torch\ntorch.accelerator.set_device_idx(1)\n", fixed(*E26, Code));
  O.Target = {2, 5};
  ASSERT_THAT_EXPECTED_VALUE(Old, engineWith({SetDevice}, O));
  std::vector<Diagnostic> Ds = Old->check(SourceFile("t.py", Code));
  ASSERT_EQ(1u, Ds.size());
  EXPECT_TRUE(Ds[0].Fixes.empty());
  EXPECT_EQ(Code, fixed(*Old, Code));
}

TEST(Engine, NoFixForTargetIsAStructuredNote) {
  std::string Code = "import torch\ntorch.cuda.set_device(1)\n";
  EngineOptions O;
  O.Target = {2, 5};
  ASSERT_THAT_EXPECTED_VALUE(E, engineWith({SetDevice}, O));
  std::vector<Diagnostic> Ds = E->check(SourceFile("t.py", Code));
  ASSERT_EQ(1u, Ds.size());
  ASSERT_EQ(1u, Ds[0].Notes.size());
  const Note &N = Ds[0].Notes[0];
  EXPECT_EQ(Note::Kind::NoFixForTarget, N.K);
  EXPECT_EQ((TorchVersion{2, 5}), N.Target);
  EXPECT_EQ((TorchVersion{2, 6}), N.Needs); // the oldest release any fix supports
  EXPECT_FALSE(N.Text.empty());
  // The front end words the flag or setting; the engine's text names none.
  EXPECT_EQ(std::string::npos, N.Text.find("--")) << N.Text;

  // A rule whose only fix is newer than the target.
  O.Target = {2, 6};
  ASSERT_THAT_EXPECTED_VALUE(
      New, engineWith({"id: new-only\nlanguage: python\ncategory: test\nseverity: warning\n"
                       "message: m\npattern: torch.cuda.new_only()\n"
                       "fix:\n  - since: '2.8'\n    template: torch.accelerator.new_only()\n"},
                      O));
  Ds = New->check(SourceFile("t.py", "import torch\ntorch.cuda.new_only()\n"));
  ASSERT_EQ(1u, Ds.size());
  EXPECT_TRUE(Ds[0].Fixes.empty());
  ASSERT_EQ(1u, Ds[0].Notes.size());
  EXPECT_EQ(Note::Kind::NoFixForTarget, Ds[0].Notes[0].K);
  EXPECT_EQ((TorchVersion{2, 6}), Ds[0].Notes[0].Target);
  EXPECT_EQ((TorchVersion{2, 8}), Ds[0].Notes[0].Needs);
  EXPECT_EQ(std::string::npos, Ds[0].Notes[0].Text.find("--")) << Ds[0].Notes[0].Text;

  // A rule with no fix at all needs no such note.
  ASSERT_THAT_EXPECTED_VALUE(NoFix, engineWith({test::IsAvailableRule}, O));
  Ds = NoFix->check(SourceFile("t.py", "import torch\nok = torch.cuda.is_available()\n"));
  ASSERT_EQ(1u, Ds.size());
  EXPECT_TRUE(Ds[0].Notes.empty());
}

TEST(Engine, TorchBoundToSomethingElseGetsNoFix) {
  ASSERT_THAT_EXPECTED_VALUE(E, engineWith({test::SynchronizeRule}));
  std::string Code = "from mylib import torch\nimport torch.cuda as tc\ntc.synchronize()\n";
  std::vector<Diagnostic> Ds = E->check(SourceFile("t.py", Code));
  ASSERT_EQ(1u, Ds.size());
  EXPECT_TRUE(Ds[0].Fixes.empty());
  EXPECT_EQ(Code, fixed(*E, Code));
}

TEST(Engine, FixChangesNothingOutsideEdits) {
  ASSERT_THAT_EXPECTED_VALUE(E, engineWith({test::DeviceCountRule}));
  std::string Code = "import torch  # keep   spacing\n\n\n"
                     "x  =  torch.cuda.device_count( )   # trailing\n"
                     "\t# tab comment: torch.cuda.device_count()\n";
  EXPECT_EQ("import torch  # keep   spacing\n\n\n"
            "x  =  torch.accelerator.device_count( )   # trailing\n"
            "\t# tab comment: torch.cuda.device_count()\n",
            fixed(*E, Code));
}

TEST(Engine, FixEditsCarryTheirRoles) {
  ASSERT_THAT_EXPECTED_VALUE(E, engineWith({test::DeviceCountRule}));
  SourceFile F("t.py", "from torch.cuda import device_count\nn = device_count()\n");
  std::vector<Diagnostic> Ds = E->check(F);
  ASSERT_EQ(1u, Ds.size());
  ASSERT_EQ(1u, Ds[0].Fixes.size());
  const std::vector<Edit> &Edits = Ds[0].Fixes[0].Edits;
  ASSERT_GE(Edits.size(), 2u);
  EXPECT_EQ(EditRole::AddImport, Edits[0].Role);
  EXPECT_EQ((ByteRange{0, 0}), Edits[0].Range);
  EXPECT_EQ("import torch\n", Edits[0].Replacement);
  for (size_t I = 1; I < Edits.size(); ++I)
    EXPECT_EQ(EditRole::Code, Edits[I].Role) << I;

  // With `import torch` in place, only code edits.
  std::vector<Diagnostic> Bound =
      E->check(SourceFile("t.py", "import torch\nn = torch.cuda.device_count()\n"));
  ASSERT_EQ(1u, Bound.size());
  ASSERT_EQ(1u, Bound[0].Fixes.size());
  for (const Edit &Ed : Bound[0].Fixes[0].Edits)
    EXPECT_EQ(EditRole::Code, Ed.Role);
}

TEST(Engine, KeepRulesSuppressFindingsInsideThem) {
  ASSERT_THAT_EXPECTED_VALUE(E, engineWith({KeepCapability, KeepFeatureGuard, KeepCudnn,
                                            CurrentDevice, test::DeviceCountRule, test::IsAvailableRule}));
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
  ASSERT_EQ((std::vector<std::string>{"keep-device-capability", "keep-cuda-feature-guard",
                                      "keep-cudnn"}),
            Kept);
  ASSERT_EQ(1u, R.Kept[0].Keeps.size());
  EXPECT_EQ("cuda-current-device", R.Kept[0].Keeps[0].RuleId);
  EXPECT_EQ(F.lineColumn(R.Kept[0].Keeps[0].Range.Begin).Line, 2u);
  EXPECT_EQ(F.lineColumn(R.Kept[0].Keeps[0].Range.Begin).Column, 40u);
  ASSERT_EQ(1u, R.Kept[1].Keeps.size());
  EXPECT_EQ("cuda-is-available", R.Kept[1].Keeps[0].RuleId);
  EXPECT_EQ("torch.cuda.is_available()", textOf(F, R.Kept[1].Keeps[0].Range));
  EXPECT_TRUE(R.Kept[2].Keeps.empty());
  EXPECT_EQ("import torch\n"
            "cap = torch.cuda.get_device_capability(torch.cuda.current_device())\n"
            "ok = torch.cuda.is_available() and torch.backends.cudnn.enabled\n"
            "n = torch.accelerator.device_count()\n",
            fixed(*E, F.text()));
}

TEST(Engine, DeviceExpressionIsConfigurable) {
  EngineOptions O;
  O.DeviceExpression = "self.device";
  ASSERT_THAT_EXPECTED_VALUE(E, engineWith({CudaMethod, DeviceString}, O));
  EXPECT_EQ("x = t.to(self.device)\ny = torch.zeros(1, device=self.device.type)\n",
            fixed(*E, "x = t.cuda()\ny = torch.zeros(1, device=\"cuda\")\n"));
}

TEST(Engine, FixesUseTheFilesOwnAliases) {
  ASSERT_THAT_EXPECTED_VALUE(E, engineWith({test::SynchronizeRule, CudaMethod}));
  EXPECT_EQ("import torch as t\nt.accelerator.synchronize()\n"
            "x = y.to(t.accelerator.current_accelerator())\n",
            fixed(*E, "import torch as t\nt.cuda.synchronize()\nx = y.cuda()\n"));
  // A plain `import torch` wins over an alias.
  EXPECT_EQ("import torch\nimport torch as t\ntorch.accelerator.synchronize()\n",
            fixed(*E, "import torch\nimport torch as t\nt.cuda.synchronize()\n"));
  // An alias in a function is used there, not elsewhere.
  EXPECT_EQ("def f():\n    import torch as tt\n    tt.accelerator.synchronize()\n",
            fixed(*E, "def f():\n    import torch as tt\n    tt.cuda.synchronize()\n"));
}

TEST(Engine, RemovesOnlyTheImportsItsFixesLeftUnused) {
  ASSERT_THAT_EXPECTED_VALUE(E, engineWith({test::SynchronizeRule}));
  EXPECT_EQ("import torch\nfrom torch.cuda import Stream\ntorch.accelerator.synchronize()\n"
            "s = Stream\n",
            fixed(*E, "import torch\nfrom torch.cuda import synchronize, Stream\nsynchronize()\n"
                      "s = Stream\n"));
  EXPECT_EQ("import torch\nfrom torch.cuda import (\n    nvtx,\n)\ntorch.accelerator.synchronize()\n"
            "nvtx.mark('x')\n",
            fixed(*E, "import torch\nfrom torch.cuda import (\n    synchronize,\n    nvtx,\n)\n"
                      "synchronize()\nnvtx.mark('x')\n"));
  // Never used before the fix: not devport's business.
  EXPECT_EQ("import torch\nfrom torch.cuda import nccl\ntorch.accelerator.synchronize()\n",
            fixed(*E, "import torch\nfrom torch.cuda import nccl\ntorch.cuda.synchronize()\n"));
}

TEST(Engine, FixParsesTheWholeFileAtMostTwice) {
  ASSERT_THAT_EXPECTED_VALUE(E, engineWith({test::SynchronizeRule, test::IsAvailableRule, CurrentStream}));
  // One fix: the original and the result.
  FixOutcome One = E->fix(SourceFile("t.py", "import torch\ntorch.cuda.synchronize()\n"));
  EXPECT_EQ(1u, One.Applied);
  EXPECT_LE(One.Parses, 2u);

  // Nothing fixable (no fix; an unsafe fix not allowed): the original only.
  FixOutcome None = E->fix(SourceFile("t.py", "import torch\nok = torch.cuda.is_available()\n"
                                              "s = torch.cuda.current_stream()\n"));
  EXPECT_EQ(0u, None.Applied);
  EXPECT_EQ(2u, None.Remaining.size());
  EXPECT_EQ(1u, None.Parses);

  // No literal any rule needs: the prefilter spares the parse.
  FixOutcome Clean = E->fix(SourceFile("t.py", "x = 1\n"));
  EXPECT_EQ(0u, Clean.Parses);

  // The unused `from torch.cuda import` goes without a third whole parse,
  // and the findings left are placed in the final text.
  SourceFile F("t.py", "from torch.cuda import synchronize\n"
                       "synchronize()\n"
                       "ok = torch.cuda.is_available()\n");
  FixOutcome Cleaned = E->fix(F);
  EXPECT_EQ("import torch\n"
            "torch.accelerator.synchronize()\n"
            "ok = torch.cuda.is_available()\n",
            Cleaned.Text);
  EXPECT_EQ(1u, Cleaned.Applied);
  EXPECT_LE(Cleaned.Parses, 2u);
  ASSERT_EQ(1u, Cleaned.Remaining.size());
  EXPECT_EQ("cuda-is-available", Cleaned.Remaining[0].RuleId);
  SourceFile After("t.py", Cleaned.Text);
  EXPECT_EQ("torch.cuda.is_available()", textOf(After, Cleaned.Remaining[0].Range));

  FixOutcome Kept = E->fix(SourceFile(
      "t.py", "import torch\nfrom torch.cuda import synchronize, Stream\nsynchronize()\n"
              "s = Stream\n"));
  EXPECT_EQ("import torch\nfrom torch.cuda import Stream\ntorch.accelerator.synchronize()\n"
            "s = Stream\n",
            Kept.Text);
  EXPECT_LE(Kept.Parses, 2u);
}

TEST(Engine, DiagnosticFileIsTheSourceFilesPath) {
  ASSERT_THAT_EXPECTED_VALUE(E, engineWith({test::SynchronizeRule, test::IsAvailableRule, KeepCudnn}));
  SourceFile F("pkg/mod.py", "def f():\n"
                             "    \"\"\"\n"
                             "    >>> torch.cuda.synchronize()\n"
                             "    \"\"\"\n"
                             "import torch\n"
                             "torch.cuda.synchronize()  # devport: ignore[nope]\n"
                             "ok = torch.cuda.is_available()\n"
                             "torch.backends.cudnn.enabled = True\n");
  CheckResult R = E->checkAll(F);
  std::vector<std::string> Ids;
  for (const Diagnostic &D : R.Findings) {
    Ids.push_back(D.RuleId);
    EXPECT_EQ("pkg/mod.py", D.File) << D.RuleId;
  }
  EXPECT_EQ((std::vector<std::string>{"cuda-synchronize", "cuda-synchronize",
                                      "devport-directive", "cuda-is-available"}),
            Ids);
  ASSERT_EQ(1u, R.Kept.size());
  EXPECT_EQ("pkg/mod.py", R.Kept[0].File);
  FixOutcome O = E->fix(F);
  ASSERT_FALSE(O.Remaining.empty());
  for (const Diagnostic &D : O.Remaining)
    EXPECT_EQ("pkg/mod.py", D.File) << D.RuleId;
}

TEST(Engine, DoctestsAreReportedAndFixedOnlyOnRequest) {
  std::string Code = "def f():\n"
                     "    \"\"\"\n"
                     "    >>> torch.cuda.synchronize()\n"
                     "    >>> x = torch.zeros(\n"
                     "    ...     2, device=\"cuda\")\n"
                     "    \"\"\"\n";
  ASSERT_THAT_EXPECTED_VALUE(Report, engineWith({test::SynchronizeRule, DeviceString}));
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
  ASSERT_THAT_EXPECTED_VALUE(Fixer, engineWith({test::SynchronizeRule, DeviceString}, O));
  EXPECT_EQ("def f():\n"
            "    \"\"\"\n"
            "    >>> torch.accelerator.synchronize()\n"
            "    >>> x = torch.zeros(\n"
            "    ...     2, device=torch.accelerator.current_accelerator().type)\n"
            "    \"\"\"\n",
            fixed(*Fixer, Code));
}

TEST(Engine, DoctestReportOnlyIsAStructuredNote) {
  SourceFile F("t.py", "def f():\n"
                       "    \"\"\"\n"
                       "    >>> torch.cuda.synchronize()\n"
                       "    \"\"\"\n");
  ASSERT_THAT_EXPECTED_VALUE(Report, engineWith({test::SynchronizeRule}));
  std::vector<Diagnostic> Ds = Report->check(F);
  ASSERT_EQ(1u, Ds.size());
  EXPECT_TRUE(Ds[0].Fixes.empty());
  ASSERT_EQ(1u, Ds[0].Notes.size());
  EXPECT_EQ(Note::Kind::EmbeddedReportOnly, Ds[0].Notes[0].K);
  EXPECT_FALSE(Ds[0].Notes[0].Text.empty());
  EXPECT_EQ(std::string::npos, Ds[0].Notes[0].Text.find("--")) << Ds[0].Notes[0].Text;

  // On request the fix is there, without the import edit (the file does not
  // import torch, but the doctest runs where it is a name), and no such note.
  EngineOptions O;
  O.FixDocstrings = true;
  ASSERT_THAT_EXPECTED_VALUE(Fixer, engineWith({test::SynchronizeRule}, O));
  Ds = Fixer->check(F);
  ASSERT_EQ(1u, Ds.size());
  for (const Note &N : Ds[0].Notes)
    EXPECT_NE(Note::Kind::EmbeddedReportOnly, N.K) << N.Text;
  ASSERT_EQ(1u, Ds[0].Fixes.size());
  ASSERT_FALSE(Ds[0].Fixes[0].Edits.empty());
  for (const Edit &Ed : Ds[0].Fixes[0].Edits) {
    EXPECT_EQ(EditRole::Code, Ed.Role);
    EXPECT_EQ(3u, F.lineColumn(Ed.Range.Begin).Line);
  }
}

TEST(Engine, DoctestLineSuppressionComments) {
  ASSERT_THAT_EXPECTED_VALUE(E, engineWith({test::SynchronizeRule}));
  SourceFile F("t.py", "def f():\n"
                       "    \"\"\"\n"
                       "    >>> torch.cuda.synchronize()  # devport: ignore[cuda-synchronize]\n"
                       "    >>> torch.cuda.synchronize()  # devport: ignore[no-such-rule]\n"
                       "    >>> torch.cuda.synchronize()  # devport: ignore\n"
                       "    >>> torch.cuda.synchronize()\n"
                       "    \"\"\"\n");
  std::vector<Diagnostic> Ds = E->check(F);
  ASSERT_EQ(3u, Ds.size());
  EXPECT_EQ("cuda-synchronize", Ds[0].RuleId);
  EXPECT_EQ(4u, F.lineColumn(Ds[0].Range.Begin).Line);
  EXPECT_EQ("devport-directive", Ds[1].RuleId);
  EXPECT_EQ(4u, F.lineColumn(Ds[1].Range.Begin).Line);
  EXPECT_EQ("# devport: ignore[no-such-rule]", textOf(F, Ds[1].Range));
  EXPECT_NE(std::string::npos, Ds[1].Message.find("'no-such-rule'")) << Ds[1].Message;
  EXPECT_EQ("cuda-synchronize", Ds[2].RuleId);
  EXPECT_EQ(6u, F.lineColumn(Ds[2].Range.Begin).Line);
}

// A file in which no rule's literals occur is still parsed when it holds a
// `devport:` comment, so that an unknown id in it is reported whether the
// prefilter is on or off.
TEST(Engine, UnknownSuppressionIdIsReportedWhateverThePrefilter) {
  for (bool Prefilter : {false, true}) {
    SCOPED_TRACE(Prefilter ? "prefilter on" : "prefilter off");
    EngineOptions O;
    O.Prefilter = Prefilter;
    ASSERT_THAT_EXPECTED_VALUE(E, engineWith({test::SynchronizeRule}, O));
    std::vector<Diagnostic> Ds =
        E->check(SourceFile("t.py", "x = 1  # devport: ignore[cuda-synchronise]\n"));
    ASSERT_EQ(1u, Ds.size());
    EXPECT_EQ("devport-directive", Ds[0].RuleId);
  }
}

TEST(Engine, PathologicalInputsDoNotCrash) {
  ASSERT_THAT_EXPECTED_VALUE(E, engineWith({test::SynchronizeRule, DeviceString}));
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

const char *TwoBackends = R"yaml(release: "2.6"
modules: [cuda, mps, cpu]
names:
  empty_cache: [cuda, mps]
  manual_seed: [cuda, mps]
  synchronize: [cuda, mps, cpu]
)yaml";

TEST(Engine, FixReachingAFunctionABackendLacksIsUnsafe) {
  // A fixed name, a name bound by the pattern ($FN), and one every backend has.
  const char *Rules[] = {R"yaml(id: cuda-empty-cache
language: python
category: memory
severity: warning
message: m
pattern: torch.cuda.empty_cache()
fix:
  - since: "2.6"
    template: torch.get_device_module().empty_cache()
)yaml",
                         R"yaml(id: cuda-rng
language: python
category: rng
severity: warning
message: m
pattern: torch.cuda.$FN($$$A)
where:
  FN:
    regex: '^(manual_seed|synchronize)$'
fix:
  - since: "2.6"
    template: torch.get_device_module().$FN($$$A)
)yaml"};
  ASSERT_THAT_EXPECTED_VALUE(T, BackendTable::parse("backends.yaml", TwoBackends));
  EngineOptions O = EngineOptions::forTest();
  O.Backends = std::make_shared<const BackendTable>(std::move(T));
  ASSERT_THAT_EXPECTED_VALUE(E, engineWith({Rules[0], Rules[1]}, O));
  SourceFile F("t.py", "import torch\n"
                       "torch.cuda.empty_cache()\n"
                       "torch.cuda.manual_seed(0)\n"
                       "torch.cuda.synchronize()\n");
  std::vector<Diagnostic> Ds = E->check(F);
  ASSERT_EQ(3u, Ds.size());
  ASSERT_EQ(1u, Ds[0].Fixes.size());
  EXPECT_EQ(Applicability::Unsafe, Ds[0].Fixes[0].App);
  ASSERT_EQ(1u, Ds[0].Notes.size());
  EXPECT_EQ("unsafe off CUDA: torch.cpu has no `empty_cache` (PyTorch 2.6), and "
            "torch.get_device_module() returns it on a CPU-only build",
            Ds[0].Notes[0].Text);
  ASSERT_EQ(1u, Ds[1].Fixes.size());
  EXPECT_EQ(Applicability::Unsafe, Ds[1].Fixes[0].App);
  EXPECT_NE(std::string::npos, Ds[1].Notes[0].Text.find("`manual_seed`"));
  ASSERT_EQ(1u, Ds[2].Fixes.size());
  EXPECT_EQ(Applicability::Safe, Ds[2].Fixes[0].App);
  EXPECT_TRUE(Ds[2].Notes.empty());
  // Safe fixes only: the two unsafe ones stay.
  EXPECT_EQ("import torch\n"
            "torch.cuda.empty_cache()\n"
            "torch.cuda.manual_seed(0)\n"
            "torch.get_device_module().synchronize()\n",
            fixed(*E, F.text()));
  // Without a table nothing is downgraded.
  ASSERT_THAT_EXPECTED_VALUE(Plain, engineWith({Rules[0]}));
  std::vector<Diagnostic> Ps = Plain->check(F);
  ASSERT_EQ(1u, Ps.size());
  ASSERT_EQ(1u, Ps[0].Fixes.size());
  EXPECT_EQ(Applicability::Safe, Ps[0].Fixes[0].App);
}

} // namespace
} // namespace devport
