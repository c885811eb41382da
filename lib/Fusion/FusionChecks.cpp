//===- FusionChecks.cpp - the feasibility checks --------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// Each check looks at one candidate merge (two sets of ops of the fusion
// graph and their union) and refuses it with the numbers that decided, or
// lets it through. The engine and the pattern API run the same list.
//
//===----------------------------------------------------------------------===//

#include "FusionState.h"

#include "fuse/Codegen/Tiling/LowerGroups.h"
#include "fuse/Fusion/FusionCheck.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::detail;

/// The inits `op` updates in place: those its payload reads, and the
/// destination of an insertion, given from outside (not a fill or an empty
/// tensor it starts from).
static SmallVector<Value, 1> initsUpdatedInPlace(Operation *op) {
  SmallVector<Value, 1> updated;
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(op)) {
    Operation *def = insert.getDest().getDefiningOp();
    if (!def || !isCloneableIntoGroup(def))
      updated.push_back(insert.getDest());
    return updated;
  }
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return updated;
  for (OpOperand &init : linalgOp.getDpsInitsMutable()) {
    Operation *def = init.get().getDefiningOp();
    if (def && isCloneableIntoGroup(def))
      continue;
    if (linalgOp.payloadUsesValueFromOperand(&init))
      updated.push_back(init.get());
  }
  return updated;
}

/// Whether `op` is the op of a node in `set`.
static bool isMember(const FusionGraph &graph, Operation *op,
                     const MemberSet &set) {
  if (op->getNumResults() == 0)
    return false;
  std::optional<unsigned> id = graph.getDefiningNode(op->getResult(0));
  return id && graph.node(*id).op == op && set.contains(*id);
}

/// Two members that update one tensor in place (ScatterNDs of one data, an
/// accumulation into a given tensor) each need their own copy of it before
/// the kernel starts, which the generated kernel does not make (the copy
/// would run on the host). Asked of the smaller side's members.
static std::optional<FusionRefusal>
checkSharedInPlaceUpdates(const FusionCheckInput &in) {
  const FusionGraph &graph = in.graph;
  bool aSmaller = in.a.size() <= in.b.size();
  ArrayRef<unsigned> small = aSmaller ? in.a : in.b;
  MemberSet other(aSmaller ? in.b : in.a);
  for (unsigned m : small) {
    Operation *op = graph.node(m).op;
    for (Value v : initsUpdatedInPlace(op))
      for (Operation *user : v.getUsers()) {
        if (user == op || !isMember(graph, user, other) ||
            !llvm::is_contained(initsUpdatedInPlace(user), v))
          continue;
        return FusionRefusal{
            check::kLowering,
            llvm::formatv("'{0}' and '{1}' both update the same tensor in "
                          "place: each would need its own copy of it before "
                          "the kernel, which one kernel does not make",
                          describeOp(op), describeOp(user))};
      }
  }
  return std::nullopt;
}

/// A member that updates in place a tensor another member makes, where
/// an op outside the merged group reads that tensor too (two concatenations
/// that begin with the same slice, merged into one value): the group must
/// yield the tensor as it was before the update, so the kernel would need a
/// copy of it, made on the host. Asked of the pairs across the sides, from
/// the smaller side's members.
static std::optional<FusionRefusal>
checkEscapingInPlaceUpdates(const FusionCheckInput &in) {
  const FusionGraph &graph = in.graph;
  bool aSmaller = in.a.size() <= in.b.size();
  ArrayRef<unsigned> small = aSmaller ? in.a : in.b;
  MemberSet other(aSmaller ? in.b : in.a), merged(in.merged);
  // A reader of `v` outside the merged group, besides `updater`.
  auto readerOutside = [&](Value v, Operation *updater) -> Operation * {
    for (Operation *user : v.getUsers())
      if (user != updater && !isMember(graph, user, merged))
        return user;
    return nullptr;
  };
  auto refuse = [&](Operation *updater, Operation *reader) {
    return FusionRefusal{
        check::kLowering,
        llvm::formatv("'{0}' updates in place a tensor of the group that "
                      "'{1}' outside it also reads: the kernel would need a "
                      "copy of it, which one kernel does not make",
                      describeOp(updater), describeOp(reader))};
  };
  for (unsigned m : small) {
    Operation *op = graph.node(m).op;
    for (Value v : initsUpdatedInPlace(op)) {
      Operation *def = v.getDefiningOp();
      if (!def || !isMember(graph, def, other))
        continue;
      if (Operation *reader = readerOutside(v, op))
        return refuse(op, reader);
    }
    for (Value result : op->getResults())
      for (Operation *user : result.getUsers()) {
        if (!isMember(graph, user, other) ||
            !llvm::is_contained(initsUpdatedInPlace(user), result))
          continue;
        if (Operation *reader = readerOutside(result, user))
          return refuse(user, reader);
      }
  }
  return std::nullopt;
}

