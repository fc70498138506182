//===--- ArenaTest.cpp - Batch parses in a bump arena ----------------------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "matchers/python/PythonBackend.h"
#include "matchers/python/Syntax.h"
#include "tests/support/TestFiles.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace devport::python {
namespace {

/// The tree as tree-sitter prints it, with every node's byte range.
std::string show(const TSTree *T) {
  std::string Out;
  preorder(ts_tree_root_node(T), [&](TSNode N, TSTreeCursor *) {
    Out += ts_node_type(N);
    Out += ts_node_is_missing(N) ? "!" : "";
    Out += "[" + std::to_string(ts_node_start_byte(N)) + "," + std::to_string(ts_node_end_byte(N)) +
           ") ";
    return true;
  });
  return Out;
}

std::string parsedNormally(llvm::StringRef Text, llvm::ArrayRef<ByteRange> Ranges = {}) {
  Parser P;
  TreePtr T = Ranges.empty() ? P.parse(Text) : P.parseRanges(Text, Ranges);
  return show(T.get());
}

TEST(ParseInArena, GivesTheTreeOfAParserForEveryFixtureInput) {
  auto Inputs = test::pythonFixtureInputs();
  ASSERT_GT(Inputs.size(), 50u);
  for (const auto &[Name, Text] : Inputs) {
    TreePtr T = parseInArena(Text);
    ASSERT_TRUE(T) << Name;
    EXPECT_TRUE(inArena(T));
    EXPECT_EQ(show(T.get()), parsedNormally(Text)) << Name;
  }
}

TEST(ParseInArena, ParsesOnlyTheRangesGiven) {
  std::string Text = "import torch\n"
                     "def f(:\n" // not in the ranges: no error
                     "    pass\n"
                     "x = torch.cuda.is_available()\n";
  std::vector<ByteRange> Ranges = {{0, 13}, {36, static_cast<uint32_t>(Text.size())}};
  TreePtr T = parseInArena(Text, Ranges);
  ASSERT_TRUE(T);
  EXPECT_FALSE(ts_node_has_error(ts_tree_root_node(T.get())));
  EXPECT_EQ(show(T.get()), parsedNormally(Text, Ranges));
}

TEST(ParseInArena, TakesBlocksLargerThanAChunk) {
  // 40,000 statements: the module's child array alone is larger than a chunk.
  std::string Text;
  for (int I = 0; I < 40000; ++I)
    Text += "x" + std::to_string(I) + " = f(y)\n";
  TreePtr T = parseInArena(Text);
  ASSERT_TRUE(T);
  EXPECT_TRUE(inArena(T));
  EXPECT_EQ(show(T.get()), parsedNormally(Text));
}

TEST(ParseInArena, LeavesMoreThanAMebibyteToTheCLibrary) {
  std::string Text;
  while (Text.size() <= (size_t(1) << 20))
    Text += "x = f(y)\n";
  TreePtr T = parseInArena(Text);
  ASSERT_TRUE(T);
  EXPECT_FALSE(inArena(T));
  // Its ranges count, not the text.
  TreePtr R = parseInArena(Text, {{0, 9}});
  ASSERT_TRUE(R);
  EXPECT_TRUE(inArena(R));
}

TEST(ParseInArena, GoesOnInTheCLibrarysMemoryPastItsBudget) {
  // Syntax errors make tree-sitter drop and rebuild subtrees. With budgets
  // from none to more than the parse needs, the tree is the same (and the
  // sanitizer build sees every byte past the budget freed).
  std::string Text;
  for (int I = 0; I < 400; ++I)
    Text += I % 50 == 49 ? "x = (1,\n" : "x" + std::to_string(I) + " = f(y)\n";
  std::string Expected = parsedNormally(Text);
  for (size_t Budget : {size_t(0), size_t(4096), size_t(65536), size_t(1) << 24}) {
    TreePtr T = parseInArena(Text, {}, Budget);
    ASSERT_TRUE(T) << Budget;
    EXPECT_TRUE(ts_node_has_error(ts_tree_root_node(T.get())));
    EXPECT_EQ(show(T.get()), Expected) << Budget;
  }
}

TEST(ParseInArena, ParsesOnManyThreadsAtOnce) {
  auto Inputs = test::pythonFixtureInputs();
  std::vector<std::string> Expected;
  for (const auto &[Name, Text] : Inputs)
    Expected.push_back(parsedNormally(Text));
  std::vector<int> Wrong(4, 0);
  std::vector<std::thread> Threads;
  for (int K = 0; K < 4; ++K)
    Threads.emplace_back([&, K] {
      for (int Round = 0; Round < 3; ++Round)
        for (size_t I = 0; I < Inputs.size(); ++I) {
          TreePtr T = parseInArena(Inputs[I].second);
          // A parser of the thread's own between the arena's, as a
          // language server's would be: its memory stays the C library's.
          Parser P;
          TreePtr N = P.parse(Inputs[I].second);
          if (!T || show(T.get()) != Expected[I] || show(N.get()) != Expected[I])
            ++Wrong[K];
        }
    });
  for (std::thread &T : Threads)
    T.join();
  EXPECT_EQ(Wrong, std::vector<int>(4, 0));
}

TEST(ParseInArena, ABatchParseIsNotReusedAsTheLanguageServersPreviousTree) {
  PythonBackend B;
  std::string Old = "import torch\nx = torch.cuda.is_available()\n";
  RegionText R;
  R.Text = Old;
  R.Ranges = {{0, static_cast<uint32_t>(Old.size())}};
  std::unique_ptr<ParsedFile> Batch = B.parseRegions("a.py", Old, R);
  ASSERT_TRUE(Batch);
  ASSERT_TRUE(static_cast<const PythonParsedFile &>(*Batch).inArena());
  // An edit after it: parsed from scratch, not by copying the arena's tree.
  std::string New = "import torch\ny = torch.cuda.is_available()\n";
  std::vector<Edit> Edits = {Edit::replacement({13, 14}, "y")};
  std::unique_ptr<ParsedFile> Next = B.parse(New, Batch.get(), Edits);
  ASSERT_TRUE(Next);
  const auto &Py = static_cast<const PythonParsedFile &>(*Next);
  EXPECT_FALSE(Py.inArena());
  EXPECT_EQ(show(Py.tree()), parsedNormally(New));
}

} // namespace
} // namespace devport::python
