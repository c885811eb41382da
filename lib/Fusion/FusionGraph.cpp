//===- FusionGraph.cpp - the dataflow graph the fusion engine reads -------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "FusionGraph.h"

#include "fuse/Codegen/CostModel/KernelCost.h"
#include "fuse/Dialect/Fuse/IR/FuseOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::detail;

/// Constants up to this many elements (and splats) are cloned into groups;
/// larger ones are weights that the kernel reads.
static constexpr int64_t kMaxClonedConstantElements = 64;

bool mlir::fuse::detail::isViewOp(Operation *op) {
  return isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::CastOp,
             tensor::ReshapeOp, tensor::BitcastOp>(op);
}

bool mlir::fuse::detail::isWeightConstant(Operation *op) {
  if (!op->hasTrait<OpTrait::ConstantLike>() || op->getNumResults() != 1)
    return false;
  auto type = dyn_cast<ShapedType>(op->getResult(0).getType());
  if (!type)
    return false;
  Attribute value;
  if (matchPattern(op->getResult(0), m_Constant(&value)))
    if (auto dense = dyn_cast<DenseElementsAttr>(value);
        dense && dense.isSplat())
      return false;
  return !type.hasStaticShape() ||
         type.getNumElements() > kMaxClonedConstantElements;
}

bool mlir::fuse::detail::isCloneableIntoGroup(Operation *op) {
  if (isa<GroupOp>(op) || op->hasTrait<OpTrait::IsTerminator>())
    return false;
  if (op->hasTrait<OpTrait::ConstantLike>())
    return !isWeightConstant(op);
  if (isViewOp(op) || isa<tensor::EmptyOp, tensor::DimOp>(op))
    return true;
  // Fills of scalars into fresh tensors and other initializers.
  return !isComputeOp(op);
}

int64_t Node::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

bool Node::isGather() const {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || !hasStaticShape || cls.category != OpCategory::injective ||
      generic.getNumReductionLoops() != 0 || generic.getNumDpsInits() != 1 ||
      !generic.getMatchingIndexingMap(generic.getDpsInitOperand(0))
           .isIdentity())
    return false;
  // Operands read elementwise or by broadcast.
  for (OpOperand *input : generic.getDpsInputOperands()) {
    AffineMap map = generic.getMatchingIndexingMap(input);
    if (!map.isIdentity() && !isBroadcastMap(map))
      return false;
  }
  return llvm::any_of(
      generic.getBody()->getOperations(),
      [](Operation &nested) { return isa<tensor::ExtractOp>(nested); });
}

bool Node::isTranspose() const {
  return hasStaticShape && isa<linalg::TransposeOp>(op);
}

/// The reduced dimensions of a reduction, if fuse can tell them.
static std::optional<ReductionInfo> getReductionInfo(Operation *op) {
  ReductionInfo info;
  Value input;
  if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op)) {
    input = softmax.getInput();
    info.reducedDims.push_back(softmax.getDimension());
  } else if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    if (linalgOp.getNumDpsInputs() < 1)
      return std::nullopt;
    OpOperand *in = linalgOp.getDpsInputOperand(0);
    input = in->get();
    AffineMap map = linalgOp.getMatchingIndexingMap(in);
    if (!map.isProjectedPermutation())
      return std::nullopt;
    SmallVector<utils::IteratorType> iters = linalgOp.getIteratorTypesArray();
    for (auto [pos, expr] : llvm::enumerate(map.getResults()))
      if (iters[cast<AffineDimExpr>(expr).getPosition()] ==
          utils::IteratorType::reduction)
        info.reducedDims.push_back(pos);
  } else {
    return std::nullopt;
  }
  auto type = dyn_cast<RankedTensorType>(input.getType());
  if (!type || !type.hasStaticShape() || info.reducedDims.empty())
    return std::nullopt;
  info.inputShape.assign(type.getShape().begin(), type.getShape().end());
  llvm::sort(info.reducedDims);
  int64_t rank = type.getRank();
  info.innermost = true;
  for (auto [i, dim] : llvm::enumerate(llvm::reverse(info.reducedDims)))
    info.innermost &= dim == rank - 1 - int64_t(i);
  info.rows = info.cols = 1;
  for (int64_t d = 0; d < rank; ++d)
    (llvm::is_contained(info.reducedDims, d) ? info.cols : info.rows) *=
        type.getDimSize(d);
  info.elementBytes = getElementTypeBytes(type.getElementType()).value_or(4);
  return info;
}