/// A merge the kernels cannot express, and merges the lowering refused
/// when fuse-form-groups tried them.
static std::optional<FusionRefusal> checkLowering(const FusionCheckInput &in) {
  if (std::optional<FusionRefusal> refusal = checkSharedInPlaceUpdates(in))
    return refusal;
  if (std::optional<FusionRefusal> refusal = checkEscapingInPlaceUpdates(in))
    return refusal;
  if (!in.rule || !in.candidate)
    return std::nullopt;
  auto vetoes = in.policy.loweringVetoes.find(in.graph.node(*in.candidate).op);
  if (vetoes == in.policy.loweringVetoes.end())
    return std::nullopt;
  for (const FusionPolicy::LoweringVeto &veto : vetoes->second)
    if (veto.rule == in.rule->name)
      return FusionRefusal{veto.check == check::kCost ? check::kCost
                                                      : check::kLowering,
                           veto.reason};
  return std::nullopt;
}

static std::optional<FusionRefusal>
checkReductionBarriers(const FusionCheckInput &in) {
  const FusionGraph &graph = in.graph;
  ArrayRef<unsigned> merged = in.merged;
  MemberSet members(merged);
  for (unsigned r : merged) {
    const Node &red = graph.node(r);
    if (!red.isReduction() || !red.hasStaticShape)
      continue;
    for (unsigned c : red.consumers) {
      if (!members.contains(c))
        continue;
      // Only elementwise consumers broadcast a value back; an insertion or
      // a further reduction does not.
      const Node &consumer = graph.node(c);
      if (!consumer.isElementwiseLike() ||
          consumer.numElements() <= red.numElements())
        continue;
      // The consumer reads the reduction's result broadcast back over the
      // reduced dimensions: every element needs the whole reduction first.
      if (!in.rule || !in.rule->has(FusionRule::RowBarrier))
        return FusionRefusal{
            check::kDependency,
            llvm::formatv("'{0}' reads the result of reduction '{1}' "
                          "broadcast back over the reduced dims: that needs "
                          "a barrier, which only the row rules provide",
                          describeOp(consumer.op), describeOp(red.op))};
      if (!red.reduction || !red.reduction->innermost)
        return FusionRefusal{
            check::kDependency,
            llvm::formatv("'{0}' reduces dims that are not innermost: "
                          "broadcasting its result back to '{1}' needs a "
                          "grid-wide synchronization",
                          describeOp(red.op), describeOp(consumer.op))};
    }
  }
  return std::nullopt;
}

/// No cycle through ops outside the merged group, and no reduction result
/// broadcast back over its rows except under a rule that provides the
/// barrier.
static std::optional<FusionRefusal>
checkDependency(const FusionCheckInput &in) {
  const FusionGraph &graph = in.graph;
  MemberSet members(in.merged);
  if (graph.hasPathThroughOutside(in.a, in.b, members) ||
      graph.hasPathThroughOutside(in.b, in.a, members))
    return FusionRefusal{check::kDependency,
                         llvm::formatv("fusing would create a cycle: a path "
                                       "from the group to '{0}' runs through "
                                       "ops outside the group",
                                       describeOp(graph.node(in.bAnchor).op))};
  return checkReductionBarriers(in);
}

