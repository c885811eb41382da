//===- FusionReport.cpp - JSON report and DOT picture of a fusion plan ----===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "FusionGraph.h"

#include "fuse/Dialect/Fuse/IR/FuseAttrs.h"
#include "fuse/Dialect/Fuse/Transforms/FusionEngine.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
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
      reasons.push_back(llvm::formatv("{0} refused by {1}: {2}", r.rule,
                                      r.check, r.reason));
  if (reasons.empty()) {
    OpClassification cls = classifyOp(op);
    reasons.push_back(llvm::formatv("no fusion rule matches this {0} op and "
                                    "its neighbours",
                                    stringifyOpCategory(cls.category)));
  }
  return reasons;
}

void mlir::fuse::writeFusionReportJSON(raw_ostream &os,
                                       const FusionPolicy &policy,
                                       ArrayRef<FunctionPlan> plans) {
  llvm::json::OStream json(os, /*IndentSize=*/2);
  TargetAttr target = policy.target;
  int64_t kernelsBefore = 0, kernelsAfter = 0, bytesBefore = 0, bytesAfter = 0;
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
      json.attribute("max_reductions_per_group",
                     policy.maxReductionsPerGroup);
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
              });
          });
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
    });
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
        llvm::SetVector<Value> worklist(op->operand_begin(),
                                        op->operand_end());
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