FusionGraph::FusionGraph(Block &block) : block(block) {
  SmallVector<std::pair<Operation *, OpClassification>> computeOps;
  for (Operation &op : block) {
    // Not nodes: groups, views, and whatever is no compute op (terminators,
    // constants, empty tensors, initializers: what isCloneableIntoGroup
    // clones besides views, and weights). isComputeOp classifies the op
    // once for both questions.
    OpClassification cls;
    if (isa<GroupOp>(op) || isViewOp(&op) || !isComputeOp(&op, &cls))
      continue;
    // A loop over tensors (scf.for with tensor iter_args, say) is no kernel:
    // nothing tiles it, so no group may hold it; it stays host code, which
    // the code generators refuse with its own message.
    if (isa<LoopLikeOpInterface>(op) && !isa<TilingInterface>(op))
      continue;
    computeOps.push_back({&op, cls});
  }
  // Sized once: a graph of 10^6 nodes grown by doubling would hold its
  // nodes twice while it moves them.
  nodes.reserve(computeOps.size());
  nodeIds.reserve(computeOps.size());
  for (auto &[opPtr, cls] : computeOps) {
    Operation &op = *opPtr;
    Node node;
    node.op = &op;
    node.index = nodes.size();
    node.cls = cls;
    if (op.getNumResults() > 0)
      if (auto type = dyn_cast<ShapedType>(op.getResult(0).getType());
          type && type.hasStaticShape()) {
        node.shape.assign(type.getShape().begin(), type.getShape().end());
        node.hasStaticShape = true;
      }
    if (node.isReduction())
      if (std::optional<ReductionInfo> info = getReductionInfo(&op))
        node.reduction = std::make_unique<ReductionInfo>(std::move(*info));
    nodeIds[&op] = node.index;
    nodes.push_back(std::move(node));
  }
  for (Node &node : nodes)
    collectDependencies(node);
  for (unsigned id = 0; id < nodes.size(); ++id)
    collectConsumers(id);
}

Value FusionGraph::resolveView(Value value) const {
  while (Operation *def = value.getDefiningOp()) {
    if (!isViewOp(def) || def->getBlock() != &block)
      break;
    value = def->getOperand(0);
  }
  return value;
}

std::optional<unsigned> FusionGraph::getDefiningNode(Value value) const {
  Operation *def = resolveView(value).getDefiningOp();
  if (!def)
    return std::nullopt;
  auto it = nodeIds.find(def);
  if (it == nodeIds.end())
    return std::nullopt;
  return it->second;
}

/// Values `op` reads: for structured ops, inputs and the inits the payload
/// uses; otherwise every operand. Values its regions capture (`captured`)
/// count too.
static void collectReadValues(Operation *op, ArrayRef<Value> captured,
                              SmallVectorImpl<Value> &values) {
  // An insertion writes into its destination without reading it.
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(op)) {
    values.push_back(insert.getSource());
    return;
  }
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    for (OpOperand *input : linalgOp.getDpsInputOperands())
      values.push_back(input->get());
    for (OpOperand &init : linalgOp.getDpsInitsMutable())
      if (linalgOp.payloadUsesValueFromOperand(&init))
        values.push_back(init.get());
  } else {
    values.append(op->operand_begin(), op->operand_end());
  }
  values.append(captured.begin(), captured.end());
}

