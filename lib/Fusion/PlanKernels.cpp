//===- PlanKernels.cpp - the kernels of a fusion plan and their order -----===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "FusionGraph.h"
#include "fuse/Dialect/Fuse/IR/FuseInterfaces.h"
#include "fuse/Fusion/FusionEngine.h"
#include "fuse/Memory/KernelOrder.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <numeric>
#include <optional>
#include <queue>

using namespace mlir;
using namespace mlir::fuse;

/// Static [offset, offset + size) of `insert` along each dimension, or
/// none where an offset or size is dynamic or a stride not 1.
static std::optional<SmallVector<std::pair<int64_t, int64_t>>>
getStaticBox(tensor::InsertSliceOp insert) {
  SmallVector<std::pair<int64_t, int64_t>> box;
  for (auto [offset, size, stride] :
       llvm::zip(insert.getStaticOffsets(), insert.getStaticSizes(),
                 insert.getStaticStrides())) {
    if (ShapedType::isDynamic(offset) || ShapedType::isDynamic(size) ||
        stride != 1)
      return std::nullopt;
    box.push_back({offset, offset + size});
  }
  return box;
}

SmallVector<SmallVector<tensor::InsertSliceOp>>
mlir::fuse::findConcatChains(Block &block) {
  SmallVector<SmallVector<tensor::InsertSliceOp>> chains;
  for (Operation &op : block) {
    auto first = dyn_cast<tensor::InsertSliceOp>(&op);
    if (!first || !first.getDest().getDefiningOp<tensor::EmptyOp>())
      continue;
    SmallVector<tensor::InsertSliceOp> chain = {first};
    while (chain.back()->hasOneUse()) {
      auto next =
          dyn_cast<tensor::InsertSliceOp>(*chain.back()->getUsers().begin());
      if (!next || next.getDest() != chain.back().getResult() ||
          next->getBlock() != &block)
        break;
      chain.push_back(next);
    }
    if (chain.size() < 2)
      continue;
    // Only static, pairwise disjoint slices commute.
    SmallVector<SmallVector<std::pair<int64_t, int64_t>>> boxes;
    bool ok = true;
    for (tensor::InsertSliceOp insert : chain) {
      std::optional<SmallVector<std::pair<int64_t, int64_t>>> box =
          getStaticBox(insert);
      ok &= box.has_value();
      if (box)
        boxes.push_back(*box);
    }
    for (size_t i = 0; ok && i < boxes.size(); ++i)
      for (size_t j = i + 1; ok && j < boxes.size(); ++j)
        ok &= llvm::any_of(llvm::zip(boxes[i], boxes[j]), [](auto pair) {
          auto [a, b] = pair;
          return a.second <= b.first || b.second <= a.first;
        });
    if (ok)
      chains.push_back(std::move(chain));
  }
  return chains;
}

SmallVector<tensor::InsertSliceOp>
mlir::fuse::rethreadConcatChain(ArrayRef<tensor::InsertSliceOp> chain,
                                ArrayRef<unsigned> order) {
  Value dest = tensor::InsertSliceOp(chain.front()).getDest();
  Value last = tensor::InsertSliceOp(chain.back()).getResult();
  SmallVector<OpOperand *> uses;
  for (OpOperand &use : last.getUses())
    uses.push_back(&use);
  SmallVector<tensor::InsertSliceOp> result;
  for (unsigned i : order) {
    tensor::InsertSliceOp insert = chain[i];
    insert.getDestMutable().assign(dest);
    dest = insert.getResult();
    result.push_back(insert);
  }
  for (OpOperand *use : uses)
    use->set(dest);
  return result;
}