/// A merge whose group returns an intermediate needs rule multi_output.
static std::optional<FusionRefusal>
checkMultiOutput(const FusionCheckInput &in) {
  if (!in.policy.disabledRules.contains("multi_output") ||
      !in.graph.hasMultiOutput(in.merged))
    return std::nullopt;
  return FusionRefusal{check::kRuleDisabled,
                       "the merge needs a multi-output group (an intermediate "
                       "has users outside), and rule 'multi_output' is "
                       "disabled"};
}

/// Bytes of the input window one output point of `consumer` reads through
/// its operand `padded` (a tensor.pad's result that the kernel keeps as a
/// tile buffer): each dimension's span over the whole reduction loops, the
/// parallel loops at one point. 0 where it is not a static linalg op.
static int64_t paddedWindowBytes(Operation *consumer, Value padded) {
  auto op = dyn_cast<linalg::LinalgOp>(consumer);
  if (!op)
    return 0;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return 0;
  int64_t most = 0;
  for (OpOperand *operand : op.getDpsInputOperands()) {
    if (operand->get() != padded)
      continue;
    AffineMap map = op.getMatchingIndexingMap(operand);
    if (map.getNumSymbols() != 0)
      continue;
    SmallVector<int64_t> extent(ranges.size(), 1);
    for (auto [d, iter] : llvm::enumerate(op.getIteratorTypesArray()))
      if (iter == utils::IteratorType::reduction)
        extent[d] = ranges[d];
    int64_t elements = 1;
    for (int64_t span : mapSpans(map, extent))
      elements *= span;
    int64_t elem =
        getElementTypeBytes(getElementTypeOrSelf(padded.getType())).value_or(4);
    most = std::max(most, elements * elem);
  }
  return most;
}

