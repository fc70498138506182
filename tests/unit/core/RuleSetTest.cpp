//===--- RuleSetTest.cpp - Loading and validating rules -------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Tests of core/RuleSet.cpp: the rule file format (every field, block
/// scalars), every validation error with its exact place, loading
/// directories and file lists, merging, fix choice by release, select/ignore
/// filtering, metavariablesIn, and that rules/schema.json, docs and the real
/// rule database agree with the loader.
///
//===----------------------------------------------------------------------===//

#include "core/Rule.h"

#include "tests/support/Expected.h"
#include "tests/support/TestFiles.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace devport {
namespace {

/// Every field, in one rule (line numbers matter to the tests below).
const char *Full = R"yaml(# yaml-language-server: $schema=../schema.json
id: my-rule
language: python
category: device-runtime
severity: warning
message: "`torch.cuda.set_device` selects a CUDA device only"
description: |
  Two lines
  of text.
note: positional-only in torch.accelerator
url: https://example.org/set_device
any:
  - torch.cuda.set_device($DEV)
  - "torch.cuda.set_device(device=$DEV)"
where:
  DEV:
    regex: '^[a-z_]+$'
    not-regex: '^None$'
fix:
  - since: "2.7"
    template: torch.accelerator.set_device_index($DEV)
    applicability: safe
    title: "use torch.accelerator.set_device_index"
  - since: 2.6
    template: torch.accelerator.set_device_idx($DEV)
    applicability: unsafe
    note: deprecated from 2.7 on
  - since: "2.5"
    template: torch.cuda.set_device($DEV)  # $$ is a literal dollar
    applicability: display-only
examples:
  - before: "torch.cuda.set_device(rank)"
    after: "torch.accelerator.set_device_index(rank)"
  - before: torch.cuda.set_device(device=rank)
)yaml";

/// The smallest valid rule that the error cases below change one thing of.
const char *Minimal = R"yaml(id: my-rule
language: python
category: device-runtime
severity: warning
message: "`torch.cuda.set_device` selects a CUDA device only"
pattern: torch.cuda.set_device($DEV)
fix:
  - since: "2.7"
    template: torch.accelerator.set_device_index($DEV)
)yaml";

/// Minimal with the first occurrence of From replaced by To.
std::string minimalWith(llvm::StringRef From, llvm::StringRef To) {
  std::string S = Minimal;
  size_t At = S.find(From.str());
  EXPECT_NE(std::string::npos, At) << "not in Minimal: " << From.str();
  if (At == std::string::npos)
    return S;
  return S.replace(At, From.size(), To.str());
}

/// The full error text of loading Yaml as File ("" if it loads).
std::string errorOf(llvm::StringRef Yaml, llvm::StringRef File = "my-rule.yaml") {
  auto S = RuleSet::loadBuffer(File, Yaml);
  if (S)
    return "";
  return llvm::toString(S.takeError());
}

/// The one rule of Yaml; fails the test if it does not load.
std::shared_ptr<const Rule> ruleOf(llvm::StringRef Yaml, llvm::StringRef File = "my-rule.yaml") {
  auto S = RuleSet::loadBuffer(File, Yaml);
  if (!S) {
    ADD_FAILURE() << llvm::toString(S.takeError());
    return nullptr;
  }
  EXPECT_EQ(1u, S->size());
  return S->rules().empty() ? nullptr : S->rules()[0];
}

TEST(RuleSetTest, RuleLocStr) {
  EXPECT_EQ("a.yaml:3:7", (RuleLoc{"a.yaml", 3, 7}.str()));
  EXPECT_EQ("a.yaml", (RuleLoc{"a.yaml", 0, 0}.str()));
  EXPECT_EQ("3:7", (RuleLoc{"", 3, 7}.str()));
}

TEST(RuleSetTest, LoadsEveryField) {
  auto R = ruleOf(Full);
  ASSERT_TRUE(R);
  EXPECT_EQ("my-rule", R->Id);
  EXPECT_EQ(RuleKind::Finding, R->Kind);
  EXPECT_EQ("python", R->Language);
  EXPECT_EQ("device-runtime", R->Category);
  EXPECT_EQ(Severity::Warning, R->Sev);
  EXPECT_EQ("`torch.cuda.set_device` selects a CUDA device only", R->Message);
  EXPECT_EQ("Two lines\nof text.\n", R->Description);
  EXPECT_EQ("positional-only in torch.accelerator", R->Note);
  EXPECT_EQ("https://example.org/set_device", R->Url);
  EXPECT_EQ("", R->Focus);
  EXPECT_EQ("my-rule.yaml:2:5", R->Loc.str()); // the `id:` value

  ASSERT_EQ(2u, R->Patterns.size());
  EXPECT_EQ("torch.cuda.set_device($DEV)", R->Patterns[0].Text);
  EXPECT_EQ("my-rule.yaml:13:5", R->Patterns[0].Loc.str());
  EXPECT_EQ("torch.cuda.set_device(device=$DEV)", R->Patterns[1].Text); // quotes removed
  EXPECT_EQ("my-rule.yaml:14:5", R->Patterns[1].Loc.str());             // at its quote

  ASSERT_EQ(1u, R->Where.size());
  const MetavarConstraint &C = R->Where.at("DEV");
  EXPECT_EQ("^[a-z_]+$", C.Regex);
  EXPECT_EQ("^None$", C.NotRegex);
  EXPECT_TRUE(C.Captures.empty());
  EXPECT_EQ("my-rule.yaml:16:3", C.Loc.str());

  ASSERT_EQ(3u, R->Fixes.size());
  EXPECT_EQ((TorchVersion{2, 7}), R->Fixes[0].Since);
  EXPECT_EQ("torch.accelerator.set_device_index($DEV)", R->Fixes[0].Template);
  EXPECT_EQ(Applicability::Safe, R->Fixes[0].App);
  EXPECT_EQ("use torch.accelerator.set_device_index", R->Fixes[0].Title);
  EXPECT_EQ("", R->Fixes[0].Note);
  EXPECT_EQ("my-rule.yaml:20:5", R->Fixes[0].Loc.str());
  EXPECT_EQ((TorchVersion{2, 6}), R->Fixes[1].Since); // a plain scalar
  EXPECT_EQ(Applicability::Unsafe, R->Fixes[1].App);
  EXPECT_EQ("", R->Fixes[1].Title);
  EXPECT_EQ("deprecated from 2.7 on", R->Fixes[1].Note);
  EXPECT_EQ(Applicability::DisplayOnly, R->Fixes[2].App);
  EXPECT_EQ("torch.cuda.set_device($DEV)", R->Fixes[2].Template); // the comment is YAML's

  ASSERT_EQ(2u, R->Examples.size());
  EXPECT_EQ("torch.cuda.set_device(rank)", R->Examples[0].Before);
  EXPECT_EQ("torch.accelerator.set_device_index(rank)", R->Examples[0].After);
  EXPECT_EQ("torch.cuda.set_device(device=rank)", R->Examples[1].Before);
  EXPECT_EQ("", R->Examples[1].After);
}

