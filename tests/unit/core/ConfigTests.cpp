//===--- ConfigTests.cpp - .devport.yaml ----------------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "core/Config.h"
#include "core/YamlReader.h"

#include "tests/support/Expected.h"
#include "tests/support/TestFiles.h"

#include <gtest/gtest.h>

namespace devport {
namespace {

TEST(Config, ParsesEveryKey) {
  test::TempDir D;
  D.mkdir("extra");
  D.write(".devport.yaml", "target-torch: \"2.7\"\n"
                           "select: [device-runtime, cuda-method]\n"
                           "ignore: cuda-device-check\n"
                           "exclude: [\"third_party/\", \"**/gen_*.py\"]\n"
                           "per-file-ignores:\n"
                           "  \"test/**\": [cuda-method-device]\n"
                           "  \"tools/*.py\": [device-placement]\n"
                           "device-expression: self.device\n"
                           "device-type-expression: self.device_type\n"
                           "rules: [extra]\n");
  auto C = Config::load(D.path(".devport.yaml"));
  ASSERT_TRUE(static_cast<bool>(C)) << llvm::toString(C.takeError());
  ASSERT_TRUE(test::hasValue(C->Target));
  EXPECT_EQ("2.7", C->Target->str());
  ASSERT_EQ(2u, C->Select.size());
  EXPECT_EQ("cuda-method", C->Select[1].Text);
  EXPECT_EQ(2u, C->Select[1].Loc.Line);
  ASSERT_EQ(1u, C->Ignore.size());
  EXPECT_EQ("self.device", C->DeviceExpression);
  EXPECT_EQ("self.device_type", C->DeviceTypeExpression);
  ASSERT_EQ(1u, C->RuleFiles.size());
  EXPECT_EQ(D.path("extra"), C->RuleFiles[0]);
  EXPECT_EQ(D.path(), C->Dir);

  EXPECT_EQ(std::vector<std::string>{"cuda-method-device"}, C->ignoredFor(D.path("test/a/b.py")));
  EXPECT_EQ(std::vector<std::string>{"device-placement"}, C->ignoredFor(D.path("tools/x.py")));
  EXPECT_TRUE(C->ignoredFor(D.path("tools/sub/x.py")).empty());
  EXPECT_TRUE(C->ignoredFor("/elsewhere/test/a.py").empty());
  EXPECT_TRUE(C->excludes(D.path("third_party/lib/a.py")));
  EXPECT_TRUE(C->excludes(D.path("pkg/gen_ops.py")));
  EXPECT_FALSE(C->excludes(D.path("pkg/ops.py")));
}

TEST(Config, ErrorsNameTheirPlace) {
  struct Case {
    const char *Yaml, *Expected;
  } Cases[] = {
      {"colour: blue\n", "c.yaml:1:1: unknown key 'colour' in a .devport.yaml"},
      {"target-torch: two\n", "c.yaml:1:15: invalid target-torch 'two'"},
      {"select: {a: b}\n", "c.yaml:1:10: 'select' must be a list of strings"},
      {"per-file-ignores: [x]\n", "c.yaml:1:20: 'per-file-ignores' must map globs"},
      {"device-expression: \"\"\n", "c.yaml:1:20: 'device-expression' must be a one-line"},
      {"rules: [no/such/dir]\n", "c.yaml:1:9: rule file or directory 'no/such/dir' not found"},
      {"select: [a\n", "c.yaml:1:11: yaml error"},
      {"- a\n", "c.yaml:1:1: expected a mapping"},
  };
  for (const Case &C : Cases) {
    auto R = Config::parse("c.yaml", C.Yaml);
    ASSERT_FALSE(static_cast<bool>(R)) << C.Yaml;
    std::string Err = llvm::toString(R.takeError());
    EXPECT_NE(std::string::npos, Err.find(C.Expected)) << Err;
  }
}

TEST(Config, UnknownRuleNamesAreErrorsWithTheirPlace) {
  auto Rules = RuleSet::loadDirectory(DEVPORT_SOURCE_DIR "/rules");
  ASSERT_TRUE(test::hasValue(Rules));
  auto C = Config::parse("c.yaml", "select: [device-runtime]\nignore:\n  - cuda-nope\n"
                                   "per-file-ignores:\n  'a/*': [memory, bogus]\n");
  ASSERT_TRUE(test::hasValue(C));
  llvm::Error E = C->checkNames(*Rules);
  ASSERT_TRUE(static_cast<bool>(E));
  EXPECT_EQ("c.yaml:3:5: unknown rule or category 'cuda-nope'\n"
            "c.yaml:5:19: unknown rule or category 'bogus'",
            llvm::toString(std::move(E)));
}

TEST(Config, FoundUpwardAndCached) {
  test::TempDir D;
  D.write("proj/.devport.yaml", "target-torch: '2.6'\n");
  D.write("proj/pkg/sub/a.py", "");
  D.write("other/b.py", "");
  EXPECT_EQ(D.path("proj/.devport.yaml"), findConfigFile(D.path("proj/pkg/sub")));
  ConfigCache Cache;
  auto A = Cache.forFile(D.path("proj/pkg/sub/a.py"));
  ASSERT_TRUE(test::hasValue(A));
  ASSERT_TRUE(test::hasValue((*A)->Target));
  EXPECT_EQ("2.6", (*A)->Target->str());
  auto B = Cache.forFile(D.path("other/b.py"));
  ASSERT_TRUE(test::hasValue(B));
  EXPECT_FALSE((*B)->Target.has_value()); // no config above other/ in the temp dir
  ConfigCache Forced(D.path("proj/.devport.yaml"));
  auto F = Forced.forFile(D.path("other/b.py"));
  ASSERT_TRUE(test::hasValue(F));
  ASSERT_TRUE(test::hasValue((*F)->Target));
  EXPECT_EQ("2.6", (*F)->Target->str());
}

TEST(Config, EachDirectoryOnTheWayUpKeepsItsOwnAnswer) {
  // The cache gives every directory it walked through the answer found
  // above it: a sibling with its own config, asked later, still gets that
  // one, and a directory between them the one above.
  test::TempDir D;
  D.write("a/.devport.yaml", "target-torch: '2.6'\n");
  D.write("a/b2/.devport.yaml", "target-torch: '2.7'\n");
  D.write("a/b/c/x.py", "");
  D.write("a/b2/deep/y.py", "");
  D.write("a/b/z.py", "");
  D.write("a/w.py", "");
  ConfigCache Cache;
  auto TargetOf = [&](const char *File) -> std::string {
    auto C = Cache.forFile(D.path(File));
    if (!C)
      return "error: " + llvm::toString(C.takeError());
    return (*C)->Target ? (*C)->Target->str() : "none";
  };
  EXPECT_EQ("2.6", TargetOf("a/b/c/x.py"));
  EXPECT_EQ("2.7", TargetOf("a/b2/deep/y.py"));
  EXPECT_EQ("2.6", TargetOf("a/b/z.py"));
  EXPECT_EQ("2.6", TargetOf("a/w.py"));
  EXPECT_EQ("2.7", TargetOf("a/b2/deep/y.py"));
  // The same answers as a search without the cache.
  EXPECT_EQ(D.path("a/b2/.devport.yaml"), findConfigFile(D.path("a/b2/deep")));
  EXPECT_EQ(D.path("a/.devport.yaml"), findConfigFile(D.path("a/b/c")));
}

TEST(Config, EmptyOrCommentOnlyIsNoError) {
  for (const char *Text : {"", "# nothing yet\n", "---\n", "\n\n"}) {
    auto C = Config::parse("/p/.devport.yaml", Text);
    ASSERT_TRUE(bool(C)) << Text << ": " << llvm::toString(C.takeError());
    EXPECT_TRUE(C->Select.empty());
  }
}

TEST(Config, DeepNestingIsRefusedBeforeTheParserRecurses) {
  std::string Flow = "select: " + std::string(300000, '[') + std::string(300000, ']') + "\n";
  auto C = Config::parse("/p/.devport.yaml", Flow);
  ASSERT_FALSE(C);
  EXPECT_EQ("/p/.devport.yaml:1:73: nested deeper than 64 levels (the limit for devport's YAML "
            "files); not read",
            llvm::toString(C.takeError()));
  std::string Block = "select:\n";
  for (int I = 0; I < 100000; ++I)
    Block += "- ";
  Block += "x\n";
  auto B = Config::parse("/p/.devport.yaml", Block);
  ASSERT_FALSE(B);
  EXPECT_NE(std::string::npos, llvm::toString(B.takeError()).find("nested deeper than 64"));
  // 64 levels are read (and then judged as a config).
  EXPECT_FALSE(yamlTooDeep("a: " + std::string(63, '[') + std::string(63, ']')));
  EXPECT_TRUE(yamlTooDeep("a: " + std::string(64, '[') + std::string(64, ']')));
}

TEST(Config, AliasesAreRefusedNotExpanded) {
  auto C = Config::parse("/p/.devport.yaml", "a: &x [cuda-set-device]\nselect: *x\n");
  ASSERT_FALSE(C);
  std::string Msg = llvm::toString(C.takeError());
  EXPECT_NE(std::string::npos,
            Msg.find("/p/.devport.yaml:2:9: 'select': YAML aliases (*x) are not supported"))
      << Msg;
}

TEST(Config, MessagesQuoteShortExcerpts) {
  auto C = Config::parse("/p/.devport.yaml", std::string(500, 'k') + ": 1\n");
  ASSERT_FALSE(C);
  std::string Msg = llvm::toString(C.takeError());
  EXPECT_NE(std::string::npos, Msg.find("unknown key '" + std::string(40, 'k') + "...'"));
  EXPECT_EQ(std::string::npos, Msg.find(std::string(41, 'k')));
  EXPECT_EQ("a?b" + std::string(37, 'c') + "...", YamlReader::excerpt("a\x1b"
                                                                      "b" +
                                                                      std::string(60, 'c')));
}

} // namespace
} // namespace devport