PlanKernels mlir::fuse::analyzePlanKernels(const FusionPlan &plan) {
  PlanKernels kernels;
  unsigned n = plan.groups.size();
  llvm::DenseMap<Operation *, unsigned> groupOf;
  for (auto [i, group] : llvm::enumerate(plan.groups))
    for (Operation *op : group.ops)
      groupOf[op] = i;

  // The kernels that read `value`, through ops that are not kernels
  // (reshapes, casts), and whether it leaves the function. Iterative: a
  // chain of views as long as the input is walked without recursion.
  auto readersOf = [&](Value value, PlanKernels::ValueInfo &info) {
    SmallVector<Value> worklist = {value};
    llvm::SmallPtrSet<Operation *, 8> seen;
    while (!worklist.empty()) {
      Value v = worklist.pop_back_val();
      for (Operation *user : v.getUsers()) {
        Operation *top = user;
        while (top && !groupOf.count(top) &&
               top->getBlock() != value.getParentBlock())
          top = top->getParentOp();
        if (!top)
          continue;
        auto it = groupOf.find(top);
        if (it != groupOf.end()) {
          if (!llvm::is_contained(info.readers, it->second))
            info.readers.push_back(it->second);
          continue;
        }
        if (top->hasTrait<OpTrait::IsTerminator>()) {
          info.escapes = true;
          continue;
        }
        if (seen.insert(top).second)
          worklist.append(top->result_begin(), top->result_end());
      }
    }
  };

  kernels.predecessors.resize(n);
  llvm::DenseMap<Value, int64_t> indexOf;
  for (auto [i, group] : llvm::enumerate(plan.groups))
    for (Operation *op : group.ops)
      for (Value result : op->getResults()) {
        PlanKernels::ValueInfo info;
        info.value = result;
        info.producer = i;
        readersOf(result, info);
        if (std::optional<int64_t> bytes = getShapedTypeBytes(result.getType()))
          info.bytes = *bytes;
        for (unsigned r : info.readers)
          if (r != i && !llvm::is_contained(kernels.predecessors[r], i))
            kernels.predecessors[r].push_back(i);
        indexOf[result] = kernels.values.size();
        kernels.values.push_back(std::move(info));
      }
  // Destination passing: a result tied to its op's destination is written
  // into the destination's memory; a destination made by the same kernel
  // passes on where that one is written. The ops of a group are in program
  // order, so a destination's own tie is known first.
  for (PlanKernels::ValueInfo &info : kernels.values) {
    auto result = dyn_cast<OpResult>(info.value);
    auto dps = result ? dyn_cast<DestinationStyleOpInterface>(result.getOwner())
                      : DestinationStyleOpInterface();
    if (!dps || !dps.hasPureTensorSemantics())
      continue;
    OpOperand *init = dps.getTiedOpOperand(result);
    auto it = init ? indexOf.find(init->get()) : indexOf.end();
    if (it == indexOf.end())
      continue;
    const PlanKernels::ValueInfo &dest = kernels.values[it->second];
    info.writesInto =
        dest.producer == info.producer ? dest.writesInto : it->second;
  }

  // The source order: Kahn's algorithm, the ready kernel whose last op
  // comes first in the block next (a group is built where its last op is,
  // so this is the order the groups would take in the block).
  llvm::DenseMap<Operation *, size_t> position;
  if (n && !plan.groups.front().ops.empty()) {
    size_t index = 0;
    for (Operation &op : *plan.groups.front().ops.front()->getBlock())
      position[&op] = index++;
  }
  std::vector<size_t> lastOf(n, 0);
  for (auto [i, group] : llvm::enumerate(plan.groups))
    for (Operation *op : group.ops)
      if (auto it = position.find(op); it != position.end())
        lastOf[i] = std::max(lastOf[i], it->second);
  std::vector<SmallVector<unsigned>> successors(n);
  std::vector<unsigned> waiting(n, 0);
  for (unsigned k = 0; k < n; ++k)
    for (unsigned p : kernels.predecessors[k]) {
      successors[p].push_back(k);
      ++waiting[k];
    }
  using Entry = std::pair<size_t, unsigned>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> ready;
  for (unsigned k = 0; k < n; ++k)
    if (waiting[k] == 0)
      ready.push({lastOf[k], k});
  while (!ready.empty()) {
    unsigned k = ready.top().second;
    ready.pop();
    kernels.sourceOrder.push_back(k);
    for (unsigned s : successors[k])
      if (--waiting[s] == 0)
        ready.push({lastOf[s], s});
  }
  if (kernels.sourceOrder.size() != n)
    kernels.sourceOrder.clear(); // a cycle: the engine refuses these
  return kernels;
}

