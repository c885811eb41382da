//===- NvptxPipeline.cpp - fuse-to-nvptx ----------------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// Fused IR to NVPTX: every fuse.group becomes one tile loop
// (fuse-lower-groups), one function, and ONE kernel: the tile loop maps to
// the grid (one block per tile), the kernel is outlined and compiled for the
// architecture of the module's #fuse.target.
//
// Upstream's gpu-lower-to-nvvm-pipeline builder does not fit as a whole: it
// has no way to link libdevice and would serialize before
// fuse-device-memory rewrites the host code; its passes are added here in
// the same order instead.
//
//===----------------------------------------------------------------------===//

#include "fuse/Pipelines/Pipelines.h"

#include "Bufferize.h"

#include "fuse/Codegen/GPU/Passes.h"
#include "fuse/Codegen/Tiling/Passes.h"
#include "fuse/Dialect/Fuse/IR/FuseAttrs.h"
#include "fuse/Dialect/Fuse/Transforms/Passes.h"
#include "fuse/Export/Passes.h"
#include "fuse/Memory/Passes.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::fuse;

#ifndef FUSE_DEFAULT_LIBDEVICE
/// Set by the build when it finds the CUDA toolkit's libdevice.
#define FUSE_DEFAULT_LIBDEVICE ""
#endif

std::string mlir::fuse::getDefaultLibdevice() { return FUSE_DEFAULT_LIBDEVICE; }

LogicalResult mlir::fuse::checkNvptxPipelineOptions(
    const NvptxPipelineOptions &options,
    function_ref<LogicalResult(const Twine &)> error) {
  auto oneOf = [&](StringRef option, StringRef value,
                   ArrayRef<StringRef> accepted) {
    if (llvm::is_contained(accepted, value))
      return success();
    std::string choices =
        llvm::join(accepted.drop_back(), ", ") + " or " + accepted.back().str();
    return error(llvm::formatv("fuse-to-nvptx: option '{0}' must be {1}, got "
                               "'{2}'",
                               option, choices, value));
  };
  if (failed(oneOf("format", options.format, {"isa", "bin", "fatbin"})) ||
      failed(oneOf("workspace", options.workspace, {"alloc", "argument"})))
    return failure();
  if (options.blockSize < 0 || options.sharedBytes < 0 ||
      options.maxTileBytes < 0 || options.optLevel < 0 || options.optLevel > 3)
    return error(llvm::formatv(
        "fuse-to-nvptx: options 'block-size', 'shared-bytes' and "
        "'max-tile-bytes' must be non-negative and 'opt-level' in "
        "[0, 3], got {0}, {1}, {2} and {3}",
        options.blockSize.getValue(), options.sharedBytes.getValue(),
        options.maxTileBytes.getValue(), options.optLevel.getValue()));
  if (!llvm::is_contained({"keep", "auto", "always", "never"},
                          StringRef(options.tensorCores)))
    return error("fuse-to-nvptx: option 'tensor-cores' must be 'keep', "
                 "'auto', 'always' or 'never', got '" +
                 options.tensorCores + "'");
  if (!options.precision.empty() &&
      !llvm::is_contained(LoweringConfigAttr::getPrecisions(),
                          StringRef(options.precision)))
    return error("fuse-to-nvptx: option 'precision' must be 'fp32', 'tf32', "
                 "'bf16' or 'fp16', got '" +
                 options.precision + "'");
  if (options.splitK < -1 || options.splitK > kMaxSplitK)
    return error(llvm::formatv("fuse-to-nvptx: option 'split-k' must be in "
                               "[-1, {0}] (-1: each group's config, 0: the "
                               "cost model's, 1: never), got {1}",
                               kMaxSplitK, options.splitK.getValue()));
  if (!options.chip.empty() && !isNvvmChipName(options.chip))
    return error("fuse-to-nvptx: option 'chip' " + kNvvmChipRule.str() +
                 ", got '" + options.chip + "'");
  // A preset name is known without a context; a #fuse.target<...> is
  // parsed by fuse-attach-target when the pipeline starts.
  StringRef target = StringRef(options.target).trim();
  std::string why;
  if (!target.empty() && !target.starts_with("#") &&
      !isTargetPreset(target, &why))
    return error("fuse-to-nvptx: option 'target': " + why);
  return success();
}

