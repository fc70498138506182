//===--- RuleSetTests.cpp - Loading and validating rules ------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "core/Rule.h"

#include "tests/support/TestFiles.h"

#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace devport {
namespace {

const char *Valid = R"yaml(# yaml-language-server: $schema=../schema.json
id: my-rule
language: python
category: device-runtime
severity: warning
message: "`torch.cuda.set_device` selects a CUDA device only"
description: |
  Two lines
  of text.
note: positional-only
url: https://example.org
any:
  - torch.cuda.set_device($DEV)
  - torch.cuda.set_device(device=$DEV)
where:
  DEV:
    not-regex: '^None$'
fix:
  - since: "2.7"
    template: torch.accelerator.set_device_index($DEV)
    applicability: safe
    title: use set_device_index
  - since: 2.6
    template: torch.accelerator.set_device_idx($DEV)
    applicability: unsafe
    note: deprecated later
examples:
  - before: torch.cuda.set_device(0)
    after: torch.accelerator.set_device_index(0)
)yaml";

/// The error text of loading Yaml as my-rule.yaml ("" if it loads).
std::string errorOf(llvm::StringRef Yaml, llvm::StringRef File = "my-rule.yaml") {
  auto R = RuleSet::loadBuffer(File, Yaml);
  if (R)
    return "";
  return llvm::toString(R.takeError());
}

std::string withLine(llvm::StringRef From, llvm::StringRef To) {
  std::string S = Valid;
  size_t At = S.find(From.str());
  EXPECT_NE(std::string::npos, At) << From.str();
  return S.replace(At, From.size(), To.str());
}

TEST(RuleSet, LoadsEveryField) {
  auto S = RuleSet::loadBuffer("my-rule.yaml", Valid);
  ASSERT_TRUE(static_cast<bool>(S)) << llvm::toString(S.takeError());
  ASSERT_EQ(1u, S->size());
  const Rule &R = *S->find("my-rule");
  EXPECT_EQ("python", R.Language);
  EXPECT_EQ("device-runtime", R.Category);
  EXPECT_EQ(Severity::Warning, R.Sev);
  EXPECT_EQ("Two lines\nof text.\n", R.Description);
  EXPECT_EQ("positional-only", R.Note);
  EXPECT_EQ("https://example.org", R.Url);
  ASSERT_EQ(2u, R.Patterns.size());
  EXPECT_EQ("torch.cuda.set_device(device=$DEV)", R.Patterns[1].Text);
  EXPECT_EQ(14u, R.Patterns[1].Loc.Line);
  EXPECT_EQ(5u, R.Patterns[1].Loc.Column);
  EXPECT_EQ("^None$", R.Where.at("DEV").NotRegex);
  ASSERT_EQ(2u, R.Fixes.size());
  EXPECT_EQ("2.6", R.Fixes[1].Since.str());
  EXPECT_EQ(Applicability::Unsafe, R.Fixes[1].App);
  EXPECT_EQ("use set_device_index", R.Fixes[0].Title);
  ASSERT_EQ(1u, R.Examples.size());
  EXPECT_EQ("torch.accelerator.set_device_index(0)", R.Examples[0].After);
  EXPECT_EQ("my-rule.yaml:2:5", R.Loc.str());
}

TEST(RuleSet, FixForPicksTheFirstFittingRelease) {
  auto S = RuleSet::loadBuffer("my-rule.yaml", Valid);
  ASSERT_TRUE(static_cast<bool>(S));
  const Rule &R = *S->find("my-rule");
  EXPECT_EQ(&R.Fixes[0], R.fixFor({2, 9}));
  EXPECT_EQ(&R.Fixes[0], R.fixFor({2, 7}));
  EXPECT_EQ(&R.Fixes[1], R.fixFor({2, 6}));
  EXPECT_EQ(nullptr, R.fixFor({2, 5}));
}