static std::optional<FusionRefusal> checkMemory(const FusionCheckInput &in) {
  const FusionGraph &graph = in.graph;
  const FusionPolicy &policy = in.policy;
  ArrayRef<unsigned> merged = in.merged;
  int64_t smem = policy.target.getSharedMemPerBlock();
  MemberSet members(merged);
  int64_t workingSet = 0;
  std::string what;
  // A contraction keeps one tile of each operand on chip; tiles shrink down
  // to 32x32x32 (double-buffered) before the group is infeasible. Epilogue
  // operands of the full output shape add one output tile each.
  for (unsigned m : merged) {
    const Node &node = graph.node(m);
    if (!node.isContraction())
      continue;
    int64_t elem = 4;
    if (node.op->getNumOperands() > 0)
      if (auto type = dyn_cast<ShapedType>(node.op->getOperand(0).getType()))
        elem = getElementTypeBytes(type.getElementType()).value_or(4);
    int64_t tile = 32;
    int64_t bytes = 2 * (tile * tile + tile * tile) * elem;
    for (unsigned e : merged) {
      const Node &epi = graph.node(e);
      if (epi.isContraction())
        continue;
      for (Value read : epi.reads) {
        std::optional<unsigned> def = graph.getDefiningNode(read);
        auto type = dyn_cast<ShapedType>(read.getType());
        if ((!def || !members.contains(*def)) && type &&
            type.hasStaticShape() && type.getShape() == ArrayRef(node.shape))
          bytes += tile * tile * elem;
      }
    }
    if (bytes > workingSet) {
      workingSet = bytes;
      what = llvm::formatv("the smallest tile of '{0}' (32x32x32, "
                           "double-buffered, with its epilogue operands)",
                           describeOp(node.op));
    }
  }
  // A reduction that is broadcast back keeps whole rows on chip: the values
  // read after the reduction that were available before it (not in a
  // kernel that streams them: the attention schedule's online softmax,
  // whose tile buffers the lowering check measures).
  bool streams = in.rule && in.rule->has(FusionRule::StreamsOperands);
  for (unsigned r : merged) {
    const Node &red = graph.node(r);
    if (streams || !red.isReduction() || !red.reduction)
      continue;
    int64_t full = red.reduction->rows * red.reduction->cols;
    llvm::SetVector<Value> live;
    for (unsigned m : merged) {
      const Node &node = graph.node(m);
      if (m <= r || !node.hasStaticShape || node.numElements() != full)
        continue;
      for (Value read : node.reads) {
        std::optional<unsigned> def = graph.getDefiningNode(read);
        std::optional<int64_t> count = getNumElements(read.getType());
        if (count && *count == full && (!def || *def < r))
          live.insert(read);
      }
    }
    if (live.empty())
      continue;
    // Rows produced by a contraction in the same kernel come as a tile of
    // at least 32 whole rows.
    int64_t rows = llvm::any_of(merged,
                                [&](unsigned m) {
                                  const Node &c = graph.node(m);
                                  return c.isContraction() && m < r &&
                                         !c.shape.empty() &&
                                         c.shape.back() == red.reduction->cols;
                                })
                       ? 32
                       : 1;
    int64_t bytes = rows * red.reduction->cols * red.reduction->elementBytes *
                    static_cast<int64_t>(live.size());
    if (bytes > workingSet) {
      workingSet = bytes;
      what = llvm::formatv("{0} row(s) of '{1}' ({2} elements x {3} B x {4} "
                           "values live across the reduction)",
                           rows, describeOp(red.op), red.reduction->cols,
                           red.reduction->elementBytes, live.size());
    }
  }
  // A pad that joins its consumer is a tile buffer in shared memory: at
  // least the window one output point reads (a dilated convolution's spans
  // rows and columns far apart, over all its input channels) must fit; a
  // pad that does not is its own kernel, and the consumer reads the padded
  // tensor from global memory.
  for (unsigned m : merged) {
    const Node &pad = graph.node(m);
    if (!isa<tensor::PadOp>(pad.op))
      continue;
    Value padded = pad.op->getResult(0);
    for (unsigned c : merged) {
      const Node &consumer = graph.node(c);
      if (!llvm::is_contained(consumer.reads, padded))
        continue;
      int64_t bytes = paddedWindowBytes(consumer.op, padded);
      if (bytes <= smem)
        continue;
      return FusionRefusal{
          check::kMemory,
          llvm::formatv("the padded input window of one output point of "
                        "'{0}' takes {1} B, more than shared memory per "
                        "block ({2} B on target '{3}'): the pad is kept a "
                        "kernel of its own",
                        describeOp(consumer.op), bytes, smem,
                        policy.target.getName())};
    }
  }
  if (workingSet <= smem)
    return std::nullopt;
  // What does not fit on chip spills and counts against L2: with one block
  // per SM in flight, each block may use its share of the L2.
  int64_t spill = workingSet - smem;
  int64_t l2Share = policy.target.getL2Bytes() / policy.target.getNumSMs();
  if (spill <= l2Share)
    return std::nullopt;
  return FusionRefusal{
      check::kMemory,
      llvm::formatv("per-block working set {0} B exceeds shared memory per "
                    "block {1} B, and the {2} B that would spill exceed one "
                    "block's share of L2 ({3} B = {4} B / {5} SMs) on target "
                    "'{6}': {7}",
                    workingSet, smem, spill, l2Share,
                    policy.target.getL2Bytes(), policy.target.getNumSMs(),
                    policy.target.getName(), what)};
}

