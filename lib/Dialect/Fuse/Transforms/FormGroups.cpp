//===- FormGroups.cpp - the fuse-form-groups pass -------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Dialect/Fuse/IR/FuseInterfaces.h"
#include "fuse/Dialect/Fuse/IR/FuseOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "fuse/Dialect/Fuse/Transforms/FusionEngine.h"
#include "fuse/Dialect/Fuse/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEFORMGROUPS
#include "fuse/Dialect/Fuse/Transforms/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

/// Writes `text` to `path` ("-" is stdout); reports failures on `op`.
LogicalResult writeOutput(Operation *op, StringRef path, StringRef what,
                          llvm::function_ref<void(raw_ostream &)> write) {
  if (path.empty())
    return success();
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &error);
  if (!file)
    return op->emitError() << "cannot write the fusion " << what << " to '"
                           << path << "': " << error;
  write(file->os());
  file->keep();
  return success();
}

/// Gives every structured op its own copy of an elementwise op that
/// initializes its accumulator (a bias broadcast that CSE shared between
/// two convolutions), so that each contraction's group can own it.
void duplicateSharedInitProducers(Block &block) {
  for (Operation &op : block) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(&op);
    if (!linalgOp)
      continue;
    for (OpOperand &init : linalgOp.getDpsInitsMutable()) {
      Operation *def = init.get().getDefiningOp();
      if (!def || def->getBlock() != &block || def->hasOneUse() ||
          !isa<linalg::LinalgOp>(def) || def->getNumResults() != 1)
        continue;
      OpCategory category = classifyOp(def).category;
      if (category != OpCategory::elementwise &&
          category != OpCategory::broadcast)
        continue;
      // The first user in program order keeps the original.
      Operation *first = nullptr;
      for (Operation *user : def->getUsers()) {
        Operation *top = block.findAncestorOpInBlock(*user);
        if (top && (!first || top->isBeforeInBlock(first)))
          first = top;
      }
      if (first == &op)
        continue;
      OpBuilder builder(&op);
      Operation *copy = builder.clone(*def);
      init.set(copy->getResult(0));
    }
  }
}

struct FormGroupsPass : public fuse::impl::FuseFormGroupsBase<FormGroupsPass> {
  using FuseFormGroupsBase::FuseFormGroupsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FusionPolicy policy;
    std::string error;
    policy.target =
        TargetAttr::parseFromOption(&getContext(), target, error);
    if (!policy.target) {
      module.emitError() << "fuse-form-groups: " << error;
      return signalPassFailure();
    }
    for (const std::string &rule : disabledRules) {
      if (!llvm::any_of(getFusionRules(), [&](const FusionRuleInfo &info) {
            return info.name == rule;
          })) {
        module.emitError() << "fuse-form-groups: unknown rule '" << rule
                           << "' in disable-rules (see fuse-opt "
                              "--fuse-list-rules)";
        return signalPassFailure();
      }
      policy.disabledRules.insert(rule);
    }
    if (maxOpsPerGroup < 1 || maxKernelParamBytes < 1 ||
        maxReductionsPerGroup < 0) {
      module.emitError() << "fuse-form-groups: max-ops-per-group and "
                            "max-kernel-param-bytes must be positive and "
                            "max-reductions-per-group non-negative";
      return signalPassFailure();
    }
    policy.maxOpsPerGroup = maxOpsPerGroup;
    policy.maxKernelParamBytes = maxKernelParamBytes;
    policy.maxReductionsPerGroup = maxReductionsPerGroup;

    // Plan every block of every function, then report, then rewrite.
    std::vector<FunctionPlan> plans;
    SmallVector<Block *> blocks;
    module.walk([&](FunctionOpInterface fn) {
      if (fn.isExternal())
        return;
      for (Block &block : fn.getFunctionBody()) {
        duplicateSharedInitProducers(block);
        FunctionPlan plan;
        plan.name = fn.getName().str();
        plan.plan = planFusion(block, policy);
        plans.push_back(std::move(plan));
        blocks.push_back(&block);
      }
    });
    if (failed(writeOutput(module, reportFile, "report",
                           [&](raw_ostream &os) {
                             writeFusionReportJSON(os, policy, plans);
                           })) ||
        failed(writeOutput(module, graphFile, "graph", [&](raw_ostream &os) {
          writeFusionGraphDOT(os, plans);
        })))
      return signalPassFailure();
    for (auto [block, plan] : llvm::zip(blocks, plans))
      if (failed(materializeFusionPlan(*block, plan.plan))) {
        block->getParentOp()->emitError()
            << "fuse-form-groups: the fusion groups could not be ordered "
               "(internal error: a cycle between groups)";
        return signalPassFailure();
      }
  }
};

} // namespace
