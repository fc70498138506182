//===--- ReparseTest.cpp - The edit told to tree-sitter for a re-parse -----===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "matchers/python/Syntax.h"
#include "tests/support/TestFiles.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace devport::python {
namespace {

/// A node and where it is.
struct Placed {
  TSSymbol Symbol;
  bool Missing;
  uint32_t Begin, End;
  TSPoint From, To;
  bool operator==(const Placed &O) const {
    return Symbol == O.Symbol && Missing == O.Missing && Begin == O.Begin && End == O.End &&
           From.row == O.From.row && From.column == O.From.column && To.row == O.To.row &&
           To.column == O.To.column;
  }
};

/// Every node of T in preorder: two trees with the same nodes in the same
/// places give equal lists.
std::vector<Placed> nodesOf(const TSTree *T) {
  std::vector<Placed> Out;
  preorder(ts_tree_root_node(T), [&](TSNode N, TSTreeCursor *) {
    Out.push_back({ts_node_symbol(N), ts_node_is_missing(N), ts_node_start_byte(N),
                   ts_node_end_byte(N), ts_node_start_point(N), ts_node_end_point(N)});
    return true;
  });
  return Out;
}

/// The first node where A and B differ, shown.
std::string firstDifference(const std::vector<Placed> &A, const std::vector<Placed> &B) {
  auto Show = [](const std::vector<Placed> &V, size_t I) {
    if (I >= V.size())
      return std::string("(none)");
    const Placed &N = V[I];
    return std::string(ts_language_symbol_name(tree_sitter_python(), N.Symbol)) +
           (N.Missing ? "(missing)" : "") + " [" + std::to_string(N.Begin) + ", " +
           std::to_string(N.End) + ") " + std::to_string(N.From.row) + ":" +
           std::to_string(N.From.column) + "-" + std::to_string(N.To.row) + ":" +
           std::to_string(N.To.column);
  };
  size_t I = 0;
  while (I < A.size() && I < B.size() && A[I] == B[I])
    ++I;
  return "node " + std::to_string(I) + ": " + Show(A, I) + " against " + Show(B, I);
}

struct Change {
  ByteRange Range;
  std::string Replacement;
};

std::string applied(const std::string &Old, const std::vector<Change> &Changes) {
  std::string New;
  uint32_t At = 0;
  for (const Change &C : Changes) {
    New += Old.substr(At, C.Range.Begin - At) + C.Replacement;
    At = C.Range.End;
  }
  return New + Old.substr(At);
}

/// Old's tree edited by Changes (sorted, apart) as PythonBackend tells
/// tree-sitter, back to front.
TreePtr edited(const std::string &Old, const TSTree *OldTree, const std::vector<Change> &Changes) {
  TreePtr E(ts_tree_copy(OldTree));
  for (size_t I = Changes.size(); I-- > 0;) {
    uint32_t Floor = I > 0 ? Changes[I - 1].Range.End : 0;
    uint32_t Ceiling =
        I + 1 < Changes.size() ? Changes[I + 1].Range.Begin : static_cast<uint32_t>(Old.size());
    TSInputEdit In =
        editForReparse(Old, Changes[I].Range, Changes[I].Replacement, Floor, Ceiling);
    ts_tree_edit(E.get(), &In);
  }
  return E;
}

/// The tree of Old (Before) re-parsed after Changes equals the new text
/// parsed from scratch, node by node and place by place.
void expectSameTree(const std::string &Old, const TSTree *Before,
                    const std::vector<Change> &Changes) {
  thread_local Parser P;
  std::string New = applied(Old, Changes);
  TreePtr Again = P.parse(New, edited(Old, Before, Changes).get());
  TreePtr Scratch = P.parse(New);
  std::vector<Placed> Want = nodesOf(Scratch.get()), Got = nodesOf(Again.get());
  ASSERT_TRUE(Want == Got) << firstDifference(Want, Got) << "\nbefore:\n"
                           << Old << "\nafter:\n"
                           << New;
}

/// The line ends, line starts and blank lines of Code.
struct Places {
  std::vector<uint32_t> Ends, Starts, Blanks;
};

Places placesOf(const std::string &Code) {
  Places Out;
  uint32_t Start = 0;
  for (uint32_t I = 0; I <= Code.size(); ++I) {
    if (I < Code.size() && Code[I] != '\n')
      continue;
    uint32_t First = Start;
    while (First < I && (Code[First] == ' ' || Code[First] == '\t'))
      ++First;
    if (First == I)
      Out.Blanks.push_back(Start);
    else
      Out.Starts.push_back(First);
    Out.Ends.push_back(I);
    Start = I + 1;
  }
  return Out;
}

/// Classes whose methods end in nested blocks, top-level functions and
/// statements after them, comments at every indentation, a CRLF line, a
/// string over lines, a line continued by a backslash and lines that end in
/// characters of two to four bytes (an edit may start inside one).
std::string blockyModule() {
  std::string S = "import torch\n\nname = \"d\xC3\xA9j\xC3\xA0 \xE2\x82\xAC\"  # "
                  "\xF0\x9F\x98\x80\n\xC3\xA9t\xC3\xA9 = 1\n";
  for (int C = 0; C < 3; ++C) {
    S += "class T" + std::to_string(C) + ":\n    def m(self, x):\n        for i in x:\n";
    S += "            if i:\n                yield f'{i}', [i]  \n";
    S += "        # after the loop\n\n";
    S += "def f" + std::to_string(C) + "(a):\n    return a \\\n        + 1\r\n";
    S += "x" + std::to_string(C) + " = '''two\nlines'''\n";
  }
  return S + "    # an indented comment at the end\n";
}

TEST(EditForReparse, OneEditAtEveryLineGivesTheTreeOfAParseFromScratch) {
  // Every second fixture input (the next test edits all of them at random):
  // seven parses a line of all of them took 33 s under AddressSanitizer.
  std::vector<std::string> Inputs = {blockyModule()};
  auto Fixtures = test::pythonFixtureInputs();
  for (size_t I = 0; I < Fixtures.size(); I += 2)
    Inputs.push_back(Fixtures[I].second);
  ASSERT_GT(Inputs.size(), 30u);
  Parser P;
  for (const std::string &Code : Inputs) {
    TreePtr T = P.parse(Code);
    const TSTree *Before = T.get();
    Places At = placesOf(Code);
    for (uint32_t E : At.Ends) {
      expectSameTree(Code, Before, {{{E, E}, " "}});   // a trailing space typed
      expectSameTree(Code, Before, {{{E, E}, "x"}});   // a character typed after the last
      expectSameTree(Code, Before, {{{E, E}, "("}});   // an open bracket
      expectSameTree(Code, Before, {{{E, E}, ":\n"}}); // a block opened
      if (E > 0 && Code[E - 1] != '\n')
        expectSameTree(Code, Before, {{{E - 1, E}, ""}}); // the last character deleted
      if (HasFatalFailure())
        return;
    }
    for (uint32_t S : At.Starts) {
      expectSameTree(Code, Before, {{{S, S}, "x"}});
      expectSameTree(Code, Before, {{{S, S + 1}, ""}});
      if (HasFatalFailure())
        return;
    }
    for (uint32_t B : At.Blanks) {
      expectSameTree(Code, Before, {{{B, B}, "        y"}});
      expectSameTree(Code, Before, {{{B, B}, "y"}});
      if (HasFatalFailure())
        return;
    }
  }
}

TEST(EditForReparse, SeveralEditsStayWithinTheirNeighbours) {
  std::mt19937 Rng(20261127);
  const std::vector<std::string> Snippets = {"", " ", "x", "(", ")", ":", "\n", "\n    ", "'", "#"};
  std::vector<std::string> Inputs = {blockyModule()};
  for (auto &[Path, Text] : test::pythonFixtureInputs())
    Inputs.push_back(Text);
  Parser P;
  for (const std::string &Code : Inputs) {
    if (Code.size() < 8)
      continue;
    TreePtr T = P.parse(Code);
    for (int Round = 0; Round < 20; ++Round) {
      // Up to four edits, sorted and apart; lines ends are likely.
      std::vector<uint32_t> Cuts;
      Places At = placesOf(Code);
      for (int K = 0; K < 8; ++K)
        Cuts.push_back(Rng() % 2 ? At.Ends[Rng() % At.Ends.size()]
                                 : static_cast<uint32_t>(Rng() % (Code.size() + 1)));
      std::sort(Cuts.begin(), Cuts.end());
      std::vector<Change> Changes;
      for (size_t K = 0; K + 1 < Cuts.size(); K += 2) {
        uint32_t B = Cuts[K], E = std::min(Cuts[K + 1], Cuts[K] + static_cast<uint32_t>(Rng() % 3));
        if (!Changes.empty() && B < Changes.back().Range.End)
          continue;
        Changes.push_back({{B, E}, Snippets[Rng() % Snippets.size()]});
      }
      expectSameTree(Code, T.get(), Changes);
      if (HasFatalFailure())
        return;
    }
  }
}

/// After an error, tree-sitter reuses tokens that it lexed where the text
/// went on past the change: here `ing=True)` after a `"` that the deletion of
/// the line ends leaves open to the end of the text (a fresh parse reads
/// the rest as the string; the re-parse kept a call of `ing=True`). The
/// change's line is lexed again (fuzz/regressions/python-engine/
/// lsp-string-left-open-by-deleting-b910e0e2, there with lone CRs).
TEST(EditForReparse, TheTokensBeforeTheChangeOnItsLineAreLexedAgain) {
  const std::string Code = "import os\nimport unitte= torch.amp.GradScaler(\"cuda\")\n"
                           "scaler vice)  # expect: cuda-method-to-device:safe\n"
                           "    y = x.cuda(device=target_device, non_block\"ing=True)  # expect: "
                           "cuda-method-to-device:sxpect: mixed-backend-string\n\n\n# Negatives.\n"
                           "dist.init_process_group(\"gloo\")\n";
  Parser P;
  TreePtr T = P.parse(Code);
  uint32_t Cut = static_cast<uint32_t>(Code.find("# exp", Code.find("ing=True")) + 4);
  expectSameTree(Code, T.get(), {{{Cut, static_cast<uint32_t>(Code.size())}, ""}});
}

/// How many tokens tree-sitter lexes re-parsing after Changes (its log's
/// "lexed_lookahead" lines), with the edit as editForReparse gives it, or
/// as it is.
unsigned tokensLexed(const std::string &Old, const std::vector<Change> &Changes, bool Widened) {
  Parser P;
  TreePtr Before = P.parse(Old);
  TreePtr E;
  if (Widened) {
    E = edited(Old, Before.get(), Changes);
  } else {
    E.reset(ts_tree_copy(Before.get()));
    for (const Change &C : Changes) { // bounded by itself: the edit as it is
      TSInputEdit In = editForReparse(Old, C.Range, C.Replacement, C.Range.Begin, C.Range.End);
      ts_tree_edit(E.get(), &In);
    }
  }
  std::string New = applied(Old, Changes);
  TSParser *Raw = ts_parser_new();
  ts_parser_set_language(Raw, tree_sitter_python());
  unsigned Count = 0;
  TSLogger L{&Count, [](void *Payload, TSLogType Type, const char *Message) {
               if (Type == TSLogTypeParse && std::strncmp(Message, "lexed_lookahead", 15) == 0)
                 ++*static_cast<unsigned *>(Payload);
             }};
  ts_parser_set_logger(Raw, L);
  TSTree *T = ts_parser_parse_string(Raw, E.get(), New.data(), static_cast<uint32_t>(New.size()));
  TreePtr Owned(T);
  ts_parser_delete(Raw);
  TreePtr Scratch = P.parse(New);
  std::vector<Placed> Want = nodesOf(Scratch.get()), Got = nodesOf(T);
  EXPECT_TRUE(Want == Got) << firstDifference(Want, Got);
  return Count;
}

TEST(EditForReparse, ASpaceDeletedAtTheEndOfAClassIsNotAReparseOfWhatFollows) {
  std::string Code = "class A:\n    def m(self):\n        for i in x:\n            yield [i] \n\n";
  uint32_t Space = static_cast<uint32_t>(Code.find("] \n") + 1);
  for (int I = 0; I < 300; ++I)
    Code += "def f" + std::to_string(I) + "(fn):\n    if fn:\n        return fn(1, 2)\n    return 0\n\n";
  std::vector<Change> Delete = {{{Space, Space + 1}, ""}};
  // What any edit costs: tree-sitter lexes the first token of every
  // top-level statement again (the module's repetition is fragile).
  uint32_t Mid = static_cast<uint32_t>(Code.find("fn(1, 2)") + 3);
  unsigned Floor = tokensLexed(Code, {{{Mid, Mid}, "x"}}, true);
  EXPECT_LE(Floor, tokensLexed(Code, {{{Mid, Mid}, "x"}}, false) + 2); // the token before too
  unsigned Widened = tokensLexed(Code, Delete, true);
  unsigned Plain = tokensLexed(Code, Delete, false);
  // The line and its empty tokens more; as it is, the edit re-lexed the
  // functions after the class.
  EXPECT_LT(Widened, Floor + 20);
  EXPECT_GT(Plain, 10 * Floor) << "tree-sitter reuses the module after this edit as it is: "
                                  "editForReparse may no longer be needed";
  // Typing at that line end and at the end of a function's last line, and
  // deleting there.
  uint32_t Return = static_cast<uint32_t>(Code.find("return 0\n") + 8);
  for (uint32_t At : {Space, Return})
    EXPECT_LT(tokensLexed(Code, {{{At, At}, " or 1"}}, true), Floor + 20);
  EXPECT_LT(tokensLexed(Code, {{{Return - 1, Return}, ""}}, true), Floor + 20);
  EXPECT_LT(tokensLexed(Code, {{{Space - 1, Space + 1}, "] "}}, true), Floor + 20);
  // In a long line (a generated table), the tokens before the edit on its
  // line are lexed again only so far (editForReparse's MaxBack, 4 KiB: some
  // 1,400 tokens of `1, `). tree-sitter lexes the whole table again after an
  // edit inside it anyway (20,001 tokens); back to the line's start was
  // half as much again.
  std::string Table = "x = [";
  for (int I = 0; I < 20000; ++I)
    Table += "1, ";
  Table += "]\n";
  uint32_t Half = static_cast<uint32_t>(Table.size() / 2) / 3 * 3 + 2; // before a `1`
  unsigned InTable = tokensLexed(Table, {{{Half, Half}, "2"}}, true);
  unsigned AsItIs = tokensLexed(Table, {{{Half, Half}, "2"}}, false);
  EXPECT_LT(InTable, AsItIs + 1500);
}

} // namespace
} // namespace devport::python
