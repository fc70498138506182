//===--- ProjectTest.cpp - Rules and settings for every path --------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
//
// Project over a two-rule database written inline, with `.devport.yaml`
// files in a temporary directory.
//
//===----------------------------------------------------------------------===//

#include "engine/Project.h"

#include "engine/EmbeddedRules.h"

#include "tests/support/Expected.h"
#include "tests/support/TestFiles.h"
#include "tests/support/TestRules.h"

#include <gtest/gtest.h>

namespace devport {
namespace {

/// A project over cuda-synchronize and cuda-device-count.
llvm::Expected<std::unique_ptr<Project>> projectWith(ProjectOptions O = ProjectOptions::forTest()) {
  auto Rules = test::loadRules({test::SynchronizeRule, test::DeviceCountRule});
  if (!Rules)
    return Rules.takeError();
  return Project::withRules(std::move(*Rules), std::move(O));
}

/// The ids of the rules E runs.
std::vector<std::string> ruleIds(const Engine &E) {
  std::vector<std::string> Ids;
  for (const auto &R : E.rules().rules())
    Ids.push_back(R->Id);
  return Ids;
}

using Ids = std::vector<std::string>;

TEST(Project, CudaCommentsKeepTheirLinesFindings) {
  // DeepSpeed marks its CUDA-specific lines `#ignore-cuda`: with
  // `cuda-comments`, what is found on such a line is kept, not reported.
  test::TempDir D;
  D.write(".devport.yaml", "cuda-comments: [\"ignore-cuda\"]\n");
  D.write("a.py", "");
  ASSERT_THAT_EXPECTED_VALUE(P, projectWith());
  ASSERT_THAT_EXPECTED_VALUE(E, P->engineFor(D.path("a.py")));
  ASSERT_NE(nullptr, E);
  SourceFile F("a.py", "import torch\n"
                       "torch.cuda.synchronize()  #ignore-cuda\n"
                       "n = (torch.cuda.device_count()  # ignore-cuda: multi-line\n"
                       "     + 1)\n"
                       "torch.cuda.synchronize()  # a comment that says nothing\n");
  CheckResult R = E->checkAll(F);
  ASSERT_EQ(1u, R.Findings.size());
  EXPECT_EQ(4u, F.lineOf(R.Findings[0].Range.Begin));
  ASSERT_EQ(2u, R.Kept.size());
  EXPECT_EQ("cuda-synchronize", R.Kept[0].Keeps.at(0).RuleId);
  EXPECT_EQ("cuda-device-count", R.Kept[1].Keeps.at(0).RuleId);
  EXPECT_NE(std::string::npos, R.Kept[0].Message.find("`ignore-cuda`")) << R.Kept[0].Message;

  // Without the setting the marker is a plain comment.
  test::TempDir Plain;
  Plain.write("a.py", "");
  ASSERT_THAT_EXPECTED_VALUE(Q, projectWith());
  ASSERT_THAT_EXPECTED_VALUE(G, Q->engineFor(Plain.path("a.py")));
  EXPECT_EQ(3u, G->checkAll(F).Findings.size());
}

TEST(Project, EmptyCudaCommentIsAnError) {
  test::TempDir D;
  D.write(".devport.yaml", "cuda-comments: [\"\"]\n");
  D.write("a.py", "");
  ASSERT_THAT_EXPECTED_VALUE(P, projectWith());
  auto E = P->engineFor(D.path("a.py"));
  ASSERT_FALSE(bool(E));
  std::string Msg = llvm::toString(E.takeError());
  EXPECT_NE(std::string::npos, Msg.find(".devport.yaml:1:")) << Msg;
  EXPECT_NE(std::string::npos, Msg.find("cuda-comments")) << Msg;
}

TEST(Project, ExcludedPathsGetNoEngine) {
  test::TempDir D;
  D.write(".devport.yaml", "exclude: [\"gen/\", \"**/skip_*.py\"]\n");
  D.write("gen/a.py", "");
  D.write("pkg/skip_me.py", "");
  D.write("pkg/a.py", "");
  ASSERT_THAT_EXPECTED_VALUE(P, projectWith());
  ASSERT_THAT_EXPECTED_VALUE(Gen, P->engineFor(D.path("gen/a.py")));
  EXPECT_EQ(nullptr, Gen);
  ASSERT_THAT_EXPECTED_VALUE(Skip, P->engineFor(D.path("pkg/skip_me.py")));
  EXPECT_EQ(nullptr, Skip);
  ASSERT_THAT_EXPECTED_VALUE(Kept, P->engineFor(D.path("pkg/a.py")));
  EXPECT_NE(nullptr, Kept);
  // Excludes apply only when asked (an editor checks an open excluded file).
  ASSERT_THAT_EXPECTED_VALUE(Anyway, P->engineFor(D.path("gen/a.py"), /*HonourExcludes=*/false));
  EXPECT_NE(nullptr, Anyway);
}

TEST(Project, OneSharedEnginePerSetting) {
  test::TempDir D;
  D.write(".devport.yaml", "per-file-ignores:\n  \"tests/**\": [cuda-synchronize]\n");
  D.write("a.py", "");
  D.write("pkg/b.py", "");
  D.write("tests/t.py", "");
  D.write("tests/u.py", "");
  ASSERT_THAT_EXPECTED_VALUE(P, projectWith());
  ASSERT_THAT_EXPECTED_VALUE(A, P->engineFor(D.path("a.py")));
  ASSERT_THAT_EXPECTED_VALUE(B, P->engineFor(D.path("pkg/b.py")));
  ASSERT_NE(nullptr, A);
  EXPECT_EQ(A.get(), B.get()); // the same configuration: one engine
  EXPECT_EQ((Ids{"cuda-device-count", "cuda-synchronize"}), ruleIds(*A));

  ASSERT_THAT_EXPECTED_VALUE(T, P->engineFor(D.path("tests/t.py")));
  ASSERT_THAT_EXPECTED_VALUE(U, P->engineFor(D.path("tests/u.py")));
  ASSERT_NE(nullptr, T);
  EXPECT_NE(A.get(), T.get()); // per-file-ignores: another setting
  EXPECT_EQ(T.get(), U.get());
  EXPECT_EQ((Ids{"cuda-device-count"}), ruleIds(*T));
}

TEST(Project, FilesOfOneDirectoryWithAndWithoutPerFileIgnores) {
  // A directory's files share a configuration and a target, not an engine:
  // whichever of them is asked for first.
  test::TempDir D;
  D.write(".devport.yaml", "per-file-ignores:\n  \"**/*_test.py\": [cuda-synchronize]\n");
  for (const char *F : {"pkg/a.py", "pkg/b_test.py", "pkg/c.py", "lib/x_test.py", "lib/y.py"})
    D.write(F, "");
  ASSERT_THAT_EXPECTED_VALUE(P, projectWith());
  auto Rules = [&](const char *F) {
    auto E = P->engineFor(D.path(F));
    EXPECT_TRUE(bool(E)) << F;
    return E && *E ? ruleIds(**E) : Ids{};
  };
  const Ids All{"cuda-device-count", "cuda-synchronize"}, Fewer{"cuda-device-count"};
  EXPECT_EQ(All, Rules("pkg/a.py"));
  EXPECT_EQ(Fewer, Rules("pkg/b_test.py"));
  EXPECT_EQ(All, Rules("pkg/c.py"));
  EXPECT_EQ(Fewer, Rules("lib/x_test.py"));
  EXPECT_EQ(All, Rules("lib/y.py"));
  EXPECT_EQ(Fewer, Rules("lib/x_test.py"));
}

TEST(Project, FrontEndSettingsWinOverTheConfigs) {
  test::TempDir D;
  D.write(".devport.yaml", "select: [cuda-synchronize]\ntarget-torch: \"2.6\"\n");
  D.write("a.py", "");
  {
    ASSERT_THAT_EXPECTED_VALUE(P, projectWith());
    ASSERT_THAT_EXPECTED_VALUE(E, P->engineFor(D.path("a.py")));
    ASSERT_NE(nullptr, E);
    EXPECT_EQ((Ids{"cuda-synchronize"}), ruleIds(*E));
    EXPECT_EQ((TorchVersion{2, 6}), E->options().Target);
  }
  ProjectOptions O = ProjectOptions::forTest();
  O.Select = {"cuda-device-count"};
  O.Target = TorchVersion{2, 8};
  ASSERT_THAT_EXPECTED_VALUE(P, projectWith(O));
  ASSERT_THAT_EXPECTED_VALUE(E, P->engineFor(D.path("a.py")));
  ASSERT_NE(nullptr, E);
  EXPECT_EQ((Ids{"cuda-device-count"}), ruleIds(*E));
  EXPECT_EQ((TorchVersion{2, 8}), E->options().Target);
}

TEST(Project, InvalidConfigIsAnErrorWithItsPlace) {
  test::TempDir D;
  D.write("bad/.devport.yaml", "target-torch: \"2.7\"\ncolour: blue\n");
  D.write("bad/a.py", "");
  D.write("names/.devport.yaml", "select:\n  - cuda-nope\n");
  D.write("names/a.py", "");
  ASSERT_THAT_EXPECTED_VALUE(P, projectWith());

  auto Bad = P->engineFor(D.path("bad/a.py"));
  ASSERT_FALSE(static_cast<bool>(Bad));
  std::string Err = llvm::toString(Bad.takeError());
  EXPECT_EQ(0u, Err.find(D.path("bad/.devport.yaml") + ":2:")) << Err;
  EXPECT_NE(std::string::npos, Err.find("colour")) << Err;

  auto Names = P->engineFor(D.path("names/a.py"));
  ASSERT_FALSE(static_cast<bool>(Names));
  std::string NamesErr = llvm::toString(Names.takeError());
  EXPECT_EQ(0u, NamesErr.find(D.path("names/.devport.yaml") + ":2:")) << NamesErr;
  EXPECT_NE(std::string::npos, NamesErr.find("unknown rule or category 'cuda-nope'"))
      << NamesErr;
}

TEST(Project, FileChangedReloadsTheConfig) {
  test::TempDir D;
  D.write(".devport.yaml", "target-torch: \"2.6\"\n");
  D.write("a.py", "");
  D.write("pkg/b.py", "");
  ASSERT_THAT_EXPECTED_VALUE(P, projectWith());
  ASSERT_THAT_EXPECTED_VALUE(Before, P->engineFor(D.path("a.py")));
  ASSERT_NE(nullptr, Before);
  EXPECT_EQ((TorchVersion{2, 6}), Before->options().Target);

  D.write(".devport.yaml", "target-torch: \"2.7\"\nignore: [cuda-synchronize]\n");
  ASSERT_THAT_EXPECTED_VALUE(Changed, P->fileChanged(D.path(".devport.yaml")));
  EXPECT_TRUE(Changed);
  ASSERT_THAT_EXPECTED_VALUE(After, P->engineFor(D.path("a.py")));
  ASSERT_NE(nullptr, After);
  EXPECT_EQ((TorchVersion{2, 7}), After->options().Target);
  EXPECT_EQ((Ids{"cuda-device-count"}), ruleIds(*After));
  // An engine handed out before stays valid and unchanged.
  EXPECT_EQ((TorchVersion{2, 6}), Before->options().Target);
  EXPECT_EQ((Ids{"cuda-device-count", "cuda-synchronize"}), ruleIds(*Before));

  // A configuration that appears nearer to a file takes over for it.
  D.write("pkg/.devport.yaml", "target-torch: \"2.8\"\n");
  ASSERT_THAT_EXPECTED_VALUE(Appeared, P->fileChanged(D.path("pkg/.devport.yaml")));
  EXPECT_TRUE(Appeared);
  ASSERT_THAT_EXPECTED_VALUE(Nearer, P->engineFor(D.path("pkg/b.py")));
  ASSERT_NE(nullptr, Nearer);
  EXPECT_EQ((TorchVersion{2, 8}), Nearer->options().Target);

  // A configuration rewritten into an invalid one is an error on next use.
  D.write(".devport.yaml", "target-torch: two\n");
  ASSERT_THAT_EXPECTED_VALUE(Broken, P->fileChanged(D.path(".devport.yaml")));
  EXPECT_TRUE(Broken);
  auto Bad = P->engineFor(D.path("a.py"));
  ASSERT_FALSE(static_cast<bool>(Bad));
  std::string Err = llvm::toString(Bad.takeError());
  EXPECT_EQ(0u, Err.find(D.path(".devport.yaml") + ":1:")) << Err;
}

TEST(Project, FileChangedIgnoresUnrelatedPaths) {
  test::TempDir D;
  D.write(".devport.yaml", "target-torch: \"2.6\"\n");
  D.write("a.py", "torch.cuda.synchronize()\n");
  D.write("notes.yaml", "x: 1\n");
  ASSERT_THAT_EXPECTED_VALUE(P, projectWith());
  ASSERT_THAT_EXPECTED_VALUE(Before, P->engineFor(D.path("a.py")));
  for (const char *Rel : {"a.py", "notes.yaml", "pkg/other.py"}) {
    ASSERT_THAT_EXPECTED_VALUE(Changed, P->fileChanged(D.path(Rel)));
    EXPECT_FALSE(Changed) << Rel;
  }
  ASSERT_THAT_EXPECTED_VALUE(After, P->engineFor(D.path("a.py")));
  EXPECT_EQ(Before.get(), After.get()); // nothing was dropped
}

TEST(Project, FileChangedReloadsAConfigsRuleFiles) {
  test::TempDir D;
  D.write(".devport.yaml", "rules: [extra]\n");
  D.write("a.py", "");
  auto ExtraRule = [](const char *Message) {
    return std::string("id: my-extra\nlanguage: python\ncategory: local\nseverity: warning\n"
                       "message: ") +
           Message + "\npattern: my.extra()\n";
  };
  D.write("extra/my-extra.yaml", ExtraRule("first"));
  ASSERT_THAT_EXPECTED_VALUE(P, projectWith());
  ASSERT_THAT_EXPECTED_VALUE(Before, P->engineFor(D.path("a.py")));
  ASSERT_NE(nullptr, Before);
  const Rule *R = Before->rules().find("my-extra");
  ASSERT_NE(nullptr, R);
  EXPECT_EQ("first", R->Message);
  EXPECT_EQ(nullptr, P->rules().find("my-extra")); // the base database is unchanged

  D.write("extra/my-extra.yaml", ExtraRule("second"));
  ASSERT_THAT_EXPECTED_VALUE(Changed, P->fileChanged(D.path("extra/my-extra.yaml")));
  EXPECT_TRUE(Changed);
  ASSERT_THAT_EXPECTED_VALUE(After, P->engineFor(D.path("a.py")));
  ASSERT_NE(nullptr, After);
  const Rule *R2 = After->rules().find("my-extra");
  ASSERT_NE(nullptr, R2);
  EXPECT_EQ("second", R2->Message);
}

TEST(Project, TargetFromTheProjectsTorchRequirement) {
  test::TempDir D;
  D.mkdir(".git"); // the search for packaging files stops here
  D.write("a/pyproject.toml", "[project]\ndependencies = [\"torch>=2.6\"]\n");
  D.write("a/src/x.py", "");
  D.write("a/src/y.py", "");
  D.write("b/requirements.txt", "torch~=2.7.1\n");
  D.write("b/z.py", "");
  D.write("c/w.py", "");
  ASSERT_THAT_EXPECTED_VALUE(P, projectWith());

  ASSERT_THAT_EXPECTED_VALUE(X, P->engineFor(D.path("a/src/x.py")));
  ASSERT_THAT_EXPECTED_VALUE(Y, P->engineFor(D.path("a/src/y.py")));
  ASSERT_NE(nullptr, X);
  EXPECT_EQ((TorchVersion{2, 6}), X->options().Target);
  EXPECT_EQ(X.get(), Y.get()); // one project, one floor: one engine
  ASSERT_THAT_EXPECTED_VALUE(TX, P->targetFor(D.path("a/src/x.py")));
  EXPECT_EQ(TargetOrigin::Project, TX.Origin);
  ASSERT_NE(nullptr, TX.Declared);
  EXPECT_EQ(D.path("a/pyproject.toml"), TX.Declared->File);
  EXPECT_EQ("torch>=2.6", TX.Declared->Requirement->Text);

  // Another project, another floor: another engine.
  ASSERT_THAT_EXPECTED_VALUE(Z, P->engineFor(D.path("b/z.py")));
  ASSERT_NE(nullptr, Z);
  EXPECT_EQ((TorchVersion{2, 7}), Z->options().Target);
  EXPECT_NE(X.get(), Z.get());

  // No project: the default.
  ASSERT_THAT_EXPECTED_VALUE(W, P->engineFor(D.path("c/w.py")));
  ASSERT_NE(nullptr, W);
  EXPECT_EQ(TorchVersion::defaultTarget(), W->options().Target);
  ASSERT_THAT_EXPECTED_VALUE(TW, P->targetFor(D.path("c/w.py")));
  EXPECT_EQ(TargetOrigin::Default, TW.Origin);
  EXPECT_EQ(nullptr, TW.Declared);
}

TEST(Project, TargetPrecedenceFrontEndConfigProjectDefault) {
  test::TempDir D;
  D.mkdir(".git");
  D.write("pyproject.toml", "[project]\ndependencies = [\"torch>=2.4\"]\n");
  D.write("cfg/.devport.yaml", "target-torch: \"2.7\"\n");
  D.write("cfg/a.py", "");
  D.write("plain/b.py", "");
  {
    ASSERT_THAT_EXPECTED_VALUE(P, projectWith());
    ASSERT_THAT_EXPECTED_VALUE(A, P->targetFor(D.path("cfg/a.py")));
    EXPECT_EQ(TargetOrigin::Config, A.Origin);
    EXPECT_EQ((TorchVersion{2, 7}), A.Release);
    EXPECT_EQ(D.path("cfg/.devport.yaml"), A.ConfigFile);
    ASSERT_TRUE(A.floorBelowTarget().has_value());
    EXPECT_EQ((TorchVersion{2, 4}), *A.floorBelowTarget());
    ASSERT_THAT_EXPECTED_VALUE(EA, P->engineFor(D.path("cfg/a.py")));
    EXPECT_EQ((TorchVersion{2, 7}), EA->options().Target);
    ASSERT_THAT_EXPECTED_VALUE(B, P->targetFor(D.path("plain/b.py")));
    EXPECT_EQ(TargetOrigin::Project, B.Origin);
    EXPECT_EQ((TorchVersion{2, 4}), B.Release);
  }
  ProjectOptions O = ProjectOptions::forTest();
  O.Target = TorchVersion{2, 9};
  ASSERT_THAT_EXPECTED_VALUE(P, projectWith(O));
  for (const char *Rel : {"cfg/a.py", "plain/b.py"}) {
    ASSERT_THAT_EXPECTED_VALUE(T, P->targetFor(D.path(Rel)));
    EXPECT_EQ(TargetOrigin::CommandLine, T.Origin) << Rel;
    EXPECT_EQ((TorchVersion{2, 9}), T.Release) << Rel;
    ASSERT_THAT_EXPECTED_VALUE(E, P->engineFor(D.path(Rel)));
    EXPECT_EQ((TorchVersion{2, 9}), E->options().Target) << Rel;
  }
}

TEST(Project, FileChangedRereadsTheProjectsRequirements) {
  test::TempDir D;
  D.mkdir(".git");
  D.write("requirements.txt", "-r reqs/base.in\n");
  D.write("reqs/base.in", "torch>=2.6\n");
  D.write("a.py", "");
  ASSERT_THAT_EXPECTED_VALUE(P, projectWith());
  ASSERT_THAT_EXPECTED_VALUE(Before, P->engineFor(D.path("a.py")));
  EXPECT_EQ((TorchVersion{2, 6}), Before->options().Target);

  // An included file, whatever its name, is one the project depends on.
  D.write("reqs/base.in", "torch>=2.7\n");
  ASSERT_THAT_EXPECTED_VALUE(Included, P->fileChanged(D.path("reqs/base.in")));
  EXPECT_TRUE(Included);
  ASSERT_THAT_EXPECTED_VALUE(After, P->engineFor(D.path("a.py")));
  EXPECT_EQ((TorchVersion{2, 7}), After->options().Target);
  EXPECT_EQ((TorchVersion{2, 6}), Before->options().Target); // still valid

  // A packaging file that appears nearer takes over.
  D.write("pyproject.toml", "[project]\ndependencies = ['torch>=2.8']\n");
  ASSERT_THAT_EXPECTED_VALUE(Appeared, P->fileChanged(D.path("pyproject.toml")));
  EXPECT_TRUE(Appeared);
  ASSERT_THAT_EXPECTED_VALUE(Now, P->engineFor(D.path("a.py")));
  EXPECT_EQ((TorchVersion{2, 8}), Now->options().Target);

  // Without the file change notice the cache is kept.
  D.write("pyproject.toml", "[project]\ndependencies = ['torch>=2.5']\n");
  ASSERT_THAT_EXPECTED_VALUE(Cached, P->engineFor(D.path("a.py")));
  EXPECT_EQ(Now.get(), Cached.get());
  ASSERT_THAT_EXPECTED_VALUE(Unrelated, P->fileChanged(D.path("notes.txt")));
  EXPECT_FALSE(Unrelated);
  ASSERT_THAT_EXPECTED_VALUE(Still, P->engineFor(D.path("a.py")));
  EXPECT_EQ(Now.get(), Still.get());
}

TEST(Project, EmbeddedRulesPassTheWalkTheirLoadSkips) {
  // loadEmbeddedRules() skips the syntax and depth walk that user rule
  // files get: each embedded file passes it, and the two loads agree.
  ASSERT_THAT_EXPECTED_VALUE(All, loadEmbeddedRules());
  std::vector<std::string> Ids;
  size_t Files = 0;
  for (const EmbeddedRuleFile *E = EmbeddedRuleFiles; E->Path; ++E, ++Files) {
    ASSERT_THAT_EXPECTED_VALUE(Checked, RuleSet::loadBuffer(E->Path, E->Text));
    for (const auto &R : Checked.rules())
      Ids.push_back(R->Id);
  }
  EXPECT_GT(Files, 90u);
  std::vector<std::string> Embedded;
  for (const auto &R : All.rules())
    Embedded.push_back(R->Id);
  llvm::sort(Ids);
  llvm::sort(Embedded);
  EXPECT_EQ(Ids, Embedded);
}

TEST(Project, EmbeddedPythonRulesCompileWhenAPythonFileIsFirstChecked) {
  // Compiling the embedded rules cannot fail (the test suite compiles them):
  // a run of C++ files never compiles the Python patterns.
  ASSERT_THAT_EXPECTED_VALUE(All, loadEmbeddedRules());
  for (const auto &R : All.rules())
    EXPECT_TRUE(R->Embedded) << R->Id;
  ASSERT_THAT_EXPECTED_VALUE(E, Engine::create(All, EngineOptions::forTest()));
  EXPECT_EQ(std::vector<llvm::StringRef>{"cpp"}, E->compiledLanguages());
  SourceFile Cpp("a.cpp", "void f(at::Tensor t) { t.to(at::kCUDA); }\n");
  EXPECT_FALSE(E->check(Cpp).empty());
  EXPECT_EQ(std::vector<llvm::StringRef>{"cpp"}, E->compiledLanguages());
  SourceFile Py("a.py", "import torch\ntorch.cuda.synchronize()\n");
  std::vector<Diagnostic> Ds = E->check(Py);
  ASSERT_EQ(1u, Ds.size());
  EXPECT_EQ("cuda-synchronize", Ds[0].RuleId);
  EXPECT_EQ((std::vector<llvm::StringRef>{"python", "cpp"}), E->compiledLanguages());
}

TEST(Project, UserPythonRulesCompileWhenTheEngineIsCreated) {
  // A rule file of the user's may be broken: its error comes before any
  // file is read, whatever the files are.
  ASSERT_THAT_EXPECTED_VALUE(Rules, test::loadRules({test::SynchronizeRule}));
  EXPECT_FALSE(Rules.rules().front()->Embedded);
  ASSERT_THAT_EXPECTED_VALUE(E, Engine::create(Rules, EngineOptions::forTest()));
  EXPECT_EQ((std::vector<llvm::StringRef>{"python", "cpp"}), E->compiledLanguages());
  ASSERT_THAT_EXPECTED_VALUE(
      Broken, RuleSet::loadBuffer("broken-pattern.yaml",
                                  "id: broken-pattern\nlanguage: python\ncategory: device-runtime\n"
                                  "severity: warning\nmessage: m\npattern: \"torch.cuda.f(\"\n"));
  EXPECT_FALSE(static_cast<bool>(
      llvm::expectedToOptional(Engine::create(Broken, EngineOptions::forTest()))));
}

TEST(Project, TheBuiltInBackendTableLoads) {
  ASSERT_THAT_EXPECTED_VALUE(T, loadBackendTable());
  ASSERT_NE(nullptr, T);
  EXPECT_EQ("2.6", T->Release);
  EXPECT_TRUE(T->lacking("synchronize").empty());
  EXPECT_EQ((std::vector<std::string>{"mps", "mtia", "cpu"}), T->lacking("manual_seed_all"));
  EXPECT_EQ(std::vector<std::string>{"cpu"}, T->lacking("empty_cache"));
}

} // namespace
} // namespace devport
