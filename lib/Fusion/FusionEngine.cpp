//===- FusionEngine.cpp - rules, feasibility checks and cost model --------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// The engine starts with every compute op in a group of its own and merges
// groups rule by rule, highest priority first. Each rule proposes candidate
// merges; a merge happens only when every feasibility check passes and the
// cost model says it saves time. Refused candidates are kept with the check
// that refused them and its numbers, so a report can say why ops stayed
// apart.
//
//===----------------------------------------------------------------------===//

#include "FusionGraph.h"

#include "fuse/Fusion/FusionEngine.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <set>
#include <tuple>

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::detail;

//===----------------------------------------------------------------------===//
// Rule table
//===----------------------------------------------------------------------===//

namespace {
enum class Rule : unsigned {
  AffineFold,
  SharedInputContractions,
  Attention,
  PadPrologue,
  TransposePrologue,
  SlicePrologue,
  ContractionEpilogue,
  ResidualJoin,
  ContractionRowEpilogue,
  RowReduction,
  ElementwiseChain,
  ConcatSlices,
  MultiOutput,
  SiblingMerge,
};
} // namespace

static const FusionRuleInfo kRules[] = {
    {"affine_fold", FusionKind::vertical, 120,
     "graph rewrite (fuse-fold-affine): a per-channel constant scale or "
     "shift after a conv, depthwise conv or matmul (inference BatchNorm) "
     "goes into its weights and bias",
     "the contraction's result has no other user; f32 dense constants"},
    {"shared_input_contractions", FusionKind::horizontal, 110,
     "graph rewrite (fuse-merge-sibling-contractions): matmuls or convs that "
     "read the same input with constant weights become one contraction on "
     "concatenated weights; its slices and their epilogues join its group",
     "same input, attributes, kernel shape and zero points"},
    {"attention", FusionKind::composite, 105,
     "QK^T (a batch matmul), elementwise scaling and masking, a softmax over "
     "its rows, then the product with V; the head-split transposes that "
     "feed the two matmuls and the transpose after them join too",
     "rows of the score matrix fit shared memory (32-row tiles); at most one "
     "of the two matmuls compute-bound; at most max-reductions-per-group "
     "reductions"},
    {"pad_prologue", FusionKind::vertical, 102,
     "the tensor.pad of a convolution's or pooling's input joins its "
     "consumer: the kernel reads the border as the padding value instead of "
     "materializing a padded copy",
     "the pad has no other user"},
    {"transpose_prologue", FusionKind::vertical, 101,
     "a transpose whose readers are all in one convolution's, matmul's or "
     "pooling's group joins it (the layout change at an ONNX graph's input, "
     "NCHW to NHWC): the kernel reads its input through the permutation "
     "instead of a transposed copy",
     "every reader of the transpose is in that group and reads it directly "
     "(not through a pad or a reshape); its result is not returned; all "
     "feasibility checks"},
    {"slice_prologue", FusionKind::vertical, 101,
     "a slice whose readers are all in one convolution's, matmul's or "
     "pooling's group joins it (the rows a strided convolution reads, cut "
     "from a larger value): the kernel reads the slice as a view of its "
     "input instead of a copy",
     "every reader of the slice is in that group and reads it directly (not "
     "through a pad or a reshape); its result is not returned; all "
     "feasibility checks"},
    {"contraction_epilogue", FusionKind::vertical, 100,
     "a contraction (matmul, batch_matmul, conv, depthwise conv) or a pooling "
     "followed by "
     "elementwise/broadcast ops on its output: bias, per-channel affine "
     "(inference BatchNorm), ReLU, clip, sigmoid, SiLU, GELU; a bias "
     "broadcast into its accumulator joins too",
     "the epilogue op iterates over the contraction's output shape; all "
     "feasibility checks"},
    {"residual_join", FusionKind::diagonal, 95,
     "an epilogue op that also reads another branch's result (residual add, "
     "then ReLU) joins the contraction's group; the other branch becomes an "
     "extra input",
     "no path from the group through the other branch back into it; all "
     "feasibility checks"},
    {"contraction_row_epilogue", FusionKind::vertical, 85,
     "a row reduction group (layernorm, softmax) over the last dimension of "
     "a contraction group's output joins that group: GEMM + bias + residual "
     "+ LayerNorm is one kernel",
     "a 32-row tile of whole output rows, and what stays live across the "
     "reductions, fits shared memory"},
    {"row_reduction", FusionKind::vertical, 80,
     "a reduction with the elementwise producers of its input, elementwise "
     "consumers of its result, further reductions over the same rows, and "
     "ops that broadcast the result back over the rows (softmax, layernorm)",
     "broadcasting back needs the reduced dims innermost and a row's working "
     "set in shared memory; at most max-reductions-per-group reductions"},
    {"elementwise_chain", FusionKind::vertical, 50,
     "an elementwise/broadcast producer into its elementwise/broadcast "
     "consumer",
     "same iteration space, or a producer read through a broadcast map "
     "(recomputed per element: charged by the cost model)"},
    {"concat_slices", FusionKind::diagonal, 45,
     "the insertion of a branch's result into its slice of a concat joins "
     "the group that computes the branch: the branch writes straight into "
     "the concatenated tensor and no copy kernel remains",
     "no cycle through the other branches; all feasibility checks"},
    {"multi_output", FusionKind::diagonal, 40,
     "a value computed inside a group is also returned to users outside it, "
     "instead of keeping producer and consumer apart",
     "allows merges whose intermediates have users outside the group"},
    {"sibling_merge", FusionKind::horizontal, 30,
     "independent groups with the same iteration space that read a common "
     "input become one multi-result group",
     "no dependency path between them; at most one compute-bound "
     "contraction"},
};

