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
