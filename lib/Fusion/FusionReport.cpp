//===- FusionReport.cpp - the report and the picture, from the remarks ----===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// FusionReportBuilder consumes fusion remarks (fuse/Fusion/FusionRemarks.h)
// and writes the JSON report and the DOT picture from them alone: numbers,
// lists and configs come from the attributes the remarks' arguments carry.
//
//===----------------------------------------------------------------------===//

#include "fuse/Fusion/FusionRemarks.h"

#include "fuse/Dialect/Fuse/IR/FuseAttrs.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::fuse;

using Arg = FusionRemark::Arg;

/// What the builder keeps of one function's remarks.
struct FusionReportBuilder::Function {
  std::string name;
  struct Group {
    SmallVector<Arg> args;
    /// An `alone` remark: the op stays a kernel of its own.
    bool alone = false;
    /// The merges, in order: "rule: op".
    SmallVector<std::string> steps;
  };
  std::vector<Group> groups;
  std::vector<SmallVector<Arg>> refusals;
  /// The `function` remark's arguments.
  SmallVector<Arg> summary;
};

FusionReportBuilder::FusionReportBuilder() = default;
FusionReportBuilder::~FusionReportBuilder() = default;

//===----------------------------------------------------------------------===//
// Reading arguments
//===----------------------------------------------------------------------===//

static const Arg *findArg(ArrayRef<Arg> args, StringRef key) {
  for (const Arg &arg : args)
    if (arg.key == key)
      return &arg;
  return nullptr;
}

static Attribute attrOf(ArrayRef<Arg> args, StringRef key) {
  const Arg *arg = findArg(args, key);
  return arg ? arg->getAttribute() : Attribute();
}

static int64_t intOf(ArrayRef<Arg> args, StringRef key) {
  auto attr = dyn_cast_or_null<IntegerAttr>(attrOf(args, key));
  return attr ? attr.getInt() : 0;
}

static double floatOf(ArrayRef<Arg> args, StringRef key) {
  auto attr = dyn_cast_or_null<FloatAttr>(attrOf(args, key));
  return attr ? attr.getValueAsDouble() : 0.0;
}

static StringRef textOf(ArrayRef<Arg> args, StringRef key) {
  const Arg *arg = findArg(args, key);
  return arg ? StringRef(arg->val) : StringRef();
}

static SmallVector<StringRef> listOf(ArrayRef<Arg> args, StringRef key) {
  SmallVector<StringRef> items;
  if (auto list = dyn_cast_or_null<ArrayAttr>(attrOf(args, key)))
    for (Attribute item : list)
      if (auto text = dyn_cast<StringAttr>(item))
        items.push_back(text.getValue());
  return items;
}

//===----------------------------------------------------------------------===//
// Consuming remarks
//===----------------------------------------------------------------------===//

