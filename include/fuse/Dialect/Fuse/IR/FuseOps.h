//===- FuseOps.h - fuse operations ------------------------------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_DIALECT_FUSE_IR_FUSEOPS_H
#define FUSE_DIALECT_FUSE_IR_FUSEOPS_H

#include "fuse/Dialect/Fuse/IR/FuseAttrs.h"
#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::fuse {
class YieldOp;
} // namespace mlir::fuse

#define GET_OP_CLASSES
#include "fuse/Dialect/Fuse/IR/FuseOps.h.inc"

namespace mlir {
class RewriterBase;
namespace fuse {

/// Merges two groups of the same block into one new group of kind `kind`
/// and rule `rule` (empty: none), created in front of `insertBefore` (one of
/// the two). `second` may use results of `first`; those become internal.
/// Results of `first` that `second` alone used disappear; all other results
/// of both stay, in order (first's, then second's). The caller must ensure
/// that the new position dominates every user and is dominated by every
/// input. Returns the new group; both old groups are erased.
GroupOp mergeFuseGroups(RewriterBase &rewriter, GroupOp first, GroupOp second,
                        FusionKind kind, StringRef rule, GroupOp insertBefore);

/// Whether every compute op of `group` is elementwise or broadcast.
bool isElementwiseGroup(GroupOp group);

/// The shape all results of `group` share, if they are all ranked tensors
/// of one static shape.
std::optional<ArrayRef<int64_t>> getCommonResultShape(GroupOp group);

/// A later group of the same block that reads an input of `first`, has the
/// same common result shape, takes only values defined before `first` (so
/// the two are independent and a merged group can stand where `first`
/// stands), and that `accept` agrees to; null if there is none.
GroupOp findMergeableSibling(GroupOp first,
                             llvm::function_ref<bool(GroupOp)> accept);

/// For each of `groups`, the index of the first of them that is the same
/// kernel (GroupOp::isSameKernel): its own index where no earlier one is.
/// Groups are compared only with earlier groups of equal hashKernel().
SmallVector<unsigned> findSameKernels(ArrayRef<GroupOp> groups);

/// Whether the ops `lhs` and `rhs` (in order) compute the same thing: pairwise
/// the same name, attributes, properties and types, each operand the
/// corresponding value, nested regions alike. `values` holds the pairs known
/// at the start (block arguments); each op's results and its regions' blocks
/// and arguments are paired as the walk meets them. An operand not paired
/// yet (a value the sequences read from elsewhere) is offered to
/// `pairOutside` (null: none may be): it says whether the two correspond,
/// and is asked once per value. Regions go through a worklist, so the
/// input's nesting depth is no recursion depth.
bool isSameOpSequence(ArrayRef<Operation *> lhs, ArrayRef<Operation *> rhs,
                      llvm::DenseMap<Value, Value> &values,
                      llvm::function_ref<bool(Value, Value)> pairOutside);

} // namespace fuse
} // namespace mlir

#endif // FUSE_DIALECT_FUSE_IR_FUSEOPS_H
