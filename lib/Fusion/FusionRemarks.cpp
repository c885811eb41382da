//===- FusionRemarks.cpp - every fusion decision as an MLIR remark --------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// Builds the remarks of a function's fusion plan (fuse/Fusion/FusionRemarks.h
// lists them) and hands them to the context's remark engine:
// `fuse-opt --remarks-filter=fuse --remark-format=emitRemark` prints them as
// diagnostics (what the decision tests check with expected-remark),
// `--remark-format=yaml` writes them to a file. The numbers a report needs
// beyond the engine's decisions (each group's roofline, the memory left
// between kernels, why an op stayed alone) are worked out here, so that the
// report is made from the remarks alone.
//
//===----------------------------------------------------------------------===//

#include "fuse/Fusion/FusionRemarks.h"

#include "FusionGraph.h"

#include "fuse/Dialect/Fuse/IR/FuseInterfaces.h"
#include "fuse/Memory/MemoryPlanner.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::detail;

using Arg = FusionRemark::Arg;

/// Why a single-op group stayed alone: the refusals that name it.
static SmallVector<std::string> reasonsLeftAlone(const FusionPlan &plan,
                                                 Operation *op) {
  SmallVector<std::string> reasons;
  for (const FusionRejection &r : plan.rejections)
    if (r.candidate == op || r.anchor == op)
      reasons.push_back(
          llvm::formatv("{0} refused by {1}: {2}", r.rule, r.check, r.reason));
  if (reasons.empty()) {
    OpClassification cls = classifyOp(op);
    reasons.push_back(llvm::formatv("no fusion rule matches this {0} op and "
                                    "its neighbours",
                                    stringifyOpCategory(cls.category)));
  }
  return reasons;
}

/// The group's place on the roofline: its FLOPs (the ops' own counts; an op
/// whose count is unknown adds none), FLOPs per byte of its global traffic,
/// and whether that is below the target's ridge point for the anchor's
/// element type (memory-bound) or not (compute-bound).
struct Roofline {
  int64_t flops = 0;
  double intensity = 0;
  bool memoryBound = true;
};

static Roofline rooflineOf(const PlannedGroup &group, TargetAttr target) {
  Roofline r;
  for (Operation *op : group.ops)
    r.flops += classifyOp(op).flops.value_or(0);
  if (group.bytes > 0)
    r.intensity = double(r.flops) / double(group.bytes);
  Type elem = group.anchor && group.anchor->getNumResults()
                  ? getElementTypeOrSelf(group.anchor->getResult(0).getType())
                  : Float32Type::get(target.getContext());
  r.memoryBound = r.intensity < target.getRidgeFlopsPerByte(elem);
  return r;
}

//===----------------------------------------------------------------------===//
// Arguments whose attribute holds the exact value
//===----------------------------------------------------------------------===//

Arg mlir::fuse::makeIntArg(MLIRContext *context, StringRef key, int64_t value) {
  Arg arg(key, value);
  arg.attr = IntegerAttr::get(IntegerType::get(context, 64), value);
  return arg;
}

Arg mlir::fuse::makeFloatArg(MLIRContext *context, StringRef key,
                             double value) {
  Arg arg(key, value);
  arg.attr = FloatAttr::get(Float64Type::get(context), value);
  return arg;
}

Arg mlir::fuse::makeListArg(MLIRContext *context, StringRef key,
                            ArrayRef<std::string> items) {
  Arg arg(key, llvm::join(items, ", "));
  SmallVector<Attribute> attrs;
  for (const std::string &item : items)
    attrs.push_back(StringAttr::get(context, item));
  arg.attr = ArrayAttr::get(context, attrs);
  return arg;
}

//===----------------------------------------------------------------------===//
// The remarks of a plan
//===----------------------------------------------------------------------===//

static constexpr StringLiteral kCategory = "fuse";