void FusionReportBuilder::consume(const FusionRemark &remark) {
  if (remark.getCategoryName() != "fuse")
    return;
  if (!pending) {
    pending = std::make_unique<Function>();
    pending->name = remark.getFunction().str();
  }
  StringRef name = remark.getRemarkName();
  ArrayRef<Arg> args = remark.getArgs();
  if (name == "group" || name == "alone") {
    Function::Group &group = pending->groups.emplace_back();
    group.args.assign(args.begin(), args.end());
    group.alone = name == "alone";
  } else if (name == "merge") {
    int64_t id = intOf(args, "group");
    for (Function::Group &group : llvm::reverse(pending->groups))
      if (intOf(group.args, "group") == id) {
        group.steps.push_back(
            (textOf(args, "rule") + ": " + textOf(args, "candidate")).str());
        break;
      }
  } else if (name == "refused") {
    pending->refusals.emplace_back(args.begin(), args.end());
  } else if (name == "function") {
    pending->summary.assign(args.begin(), args.end());
    functions.push_back(std::move(*pending));
    pending.reset();
  }
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

namespace {
/// The memory section of a function's report: the buffers between its
/// kernels, planned into one arena as fuse-plan-buffers will do.
struct MemoryEstimate {
  int64_t buffers = 0, unfusedNaive = 0, naive = 0, arena = 0, maxLive = 0,
          inPlaceBytes = 0;
  /// "" where nothing was planned.
  std::string strategy;
  /// The kernel order: max-live of the buffers between kernels (before
  /// in-place reuse) in the source order and in the order chosen, and the
  /// heuristic that chose it ("" where no order was chosen).
  int64_t orderMaxLiveSource = 0, orderMaxLive = 0, orderBound = 0;
  /// The footprint besides the arena (PlanMemory).
  int64_t weights = 0, inputs = 0, outputs = 0;
  std::string order;
};
} // namespace

static MemoryEstimate memoryOf(ArrayRef<Arg> summary) {
  MemoryEstimate m;
  m.buffers = intOf(summary, "buffers");
  m.unfusedNaive = intOf(summary, "unfused_naive");
  m.naive = intOf(summary, "naive");
  m.arena = intOf(summary, "arena");
  m.maxLive = intOf(summary, "max_live");
  m.inPlaceBytes = intOf(summary, "in_place_bytes");
  StringRef strategy = textOf(summary, "strategy");
  m.strategy = strategy == "none" ? "" : strategy.str();
  m.orderMaxLiveSource = intOf(summary, "order_max_live_source");
  m.orderMaxLive = intOf(summary, "order_max_live");
  m.orderBound = intOf(summary, "order_bound");
  m.weights = intOf(summary, "weights");
  m.inputs = intOf(summary, "inputs");
  m.outputs = intOf(summary, "outputs");
  StringRef order = textOf(summary, "order");
  m.order = order == "none" ? "" : order.str();
  return m;
}

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
    json.attributeObject("kernel_order", [&] {
      json.attribute("strategy", m.order.empty() ? "none" : m.order);
      json.attribute("max_live_source_order", m.orderMaxLiveSource);
      json.attribute("max_live", m.orderMaxLive);
      json.attribute("bound", m.orderBound);
    });
    // What the function needs while it runs: a compiled model keeps the
    // weights and the arena (its workspace); the caller gives the inputs
    // and the results' buffers.
    json.attributeObject("footprint", [&] {
      json.attribute("weights", m.weights);
      json.attribute("arena", m.arena);
      json.attribute("inputs", m.inputs);
      json.attribute("outputs", m.outputs);
      json.attribute("model", m.weights + m.arena);
      json.attribute("total", m.weights + m.arena + m.inputs + m.outputs);
    });
  });
}

/// Writes one group; returns its predicted time, if it has one.
static std::optional<double>
writeGroup(llvm::json::OStream &json,
           const FusionReportBuilder::Function::Group &group) {
  ArrayRef<Arg> args = group.args;
  std::optional<double> predictedUs;
  json.object([&] {
    json.attribute("id", intOf(args, "group"));
    json.attribute("kind", textOf(args, "kind"));
    json.attribute("rule", textOf(args, "rule"));
    json.attribute("anchor", textOf(args, "anchor"));
    json.attributeArray("ops", [&] {
      for (StringRef op : listOf(args, "ops"))
        json.value(op);
    });
    json.attributeArray("steps", [&] {
      for (const std::string &step : group.steps)
        json.value(step);
    });
    json.attribute("bytes", intOf(args, "bytes"));
    json.attribute("bytes_saved", intOf(args, "bytes_saved"));
    json.attribute("time_saved_us", floatOf(args, "time_saved_us"));
    json.attribute("flops", intOf(args, "flops"));
    json.attribute("intensity", floatOf(args, "intensity"));
    json.attribute("bound", textOf(args, "bound"));
    auto config =
        dyn_cast_or_null<LoweringConfigAttr>(attrOf(args, "lowering_config"));
    if (!config)
      return;
    json.attributeObject("lowering_config", [&] {
      json.attribute("schedule", config.getSchedule());
      json.attributeArray("tile", [&] {
        for (int64_t size : config.getTile())
          json.value(size);
      });
      json.attribute("threads", config.getThreads());
      json.attribute("blocks", intOf(args, "blocks"));
      json.attribute("tile_input_bytes", intOf(args, "tile_input_bytes"));
      json.attribute("tile_shared_bytes", intOf(args, "tile_shared_bytes"));
      json.attribute("instruction", config.getInstruction());
      json.attribute("precision", config.getPrecision());
      if (int64_t stages = config.getPipelineStages()) {
        json.attribute("stages", stages);
        json.attribute("staging_bytes", intOf(args, "staging_bytes"));
      }
      // Split-K: the blocks each tile's reduction is split over (`blocks`
      // counts tiles).
      if (config.getSplitSlices() > 1)
        json.attribute("split_k", config.getSplitSlices());
      // Streamed attention: keys per chunk.
      if (config.getKeyChunk())
        json.attribute("key_chunk", config.getKeyChunk());
      // The CPU schedule, where one was chosen (a cpu-target).
      if (CpuScheduleAttr cpu = config.getCpu())
        json.attributeObject("cpu", [&] {
          json.attribute("kind", cpu.getKind());
          json.attribute("mr", cpu.getMr());
          json.attribute("nr", cpu.getNr());
          json.attribute("kc", cpu.getKc());
          json.attribute("k_block", cpu.getKBlock());
        });
    });
    predictedUs = floatOf(args, "predicted_us");
    json.attributeObject("predicted", [&] {
      json.attribute("us", *predictedUs);
      json.attribute("bound", textOf(args, "predicted_bound"));
      json.attribute("blocks_per_sm", intOf(args, "blocks_per_sm"));
      json.attribute("warps_per_sm", intOf(args, "warps_per_sm"));
      json.attribute("loads_per_mac", floatOf(args, "loads_per_mac"));
      json.attribute("l2_bytes", intOf(args, "predicted_l2_bytes"));
    });
  });
  return predictedUs;
}