TEST(RuleSetTest, DefaultsOfOptionalFields) {
  auto R = ruleOf(Minimal);
  ASSERT_TRUE(R);
  EXPECT_EQ(RuleKind::Finding, R->Kind);
  EXPECT_EQ(Applicability::Safe, R->Fixes[0].App);
  EXPECT_TRUE(R->Description.empty() && R->Note.empty() && R->Url.empty());
  EXPECT_TRUE(R->Where.empty() && R->Examples.empty());
  ASSERT_EQ(1u, R->Patterns.size());
  EXPECT_EQ("my-rule.yaml:6:10", R->Patterns[0].Loc.str());
}

TEST(RuleSetTest, KeepRulesFocusAndCaptures) {
  auto Keep = ruleOf(R"yaml(id: keep-it
kind: keep
language: python
category: keep
severity: info
message: cuDNN flags stay CUDA
pattern: torch.backends.cudnn.$ATTR
)yaml",
                     "keep-it.yaml");
  ASSERT_TRUE(Keep);
  EXPECT_EQ(RuleKind::Keep, Keep->Kind);
  EXPECT_EQ(Severity::Info, Keep->Sev);

  auto R = ruleOf(R"yaml(id: index-string
language: python
category: device-placement
severity: error
message: a CUDA device string
any:
  - $F($$$A, device=$S, $$$B)
  - torch.set_default_device($S)
where:
  $S:
    regex: '^"cuda:([0-9]+)"$'
    captures: [$I]
focus: $S
fix:
  - since: "2.6"
    template: $DEVICE_TYPE + ":$I"
)yaml",
                  "index-string.yaml");
  ASSERT_TRUE(R);
  EXPECT_EQ(Severity::Error, R->Sev);
  EXPECT_EQ("S", R->Focus);
  ASSERT_EQ(1u, R->Where.count("S"));
  EXPECT_EQ((std::vector<std::string>{"I"}), R->Where.at("S").Captures);
  EXPECT_EQ("$DEVICE_TYPE + \":$I\"", R->Fixes[0].Template);
}

