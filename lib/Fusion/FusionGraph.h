//===- FusionGraph.h - the dataflow graph the fusion engine reads -*- C++
//-*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_LIB_DIALECT_FUSE_TRANSFORMS_FUSIONGRAPH_H
#define FUSE_LIB_DIALECT_FUSE_TRANSFORMS_FUSIONGRAPH_H

#include "fuse/Dialect/Fuse/IR/FuseInterfaces.h"
#include "mlir/IR/Block.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

#include <algorithm>
#include <memory>
#include <optional>

namespace mlir::fuse::detail {

/// Ops that cost no kernel of their own and are cloned into every group that
/// uses them: small constants, tensor.empty, fills of such values, shape
/// arithmetic and reshapes (views).
bool isCloneableIntoGroup(Operation *op);

/// Reshapes and casts of tensors: metadata only.
bool isViewOp(Operation *op);

/// Constants too large to clone: weights, read by the kernel as an input.
bool isWeightConstant(Operation *op);

/// What a reduction reduces: the shape of its (first) input, which of its
/// dimensions are reduced, and whether those are the innermost ones.
struct ReductionInfo {
  SmallVector<int64_t, 4> inputShape;
  SmallVector<int64_t, 2> reducedDims;
  bool innermost = false;
  int64_t rows = 0, cols = 0;
  int64_t elementBytes = 4;
};

/// One compute op of the block. A graph holds one per compute op (10^6 for
/// the largest graphs fuse compiles), so the inline sizes are small: most
/// ops have one or two operands, users and results.
struct Node {
  Operation *op = nullptr;
  unsigned index = 0;
  OpClassification cls;
  /// Distinct values the op reads from global memory (through views),
  /// excluding what the kernel materializes itself (empty, fills, constants
  /// small enough to clone).
  SmallVector<Value, 2> reads;
  /// Nodes this one depends on and nodes that depend on it, sorted.
  SmallVector<unsigned, 2> producers, consumers;
  /// Per result: consumer nodes, and whether a non-node (the terminator, an
  /// op outside the block) uses it.
  SmallVector<SmallVector<unsigned, 2>, 1> resultConsumers;
  SmallVector<bool, 4> resultEscapes;
  /// Static shape of result 0 (the iteration space of parallel ops).
  SmallVector<int64_t, 4> shape;
  bool hasStaticShape = false;
  /// What a reduction reduces, where fuse can tell.
  std::unique_ptr<ReductionInfo> reduction;
  /// The hardware check's verdict on this op for the plan's target, once
  /// asked (checkHardware): why the target cannot run it, or empty.
  mutable std::optional<std::string> unsupported;

  bool isContraction() const { return cls.category == OpCategory::contraction; }
  bool isReduction() const { return cls.category == OpCategory::reduction; }
  bool isElementwiseLike() const {
    return hasStaticShape && (cls.category == OpCategory::elementwise ||
                              cls.category == OpCategory::broadcast);
  }
  /// A gather: a static linalg.generic, all loops parallel, whose payload
  /// reads another tensor at computed indices (tensor.extract: an
  /// embedding lookup, a resize) and whose own operands are read
  /// elementwise or by broadcast, its result by the identity.
  bool isGather() const;
  /// A static linalg.transpose.
  bool isTranspose() const;
  int64_t numElements() const;
};

/// Membership in a set of node ids without a hash table: the ids sorted,
/// looked up by binary search. The engine keeps every group's members
/// sorted, so a set over them only points at them; other lists are copied
/// and sorted. The checks ask this once per merge, for groups of a few to a
/// few hundred ops, where building a hash set cost more than the check.
class MemberSet {
public:
  explicit MemberSet(ArrayRef<unsigned> members) {
    if (llvm::is_sorted(members)) {
      sorted = members;
      return;
    }
    copy.assign(members.begin(), members.end());
    llvm::sort(copy);
    sorted = copy;
  }
  MemberSet(const MemberSet &) = delete;
  MemberSet &operator=(const MemberSet &) = delete;
  bool contains(unsigned id) const {
    return std::binary_search(sorted.begin(), sorted.end(), id);
  }

private:
  SmallVector<unsigned, 0> copy;
  ArrayRef<unsigned> sorted;
};

/// The compute ops of one block and the values between them.
class FusionGraph {
public:
  explicit FusionGraph(Block &block);

  Block &getBlock() { return block; }
  ArrayRef<Node> getNodes() const { return nodes; }
  const Node &node(unsigned id) const { return nodes[id]; }
  unsigned size() const { return nodes.size(); }

  /// The node that defines `value` (through views), if any.
  std::optional<unsigned> getDefiningNode(Value value) const;

  /// Values read from outside a set of members, and its results used
  /// outside it.
  struct Boundary {
    SmallVector<Value> inputs, outputs;
  };

  /// Global-memory bytes of a kernel made of `members`: distinct values read
  /// from outside plus results used outside.
  int64_t getBytes(ArrayRef<unsigned> members) const;
  /// The same, given the members' boundary.
  int64_t getBytes(ArrayRef<unsigned> members, const Boundary &boundary) const;

  /// Values read from outside `members` and results used outside them.
  Boundary getBoundary(ArrayRef<unsigned> members) const;
  /// The boundary of `merged`, the union of two disjoint sets of members
  /// whose boundaries are `a` and `b`: the same values as getBoundary
  /// (perhaps in another order), from the sides' boundaries instead of
  /// every member's reads and results.
  Boundary mergeBoundaries(ArrayRef<unsigned> merged, const Boundary &a,
                           const Boundary &b) const;

  /// Whether some member's result is used both inside `members` and outside.
  bool hasMultiOutput(ArrayRef<unsigned> members) const;

  /// Whether a path leaves `from`, passes through nodes outside `members`
  /// and enters `to` (both subsets of `members`).
  bool hasPathThroughOutside(ArrayRef<unsigned> from, ArrayRef<unsigned> to,
                             const MemberSet &members) const;

  /// Whether any path of dataflow edges leads from a node of `from` to a
  /// node of `to`.
  bool hasPath(ArrayRef<unsigned> from, ArrayRef<unsigned> to) const;

private:
  /// Whether result `i` of `node` leaves the set `in`: it escapes the block
  /// or a node outside the set reads it.
  static bool leaves(const Node &node, unsigned i, const MemberSet &in) {
    return node.resultEscapes[i] ||
           llvm::any_of(node.resultConsumers[i],
                        [&](unsigned c) { return !in.contains(c); });
  }
  /// Follows views back to the value they reshape.
  Value resolveView(Value value) const;
  void collectDependencies(Node &node);
  void collectConsumers(unsigned id);

  Block &block;
  std::vector<Node> nodes;
  llvm::DenseMap<Operation *, unsigned> nodeIds;
};

} // namespace mlir::fuse::detail

#endif // FUSE_LIB_DIALECT_FUSE_TRANSFORMS_FUSIONGRAPH_H
