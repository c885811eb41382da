//===- FusionReport.cpp - JSON report and DOT picture of a fusion plan ----===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "FusionGraph.h"

#include "fuse/Codegen/CostModel/KernelCost.h"
#include "fuse/Dialect/Fuse/IR/FuseAttrs.h"
#include "fuse/Dialect/Fuse/IR/FuseInterfaces.h"
#include "fuse/Fusion/FusionEngine.h"
#include "fuse/Memory/MemoryPlanner.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::detail;

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

namespace {
/// The memory section of a function's report: the buffers between its
/// kernels (values a group makes and another group reads), planned into one
/// arena as fuse-plan-buffers will do after bufferization.
struct MemoryEstimate {
  /// Every intermediate of the unfused graph in its own buffer.
  int64_t unfusedNaive = 0;
  int64_t naive = 0, arena = 0, maxLive = 0, inPlaceBytes = 0;
  int64_t buffers = 0;
  std::string strategy;
};
} // namespace

/// Whether every op of `group` is elementwise.
static bool isElementwiseGroup(const PlannedGroup &group) {
  return llvm::all_of(group.ops, [](Operation *op) {
    return classifyOp(op).category == OpCategory::elementwise;
  });
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

/// Arena alignment of the estimate (fuse-plan-buffers' default, for GPUs).
static constexpr int64_t kMemoryAlignment = 256;

static MemoryEstimate estimateMemory(const FusionPlan &plan,
                                     int64_t alignment) {
  MemoryEstimate estimate;
  llvm::DenseMap<Operation *, unsigned> groupOf;
  for (auto [i, group] : llvm::enumerate(plan.groups))
    for (Operation *op : group.ops)
      groupOf[op] = i;

  // The groups (kernels) that read `value`, through ops that are not
  // kernels (reshapes, casts), and whether it leaves the function.
  auto readers = [&](Value value, SmallVectorImpl<unsigned> &out) {
    bool escapes = false;
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
          out.push_back(it->second);
          continue;
        }
        if (top->hasTrait<OpTrait::IsTerminator>()) {
          escapes = true;
          continue;
        }
        if (seen.insert(top).second)
          worklist.append(top->result_begin(), top->result_end());
      }
    }
    return escapes;
  };

  // Kernel order: groups topologically, ties by their first op.
  unsigned n = plan.groups.size();
  std::vector<SmallVector<unsigned>> succ(n);
  std::vector<unsigned> indegree(n, 0);
  for (auto [i, group] : llvm::enumerate(plan.groups))
    for (Operation *op : group.ops)
      for (Value result : op->getResults()) {
        SmallVector<unsigned> users;
        readers(result, users);
        for (unsigned u : users)
          if (u != i && !llvm::is_contained(succ[i], u)) {
            succ[i].push_back(u);
            ++indegree[u];
          }
      }
  auto firstOp = [&](unsigned g) {
    Operation *first = plan.groups[g].ops.front();
    for (Operation *op : plan.groups[g].ops)
      if (op->isBeforeInBlock(first))
        first = op;
    return first;
  };
  std::vector<int64_t> step(n, -1);
  SmallVector<unsigned> ready;
  for (unsigned g = 0; g < n; ++g)
    if (indegree[g] == 0)
      ready.push_back(g);
  for (int64_t t = 0; !ready.empty(); ++t) {
    auto best = llvm::min_element(ready, [&](unsigned a, unsigned b) {
      return firstOp(a)->isBeforeInBlock(firstOp(b));
    });
    unsigned g = *best;
    ready.erase(best);
    step[g] = t;
    for (unsigned s : succ[g])
      if (--indegree[s] == 0)
        ready.push_back(s);
  }
  if (llvm::is_contained(step, -1))
    return estimate; // a cycle: the engine refuses these; nothing to plan

  struct Entry {
    Value value;
    unsigned producer;
    int64_t end;
    int64_t bytes;
  };
  SmallVector<Entry> entries;
  for (auto [i, group] : llvm::enumerate(plan.groups))
    for (Operation *op : group.ops)
      for (Value result : op->getResults()) {
        std::optional<int64_t> bytes = getShapedTypeBytes(result.getType());
        if (!bytes)
          continue;
        SmallVector<unsigned> users;
        bool escapes = readers(result, users);
        // Unfused, every op's result is a buffer of its own.
        if (!escapes && !users.empty())
          estimate.unfusedNaive += *bytes;
        unsigned self = i;
        bool external =
            llvm::any_of(users, [self](unsigned u) { return u != self; });
        if (escapes || !external)
          continue;
        int64_t end = step[i];
        for (unsigned u : users)
          end = std::max(end, step[u]);
        entries.push_back({result, unsigned(i), end, *bytes});
      }
  if (entries.empty())
    return estimate;

  // In place: an elementwise kernel writes a result over a same-typed input
  // buffer it reads last.
  llvm::EquivalenceClasses<unsigned> same;
  for (unsigned e = 0; e < entries.size(); ++e)
    same.insert(e);
  llvm::DenseSet<unsigned> reused;
  for (unsigned o = 0; o < entries.size(); ++o) {
    const PlannedGroup &group = plan.groups[entries[o].producer];
    if (!isElementwiseGroup(group))
      continue;
    int64_t at = step[entries[o].producer];
    for (unsigned in = 0; in < entries.size(); ++in) {
      if (in == o || reused.contains(in) || entries[in].end != at ||
          entries[in].value.getType() != entries[o].value.getType())
        continue;
      SmallVector<unsigned> users;
      readers(entries[in].value, users);
      if (!llvm::is_contained(users, entries[o].producer))
        continue;
      same.unionSets(in, o);
      reused.insert(in);
      estimate.inPlaceBytes += entries[o].bytes;
      break;
    }
  }

  std::vector<::fuse::planner::Buffer> intervals;
  std::vector<size_t> placeOf;
  for (auto [e, entry] : llvm::enumerate(entries)) {
    intervals.push_back({step[entry.producer], entry.end, entry.bytes});
    placeOf.push_back(same.getLeaderValue(e));
  }
  ::fuse::planner::Options options;
  options.alignment = alignment;
  options.timeBudgetMs = 200;
  ::fuse::planner::Plan result = ::fuse::planner::plan(
      ::fuse::planner::mergePlaces(intervals, placeOf), options);
  estimate.naive = ::fuse::planner::computeNaive(intervals, alignment);
  estimate.buffers = entries.size();
  estimate.arena = result.arena;
  estimate.maxLive = result.maxLive;
  estimate.strategy = result.strategy;
  return estimate;
}