static std::optional<FusionRefusal> checkIntensity(const FusionCheckInput &in) {
  const FusionGraph &graph = in.graph;
  const FusionPolicy &policy = in.policy;
  ArrayRef<unsigned> merged = in.merged;
  // Roofline: a contraction is compute-bound when its FLOPs per byte reach
  // the ridge point peak / bandwidth. Two of them in one kernel fight for
  // registers and spill; not in a kernel that streams their operands.
  if (in.rule && in.rule->has(FusionRule::StreamsOperands))
    return std::nullopt;
  SmallVector<std::pair<unsigned, double>> bound;
  double ridge = 0;
  for (unsigned m : merged) {
    const Node &node = graph.node(m);
    if (!node.isContraction() || !node.cls.flops)
      continue;
    int64_t bytes =
        node.cls.bytesRead.value_or(0) + node.cls.bytesWritten.value_or(0);
    if (bytes <= 0)
      continue;
    Type elem = getElementTypeOrSelf(node.op->getResult(0).getType());
    ridge = policy.target.getRidgeFlopsPerByte(elem);
    double intensity = double(*node.cls.flops) / double(bytes);
    if (intensity >= ridge)
      bound.push_back({m, intensity});
  }
  if (bound.size() < 2)
    return std::nullopt;
  return FusionRefusal{
      check::kIntensity,
      llvm::formatv("'{0}' ({1:f1} FLOP/B) and '{2}' ({3:f1} FLOP/B) are "
                    "both compute-bound (ridge {4:f1} FLOP/B on '{5}'); "
                    "one kernel would fight for registers",
                    describeOp(graph.node(bound[0].first).op), bound[0].second,
                    describeOp(graph.node(bound[1].first).op), bound[1].second,
                    ridge, policy.target.getName())};
}

static std::optional<FusionRefusal> checkHardware(const FusionCheckInput &in) {
  const FusionGraph &graph = in.graph;
  const FusionPolicy &policy = in.policy;
  ArrayRef<unsigned> merged = in.merged;
  for (unsigned m : merged) {
    const Node &node = graph.node(m);
    // A node's verdict is the same in every merge: asked once.
    if (!node.unsupported) {
      node.unsupported.emplace();
      for (Type type : llvm::concat<Type>(node.op->getOperandTypes(),
                                          node.op->getResultTypes())) {
        std::string reason;
        if (!policy.target.supportsElementType(type, &reason)) {
          *node.unsupported =
              llvm::formatv("'{0}': {1}", describeOp(node.op), reason);
          break;
        }
      }
    }
    if (!node.unsupported->empty())
      return FusionRefusal{check::kHardware, *node.unsupported};
  }
  return std::nullopt;
}

/// Bytes of the memref descriptor a kernel receives for `value`.
static int64_t descriptorBytes(Value value) {
  if (auto shaped = dyn_cast<ShapedType>(value.getType()))
    return 8 * (3 + 2 * (shaped.hasRank() ? shaped.getRank() : 0));
  return 8;
}

/// The merged group's boundary, computed once per merge.
static const FusionGraph::Boundary &mergedBoundary(const FusionCheckInput &in) {
  if (in.mergedBoundary)
    return *in.mergedBoundary;
  // From the sides' boundaries where the engine kept one (a large group
  // taking in one more op), from every member otherwise.
  if (!in.aBoundary && !in.bBoundary) {
    in.mergedBoundary = in.graph.getBoundary(in.merged);
    return *in.mergedBoundary;
  }
  std::optional<FusionGraph::Boundary> a, b;
  if (!in.aBoundary)
    a = in.graph.getBoundary(in.a);
  if (!in.bBoundary)
    b = in.graph.getBoundary(in.b);
  in.mergedBoundary =
      in.graph.mergeBoundaries(in.merged, in.aBoundary ? *in.aBoundary : *a,
                               in.bBoundary ? *in.bBoundary : *b);
  return *in.mergedBoundary;
}