ArrayRef<FusionRuleInfo> mlir::fuse::getFusionRules() { return kRules; }

/// Rules that put an input's producer in front of a kernel: they do not
/// name the group when another rule merges into it too.
static bool isPrologue(Rule rule) {
  return rule == Rule::PadPrologue || rule == Rule::TransposePrologue ||
         rule == Rule::SlicePrologue;
}

/// Whether `node` anchors a kernel that reads its inputs tile by tile and
/// takes epilogues and view prologues: a contraction or a pooling.
static bool isWindowAnchor(const Node &node) {
  return node.isContraction() ||
         node.op->getName().getStringRef().starts_with("linalg.pooling_");
}

static const FusionRuleInfo &info(Rule rule) {
  return kRules[static_cast<unsigned>(rule)];
}

void mlir::fuse::printFusionRules(raw_ostream &os) {
  os << "fuse fusion rules (highest priority first):\n";
  for (const FusionRuleInfo &rule : kRules) {
    os << "\n  " << rule.name << "  [" << stringifyFusionKind(rule.kind)
       << ", priority " << rule.priority << "]\n";
    os << "    pattern:     " << rule.pattern << "\n";
    os << "    constraints: " << rule.constraints << "\n";
  }
  os << "\nfeasibility checks: " << check::kDependency << ", "
     << check::kMemory << ", " << check::kIntensity << ", "
     << check::kHardware << ", " << check::kResource << "; then "
     << check::kCost << " (time saved must be positive)\n";
}

/// Whether `loc` (or a location inside it) is a FusedLoc with `marker` as
/// metadata.
static bool hasLocationMarker(Location loc, StringRef marker) {
  SmallVector<Location> worklist = {loc};
  while (!worklist.empty()) {
    Location l = worklist.pop_back_val();
    if (auto fused = dyn_cast<FusedLoc>(l)) {
      if (auto meta = dyn_cast_or_null<StringAttr>(fused.getMetadata());
          meta && meta.getValue() == marker)
        return true;
      worklist.append(fused.getLocations().begin(),
                      fused.getLocations().end());
    } else if (auto name = dyn_cast<NameLoc>(l)) {
      worklist.push_back(name.getChildLoc());
    }
  }
  return false;
}

//===----------------------------------------------------------------------===//
// The engine
//===----------------------------------------------------------------------===//

namespace {

/// A group while the engine works on it.
struct GroupState {
  SmallVector<unsigned> members; // sorted node ids
  unsigned anchor = 0;
  std::optional<Rule> firstRule;
  bool residualJoin = false, horizontal = false, composite = false;
  bool concatSlice = false;
  SmallVector<std::string> steps;
  /// The last merge into this group.
  std::optional<Rule> lastRule;
  unsigned lastCandidate = 0;
  bool alive = true;
};

/// A refused candidate, for the result of a feasibility check.
struct Refusal {
  StringRef check;
  std::string reason;
};

class Engine {
public:
  Engine(Block &block, const FusionPolicy &policy)
      : graph(block), policy(policy) {
    for (unsigned id = 0; id < graph.size(); ++id) {
      GroupState group;
      group.members.push_back(id);
      group.anchor = id;
      groupOf.push_back(groups.size());
      groups.push_back(std::move(group));
    }
  }

  FusionPlan run();

private:
  // Rule drivers, in priority order.
  void formAttention();
  void absorbPads();
  /// Ops of type OpTy (transposes, slices) whose readers are all in one
  /// contraction's or pooling's group, read directly, join it by `rule`.
  template <typename OpTy>
  void absorbViews(Rule rule);
  void growContractionEpilogues();
  void growContractionRowEpilogues();
  void growRowReductions();
  void mergeElementwiseChains();
  void mergeConcatSlices();
  void mergeSiblings();

  /// Merges group `b` into group `a` under `rule` if every check passes;
  /// otherwise records why not. `candidate` is the op named in reports.
  bool tryMerge(unsigned a, unsigned b, Rule rule, unsigned candidate);
  /// Merges several groups into `a` at once: all or nothing.
  bool tryMerge(unsigned a, ArrayRef<unsigned> others, Rule rule,
                unsigned candidate);
  std::optional<Refusal> check(const GroupState &a, const GroupState &b,
                               Rule rule, ArrayRef<unsigned> merged);
  std::optional<Refusal> checkReductionBarriers(ArrayRef<unsigned> merged,
                                                Rule rule);
  std::optional<Refusal> checkMemory(ArrayRef<unsigned> merged);
  std::optional<Refusal> checkIntensity(ArrayRef<unsigned> merged);
  std::optional<Refusal> checkHardware(ArrayRef<unsigned> merged);
  std::optional<Refusal> checkResources(ArrayRef<unsigned> merged);
  std::optional<Refusal> checkCost(const GroupState &a, const GroupState &b,
                                   ArrayRef<unsigned> merged);

