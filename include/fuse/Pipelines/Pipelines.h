//===- Pipelines.h - fuse's registered pass pipelines -----------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_PIPELINES_PIPELINES_H
#define FUSE_PIPELINES_PIPELINES_H

#include "fuse/Codegen/GPU/Passes.h"
#include "fuse/Codegen/Tiling/Passes.h"
#include "fuse/Fusion/Passes.h"
#include "fuse/Memory/Passes.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir {
class MLIRContext;
class OpPassManager;
namespace fuse {

/// The CUDA toolkit's libdevice the build found ("" when it found none):
/// the default of fuse-to-nvptx's `libdevice`. A function, not a macro of
/// this header, so that options built outside fuse's own libraries (an
/// embedding compiler, fuse-compile's driver) get the same default.
std::string getDefaultLibdevice();

/// Options of `fuse-fusion-pipeline`: those of `fuse-form-groups`, with its
/// defaults (taken from the pass's generated options, so they cannot drift
/// apart), plus `prune`.
struct FusionPipelineOptions
    : public PassPipelineOptions<FusionPipelineOptions> {
  PassOptions::Option<std::string> target{
      *this, "target",
      llvm::cl::desc("GPU to fuse for: a preset (t4, v100, a100, h100, h200, "
                     "orin, jetson-nano) or a #fuse.target<...> attribute; "
                     "empty: the module's fuse.target, else h200. The "
                     "module records it (fuse-attach-target)"),
      llvm::cl::init(FuseFormGroupsOptions().target)};
  PassOptions::Option<std::string> report{
      *this, "report",
      llvm::cl::desc("Write the fusion report as JSON to this file ('-' for "
                     "stdout)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> graph{
      *this, "graph",
      llvm::cl::desc("Write the fused graph as Graphviz DOT to this file"),
      llvm::cl::init("")};
  PassOptions::ListOption<std::string> disableRules{
      *this, "disable-rules",
      llvm::cl::desc("Fusion rules to switch off, by name")};
  PassOptions::Option<int64_t> maxOpsPerGroup{
      *this, "max-ops-per-group",
      llvm::cl::desc("Most compute ops in one group"),
      llvm::cl::init(FuseFormGroupsOptions().maxOpsPerGroup)};
  PassOptions::Option<int64_t> maxKernelParamBytes{
      *this, "max-kernel-param-bytes",
      llvm::cl::desc("Most bytes of kernel parameters per group"),
      llvm::cl::init(FuseFormGroupsOptions().maxKernelParamBytes)};
  PassOptions::Option<int64_t> maxReductionsPerGroup{
      *this, "max-reductions-per-group",
      llvm::cl::desc("Most reductions (not contractions) per group"),
      llvm::cl::init(FuseFormGroupsOptions().maxReductionsPerGroup)};
  PassOptions::Option<bool> checkLowering{
      *this, "check-lowering",
      llvm::cl::desc("Keep only groups fuse-lower-groups can turn into one "
                     "loop nest (a refused merge is reported with the check "
                     "'lowering')"),
      llvm::cl::init(FuseFormGroupsOptions().checkLowering)};
  PassOptions::Option<std::string> tensorCores{
      *this, "tensor-cores",
      llvm::cl::desc("Contractions in the groups' lowering configs on "
                     "tensor cores: auto (where the cost model predicts them "
                     "faster), always (wherever the schedule computes them) "
                     "or never"),
      llvm::cl::init(FuseFormGroupsOptions().tensorCores)};
  PassOptions::Option<std::string> precision{
      *this, "precision",
      llvm::cl::desc("Precision of tensor-core products: fp32 (three TF32 "
                     "products, fp32 accuracy), tf32 (one), bf16 or fp16 "
                     "(one mma.sync.m16n8k16 of 16-bit operands)"),
      llvm::cl::init(FuseFormGroupsOptions().precision)};
  PassOptions::Option<int64_t> stages{
      *this, "stages",
      llvm::cl::desc("K chunks a tensor-core kernel stages in shared memory "
                     "at once: 2 to 4, or 0 (the cost model's choice)"),
      llvm::cl::init(FuseFormGroupsOptions().stages)};
  PassOptions::Option<int64_t> splitK{
      *this, "split-k",
      llvm::cl::desc("Blocks per tile a tensor-core kernel splits its "
                     "reduction over: 2 to 16 (where the group allows), 0 "
                     "(the cost model's choice) or 1 (never)"),
      llvm::cl::init(FuseFormGroupsOptions().splitK)};
  PassOptions::Option<std::string> cpuTarget{
      *this, "cpu-target",
      llvm::cl::desc("Also choose each group's CPU schedule (its lowering "
                     "config's cpu field) for this CPU: host, avx512, avx2, "
                     "neon or a #fuse.cpu_target<...>; empty: none"),
      llvm::cl::init("")};
  PassOptions::Option<bool> splitRowEpilogues{
      *this, "split-row-epilogues",
      llvm::cl::desc("A LayerNorm after a GEMM becomes its own kernel where "
                     "the cost model predicts the GEMM alone on tensor cores "
                     "and the LayerNorm apart faster (false: always fused)"),
      llvm::cl::init(FuseFormGroupsOptions().splitRowEpilogues)};
  PassOptions::Option<bool> orderKernels{
      *this, "order-kernels",
      llvm::cl::desc("Order independent kernels to keep less memory alive "
                     "between them (false: the source order)"),
      llvm::cl::init(FuseFormGroupsOptions().orderKernels)};
  PassOptions::Option<bool> nhwcLayout{
      *this, "nhwc-layout",
      llvm::cl::desc("Run fuse-nhwc-layout: NCHW convolutions and pools of "
                     "linalg input channels last, the transposes moved "
                     "through their elementwise consumers until they cancel"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> prune{
      *this, "prune",
      llvm::cl::desc("Run fuse-prune (dead code, cancelling pairs, constant "
                     "folding) before fusion"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> validateTosa{
      *this, "validate-tosa",
      llvm::cl::desc("Check TOSA input against the TOSA specification "
                     "(upstream's tosa-validate) before lowering it; "
                     "fuse-compile turns it off for ONNX models, whose TOSA "
                     "fuse's importer makes (the pass grows faster than the "
                     "graph: 3.4 s for an 80,000-op chain)"),
      llvm::cl::init(true)};
};

/// TOSA graph rewrites (affine folding, sibling merging), TOSA (if any) →
/// linalg, clean-up, fuse-prune, fuse-form-groups.
void buildFusionPipeline(OpPassManager &pm,
                         const FusionPipelineOptions &options);

/// Options of `fuse-to-cpu`.
struct CpuPipelineOptions : public PassPipelineOptions<CpuPipelineOptions> {
  PassOptions::Option<bool> outlineGroups{
      *this, "outline-groups",
      llvm::cl::desc("Make every fuse.group a function of its own first"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> shareKernels{
      *this, "share-kernels",
      llvm::cl::desc("Groups that are the same kernel share one function "
                     "(fuse-outline-groups{share-kernels}); off with "
                     "profile, which times each group on its own"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> planBuffers{
      *this, "plan-buffers",
      llvm::cl::desc("Place the buffers between kernels in one arena "
                     "(fuse-plan-buffers)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> emulateThreads{
      *this, "emulate-threads",
      llvm::cl::desc("Spread each tile loop's ops over this many emulated "
                     "threads, as fuse-to-nvptx does on the GPU "
                     "(fuse-distribute-threads{emulate}); -1: each "
                     "group's lowering config's threads (the GPU's block "
                     "size); 0: off"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> hoistGroupScratch{
      *this, "hoist-group-scratch",
      llvm::cl::desc("With plan-buffers: the groups' intermediate buffers "
                     "go into the arena too (fuse-hoist-group-scratch), not "
                     "a malloc per call; not with emulate-threads"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> vectorize{
      *this, "vectorize",
      llvm::cl::desc("Contractions as register-blocked vector micro-kernels "
                     "(fuse-cpu-vectorize, fuse-cpu-lower-vectors; constant "
                     "convolution filters re-laid out for them); not with "
                     "emulate-threads, which runs the GPU schedule"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> packWeights{
      *this, "pack-weights",
      llvm::cl::desc("With vectorize: constant weights laid out at compile "
                     "time in the panels the micro-kernels read "
                     "(fuse-cpu-mark-constant-arguments, fuse-cpu-vectorize, "
                     "fuse-cpu-pack-weights); false: read as they are"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> cpuTarget{
      *this, "cpu-target",
      llvm::cl::desc("The CPU fuse-cpu-vectorize sizes register tiles for "
                     "where a group has no CPU schedule: host, avx512, "
                     "avx2, neon or a #fuse.cpu_target<...>; empty: the "
                     "module's fuse.cpu_target, else avx512"),
      llvm::cl::init("")};
  PassOptions::Option<bool> parallel{
      *this, "parallel",
      llvm::cl::desc("Outermost parallel loops (register-tile loops, "
                     "parallel dimensions of the other ops) as functions the "
                     "compiled model's runtime spreads over its threads "
                     "(fuse-cpu-outline-parallel, fuse-cpu-dispatch-parallel; "
                     "off with emulate-threads)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> parallelMinWork{
      *this, "parallel-min-work",
      llvm::cl::desc("Loops doing fewer operations than this stay serial"),
      llvm::cl::init(32768)};
  PassOptions::Option<bool> entryAbi{
      *this, "entry-abi",
      llvm::cl::desc("Build the compiled-model ABI (fuse-compile): the entry "
                     "function's results become caller buffers, its arena a "
                     "workspace argument, and fuse_model_run / "
                     "fuse_model_signature are added (fuse-mark-entry, "
                     "fuse-emit-model-abi)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> profile{
      *this, "profile",
      llvm::cl::desc("With entry-abi: time each kernel through the runtime's "
                     "profile hook (fuse-emit-model-abi{profile})"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> entry{
      *this, "entry",
      llvm::cl::desc("With entry-abi: the function to run (empty: the only "
                     "public one)"),
      llvm::cl::init("")};
};

/// fuse.groups to functions, one-shot bufferization, buffer deallocation,
/// loops, LLVM dialect (with libm for erf and friends).
void buildCpuPipeline(OpPassManager &pm, const CpuPipelineOptions &options);

/// Options of `fuse-to-nvptx`; the defaults of those a pass takes come from
/// that pass's generated options.
struct NvptxPipelineOptions : public PassPipelineOptions<NvptxPipelineOptions> {
  PassOptions::Option<std::string> target{
      *this, "target",
      llvm::cl::desc("The GPU: a preset or a #fuse.target<...>; empty: the "
                     "module's fuse.target (else h200); given, it must agree "
                     "with the module's. Its arch is the chip unless `chip` "
                     "is given"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("sm_XX to compile for (overrides target)"),
      llvm::cl::init(FuseAttachNVVMTargetOptions().chip)};
  PassOptions::Option<std::string> features{
      *this, "features", llvm::cl::desc("PTX features, e.g. +ptx80"),
      llvm::cl::init(FuseAttachNVVMTargetOptions().features)};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("isa (PTX), bin (cubin, runs ptxas) or fatbin"),
      llvm::cl::init("isa")};
  PassOptions::Option<int64_t> optLevel{
      *this, "opt-level",
      llvm::cl::desc("Optimization level of the NVPTX "
                     "backend (0 to 3)"),
      llvm::cl::init(FuseAttachNVVMTargetOptions().optLevel)};
  PassOptions::ListOption<int64_t> tileSizes{
      *this, "tile-sizes",
      llvm::cl::desc("Tile sizes for every group root (fuse-lower-groups)")};
  PassOptions::Option<std::string> libdevice{
      *this, "libdevice",
      llvm::cl::desc("libdevice bitcode to link (math functions); empty: "
                     "none, the PTX then declares them extern"),
      llvm::cl::init(getDefaultLibdevice())};
  PassOptions::Option<int64_t> maxTileBytes{
      *this, "max-tile-bytes",
      llvm::cl::desc("Largest tile-local buffer kept in a thread's local "
                     "memory"),
      llvm::cl::init(1 << 20)};
  PassOptions::Option<bool> planBuffers{
      *this, "plan-buffers",
      llvm::cl::desc("Place the buffers between kernels in one arena "
                     "(fuse-plan-buffers)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> relayoutWeights{
      *this, "relayout-weights",
      llvm::cl::desc("Constant convolution filters permuted to the order the "
                     "kernels read them (fuse-relayout-weights)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> deviceMemory{
      *this, "device-memory",
      llvm::cl::desc("Host buffers in CUDA managed memory and constants "
                     "copied to it once (fuse-device-memory; needs "
                     "libfuse_cuda_runtime); false keeps malloc and host "
                     "globals (for systems where kernels reach host memory)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> shareKernels{
      *this, "share-kernels",
      llvm::cl::desc("Groups that are the same kernel share one function "
                     "and one GPU kernel (fuse-outline-groups{share-kernels}; "
                     "fuse-compile's default); false: a kernel per group, "
                     "named by its id (what ptx-stats.py reads per group)"),
      llvm::cl::init(false)};
  PassOptions::Option<int64_t> blockSize{
      *this, "block-size",
      llvm::cl::desc("Threads per block for every group, its tile chosen "
                     "anew for them (fuse-lower-groups reconfigure); at most "
                     "the target's max_threads_per_block; 1 keeps one "
                     "thread per block; 0: each group's lowering config"),
      llvm::cl::init(FuseDistributeThreadsOptions().blockSize)};
  PassOptions::Option<int64_t> sharedBytes{
      *this, "shared-bytes",
      llvm::cl::desc("Shared memory per block for tile-local buffers; 0: "
                     "the target's shared memory per block (above 48 KiB "
                     "as dynamic shared memory)"),
      llvm::cl::init(FuseDistributeThreadsOptions().sharedBytes)};
  PassOptions::Option<std::string> tensorCores{
      *this, "tensor-cores",
      llvm::cl::desc("Contractions on tensor cores: keep (each group's "
                     "lowering config), auto (chosen anew where the cost "
                     "model predicts them faster), always (every "
                     "contraction the mma_sync schedule computes) or never; "
                     "anything but keep chooses every group's config anew"),
      llvm::cl::init("keep")};
  PassOptions::Option<std::string> precision{
      *this, "precision",
      llvm::cl::desc("Precision of tensor-core products, chosen anew for "
                     "every group when given: fp32 (three TF32 products, "
                     "fp32 accuracy), tf32 (one, about 1e-3 relative), "
                     "bf16 or fp16 (one mma.sync.m16n8k16 of 16-bit "
                     "operands, about 1e-2 and 1e-3 relative); empty: each "
                     "group's lowering config"),
      llvm::cl::init("")};
  PassOptions::Option<int64_t> splitK{
      *this, "split-k",
      llvm::cl::desc("Split-K of tensor-core kernels, chosen anew for every "
                     "group when given: 2 to 16 blocks per tile where the "
                     "group allows, 0 the cost model's count, 1 never "
                     "(calls may then run concurrently: no shared "
                     "counters); -1: each group's lowering config"),
      llvm::cl::init(-1)};
  PassOptions::Option<bool> epilogueInRegisters{
      *this, "epilogue-in-registers",
      llvm::cl::desc("A tensor-core contraction's output initializer and "
                     "elementwise epilogue run on its accumulators in "
                     "registers (fuse-distribute-threads); false: as ops "
                     "over tile buffers in shared memory"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> ldmatrix{
      *this, "ldmatrix",
      llvm::cl::desc("Tensor-core fragments of operands staged K-fastest "
                     "with TF32 elements load by ldmatrix "
                     "(fuse-distribute-threads); false: a shared-memory "
                     "load per register"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> asyncLaunches{
      *this, "async-launches",
      llvm::cl::desc("The kernels of one call queue on one CUDA stream and "
                     "the host waits once, before it returns (group "
                     "functions inlined, gpu-async-region); false: each "
                     "launch on its own stream, waited for at once"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> contract{
      *this, "contract",
      llvm::cl::desc("A multiply and the add that uses it in a kernel become "
                     "one fma (fuse-contract-float); false keeps them two "
                     "rounded instructions"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> workspace{
      *this, "workspace",
      llvm::cl::desc("Arena of fuse-plan-buffers: alloc (the host function "
                     "allocates it) or argument (the caller passes it)"),
      llvm::cl::init(FusePlanBuffersOptions().workspace)};
  PassOptions::Option<bool> entryAbi{
      *this, "entry-abi",
      llvm::cl::desc("Build the compiled-model ABI (fuse-compile "
                     "--target=<gpu>): the entry's results become caller "
                     "buffers, its arena a workspace argument (device "
                     "memory), and fuse_model_run / fuse_model_signature "
                     "are added (fuse-mark-entry, fuse-emit-model-abi)"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> entry{
      *this, "entry",
      llvm::cl::desc("With entry-abi: the function to run (empty: the only "
                     "public one)"),
      llvm::cl::init("")};
};

/// Checks the options of `fuse-to-nvptx` that need no IR (formats, ranges,
/// preset names); `error` reports one line naming the option. Bounds a
/// target sets (block size, shared memory) are checked against the module's
/// target when the pipeline runs.
LogicalResult
checkNvptxPipelineOptions(const NvptxPipelineOptions &options,
                          function_ref<LogicalResult(const Twine &)> error);

/// fuse-lower-groups, one function per group, bufferization, the tile loop
/// to the grid, kernel outlining, NVVM and binary serialization, appended to
/// `pm` (check the options first).
void buildNvptxPipeline(OpPassManager &pm, const NvptxPipelineOptions &options);

/// Registers `fuse-to-nvptx` (called by registerFusePipelines).
void registerNvptxPipeline();

/// Registers `fuse-fusion-pipeline`, `fuse-to-cpu` and `fuse-to-nvptx`.
void registerFusePipelines();

/// Registers `fuse-to-cpu` (called by registerFusePipelines).
void registerCpuPipeline();

} // namespace fuse
} // namespace mlir

#endif // FUSE_PIPELINES_PIPELINES_H