static std::optional<FusionRefusal> checkResources(const FusionCheckInput &in) {
  const FusionGraph &graph = in.graph;
  const FusionPolicy &policy = in.policy;
  ArrayRef<unsigned> merged = in.merged;
  if (int64_t(merged.size()) > policy.maxOpsPerGroup)
    return FusionRefusal{check::kResource,
                         llvm::formatv("{0} ops exceed max-ops-per-group {1}",
                                       merged.size(), policy.maxOpsPerGroup)};
  int64_t reductions = llvm::count_if(
      merged, [&](unsigned m) { return graph.node(m).isReduction(); });
  if (reductions > policy.maxReductionsPerGroup)
    return FusionRefusal{check::kResource,
                         llvm::formatv("{0} reductions exceed "
                                       "max-reductions-per-group {1}",
                                       reductions,
                                       policy.maxReductionsPerGroup)};
  const FusionGraph::Boundary &boundary = mergedBoundary(in);
  ArrayRef<Value> inputs = boundary.inputs, outputs = boundary.outputs;
  int64_t params = 0;
  for (ArrayRef<Value> values : {inputs, outputs})
    for (Value value : values)
      params += descriptorBytes(value);
  if (params > policy.maxKernelParamBytes)
    return FusionRefusal{
        check::kResource,
        llvm::formatv("kernel parameters take {0} B ({1} inputs, "
                      "{2} results), more than "
                      "max-kernel-param-bytes {3}",
                      params, inputs.size(), outputs.size(),
                      policy.maxKernelParamBytes)};
  return std::nullopt;
}

double mlir::fuse::detail::recomputeSeconds(const FusionGraph &graph,
                                            const FusionPolicy &policy,
                                            ArrayRef<unsigned> members) {
  MemberSet in(members);
  double seconds = 0;
  for (unsigned m : members) {
    const Node &producer = graph.node(m);
    if (producer.isReduction() || producer.isContraction() ||
        !producer.hasStaticShape || !producer.cls.flops ||
        producer.numElements() == 0)
      continue;
    int64_t largest = producer.numElements();
    for (unsigned c : producer.consumers)
      if (in.contains(c) && graph.node(c).hasStaticShape)
        largest = std::max(largest, graph.node(c).numElements());
    double factor = double(largest) / double(producer.numElements()) - 1.0;
    if (factor <= 0)
      continue;
    Type elem = getElementTypeOrSelf(producer.op->getResult(0).getType());
    seconds += double(*producer.cls.flops) * factor /
               policy.target.getPeakFlopsOrF32(elem);
  }
  return seconds;
}

static std::optional<FusionRefusal> checkCost(const FusionCheckInput &in) {
  const FusionGraph &graph = in.graph;
  const FusionPolicy &policy = in.policy;
  // Each side's figures as the engine kept them, or computed now; the
  // union's are kept for the engine, should the merge go ahead.
  auto known = [](auto &value, auto compute) {
    if (value < 0)
      value = compute();
    return value;
  };
  if (in.mergedBytes < 0)
    in.mergedBytes = graph.getBytes(in.merged, mergedBoundary(in));
  int64_t saved = known(in.aBytes, [&] { return graph.getBytes(in.a); }) +
                  known(in.bBytes, [&] { return graph.getBytes(in.b); }) -
                  in.mergedBytes;
  double seconds = double(saved) / policy.target.getDramBytesPerSecond() +
                   policy.target.getLaunchSeconds();
  auto recomputeOf = [&](ArrayRef<unsigned> members) {
    return [&graph, &policy, members] {
      return recomputeSeconds(graph, policy, members);
    };
  };
  double recompute = known(in.mergedRecompute, recomputeOf(in.merged)) -
                     known(in.aRecompute, recomputeOf(in.a)) -
                     known(in.bRecompute, recomputeOf(in.b));
  if (seconds - recompute > 0)
    return std::nullopt;
  return FusionRefusal{
      check::kCost,
      llvm::formatv("saves {0} B and one launch ({1:f3} us) but "
                    "recomputing broadcast producers costs {2:f3} "
                    "us",
                    saved, seconds * 1e6, recompute * 1e6)};
}