void FusionReportBuilder::writeJSON(raw_ostream &os,
                                    const FusionPolicy &policy) const {
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
    if (CpuTargetAttr cpu = policy.cpuTarget)
      json.attributeObject("cpu_target", [&] {
        json.attribute("name", cpu.getName());
        json.attribute("vector_bits", cpu.getVectorBits());
        json.attribute("vector_registers", cpu.getVectorRegisters());
        json.attribute("l1_bytes", cpu.getL1Bytes());
        json.attribute("l2_bytes", cpu.getL2Bytes());
        json.attribute("l3_bytes", cpu.getL3Bytes());
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
      for (const Function &fn : functions) {
        ArrayRef<Arg> summary = fn.summary;
        kernelsBefore += intOf(summary, "kernels_before");
        kernelsAfter += intOf(summary, "kernels_after");
        bytesBefore += intOf(summary, "bytes_before");
        bytesAfter += intOf(summary, "bytes_after");
        json.object([&] {
          json.attribute("name", fn.name);
          json.attribute("kernels_before", intOf(summary, "kernels_before"));
          json.attribute("kernels_after", intOf(summary, "kernels_after"));
          json.attribute("bytes_before", intOf(summary, "bytes_before"));
          json.attribute("bytes_after", intOf(summary, "bytes_after"));
          MemoryEstimate memory = memoryOf(summary);
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
          total.orderMaxLiveSource += memory.orderMaxLiveSource;
          total.orderMaxLive += memory.orderMaxLive;
          total.orderBound += memory.orderBound;
          total.weights += memory.weights;
          total.inputs += memory.inputs;
          total.outputs += memory.outputs;
          if (total.order.empty() || total.order == memory.order)
            total.order = memory.order;
          else if (!memory.order.empty())
            total.order = "mixed";
          // The sum of the groups' predicted times (kernels run one after
          // the other on one stream), where the groups were lowered.
          std::optional<double> functionPredictedUs;
          json.attributeArray("groups", [&] {
            for (const Function::Group &group : fn.groups)
              if (std::optional<double> us = writeGroup(json, group))
                functionPredictedUs = functionPredictedUs.value_or(0) + *us;
          });
          if (functionPredictedUs) {
            json.attribute("predicted_us", *functionPredictedUs);
            totalPredictedUs += *functionPredictedUs;
          }
          json.attributeArray("rejected", [&] {
            for (ArrayRef<Arg> refusal : fn.refusals)
              json.object([&] {
                json.attribute("rule", textOf(refusal, "rule"));
                json.attribute("check", textOf(refusal, "check"));
                json.attribute("anchor", textOf(refusal, "anchor"));
                json.attribute("candidate", textOf(refusal, "candidate"));
                json.attribute("reason", textOf(refusal, "Reason"));
              });
          });
          json.attributeArray("left_alone", [&] {
            for (const Function::Group &group : fn.groups) {
              if (!group.alone)
                continue;
              SmallVector<StringRef> ops = listOf(group.args, "ops");
              json.object([&] {
                json.attribute("group", intOf(group.args, "group"));
                json.attribute("op", ops.empty() ? StringRef() : ops.front());
                json.attributeArray("reasons", [&] {
                  for (StringRef reason : listOf(group.args, "reasons"))
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

//===----------------------------------------------------------------------===//
// DOT
//===----------------------------------------------------------------------===//

static StringRef kindColor(StringRef kind) {
  return llvm::StringSwitch<StringRef>(kind)
      .Case("single", "#eeeeee")
      .Case("vertical", "#cfe2ff")
      .Case("horizontal", "#d1f0d1")
      .Case("diagonal", "#ffe0b3")
      .Case("composite", "#e8d5f5")
      .Default("#ffffff");
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

/// The nodes of a group's `dataflow` argument.
static SmallVector<DictionaryAttr> nodesOf(ArrayRef<Arg> args) {
  SmallVector<DictionaryAttr> nodes;
  if (auto list = dyn_cast_or_null<ArrayAttr>(attrOf(args, "dataflow")))
    for (Attribute node : list)
      if (auto fields = dyn_cast<DictionaryAttr>(node))
        nodes.push_back(fields);
  return nodes;
}

static int64_t nodeNumber(DictionaryAttr node) {
  auto number = node.getAs<IntegerAttr>("node");
  return number ? number.getInt() : 0;
}

void FusionReportBuilder::writeDOT(raw_ostream &os) const {
  os << "digraph fuse {\n  rankdir=TB;\n  node [shape=box, style=filled, "
        "fillcolor=white, fontname=\"Helvetica\", fontsize=10];\n";
  // Nodes are numbered across functions: a function's node k is n(base+k).
  int64_t base = 0;
  for (auto [fnIndex, fn] : llvm::enumerate(functions)) {
    int64_t nodes = 0;
    os << "  subgraph cluster_fn" << fnIndex << " {\n    label=\"@"
       << escapeDot(fn.name) << "\";\n";
    for (const Function::Group &group : fn.groups) {
      StringRef kind = textOf(group.args, "kind");
      StringRef rule = textOf(group.args, "rule");
      os << "    subgraph cluster_g" << fnIndex << "_"
         << intOf(group.args, "group")
         << " {\n      style=filled; color=\"#888888\"; fillcolor=\""
         << kindColor(kind) << "\";\n      label=\"group "
         << intOf(group.args, "group") << ": " << kind;
      if (!rule.empty())
        os << " (" << escapeDot(rule) << ")";
      os << "\";\n";
      for (DictionaryAttr node : nodesOf(group.args)) {
        std::string shape;
        if (auto type = node.getAs<TypeAttr>("type")) {
          llvm::raw_string_ostream s(shape);
          s << type.getValue();
        }
        auto op = node.getAs<StringAttr>("op");
        os << "      n" << base + nodeNumber(node) << " [label=\""
           << escapeDot(op ? op.getValue() : "") << "\\n"
           << escapeDot(shape) << "\"];\n";
        nodes = std::max(nodes, nodeNumber(node) + 1);
      }
      os << "    }\n";
    }
    os << "  }\n";
    // Dataflow edges.
    for (const Function::Group &group : fn.groups)
      for (DictionaryAttr node : nodesOf(group.args))
        if (auto inputs = node.getAs<DenseI64ArrayAttr>("inputs"))
          for (int64_t source : inputs.asArrayRef())
            os << "  n" << base + source << " -> n" << base + nodeNumber(node)
               << ";\n";
    base += nodes;
  }
  os << "}\n";
}