void FusionGraph::collectDependencies(Node &node) {
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(node.op->getRegions(), captured);
  // Reads: what the kernel loads from global memory.
  SmallVector<Value> read;
  collectReadValues(node.op, captured.getArrayRef(), read);
  llvm::SmallSetVector<Value, 4> reads;
  for (Value value : read) {
    Value source = resolveView(value);
    Operation *def = source.getDefiningOp();
    // A node is a compute op, never cloned (and asking would classify it
    // again).
    if (def && def->getBlock() == &block && !nodeIds.contains(def) &&
        isCloneableIntoGroup(def))
      continue; // materialized inside the kernel
    if (!isa<ShapedType>(source.getType()))
      continue; // scalars travel as kernel arguments
    reads.insert(source);
  }
  node.reads.assign(reads.begin(), reads.end());

  // Dependencies: every node reachable backwards through cloneable ops.
  llvm::SmallSetVector<Value, 8> worklist;
  for (Value operand : node.op->getOperands())
    worklist.insert(operand);
  worklist.insert(captured.begin(), captured.end());
  llvm::SmallDenseSet<unsigned, 4> producers;
  for (unsigned i = 0; i < worklist.size(); ++i) {
    Operation *def = worklist[i].getDefiningOp();
    if (!def)
      continue;
    Operation *top = block.findAncestorOpInBlock(*def);
    if (!top)
      continue;
    if (auto it = nodeIds.find(top); it != nodeIds.end()) {
      producers.insert(it->second);
      continue;
    }
    worklist.insert(top->operand_begin(), top->operand_end());
  }
  node.producers.assign(producers.begin(), producers.end());
  llvm::sort(node.producers);
}

void FusionGraph::collectConsumers(unsigned id) {
  Node &node = nodes[id];
  llvm::SmallDenseSet<unsigned, 4> all;
  for (Value result : node.op->getResults()) {
    llvm::SmallDenseSet<unsigned, 4> consumers;
    bool escapes = false;
    SmallVector<Value, 4> worklist = {result};
    llvm::SmallPtrSet<Operation *, 4> seen;
    while (!worklist.empty()) {
      Value value = worklist.pop_back_val();
      for (OpOperand &use : value.getUses()) {
        Operation *top = block.findAncestorOpInBlock(*use.getOwner());
        if (!top) {
          escapes = true;
          continue;
        }
        if (auto it = nodeIds.find(top); it != nodeIds.end()) {
          if (it->second != id)
            consumers.insert(it->second);
          continue;
        }
        if (isCloneableIntoGroup(top)) {
          if (seen.insert(top).second)
            worklist.append(top->result_begin(), top->result_end());
          continue;
        }
        escapes = true;
      }
    }
    SmallVector<unsigned> sorted(consumers.begin(), consumers.end());
    llvm::sort(sorted);
    all.insert(sorted.begin(), sorted.end());
    node.resultConsumers.push_back(std::move(sorted));
    node.resultEscapes.push_back(escapes);
  }
  node.consumers.assign(all.begin(), all.end());
  llvm::sort(node.consumers);
}

FusionGraph::Boundary
FusionGraph::getBoundary(ArrayRef<unsigned> members) const {
  MemberSet in(members);
  Boundary boundary;
  llvm::SmallSetVector<Value, 8> reads;
  for (unsigned m : members)
    for (Value value : nodes[m].reads) {
      std::optional<unsigned> def = getDefiningNode(value);
      if (!def || !in.contains(*def))
        reads.insert(value);
    }
  boundary.inputs.assign(reads.begin(), reads.end());
  for (unsigned m : members) {
    const Node &node = nodes[m];
    for (auto [i, result] : llvm::enumerate(node.op->getResults()))
      if (leaves(node, i, in))
        boundary.outputs.push_back(result);
  }
  return boundary;
}

