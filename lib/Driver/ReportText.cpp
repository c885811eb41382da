//===- ReportText.cpp - the fusion report as plain text -------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// fuse-compile --report-text: the fusion report (the JSON fuse-form-groups
// writes, with the workspace fuse-compile adds) as text a person reads: the
// targets, per function its kernels and bytes, its memory, one line per
// group with its schedule and savings, the weights re-laid out, the
// refused candidates and the ops left alone, then the totals.
//
//===----------------------------------------------------------------------===//

#include "fuse/Driver/Compile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using llvm::StringRef;
using llvm::json::Array;
using llvm::json::Object;

namespace {

double number(const Object *o, StringRef key) {
  if (!o)
    return 0;
  if (std::optional<double> v = o->getNumber(key))
    return *v;
  return 0;
}

std::string text(const Object *o, StringRef key) {
  if (!o)
    return "";
  if (std::optional<StringRef> v = o->getString(key))
    return v->str();
  return "";
}

/// A number as the JSON has it: an integer, or a float (%g).
std::string num(const Object *o, StringRef key) {
  if (!o)
    return "0";
  if (std::optional<int64_t> v = o->getInteger(key))
    return std::to_string(*v);
  return llvm::formatv("{0}", number(o, key)).str();
}

/// Bytes as B, KiB, MiB or GiB (one decimal above bytes).
std::string human(double n) {
  const char *units[] = {"B", "KiB", "MiB", "GiB"};
  for (int i = 0; i < 4; ++i) {
    if (std::abs(n) < 1024 || i == 3)
      return i == 0 ? llvm::formatv("{0:F0} B", n).str()
                    : llvm::formatv("{0:F1} {1}", n, units[i]).str();
    n /= 1024.0;
  }
  return "";
}

/// An op as the report names it: with the model's node name
/// ("linalg.matmul@/layers.0/q/MatMul"), but without a location in a file
/// ("linalg.matmul@model.mlir:12:3" as "linalg.matmul").
StringRef opName(StringRef op) {
  auto [name, where] = op.split('@');
  bool fileLocation = where.contains(".mlir:") || where.contains(".mlirbc:") ||
                      where.starts_with("-:") || where.empty();
  return fileLocation ? name : op;
}

void printMemory(const Object *m, llvm::raw_ostream &os) {
  if (!m)
    return;
  os << "  memory: " << human(number(m, "unfused_naive"))
     << " of intermediates unfused; " << num(m, "buffers")
     << " buffer(s) between kernels, " << human(number(m, "naive"))
     << " one by one -> arena " << human(number(m, "arena"))
     << " (max-live bound " << human(number(m, "max_live")) << ", ratio "
     << llvm::format("%.4f", number(m, "ratio")) << ", "
     << human(number(m, "in_place_bytes")) << " in place, "
     << text(m, "strategy") << ")\n";
  const Object *order = m->getObject("kernel_order");
  if (order && number(order, "max_live_source_order") != 0)
    os << "  kernel order: " << text(order, "strategy") << ", max-live "
       << human(number(order, "max_live_source_order"))
       << " in the source order -> " << human(number(order, "max_live"))
       << " (no order below " << human(number(order, "bound")) << ")\n";
  if (const Object *plan = m->getObject("workspace_plan"))
    os << "  workspace as built: arena " << human(number(plan, "arena"))
       << " for buffers of " << human(number(plan, "naive")) << " one by one ("
       << human(number(plan, "in_place_bytes")) << " in place, "
       << text(plan, "strategy") << ")\n";
  if (const Object *fp = m->getObject("footprint"))
    os << "  footprint: weights " << human(number(fp, "weights"))
       << " + workspace "
       << human(number(fp, fp->get("workspace") ? "workspace" : "arena"))
       << " = " << human(number(fp, "model")) << " for the model; with inputs "
       << human(number(fp, "inputs")) << " and outputs "
       << human(number(fp, "outputs")) << ", " << human(number(fp, "total"))
       << "\n";
}

void printGroup(const Object &g, llvm::raw_ostream &os) {
  std::string rule = text(&g, "rule");
  os << "  group " << num(&g, "id") << ": " << text(&g, "kind")
     << (rule.empty() ? "" : " by " + rule) << ": ";
  if (const Array *ops = g.getArray("ops"))
    llvm::interleaveComma(*ops, os, [&](const llvm::json::Value &op) {
      os << opName(op.getAsString().value_or(""));
    });
  if (g.get("bound"))
    os << " [" << text(&g, "bound") << "-bound, "
       << llvm::format("%.1f", number(&g, "intensity")) << " FLOP/B]";
  os << "\n";
  const Object *config = g.getObject("lowering_config");
  const Object *predicted = g.getObject("predicted");
  if (config && predicted) {
    os << "    schedule " << text(config, "schedule") << ": tile ";
    if (const Array *tile = config->getArray("tile"))
      llvm::interleave(
          *tile, os,
          [&](const llvm::json::Value &t) {
            os << t.getAsInteger().value_or(0);
          },
          "x");
    os << ", " << num(config, "blocks") << " blocks";
    if (number(config, "split_k") != 0)
      os << " x split-K " << num(config, "split_k");
    os << " of " << num(config, "threads") << " threads ("
       << text(config, "instruction") << ", " << text(config, "precision")
       << "); predicted " << llvm::format("%.1f", number(predicted, "us"))
       << " us, " << text(predicted, "bound") << "-bound\n";
  }
  if (const Object *cpu = config ? config->getObject("cpu") : nullptr) {
    std::string kind = text(cpu, "kind");
    if (kind == "loops") {
      os << "    cpu: loops (vectorized along the contiguous dimension)\n";
    } else {
      std::replace(kind.begin(), kind.end(), '_', ' ');
      os << "    cpu: " << kind << " " << num(cpu, "mr") << "x"
         << num(cpu, "nr") << ", K step " << num(cpu, "kc");
      if (number(cpu, "k_block") != 0)
        os << ", K blocks of " << num(cpu, "k_block");
      os << "\n";
    }
  }
  if (number(&g, "bytes_saved") != 0) {
    const Array *ops = g.getArray("ops");
    os << "    saves " << human(number(&g, "bytes_saved")) << " and "
       << (ops && !ops->empty() ? ops->size() - 1 : 0) << " launch(es), ~"
       << llvm::format("%.2f", number(&g, "time_saved_us")) << " us\n";
  }
}

} // namespace