ArrayRef<FusionCheck> mlir::fuse::getFusionChecks() {
  static const FusionCheck checks[] = {
      {check::kLowering,
       "the lowering (fuse-lower-groups) turns the group into one loop nest "
       "(fuse-form-groups tries each planned group); no two members update "
       "one tensor in place",
       checkLowering},
      {check::kDependency,
       "no cycle through ops outside the group; a reduction broadcast back "
       "over its rows only under a row rule",
       checkDependency},
      {check::kRuleDisabled,
       "a group returning an intermediate needs rule multi_output",
       checkMultiOutput},
      {check::kMemory,
       "the per-block working set fits shared memory, or what spills fits "
       "one block's share of L2",
       checkMemory},
      {check::kIntensity,
       "at most one compute-bound contraction (roofline ridge point)",
       checkIntensity},
      {check::kHardware, "the target supports every element type",
       checkHardware},
      {check::kResource,
       "ops, reductions and kernel parameter bytes within the policy's caps",
       checkResources},
      {check::kCost,
       "bytes and launches saved outweigh recomputed broadcast producers",
       checkCost},
  };
  return checks;
}

std::optional<FusionRefusal>
mlir::fuse::detail::runFusionChecks(const FusionCheckInput &input) {
  for (const FusionCheck &check : getFusionChecks())
    if (std::optional<FusionRefusal> refusal = check.run(input))
      return refusal;
  return std::nullopt;
}

std::optional<FusionRefusal>
mlir::fuse::checkGroupMerge(GroupOp a, GroupOp b, StringRef rule,
                            const FusionPolicy &policy) {
  // The merged group, built from clones of both in a scratch block: a cast
  // after them stands for every user outside the pair, so the merged group
  // returns what it would return in place (its intermediates that others
  // read included).
  Block scratch;
  OpBuilder builder(a.getContext());
  builder.setInsertionPointToEnd(&scratch);
  IRMapping mapping;
  auto ca = cast<GroupOp>(builder.clone(*a, mapping));
  auto cb = cast<GroupOp>(builder.clone(*b, mapping));
  SmallVector<Value> usedOutside;
  for (auto [original, clone] : llvm::zip(a->getResults(), ca->getResults()))
    if (llvm::any_of(original.getUsers(),
                     [&](Operation *user) { return user != b; }))
      usedOutside.push_back(clone);
  for (auto [original, clone] : llvm::zip(b->getResults(), cb->getResults()))
    if (!original.use_empty())
      usedOutside.push_back(clone);
  UnrealizedConversionCastOp::create(builder, a.getLoc(), TypeRange(),
                                     usedOutside);
  size_t opsOfA = std::distance(ca.getBodyBlock().without_terminator().begin(),
                                ca.getBodyBlock().without_terminator().end());
  IRRewriter rewriter(a.getContext());
  GroupOp merged =
      mergeFuseGroups(rewriter, ca, cb, FusionKind::composite, rule, ca);
  Block &body = merged.getBodyBlock();
  Operation *firstOfB = opsOfA < body.getOperations().size()
                            ? &*std::next(body.begin(), opsOfA)
                            : body.getTerminator();
  FusionGraph graph(body);
  SmallVector<unsigned> sideA, sideB, all;
  for (const Node &node : graph.getNodes()) {
    (node.op->isBeforeInBlock(firstOfB) ? sideA : sideB).push_back(node.index);
    all.push_back(node.index);
  }
  if (sideA.empty() || sideB.empty())
    return std::nullopt;
  FusionCheckInput input{graph, policy, lookupFusionRule(rule), sideA,
                         sideB, all,    sideB.front(),          std::nullopt};
  std::optional<FusionRefusal> refusal = runFusionChecks(input);
  // The scratch block's ops still use values of the enclosing function.
  scratch.dropAllReferences();
  return refusal;
}
