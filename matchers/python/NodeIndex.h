//===--- NodeIndex.h - Finding a node by position in a large tree ---------===//
//
// Part of devport. See README.md.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// tree-sitter finds a node by position (ts_node_descendant_for_byte_range,
/// ts_node_parent) by reading each node's children from the first. In a
/// class of 300 methods, or a module of 100,000 statements, that is a scan
/// of the siblings per step, for every finding: the review of a file with
/// many findings was quadratic in it. A NodeIndex answers the same questions
/// from an index of the children of each node with several, built when first
/// asked, and remembers its answers. It refers to its tree: use it while the
/// tree lives and does not change.
///
//===----------------------------------------------------------------------===//

#ifndef DEVPORT_MATCHERS_PYTHON_NODEINDEX_H
#define DEVPORT_MATCHERS_PYTHON_NODEINDEX_H

#include "matchers/python/Syntax.h"

#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <utility>
#include <vector>

namespace devport::python {

/// The children of a node, in order, with their end bytes, so that the one
/// holding a range is found by binary search.
struct ChildIndex {
  std::vector<TSNode> Children;
  std::vector<uint32_t> Ends; ///< Their end bytes (not decreasing).

  explicit ChildIndex(TSNode N);
  /// The first child whose end is at or after At (Children.size() if none).
  size_t firstEndingAtOrAfter(uint32_t At) const;
};

class NodeIndex {
public:
  explicit NodeIndex(TSNode Root);

  TSNode root() const { return Root; }
  /// The root's children.
  const ChildIndex &top() const { return Top; }
  /// N's children, indexed when first asked; null for a node with fewer
  /// than WideNode (reading those one by one is as fast).
  const ChildIndex *childrenOf(TSNode N) const;
  /// What ts_node_descendant_for_byte_range(root(), B, E) returns.
  TSNode descendantFor(uint32_t B, uint32_t E) const;
  /// The path from root() down to N (pathFrom with this index).
  void pathTo(TSNode N, std::vector<TSNode> &Path) const;

  static constexpr uint32_t WideNode = 4;

private:
  TSNode Root;
  ChildIndex Top;
  mutable llvm::DenseMap<const void *, std::unique_ptr<ChildIndex>> Wide;
  /// descendantFor()'s answers so far, by range: the reviews of one finding
  /// ask for its range several times.
  mutable llvm::DenseMap<std::pair<uint32_t, uint32_t>, TSNode> Descendants;
  /// Each node's parent on the paths found so far, by node id: a path to a
  /// node whose parents are known up to the root is read upwards (a review
  /// asks for the parents of each finding's nodes many times).
  mutable llvm::DenseMap<const void *, TSNode> Parents;
  friend void pathFrom(TSNode, TSNode, std::vector<TSNode> &, const NodeIndex *);
};

/// The path from Root down to N, both included, into Path, as
/// ts_node_parent() gives it; if N is not under Root, it ends above N, at
/// the deepest node that holds N's range. Index, if given, must be Root's.
void pathFrom(TSNode Root, TSNode N, std::vector<TSNode> &Path, const NodeIndex *Index = nullptr);

} // namespace devport::python

#endif
