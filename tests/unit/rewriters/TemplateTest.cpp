//===--- TemplateTest.cpp - Fix templates ---------------------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "rewriters/Template.h"

#include "llvm/ADT/StringMap.h"

#include <gtest/gtest.h>

namespace devport {
namespace {

/// Expands T with the given bindings; every other name is unbound.
std::string expand(llvm::StringRef T,
                   std::initializer_list<std::pair<const char *, const char *>> Bound) {
  llvm::StringMap<std::string> Vars;
  for (const auto &[Name, Value] : Bound)
    Vars[Name] = Value;
  return expandTemplate(T, [&](llvm::StringRef Name) -> std::optional<std::string> {
    auto It = Vars.find(Name);
    if (It == Vars.end())
      return std::nullopt;
    return It->second;
  });
}

TEST(Template, SubstitutesMetavariables) {
  EXPECT_EQ("torch.accelerator.set_device_index(rank)",
            expand("torch.accelerator.set_device_index($DEV)", {{"DEV", "rank"}}));
  EXPECT_EQ("torch.get_device_module(dev).synchronize(dev)",
            expand("torch.get_device_module($D).synchronize($D)", {{"D", "dev"}}));
  EXPECT_EQ("x_1 + y", expand("$X_1 + $Y", {{"X_1", "x_1"}, {"Y", "y"}}));
  EXPECT_EQ("no metavariables", expand("no metavariables", {}));
  EXPECT_EQ("", expand("", {}));
}

TEST(Template, SubstitutesTheTextOfAListMetavariable) {
  EXPECT_EQ("f(a, b)", expand("f($$$ARGS)", {{"ARGS", "a, b"}}));
  EXPECT_EQ("f(x, a, b)", expand("f(x, $$$ARGS)", {{"ARGS", "a, b"}}));
  EXPECT_EQ("torch.amp.autocast(\"cuda\", dtype=x)",
            expand("torch.amp.autocast($DEV, $$$KW)", {{"DEV", "\"cuda\""}, {"KW", "dtype=x"}}));
  // No arguments at all: the list goes, with its comma.
  EXPECT_EQ("f(x)", expand("f(x, $$$ARGS)", {{"ARGS", ""}}));
  EXPECT_EQ("f()", expand("f($$$ARGS)", {}));
}

TEST(Template, UnboundArgumentDropsItsComma) {
  EXPECT_EQ("f(b)", expand("f($A, $B)", {{"B", "b"}}));
  EXPECT_EQ("f(a)", expand("f($A, $B)", {{"A", "a"}}));
  EXPECT_EQ("f()", expand("f($A, $B)", {}));
  EXPECT_EQ("f(x)", expand("f($A, x)", {}));
  EXPECT_EQ("f(x)", expand("f(x, $A)", {}));
  EXPECT_EQ("f()", expand("f($A)", {}));
  EXPECT_EQ("f(x, y)", expand("f(x, $A, y)", {}));
  EXPECT_EQ("f(x)", expand("f(x, $A, $B)", {}));
  EXPECT_EQ("f(x)", expand("f($A,x)", {}));
  EXPECT_EQ("f()", expand("f($A,)", {}));
  EXPECT_EQ("[a]", expand("[$A, $B]", {{"A", "a"}}));
  EXPECT_EQ("f(g(), b)", expand("f(g($A), $B)", {{"B", "b"}}));
}

TEST(Template, UnboundKeywordArgumentGoesWhole) {
  EXPECT_EQ("torch.Stream(rank)", expand("torch.Stream($DEV, priority=$P)", {{"DEV", "rank"}}));
  EXPECT_EQ("torch.Stream(priority=0)", expand("torch.Stream($DEV, priority=$P)", {{"P", "0"}}));
  EXPECT_EQ("f(enabled=e, a, b)",
            expand("f(enabled=$E, dtype=$DT, $$$ARGS)", {{"E", "e"}, {"ARGS", "a, b"}}));
  EXPECT_EQ("f(x)", expand("f(key = $K, x)", {}));
  EXPECT_EQ("f(a)", expand("f(a, *$ARGS, **$KW)", {{"A", "a"}}));
  EXPECT_EQ("f(*args)", expand("f(*$ARGS, **$KW)", {{"ARGS", "args"}}));
}

TEST(Template, MultiLineArgumentListsStayTidy) {
  EXPECT_EQ("f(\n    x,\n)", expand("f(\n    x,\n    $A,\n)", {}));
  EXPECT_EQ("f(\n    x,\n)", expand("f(\n    $A,\n    x,\n)", {}));
}

TEST(Template, ComparisonsAreNotKeywords) {
  // Outside an argument list an unbound metavariable is just empty.
  EXPECT_EQ("x == ", expand("x == $A", {}));
  EXPECT_EQ("f(a == )", expand("f(a == $B)", {}));
  EXPECT_EQ("y = ", expand("y = $A", {}));
  EXPECT_EQ("a, ", expand("a, $B", {}));
}

TEST(Template, DollarEscapes) {
  EXPECT_EQ("cost: $5", expand("cost: $$5", {}));
  EXPECT_EQ("$", expand("$$", {}));
  EXPECT_EQ("$lower stays", expand("$lower stays", {{"lower", "x"}}));
  EXPECT_EQ("a $ b", expand("a $ b", {}));
  EXPECT_EQ("$1", expand("$1", {}));
  EXPECT_EQ("end$", expand("end$", {}));
}

TEST(Template, InsideStringLiterals) {
  EXPECT_EQ("f(\"(\", x)", expand("f(\"(\", $X)", {{"X", "x"}}));
  EXPECT_EQ("f(\"a, \")", expand("f(\"a, $X\")", {}));
  EXPECT_EQ("f'{dev}:0'", expand("f'{$D}:0'", {{"D", "dev"}}));
}

TEST(Template, EscapesDoNotHideMetavariables) {
  // The rule validator reads `\$X` as a use of $X; so does the expansion.
  EXPECT_EQ("f(\"\\x\")", expand("f(\"\\$X\")", {{"X", "x"}}));
  EXPECT_EQ("f(\"\\$5\")", expand("f(\"\\$$5\")", {}));
  EXPECT_EQ("f(\"\\\\x\")", expand("f(\"\\\\$X\")", {{"X", "x"}}));
  EXPECT_EQ("f('\\'', x)", expand("f('\\'', $X)", {{"X", "x"}})); // an escaped quote
}

TEST(Template, KeepsNonAsciiText) {
  EXPECT_EQ("# \xC3\xA9t\xC3\xA9 \xE2\x86\x92 r\xC3\xA9",
            expand("# \xC3\xA9t\xC3\xA9 \xE2\x86\x92 $V", {{"V", "r\xC3\xA9"}}));
}

} // namespace
} // namespace devport
