//===- CpuPipeline.cpp - fuse-to-cpu --------------------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// The CPU build of fused IR, used by the numerical tests: every fuse.group
// becomes a function, tensors bufferize (function boundaries included), and
// everything lowers to loops and the LLVM dialect for mlir-runner.
//
//===----------------------------------------------------------------------===//

#include "fuse/Pipelines/Pipelines.h"

#include "fuse/Codegen/GPU/Passes.h"
#include "fuse/Dialect/Fuse/Transforms/Passes.h"
#include "fuse/Memory/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::fuse;

/// The upstream stages after outlining, as a pipeline string (each stage is
/// a registered pass).
static constexpr llvm::StringLiteral kCpuBufferize =
    "func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,"
    "tosa-to-tensor,convert-elementwise-to-linalg),"
    "canonicalize,cse,"
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},"
    // Groups updating an input in place (concat branches) return nothing
    // for it; callers use the input rather than a copy.
    "drop-equivalent-buffer-results,"
    "buffer-results-to-out-params{hoist-static-allocs},"
    "buffer-deallocation-pipeline,convert-bufferization-to-memref,"
    "canonicalize,cse";

static constexpr llvm::StringLiteral kCpuLowering =
    "func.func(convert-linalg-to-loops,scf-forall-to-for),"
    "lower-affine,convert-scf-to-cf,expand-strided-metadata,lower-affine,"
    "finalize-memref-to-llvm,convert-math-to-llvm,convert-math-to-libm,"
    "convert-vector-to-llvm,convert-arith-to-llvm,convert-index-to-llvm,"
    "convert-func-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts";

void mlir::fuse::buildCpuPipeline(OpPassManager &pm,
                                  const CpuPipelineOptions &options) {
  if (options.outlineGroups)
    pm.addPass(createFuseOutlineGroups());
  if (failed(parsePassPipeline(kCpuBufferize, pm, llvm::errs())))
    llvm::report_fatal_error("fuse-to-cpu: an upstream pass is not "
                             "registered; call mlir::registerAllPasses()");
  if (options.emulateThreads > 0) {
    FuseDistributeThreadsOptions distribute;
    distribute.blockSize = options.emulateThreads;
    distribute.emulate = true;
    // Copies into tile buffers are spread like the GPU kernels' copies.
    pm.addNestedPass<func::FuncOp>(createFuseCopyToLinalg());
    pm.addNestedPass<func::FuncOp>(createFuseDistributeThreads(distribute));
  }
  if (options.planBuffers)
    pm.addPass(createFusePlanBuffers());
  if (failed(parsePassPipeline(kCpuLowering, pm, llvm::errs())))
    llvm::report_fatal_error("fuse-to-cpu: an upstream pass is not "
                             "registered; call mlir::registerAllPasses()");
}

void mlir::fuse::registerCpuPipeline() {
  PassPipelineRegistration<CpuPipelineOptions>(
      "fuse-to-cpu",
      "Fused (or unfused) IR to the LLVM dialect for CPU execution under "
      "mlir-runner: one function per fuse.group, bufferization, loops",
      buildCpuPipeline);
}