void mlir::fuse::printReportText(const llvm::json::Object &report,
                                 llvm::raw_ostream &os) {
  if (const Object *target = report.getObject("target"))
    os << "target " << text(target, "name") << " (" << text(target, "arch")
       << ", " << num(target, "sms") << " SMs, "
       << num(target, "smem_per_block") << " B smem/block, "
       << num(target, "dram_gbps") << " GB/s)\n";
  if (const Object *cpu = report.getObject("cpu_target"))
    os << "cpu target " << text(cpu, "name") << " (" << num(cpu, "vector_bits")
       << "-bit vectors, " << num(cpu, "vector_registers") << " registers, L1 "
       << human(number(cpu, "l1_bytes")) << ", L2 "
       << human(number(cpu, "l2_bytes")) << ", L3 "
       << human(number(cpu, "l3_bytes")) << ")\n";
  if (const Array *functions = report.getArray("functions"))
    for (const llvm::json::Value &value : *functions) {
      const Object *fn = value.getAsObject();
      if (!fn)
        continue;
      os << "\n@" << text(fn, "name") << ": " << num(fn, "kernels_before")
         << " kernels -> " << num(fn, "kernels_after")
         << ", bytes between kernels " << human(number(fn, "bytes_before"))
         << " -> " << human(number(fn, "bytes_after")) << "\n";
      printMemory(fn->getObject("memory"), os);
      if (const Array *groups = fn->getArray("groups"))
        for (const llvm::json::Value &g : *groups)
          if (const Object *group = g.getAsObject())
            printGroup(*group, os);
      if (const Array *relayouts = fn->getArray("relayouts"))
        for (const llvm::json::Value &r : *relayouts)
          if (const Object *relayout = r.getAsObject()) {
            std::string group = relayout->get("group") ? num(relayout, "group")
                                                       : std::string("?");
            os << "  weights re-laid out " << text(relayout, "from") << " -> "
               << text(relayout, "to") << " for group " << group << ": "
               << opName(text(relayout, "op")) << " ("
               << human(number(relayout, "bytes")) << ")\n";
          }
      if (const Array *rejected = fn->getArray("rejected"))
        for (const llvm::json::Value &r : *rejected)
          if (const Object *refusal = r.getAsObject())
            os << "  refused " << text(refusal, "rule") << " "
               << text(refusal, "anchor") << " + " << text(refusal, "candidate")
               << ": [" << text(refusal, "check") << "] "
               << text(refusal, "reason") << "\n";
      if (const Array *alone = fn->getArray("left_alone"))
        for (const llvm::json::Value &a : *alone)
          if (const Object *op = a.getAsObject()) {
            os << "  left alone " << text(op, "op") << ": ";
            if (const Array *reasons = op->getArray("reasons"))
              llvm::interleave(
                  *reasons, os,
                  [&](const llvm::json::Value &why) {
                    os << why.getAsString().value_or("");
                  },
                  "; ");
            os << "\n";
          }
    }
  const Object *totals = report.getObject("totals");
  os << "\ntotal: " << num(totals, "kernels_before") << " kernels -> "
     << num(totals, "kernels_after") << ", "
     << human(number(totals, "bytes_before")) << " -> "
     << human(number(totals, "bytes_after")) << " between kernels";
  if (number(totals, "predicted_us") != 0)
    os << ", kernels predicted "
       << llvm::format("%.3f", number(totals, "predicted_us") / 1000) << " ms";
  os << "\n";
  printMemory(report.getObject("memory"), os);
}
