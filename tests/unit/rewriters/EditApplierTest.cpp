//===--- EditApplierTest.cpp - Choosing and applying fixes ----------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "rewriters/EditApplier.h"

#include "tests/support/Annotations.h"

#include <gtest/gtest.h>

namespace devport {
namespace {

using Indices = std::vector<size_t>;

Fix fixOf(std::vector<Edit> Es) {
  Fix F;
  F.Edits = std::move(Es);
  return F;
}

ApplyResult applyAll(llvm::StringRef Text, const std::vector<Fix> &Fs) {
  std::vector<const Fix *> Ptrs;
  for (const Fix &F : Fs)
    Ptrs.push_back(&F);
  return applyFixes(Text, Ptrs);
}

TEST(EditApplier, EmptyFixListCopiesTheText) {
  ApplyResult R = applyAll("x = 1\n", {});
  EXPECT_EQ("x = 1\n", R.Text);
  EXPECT_TRUE(R.Applied.empty());
  EXPECT_TRUE(R.Skipped.empty());
  EXPECT_EQ("", applyAll("", {}).Text);
}

TEST(EditApplier, OuterFixWinsOverNestedOneInEitherOrder) {
  test::Annotations A("x = $outer[[f($inner[[g(1)]])]]\n");
  Fix Inner = fixOf({Edit::replacement(A.range("inner"), "G(1)")});
  Fix Outer = fixOf({Edit::replacement(A.range("outer"), "F(g(1))")});

  ApplyResult R = applyAll(A.code(), {Inner, Outer});
  EXPECT_EQ("x = F(g(1))\n", R.Text);
  EXPECT_EQ(Indices{1}, R.Applied);
  EXPECT_EQ(Indices{0}, R.Skipped);

  R = applyAll(A.code(), {Outer, Inner});
  EXPECT_EQ("x = F(g(1))\n", R.Text);
  EXPECT_EQ(Indices{0}, R.Applied);
  EXPECT_EQ(Indices{1}, R.Skipped);
}

TEST(EditApplier, OuterFixWinsEvenWhenTheInnerOneStartsAtTheSameOffset) {
  test::Annotations A("$outer[[$inner[[torch.cuda]].synchronize()]]\n");
  Fix Inner = fixOf({Edit::replacement(A.range("inner"), "torch.accelerator")});
  Fix Outer = fixOf({Edit::replacement(A.range("outer"), "torch.accelerator.synchronize()")});
  ApplyResult R = applyAll(A.code(), {Inner, Outer});
  EXPECT_EQ("torch.accelerator.synchronize()\n", R.Text);
  EXPECT_EQ(Indices{1}, R.Applied);
}

TEST(EditApplier, OuterFixWithSeveralEditsLeavesRoomForAnInnerOne) {
  // The outer fix's span holds the inner one, but no edit of it overlaps.
  test::Annotations A("$a[[f]]($inner[[x]], $b[[y]])\n");
  Fix Outer = fixOf({Edit::replacement(A.range("a"), "g"), Edit::replacement(A.range("b"), "z")});
  Fix Inner = fixOf({Edit::replacement(A.range("inner"), "w")});
  ApplyResult R = applyAll(A.code(), {Inner, Outer});
  EXPECT_EQ("g(w, z)\n", R.Text);
  EXPECT_EQ((Indices{0, 1}), R.Applied);
}

TEST(EditApplier, PartialOverlapEarlierStartWins) {
  std::vector<Fix> Fs{fixOf({Edit::replacement({2, 6}, "B")}),
                      fixOf({Edit::replacement({0, 4}, "A")})};
  ApplyResult R = applyAll("0123456789", Fs);
  EXPECT_EQ("A456789", R.Text);
  EXPECT_EQ(Indices{1}, R.Applied);
  EXPECT_EQ(Indices{0}, R.Skipped);
}

TEST(EditApplier, AdjacentRangesThatTouchBothApply) {
  std::vector<Fix> Fs{fixOf({Edit::replacement({2, 4}, "cd")}),
                      fixOf({Edit::replacement({0, 2}, "ab")})};
  ApplyResult R = applyAll("012345", Fs);
  EXPECT_EQ("abcd45", R.Text);
  EXPECT_EQ((Indices{0, 1}), R.Applied);
}

TEST(EditApplier, InsertionsAtTheEdgesOfAReplacementApply) {
  std::vector<Fix> Fs{fixOf({Edit::replacement({2, 4}, "XY")}), fixOf({Edit::insertion(2, "<")}),
                      fixOf({Edit::insertion(4, ">")})};
  ApplyResult R = applyAll("012345", Fs);
  EXPECT_EQ("01<XY>45", R.Text);
  EXPECT_EQ((Indices{0, 1, 2}), R.Applied);
}

TEST(EditApplier, InsertionInsideAReplacementConflicts) {
  std::vector<Fix> Fs{fixOf({Edit::replacement({1, 5}, "X")}), fixOf({Edit::insertion(3, "!")})};
  ApplyResult R = applyAll("012345", Fs);
  EXPECT_EQ("0X5", R.Text);
  EXPECT_EQ(Indices{1}, R.Skipped);
}

TEST(EditApplier, IdenticalInsertionsAreAppliedOnce) {
  std::string T = "a()\nb()\nc()\n";
  std::vector<Fix> Fs{
      fixOf({Edit::insertion(0, "import torch\n"), Edit::replacement({0, 1}, "A")}),
      fixOf({Edit::insertion(0, "import torch\n"), Edit::replacement({4, 5}, "B")}),
      fixOf({Edit::insertion(0, "import torch\n"), Edit::replacement({8, 9}, "C")})};
  ApplyResult R = applyAll(T, Fs);
  EXPECT_EQ("import torch\nA()\nB()\nC()\n", R.Text);
  EXPECT_EQ((Indices{0, 1, 2}), R.Applied);
  EXPECT_TRUE(R.Skipped.empty());
}

TEST(EditApplier, IdenticalReplacementsAreAppliedOnce) {
  std::vector<Fix> Fs{fixOf({Edit::replacement({0, 4}, "cuda")}),
                      fixOf({Edit::replacement({0, 4}, "cuda")})};
  ApplyResult R = applyAll("xxxx()", Fs);
  EXPECT_EQ("cuda()", R.Text);
  EXPECT_EQ((Indices{0, 1}), R.Applied);
}

TEST(EditApplier, SameRangeDifferentTextConflicts) {
  std::vector<Fix> Fs{fixOf({Edit::replacement({0, 1}, "x")}),
                      fixOf({Edit::replacement({0, 1}, "y")})};
  ApplyResult R = applyAll("ab", Fs);
  EXPECT_EQ("xb", R.Text);
  EXPECT_EQ(Indices{1}, R.Skipped);
}

TEST(EditApplier, DifferentInsertionsAtOneOffsetKeepTheFirstFix) {
  ApplyResult R =
      applyAll("ab", {fixOf({Edit::insertion(1, "x")}), fixOf({Edit::insertion(1, "y")})});
  EXPECT_EQ("axb", R.Text);
  EXPECT_EQ(Indices{0}, R.Applied);
  EXPECT_EQ(Indices{1}, R.Skipped);

  R = applyAll("ab", {fixOf({Edit::insertion(1, "y")}), fixOf({Edit::insertion(1, "x")})});
  EXPECT_EQ("ayb", R.Text);
  EXPECT_EQ(Indices{1}, R.Skipped);
}

TEST(EditApplier, AFixWithAConflictingEditIsSkippedWhole) {
  // The second fix's first edit would be a duplicate, its second conflicts:
  // none of it is applied.
  std::vector<Fix> Fs{
      fixOf({Edit::insertion(0, "import torch\n"), Edit::replacement({0, 6}, "A")}),
      fixOf({Edit::insertion(0, "import torch\n"), Edit::replacement({2, 5}, "B")})};
  ApplyResult R = applyAll("01234567", Fs);
  EXPECT_EQ("import torch\nA67", R.Text);
  EXPECT_EQ(Indices{0}, R.Applied);
  EXPECT_EQ(Indices{1}, R.Skipped);
}

TEST(EditApplier, InvalidFixesAreSkipped) {
  std::vector<Fix> Fs{
      fixOf({Edit::replacement({2, 99}, "x")}),                                // past the end
      fixOf({Edit::replacement({0, 2}, "x"), Edit::replacement({1, 3}, "y")}), // overlap each other
      fixOf({Edit::insertion(1, "p"), Edit::insertion(1, "q")}),               // two at one offset
      fixOf({Edit::replacement({3, 1}, "x")}),                                 // reversed
      fixOf({Edit::insertion(5, "x")}),                                        // past the end
      fixOf({}),                                                               // nothing
      fixOf({Edit::replacement({3, 4}, "D")})};                                // fine
  ApplyResult R = applyAll("abcd", Fs);
  EXPECT_EQ("abcD", R.Text);
  EXPECT_EQ((Indices{0, 1, 2, 3, 4, 5}), R.Skipped);
  EXPECT_EQ(Indices{6}, R.Applied);
}

TEST(EditApplier, InsertionAtTheEndOfTheText) {
  ApplyResult R = applyAll("x = 1", {fixOf({Edit::insertion(5, "\n")})});
  EXPECT_EQ("x = 1\n", R.Text);
}

TEST(EditApplier, EditsOfOneFixMayComeUnsorted) {
  ApplyResult R =
      applyAll("a b c", {fixOf({Edit::replacement({4, 5}, "C"), Edit::replacement({0, 1}, "A")})});
  EXPECT_EQ("A b C", R.Text);
}

TEST(EditApplier, KeepsCrlfLineEndings) {
  test::Annotations A("import os\r\nx = $f[[torch.cuda]].current_device()\r\ny = 2\r\n");
  ApplyResult R =
      applyAll(A.code(), {fixOf({Edit::replacement(A.range("f"), "torch.accelerator")})});
  EXPECT_EQ("import os\r\nx = torch.accelerator.current_device()\r\ny = 2\r\n", R.Text);
}

TEST(EditApplier, KeepsTheByteOrderMark) {
  std::string T = "\xEF\xBB\xBFimport torch\nx.cuda()\n";
  uint32_t At = static_cast<uint32_t>(T.find("cuda"));
  ApplyResult R = applyAll(T, {fixOf({Edit::replacement({At, At + 6}, "to(dev)")}),
                               fixOf({Edit::insertion(3, "# ported\n")})});
  EXPECT_EQ("\xEF\xBB\xBF# ported\nimport torch\nx.to(dev)\n", R.Text);
}

TEST(EditApplier, KeepsNonAsciiTextAroundEdits) {
  // "é" (2 bytes), "→" (3 bytes) and "😀" (4 bytes) right next to the edits.
  std::string T = "# \xC3\xA9t\xC3\xA9\ns = \"\xE2\x86\x92\"; d = \"cuda\"  # \xF0\x9F\x98\x80\n";
  uint32_t At = static_cast<uint32_t>(T.find("\"cuda\""));
  ApplyResult R = applyAll(T, {fixOf({Edit::replacement({At, At + 6}, "dev")})});
  EXPECT_EQ("# \xC3\xA9t\xC3\xA9\ns = \"\xE2\x86\x92\"; d = dev  # \xF0\x9F\x98\x80\n", R.Text);
  // A replacement that is itself non-ASCII.
  R = applyAll("a-b", {fixOf({Edit::replacement({1, 2}, "\xE2\x86\x92")})});
  EXPECT_EQ("a\xE2\x86\x92"
            "b",
            R.Text);
}

TEST(EditApplier, ManyFixesScale) {
  // 100,000 fixes (a quadratic choice would take minutes), each also
  // inserting the same import, plus a nest of 10,000 fixes around one call.
  std::string T;
  std::vector<Fix> Fs;
  for (int I = 0; I < 100000; ++I) {
    uint32_t At = static_cast<uint32_t>(T.size());
    T += "f(x)\n";
    Fs.push_back(
        fixOf({Edit::insertion(0, "import torch\n"), Edit::replacement({At, At + 1}, "g")}));
  }
  uint32_t Base = static_cast<uint32_t>(T.size());
  T += std::string(10000, '(') + "h" + std::string(10000, ')') + "\n";
  for (uint32_t D = 0; D < 10000; ++D)
    Fs.push_back(fixOf({Edit::replacement({Base + D, Base + 20001 - D}, "k")}));
  ApplyResult R = applyAll(T, Fs);
  EXPECT_EQ(100001u, R.Applied.size());
  EXPECT_EQ(9999u, R.Skipped.size());
  EXPECT_EQ(std::string::npos, R.Text.find("f("));
  EXPECT_EQ(0u, R.Text.find("import torch\ng(x)\n"));
  EXPECT_EQ(std::string::npos, R.Text.find("import torch", 1));
  EXPECT_TRUE(llvm::StringRef(R.Text).endswith("g(x)\nk\n"));
}

} // namespace
} // namespace devport

namespace devport {
namespace {

TEST(TextWithin, TheRangeAsTheFixLeavesIt) {
  llvm::StringRef Text = "import os\ny = x.cuda(device)\n";
  ByteRange Call{14, 28}; // x.cuda(device)
  Fix F = fixOf({Edit::insertion(0, "import torch\n", EditRole::AddImport),
                 Edit::replacement({16, 20}, "to")});
  EXPECT_EQ("x.to(device)", textWithin(Text, Call, F).value_or("<none>"));
  // An edit outside the range that adds no import: not about the range alone.
  Fix Outside = fixOf({Edit::replacement({16, 20}, "to"), Edit::replacement({0, 6}, "from")});
  EXPECT_FALSE(textWithin(Text, Call, Outside));
  // Overlapping edits.
  Fix Overlap = fixOf({Edit::replacement({16, 20}, "to"), Edit::replacement({18, 22}, "")});
  EXPECT_FALSE(textWithin(Text, Call, Overlap));
  EXPECT_EQ("x.cuda(device)", textWithin(Text, Call, fixOf({})).value_or("<none>"));
}

} // namespace
} // namespace devport