/// Whether every op of `group` is elementwise.
static bool isElementwiseGroup(const PlannedGroup &group) {
  return llvm::all_of(group.ops, [](Operation *op) {
    return classifyOp(op).category == OpCategory::elementwise;
  });
}

/// The buffers between kernels (values one kernel writes and another reads
/// whose memory stays in the function) as a kernel graph for the memory
/// planner, with every dependence. `graphIndex` maps each value of
/// `kernels` to its graph value, or -1.
static ::fuse::planner::KernelGraph
kernelGraphOf(const FusionPlan &plan, const PlanKernels &kernels,
              std::vector<int64_t> &graphIndex) {
  ::fuse::planner::KernelGraph graph;
  graph.kernels = plan.groups.size();
  size_t n = kernels.values.size();
  // A value written, in place, into a value that leaves the function
  // leaves with it (its memory is the function's result).
  std::vector<char> leaves(n, 0);
  for (const PlanKernels::ValueInfo &info : kernels.values)
    if (info.escapes)
      for (int64_t j = info.writesInto; j >= 0 && !leaves[j];
           j = kernels.values[j].writesInto)
        leaves[j] = 1;
  graphIndex.assign(n, -1);
  std::vector<size_t> infoOf; // graph value -> value of `kernels`
  std::vector<SmallVector<uint32_t>> readsOf(graph.kernels);
  for (auto [i, info] : llvm::enumerate(kernels.values)) {
    if (info.escapes || leaves[i] || info.bytes < 0 ||
        llvm::all_of(
            info.readers, [&](unsigned r) { return r == info.producer; }))
      continue;
    graphIndex[i] = graph.values.size();
    infoOf.push_back(i);
    ::fuse::planner::KernelGraph::Value value;
    value.producer = info.producer;
    value.readers.assign(info.readers.begin(), info.readers.end());
    value.bytes = info.bytes;
    for (unsigned r : info.readers)
      if (r != info.producer)
        readsOf[r].push_back(graph.values.size());
    graph.values.push_back(std::move(value));
  }
  for (auto [i, info] : llvm::enumerate(kernels.values)) {
    if (graphIndex[i] < 0)
      continue;
    ::fuse::planner::KernelGraph::Value &value = graph.values[graphIndex[i]];
    if (info.writesInto >= 0)
      value.writesInto = graphIndex[info.writesInto];
    // In place: an elementwise kernel may write a result over an input of
    // the same type it reads last.
    if (value.writesInto < 0 && isElementwiseGroup(plan.groups[info.producer]))
      for (uint32_t u : readsOf[info.producer])
        if (kernels.values[infoOf[u]].value.getType() == info.value.getType())
          value.mayReuse.push_back(u);
  }
  // Every dependence, including those through values that take no arena
  // memory (results of the function, dynamic shapes).
  for (auto [k, predecessors] : llvm::enumerate(kernels.predecessors))
    for (unsigned p : predecessors)
      graph.after.push_back({p, uint32_t(k)});
  return graph;
}

/// The block `plan`'s groups are in, or null when no group has an op.
static Block *planBlock(const FusionPlan &plan) {
  for (const PlannedGroup &group : plan.groups)
    if (!group.ops.empty())
      return group.ops.front()->getBlock();
  return nullptr;
}

/// The most kernel orders the choice of concatenation orders evaluates in
/// one function (each is an analysis of the plan and the greedy schedules).
static constexpr int64_t kMaxChainOrderTrials = 2000;