TEST(RuleSetTest, BlockScalars) {
  auto R = ruleOf(R"yaml(id: my-rule
language: python
category: device-runtime
severity: warning
message: >-
  `torch.cuda.synchronize`
  waits for CUDA only
description: |
  First.

  Second.
note: >
  folded
  lines
pattern: |
    torch.cuda.synchronize(
        $$$ARGS)
fix:
  - since: "2.6"
    template: |-
      torch.accelerator.synchronize($$$ARGS)
examples:
  - before: |
      torch.cuda.synchronize()
)yaml");
  ASSERT_TRUE(R);
  EXPECT_EQ("`torch.cuda.synchronize` waits for CUDA only", R->Message);
  EXPECT_EQ("First.\n\nSecond.\n", R->Description);
  EXPECT_EQ("folded lines\n", R->Note);
  ASSERT_EQ(1u, R->Patterns.size());
  EXPECT_EQ("torch.cuda.synchronize(\n    $$$ARGS)\n", R->Patterns[0].Text);
  EXPECT_EQ("my-rule.yaml:16:5", R->Patterns[0].Loc.str()); // the text, not the `|`
  EXPECT_EQ("torch.accelerator.synchronize($$$ARGS)", R->Fixes[0].Template);
  EXPECT_EQ("torch.cuda.synchronize()\n", R->Examples[0].Before);

  // Folding: `>` joins lines with spaces, keeps empty lines and the breaks
  // around more-indented lines; `|` keeps every break. Headers may carry
  // chomping and indentation indicators and a comment.
  auto F = ruleOf(R"yaml(id: my-rule
language: python
category: device-runtime
severity: warning
message: >-   # a comment | with > in it
  one
  line
description: >+

  a
  b

  c
    more indented
  d

note: |2-
    kept
   as is
any:
  - >
    torch.cuda.synchronize(
      $$$ARGS)
  - |-
    torch.cuda.synchronize()
)yaml");
  ASSERT_TRUE(F);
  EXPECT_EQ("one line", F->Message);
  EXPECT_EQ("\na b\nc\n  more indented\nd\n\n", F->Description);
  EXPECT_EQ("  kept\n as is", F->Note);
  ASSERT_EQ(2u, F->Patterns.size());
  EXPECT_EQ("torch.cuda.synchronize(\n  $$$ARGS)\n", F->Patterns[0].Text);
  EXPECT_EQ("my-rule.yaml:22:5", F->Patterns[0].Loc.str());
  EXPECT_EQ("torch.cuda.synchronize()", F->Patterns[1].Text);
  EXPECT_EQ("my-rule.yaml:25:5", F->Patterns[1].Loc.str());

  // A literal message on two lines is two lines.
  EXPECT_EQ("my-rule.yaml:6:3: 'message' must be one line (put details in 'description' or "
            "'note')",
            errorOf(minimalWith("message: \"`torch.cuda.set_device` selects a CUDA device only\"",
                                "message: |\n  one\n  two")));

  // A bad metavariable in a block scalar: the place of the `$` itself.
  EXPECT_EQ("my-rule.yaml:8:9: invalid metavariable in pattern `torch.cuda.synchronize(\n"
            "    $args)` ($NAME or $$$NAME, NAME in [A-Z_][A-Z0-9_]*)",
            errorOf(R"yaml(id: my-rule
language: python
category: device-runtime
severity: warning
message: m
pattern: |
    torch.cuda.synchronize(
        $args)
)yaml"));
}

struct ErrorCase {
  const char *What;
  std::string Yaml;
  std::string Expected; ///< The whole error text.
  std::string File = "my-rule.yaml";
};

TEST(RuleSetTest, ValidationErrorsNameTheirPlace) {
  const std::string AllowedRuleKeys =
      "(expected one of: id, kind, language, category, severity, message, description, note, "
      "url, pattern, any, where, focus, fix, examples, matcher)";
  const ErrorCase Cases[] = {
      // id
      {"id format", minimalWith("id: my-rule", "id: My_Rule"),
       "My_Rule.yaml:1:5: invalid rule id 'My_Rule' (expected kebab-case: lower-case letters and "
       "digits, joined by '-')",
       "My_Rule.yaml"},
      {"id double dash", minimalWith("id: my-rule", "id: my--rule"),
       "my--rule.yaml:1:5: invalid rule id 'my--rule' (expected kebab-case: lower-case letters "
       "and digits, joined by '-')",
       "my--rule.yaml"},
      {"id trailing dash", minimalWith("id: my-rule", "id: rule-"),
       "rule-.yaml:1:5: invalid rule id 'rule-' (expected kebab-case: lower-case letters and "
       "digits, joined by '-')",
       "rule-.yaml"},
      {"id leading digit", minimalWith("id: my-rule", "id: 1rule"),
       "1rule.yaml:1:5: invalid rule id '1rule' (expected kebab-case: lower-case letters and "
       "digits, joined by '-')",
       "1rule.yaml"},
      {"id is the file stem", minimalWith("id: my-rule", "id: other-rule"),
       "rules/python/my-rule.yaml:1:5: rule id 'other-rule' does not match the file name "
       "'my-rule.yaml'",
       "rules/python/my-rule.yaml"},
      {"id is a string", minimalWith("id: my-rule", "id: [my-rule]"),
       "my-rule.yaml:1:5: expected a string for 'id' (found a list)"},
      {"id has a value", minimalWith("id: my-rule", "id:"),
       "my-rule.yaml:1:1: expected a string for 'id' (found nothing)"},
      // enums and formats
      {"language", minimalWith("language: python", "language: cobol"),
       "my-rule.yaml:2:11: unsupported language 'cobol' (expected python or cpp)"},
      {"category", minimalWith("category: device-runtime", "category: Device_Runtime"),
       "my-rule.yaml:3:11: invalid category 'Device_Runtime' (expected kebab-case)"},
      {"severity", minimalWith("severity: warning", "severity: loud"),
       "my-rule.yaml:4:11: invalid severity 'loud' (expected error, warning, info or hint)"},
      {"kind", minimalWith("language:", "kind: skip\nlanguage:"),
       "my-rule.yaml:2:7: invalid kind 'skip' (expected finding or keep)"},
      {"empty message",
       minimalWith("message: \"`torch.cuda.set_device` selects a CUDA device only\"",
                   "message: \"  \""),
       "my-rule.yaml:5:10: 'message' must not be empty"},
      {"two-line message",
       minimalWith("message: \"`torch.cuda.set_device` selects a CUDA device only\"",
                   "message: \"one\\ntwo\""),
       "my-rule.yaml:5:10: 'message' must be one line (put details in 'description' or 'note')"},
      {"message is a string",
       minimalWith("message: \"`torch.cuda.set_device` selects a CUDA device only\"",
                   "message:\n  text: x"),
       "my-rule.yaml:6:3: expected a string for 'message' (found a mapping)"},
      // keys
      {"unknown key", minimalWith("fix:", "colour: blue\nfix:"),
       "my-rule.yaml:7:1: unknown key 'colour' in a rule " + AllowedRuleKeys},
      {"duplicate key", minimalWith("fix:", "severity: error\nfix:"),
       "my-rule.yaml:7:1: duplicate key 'severity'"},
      {"missing key", minimalWith("severity: warning\n", ""),
       "my-rule.yaml:1:1: missing required key 'severity'"},
      // pattern / any
      {"pattern and any", minimalWith("fix:", "any:\n  - torch.cuda.foo($DEV)\nfix:"),
       "my-rule.yaml:7:1: use either 'pattern' or 'any', not both"},
      {"no pattern", minimalWith("pattern: torch.cuda.set_device($DEV)\n", ""),
       "my-rule.yaml:1:1: missing 'pattern' (or 'any': a list of patterns)"},
      {"pattern is a string",
       minimalWith("pattern: torch.cuda.set_device($DEV)", "pattern: [a, b]"),
       "my-rule.yaml:6:10: expected a string for 'pattern' (found a list)"},
      {"empty pattern", minimalWith("pattern: torch.cuda.set_device($DEV)", "pattern: ''"),
       "my-rule.yaml:6:10: pattern must not be empty"},
      {"any is a list",
       minimalWith("pattern: torch.cuda.set_device($DEV)", "any: torch.cuda.x($DEV)"),
       "my-rule.yaml:6:6: expected a list for 'any' (found a string)"},
      {"any is not empty", minimalWith("pattern: torch.cuda.set_device($DEV)", "any: []"),
       "my-rule.yaml:6:6: 'any' must list at least one pattern"},
      {"any lists strings",
       minimalWith("pattern: torch.cuda.set_device($DEV)",
                   "any:\n  - torch.cuda.set_device($DEV)\n  - {a: b}"),
       "my-rule.yaml:8:5: expected a string for an 'any' entry (found a mapping)"},
      // metavariables in patterns
      {"lower-case metavariable", minimalWith("set_device($DEV)\n", "set_device($dev)\n"),
       "my-rule.yaml:6:32: invalid metavariable in pattern `torch.cuda.set_device($dev)` ($NAME "
       "or $$$NAME, NAME in [A-Z_][A-Z0-9_]*)"},
      {"digit metavariable", minimalWith("set_device($DEV)\n", "set_device($DEV, $1)\n"),
       "my-rule.yaml:6:38: invalid metavariable in pattern `torch.cuda.set_device($DEV, $1)` "
       "($NAME or $$$NAME, NAME in [A-Z_][A-Z0-9_]*)"},
      {"lone dollar",
       minimalWith("pattern: torch.cuda.set_device($DEV)\n",
                   "any:\n  - torch.cuda.set_device($DEV)\n  - x[$]\n"),
       "my-rule.yaml:8:7: invalid metavariable in pattern `x[$]` ($NAME or $$$NAME, NAME in "
       "[A-Z_][A-Z0-9_]*)"},
      {"two dollars", minimalWith("set_device($DEV)\n", "set_device($DEV, $$X)\n"),
       "my-rule.yaml:6:38: invalid metavariable in pattern `torch.cuda.set_device($DEV, $$X)` "
       "($NAME or $$$NAME, NAME in [A-Z_][A-Z0-9_]*)"},
      {"quoted pattern",
       minimalWith("pattern: torch.cuda.set_device($DEV)\n",
                   "pattern: \"torch.cuda.set_device($DEV, $dev)\"\n"),
       "my-rule.yaml:6:39: invalid metavariable in pattern `torch.cuda.set_device($DEV, $dev)` "
       "($NAME or $$$NAME, NAME in [A-Z_][A-Z0-9_]*)"},
      {"reserved metavariable", minimalWith("set_device($DEV)\n", "set_device($DEV, $DEVICE)\n"),
       "my-rule.yaml:6:10: $DEVICE is reserved for the device expression; patterns cannot bind "
       "it"},
      // fixes
      {"template binds", minimalWith("set_device_index($DEV)", "set_device_index($IDX, $DEV)"),
       "my-rule.yaml:9:15: template uses $IDX, which no pattern binds"},
      {"template dollar", minimalWith("set_device_index($DEV)", "set_device_index($DEV, $dev)"),
       "my-rule.yaml:9:56: invalid metavariable in template "
       "`torch.accelerator.set_device_index($DEV, $dev)` ($NAME or $$$NAME, NAME in "
       "[A-Z_][A-Z0-9_]*; $$ is a literal $)"},
      {"empty template",
       minimalWith("template: torch.accelerator.set_device_index($DEV)", "template: \"\""),
       "my-rule.yaml:9:15: 'template' must not be empty"},
      {"missing template",
       minimalWith("    template: torch.accelerator.set_device_index($DEV)\n", "    title: t\n"),
       "my-rule.yaml:8:5: missing required key 'template' in fix 1"},
      {"missing since", minimalWith("  - since: \"2.7\"\n    template", "  - template"),
       "my-rule.yaml:8:5: missing required key 'since' in fix 1"},
      {"since format", minimalWith("since: \"2.7\"", "since: \"2.7.1\""),
       "my-rule.yaml:8:12: invalid 'since' '2.7.1' (expected MAJOR.MINOR, e.g. \"2.7\")"},
      {"since is a number", minimalWith("since: \"2.7\"", "since: 2"),
       "my-rule.yaml:8:12: invalid 'since' '2' (expected MAJOR.MINOR, e.g. \"2.7\")"},
      {"applicability", minimalWith("index($DEV)\n", "index($DEV)\n    applicability: maybe\n"),
       "my-rule.yaml:10:20: invalid applicability 'maybe' (expected safe, unsafe or "
       "display-only)"},
      {"unknown fix key", minimalWith("index($DEV)\n", "index($DEV)\n    when: always\n"),
       "my-rule.yaml:10:5: unknown key 'when' in a fix (expected one of: since, template, "
       "applicability, title, note)"},
      {"fix is a list",
       minimalWith("fix:\n  - since: \"2.7\"\n    template: "
                   "torch.accelerator.set_device_index($DEV)\n",
                   "fix: torch.accelerator.set_device_index($DEV)\n"),
       "my-rule.yaml:7:6: expected a list for 'fix' (found a string)"},
      {"fix entries are mappings",
       minimalWith("  - since: \"2.7\"\n    template: "
                   "torch.accelerator.set_device_index($DEV)\n",
                   "  - torch.accelerator.set_device_index($DEV)\n"),
       "my-rule.yaml:8:5: expected a mapping for fix 1 (found a string)"},
      {"newer fix after older",
       minimalWith("index($DEV)\n", "index($DEV)\n  - since: \"2.9\"\n    template: x($DEV)\n"),
       "my-rule.yaml:10:12: fix 2 is unreachable: fix 1 (since 2.7) is chosen for every release "
       "from 2.9 on; list fixes newest first"},
      {"same since twice",
       minimalWith("index($DEV)\n", "index($DEV)\n  - since: 2.7\n    template: x($DEV)\n"),
       "my-rule.yaml:10:12: fix 2 is unreachable: fix 1 (since 2.7) is chosen for every release "
       "from 2.7 on; list fixes newest first"},
      {"keep rules have no fix", minimalWith("language:", "kind: keep\nlanguage:"),
       "my-rule.yaml:9:5: a keep rule cannot have a fix"},
      // where
      {"where names a pattern metavariable",
       minimalWith("fix:", "where:\n  OTHER:\n    regex: x\nfix:"),
       "my-rule.yaml:8:3: 'where' names $OTHER, which no pattern binds"},
      {"where key is a metavariable", minimalWith("fix:", "where:\n  dev:\n    regex: x\nfix:"),
       "my-rule.yaml:8:3: invalid metavariable 'dev' in 'where' ($NAME, NAME in [A-Z_][A-Z0-9_]*)"},
      {"where regex", minimalWith("fix:", "where:\n  DEV:\n    regex: '(['\nfix:"),
       "my-rule.yaml:9:12: invalid regex '([': brackets ([ ]) not balanced"},
      {"where not-regex", minimalWith("fix:", "where:\n  DEV:\n    not-regex: 'a{2,1}'\nfix:"),
       "my-rule.yaml:9:16: invalid regex 'a{2,1}': invalid repetition count(s)"},
      {"where unknown key", minimalWith("fix:", "where:\n  DEV:\n    glob: '*'\nfix:"),
       "my-rule.yaml:9:5: unknown key 'glob' in a 'where' constraint (expected one of: regex, "
       "not-regex, captures)\n"
       "my-rule.yaml:8:3: no constraint on $DEV (expected regex, not-regex or captures)"},
      {"where duplicate",
       minimalWith("fix:", "where:\n  DEV:\n    regex: a\n  $DEV:\n    regex: b\nfix:"),
       "my-rule.yaml:10:3: duplicate key '$DEV'"},
      {"where is a mapping", minimalWith("fix:", "where: DEV\nfix:"),
       "my-rule.yaml:7:8: expected a mapping for 'where' (found a string)"},
      {"where entries are mappings", minimalWith("fix:", "where:\n  DEV: x\nfix:"),
       "my-rule.yaml:8:8: expected a mapping for $DEV in 'where' (found a string)"},
      {"captures and groups",
       minimalWith("fix:", "where:\n  DEV:\n    regex: a\n    captures: [N]\nfix:"),
       "my-rule.yaml:10:5: 'captures' names 1 groups but the regex has 0"},
      {"capture names",
       minimalWith("fix:", "where:\n  DEV:\n    regex: (a)\n    captures: [n]\nfix:"),
       "my-rule.yaml:10:16: invalid capture name 'n' ($NAME, NAME in [A-Z_][A-Z0-9_]*)"},
      // focus
      {"focus is bound", minimalWith("fix:", "focus: X\nfix:"),
       "my-rule.yaml:7:8: 'focus' names $X, which pattern `torch.cuda.set_device($DEV)` does not "
       "bind"},
      {"focus name", minimalWith("fix:", "focus: x\nfix:"),
       "my-rule.yaml:7:8: invalid metavariable 'x' in 'focus' ($NAME, NAME in [A-Z_][A-Z0-9_]*)"},
      // examples
      {"example before", std::string(Minimal) + "examples:\n  - after: x\n",
       "my-rule.yaml:11:5: missing required key 'before' in example 1"},
      {"examples is a list", std::string(Minimal) + "examples: x\n",
       "my-rule.yaml:10:11: expected a list for 'examples' (found a string)"},
      // the document
      {"empty file", "", "my-rule.yaml:1:1: empty rule file"},
      {"comments only", "# nothing yet\n", "my-rule.yaml:1:1: empty rule file"},
      {"top-level list", "- id: my-rule\n",
       "my-rule.yaml:1:1: expected a mapping at the top level of the rule file"},
      {"top-level string", "my-rule\n",
       "my-rule.yaml:1:1: expected a mapping at the top level of the rule file"},
      {"two documents", std::string(Minimal) + "---\nid: other\n",
       "my-rule.yaml:11:1: more than one YAML document in the rule file; one rule per file"},
      {"no file name", minimalWith("id: my-rule", "id: Other"),
       "<buffer>:1:5: invalid rule id 'Other' (expected kebab-case: lower-case letters and "
       "digits, joined by '-')",
       ""},
  };
  for (const ErrorCase &C : Cases)
    EXPECT_EQ(C.Expected, errorOf(C.Yaml, C.File)) << C.What << ":\n" << C.Yaml;
}

TEST(RuleSetTest, YamlSyntaxErrors) {
  // Only the syntax error: nothing about the keys the parser never reached.
  // The parser reports where it gave up: here, the end of the input.
  EXPECT_EQ("my-rule.yaml:2:17: yaml syntax error: could not find closing ]",
            errorOf("id: [my-rule\nlanguage: python\n"));
  EXPECT_EQ("my-rule.yaml:2:17: yaml syntax error: expected quote at end of scalar",
            errorOf("id: \"my-rule\nlanguage: python\n"));
  EXPECT_EQ("my-rule.yaml:3:7: yaml syntax error: unexpected token; expected Key or Block End",
            errorOf(minimalWith("language: python\n", "language: python\n  oops: 1\n")));
  std::string Tab = minimalWith("language: python", "language:\tpython\n\tcategory: x");
  EXPECT_NE(std::string::npos, errorOf(Tab).find("my-rule.yaml:3:1: yaml syntax error: "))
      << errorOf(Tab);
}

TEST(RuleSetTest, SeveralProblemsAreAllReported) {
  EXPECT_EQ("my-rule.yaml:2:11: unsupported language 'cobol' (expected python or cpp)\n"
            "my-rule.yaml:3:11: invalid severity 'loud' (expected error, warning, info or hint)\n"
            "my-rule.yaml:1:1: missing required key 'category'\n"
            "my-rule.yaml:1:1: missing required key 'message'\n"
            "my-rule.yaml:1:1: missing 'pattern' (or 'any': a list of patterns)",
            errorOf("id: my-rule\nlanguage: cobol\nseverity: loud\n"));
}

TEST(RuleSetTest, TemplatesMayUseReservedAndLiteralDollars) {
  EXPECT_EQ("", errorOf(minimalWith("set_device_index($DEV)",
                                    "set_device_index($DEV, $DEVICE, $DEVICE_TYPE, \"$$1\")")));
}

TEST(RuleSetTest, FixForPicksTheFirstFittingRelease) {
  auto R = ruleOf(minimalWith("fix:\n", "fix:\n  - since: \"2.9\"\n    template: nine($DEV)\n")
                      .append("  - since: \"2.6\"\n    template: six($DEV)\n"));
  ASSERT_TRUE(R);
  ASSERT_EQ(3u, R->Fixes.size());
  EXPECT_EQ(&R->Fixes[0], R->fixFor({3, 0}));
  EXPECT_EQ(&R->Fixes[0], R->fixFor({2, 10}));
  EXPECT_EQ(&R->Fixes[0], R->fixFor({2, 9}));
  EXPECT_EQ(&R->Fixes[1], R->fixFor({2, 8}));
  EXPECT_EQ(&R->Fixes[1], R->fixFor({2, 7}));
  EXPECT_EQ(&R->Fixes[2], R->fixFor({2, 6}));
  EXPECT_EQ(nullptr, R->fixFor({2, 5}));
  EXPECT_EQ(nullptr, R->fixFor({1, 13}));

  auto NoFix = ruleOf(std::string(Minimal).substr(0, std::string(Minimal).find("fix:")));
  ASSERT_TRUE(NoFix);
  EXPECT_EQ(nullptr, NoFix->fixFor({2, 9}));
}

TEST(RuleSetTest, MetavariablesIn) {
  EXPECT_EQ((std::vector<std::string>{"A", "ARGS", "B_2", "_X"}),
            metavariablesIn("f($A, $$$ARGS, $B_2, $A, $_X, $$, $lower, $, $1)"));
  EXPECT_EQ((std::vector<std::string>{}), metavariablesIn("f($$X)")); // `$$X` is "$X"
  EXPECT_EQ((std::vector<std::string>{"Y"}), metavariablesIn("$$$$X $Y"));
  EXPECT_EQ((std::vector<std::string>{"DEV"}), metavariablesIn("$DEVx"));
  EXPECT_TRUE(metavariablesIn("").empty());
  EXPECT_TRUE(metavariablesIn("$").empty());
}

/// A valid rule file named after Id, in Category.
std::string ruleFile(llvm::StringRef Id, llvm::StringRef Category) {
  return "id: " + Id.str() + "\nlanguage: python\ncategory: " + Category.str() +
         "\nseverity: warning\nmessage: m\npattern: torch.cuda." + Id.str() + "()\n";
}

TEST(RuleSetTest, LoadDirectory) {
  test::TempDir D;
  D.write("rules/python/zeta.yaml", ruleFile("zeta", "memory"));
  D.write("rules/python/alpha.yml", ruleFile("alpha", "device-runtime"));
  D.write("rules/python/nested/mid.yaml", ruleFile("mid", "memory"));
  D.write("rules/schema.yaml", "not a rule");
  D.write("rules/schema-draft.yaml", "not a rule");
  D.write("rules/python/.hidden.yaml", "not a rule");
  D.write("rules/.cache/stale.yaml", "not a rule");
  D.write("rules/README.md", "not a rule");
  D.write("rules/schema.json", "{}");
  auto S = RuleSet::loadDirectory(D.path("rules"));
  ASSERT_TRUE(static_cast<bool>(S)) << llvm::toString(S.takeError());
  ASSERT_EQ(3u, S->size());
  EXPECT_EQ("alpha", S->rules()[0]->Id);
  EXPECT_EQ("mid", S->rules()[1]->Id);
  EXPECT_EQ("zeta", S->rules()[2]->Id);
  EXPECT_EQ(D.path("rules/python/nested/mid.yaml") + ":1:5", S->find("mid")->Loc.str());
  EXPECT_EQ(S->rules()[2].get(), S->find("zeta"));
  EXPECT_EQ(nullptr, S->find("nope"));
  EXPECT_EQ(nullptr, S->find(""));

  // One bad file fails the whole directory, naming the file.
  D.write("rules/python/broken.yaml", ruleFile("broken", "memory") + "colour: red\n");
  auto Bad = RuleSet::loadDirectory(D.path("rules"));
  ASSERT_FALSE(static_cast<bool>(Bad));
  std::string BadErr = llvm::toString(Bad.takeError());
  EXPECT_TRUE(llvm::StringRef(BadErr).startswith(D.path("rules/python/broken.yaml") +
                                                 ":7:1: unknown key 'colour' in a rule ("))
      << BadErr;

  // The same id in two files.
  D.write("rules/python/broken.yaml", ruleFile("broken", "memory"));
  D.write("rules/python/nested/zeta.yaml", ruleFile("zeta", "memory"));
  auto Dup = RuleSet::loadDirectory(D.path("rules"));
  ASSERT_FALSE(static_cast<bool>(Dup));
  EXPECT_EQ(D.path("rules/python/zeta.yaml") + ":1:5: duplicate rule id 'zeta' (first defined at " +
                D.path("rules/python/nested/zeta.yaml") + ":1:5)",
            llvm::toString(Dup.takeError()));

  // Empty and missing directories.
  D.mkdir("empty/python");
  D.write("empty/schema.yaml", "");
  auto Empty = RuleSet::loadDirectory(D.path("empty"));
  ASSERT_FALSE(static_cast<bool>(Empty));
  EXPECT_EQ(D.path("empty") + ": no rule files (*.yaml) in the rule directory",
            llvm::toString(Empty.takeError()));
  auto Missing = RuleSet::loadDirectory(D.path("nowhere"));
  ASSERT_FALSE(static_cast<bool>(Missing));
  EXPECT_EQ(D.path("nowhere") + ": rule directory not found", llvm::toString(Missing.takeError()));
  auto File = RuleSet::loadDirectory(D.path("rules/README.md"));
  ASSERT_FALSE(static_cast<bool>(File));
  EXPECT_EQ(D.path("rules/README.md") + ": rule directory not found",
            llvm::toString(File.takeError()));
}

TEST(RuleSetTest, LoadFiles) {
  test::TempDir D;
  D.write("a/one.yaml", ruleFile("one", "memory"));
  D.write("b/two.yaml", ruleFile("two", "memory"));
  D.write("b/one.yaml", ruleFile("one", "memory"));
  auto S = RuleSet::loadFiles({D.path("b/two.yaml"), D.path("a/one.yaml")});
  ASSERT_TRUE(static_cast<bool>(S)) << llvm::toString(S.takeError());
  ASSERT_EQ(2u, S->size());
  EXPECT_EQ("one", S->rules()[0]->Id);

  auto None = RuleSet::loadFiles({});
  ASSERT_TRUE(test::hasValue(None));
  EXPECT_EQ(0u, None->size());

  // Every problem of every file.
  auto Bad =
      RuleSet::loadFiles({D.path("a/one.yaml"), D.path("b/one.yaml"), D.path("c/nope.yaml")});
  ASSERT_FALSE(static_cast<bool>(Bad));
  std::string Err = llvm::toString(Bad.takeError());
  EXPECT_EQ(D.path("b/one.yaml") + ":1:5: duplicate rule id 'one' (first defined at " +
                D.path("a/one.yaml") + ":1:5)\n" + D.path("c/nope.yaml") +
                ": cannot read the rule file: No such file or directory",
            Err);
}

TEST(RuleSetTest, Merge) {
  auto A = RuleSet::loadBuffer("b-rule.yaml", ruleFile("b-rule", "memory"));
  auto B = RuleSet::loadBuffer("a-rule.yaml", ruleFile("a-rule", "memory"));
  auto B2 = RuleSet::loadBuffer("x/a-rule.yaml", ruleFile("a-rule", "other"));
  ASSERT_TRUE(test::hasValue(A));
  ASSERT_TRUE(test::hasValue(B));
  ASSERT_TRUE(test::hasValue(B2));
  ASSERT_FALSE(static_cast<bool>(A->merge(std::move(*B))));
  ASSERT_EQ(2u, A->size());
  EXPECT_EQ("a-rule", A->rules()[0]->Id); // still sorted
  EXPECT_EQ("b-rule", A->rules()[1]->Id);

  llvm::Error Err = A->merge(std::move(*B2));
  ASSERT_TRUE(static_cast<bool>(Err));
  EXPECT_EQ("x/a-rule.yaml:1:5: duplicate rule id 'a-rule' (first defined at a-rule.yaml:1:5)",
            llvm::toString(std::move(Err)));
  ASSERT_EQ(2u, A->size()); // unchanged
  EXPECT_EQ("memory", A->find("a-rule")->Category);

  RuleSet Empty;
  ASSERT_FALSE(static_cast<bool>(Empty.merge(*A))); // a copy shares the rules
  EXPECT_EQ(A->find("a-rule"), Empty.find("a-rule"));
}

TEST(RuleSetTest, Filtered) {
  RuleSet S;
  const std::pair<const char *, const char *> Rules[] = {{"cuda-a", "memory"},
                                                         {"cuda-b", "memory"},
                                                         {"cuda-c", "device-runtime"},
                                                         {"memory-d", "misc"}};
  for (auto [Id, Category] : Rules) {
    auto One = RuleSet::loadBuffer(std::string(Id) + ".yaml", ruleFile(Id, Category));
    ASSERT_TRUE(static_cast<bool>(One)) << llvm::toString(One.takeError());
    ASSERT_FALSE(static_cast<bool>(S.merge(std::move(*One))));
  }
  auto Ids = [](llvm::Expected<RuleSet> F) {
    std::vector<std::string> Out;
    if (!F) {
      ADD_FAILURE() << llvm::toString(F.takeError());
      return Out;
    }
    for (const auto &R : F->rules())
      Out.push_back(R->Id);
    return Out;
  };
  using V = std::vector<std::string>;
  EXPECT_EQ((V{"cuda-a", "cuda-b", "cuda-c", "memory-d"}), Ids(S.filtered({}, {})));
  EXPECT_EQ((V{"cuda-b"}), Ids(S.filtered({"cuda-b"}, {})));
  EXPECT_EQ((V{"cuda-a", "cuda-b"}), Ids(S.filtered({"memory"}, {})));
  EXPECT_EQ((V{"cuda-b", "cuda-c"}), Ids(S.filtered({"memory", "cuda-c"}, {"cuda-a"})));
  EXPECT_EQ((V{"cuda-c", "memory-d"}), Ids(S.filtered({}, {"memory"})));
  EXPECT_EQ((V{}), Ids(S.filtered({"memory"}, {"memory"})));
  // "memory-d" is an id; "memory" the category: entries match exactly.
  EXPECT_EQ((V{"memory-d"}), Ids(S.filtered({"memory-d"}, {})));

  auto Shared = S.filtered({"cuda-c"}, {});
  ASSERT_TRUE(test::hasValue(Shared));
  EXPECT_EQ(S.find("cuda-c"), Shared->find("cuda-c")); // the same Rule, not a copy

  auto Unknown = S.filtered({"cuda-a", "nope"}, {"cuda", "nope"});
  ASSERT_FALSE(static_cast<bool>(Unknown));
  EXPECT_EQ("unknown rule or category 'nope'\nunknown rule or category 'cuda'",
            llvm::toString(Unknown.takeError()));
}

/// rules/schema.json lists exactly the keys and values the loader accepts.
TEST(RuleSetTest, SchemaMatchesTheLoader) {
  std::string Text = test::readFile(DEVPORT_SOURCE_DIR "/rules/schema.json");
  auto V = llvm::json::parse(Text);
  ASSERT_TRUE(static_cast<bool>(V)) << llvm::toString(V.takeError());
  const llvm::json::Object *Root = V->getAsObject();
  ASSERT_TRUE(Root);
  EXPECT_EQ("http://json-schema.org/draft-07/schema#", Root->getString("$schema").getValueOr(""));
  auto Keys = [](const llvm::json::Object *Props) {
    std::vector<std::string> Out;
    if (Props)
      for (const auto &KV : *Props)
        Out.push_back(KV.first.str());
    std::sort(Out.begin(), Out.end());
    return Out;
  };
  auto Sorted = [](llvm::ArrayRef<llvm::StringRef> L) {
    std::vector<std::string> Out(L.begin(), L.end());
    std::sort(Out.begin(), Out.end());
    return Out;
  };
  auto Strings = [](const llvm::json::Array *A) {
    std::vector<std::string> Out;
    if (A)
      for (const llvm::json::Value &E : *A)
        Out.push_back(E.getAsString().getValueOr("?").str());
    return Out;
  };
  const llvm::json::Object *Props = Root->getObject("properties");
  ASSERT_TRUE(Props);
  EXPECT_EQ(Sorted(RuleFileKeys::rule()), Keys(Props));
  const llvm::json::Object *Fix = Props->getObject("fix")->getObject("items");
  EXPECT_EQ(Sorted(RuleFileKeys::fix()), Keys(Fix->getObject("properties")));
  const llvm::json::Object *Where = Props->getObject("where")->getObject("additionalProperties");
  EXPECT_EQ(Sorted(RuleFileKeys::where()), Keys(Where->getObject("properties")));
  const llvm::json::Object *Example = Props->getObject("examples")->getObject("items");
  EXPECT_EQ(Sorted(RuleFileKeys::example()), Keys(Example->getObject("properties")));

  EXPECT_EQ((std::vector<std::string>{"id", "language", "category", "severity", "message"}),
            Strings(Root->getArray("required")));
  EXPECT_EQ((std::vector<std::string>{"since", "template"}), Strings(Fix->getArray("required")));
  EXPECT_EQ((std::vector<std::string>{"before"}), Strings(Example->getArray("required")));
  EXPECT_EQ((std::vector<std::string>{"python", "cpp"}),
            Strings(Props->getObject("language")->getArray("enum")));
  EXPECT_EQ((std::vector<std::string>{"finding", "keep"}),
            Strings(Props->getObject("kind")->getArray("enum")));
  std::vector<std::string> Severities;
  for (Severity S : {Severity::Error, Severity::Warning, Severity::Info, Severity::Hint})
    Severities.push_back(severityName(S));
  EXPECT_EQ(Severities, Strings(Props->getObject("severity")->getArray("enum")));
  std::vector<std::string> Apps;
  for (Applicability A : {Applicability::Safe, Applicability::Unsafe, Applicability::DisplayOnly})
    Apps.push_back(applicabilityName(A));
  EXPECT_EQ(Apps,
            Strings(Fix->getObject("properties")->getObject("applicability")->getArray("enum")));
  EXPECT_EQ(
      "^[a-z][a-z0-9]*(-[a-z0-9]+)*$",
      Root->getObject("definitions")->getObject("kebab")->getString("pattern").getValueOr(""));
}

/// docs/writing-rules.md documents every key the loader accepts.
TEST(RuleSetTest, DocsNameEveryKey) {
  std::string Doc = test::readFile(DEVPORT_SOURCE_DIR "/docs/writing-rules.md");
  for (auto Keys :
       {RuleFileKeys::rule(), RuleFileKeys::fix(), RuleFileKeys::where(), RuleFileKeys::example()})
    for (llvm::StringRef K : Keys)
      EXPECT_NE(std::string::npos, Doc.find("`" + K.str() + "`")) << K.str();
}

/// The rules shipped in rules/ load (once there are any).
TEST(RuleSetTest, TheRealRuleDatabaseLoads) {
  std::string Dir = DEVPORT_SOURCE_DIR "/rules";
  bool HasRules = false;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    if (llvm::StringRef(It->path()).endswith(".yaml") &&
        !llvm::sys::path::filename(It->path()).startswith("schema"))
      HasRules = true;
  if (!HasRules)
    GTEST_SKIP() << "no rules in " << Dir << " yet";
  auto S = RuleSet::loadDirectory(Dir);
  ASSERT_TRUE(static_cast<bool>(S)) << llvm::toString(S.takeError());
  EXPECT_GT(S->size(), 0u);
  for (const auto &R : S->rules()) {
    EXPECT_EQ(R->Id, llvm::sys::path::stem(R->Loc.File)) << R->Loc.str();
    EXPECT_EQ(R->Language, llvm::sys::path::filename(llvm::sys::path::parent_path(R->Loc.File)))
        << R->Id << ": rules/<language>/<id>.yaml";
    EXPECT_FALSE(R->Patterns.empty()) << R->Id;
  }
}

} // namespace
} // namespace devport