/// Numbers every op of the plan (groups in order, each group's ops in
/// order): the nodes of the fused graph.
static llvm::DenseMap<Operation *, int64_t> numberOps(const FusionPlan &plan) {
  llvm::DenseMap<Operation *, int64_t> ids;
  for (const PlannedGroup &group : plan.groups)
    for (Operation *op : group.ops)
      ids.try_emplace(op, int64_t(ids.size()));
  return ids;
}

/// The group's ops as nodes of the fused graph: each op's node number, name,
/// first result type and the nodes it reads, looking through ops that are
/// cloned into groups (views, fills).
static Arg dataflowArg(MLIRContext *context, const PlannedGroup &group,
                       const llvm::DenseMap<Operation *, int64_t> &ids) {
  SmallVector<Attribute> nodes;
  SmallVector<std::string> text;
  for (Operation *op : group.ops) {
    llvm::SetVector<Value> worklist(op->operand_begin(), op->operand_end());
    llvm::SetVector<int64_t> sources;
    for (unsigned i = 0; i < worklist.size(); ++i) {
      Operation *def = worklist[i].getDefiningOp();
      if (!def)
        continue;
      if (auto it = ids.find(def); it != ids.end())
        sources.insert(it->second);
      else if (isCloneableIntoGroup(def))
        worklist.insert(def->operand_begin(), def->operand_end());
    }
    int64_t id = ids.lookup(op);
    NamedAttrList fields;
    fields.append("node", IntegerAttr::get(IntegerType::get(context, 64), id));
    fields.append("op", StringAttr::get(context, op->getName().getStringRef()));
    if (op->getNumResults() > 0)
      fields.append("type", TypeAttr::get(op->getResult(0).getType()));
    fields.append("inputs",
                  DenseI64ArrayAttr::get(context, sources.getArrayRef()));
    nodes.push_back(fields.getDictionary(context));
    std::string line =
        llvm::formatv("n{0} {1}", id, op->getName().getStringRef()).str();
    for (auto [i, source] : llvm::enumerate(sources))
      line += llvm::formatv("{0}n{1}", i ? " " : " <- ", source).str();
    text.push_back(std::move(line));
  }
  Arg arg("dataflow", llvm::join(text, "; "));
  arg.attr = ArrayAttr::get(context, nodes);
  return arg;
}

/// What a `group` and an `alone` remark say of the group: its ops and
/// numbers, its place on the roofline, and, where it was lowered on a copy,
/// its lowering config and predicted kernel time.
static void addGroupArgs(FusionRemark &remark, const PlannedGroup &group,
                         const FunctionPlan &fn, TargetAttr target,
                         const llvm::DenseMap<Operation *, int64_t> &ids) {
  MLIRContext *context = target.getContext();
  SmallVector<std::string> ops;
  for (Operation *op : group.ops)
    ops.push_back(describeOp(op));
  remark.insert(makeIntArg(context, "group", group.id));
  remark.insert(Arg("rule", group.rule));
  remark.insert(Arg("kind", stringifyFusionKind(group.kind)));
  remark.insert(Arg("anchor", describeOp(group.anchor)));
  remark.insert(makeListArg(context, "ops", ops));
  remark.insert(makeIntArg(context, "bytes", group.bytes));
  remark.insert(makeIntArg(context, "bytes_saved", group.bytesSaved));
  remark.insert(makeFloatArg(context, "time_saved_us", group.timeSavedUs));
  Roofline roofline = rooflineOf(group, target);
  remark.insert(makeIntArg(context, "flops", roofline.flops));
  remark.insert(makeFloatArg(context, "intensity", roofline.intensity));
  remark.insert(Arg("bound", roofline.memoryBound ? "memory" : "compute"));
  if (auto schedule = fn.schedules.find(int64_t(group.id));
      schedule != fn.schedules.end()) {
    const KernelShape &shape = schedule->second.shape;
    remark.insert(Arg("lowering_config", Attribute(schedule->second.config)));
    remark.insert(makeIntArg(context, "blocks", shape.blocks));
    remark.insert(
        makeIntArg(context, "tile_input_bytes", shape.tileInputBytes));
    remark.insert(
        makeIntArg(context, "tile_shared_bytes", shape.tileSharedBytes));
    remark.insert(makeIntArg(context, "staging_bytes", shape.stagingBytes));
    KernelCost predicted = predictKernelCost(shape, target);
    remark.insert(makeFloatArg(context, "predicted_us", predicted.us));
    remark.insert(Arg("predicted_bound", predicted.bound));
    remark.insert(makeIntArg(context, "blocks_per_sm", predicted.blocksPerSM));
    remark.insert(makeIntArg(context, "warps_per_sm", predicted.warpsPerSM));
    remark.insert(
        makeFloatArg(context, "loads_per_mac", predicted.loadsPerMac));
    remark.insert(makeIntArg(context, "predicted_l2_bytes", predicted.l2Bytes));
  }
  remark.insert(dataflowArg(context, group, ids));
}