TEST(RuleSet, ValidationErrorsNameTheirPlace) {
  struct Case {
    std::string Yaml, Expected;
  } Cases[] = {
      {withLine("id: my-rule", "id: My_Rule"), "my-rule.yaml:2:5: invalid rule id 'My_Rule'"},
      {withLine("id: my-rule", "id: other-rule"),
       "my-rule.yaml:2:5: rule id 'other-rule' does not match the file name 'my-rule.yaml'"},
      {withLine("language: python", "language: cobol"),
       "my-rule.yaml:3:11: unsupported language 'cobol'"},
      {withLine("severity: warning", "severity: loud"), "my-rule.yaml:5:11: invalid severity 'loud'"},
      {withLine("category: device-runtime", "category: Device Runtime"),
       "my-rule.yaml:4:11: invalid category"},
      {withLine("url: https://example.org", "colour: blue"),
       "my-rule.yaml:11:1: unknown key 'colour' in a rule"},
      {withLine("url: https://example.org", "note: again"), "my-rule.yaml:11:1: duplicate key 'note'"},
      {withLine("  - torch.cuda.set_device($DEV)", "  - torch.cuda.set_device($dev)"),
       "my-rule.yaml:13:27: invalid metavariable in pattern"},
      {withLine("  - torch.cuda.set_device($DEV)\n  - torch.cuda.set_device(device=$DEV)",
                "  - torch.cuda.set_device($D)\n  - torch.cuda.set_device(device=$D)"),
       "template uses $DEV, which no pattern binds"},
      {withLine("    not-regex: '^None$'", "    not-regex: '(['"), "my-rule.yaml:17:16: invalid regex"},
      {withLine("  DEV:\n", "  OTHER:\n"), "my-rule.yaml:16:3: 'where' names $OTHER"},
      {withLine("since: \"2.7\"", "since: \"2.7.1\""), "my-rule.yaml:19:12: invalid 'since'"},
      {withLine("since: 2.6", "since: \"2.8\""), "fix 2 is unreachable"},
      {withLine("applicability: unsafe", "applicability: maybe"), "invalid applicability 'maybe'"},
      {withLine("message: \"`torch.cuda.set_device` selects a CUDA device only\"", "message: \"\""),
       "my-rule.yaml:6:10: 'message' must not be empty"},
      {withLine("any:", "pattern: x\nany:"), "use either 'pattern' or 'any', not both"},
      {withLine("fix:\n", "fix: nope\nxfix:\n"), "'fix' must be a list of fixes"},
      {"id: [unclosed\n", "my-rule.yaml:1:"},
      {"", "my-rule.yaml:1:1: empty rule file"},
      {"- id: my-rule\n", "my-rule.yaml:1:1: expected a mapping"},
      {"id: my-rule\n", "missing required key 'language'"},
  };
  for (const Case &C : Cases) {
    std::string Err = errorOf(C.Yaml);
    EXPECT_NE(std::string::npos, Err.find(C.Expected))
        << "expected: " << C.Expected << "\ngot: " << Err << "\nfor:\n"
        << C.Yaml;
  }
}

TEST(RuleSet, SeveralProblemsAreAllReported) {
  std::string Err = errorOf("id: my-rule\nlanguage: cobol\nseverity: loud\n");
  EXPECT_NE(std::string::npos, Err.find("unsupported language"));
  EXPECT_NE(std::string::npos, Err.find("invalid severity"));
  EXPECT_NE(std::string::npos, Err.find("missing required key 'category'"));
}

TEST(RuleSet, MetavariablesIn) {
  EXPECT_EQ((std::vector<std::string>{"A", "ARGS", "B_2"}),
            metavariablesIn("f($A, $$$ARGS, $B_2, $A, $$, $lower, $)"));
}