/// Writes a memory section.
static void writeMemory(llvm::json::OStream &json, const MemoryEstimate &m) {
  json.attributeObject("memory", [&] {
    json.attribute("buffers", m.buffers);
    json.attribute("unfused_naive", m.unfusedNaive);
    json.attribute("naive", m.naive);
    json.attribute("arena", m.arena);
    json.attribute("max_live", m.maxLive);
    json.attribute("ratio",
                   m.maxLive ? double(m.arena) / double(m.maxLive) : 1.0);
    json.attribute("in_place_bytes", m.inPlaceBytes);
    json.attribute("strategy", m.strategy.empty() ? "none" : m.strategy);
  });
}

void mlir::fuse::writeFusionReportJSON(raw_ostream &os,
                                       const FusionPolicy &policy,
                                       ArrayRef<FunctionPlan> plans) {
  llvm::json::OStream json(os, /*IndentSize=*/2);
  TargetAttr target = policy.target;
  int64_t kernelsBefore = 0, kernelsAfter = 0, bytesBefore = 0, bytesAfter = 0;
  double totalPredictedUs = 0;
  MemoryEstimate total;
  json.object([&] {
    json.attributeObject("target", [&] {
      json.attribute("name", target.getName());
      json.attribute("arch", target.getArch());
      json.attribute("sms", target.getNumSMs());
      json.attribute("smem_per_block", target.getSharedMemPerBlock());
      json.attribute("l2_bytes", target.getL2Bytes());
      json.attribute("dram_gbps", target.getDramGBps().convertToDouble());
      json.attribute("launch_us", target.getLaunchMicros().convertToDouble());
    });
    json.attributeObject("policy", [&] {
      json.attribute("max_ops_per_group", policy.maxOpsPerGroup);
      json.attribute("max_kernel_param_bytes", policy.maxKernelParamBytes);
      json.attribute("max_reductions_per_group", policy.maxReductionsPerGroup);
      json.attributeArray("disabled_rules", [&] {
        SmallVector<StringRef> names;
        for (const auto &entry : policy.disabledRules)
          names.push_back(entry.getKey());
        llvm::sort(names);
        for (StringRef name : names)
          json.value(name);
      });
    });
    json.attributeArray("functions", [&] {
      for (const FunctionPlan &fn : plans) {
        const FusionPlan &plan = fn.plan;
        kernelsBefore += plan.kernelsBefore;
        kernelsAfter += plan.kernelsAfter;
        bytesBefore += plan.bytesBefore;
        bytesAfter += plan.bytesAfter;
        json.object([&] {
          json.attribute("name", fn.name);
          json.attribute("kernels_before", plan.kernelsBefore);
          json.attribute("kernels_after", plan.kernelsAfter);
          json.attribute("bytes_before", plan.bytesBefore);
          json.attribute("bytes_after", plan.bytesAfter);
          MemoryEstimate memory = estimateMemory(plan, kMemoryAlignment);
          writeMemory(json, memory);
          total.buffers += memory.buffers;
          total.unfusedNaive += memory.unfusedNaive;
          total.naive += memory.naive;
          total.arena += memory.arena;
          total.maxLive += memory.maxLive;
          total.inPlaceBytes += memory.inPlaceBytes;
          if (total.strategy.empty() || total.strategy == memory.strategy)
            total.strategy = memory.strategy;
          else if (!memory.strategy.empty())
            total.strategy = "mixed";
          // The sum of the groups' predicted times (kernels run one after
          // the other on one stream).
          double functionPredictedUs = 0;
          json.attributeArray("groups", [&] {
            for (const PlannedGroup &group : plan.groups)
              json.object([&] {
                json.attribute("id", int64_t(group.id));
                json.attribute("kind", stringifyFusionKind(group.kind));
                json.attribute("rule", group.rule);
                json.attribute("anchor", describeOp(group.anchor));
                json.attributeArray("ops", [&] {
                  for (Operation *op : group.ops)
                    json.value(describeOp(op));
                });
                json.attributeArray("steps", [&] {
                  for (const std::string &step : group.steps)
                    json.value(step);
                });
                json.attribute("bytes", group.bytes);
                json.attribute("bytes_saved", group.bytesSaved);
                json.attribute("time_saved_us", group.timeSavedUs);
                Roofline roofline = rooflineOf(group, target);
                json.attribute("flops", roofline.flops);
                json.attribute("intensity", roofline.intensity);
                json.attribute("bound",
                               roofline.memoryBound ? "memory" : "compute");
                auto schedule = fn.schedules.find(int64_t(group.id));
                if (schedule == fn.schedules.end())
                  return;
                LoweringConfigAttr config = schedule->second.config;
                json.attributeObject("lowering_config", [&] {
                  json.attribute("schedule", config.getSchedule());
                  json.attributeArray("tile", [&] {
                    for (int64_t size : config.getTile())
                      json.value(size);
                  });
                  json.attribute("threads", config.getThreads());
                  const KernelShape &shape = schedule->second.shape;
                  json.attribute("blocks", shape.blocks);
                  json.attribute("tile_input_bytes", shape.tileInputBytes);
                  json.attribute("tile_shared_bytes", shape.tileSharedBytes);
                  json.attribute("instruction", config.getInstruction());
                  json.attribute("precision", config.getPrecision());
                  if (int64_t stages = config.getPipelineStages()) {
                    json.attribute("stages", stages);
                    json.attribute("staging_bytes", shape.stagingBytes);
                  }
                  // Split-K: the blocks each tile's reduction is split over
                  // (`blocks` counts tiles).
                  if (config.getSplitSlices() > 1)
                    json.attribute("split_k", config.getSplitSlices());
                });
                KernelCost predicted =
                    predictKernelCost(schedule->second.shape, target);
                functionPredictedUs += predicted.us;
                json.attributeObject("predicted", [&] {
                  json.attribute("us", predicted.us);
                  json.attribute("bound", predicted.bound);
                  json.attribute("blocks_per_sm", predicted.blocksPerSM);
                  json.attribute("warps_per_sm", predicted.warpsPerSM);
                  json.attribute("loads_per_mac", predicted.loadsPerMac);
                  json.attribute("l2_bytes", predicted.l2Bytes);
                });
              });
          });
          if (!fn.schedules.empty()) {
            json.attribute("predicted_us", functionPredictedUs);
            totalPredictedUs += functionPredictedUs;
          }
          json.attributeArray("rejected", [&] {
            for (const FusionRejection &r : plan.rejections)
              json.object([&] {
                json.attribute("rule", r.rule);
                json.attribute("check", r.check);
                json.attribute("anchor", describeOp(r.anchor));
                json.attribute("candidate", describeOp(r.candidate));
                json.attribute("reason", r.reason);
              });
          });
          json.attributeArray("left_alone", [&] {
            for (const PlannedGroup &group : plan.groups) {
              if (group.ops.size() != 1)
                continue;
              json.object([&] {
                json.attribute("group", int64_t(group.id));
                json.attribute("op", describeOp(group.ops.front()));
                json.attributeArray("reasons", [&] {
                  for (const std::string &reason :
                       reasonsLeftAlone(plan, group.ops.front()))
                    json.value(reason);
                });
              });
            }
          });
        });
      }
    });
    json.attributeObject("totals", [&] {
      json.attribute("kernels_before", kernelsBefore);
      json.attribute("kernels_after", kernelsAfter);
      json.attribute("bytes_before", bytesBefore);
      json.attribute("bytes_after", bytesAfter);
      json.attribute("predicted_us", totalPredictedUs);
    });
    // Functions run one at a time: each has its own arena.
    writeMemory(json, total);
  });
  os << "\n";
}