void mlir::fuse::buildFusionRemarks(const FunctionPlan &fn, TargetAttr target,
                                    std::vector<FusionRemark> &out) {
  MLIRContext *context = target.getContext();
  const FusionPlan &plan = fn.plan;
  llvm::DenseMap<Operation *, int64_t> ids = numberOps(plan);
  auto opts = [&](StringRef name, StringRef subCategory) {
    return remark::RemarkOpts::name(name)
        .category(kCategory)
        .subCategory(subCategory)
        .function(fn.name);
  };
  for (const PlannedGroup &group : plan.groups) {
    if (group.ops.size() < 2) {
      // An op that stays a kernel of its own, and why.
      Operation *op = group.ops.front();
      FusionRemark &alone = out.emplace_back(
          remark::RemarkKind::RemarkAnalysis, DiagnosticSeverity::Remark,
          op->getLoc(), opts("alone", "left_alone"));
      alone.insert(Arg("Remark", llvm::formatv("group {0}: {1} runs alone",
                                               group.id, describeOp(op))
                                     .str()));
      addGroupArgs(alone, group, fn, target, ids);
      alone.insert(makeListArg(context, "reasons", reasonsLeftAlone(plan, op)));
      continue;
    }
    FusionRemark &formed = out.emplace_back(
        remark::RemarkKind::RemarkPassed, DiagnosticSeverity::Remark,
        group.anchor->getLoc(), opts("group", group.rule));
    formed.insert(Arg("Remark", llvm::formatv("group {0}: {1} ops in one "
                                              "kernel",
                                              group.id, group.ops.size())
                                    .str()));
    addGroupArgs(formed, group, fn, target, ids);
    // Each merge: the rule and the op it took in.
    for (auto [rule, candidate] : group.merges) {
      std::string op = describeOp(candidate);
      FusionRemark &merge = out.emplace_back(
          remark::RemarkKind::RemarkPassed, DiagnosticSeverity::Remark,
          group.anchor->getLoc(), opts("merge", rule));
      merge.insert(
          Arg("Remark", llvm::formatv("{0} took in {1}", rule, op).str()));
      merge.insert(makeIntArg(context, "group", group.id));
      merge.insert(Arg("rule", rule));
      merge.insert(Arg("candidate", op));
    }
  }
  for (const FusionRejection &rejection : plan.rejections) {
    FusionRemark &refused = out.emplace_back(
        remark::RemarkKind::RemarkMissed, DiagnosticSeverity::Remark,
        rejection.candidate->getLoc(), opts("refused", rejection.check));
    refused.insert(Arg("Remark", llvm::formatv("{0} refused by {1}",
                                               rejection.rule, rejection.check)
                                     .str()));
    refused.insert(Arg("rule", rejection.rule));
    refused.insert(Arg("check", rejection.check));
    refused.insert(Arg("anchor", describeOp(rejection.anchor)));
    refused.insert(Arg("candidate", describeOp(rejection.candidate)));
    refused.insert(Arg("Reason", rejection.reason));
  }
  // The function's totals and the buffers left between its kernels.
  PlanMemory memory = estimatePlanMemory(plan, kMemoryAlignment);
  Location loc = fn.function ? fn.function->getLoc() : UnknownLoc::get(context);
  FusionRemark &summary = out.emplace_back(remark::RemarkKind::RemarkAnalysis,
                                           DiagnosticSeverity::Remark, loc,
                                           opts("function", "plan"));
  summary.insert(
      Arg("Remark", llvm::formatv("{0} kernels fused into {1}; {2} bytes moved "
                                  "unfused, {3} fused",
                                  plan.kernelsBefore, plan.kernelsAfter,
                                  plan.bytesBefore, plan.bytesAfter)
                        .str()));
  summary.insert(makeIntArg(context, "kernels_before", plan.kernelsBefore));
  summary.insert(makeIntArg(context, "kernels_after", plan.kernelsAfter));
  summary.insert(makeIntArg(context, "bytes_before", plan.bytesBefore));
  summary.insert(makeIntArg(context, "bytes_after", plan.bytesAfter));
  summary.insert(makeIntArg(context, "buffers", memory.buffers));
  summary.insert(makeIntArg(context, "unfused_naive", memory.unfusedNaive));
  summary.insert(makeIntArg(context, "naive", memory.naive));
  summary.insert(makeIntArg(context, "arena", memory.arena));
  summary.insert(makeIntArg(context, "max_live", memory.maxLive));
  summary.insert(makeIntArg(context, "in_place_bytes", memory.inPlaceBytes));
  summary.insert(
      Arg("strategy", memory.strategy.empty() ? "none" : memory.strategy));
  summary.insert(makeIntArg(context, "weights", memory.weights));
  summary.insert(makeIntArg(context, "inputs", memory.inputs));
  summary.insert(makeIntArg(context, "outputs", memory.outputs));
  summary.insert(
      makeIntArg(context, "order_max_live_source", plan.maxLiveSourceOrder));
  summary.insert(
      makeIntArg(context, "order_max_live", plan.maxLiveKernelOrder));
  summary.insert(makeIntArg(context, "order_bound", plan.maxLiveAnyOrderBound));
  summary.insert(Arg("order", plan.kernelOrderStrategy.empty()
                                  ? "none"
                                  : plan.kernelOrderStrategy));
}