  bool isSingleton(unsigned node) const {
    return groups[groupOf[node]].members.size() == 1;
  }
  bool groupIsElementwiseLike(unsigned g) const {
    return llvm::all_of(groups[g].members, [&](unsigned m) {
      return graph.node(m).isElementwiseLike();
    });
  }
  bool enabled(Rule rule) const {
    return !policy.disabledRules.contains(info(rule).name);
  }
  /// Time, in seconds, to recompute producers that a broadcast read makes
  /// run once per consumer element.
  double recomputeSeconds(ArrayRef<unsigned> members) const;
  double peakFlops(Type elementType) const {
    return policy.target.getPeakFlopsOrF32(elementType);
  }
  void record(Rule rule, StringRef check, std::string reason, unsigned anchor,
              unsigned candidate);

  FusionGraph graph;
  const FusionPolicy &policy;
  std::vector<GroupState> groups;
  std::vector<unsigned> groupOf;
  SmallVector<FusionRejection> rejections;
  std::set<std::tuple<unsigned, unsigned, unsigned, std::string>> recorded;
};

} // namespace

void Engine::record(Rule rule, StringRef checkName, std::string reason,
                    unsigned anchor, unsigned candidate) {
  auto key = std::make_tuple(static_cast<unsigned>(rule), anchor, candidate,
                             checkName.str());
  if (!recorded.insert(key).second)
    return;
  FusionRejection rejection;
  rejection.rule = info(rule).name.str();
  rejection.check = checkName.str();
  rejection.reason = std::move(reason);
  rejection.anchor = graph.node(anchor).op;
  rejection.candidate = graph.node(candidate).op;
  rejections.push_back(std::move(rejection));
}

bool Engine::tryMerge(unsigned a, unsigned b, Rule rule, unsigned candidate) {
  return tryMerge(a, ArrayRef<unsigned>{b}, rule, candidate);
}

bool Engine::tryMerge(unsigned a, ArrayRef<unsigned> others, Rule rule,
                      unsigned candidate) {
  GroupState &ga = groups[a];
  if (!ga.alive || llvm::is_contained(others, a) ||
      llvm::any_of(others, [&](unsigned o) { return !groups[o].alive; }))
    return false;
  if (!enabled(rule)) {
    record(rule, check::kRuleDisabled,
           llvm::formatv("rule '{0}' is disabled", info(rule).name), ga.anchor,
           candidate);
    return false;
  }
  auto vetoes = policy.loweringVetoes.find(graph.node(candidate).op);
  if (vetoes != policy.loweringVetoes.end())
    for (const FusionPolicy::LoweringVeto &veto : vetoes->second)
      if (veto.rule == info(rule).name) {
        record(rule, check::kLowering, veto.reason, ga.anchor, candidate);
        return false;
      }
  // Everything that joins `a`, as one group.
  GroupState gb;
  gb.anchor = groups[others.front()].anchor;
  for (unsigned o : others) {
    const GroupState &g = groups[o];
    gb.members.append(g.members.begin(), g.members.end());
    if (!gb.firstRule)
      gb.firstRule = g.firstRule;
    gb.residualJoin |= g.residualJoin;
    gb.horizontal |= g.horizontal;
    gb.composite |= g.composite;
    gb.concatSlice |= g.concatSlice;
    gb.steps.append(g.steps.begin(), g.steps.end());
    const Node &anchor = graph.node(g.anchor);
    if (anchor.isContraction() &&
        anchor.cls.flops.value_or(0) >
            graph.node(gb.anchor).cls.flops.value_or(0))
      gb.anchor = g.anchor;
  }
  llvm::sort(gb.members);
  SmallVector<unsigned> merged(ga.members);
  merged.append(gb.members);
  llvm::sort(merged);
  if (std::optional<Refusal> refusal = check(ga, gb, rule, merged)) {
    record(rule, refusal->check, std::move(refusal->reason), ga.anchor,
           candidate);
    return false;
  }
  // Keep the compute-heavier anchor.
  const Node &anchorA = graph.node(ga.anchor), &anchorB = graph.node(gb.anchor);
  if (anchorB.isContraction() &&
      (!anchorA.isContraction() ||
       anchorB.cls.flops.value_or(0) > anchorA.cls.flops.value_or(0)))
    ga.anchor = gb.anchor;
  ga.members = std::move(merged);
  // The rule that first merged into this group names it; an input pad is
  // only a prologue, so the rule after it names the group instead.
  if (!ga.firstRule || (isPrologue(*ga.firstRule) && !isPrologue(rule)))
    ga.firstRule = rule;
  ga.residualJoin |= gb.residualJoin || rule == Rule::ResidualJoin;
  ga.horizontal |= gb.horizontal || rule == Rule::SiblingMerge;
  ga.composite |= gb.composite || rule == Rule::Attention;
  ga.concatSlice |= gb.concatSlice || rule == Rule::ConcatSlices;
  ga.steps.append(gb.steps.begin(), gb.steps.end());
  ga.steps.push_back(
      (info(rule).name + ": " + describeOp(graph.node(candidate).op)).str());
  ga.lastRule = rule;
  ga.lastCandidate = candidate;
  for (unsigned o : others) {
    for (unsigned m : groups[o].members)
      groupOf[m] = a;
    groups[o].alive = false;
    groups[o].members.clear();
  }
  return true;
}

