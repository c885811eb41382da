//===- Materialize.cpp - wrap planned groups in fuse.group ----------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "FusionGraph.h"

#include "fuse/Dialect/Fuse/IR/FuseOps.h"
#include "fuse/Fusion/FusionEngine.h"
#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

#include <numeric>

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::detail;

/// Whether `result` of a member is used outside the group (`members`): a use
/// by a cloneable op (say a reshape) counts only if that op's own results
/// are used outside.
static bool isUsedOutside(Block &block,
                          const llvm::DenseSet<Operation *> &members,
                          Value result) {
  SmallVector<Value> pending = {result};
  llvm::DenseSet<Operation *> seen;
  while (!pending.empty()) {
    Value value = pending.pop_back_val();
    for (Operation *user : value.getUsers()) {
      Operation *top = block.findAncestorOpInBlock(*user);
      if (!top)
        return true;
      if (members.contains(top))
        continue;
      if (!isCloneableIntoGroup(top))
        return true;
      if (seen.insert(top).second)
        pending.append(top->result_begin(), top->result_end());
    }
  }
  return false;
}

/// Where a value a group's members read comes from: a member, an op cheap
/// enough to clone into the group (constants, empty, fills, views: the
/// value's own defining op, in the block), or outside (an input).
enum class Source { member, clone, input };
static Source sourceOf(Block &block, const llvm::DenseSet<Operation *> &members,
                       Value value) {
  Operation *def = value.getDefiningOp();
  Operation *top = def ? block.findAncestorOpInBlock(*def) : nullptr;
  if (!top)
    return Source::input;
  if (members.contains(top))
    return Source::member;
  if (isCloneableIntoGroup(top) && top == def)
    return Source::clone;
  return Source::input;
}

/// Builds the fuse.group for one planned group. With `copy`, the group holds
/// copies of the planned ops and the block is left as it was (the group's
/// results unused); otherwise the ops move into the group and their uses
/// outside read the group's results.
static GroupOp materializeGroup(Block &block, const PlannedGroup &planned,
                                bool copy) {
  llvm::DenseSet<Operation *> members(planned.ops.begin(), planned.ops.end());

  // Values the group needs from outside: each becomes an input, unless it is
  // made by an op cheap enough to clone in (constants, empty, fills, views).
  llvm::SetVector<Value> inputs;
  llvm::SetVector<Operation *> clones;
  llvm::SetVector<Value> worklist;
  auto addUses = [&](Operation *op) {
    worklist.insert(op->operand_begin(), op->operand_end());
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(op->getRegions(), captured);
    worklist.insert(captured.begin(), captured.end());
  };
  for (Operation *op : planned.ops)
    addUses(op);
  for (unsigned i = 0; i < worklist.size(); ++i) {
    Value value = worklist[i];
    switch (sourceOf(block, members, value)) {
    case Source::member:
      break;
    case Source::clone:
      if (Operation *def = value.getDefiningOp(); clones.insert(def))
        addUses(def);
      break;
    case Source::input:
      inputs.insert(value);
      break;
    }
  }
  SmallVector<Operation *> cloneOrder(clones.begin(), clones.end());
  llvm::sort(cloneOrder,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });

  // Results: values used outside the group.
  SmallVector<Value> results;
  for (Operation *op : planned.ops)
    for (Value result : op->getResults())
      if (isUsedOutside(block, members, result))
        results.push_back(result);

  Operation *last = planned.ops.back();
  OpBuilder builder(last);
  auto group = GroupOp::create(
      builder, planned.anchor->getLoc(), ValueRange(results).getTypes(),
      inputs.getArrayRef(), planned.kind, planned.rule);
  FuseDialect::IdAttrHelper(builder.getContext())
      .setAttr(group, builder.getI64IntegerAttr(planned.id));
  Block &body = group.getBodyBlock();
  IRMapping mapping;
  for (auto [input, arg] : llvm::zip(inputs, body.getArguments()))
    mapping.map(input, arg);
  OpBuilder inner = OpBuilder::atBlockEnd(&body);
  // Uses of inputs and of cloned ops read the group's own values.
  auto remapUses = [&](ArrayRef<Operation *> ops) {
    for (Operation *op : ops)
      op->walk([&](Operation *nested) {
        for (OpOperand &use : nested->getOpOperands())
          if (Value mapped = mapping.lookupOrNull(use.get()))
            use.set(mapped);
      });
  };
  SmallVector<Operation *> cloned;
  for (Operation *op : cloneOrder)
    cloned.push_back(inner.clone(*op, mapping));
  if (copy) {
    // The body a move would give: the members after the clones, and a
    // clone that uses a member (a reshape of its result) reading the
    // member's copy.
    for (Operation *op : planned.ops)
      inner.clone(*op, mapping);
    remapUses(cloned);
  } else {
    for (Operation *op : planned.ops)
      op->moveBefore(&body, body.end());
    remapUses(planned.ops);
  }
  // Clones may use members (a reshape of a member's result): order the body.
  sortTopologically(&body);
  inner.setInsertionPointToEnd(&body);
  SmallVector<Value> yielded;
  for (Value result : results)
    yielded.push_back(copy ? mapping.lookup(result) : result);
  YieldOp::create(inner, planned.anchor->getLoc(), yielded);
  if (copy)
    return group;
  for (auto [result, replacement] : llvm::zip(results, group.getResults()))
    result.replaceUsesWithIf(replacement, [&](OpOperand &use) {
      return !group->isAncestor(use.getOwner());
    });
  // Cloneable ops left outside that still use a member (a reshape now
  // cloned into the group, whose original is dead) are erased.
  for (Operation *op : llvm::reverse(cloneOrder))
    if (op->use_empty() && isMemoryEffectFree(op))
      op->erase();
  return group;
}

