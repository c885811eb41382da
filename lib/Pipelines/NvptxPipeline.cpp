//===- NvptxPipeline.cpp - fuse-to-nvptx ----------------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// Fused IR to NVPTX: every fuse.group becomes one tile loop
// (fuse-lower-groups), one function, and ONE kernel: the tile loop maps to
// the grid (one block per tile), the kernel is outlined and compiled for the
// target's architecture.
//
//===----------------------------------------------------------------------===//

#include "fuse/Pipelines/Pipelines.h"

#include "fuse/Dialect/Fuse/IR/FuseAttrs.h"
#include "fuse/Codegen/GPU/Passes.h"
#include "fuse/Codegen/Tiling/Passes.h"
#include "fuse/Dialect/Fuse/Transforms/Passes.h"
#include "fuse/Memory/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::fuse;

LogicalResult mlir::fuse::buildNvptxPipeline(OpPassManager &pm,
                                             const NvptxPipelineOptions &options,
                                             MLIRContext *context,
                                             raw_ostream &errors) {
  std::string error;
  TargetAttr target =
      TargetAttr::parseFromOption(context, options.target, error);
  if (!target) {
    errors << "fuse-to-nvptx: " << error << "\n";
    return failure();
  }
  // The chip: given, or the target's architecture.
  std::string chip = options.chip;
  if (chip.empty())
    chip = target.getArch().str();
  // An option bounded by a property of the target.
  auto inRange = [&](StringRef option, int64_t value, int64_t low,
                     int64_t high, StringRef property) {
    if (value >= low && value <= high)
      return true;
    errors << "fuse-to-nvptx: " << option << " must be in [" << low << ", "
           << high << "] (" << property << " of '" << target.getName()
           << "'), got " << value << "\n";
    return false;
  };
  if (!inRange("block-size", options.blockSize, 1,
               target.getMaxThreadsPerBlock(), "max_threads_per_block") ||
      !inRange("shared-bytes", options.sharedBytes, 0,
               target.getSharedMemPerBlock(), "shared memory per block"))
    return failure();
  int64_t sharedBytes = options.sharedBytes ? options.sharedBytes
                                             : target.getSharedMemPerBlock();
  if (options.format != "isa" && options.format != "bin" &&
      options.format != "fatbin") {
    errors << "fuse-to-nvptx: format must be isa, bin or fatbin, got '"
           << options.format << "'\n";
    return failure();
  }
  if (options.workspace != "alloc" && options.workspace != "argument") {
    errors << "fuse-to-nvptx: workspace must be alloc or argument, got '"
           << options.workspace << "'\n";
    return failure();
  }
  // Every option is checked above, before the first pass is added.
  if (options.relayoutWeights)
    pm.addNestedPass<func::FuncOp>(createFuseRelayoutWeights());
  FuseLowerGroupsOptions lower;
  lower.tileSizes.assign(options.tileSizes.begin(), options.tileSizes.end());
  lower.target = options.target;
  lower.threads = options.blockSize;
  pm.addNestedPass<func::FuncOp>(createFuseLowerGroups(lower));
  pm.addPass(createFuseOutlineGroups());
  std::string libdevice = options.libdevice;
  std::string link = libdevice.empty() ? "" : " l=" + libdevice;
  std::string plan =
      options.planBuffers
          ? "fuse-plan-buffers{workspace=" + options.workspace + "},"
          : std::string();
  std::string rest = llvm::formatv(
      // Tiling a pad leaves its tile dynamically shaped behind a cast to the
      // static tile; folding the cast into the pad (canonicalize) keeps the
      // tile's buffer static, so no kernel allocates at run time.
      "canonicalize,cse,"
      "one-shot-bufferize{{bufferize-function-boundaries "
      "function-boundary-type-conversion=identity-layout-map},"
      "canonicalize,cse,"
      // A group that updates one of its inputs in place (a concat branch
      // writing its slice) returns that buffer: its callers use the input
      // instead of a copy of it (which would be a host loop over device
      // memory).
      "drop-equivalent-buffer-results,"
      // Kernels write their results into buffers the host function
      // allocates, and those go into one arena (fuse-plan-buffers).
      "buffer-results-to-out-params{{hoist-static-allocs},{6}"
      "canonicalize,"
      // Copies (of padded tiles, say) become linalg.copy, lowered to loops
      // inside the kernel rather than to a host runtime call. Tile-local
      // intermediates live in the thread's local memory, never in a
      // device-side malloc.
      "func.func(fuse-copy-to-linalg,"
      "promote-buffers-to-stack{{max-alloc-size-in-bytes={0} "
      "max-rank-of-allocated-memref=8},"
      // One block per tile; the tile's ops spread over the block's threads
      // (contiguous dimension on threadIdx.x), its intermediates in shared
      // memory.
      "fuse-drop-tile-mapping,scf-forall-to-parallel,gpu-map-parallel-loops,"
      "convert-parallel-loops-to-gpu,"
      "fuse-distribute-threads{{block-size={7} shared-bytes={8}},"
      "convert-linalg-to-loops,gpu-launch-sink-index-computations),"
      "canonicalize,gpu-kernel-outlining,fuse-verify-kernels,"
      "fuse-drop-known-block-size,{10}"
      // The NVVM lowering (as upstream's gpu-lower-to-nvvm-pipeline), with
      // libdevice linked for the math functions.
      "convert-nvgpu-to-nvvm,convert-vector-to-scf,convert-scf-to-cf,"
      "convert-nvvm-to-llvm,convert-func-to-llvm,expand-strided-metadata,"
      "nvvm-attach-target{{chip={1} features={2} O={4}{5}},"
      "lower-affine,convert-arith-to-llvm,convert-index-to-llvm,"
      "canonicalize,cse,"
      "gpu.module(convert-gpu-to-nvvm,canonicalize,cse,"
      "reconcile-unrealized-casts),"
      "gpu-to-llvm,reconcile-unrealized-casts,{9}"
      "gpu-module-to-binary{{format={3}}",
      options.maxTileBytes.getValue(), chip, options.features.getValue(),
      options.format.getValue(), options.optLevel.getValue(), link, plan,
      options.blockSize.getValue(), sharedBytes,
      options.deviceMemory ? "fuse-device-memory," : "",
      // One stream per call: the group functions (each one launch, no host
      // work, checked above) inline into their caller, whose launches then
      // chain on one stream; the host waits before anything else touches
      // memory, and before it returns.
      options.asyncLaunches ? "inline,func.func(gpu-async-region)," : "");
  return parsePassPipeline(rest, pm, errors);
}