FusionGraph::Boundary FusionGraph::mergeBoundaries(ArrayRef<unsigned> merged,
                                                   const Boundary &a,
                                                   const Boundary &b) const {
  MemberSet in(merged);
  Boundary boundary;
  // A side's input stays one unless the other side makes it.
  llvm::SmallDenseSet<Value, 8> seen;
  for (const Boundary *side : {&a, &b})
    for (Value value : side->inputs) {
      std::optional<unsigned> def = getDefiningNode(value);
      if ((!def || !in.contains(*def)) && seen.insert(value).second)
        boundary.inputs.push_back(value);
    }
  // A side's result stays one if it escapes or something outside both
  // sides reads it; one read only inside its side was none.
  for (const Boundary *side : {&a, &b})
    for (Value value : side->outputs) {
      auto result = cast<OpResult>(value);
      if (leaves(nodes[nodeIds.at(result.getOwner())], result.getResultNumber(),
                 in))
        boundary.outputs.push_back(value);
    }
  return boundary;
}

int64_t FusionGraph::getBytes(ArrayRef<unsigned> members) const {
  return getBytes(members, getBoundary(members));
}

int64_t FusionGraph::getBytes(ArrayRef<unsigned> members,
                              const Boundary &boundary) const {
  int64_t total = 0;
  // An input the members only gather from (an embedding table): the
  // elements gathered.
  MemberSet in(members);
  auto inMembers = [&](Operation *user) {
    for (Operation *op = user; op; op = op->getParentOp())
      if (auto it = nodeIds.find(op);
          it != nodeIds.end() && in.contains(it->second))
        return true;
    return false;
  };
  for (Value value : boundary.inputs)
    total += gatheredBytes(value, inMembers)
                 .value_or(getShapedTypeBytes(value.getType()).value_or(0));
  // An insertion's result in place writes only the inserted slice.
  for (Value value : boundary.outputs) {
    if (auto insert = value.getDefiningOp<tensor::InsertSliceOp>())
      value = insert.getSource();
    total += getShapedTypeBytes(value.getType()).value_or(0);
  }
  return total;
}

bool FusionGraph::hasMultiOutput(ArrayRef<unsigned> members) const {
  MemberSet in(members);
  for (unsigned m : members) {
    const Node &node = nodes[m];
    for (auto [i, consumers] : llvm::enumerate(node.resultConsumers)) {
      bool inside =
          llvm::any_of(consumers, [&](unsigned c) { return in.contains(c); });
      if (inside && leaves(node, i, in))
        return true;
    }
  }
  return false;
}

bool FusionGraph::hasPathThroughOutside(ArrayRef<unsigned> from,
                                        ArrayRef<unsigned> to,
                                        const MemberSet &members) const {
  MemberSet target(to);
  unsigned limit = 0;
  for (unsigned t : to)
    limit = std::max(limit, t);
  // Program order is a topological order: a path into `to` only visits
  // nodes before its last member.
  SmallVector<unsigned> worklist;
  llvm::DenseSet<unsigned> visited;
  for (unsigned f : from)
    for (unsigned c : nodes[f].consumers)
      if (!members.contains(c) && c < limit && visited.insert(c).second)
        worklist.push_back(c);
  while (!worklist.empty()) {
    unsigned n = worklist.pop_back_val();
    for (unsigned c : nodes[n].consumers) {
      if (target.contains(c))
        return true;
      if (!members.contains(c) && c < limit && visited.insert(c).second)
        worklist.push_back(c);
    }
  }
  return false;
}

bool FusionGraph::hasPath(ArrayRef<unsigned> from,
                          ArrayRef<unsigned> to) const {
  MemberSet target(to);
  unsigned limit = 0;
  for (unsigned t : to)
    limit = std::max(limit, t);
  SmallVector<unsigned> worklist(from.begin(), from.end());
  llvm::DenseSet<unsigned> visited(from.begin(), from.end());
  while (!worklist.empty()) {
    unsigned n = worklist.pop_back_val();
    for (unsigned c : nodes[n].consumers) {
      if (target.contains(c))
        return true;
      if (c < limit && visited.insert(c).second)
        worklist.push_back(c);
    }
  }
  return false;
}