/// Chooses the order of each concatenation's insertions (findConcatChains)
/// for memory: for each chain in turn, every order of a chain of up to 4
/// (else each member moved to each place), the others as they are; the IR
/// is rethreaded to the order whose kernel order (orderForMemory's greedy
/// schedules) has the least max-live, where that is lower than `current`
/// (the chains as they are, ordered with the moves too: the kernel order
/// after a change, which the moves can only lower, never has more memory
/// alive than without it). Orders that would make the kernels depend on
/// each other in a cycle are skipped. Returns whether any chain changed.
static bool chooseConcatOrders(FusionPlan &plan, int64_t alignment,
                               int64_t current) {
  Block *block = planBlock(plan);
  if (!block)
    return false;
  SmallVector<SmallVector<tensor::InsertSliceOp>> chains =
      findConcatChains(*block);
  if (chains.empty())
    return false;
  // Only chains whose insertions are in kernels of the plan matter.
  llvm::DenseSet<Operation *> planned;
  for (const PlannedGroup &group : plan.groups)
    for (Operation *op : group.ops)
      planned.insert(op);
  // Max-live of the greedy schedules with the chains as they are now.
  auto maxLiveNow = [&]() -> std::optional<int64_t> {
    PlanKernels kernels = analyzePlanKernels(plan);
    if (kernels.sourceOrder.empty())
      return std::nullopt; // a cycle
    std::vector<int64_t> graphIndex;
    ::fuse::planner::KernelGraph graph =
        kernelGraphOf(plan, kernels, graphIndex);
    return ::fuse::planner::orderForMemory(graph, kernels.sourceOrder,
                                           alignment, /*moves=*/false)
        .maxLiveAfter;
  };
  int64_t best = current;
  int64_t trials = 0;
  bool changed = false;
  for (SmallVector<tensor::InsertSliceOp> &chain : chains) {
    if (!llvm::all_of(chain, [&](tensor::InsertSliceOp insert) {
          return planned.contains(insert);
        }))
      continue;
    size_t m = chain.size();
    SmallVector<SmallVector<unsigned>> candidates;
    SmallVector<unsigned> identity(m);
    std::iota(identity.begin(), identity.end(), 0);
    if (m <= 4) {
      SmallVector<unsigned> order = identity;
      while (std::next_permutation(order.begin(), order.end()))
        candidates.push_back(order);
    } else {
      for (unsigned from = 0; from < m; ++from)
        for (unsigned to = 0; to < m; ++to) {
          if (to == from || to == from + 1)
            continue;
          SmallVector<unsigned> order = identity;
          order.erase(order.begin() + from);
          order.insert(order.begin() + (to > from ? to - 1 : to), from);
          candidates.push_back(order);
        }
    }
    SmallVector<unsigned> bestOrder = identity;
    for (ArrayRef<unsigned> order : candidates) {
      if (trials++ >= kMaxChainOrderTrials)
        break;
      SmallVector<tensor::InsertSliceOp> tried =
          rethreadConcatChain(chain, order);
      std::optional<int64_t> maxLive = maxLiveNow();
      if (maxLive && *maxLive < best) {
        best = *maxLive;
        bestOrder.assign(order.begin(), order.end());
      }
      // Back to the chain as it was: `tried` holds chain[order[i]] at i.
      SmallVector<unsigned> back(m);
      for (unsigned i = 0; i < m; ++i)
        back[order[i]] = i;
      rethreadConcatChain(tried, back);
    }
    if (bestOrder != identity) {
      chain = rethreadConcatChain(chain, bestOrder);
      changed = true;
    }
  }
  return changed;
}