bool mlir::fuse::fusionRemarksEnabled(MLIRContext *context) {
  if (!context->getRemarkEngine())
    return false;
  // The engine answers through the remark it starts: an empty one where
  // its filters refuse the category. A started probe is dropped unreported
  // (replaced by an empty remark, whose destruction reports nothing).
  Location loc = UnknownLoc::get(context);
  auto opts = remark::RemarkOpts::name("probe").category(kCategory);
  for (auto start : {&remark::passed, &remark::missed, &remark::analysis}) {
    remark::detail::InFlightRemark probe = start(loc, opts);
    bool taken = static_cast<bool>(probe);
    probe = remark::detail::InFlightRemark();
    if (taken)
      return true;
  }
  return false;
}

void mlir::fuse::streamFusionRemarks(MLIRContext *context,
                                     ArrayRef<FusionRemark> remarks) {
  if (!fusionRemarksEnabled(context))
    return;
  for (const FusionRemark &remark : remarks) {
    StringRef subCategory = remark.getCombinedCategoryName();
    subCategory.consume_front(remark.getCategoryName());
    subCategory.consume_front(":");
    remark::RemarkOpts opts = remark::RemarkOpts::name(remark.getRemarkName())
                                  .category(remark.getCategoryName())
                                  .subCategory(subCategory)
                                  .function(remark.getFunction());
    Location loc = remark.getLocation();
    auto inFlight = [&] {
      switch (remark.getRemarkType()) {
      case llvm::remarks::Type::Passed:
        return remark::passed(loc, opts);
      case llvm::remarks::Type::Missed:
        return remark::missed(loc, opts);
      default:
        return remark::analysis(loc, opts);
      }
    }();
    for (const Arg &arg : remark.getArgs())
      inFlight << arg;
  }
}
