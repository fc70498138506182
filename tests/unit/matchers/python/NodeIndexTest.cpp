//===--- NodeIndexTest.cpp - NodeIndex answers as tree-sitter does ---------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "matchers/python/NodeIndex.h"
#include "matchers/python/NameResolver.h"
#include "matchers/python/Pattern.h"
#include "tests/support/TestFiles.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace devport::python {
namespace {

/// A module whose classes and functions have many children (wide nodes,
/// which NodeIndex indexes) and few, with nested scopes, decorators,
/// comments, strings, imports in functions, an error and an empty block's
/// `pass`.
std::string wideModule() {
  std::string S = "import torch\n# a comment\n";
  for (int C = 0; C < 3; ++C) {
    S += "@decorated\nclass T" + std::to_string(C) + "(Base):\n    \"\"\"Doc.\"\"\"\n";
    for (int M = 0; M < 12; ++M) {
      std::string I = std::to_string(M);
      S += "    def test_" + I + "(self, x=1):\n";
      if (M % 3 == C)
        S += "        from torch.cuda import synchronize as s" + I + "\n";
      S += "        if torch.cuda.is_available():  # note\n";
      S += "            y = x.cuda() + f(a, b, *c, **d)[" + I + "]\n";
      S += "        return [v for v in (1, 2, " + I + ")] or {'k': \"cuda\"}\n\n";
    }
  }
  S += "def broken(:\n    pass\nx = 1; y = 2\nlambda: (yield)\n";
  return S;
}

/// The inputs of the rule fixtures: real code of every shape the rules know.
std::vector<std::string> fixtureInputs() {
  std::vector<std::string> Out;
  for (auto &[Path, Text] : test::pythonFixtureInputs())
    Out.push_back(std::move(Text));
  return Out;
}

/// Every node of the tree, in preorder.
std::vector<TSNode> allNodes(TSNode Root) {
  std::vector<TSNode> Out;
  preorder(Root, [&](TSNode N, TSTreeCursor *) {
    Out.push_back(N);
    return true;
  });
  return Out;
}

/// Compares NodeIndex with tree-sitter over ranges at, around and across
/// the nodes of Code, and the path to every node with ts_node_parent.
void expectAsTreeSitter(const std::string &Code) {
  Parser P;
  TreePtr T = P.parse(Code);
  TSNode Root = ts_tree_root_node(T.get());
  NodeIndex X(Root);
  std::vector<TSNode> Nodes = allNodes(Root);
  auto Expect = [&](uint32_t B, uint32_t E) {
    TSNode Want = ts_node_descendant_for_byte_range(Root, B, E);
    TSNode Got = X.descendantFor(B, E);
    ASSERT_TRUE(sameNode(Want, Got))
        << "[" << B << ", " << E << "): tree-sitter " << ts_node_type(Want) << " at "
        << ts_node_start_byte(Want) << ", NodeIndex " << ts_node_type(Got) << " at "
        << ts_node_start_byte(Got) << "\n"
        << Code;
  };
  uint32_t Size = static_cast<uint32_t>(Code.size());
  for (size_t I = 0; I < Nodes.size(); ++I) {
    ByteRange R = rangeOf(Nodes[I]);
    Expect(R.Begin, R.End);
    Expect(R.Begin, R.Begin);
    Expect(R.End, R.End);
    if (R.Begin > 0)
      Expect(R.Begin - 1, R.End);
    if (R.End < Size)
      Expect(R.Begin, R.End + 1);
    if (R.End > R.Begin + 1)
      Expect(R.Begin + 1, R.End - 1);
    // Across to a later node (siblings, or out of the parent).
    if (I + 7 < Nodes.size())
      Expect(R.Begin, std::max(R.Begin, ts_node_end_byte(Nodes[I + 7])));
    // Asked again: the remembered answer.
    Expect(R.Begin, R.End);
  }
  Expect(Size, Size);
  Expect(0, Size);
  std::vector<TSNode> Path;
  for (TSNode N : Nodes) {
    X.pathTo(N, Path);
    std::vector<TSNode> Want;
    for (TSNode U = N; !ts_node_is_null(U); U = ts_node_parent(U))
      Want.insert(Want.begin(), U);
    ASSERT_EQ(Want.size(), Path.size()) << ts_node_type(N) << " at " << ts_node_start_byte(N);
    for (size_t I = 0; I < Want.size(); ++I)
      ASSERT_TRUE(sameNode(Want[I], Path[I]))
          << ts_node_type(N) << " at " << ts_node_start_byte(N) << ", level " << I;
    // Without an index, the same path.
    std::vector<TSNode> Plain;
    pathFrom(Root, N, Plain);
    ASSERT_EQ(Path.size(), Plain.size());
    for (size_t I = 0; I < Path.size(); ++I)
      ASSERT_TRUE(sameNode(Path[I], Plain[I]));
  }
  // Asked again, deepest first: now read upwards through the parents that
  // the paths above found.
  for (size_t K = Nodes.size(); K-- > 0;) {
    X.pathTo(Nodes[K], Path);
    std::vector<TSNode> Want;
    for (TSNode U = Nodes[K]; !ts_node_is_null(U); U = ts_node_parent(U))
      Want.insert(Want.begin(), U);
    ASSERT_EQ(Want.size(), Path.size())
        << ts_node_type(Nodes[K]) << " at " << ts_node_start_byte(Nodes[K]) << ", asked again";
    for (size_t I = 0; I < Want.size(); ++I)
      ASSERT_TRUE(sameNode(Want[I], Path[I])) << ts_node_type(Nodes[K]) << ", asked again";
  }
}

TEST(NodeIndex, AnswersAsTreeSitterInWideAndNarrowNodes) { expectAsTreeSitter(wideModule()); }

TEST(NodeIndex, AnswersAsTreeSitterOnTheFixtureInputs) {
  std::vector<std::string> Inputs = fixtureInputs();
  ASSERT_GT(Inputs.size(), 50u);
  for (const std::string &Code : Inputs) {
    expectAsTreeSitter(Code);
    if (HasFatalFailure())
      return;
  }
}

TEST(NodeIndex, ForEachChildGivesTheCursorsChildrenInSmallAndWideNodes) {
  // forEachChild reads nodes of up to SmallNodeChildren children by index,
  // the others with a cursor (its own or one given): the same children,
  // extras and hidden nodes' children included, as a cursor's steps.
  std::vector<std::string> Inputs = fixtureInputs();
  Inputs.push_back(wideModule());
  size_t Small = 0, Wide = 0;
  for (const std::string &Code : Inputs) {
    Parser P;
    TreePtr T = P.parse(Code);
    TSTreeCursor Shared = ts_tree_cursor_new(ts_tree_root_node(T.get()));
    for (TSNode N : allNodes(ts_tree_root_node(T.get()))) {
      std::vector<TSNode> Want, Got, GotShared;
      TSTreeCursor C = ts_tree_cursor_new(N);
      if (ts_tree_cursor_goto_first_child(&C))
        do
          Want.push_back(ts_tree_cursor_current_node(&C));
        while (ts_tree_cursor_goto_next_sibling(&C));
      ts_tree_cursor_delete(&C);
      forEachChild(N, [&](TSNode X) { Got.push_back(X); });
      forEachChild(
          N, [&](TSNode X) { GotShared.push_back(X); }, &Shared);
      ASSERT_EQ(Want.size(), Got.size()) << Code;
      ASSERT_EQ(Want.size(), GotShared.size()) << Code;
      for (size_t I = 0; I < Want.size(); ++I) {
        ASSERT_TRUE(sameNode(Want[I], Got[I])) << Code;
        ASSERT_TRUE(sameNode(Want[I], GotShared[I])) << Code;
      }
      (Want.size() <= SmallNodeChildren ? Small : Wide) += !Want.empty();
    }
    ts_tree_cursor_delete(&Shared);
  }
  EXPECT_GT(Small, 1000u);
  EXPECT_GT(Wide, 50u);
}

TEST(NodeIndex, ChildCacheGivesEachNodesChildrenWhenAskedAgain) {
  // One cache per tree, asked for every node in document order and then
  // again in reverse: each answer is the node's children as a cursor steps
  // them, whether read now or kept (after many others were added). A parent
  // and its first child start at the same byte; siblings can share a symbol.
  std::vector<std::string> Inputs = fixtureInputs();
  Inputs.push_back(wideModule());
  size_t Asked = 0;
  for (const std::string &Code : Inputs) {
    Parser P;
    TreePtr T = P.parse(Code);
    std::vector<TSNode> Nodes = allNodes(ts_tree_root_node(T.get()));
    std::vector<std::vector<TSNode>> Want;
    for (TSNode N : Nodes) {
      Want.emplace_back();
      forEachChild(N, [&](TSNode X) { Want.back().push_back(X); });
    }
    ChildCache Cache;
    for (int Round = 0; Round < 2; ++Round)
      for (size_t K = 0; K < Nodes.size(); ++K) {
        size_t I = Round == 0 ? K : Nodes.size() - 1 - K;
        llvm::ArrayRef<TSNode> Got = Cache.children(Nodes[I]);
        ASSERT_EQ(Want[I].size(), Got.size()) << Code;
        for (size_t J = 0; J < Got.size(); ++J)
          ASSERT_TRUE(sameNode(Want[I][J], Got[J])) << Code;
        ++Asked;
      }
  }
  EXPECT_GT(Asked, 10000u);
}

TEST(NodeIndex, ParseRangesGivesNodesTheirPointsInTheFile) {
  // parseRanges gives tree-sitter each range's points (row, byte column),
  // counted from the file's start: every node of a tree parsed from every
  // other line (or pair of lines) has the point of its offsets in the file.
  std::vector<std::string> Inputs = fixtureInputs();
  Inputs.push_back(wideModule());
  Inputs.push_back("x = 1\r\n\r\ny = torch.cuda.is_available()\r\n\n\nz = (1,\n     2)\n");
  auto PointOf = [](llvm::StringRef Text, uint32_t Offset) {
    uint32_t Row = 0, LineStart = 0;
    for (uint32_t I = 0; I < Offset; ++I)
      if (Text[I] == '\n') {
        ++Row;
        LineStart = I + 1;
      }
    return TSPoint{Row, Offset - LineStart};
  };
  size_t Checked = 0;
  for (const std::string &Code : Inputs)
    for (uint32_t Every : {2u, 3u}) {
      std::vector<ByteRange> Ranges;
      uint32_t Line = 0;
      for (size_t B = 0; B < Code.size(); ++Line) {
        size_t E = Code.find('\n', B);
        E = E == std::string::npos ? Code.size() : E + 1;
        if (Line % Every != 1)
          Ranges.push_back({static_cast<uint32_t>(B), static_cast<uint32_t>(E)});
        B = E;
      }
      Parser P;
      TreePtr T = P.parseRanges(Code, Ranges);
      ASSERT_TRUE(T);
      for (TSNode N : allNodes(ts_tree_root_node(T.get()))) {
        TSPoint Want = PointOf(Code, ts_node_start_byte(N)), Got = ts_node_start_point(N);
        ASSERT_EQ(Want.row, Got.row) << Code;
        ASSERT_EQ(Want.column, Got.column) << Code;
        Want = PointOf(Code, ts_node_end_byte(N));
        Got = ts_node_end_point(N);
        ASSERT_EQ(Want.row, Got.row) << Code;
        ASSERT_EQ(Want.column, Got.column) << Code;
        ++Checked;
      }
    }
  EXPECT_GT(Checked, 10000u);
}

TEST(NodeIndex, NameResolverReadsTheSameImportsThroughIt) {
  std::vector<std::string> Inputs = fixtureInputs();
  Inputs.push_back(wideModule());
  for (const std::string &Code : Inputs) {
    Parser P;
    TreePtr T = P.parse(Code);
    TSNode Root = ts_tree_root_node(T.get());
    NodeIndex X(Root);
    NameResolver Plain(Root, Code), Indexed(X, Code);
    EXPECT_EQ(Plain.size(), Indexed.size()) << Code;
    EXPECT_EQ(Plain.fingerprint(), Indexed.fingerprint()) << Code;
    EXPECT_EQ(Plain.importInsertionOffset(), Indexed.importInsertionOffset()) << Code;
  }
  // The module's imports in functions of its wide classes are all read.
  std::string Code = wideModule();
  Parser P;
  TreePtr T = P.parse(Code);
  NodeIndex X(ts_tree_root_node(T.get()));
  EXPECT_EQ(1u + 12u, NameResolver(X, Code).size());
}

TEST(NodeIndex, IndexesOnlyWideNodes) {
  Parser P;
  std::string Code = wideModule();
  TreePtr T = P.parse(Code);
  TSNode Root = ts_tree_root_node(T.get());
  NodeIndex X(Root);
  EXPECT_EQ(&X.top(), X.childrenOf(Root));
  EXPECT_EQ(ts_node_child_count(Root), X.top().Children.size());
  for (TSNode N : allNodes(Root)) {
    const ChildIndex *C = X.childrenOf(N);
    if (sameNode(N, Root))
      continue;
    if (ts_node_child_count(N) < NodeIndex::WideNode) {
      EXPECT_EQ(nullptr, C) << ts_node_type(N);
      continue;
    }
    ASSERT_NE(nullptr, C) << ts_node_type(N);
    ASSERT_EQ(ts_node_child_count(N), C->Children.size());
    for (uint32_t I = 0; I < C->Children.size(); ++I) {
      EXPECT_TRUE(sameNode(ts_node_child(N, I), C->Children[I]));
      EXPECT_EQ(ts_node_end_byte(C->Children[I]), C->Ends[I]);
    }
    EXPECT_EQ(C, X.childrenOf(N)); // built once
  }
}

} // namespace
} // namespace devport::python