std::optional<Refusal> Engine::check(const GroupState &a, const GroupState &b,
                                     Rule rule, ArrayRef<unsigned> merged) {
  llvm::DenseSet<unsigned> members(merged.begin(), merged.end());
  // 1. Dependency: no cycle through ops outside the merged group.
  if (graph.hasPathThroughOutside(a.members, b.members, members) ||
      graph.hasPathThroughOutside(b.members, a.members, members)) {
    return Refusal{check::kDependency,
                   llvm::formatv("fusing would create a cycle: a path from "
                                 "the group to '{0}' runs through ops "
                                 "outside the group",
                                 describeOp(graph.node(b.anchor).op))};
  }
  if (std::optional<Refusal> r = checkReductionBarriers(merged, rule))
    return r;
  // Multi-output needs its own rule.
  if (graph.hasMultiOutput(merged) && !enabled(Rule::MultiOutput))
    return Refusal{check::kRuleDisabled,
                   "the merge needs a multi-output group (an intermediate "
                   "has users outside), and rule 'multi_output' is disabled"};
  if (std::optional<Refusal> r = checkMemory(merged))
    return r;
  if (std::optional<Refusal> r = checkIntensity(merged))
    return r;
  if (std::optional<Refusal> r = checkHardware(merged))
    return r;
  if (std::optional<Refusal> r = checkResources(merged))
    return r;
  return checkCost(a, b, merged);
}

std::optional<Refusal>
Engine::checkReductionBarriers(ArrayRef<unsigned> merged, Rule rule) {
  llvm::DenseSet<unsigned> members(merged.begin(), merged.end());
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
      if (rule != Rule::RowReduction && rule != Rule::Attention &&
          rule != Rule::ContractionRowEpilogue)
        return Refusal{
            check::kDependency,
            llvm::formatv("'{0}' reads the result of reduction '{1}' "
                          "broadcast back over the reduced dims: that needs "
                          "a barrier, which only the row rules provide",
                          describeOp(consumer.op), describeOp(red.op))};
      if (!red.reduction || !red.reduction->innermost)
        return Refusal{
            check::kDependency,
            llvm::formatv("'{0}' reduces dims that are not innermost: "
                          "broadcasting its result back to '{1}' needs a "
                          "grid-wide synchronization",
                          describeOp(red.op), describeOp(consumer.op))};
    }
  }
  return std::nullopt;
}