static StringRef kindColor(FusionKind kind) {
  switch (kind) {
  case FusionKind::single:
    return "#eeeeee";
  case FusionKind::vertical:
    return "#cfe2ff";
  case FusionKind::horizontal:
    return "#d1f0d1";
  case FusionKind::diagonal:
    return "#ffe0b3";
  case FusionKind::composite:
    return "#e8d5f5";
  }
  return "#ffffff";
}

static std::string escapeDot(StringRef text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\')
      out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

void mlir::fuse::writeFusionGraphDOT(raw_ostream &os,
                                     ArrayRef<FunctionPlan> plans) {
  os << "digraph fuse {\n  rankdir=TB;\n  node [shape=box, style=filled, "
        "fillcolor=white, fontname=\"Helvetica\", fontsize=10];\n";
  unsigned nextId = 0;
  for (auto [fnIndex, fn] : llvm::enumerate(plans)) {
    llvm::DenseMap<Operation *, unsigned> ids;
    os << "  subgraph cluster_fn" << fnIndex << " {\n    label=\"@"
       << escapeDot(fn.name) << "\";\n";
    for (const PlannedGroup &group : fn.plan.groups) {
      os << "    subgraph cluster_g" << fnIndex << "_" << group.id
         << " {\n      style=filled; color=\"#888888\"; fillcolor=\""
         << kindColor(group.kind) << "\";\n      label=\"group " << group.id
         << ": " << stringifyFusionKind(group.kind);
      if (!group.rule.empty())
        os << " (" << escapeDot(group.rule) << ")";
      os << "\";\n";
      for (Operation *op : group.ops) {
        unsigned id = nextId++;
        ids[op] = id;
        std::string shape;
        if (op->getNumResults() > 0) {
          llvm::raw_string_ostream s(shape);
          s << op->getResult(0).getType();
        }
        os << "      n" << id << " [label=\""
           << escapeDot(op->getName().getStringRef()) << "\\n"
           << escapeDot(shape) << "\"];\n";
      }
      os << "    }\n";
    }
    os << "  }\n";
    // Dataflow edges, looking through ops cloned into groups (views, fills).
    for (const PlannedGroup &group : fn.plan.groups)
      for (Operation *op : group.ops) {
        llvm::SetVector<Value> worklist(op->operand_begin(), op->operand_end());
        llvm::SetVector<unsigned> sources;
        for (unsigned i = 0; i < worklist.size(); ++i) {
          Operation *def = worklist[i].getDefiningOp();
          if (!def)
            continue;
          if (auto it = ids.find(def); it != ids.end())
            sources.insert(it->second);
          else if (isCloneableIntoGroup(def))
            worklist.insert(def->operand_begin(), def->operand_end());
        }
        for (unsigned source : sources)
          os << "  n" << source << " -> n" << ids[op] << ";\n";
      }
  }
  os << "}\n";
}