namespace {
/// Stands in for a pipeline whose options were wrong: it reports why on the
/// module and fails, so the tool exits with an error.
struct PipelineErrorPass
    : public PassWrapper<PipelineErrorPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PipelineErrorPass)
  explicit PipelineErrorPass(std::string message)
      : message(std::move(message)) {}
  StringRef getArgument() const final { return "fuse-pipeline-error"; }
  void runOnOperation() override {
    getOperation()->emitError() << message;
    signalPassFailure();
  }
  std::string message;
};
} // namespace

void mlir::fuse::registerNvptxPipeline() {
  PassPipelineRegistration<NvptxPipelineOptions>(
      "fuse-to-nvptx",
      "Fused IR to NVPTX: one tile loop, one function and ONE kernel per "
      "fuse.group; PTX (format=isa) or cubin (format=bin, needs ptxas)",
      [](OpPassManager &pm, const NvptxPipelineOptions &options) {
        // Parsing the target needs a context; pipelines are built before
        // the input exists, so use a scratch one for the preset lookup.
        MLIRContext scratch;
        std::string errors;
        llvm::raw_string_ostream os(errors);
        // The passes go after whatever `pm` already holds
        // (`--fuse-fusion-pipeline --fuse-to-nvptx` in one run); a wrong
        // option adds nothing but the error.
        if (failed(buildNvptxPipeline(pm, options, &scratch, os)))
          pm.addPass(std::make_unique<PipelineErrorPass>(
              StringRef(errors).trim().str()));
      });
}