std::optional<Refusal> Engine::checkMemory(ArrayRef<unsigned> merged) {
  int64_t smem = policy.target.getSharedMemPerBlock();
  llvm::DenseSet<unsigned> members(merged.begin(), merged.end());
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
  // read after the reduction that were available before it.
  for (unsigned r : merged) {
    const Node &red = graph.node(r);
    if (!red.isReduction() || !red.reduction)
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
  if (workingSet <= smem)
    return std::nullopt;
  // What does not fit on chip spills and counts against L2: with one block
  // per SM in flight, each block may use its share of the L2.
  int64_t spill = workingSet - smem;
  int64_t l2Share = policy.target.getL2Bytes() / policy.target.getNumSMs();
  if (spill <= l2Share)
    return std::nullopt;
  return Refusal{
      check::kMemory,
      llvm::formatv("per-block working set {0} B exceeds shared memory per "
                    "block {1} B, and the {2} B that would spill exceed one "
                    "block's share of L2 ({3} B = {4} B / {5} SMs) on target "
                    "'{6}': {7}",
                    workingSet, smem, spill, l2Share,
                    policy.target.getL2Bytes(), policy.target.getNumSMs(),
                    policy.target.getName(), what)};
}

std::optional<Refusal> Engine::checkIntensity(ArrayRef<unsigned> merged) {
  // Roofline: a contraction is compute-bound when its FLOPs per byte reach
  // the ridge point peak / bandwidth. Two of them in one kernel fight for
  // registers and spill.
  SmallVector<std::pair<unsigned, double>> bound;
  double ridge = 0;
  for (unsigned m : merged) {
    const Node &node = graph.node(m);
    if (!node.isContraction() || !node.cls.flops)
      continue;
    int64_t bytes = node.cls.bytesRead.value_or(0) +
                    node.cls.bytesWritten.value_or(0);
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
  return Refusal{
      check::kIntensity,
      llvm::formatv("'{0}' ({1:f1} FLOP/B) and '{2}' ({3:f1} FLOP/B) are "
                    "both compute-bound (ridge {4:f1} FLOP/B on '{5}'); "
                    "one kernel would fight for registers",
                    describeOp(graph.node(bound[0].first).op), bound[0].second,
                    describeOp(graph.node(bound[1].first).op), bound[1].second,
                    ridge, policy.target.getName())};
}

std::optional<Refusal> Engine::checkHardware(ArrayRef<unsigned> merged) {
  for (unsigned m : merged) {
    Operation *op = graph.node(m).op;
    for (Type type : llvm::concat<Type>(op->getOperandTypes(),
                                        op->getResultTypes())) {
      std::string reason;
      if (!policy.target.supportsElementType(type, &reason))
        return Refusal{check::kHardware,
                       llvm::formatv("'{0}': {1}", describeOp(op), reason)};
    }
  }
  return std::nullopt;
}

/// Bytes of the memref descriptor a kernel receives for `value`.
static int64_t descriptorBytes(Value value) {
  if (auto shaped = dyn_cast<ShapedType>(value.getType()))
    return 8 * (3 + 2 * (shaped.hasRank() ? shaped.getRank() : 0));
  return 8;
}

std::optional<Refusal> Engine::checkResources(ArrayRef<unsigned> merged) {
  if (int64_t(merged.size()) > policy.maxOpsPerGroup)
    return Refusal{check::kResource,
                   llvm::formatv("{0} ops exceed max-ops-per-group {1}",
                                 merged.size(), policy.maxOpsPerGroup)};
  int64_t reductions = llvm::count_if(
      merged, [&](unsigned m) { return graph.node(m).isReduction(); });
  if (reductions > policy.maxReductionsPerGroup)
    return Refusal{check::kResource,
                   llvm::formatv("{0} reductions exceed "
                                 "max-reductions-per-group {1}",
                                 reductions, policy.maxReductionsPerGroup)};
  SmallVector<Value> inputs, outputs;
  graph.getBoundary(merged, inputs, outputs);
  int64_t params = 0;
  for (Value value : llvm::concat<Value>(inputs, outputs))
    params += descriptorBytes(value);
  if (params > policy.maxKernelParamBytes)
    return Refusal{check::kResource,
                   llvm::formatv("kernel parameters take {0} B ({1} inputs, "
                                 "{2} results), more than "
                                 "max-kernel-param-bytes {3}",
                                 params, inputs.size(), outputs.size(),
                                 policy.maxKernelParamBytes)};
  return std::nullopt;
}

double Engine::recomputeSeconds(ArrayRef<unsigned> members) const {
  llvm::DenseSet<unsigned> in(members.begin(), members.end());
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
    seconds += double(*producer.cls.flops) * factor / peakFlops(elem);
  }
  return seconds;
}

std::optional<Refusal> Engine::checkCost(const GroupState &a,
                                         const GroupState &b,
                                         ArrayRef<unsigned> merged) {
  int64_t saved =
      graph.getBytes(a.members) + graph.getBytes(b.members) -
      graph.getBytes(merged);
  double seconds = double(saved) / policy.target.getDramBytesPerSecond() +
                   policy.target.getLaunchSeconds();
  double recompute = recomputeSeconds(merged) - recomputeSeconds(a.members) -
                     recomputeSeconds(b.members);
  if (seconds - recompute > 0)
    return std::nullopt;
  return Refusal{check::kCost,
                 llvm::formatv("saves {0} B and one launch ({1:f3} us) but "
                               "recomputing broadcast producers costs {2:f3} "
                               "us",
                               saved, seconds * 1e6, recompute * 1e6)};
}

//===----------------------------------------------------------------------===//
// Rules
//===----------------------------------------------------------------------===//

/// `shape` without its unit dimensions: shapes that differ only by those
/// (an importer's leading batch of 1) iterate over the same elements in the
/// same order.
static SmallVector<int64_t> squeezed(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> s;
  for (int64_t d : shape)
    if (d != 1)
      s.push_back(d);
  return s;
}

void Engine::growContractionEpilogues() {
  // Compute-heavy anchors first; ties in program order.
  SmallVector<unsigned> anchors;
  // Poolings are window reductions with the same output-parallel structure:
  // an average pool's division (or anything elementwise after a pool) is
  // their epilogue.
  for (const Node &node : graph.getNodes())
    if (isWindowAnchor(node) && node.hasStaticShape)
      anchors.push_back(node.index);
  llvm::sort(anchors, [&](unsigned x, unsigned y) {
    int64_t fx = graph.node(x).cls.flops.value_or(0);
    int64_t fy = graph.node(y).cls.flops.value_or(0);
    return fx != fy ? fx > fy : x < y;
  });
  for (unsigned c : anchors) {
    // Contractions that another rule already placed (attention) are done;
    // one whose input pad joined it is still open.
    const GroupState &current = groups[groupOf[c]];
    if (current.members.size() > 1 &&
        !(current.firstRule && isPrologue(*current.firstRule)))
      continue;
    unsigned g = groupOf[c];
    ArrayRef<int64_t> shape = graph.node(c).shape;
    // A bias broadcast into the accumulator is computed by the contraction's
    // kernel when nothing else uses it.
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(graph.node(c).op))
      for (Value init : linalgOp.getDpsInits()) {
        std::optional<unsigned> p = graph.getDefiningNode(init);
        if (!p || !isSingleton(*p))
          continue;
        const Node &producer = graph.node(*p);
        if (producer.isElementwiseLike() &&
            ArrayRef(producer.shape) == shape &&
            producer.consumers == SmallVector<unsigned>{c} &&
            !llvm::is_contained(producer.resultEscapes, true))
          tryMerge(g, groupOf[*p], Rule::ContractionEpilogue, *p);
      }
    // The shapes the epilogue may iterate over: the contraction's output
    // and the slices of it already in the group.
    SmallVector<SmallVector<int64_t>> spaces = {SmallVector<int64_t>(shape)};
    bool changed = true;
    while (changed) {
      changed = false;
      for (unsigned m : SmallVector<unsigned>(groups[g].members)) {
        for (unsigned e : graph.node(m).consumers) {
          const Node &epi = graph.node(e);
          if (groupOf[e] == g || !isSingleton(e))
            continue;
          // A slice of the output (one of several merged contractions).
          if (isa<tensor::ExtractSliceOp>(epi.op) && epi.hasStaticShape) {
            if (tryMerge(g, groupOf[e], Rule::ContractionEpilogue, e)) {
              spaces.push_back(epi.shape);
              changed = true;
              break;
            }
            continue;
          }
          if (!epi.isElementwiseLike() ||
              !llvm::is_contained(spaces, epi.shape))
            continue;
          // Another branch's result read here makes this a join.
          bool join = llvm::any_of(epi.reads, [&](Value read) {
            std::optional<unsigned> def = graph.getDefiningNode(read);
            return def && groupOf[*def] != g;
          });
          if (tryMerge(g, groupOf[e],
                       join ? Rule::ResidualJoin : Rule::ContractionEpilogue,
                       e)) {
            changed = true;
            break;
          }
        }
        if (changed)
          break;
      }
    }
  }
}

