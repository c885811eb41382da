//===- Passes.td - CPU kernel generation -------------------*- tablegen -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_CODEGEN_CPU_PASSES_TD
#define FUSE_CODEGEN_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def FuseCpuVectorize : Pass<"fuse-cpu-vectorize", "::mlir::func::FuncOp"> {
  let summary = "Contractions as register-blocked vector micro-kernels";
  let description = [{
    Each contraction on tensors with static shapes and f32 elements
    (`linalg.matmul`, `linalg.batch_matmul`, any `linalg.generic` or named
    op whose indexing maps are projected permutations, the convolutions
    `linalg.conv_2d_nhwc_hwcf` and `linalg.depthwise_conv_2d_nhwc_hwc`, and
    the poolings `linalg.pooling_nhwc_max/min/sum`) becomes a loop nest
    over register tiles:

    The sizes come from a `#fuse.cpu_target` (docs/Lowering.md, "The CPU
    schedule"): the function's group's `#fuse.lowering_config` `cpu` field
    (a `#fuse.cpu_schedule` the configuration step chose) for the group's
    primary contraction (the one with the most iteration points), and for
    any other contraction the bounds of `cpu-target` (else the module's
    `fuse.cpu_target`, else `avx512`): `nr` two vector registers, `mr` the
    rows whose accumulators leave four registers free (at most 8), `kc` 4,
    cache blocks of an L1 for panels over a quarter of L2. The size options
    replace those bounds and then the config is not read. A config whose
    schedule does not fit its op is an error naming both.

    1. Its parallel loops are tiled: the output's contiguous dimension by
       `NR` (a vector of NR elements: the largest divisor of the extent not
       above `nr` that is a multiple of the vector's f32 lanes, else the largest power of two
       dividing it, else the largest divisor), the dimension before it by `MR` rows (a divisor not
       above `mr`; for a convolution the output width), every other one by
       1; the contiguous dimension's tiles are the outer loop, so one
       column block of the weights is reused over all rows. The producer of
       the output's initial value (a zero fill, a broadcast bias) is fused
       into the tile: the accumulators start from it.
    2. Its reduction loops are tiled by 1 (the innermost by up to `kc`),
       with the output tile carried through them. A long reduction (its
       column panel over `panel-bytes`) first runs in cache blocks, the
       outermost loops: a window position and up to an eighth of
       `panel-bytes` of the panel at a time, so the panel stays in L1 while
       all the register tiles use it; the initial value is then computed
       once, before the blocks. A column panel (a block's, under blocks)
       that is strided in its source (a slice of the weights, the same for
       every row tile) is packed, so the tiles read consecutive lines: rows
       of a source whose width is a multiple of 4 KiB all map to the same
       cache sets, and the panel would not stay in cache between the row
       tiles. Constant weights are packed at compile time: a constant read
       only there becomes its tiles of the panel's shape, one after the
       other (`[K, N]` in `[K, NR]` panels: `[1, N/NR, K, NR]`), and each
       column block reads its tile; an argument listed in the function's
       `fuse.constant_arguments` (fuse-cpu-mark-constant-arguments) is
       read through a `linalg.generic` marked `fuse.pack_argument` that
       packs it, which `fuse-cpu-pack-weights` replaces by packing the
       callers' constants. Each tile must be whole (offsets the loops prove
       multiples of the tile). The function records what was packed in
       `fuse.relayouts`. Other panels of at least 16 KiB are copied into a
       contiguous tensor at the start of their column block, a row (one
       vector) at a time, when the contraction has at least 8 column
       blocks: such a column block is one task for the threads (its copy
       runs before all of its rows), where an unpacked one's row tiles are
       tasks too.
    3. A convolution tile (a 1x1 window) becomes a product over a strided
       slice of its input (a `linalg.generic` whose maps are projected
       permutations; a pooling tile the pooling's combiner, elementwise on
       a row of channels); every op in the tile is vectorized (`vector.contract`,
       `vector.transfer_read/write`), and the accumulator's read and write
       are hoisted out of the reduction loops, so the MR x NR accumulators
       stay in vector registers while the reduction runs.

    An elementwise epilogue (the chain of all-parallel generics the
    product's result alone feeds, element for element) is tiled with it:
    the chain's last op is the tiled root, the chain, the product and its
    initial value fused into its tiles, so the epilogue runs on the
    accumulators and each output element is stored once (not under
    reduction blocks).

    `fuse-cpu-lower-vectors` lowers the contractions to outer products and
    FMAs after bufferization. A contraction that does not qualify (dynamic
    shapes, other element types, a convolution layout without a 1-D form)
    is left as it is and lowers to loops, and so is every contraction of a
    function marked `fuse.no_vectorize` (the unfused reference of
    `scripts/check-equivalence.py`). `fuse-to-cpu` runs it (option
    `vectorize`, on by default) on each group's function.
  }];
  let options = [
    Option<"cpuTarget", "cpu-target", "std::string", /*default=*/"\"\"",
           "The CPU the tiles are sized for: a preset (host, avx512, avx2, "
           "neon) or a #fuse.cpu_target<...>; empty: the module's "
           "fuse.cpu_target, else avx512">,
    Option<"mr", "mr", "int64_t", /*default=*/"-1",
           "Rows of the register tile (upper bound; a divisor of the extent "
           "is used); -1: from the CPU target">,
    Option<"nr", "nr", "int64_t", /*default=*/"-1",
           "Elements of the register tile along the output's contiguous "
           "dimension (upper bound); -1: from the CPU target">,
    Option<"kc", "kc", "int64_t", /*default=*/"-1",
           "Step of the innermost reduction loop (upper bound); -1: from "
           "the CPU target">,
    Option<"packConstants", "pack-constants", "bool", /*default=*/"true",
           "Pack the panels of constant weights at compile time (false: "
           "only run-time copies of large strided panels)">,
    Option<"panelBytes", "panel-bytes", "int64_t", /*default=*/"-1",
           "A reduction whose column panel of the weights (reduction "
           "points x NR x 4 bytes) is larger runs in blocks of at most an "
           "eighth of this, the outermost loops (0: never; -1: a quarter "
           "of the CPU target's L2, blocks of its L1)">,
  ];
  let dependentDialects = ["::mlir::fuse::FuseDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def FuseCpuMarkConstantArguments : Pass<"fuse-cpu-mark-constant-arguments", "::mlir::ModuleOp"> {
  let summary = "Mark the arguments every call of a function passes a "
                "constant for";
  let description = [{
    Before `fuse-cpu-vectorize`: on each private function whose every use
    is a `func.call`, lists in `fuse.constant_arguments` the positions of
    the statically shaped tensor arguments for which every call passes an
    `arith.constant` (the weights of a group's function, one call per group
    it serves). `fuse-cpu-vectorize` may then read such an argument in the
    packed layout of its micro-kernel, and `fuse-cpu-pack-weights` packs
    the callers' constants at compile time. Existing marks are replaced.
  }];
}

def FuseCpuPackWeights : Pass<"fuse-cpu-pack-weights", "::mlir::ModuleOp"> {
  let summary = "Pack the constant weights passed to micro-kernels at "
                "compile time";
  let description = [{
    After `fuse-cpu-vectorize`: each `linalg.generic` marked
    `fuse.pack_argument` packs an argument of its function into the tiles
    its contraction's register tiles read (`fuse-cpu-vectorize`, "column
    panels"). Where the argument has no other use and every call of the
    function passes an `arith.constant` for it, the argument takes the
    packed type, each caller's constant is replaced by its packed copy
    (computed here, once per constant; a splat stays a splat), and the
    generic is removed; the function's `fuse.relayouts` records it (op,
    from, to, bytes of every constant packed). Otherwise the generic stays
    and packs the argument at run time, on every call. Removes the
    `fuse.constant_arguments` marks.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
}

def FuseCpuLowerVectors : Pass<"fuse-cpu-lower-vectors", "::mlir::func::FuncOp"> {
  let summary = "Vector contractions to outer products and FMAs, transfers "
                "to loads and stores";
  let description = [{
    After bufferization: `vector.contract` becomes `vector.outerproduct`
    per reduction step and then `vector.fma` on rows of the accumulator
    tile; transposes, broadcasts, shape casts and multi-reductions lower to
    1-D vector operations, and transfers with a contiguous minor dimension
    to `vector.load`/`vector.store` (the rest to loops, by
    `convert-vector-to-scf`). What remains lowers with
    `convert-vector-to-llvm`.
  }];
  let dependentDialects = ["::mlir::vector::VectorDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def FuseCpuOutlineParallel : Pass<"fuse-cpu-outline-parallel", "::mlir::ModuleOp"> {
  let summary = "Parallel loops as functions over a range of their "
                "iterations, for the runtime's threads";
  let description = [{
    After bufferization and the lowering to loops: in every function, each
    outermost parallel loop (an `scf.parallel` without results, or a
    perfectly nested chain of `scf.for` loops over register tiles that
    `fuse-cpu-vectorize` marked `fuse.parallel_tiles`) becomes a private
    function `<function>_parallel<k>(%begin, %end, <captured values>)`
    marked `fuse.parallel_body`, which runs the loop's linearized
    iterations `[begin, end)`; the loop is replaced by one call of it over
    all iterations. Constants are cloned into it; other values the loop
    uses from outside (memrefs, scalars, vectors) become its arguments.

    The call computes the same thing as the loop on one thread;
    `fuse-cpu-dispatch-parallel` then hands it to the compiled model's
    runtime, which splits the range over its threads. A loop that does
    less than `min-work` operations (its static trip counts times the
    operations in its body; 16 iterations for a loop of unknown count) stays
    where it is, as does a loop that yields values or uses a value of
    another type.
  }];
  let options = [
    Option<"minWork", "min-work", "int64_t", /*default=*/"32768",
           "Loops doing fewer operations than this stay serial">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::scf::SCFDialect"];
}

def FuseCpuDispatchParallel : Pass<"fuse-cpu-dispatch-parallel", "::mlir::ModuleOp"> {
  let summary = "Calls of parallel loop bodies through the runtime's "
                "parallel-for hook";
  let description = [{
    In the LLVM dialect, after `fuse-cpu-outline-parallel`: each call of a
    function marked `fuse.parallel_body` stores its captured arguments in a
    context record on the caller's stack and calls
    `__fuse_parallel_for(task, context, begin, end)`, where `task` is a new
    internal function `(context, begin, end)` that reads the record and
    calls the body. `__fuse_parallel_for` calls the hook the runtime set in
    the global `fuse_model_parallel_hook` (see `include/fuse-c/ModelAbi.h`)
    or, while it is null (a module run by `mlir-runner`, a runtime that
    sets no hook), runs the task over the whole range on the calling
    thread. The result is the same either way: every iteration writes its
    own elements.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // FUSE_CODEGEN_CPU_PASSES_TD
