//===--- NodeIndex.cpp - Finding a node by position in a large tree -------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//

#include "matchers/python/NodeIndex.h"

#include "llvm/ADT/ScopeExit.h"

#include <algorithm>

namespace devport::python {

ChildIndex::ChildIndex(TSNode N) {
  forEachChild(N, [&](TSNode C) {
    Children.push_back(C);
    Ends.push_back(ts_node_end_byte(C));
  });
}

size_t ChildIndex::firstEndingAtOrAfter(uint32_t At) const {
  return std::lower_bound(Ends.begin(), Ends.end(), At) - Ends.begin();
}

NodeIndex::NodeIndex(TSNode Root) : Root(Root), Top(Root) {}

const ChildIndex *NodeIndex::childrenOf(TSNode N) const {
  if (sameNode(N, Root))
    return &Top;
  if (ts_node_child_count(N) < WideNode)
    return nullptr;
  std::unique_ptr<ChildIndex> &Slot = Wide[N.id];
  if (!Slot)
    Slot = std::make_unique<ChildIndex>(N);
  return Slot.get();
}

namespace {

/// What ts_node_descendant_for_byte_range(_, B, E) does with a child, in
/// order: passes it (it ends before E, or at or before B), descends into it,
/// or stops at the parent (the child starts after B).
enum class Step { Pass, Descend, Stop };

Step stepAt(TSNode Child, uint32_t B, uint32_t E) {
  uint32_t End = ts_node_end_byte(Child);
  if (End < E)
    return Step::Pass;
  uint32_t Start = ts_node_start_byte(Child);
  if (Start == End ? End < B : End <= B)
    return Step::Pass; // an empty child at B holds B
  return B < Start ? Step::Stop : Step::Descend;
}

} // namespace

// tree-sitter reads the children of hidden nodes too (and descends into a
// hidden node as into any other); the visible children read here are those
// same children in the same order, so the first that passes is the same.
TSNode NodeIndex::descendantFor(uint32_t B, uint32_t E) const {
  if (B > E)
    return ts_node_descendant_for_byte_range(Root, B, E); // tree-sitter's answer
  auto [Memo, New] = Descendants.try_emplace({B, E});
  if (!New)
    return Memo->second;
  TSNode N = Root;
  TSTreeCursor C = ts_tree_cursor_new(Root);
  for (Step S = Step::Descend; S == Step::Descend;) {
    S = Step::Pass;
    if (const ChildIndex *X = childrenOf(N)) {
      // Those that end before E are passed whatever their start.
      for (size_t I = X->firstEndingAtOrAfter(E); I < X->Children.size(); ++I)
        if ((S = stepAt(X->Children[I], B, E)) != Step::Pass) {
          if (S == Step::Descend) {
            N = X->Children[I];
            ts_tree_cursor_reset(&C, N);
          }
          break;
        }
    } else if (ts_tree_cursor_goto_first_child(&C)) {
      // A cursor steps to the next sibling in constant time; ts_node_child(I)
      // counts from the first child on every call.
      do {
        TSNode Child = ts_tree_cursor_current_node(&C);
        if ((S = stepAt(Child, B, E)) != Step::Pass) {
          if (S == Step::Descend)
            N = Child;
          break;
        }
      } while (ts_tree_cursor_goto_next_sibling(&C));
    }
  }
  ts_tree_cursor_delete(&C);
  Memo->second = N;
  return N;
}

void NodeIndex::pathTo(TSNode N, std::vector<TSNode> &Path) const { pathFrom(Root, N, Path, this); }

void pathFrom(TSNode Root, TSNode N, std::vector<TSNode> &Path, const NodeIndex *Index) {
  // Upwards through the parents known, if they reach Root.
  if (Index && !ts_node_is_null(N)) {
    Path.assign(1, N);
    for (auto It = Index->Parents.find(N.id); It != Index->Parents.end();
         It = Index->Parents.find(It->second.id)) {
      Path.push_back(It->second);
      if (sameNode(It->second, Root))
        break;
    }
    if (sameNode(Path.back(), Root)) {
      std::reverse(Path.begin(), Path.end());
      return;
    }
  }
  // Each step down (or up, below) is a parent and its child: remembered.
  auto Remember = [&] {
    if (Index)
      for (size_t I = 1; I < Path.size(); ++I)
        Index->Parents.try_emplace(Path[I].id, Path[I - 1]);
  };
  auto Done = llvm::make_scope_exit(Remember);
  Path.assign(1, Root);
  ByteRange R = rangeOf(N);
  TSTreeCursor C = ts_tree_cursor_new(Root);
  TSNode Cur = Root;
  while (!sameNode(Cur, N)) {
    bool Found = false;
    if (const ChildIndex *X = Index ? Index->childrenOf(Cur) : nullptr) {
      // The first child that is N or holds it, as the scan below finds it.
      for (size_t I = X->firstEndingAtOrAfter(R.End);
           I < X->Children.size() && ts_node_start_byte(X->Children[I]) <= R.Begin; ++I)
        if (sameNode(X->Children[I], N) || rangeOf(X->Children[I]).contains(R)) {
          Cur = X->Children[I];
          Found = true;
          ts_tree_cursor_reset(&C, Cur);
          break;
        }
    } else if (ts_tree_cursor_goto_first_child(&C)) {
      do {
        TSNode Child = ts_tree_cursor_current_node(&C);
        if (sameNode(Child, N) || rangeOf(Child).contains(R)) {
          Cur = Child;
          Found = true;
          break;
        }
      } while (ts_tree_cursor_goto_next_sibling(&C));
    }
    if (!Found)
      break;
    Path.push_back(Cur);
  }
  ts_tree_cursor_delete(&C);
  if (sameNode(Cur, N))
    return;
  // An empty node (a MISSING `)`) is held by its empty or ending neighbours
  // too, and the first of them may not be its parent: tree-sitter's parents
  // then, if they lead to Root (else N is not under it).
  std::vector<TSNode> Up;
  for (TSNode U = N; !ts_node_is_null(U); U = ts_node_parent(U)) {
    Up.push_back(U);
    if (sameNode(U, Root)) {
      Path.assign(Up.rbegin(), Up.rend());
      return;
    }
  }
}

} // namespace devport::python