TEST(RuleSet, DirectoriesDuplicatesAndFilters) {
  test::TempDir D;
  std::string Other = withLine("id: my-rule", "id: other-rule");
  Other = Other.replace(Other.find("category: device-runtime"), 24, "category: memory");
  D.write("rules/python/my-rule.yaml", Valid);
  D.write("rules/python/other-rule.yaml", Other);
  D.write("rules/schema.yaml", "not a rule");
  D.write("rules/python/.hidden.yaml", "not a rule");
  auto S = RuleSet::loadDirectory(D.path("rules"));
  ASSERT_TRUE(static_cast<bool>(S)) << llvm::toString(S.takeError());
  ASSERT_EQ(2u, S->size());
  EXPECT_EQ("my-rule", S->rules()[0]->Id);
  EXPECT_EQ("other-rule", S->rules()[1]->Id);

  auto ById = S->filtered({"other-rule"}, {});
  ASSERT_TRUE(static_cast<bool>(ById));
  EXPECT_EQ(1u, ById->size());
  auto ByCategory = S->filtered({}, {"memory"});
  ASSERT_TRUE(static_cast<bool>(ByCategory));
  ASSERT_EQ(1u, ByCategory->size());
  EXPECT_EQ("my-rule", ByCategory->rules()[0]->Id);
  auto Unknown = S->filtered({"nope"}, {});
  ASSERT_FALSE(static_cast<bool>(Unknown));
  EXPECT_NE(std::string::npos, llvm::toString(Unknown.takeError()).find("'nope'"));

  D.write("more/my-rule.yaml", Valid);
  auto Dup = RuleSet::loadFiles({D.path("rules/python/my-rule.yaml"), D.path("more/my-rule.yaml")});
  ASSERT_FALSE(static_cast<bool>(Dup));
  EXPECT_NE(std::string::npos,
            llvm::toString(Dup.takeError()).find("duplicate rule id 'my-rule' (first defined at"));

  auto Missing = RuleSet::loadDirectory(D.path("nowhere"));
  ASSERT_FALSE(static_cast<bool>(Missing));
  EXPECT_NE(std::string::npos, llvm::toString(Missing.takeError()).find("nowhere"));
}

TEST(RuleSet, TheRealRuleDatabaseLoads) {
  auto S = RuleSet::loadDirectory(DEVPORT_SOURCE_DIR "/rules");
  ASSERT_TRUE(static_cast<bool>(S)) << llvm::toString(S.takeError());
  EXPECT_GE(S->size(), 7u);
  for (const auto &R : S->rules())
    EXPECT_FALSE(R->Fixes.empty() && R->Message.empty()) << R->Id;
}

} // namespace
} // namespace devport

namespace devport {
namespace {

/// rules/schema.json lists exactly the keys the loader accepts.
TEST(RuleSet, SchemaMatchesTheLoader) {
  std::string Text = test::readFile(DEVPORT_SOURCE_DIR "/rules/schema.json");
  auto V = llvm::json::parse(Text);
  ASSERT_TRUE(static_cast<bool>(V)) << llvm::toString(V.takeError());
  auto Keys = [](const llvm::json::Object *Props) {
    std::vector<std::string> Out;
    for (const auto &KV : *Props)
      Out.push_back(KV.first.str());
    std::sort(Out.begin(), Out.end());
    return Out;
  };
  auto Expected = [](llvm::ArrayRef<llvm::StringRef> L) {
    std::vector<std::string> Out(L.begin(), L.end());
    std::sort(Out.begin(), Out.end());
    return Out;
  };
  const llvm::json::Object *Props = V->getAsObject()->getObject("properties");
  ASSERT_TRUE(Props);
  EXPECT_EQ(Expected(RuleFileKeys::rule()), Keys(Props));
  EXPECT_EQ(Expected(RuleFileKeys::fix()),
            Keys(Props->getObject("fix")->getObject("items")->getObject("properties")));
  EXPECT_EQ(Expected(RuleFileKeys::where()),
            Keys(Props->getObject("where")->getObject("additionalProperties")->getObject(
                "properties")));
  EXPECT_EQ(Expected(RuleFileKeys::example()),
            Keys(Props->getObject("examples")->getObject("items")->getObject("properties")));
}

} // namespace
} // namespace devport