/// Whether `op` is a plain or batched matmul (the two products of
/// attention).
static bool isMatmulLike(Operation *op) {
  return isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op);
}

void Engine::formAttention() {
  for (const Node &c1 : graph.getNodes()) {
    if (!isMatmulLike(c1.op) || !c1.hasStaticShape || !isSingleton(c1.index))
      continue;
    ArrayRef<int64_t> space = c1.shape;
    int64_t full = c1.numElements();
    int64_t rows = space.empty() ? 0 : full / space.back();
    // Forward from QK^T through the scores' elementwise ops and the softmax
    // reductions until the product with V.
    // Shapes compare without unit dimensions: an importer's 4-D
    // [1, heads, S, S] scores are the batch matmul's [heads, S, S].
    auto interiorFits = [&](const Node &n) {
      if (n.isElementwiseLike())
        return n.numElements() == full || n.numElements() == rows;
      return n.isReduction() && n.reduction && n.reduction->innermost &&
             squeezed(n.reduction->inputShape) == squeezed(space);
    };
    SmallVector<unsigned> interior;
    std::optional<unsigned> c2;
    bool ok = true, hasReduction = false;
    SmallVector<unsigned> worklist(c1.consumers.begin(), c1.consumers.end());
    llvm::DenseSet<unsigned> seen;
    while (ok && !worklist.empty()) {
      unsigned n = worklist.pop_back_val();
      if (!seen.insert(n).second)
        continue;
      const Node &node = graph.node(n);
      if (isMatmulLike(node.op)) {
        // The probabilities are the left operand of P·V.
        std::optional<unsigned> lhs = graph.getDefiningNode(
            cast<linalg::LinalgOp>(node.op).getDpsInputOperand(0)->get());
        ok = (!c2 || *c2 == n) && lhs && seen.contains(*lhs);
        c2 = n;
        continue;
      }
      if (!interiorFits(node) || !isSingleton(n)) {
        ok = false;
        break;
      }
      hasReduction |= node.isReduction();
      interior.push_back(n);
      worklist.append(node.consumers.begin(), node.consumers.end());
    }
    if (!ok || !c2 || !hasReduction || !isSingleton(*c2))
      continue;
    // Nothing computed inside may escape except through P·V.
    llvm::DenseSet<unsigned> inside(interior.begin(), interior.end());
    inside.insert(*c2);
    if (llvm::any_of(interior, [&](unsigned n) {
          const Node &node = graph.node(n);
          return llvm::is_contained(node.resultEscapes, true) ||
                 llvm::any_of(node.consumers, [&](unsigned c) {
                   return !inside.contains(c);
                 });
        }))
      continue;
    // Head-split transposes feeding the products, and the transpose after.
    SmallVector<unsigned> parts(interior);
    parts.push_back(*c2);
    auto addTranspose = [&](std::optional<unsigned> t) {
      if (!t || !isSingleton(*t))
        return;
      const Node &node = graph.node(*t);
      if (node.cls.category == OpCategory::injective &&
          isa<linalg::LinalgOp>(node.op) && node.consumers.size() == 1 &&
          !llvm::is_contained(node.resultEscapes, true) &&
          !llvm::is_contained(parts, *t))
        parts.push_back(*t);
    };
    for (const Node *mm : {&c1, &graph.node(*c2)})
      for (OpOperand *input :
           cast<linalg::LinalgOp>(mm->op).getDpsInputOperands())
        if (mm == &c1 || input->getOperandNumber() == 1)
          addTranspose(graph.getDefiningNode(input->get()));
    const Node &pv = graph.node(*c2);
    if (pv.consumers.size() == 1 && !llvm::is_contained(pv.resultEscapes, true))
      if (graph.node(pv.consumers.front()).cls.category ==
          OpCategory::injective)
        addTranspose(pv.consumers.front());
    SmallVector<unsigned> others;
    for (unsigned n : parts)
      others.push_back(groupOf[n]);
    tryMerge(groupOf[c1.index], others, Rule::Attention, *c2);
  }
}

void Engine::absorbPads() {
  for (const Node &pad : graph.getNodes()) {
    if (!isa<tensor::PadOp>(pad.op) || !isSingleton(pad.index) ||
        pad.consumers.size() != 1 ||
        llvm::is_contained(pad.resultEscapes, true))
      continue;
    const Node &consumer = graph.node(pad.consumers.front());
    if (!consumer.isContraction() && !consumer.isReduction())
      continue;
    tryMerge(groupOf[consumer.index], groupOf[pad.index], Rule::PadPrologue,
             pad.index);
  }
}

template <typename OpTy>
void Engine::absorbViews(Rule rule) {
  for (const Node &t : graph.getNodes()) {
    if (!isa<OpTy>(t.op) || !isSingleton(t.index) ||
        t.consumers.empty() || llvm::is_contained(t.resultEscapes, true))
      continue;
    unsigned g = groupOf[t.consumers.front()];
    if (llvm::any_of(t.consumers, [&](unsigned c) { return groupOf[c] != g; }))
      continue;
    // Read directly: through a pad, the view's tile would be the pad's
    // dynamically sized source slice, which a GPU kernel cannot hold
    // without a device-side allocation; through a reshape (the graph sees
    // through views), the reader's tile loop cannot take the view in.
    if (llvm::any_of(t.consumers, [&](unsigned c) {
          Operation *reader = graph.node(c).op;
          return isa<tensor::PadOp>(reader) ||
                 !llvm::is_contained(reader->getOperands(),
                                     t.op->getResult(0));
        }))
      continue;
    if (!isWindowAnchor(graph.node(groups[g].anchor)))
      continue;
    tryMerge(g, groupOf[t.index], rule, t.index);
  }
}