void mlir::fuse::buildNvptxPipeline(OpPassManager &pm,
                                    const NvptxPipelineOptions &options) {
  // The target: the one given becomes the module's (an error if the IR was
  // fused for another); every pass below reads the module's.
  if (!StringRef(options.target).trim().empty()) {
    FuseAttachTargetOptions attach;
    attach.target = options.target;
    pm.addPass(createFuseAttachTarget(attach));
  }
  if (options.entryAbi) {
    FuseMarkEntryOptions mark;
    mark.function = options.entry;
    pm.addPass(createFuseMarkEntry(mark));
  }
  // Fused IR only: TOSA, or compute outside the groups, named here.
  pm.addPass(createFuseCheckKernelInput());
  FuseCheckLaunchLimitsOptions limits;
  limits.blockSize = options.blockSize;
  limits.sharedBytes = options.sharedBytes;
  pm.addPass(createFuseCheckLaunchLimits(limits));
  if (options.relayoutWeights) {
    // Tensor-core groups keep FHWC filters (K contiguous: ldmatrix); with
    // tensor-cores=auto the groups are configured again below, and the
    // fusion's choice stands in for the new one.
    FuseRelayoutWeightsOptions relayout;
    if (options.tensorCores == "always" || options.tensorCores == "never")
      relayout.tensorCores = options.tensorCores;
    pm.addNestedPass<func::FuncOp>(createFuseRelayoutWeights(relayout));
  }
  FuseLowerGroupsOptions lower;
  lower.tileSizes.assign(options.tileSizes.begin(), options.tileSizes.end());
  // A block size given for all groups re-chooses their tiles for it;
  // otherwise each group keeps the lowering config the fusion chose.
  if (options.blockSize > 0) {
    lower.threads = options.blockSize;
    lower.reconfigure = true;
  }
  // So does a tensor-core, precision or split-K choice.
  if (options.tensorCores != "keep" || !options.precision.empty() ||
      options.splitK >= 0) {
    lower.tensorCores = options.tensorCores == "keep"
                            ? std::string("auto")
                            : std::string(options.tensorCores);
    if (!options.precision.empty())
      lower.precision = options.precision;
    if (options.splitK >= 0)
      lower.splitK = options.splitK;
    lower.reconfigure = true;
  }
  // Elementwise arith/math on whole tensors in a group (hand-written
  // groups) become linalg.generic, which tiles like any other root.
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
  pm.addNestedPass<func::FuncOp>(createFuseLowerGroups(lower));
  FuseOutlineGroupsOptions outline;
  outline.shareKernels = options.shareKernels;
  pm.addPass(createFuseOutlineGroups(outline));

  // Tiling a pad leaves its tile dynamically shaped behind a cast to the
  // static tile; folding the cast into the pad (canonicalize) keeps the
  // tile's buffer static, so no kernel allocates at run time.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(detail::createModuleBufferizePass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // A group that updates one of its inputs in place (a concat branch
  // writing its slice) returns that buffer: its callers use the input
  // instead of a copy of it (which would be a host loop over device memory).
  pm.addPass(bufferization::createDropEquivalentBufferResultsPass());
  // Kernels write their results into buffers the host function allocates,
  // and those go into one arena (fuse-plan-buffers).
  pm.addPass(detail::createResultsToOutParamsPass(
      /*publicFunctions=*/options.entryAbi));
  // The entry's last kernels write the caller's outputs directly.
  if (options.entryAbi)
    pm.addNestedPass<func::FuncOp>(detail::createResultsInPlacePass());
  if (options.planBuffers) {
    FusePlanBuffersOptions plan;
    plan.workspace = options.entryAbi ? std::string("argument")
                                      : std::string(options.workspace);
    pm.addPass(createFusePlanBuffers(plan));
  }
  pm.addPass(createCanonicalizerPass());

  OpPassManager &fn = pm.nest<func::FuncOp>();
  // Copies (of padded tiles, say) become linalg.copy, lowered to loops
  // inside the kernel rather than to a host runtime call. Tile-local
  // intermediates live in the thread's local memory, never in a device-side
  // malloc.
  fn.addPass(createFuseCopyToLinalg());
  bufferization::PromoteBuffersToStackPassOptions stack;
  stack.maxAllocSizeInBytes = options.maxTileBytes;
  stack.maxRankOfAllocatedMemRef = 8;
  fn.addPass(bufferization::createPromoteBuffersToStackPass(stack));
  // One block per tile; the tile's ops spread over the block's threads
  // (contiguous dimension on threadIdx.x), its intermediates in shared
  // memory.
  fn.addPass(createFuseDropTileMapping());
  fn.addPass(createForallToParallelLoopPass());
  // Every tile dimension gets a place in the grid: none runs as a
  // sequential loop inside a block.
  fn.addPass(createFuseLinearizeGrid());
  fn.addPass(createGpuMapParallelLoopsPass());
  fn.addPass(createConvertParallelLoopToGpuPass());
  FuseDistributeThreadsOptions distribute;
  distribute.blockSize = options.blockSize;
  distribute.sharedBytes = options.sharedBytes;
  distribute.epilogueInRegisters = options.epilogueInRegisters;
  distribute.ldmatrix = options.ldmatrix;
  fn.addPass(createFuseDistributeThreads(distribute));
  // Split-K kernels' partials and counters: module globals.
  pm.addPass(createFuseSplitKBuffers());
  OpPassManager &kernelsOnHost = pm.nest<func::FuncOp>();
  kernelsOnHost.addPass(createConvertLinalgToLoopsPass());
  // Canonicalization hoists constants out of a launch; after the sinking
  // the kernel gets them as constants, not as parameters (loop bounds,
  // sizes to delinearize by), so nothing canonicalizes between the two.
  kernelsOnHost.addPass(createCanonicalizerPass());
  kernelsOnHost.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  {
    OpPassManager &outlined = pm.nest<gpu::GPUModuleOp>();
    outlined.addPass(createCanonicalizerPass());
    if (options.contract)
      outlined.addPass(createFuseContractFloat());
  }
  pm.addPass(createFuseVerifyKernels());
  pm.addPass(createFuseDropKnownBlockSize());
  // Buffers a kernel only reads, and that no buffer it writes overlaps, go
  // through the read-only data cache (ld.global.nc).
  pm.addPass(createFuseKernelArgAttrs());
  // One stream per call: the group functions (each one launch, no host
  // work, checked above) inline into their caller, whose launches then
  // chain on one stream; the host waits before anything else touches
  // memory, and before it returns.
  if (options.asyncLaunches) {
    pm.addPass(createInlinerPass());
    pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());
  }

  // The NVVM lowering (as upstream's gpu-lower-to-nvvm-pipeline), with
  // libdevice linked for the math functions.
  pm.addPass(createConvertNVGPUToNVVMPass());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  FuseAttachNVVMTargetOptions nvvm;
  nvvm.chip = options.chip;
  nvvm.features = options.features;
  nvvm.optLevel = options.optLevel;
  nvvm.libdevice = options.libdevice;
  pm.addPass(createFuseAttachNVVMTarget(nvvm));
  pm.addPass(createLowerAffinePass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createConvertGpuOpsToNVVMOps());
  kernels.addPass(createFuseKernelNoAlias());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  if (options.deviceMemory)
    pm.addPass(createFuseDeviceMemory());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format;
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createFuseStripTarget());
  if (options.entryAbi) {
    FuseEmitModelAbiOptions abi;
    abi.target = "cuda";
    pm.addPass(createFuseEmitModelAbi(abi));
  }
}

void mlir::fuse::registerNvptxPipeline() {
  // Registered with the builder's own error channel: a wrong option is one
  // error line naming it, and no pass is added.
  registerPassPipeline(
      "fuse-to-nvptx",
      "Fused IR to NVPTX: one tile loop, one function and ONE kernel per "
      "fuse.group, for the module's #fuse.target; PTX (format=isa) or cubin "
      "(format=bin, needs ptxas)",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        NvptxPipelineOptions options;
        if (failed(options.parseFromString(text)) ||
            failed(checkNvptxPipelineOptions(options, errorHandler)))
          return failure();
        // The passes go after whatever `pm` already holds
        // (`--fuse-fusion-pipeline --fuse-to-nvptx` in one run).
        buildNvptxPipeline(pm, options);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optHandler) {
        optHandler(NvptxPipelineOptions());
      });
}
