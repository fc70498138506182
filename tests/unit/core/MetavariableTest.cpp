//===--- MetavariableTest.cpp - The metavariable lexer --------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "core/Metavariable.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace devport {
namespace {

/// A token as one string, for readable expectations: "Metavar X 0-2",
/// "Metavar... ARGS 2-9" (a sequence), "Literal 0-2", "Invalid 3-4".
std::string show(const MetavarToken &T) {
  std::string Out = T.Kind == MetavarToken::Metavar   ? "Metavar"
                    : T.Kind == MetavarToken::Literal ? "Literal"
                                                      : "Invalid";
  if (T.Sequence)
    Out += "...";
  if (!T.Name.empty())
    Out += " " + T.Name.str();
  return Out + " " + std::to_string(T.Begin) + "-" + std::to_string(T.End);
}

std::vector<std::string> lex(llvm::StringRef Text) {
  std::vector<std::string> Out;
  for (const MetavarToken &T : lexMetavariables(Text))
    Out.push_back(show(T));
  return Out;
}

using Tokens = std::vector<std::string>;

TEST(Metavariable, OneNode) {
  EXPECT_EQ((Tokens{"Metavar X 0-2"}), lex("$X"));
  EXPECT_EQ((Tokens{"Metavar DEV 2-6"}), lex("f($DEV)"));
  // The name ends at any other character; patterns reject `$DEVx` later.
  EXPECT_EQ((Tokens{"Metavar DEV 0-4"}), lex("$DEVx"));
}

TEST(Metavariable, Sequence) {
  EXPECT_EQ((Tokens{"Metavar... ARGS 2-9"}), lex("f($$$ARGS)"));
  std::vector<MetavarToken> T = lexMetavariables("$$$ARGS");
  ASSERT_EQ(1u, T.size());
  EXPECT_TRUE(T[0].Sequence);
  EXPECT_EQ("ARGS", T[0].Name);
}

TEST(Metavariable, NamesWithDigitsAndUnderscores) {
  EXPECT_EQ((Tokens{"Metavar B_2 0-4", "Metavar _X 5-8", "Metavar A1B2 9-14"}),
            lex("$B_2 $_X $A1B2"));
  EXPECT_EQ((Tokens{"Invalid 0-1"}), lex("$2A")); // a name starts with [A-Z_]
}

TEST(Metavariable, DoubleDollarIsALiteral) {
  EXPECT_EQ((Tokens{"Literal 6-8"}), lex("cost: $$5"));
  EXPECT_EQ((Tokens{"Literal 0-2"}), lex("$$X")); // `$$X` is "$X", not a metavariable
  EXPECT_EQ((Tokens{"Literal 3-5"}), lex("end$$"));
  EXPECT_EQ((Tokens{"Literal 0-2"}), lex("$$"));
}

TEST(Metavariable, LoneDollarIsInvalid) {
  EXPECT_EQ((Tokens{"Invalid 0-1"}), lex("$dev"));
  EXPECT_EQ((Tokens{"Invalid 0-1"}), lex("$1"));
  EXPECT_EQ((Tokens{"Invalid 2-3"}), lex("a $ b"));
  EXPECT_EQ((Tokens{"Invalid 0-1"}), lex("$"));
  EXPECT_EQ((Tokens{"Invalid 3-4"}), lex("end$"));
}

TEST(Metavariable, LongRunsAreReadTwoDollarsAtATime) {
  // `$$$$X`: three dollars before `$` are no sequence; `$$`, then `$$X`.
  EXPECT_EQ((Tokens{"Literal 0-2", "Literal 2-4"}), lex("$$$$X"));
  EXPECT_EQ((Tokens{"Literal 0-2", "Invalid 2-3"}), lex("$$$x"));
  EXPECT_EQ((Tokens{"Literal 0-2", "Metavar... Y 2-6"}), lex("$$$$$Y"));
}

TEST(Metavariable, AdjacentMetavariables) {
  EXPECT_EQ((Tokens{"Metavar A 0-2", "Metavar B 2-4"}), lex("$A$B"));
  EXPECT_EQ((Tokens{"Metavar A 0-2", "Metavar... B 2-6"}), lex("$A$$$B"));
}

TEST(Metavariable, EmptyAndDollarFreeText) {
  EXPECT_TRUE(lexMetavariables("").empty());
  EXPECT_TRUE(lexMetavariables("torch.cuda.set_device(0)").empty());
  EXPECT_TRUE(metavariablesIn("").empty());
}

TEST(Metavariable, ForEachSeesWhatLexReturns) {
  llvm::StringRef Text = "f($A, $$$B, $$, $c, $$$$D)";
  std::vector<std::string> Seen;
  forEachMetavariable(Text, [&](const MetavarToken &T) { Seen.push_back(show(T)); });
  EXPECT_EQ(lex(Text), Seen);
  EXPECT_EQ(6u, Seen.size());
}

TEST(Metavariable, NamesInOrderOfFirstUse) {
  EXPECT_EQ((std::vector<std::string>{"B", "ARGS", "A"}),
            metavariablesIn("f($B, $$$ARGS, $A, $B, $$, $x, $$$$C)"));
}

TEST(Metavariable, IsMetavarName) {
  EXPECT_TRUE(isMetavarName("X"));
  EXPECT_TRUE(isMetavarName("_"));
  EXPECT_TRUE(isMetavarName("DEV_2"));
  EXPECT_FALSE(isMetavarName(""));
  EXPECT_FALSE(isMetavarName("2X"));
  EXPECT_FALSE(isMetavarName("Dev"));
  EXPECT_FALSE(isMetavarName("$X"));
  EXPECT_TRUE(isMetavarNameStart('_'));
  EXPECT_FALSE(isMetavarNameStart('7'));
  EXPECT_TRUE(isMetavarNameChar('7'));
  EXPECT_FALSE(isMetavarNameChar('a'));
}

} // namespace
} // namespace devport