LogicalResult mlir::fuse::materializeFusionPlan(Block &block,
                                                const FusionPlan &plan) {
  SmallVector<GroupOp> groups(plan.groups.size());
  for (auto [i, group] : llvm::enumerate(plan.groups))
    if (!group.ops.empty())
      groups[i] = materializeGroup(block, group, /*copy=*/false);
  // The groups in the plan's kernel order, at the end of the block: the
  // topological sort below keeps them in that order (it is one) and moves
  // the ops between them that need an earlier group's result after it.
  if (plan.kernelOrder.size() == plan.groups.size()) {
    Operation *end =
        block.mightHaveTerminator() ? block.getTerminator() : nullptr;
    for (uint32_t k : plan.kernelOrder)
      if (groups[k]) {
        if (end)
          groups[k]->moveBefore(end);
        else
          groups[k]->moveBefore(&block, block.end());
      }
  }
  if (!sortTopologically(&block))
    return failure();
  // Originals of what was cloned into groups and is now unused.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block)))
    if (isCloneableIntoGroup(&op) && op.use_empty() && isMemoryEffectFree(&op))
      op.erase();
  return success();
}

GroupOp mlir::fuse::copyPlannedGroup(Block &block, const PlannedGroup &group) {
  return materializeGroup(block, group, /*copy=*/true);
}

llvm::hash_code mlir::fuse::hashPlannedKernel(const PlannedGroup &group) {
  llvm::hash_code hash =
      llvm::hash_combine(group.kind, group.rule, group.ops.size());
  for (Operation *op : group.ops)
    op->walk([&](Operation *nested) {
      hash = llvm::hash_combine(
          hash, nested->getName(), nested->getRawDictionaryAttrs(),
          nested->hashProperties(), nested->getNumOperands(),
          llvm::hash_combine_range(nested->getResultTypes()));
    });
  return hash;
}

bool mlir::fuse::isSamePlannedKernel(Block &block, const PlannedGroup &a,
                                     const PlannedGroup &b) {
  if (a.ops.size() != b.ops.size() || a.kind != b.kind || a.rule != b.rule)
    return false;
  llvm::DenseSet<Operation *> membersA(a.ops.begin(), a.ops.end());
  llvm::DenseSet<Operation *> membersB(b.ops.begin(), b.ops.end());
  // Values from outside the members pair one to one (so both groups get
  // their inputs in the same order), and from the same kind of source; a
  // member's result is paired when its op is compared, before any use.
  llvm::DenseMap<Value, Value> values, reverse;
  llvm::DenseMap<Operation *, Operation *> clones;
  SmallVector<std::pair<Operation *, Operation *>> clonePairs;
  auto pairOutside = [&](Value l, Value r) {
    if (l.getType() != r.getType())
      return false;
    Source source = sourceOf(block, membersA, l);
    if (source != sourceOf(block, membersB, r) || source == Source::member ||
        !reverse.try_emplace(r, l).second)
      return false;
    if (source == Source::clone) {
      if (cast<OpResult>(l).getResultNumber() !=
          cast<OpResult>(r).getResultNumber())
        return false;
      Operation *dl = l.getDefiningOp(), *dr = r.getDefiningOp();
      auto [it, inserted] = clones.try_emplace(dl, dr);
      if (!inserted)
        return it->second == dr;
      clonePairs.push_back({dl, dr});
    }
    return true;
  };
  if (!isSameOpSequence(a.ops, b.ops, values, pairOutside))
    return false;
  // The cloned ops alike, and what they read (more clones, members,
  // inputs); the list grows while it is read.
  for (unsigned i = 0; i < clonePairs.size(); ++i) {
    auto [l, r] = clonePairs[i];
    // Their results are paired already (where the members read them).
    for (auto [lv, rv] : llvm::zip(l->getResults(), r->getResults()))
      if (auto it = values.find(lv); it != values.end() && it->second != rv)
        return false;
    if (!isSameOpSequence({l}, {r}, values, pairOutside))
      return false;
  }
  // The clones in the same order in both blocks (the body keeps the
  // block's order among them).
  SmallVector<unsigned> orderA(clonePairs.size()), orderB(clonePairs.size());
  std::iota(orderA.begin(), orderA.end(), 0u);
  std::iota(orderB.begin(), orderB.end(), 0u);
  llvm::sort(orderA, [&](unsigned x, unsigned y) {
    return clonePairs[x].first->isBeforeInBlock(clonePairs[y].first);
  });
  llvm::sort(orderB, [&](unsigned x, unsigned y) {
    return clonePairs[x].second->isBeforeInBlock(clonePairs[y].second);
  });
  if (orderA != orderB)
    return false;
  // The same results leave the group.
  for (auto [l, r] : llvm::zip(a.ops, b.ops))
    for (auto [lv, rv] : llvm::zip(l->getResults(), r->getResults()))
      if (isUsedOutside(block, membersA, lv) !=
          isUsedOutside(block, membersB, rv))
        return false;
  return true;
}