void Engine::growContractionRowEpilogues() {
  for (unsigned h = 0; h < groups.size(); ++h) {
    const GroupState &rowGroup = groups[h];
    if (!rowGroup.alive ||
        !(rowGroup.firstRule == Rule::RowReduction ||
          (rowGroup.members.size() == 1 &&
           graph.node(rowGroup.anchor).isReduction())))
      continue;
    // The group's first reduction reads the contraction group's output.
    for (unsigned m : rowGroup.members) {
      const Node &red = graph.node(m);
      if (!red.isReduction() || !red.reduction || !red.reduction->innermost)
        continue;
      Value input =
          cast<linalg::LinalgOp>(red.op).getDpsInputOperand(0)->get();
      std::optional<unsigned> def = graph.getDefiningNode(input);
      if (!def || groupOf[*def] == h)
        break;
      unsigned g = groupOf[*def];
      bool fromContraction = llvm::any_of(groups[g].members, [&](unsigned c) {
        const Node &node = graph.node(c);
        return node.isContraction() &&
               ArrayRef(node.shape) == ArrayRef(red.reduction->inputShape);
      });
      if (fromContraction)
        tryMerge(g, h, Rule::ContractionRowEpilogue, m);
      break;
    }
  }
}

void Engine::growRowReductions() {
  for (const Node &anchor : graph.getNodes()) {
    if (!anchor.isReduction() || !anchor.reduction ||
        !isSingleton(anchor.index))
      continue;
    unsigned g = groupOf[anchor.index];
    const ReductionInfo &red = *anchor.reduction;
    int64_t full = red.rows * red.cols;
    auto sameRows = [&](const Node &other) {
      return other.reduction &&
             other.reduction->inputShape == red.inputShape &&
             other.reduction->reducedDims == red.reducedDims;
    };
    auto fits = [&](const Node &node) {
      if (node.isElementwiseLike())
        return node.numElements() == full || node.numElements() == red.rows;
      return node.isReduction() && sameRows(node);
    };
    bool changed = true;
    while (changed) {
      changed = false;
      SmallVector<unsigned> candidates;
      llvm::DenseSet<unsigned> consumersOfGroup;
      for (unsigned m : groups[g].members) {
        const Node &member = graph.node(m);
        candidates.append(member.producers.begin(), member.producers.end());
        candidates.append(member.consumers.begin(), member.consumers.end());
        consumersOfGroup.insert(member.consumers.begin(),
                                member.consumers.end());
      }
      llvm::sort(candidates);
      candidates.erase(llvm::unique(candidates), candidates.end());
      for (unsigned cand : candidates) {
        const Node &node = graph.node(cand);
        if (groupOf[cand] == g || !isSingleton(cand) || !fits(node))
          continue;
        // A prologue (a producer only) must cover the full input space.
        if (!consumersOfGroup.contains(cand) &&
            (!node.isElementwiseLike() || node.numElements() != full))
          continue;
        if (tryMerge(g, groupOf[cand], Rule::RowReduction, cand)) {
          changed = true;
          break;
        }
      }
    }
  }
}

void Engine::mergeElementwiseChains() {
  for (const Node &consumer : graph.getNodes()) {
    if (!consumer.isElementwiseLike())
      continue;
    for (unsigned p : consumer.producers) {
      const Node &producer = graph.node(p);
      unsigned gc = groupOf[consumer.index], gp = groupOf[p];
      if (gc == gp || !producer.isElementwiseLike() ||
          !groupIsElementwiseLike(gc) || !groupIsElementwiseLike(gp))
        continue;
      // Same iteration space, or a smaller producer read by broadcast.
      bool sameSpace = producer.shape == consumer.shape;
      bool broadcast = producer.numElements() < consumer.numElements() &&
                       producer.shape.size() <= consumer.shape.size();
      if (!sameSpace && !broadcast)
        continue;
      tryMerge(gc, gp, Rule::ElementwiseChain, p);
    }
  }
}

void Engine::mergeConcatSlices() {
  for (const Node &insert : graph.getNodes()) {
    auto op = dyn_cast<tensor::InsertSliceOp>(insert.op);
    if (!op || !isSingleton(insert.index))
      continue;
    std::optional<unsigned> producer = graph.getDefiningNode(op.getSource());
    if (!producer)
      continue;
    tryMerge(groupOf[*producer], groupOf[insert.index], Rule::ConcatSlices,
             insert.index);
  }
}

/// The iteration space a group runs over, for sibling matching: the anchor's
/// result shape, plus the reduced dims for reductions.
static std::string iterationSpaceKey(const Node &anchor) {
  std::string key = llvm::join(
      llvm::map_range(anchor.shape, [](int64_t d) { return std::to_string(d); }),
      "x");
  if (anchor.reduction)
    key += "/r" + llvm::join(llvm::map_range(anchor.reduction->inputShape,
                                             [](int64_t d) {
                                               return std::to_string(d);
                                             }),
                             "x");
  return key;
}

