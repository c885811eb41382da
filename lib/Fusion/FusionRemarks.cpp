//===- FusionRemarks.cpp - every fusion decision as an MLIR remark --------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// fuse-form-groups reports each merge as a `passed` remark and each refusal
// as a `missed` remark of category "fuse", with structured arguments (rule,
// check, kind, ops, bytes, reason). They go wherever the context's remark
// engine sends them: `fuse-opt --remarks-filter=fuse
// --remark-format=emitRemark` prints them as diagnostics (what the decision
// tests check with expected-remark), `--remark-format=yaml` writes them to
// a file. Without a remark engine nothing is built.
//
//===----------------------------------------------------------------------===//

#include "fuse/Fusion/FusionEngine.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Remarks.h"

using namespace mlir;
using namespace mlir::fuse;

void mlir::fuse::emitFusionRemarks(MLIRContext *context, const FusionPlan &plan,
                                   StringRef function) {
  if (!context->getRemarkEngine())
    return;
  for (const PlannedGroup &group : plan.groups) {
    if (group.ops.size() < 2)
      continue;
    remark::passed(group.anchor->getLoc(), remark::RemarkOpts::name("group")
                                               .category("fuse")
                                               .subCategory(group.rule)
                                               .function(function))
        << remark::add("group {0}: {1} ops in one kernel", group.id,
                       group.ops.size())
        << remark::metric("group", int64_t(group.id))
        << remark::metric("rule", group.rule)
        << remark::metric("kind", stringifyFusionKind(group.kind).str())
        << remark::metric("ops", int64_t(group.ops.size()))
        << remark::metric("bytes", group.bytes)
        << remark::metric("bytes_saved", group.bytesSaved)
        << remark::metric("time_saved_us", group.timeSavedUs);
    // Each merge: the rule and the op it took in.
    for (const std::string &step : group.steps) {
      StringRef rule, op;
      std::tie(rule, op) = StringRef(step).split(": ");
      remark::passed(group.anchor->getLoc(), remark::RemarkOpts::name("merge")
                                                 .category("fuse")
                                                 .subCategory(rule)
                                                 .function(function))
          << remark::add("{0} took in {1}", rule, op)
          << remark::metric("group", int64_t(group.id))
          << remark::metric("rule", rule.str())
          << remark::metric("candidate", op.str());
    }
  }
  for (const FusionRejection &rejection : plan.rejections)
    remark::missed(rejection.candidate->getLoc(),
                   remark::RemarkOpts::name("refused")
                       .category("fuse")
                       .subCategory(rejection.check)
                       .function(function))
        << remark::add("{0} refused by {1}", rejection.rule, rejection.check)
        << remark::metric("rule", rejection.rule)
        << remark::metric("check", rejection.check)
        << remark::metric("anchor", describeOp(rejection.anchor))
        << remark::metric("candidate", describeOp(rejection.candidate))
        << remark::reason("{0}", rejection.reason);
}
