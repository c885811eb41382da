//===- FusionPipeline.cpp - fuse-fusion-pipeline --------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Pipelines/Pipelines.h"

#include "fuse/Dialect/Fuse/Transforms/Passes.h"
#include "fuse/Fusion/Passes.h"
#include "fuse/Preprocessing/Passes.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::fuse;

void mlir::fuse::buildFusionPipeline(OpPassManager &pm,
                                     const FusionPipelineOptions &options) {
  // Graph rewrites on TOSA: BatchNorm-like scales and shifts into weights,
  // then same-input contractions into one. Each is a rule that
  // disable-rules can switch off.
  // The target, when given, goes on the module first: a module fused for
  // another one is refused before anything is rewritten.
  if (!StringRef(options.target).trim().empty()) {
    FuseAttachTargetOptions attach;
    attach.target = options.target;
    pm.addPass(createFuseAttachTarget(attach));
  }
  // Equal ops merged first: an importer that reshapes one input once per
  // reader (three tosa.reshape of the same activation before Q, K and V)
  // must not hide that the readers share it.
  pm.addPass(createCSEPass());
  auto disabled = [&](StringRef rule) {
    return llvm::is_contained(options.disableRules, rule.str());
  };
  if (!disabled("affine_fold"))
    pm.addNestedPass<func::FuncOp>(createFuseFoldAffine());
  if (!disabled("shared_input_contractions"))
    pm.addNestedPass<func::FuncOp>(createFuseMergeSiblingContractions());
  // TOSA → linalg on tensors; a no-op on linalg input. Upstream's
  // tosa-to-linalg-pipeline (tosa::addTosaToLinalgPasses), with each of its
  // preparation passes run only where a function holds what it rewrites,
  // and tosa-to-linalg's elementwise ops converted by the faster driver.
  pm.addNestedPass<func::FuncOp>(createFusePrepareTosa());
  if (options.validateTosa)
    pm.addPass(tosa::createTosaValidation(tosa::TosaValidationOptions{
        /*strictOpSpecAlignment=*/false,
        /*allowInvalidOpDatatypeCombinations=*/false}));
  pm.addNestedPass<func::FuncOp>(createFuseTosaToLinalg());
  // What tosa-to-linalg leaves (reshapes, slices, constants) to tensor and
  // arith, and elementwise arith/math on tensors to linalg.generic, so that
  // every compute op is tileable when its group is lowered: upstream's
  // passes, each only where a function holds something it converts.
  pm.addNestedPass<func::FuncOp>(createFuseLowerTosaLeftovers());
  // NCHW linalg (another front end's) channels last, as the kernels take
  // it; nothing to do on TOSA's NHWC.
  if (options.nhwcLayout)
    pm.addNestedPass<func::FuncOp>(createFuseNhwcLayout());
  // fuse-prune runs every canonicalization pattern (and more) itself, so a
  // canonicalizer before it would only repeat its work (a tenth of the
  // compile of a 10^6-op graph), and one CSE after it merges what both
  // leave equal; without it, the canonicalizer cleans up.
  if (options.prune)
    pm.addNestedPass<func::FuncOp>(createFusePrune());
  else
    pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  FuseFormGroupsOptions groups;
  groups.target = options.target;
  groups.reportFile = options.report;
  groups.graphFile = options.graph;
  groups.disabledRules.assign(options.disableRules.begin(),
                              options.disableRules.end());
  groups.maxOpsPerGroup = options.maxOpsPerGroup;
  groups.maxKernelParamBytes = options.maxKernelParamBytes;
  groups.maxReductionsPerGroup = options.maxReductionsPerGroup;
  groups.checkLowering = options.checkLowering;
  groups.tensorCores = options.tensorCores;
  groups.precision = options.precision;
  groups.stages = options.stages;
  groups.splitK = options.splitK;
  groups.cpuTarget = options.cpuTarget;
  groups.splitRowEpilogues = options.splitRowEpilogues;
  groups.orderKernels = options.orderKernels;
  pm.addPass(createFuseFormGroups(groups));
}

void mlir::fuse::registerFusePipelines() {
  registerCpuPipeline();
  registerNvptxPipeline();
  PassPipelineRegistration<FusionPipelineOptions>(
      "fuse-fusion-pipeline",
      "TOSA or linalg on tensors to fuse.groups: lower TOSA, prune, form "
      "the fusion groups for a target, report",
      buildFusionPipeline);
}