void Engine::mergeSiblings() {
  // Candidate pairs: groups that read a common value, found through an index
  // from values to their readers (not by comparing every pair of groups).
  llvm::MapVector<Value, SmallVector<unsigned>> readers;
  std::vector<std::string> keys(groups.size());
  for (unsigned g = 0; g < groups.size(); ++g) {
    if (!groups[g].alive || !graph.node(groups[g].anchor).hasStaticShape)
      continue;
    keys[g] = iterationSpaceKey(graph.node(groups[g].anchor));
    SmallVector<Value> inputs, outputs;
    graph.getBoundary(groups[g].members, inputs, outputs);
    for (Value input : inputs)
      readers[input].push_back(g);
  }
  std::set<std::pair<unsigned, unsigned>> pairs;
  for (auto &[value, list] : readers)
    for (size_t a = 0; a < list.size(); ++a)
      for (size_t b = a + 1; b < list.size(); ++b) {
        unsigned i = std::min(list[a], list[b]), j = std::max(list[a], list[b]);
        const Node &ai = graph.node(groups[i].anchor);
        const Node &aj = graph.node(groups[j].anchor);
        if (i != j && ai.cls.category == aj.cls.category && keys[i] == keys[j])
          pairs.insert({i, j});
      }
  for (auto [i, j] : pairs) {
    GroupState &gi = groups[i], &gj = groups[j];
    if (!gi.alive || !gj.alive)
      continue;
    // Siblings are independent: neither feeds the other. A producer and
    // its direct consumer are no siblings; a pair joined by a path through
    // other groups is a candidate the dependency check refuses (reported).
    if (graph.hasPath(gi.members, gj.members) ||
        graph.hasPath(gj.members, gi.members)) {
      SmallVector<unsigned> both(gi.members);
      both.append(gj.members.begin(), gj.members.end());
      llvm::DenseSet<unsigned> merged(both.begin(), both.end());
      if (!graph.hasPathThroughOutside(gi.members, gj.members, merged) &&
          !graph.hasPathThroughOutside(gj.members, gi.members, merged))
        continue;
    }
    tryMerge(i, j, Rule::SiblingMerge, gj.anchor);
  }
}

//===----------------------------------------------------------------------===//
// Plan
//===----------------------------------------------------------------------===//

FusionPlan Engine::run() {
  formAttention();
  absorbPads();
  absorbViews<linalg::TransposeOp>(Rule::TransposePrologue);
  absorbViews<tensor::ExtractSliceOp>(Rule::SlicePrologue);
  growContractionEpilogues();
  growRowReductions();
  growContractionRowEpilogues();
  mergeElementwiseChains();
  mergeConcatSlices();
  mergeSiblings();

  FusionPlan plan;
  plan.rejections = std::move(rejections);
  plan.kernelsBefore = graph.size();
  for (const Node &node : graph.getNodes())
    plan.bytesBefore += graph.getBytes({node.index});

  // Groups in the order of their first op.
  SmallVector<unsigned> order;
  for (unsigned g = 0; g < groups.size(); ++g)
    if (groups[g].alive)
      order.push_back(g);
  llvm::sort(order, [&](unsigned x, unsigned y) {
    return groups[x].members.front() < groups[y].members.front();
  });
  double bandwidth = policy.target.getDramBytesPerSecond();
  for (unsigned g : order) {
    const GroupState &state = groups[g];
    PlannedGroup group;
    group.id = plan.groups.size();
    for (unsigned m : state.members)
      group.ops.push_back(graph.node(m).op);
    group.anchor = graph.node(state.anchor).op;
    group.steps = state.steps;
    if (state.lastRule) {
      group.lastRule = info(*state.lastRule).name.str();
      group.lastCandidate = graph.node(state.lastCandidate).op;
    }
    group.bytes = graph.getBytes(state.members);
    int64_t separate = 0;
    for (unsigned m : state.members)
      separate += graph.getBytes({m});
    group.bytesSaved = separate - group.bytes;
    if (state.members.size() > 1) {
      bool diagonal = state.residualJoin || state.concatSlice ||
                      graph.hasMultiOutput(state.members);
      bool vertical = state.firstRule && *state.firstRule != Rule::SiblingMerge;
      if (state.composite || (state.horizontal && (vertical || diagonal)))
        group.kind = FusionKind::composite;
      else if (state.horizontal)
        group.kind = FusionKind::horizontal;
      else if (diagonal)
        group.kind = FusionKind::diagonal;
      else
        group.kind = FusionKind::vertical;
      group.rule = state.composite      ? "attention"
                   : state.residualJoin ? "residual_join"
                                        : info(*state.firstRule).name.str();
      // A contraction merged from same-input siblings: the horizontal rule
      // formed this group's anchor.
      if (hasLocationMarker(group.anchor->getLoc(),
                            kSharedInputContractionsMarker)) {
        group.kind = group.kind == FusionKind::vertical ||
                             group.kind == FusionKind::horizontal
                         ? FusionKind::horizontal
                         : FusionKind::composite;
        group.rule = info(Rule::SharedInputContractions).name.str();
      }
      group.timeSavedUs =
          (double(group.bytesSaved) / bandwidth +
           double(state.members.size() - 1) *
               policy.target.getLaunchSeconds() -
           recomputeSeconds(state.members)) *
          1e6;
    }
    plan.bytesAfter += group.bytes;
    plan.groups.push_back(std::move(group));
  }
  plan.kernelsAfter = plan.groups.size();
  return plan;
}

FusionPlan mlir::fuse::planFusion(Block &block, const FusionPolicy &policy) {
  return Engine(block, policy).run();
}