void mlir::fuse::orderKernelsForMemory(FusionPlan &plan, bool reorder,
                                       int64_t alignment) {
  PlanKernels kernels = analyzePlanKernels(plan);
  plan.kernelOrder.clear();
  plan.kernelOrderStrategy.clear();
  plan.maxLiveSourceOrder = plan.maxLiveKernelOrder = 0;
  if (kernels.sourceOrder.empty())
    return;
  std::vector<int64_t> graphIndex;
  ::fuse::planner::KernelGraph graph = kernelGraphOf(plan, kernels, graphIndex);
  ::fuse::planner::KernelOrder order;
  if (reorder) {
    // The kernels ordered as the IR came; where a concatenation order
    // chosen for memory lowers that, ordered again, the source order's
    // max-live still the one the IR came with.
    order =
        ::fuse::planner::orderForMemory(graph, kernels.sourceOrder, alignment);
    if (chooseConcatOrders(plan, alignment, order.maxLiveAfter)) {
      int64_t sourceMaxLive = order.maxLiveBefore;
      kernels = analyzePlanKernels(plan);
      graph = kernelGraphOf(plan, kernels, graphIndex);
      order = ::fuse::planner::orderForMemory(graph, kernels.sourceOrder,
                                              alignment);
      order.maxLiveBefore = sourceMaxLive;
      order.strategy = order.strategy == "given"
                           ? std::string("concat-order")
                           : "concat-order+" + order.strategy;
    }
  } else {
    order.order = kernels.sourceOrder;
    order.maxLiveBefore = order.maxLiveAfter = ::fuse::planner::computeMaxLive(
        ::fuse::planner::placesOf(graph, order.order).places, alignment);
    order.strategy = "given";
    order.lowerBound = ::fuse::planner::anyOrderBound(graph, alignment);
  }
  plan.kernelOrder = std::move(order.order);
  plan.maxLiveSourceOrder = order.maxLiveBefore;
  plan.maxLiveKernelOrder = order.maxLiveAfter;
  plan.maxLiveAnyOrderBound = order.lowerBound;
  plan.kernelOrderStrategy = order.strategy;
}

PlanMemory mlir::fuse::estimatePlanMemory(const FusionPlan &plan,
                                          int64_t alignment) {
  PlanMemory estimate;
  // The footprint besides the arena: weights, inputs, results.
  Block *block = planBlock(plan);
  if (block) {
    auto bytesOf = [](Value v) {
      return getShapedTypeBytes(v.getType()).value_or(0);
    };
    for (BlockArgument arg : block->getArguments())
      estimate.inputs += bytesOf(arg);
    if (block->mightHaveTerminator())
      for (Value result : block->getTerminator()->getOperands())
        estimate.outputs += bytesOf(result);
    for (Operation &op : *block) {
      ElementsAttr value;
      if (op.getNumResults() != 1 || op.use_empty() ||
          !matchPattern(op.getResult(0), m_Constant(&value)))
        continue;
      if (auto dense = dyn_cast<DenseElementsAttr>(value);
          dense && dense.isSplat())
        continue; // a fill, not memory
      estimate.weights += bytesOf(op.getResult(0));
    }
  }
  PlanKernels kernels = analyzePlanKernels(plan);
  const std::vector<uint32_t> &order =
      plan.kernelOrder.empty() ? kernels.sourceOrder : plan.kernelOrder;
  if (order.size() != plan.groups.size())
    return estimate; // a cycle: the engine refuses these; nothing to plan
  // Unfused, every op's result that another op reads is a buffer of its own.
  for (const PlanKernels::ValueInfo &info : kernels.values)
    if (info.bytes >= 0 && !info.escapes && !info.readers.empty())
      estimate.unfusedNaive += info.bytes;
  std::vector<int64_t> graphIndex;
  ::fuse::planner::KernelGraph graph = kernelGraphOf(plan, kernels, graphIndex);
  if (graph.values.empty())
    return estimate;
  ::fuse::planner::BufferPlaces places =
      ::fuse::planner::placesOf(graph, order);
  ::fuse::planner::Options options;
  options.alignment = alignment;
  // The budget fuse-plan-buffers uses by default: the same buffers get
  // the same plan in the report and in the compiled module.
  options.searchBudget = ::fuse::planner::kDefaultSearchBudget;
  ::fuse::planner::Plan result = ::fuse::planner::plan(places.places, options);
  estimate.naive = ::fuse::planner::computeNaive(places.buffers, alignment);
  estimate.buffers = graph.values.size();
  estimate.arena = result.arena;
  estimate.maxLive = result.maxLive;
  estimate.inPlaceBytes = places.inPlaceBytes;
  estimate.strategy = result.strategy;
  return estimate;
}
