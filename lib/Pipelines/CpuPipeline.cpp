//===- CpuPipeline.cpp - fuse-to-cpu --------------------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// The CPU build of fused IR (compiled models, the numerical tests): every
// fuse.group becomes a function, contractions become vector micro-kernels,
// tensors bufferize (function boundaries included), and the rest lowers to
// loops and the LLVM dialect.
//
//===----------------------------------------------------------------------===//

#include "fuse/Pipelines/Pipelines.h"

#include "Bufferize.h"

#include "fuse/Codegen/CPU/Passes.h"
#include "fuse/Codegen/GPU/Passes.h"
#include "fuse/Dialect/Fuse/Transforms/Passes.h"
#include "fuse/Export/Passes.h"
#include "fuse/Memory/Passes.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::fuse;

/// The upstream stages after outlining, as a pipeline string (each stage is
/// a registered pass).
void mlir::fuse::buildCpuPipeline(OpPassManager &pm,
                                  const CpuPipelineOptions &options) {
  if (options.entryAbi) {
    FuseMarkEntryOptions mark;
    mark.function = options.entry;
    pm.addPass(createFuseMarkEntry(mark));
  }
  // The register-blocked contractions read a filter's output channels as
  // vectors: constant filters as [KH, KW, C, F].
  bool vectorize = options.vectorize && options.emulateThreads == 0;
  // Every group's, whatever GPU schedule its config names.
  FuseRelayoutWeightsOptions relayout;
  relayout.tensorCores = "never";
  if (vectorize)
    pm.addNestedPass<func::FuncOp>(createFuseRelayoutWeights(relayout));
  if (options.outlineGroups) {
    FuseOutlineGroupsOptions outline;
    outline.shareKernels = options.shareKernels && !options.profile;
    pm.addPass(createFuseOutlineGroups(outline));
  }
  // TOSA (if any) and elementwise ops on tensors to linalg.
  OpPassManager &tosa = pm.nest<func::FuncOp>();
  tosa.addPass(tosa::createTosaToLinalgNamed());
  tosa.addPass(tosa::createTosaToLinalg());
  tosa.addPass(createTosaToArithPass());
  tosa.addPass(createTosaToTensorPass());
  tosa.addPass(createConvertElementwiseToLinalgPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  if (vectorize) {
    // Filters of convolutions that were TOSA until now (unfused input).
    pm.addNestedPass<func::FuncOp>(createFuseRelayoutWeights(relayout));
    // The weights' column panels laid out for the micro-kernels at compile
    // time: a group's constants, and the constants its callers pass.
    if (options.packWeights)
      pm.addPass(createFuseCpuMarkConstantArguments());
    FuseCpuVectorizeOptions registerTiles;
    registerTiles.cpuTarget = options.cpuTarget;
    registerTiles.packConstants = options.packWeights;
    pm.addNestedPass<func::FuncOp>(createFuseCpuVectorize(registerTiles));
    if (options.packWeights)
      pm.addPass(createFuseCpuPackWeights());
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
  }
  pm.addPass(detail::createModuleBufferizePass());
  // Groups updating an input in place (concat branches) return nothing
  // for it; callers use the input rather than a copy.
  pm.addPass(bufferization::createDropEquivalentBufferResultsPass());
  pm.addPass(detail::createResultsToOutParamsPass(
      /*publicFunctions=*/options.entryAbi));
  // The entry's last kernels write the caller's outputs directly.
  if (options.entryAbi)
    pm.addNestedPass<func::FuncOp>(detail::createResultsInPlacePass());
  detail::addBufferDeallocationPasses(pm);
  pm.addPass(createConvertBufferizationToMemRefPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // A group's intermediates: its caller's, so the arena holds them (not a
  // malloc and fresh pages per call).
  if (options.planBuffers && options.hoistGroupScratch &&
      options.emulateThreads == 0)
    pm.addPass(createFuseHoistGroupScratch());
  if (options.emulateThreads != 0) {
    FuseDistributeThreadsOptions distribute;
    // -1: each tile's function's lowering config decides (block-size 0).
    distribute.blockSize = std::max<int64_t>(options.emulateThreads, 0);
    distribute.emulate = true;
    // Copies into tile buffers are spread like the GPU kernels' copies.
    pm.addNestedPass<func::FuncOp>(createFuseCopyToLinalg());
    pm.addNestedPass<func::FuncOp>(createFuseDistributeThreads(distribute));
    pm.addPass(createFuseSplitKBuffers());
  }
  if (options.planBuffers) {
    FusePlanBuffersOptions plan;
    if (options.entryAbi)
      plan.workspace = "argument";
    pm.addPass(createFusePlanBuffers(plan));
  }
  // Loops, then the LLVM dialect (with libm for erf and friends). A
  // compiled model calls nothing but libc and libm: its copies become loops
  // too, not calls into MLIR's runner library.
  if (options.entryAbi)
    pm.addNestedPass<func::FuncOp>(createFuseCopyToLinalg());
  bool parallel = options.parallel && options.emulateThreads == 0;
  OpPassManager &loops = pm.nest<func::FuncOp>();
  if (vectorize)
    loops.addPass(createFuseCpuLowerVectors());
  // Parallel dimensions as scf.parallel, which (with the register-tile
  // loops) become bodies the runtime's threads share.
  if (parallel)
    loops.addPass(createConvertLinalgToParallelLoopsPass());
  else
    loops.addPass(createConvertLinalgToLoopsPass());
  loops.addPass(createForallToForLoopPass());
  if (parallel) {
    FuseCpuOutlineParallelOptions outline;
    outline.minWork = options.parallelMinWork;
    pm.addPass(createFuseCpuOutlineParallel(outline));
  }
  // A multiply and the add that uses it may become one fma, as on the GPU
  // (fuse-to-nvptx): the vector micro-kernels' FMAs and the loops of any
  // other build round alike, so the same order of a sum gives the same
  // bits.
  pm.addPass(createFuseContractFloat());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  if (parallel)
    pm.addPass(createFuseCpuDispatchParallel());
  pm.addPass(createFuseStripTarget());
  if (options.entryAbi) {
    FuseEmitModelAbiOptions abi;
    abi.profile = options.profile;
    pm.addPass(createFuseEmitModelAbi(abi));
  }
}

void mlir::fuse::registerCpuPipeline() {
  detail::registerSplitTrivialDeallocsPass();
  detail::registerResultsInPlacePass();
  PassPipelineRegistration<CpuPipelineOptions>(
      "fuse-to-cpu",
      "Fused (or unfused) IR to the LLVM dialect for CPU execution under "
      "mlir-runner: one function per fuse.group, bufferization, loops",
      buildCpuPipeline);
}
