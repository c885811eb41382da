//===- Passes.td - GPU kernel generation -------------------*- tablegen -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_CODEGEN_GPU_PASSES_TD
#define FUSE_CODEGEN_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def FuseRelayoutWeights : Pass<"fuse-relayout-weights", "::mlir::func::FuncOp"> {
  let summary = "Constant convolution filters in the order the kernels read them";
  let description = [{
    A GPU kernel spreads a convolution's output channels over neighbouring
    threads (`fuse-distribute-threads` puts the output's contiguous dimension
    fastest). With the filter as `[F, KH, KW, C]` (ONNX's and TOSA's order)
    neighbouring threads read elements `KH*KW*C` apart; as `[KH, KW, C, F]`
    they read neighbouring ones, so the loads coalesce.

    Each `linalg.conv_2d_nhwc_fhwc` whose filter is a constant (dense or
    `dense_resource`) used by it alone, directly or through one `fuse.group`
    input, becomes a `linalg.conv_2d_nhwc_hwcf` with the filter permuted at
    compile time (a resource blob stays a blob). The function records each
    re-layout in `fuse.relayouts`: the op, the layouts, the bytes and the
    group id; `scripts/ptx-stats.py --report` copies them into the fusion
    report. `fuse-to-nvptx` runs it first (option `relayout-weights`).

    A convolution whose group runs on tensor cores keeps its FHWC filter:
    there the filter is the contraction's B operand, staged in shared
    memory a K chunk at a time, and with K (KH, KW, C) contiguous its
    fragments load by `ldmatrix` (`fuse-distribute-threads`). With
    `tensor-cores = "keep"` (the default) that is a group whose lowering
    config says `instruction = "mma_sync"`; `"always"` keeps every
    grouped convolution's filter (the pipeline configures them all for
    tensor cores again), `"never"` keeps none.
  }];
  let options = [
    Option<"tensorCores", "tensor-cores", "std::string",
           /*default=*/"\"keep\"",
           "Which groups' convolutions keep their FHWC filter: keep (those "
           "whose lowering config is mma_sync), always (every group's), "
           "never (none)">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect"];
}

def FuseCopyToLinalg : Pass<"fuse-copy-to-linalg"> {
  let summary = "Rewrite memref.copy as linalg.copy, which lowers to loops";
  let description = [{
    Bufferization expresses copies (of a padded tile into its buffer, say)
    as `memref.copy`, which the LLVM lowering turns into a call to a host
    runtime function. Inside a GPU kernel there is no such function: as a
    `linalg.copy` the copy lowers to loops like the rest of the kernel.

    ```mlir
    memref.copy %src, %dst : memref<4x4xf32> to memref<4x4xf32, strided<[8, 1]>>
    // becomes
    linalg.copy ins(%src : memref<4x4xf32>) outs(%dst : memref<4x4xf32, strided<[8, 1]>>)
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def FuseDropTileMapping : Pass<"fuse-drop-tile-mapping"> {
  let summary = "Drop the block mapping of fuse-lower-groups' tile loops";
  let description = [{
    `fuse-lower-groups` marks each tile loop (`scf.forall`) as mapped to
    blocks (`#gpu.block<linear_dim_N>`), which also keeps a loop of one
    iteration through canonicalization. Before `scf-forall-to-parallel` and
    `gpu-map-parallel-loops` (which assign blocks themselves) the marks go.
  }];
}

def FuseLinearizeGrid : Pass<"fuse-linearize-grid", "::mlir::func::FuncOp"> {
  let summary = "Give every tile dimension of a tile loop a place in the grid";
  let description = [{
    Runs on the tile loops (`scf.parallel`, after `scf-forall-to-parallel`)
    before `gpu-map-parallel-loops`, which maps a loop's first three
    dimensions to the grid's x, y and z and runs any further one as a
    sequential loop inside each block. A tile loop with more than three
    dimensions (an NHWC convolution's n, h, w and output-channel tiles) has
    its leading dimensions collapsed into one, so every tile is its own
    block; when a dimension that would map to y or z has more than 65535
    tiles (the grid's limit there), all of them collapse into x. Each block
    recovers its tile indices from the linear id once (a div/rem by a
    constant per dimension).

    Before:
    ```mlir
    scf.parallel (%n, %h, %w, %c) = (0, 0, 0, 0) to (1, 7, 7, 512) step (1, 1, 7, 32)
    ```
    After (one loop of 1 x 7 tiles, then the w and c tiles):
    ```mlir
    scf.parallel (%nh, %w, %c) = (0, 0, 0) to (7, 1, 16) step (1, 1, 1)
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def FuseContractFloat : Pass<"fuse-contract-float"> {
  let summary = "Allow a multiply and the add that uses it to become one fma";
  let description = [{
    Marks every floating-point multiply, add and subtract (`arith.mulf`,
    `arith.addf`, `arith.subf`) under the pass's root (the kernels'
    `gpu.module` in `fuse-to-nvptx`; the whole module in `fuse-to-cpu`)
    `fastmath<contract>`, keeping the flags it already had. Without it the NVPTX backend writes a
    multiply-accumulate as `mul.rn.f32` + `add.rn.f32` (the explicit
    rounding forbids ptxas to fuse them); with it, `fma.rn.f32`: one
    instruction and one rounding instead of two (results differ from the
    unfused build's by at most an ulp per accumulation; the equivalence
    checks' 1e-5 bound holds). Nothing else about the arithmetic changes:
    no reassociation, no reciprocal, no assumption about NaN or infinity.

    ```mlir
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    // becomes
    %m = arith.mulf %a, %b fastmath<contract> : f32
    %s = arith.addf %acc, %m fastmath<contract> : f32
    ```
  }];
}

def FuseDistributeThreads : Pass<"fuse-distribute-threads"> {
  let summary = "Spread the work of each kernel over the threads of its block";
  let description = [{
    Runs on buffers, on the `gpu.launch` ops that the tile loops of
    `fuse-lower-groups` became (one block per tile, one thread so far). In
    each launch:

    - every linalg op is spread over the block's threads: the points of its
      parallel loops, linearized with the dimension that is contiguous in
      its output fastest, go round-robin to the threads (thread t takes
      points t, t + T, t + 2T, ...), so neighbouring threads write
      neighbouring addresses and loads and stores coalesce; each thread runs
      the op's reduction loops for its own points. An op whose output map
      does not give each parallel point its own element (a broadcast write)
      runs on thread 0;
    - a `gpu.barrier` follows each op, so the next one reads complete
      results;
    - the tile-local buffers the ops share (the allocas of
      `promote-buffers-to-stack`) move to workgroup (shared) memory: static
      workgroup attributions up to 48 KiB, above that views into one
      dynamic shared buffer whose size the launch passes (the runtime opts
      the kernel in).

    A contraction in a tile whose lowering config says
    `instruction = "mma_sync"` (two f32 inputs, `out + a * b`, non-empty M,
    N and K: matmul, batch matmul, a convolution as an implicit GEMM) runs
    on the tensor cores instead: both operands' block tiles staged in
    shared memory 32 K at a time (padded so the fragment loads are free of
    bank conflicts), the warps over the tile's 16x8 accumulator tiles,
    each warp's accumulators in registers across the reduction, each K step
    `mma.sync.m16n8k8` with TF32 operands (`precision = "fp32"`: every
    operand split into a TF32 value and a TF32 remainder, three products;
    `"tf32"`: one) or, with `"bf16"` and `"fp16"`, each K step of 16
    `mma.sync.m16n8k16` with the operands rounded to bfloat16 or IEEE half
    (to nearest even, by the same integer code on the GPU and emulated)
    and packed two to a register; the accumulators f32 and stored once.
    It needs sm_80 or newer. The fragments of an operand staged K-fastest
    (K contiguous in its rows) with TF32 elements load by `ldmatrix`
    (`nvgpu.ldmatrix`, option `ldmatrix`, on by default): one with 4 tiles
    per A tile of 16 rows and K step, one with 2 tiles per B tile of 8
    columns; each lane gives the address of one 16-byte row (4 elements
    along K). Other operands load a shared-memory element per register.
    Emulated, each lane's fragments go to memory and the instruction is
    computed from the PTX ISA's fragment layouts (an `ldmatrix` register
    from the row the lane that supplies it addresses), so the CPU build
    runs the same lane code.

    With `split_k = S` in the config (split-K, for a contraction with
    fewer tiles than SMs), S blocks share each tile (the grid's x times S;
    emulated, the tile's body runs once per slice): block s reduces the
    s-th slice of the K chunks into partial accumulators, the first slice
    from the output's initial values and the others from zero, stores them
    to a partials buffer, and arrives at its tile's counter (an atomic
    add, after a device-scope fence). The last block of the tile to arrive
    resets the counter, sums the S partials in slice order (the same sums,
    whatever the order of arrival) into the accumulators, and alone runs
    the rest of the kernel (the epilogue); the others end there. The
    buffers are `memref.alloc`s marked `fuse.split_k_buffer` around the
    launch, which `fuse-split-k-buffers` places in module globals.

    A tensor-core contraction's elementwise neighbours run in its
    registers (`epilogue-in-registers`, on by default): the op that
    initializes its output (a fill, a bias broadcast) is evaluated as each
    lane loads its accumulators, and the elementwise ops after it (bias,
    folded BN, activation, residual add, the copy out) on each accumulator
    and the values made from it, each stored once to every buffer seen
    after them (the group's output, a tile buffer an op that did not fold
    reads); the others are never written. An op joins when all
    its loops are parallel with the identity output map over as many
    elements as the contraction's output tile, it reads the values the
    lanes hold element for element (directly, or through an
    `expand_shape`/`collapse_shape`: at the same linear position), and
    only side-effect-free ops (views, index math, tile buffers' allocas)
    lie between it and the contraction. The tile buffers only the folded
    ops used are not allocated: no shared memory, no phase, no barrier.

    The block has `block-size` threads, fewer when no op of the launch has
    that many parallel points (rounded up to a multiple of 32). A launch
    whose tile-local buffers exceed `shared-bytes`, have a dynamic shape,
    or whose body writes memory other than through linalg ops keeps one
    thread per block (correct, slow) and is named in a remark.

    With `emulate`, the same distribution runs on the CPU: it applies to
    the outermost `scf.forall` of every function instead of a launch, each
    op's thread loop becomes a sequential loop over the T threads (the
    barrier is implicit), and buffers stay where they are. The CPU build
    then executes exactly the index arithmetic of the GPU kernels
    (`scripts/check-equivalence.py --distribute-threads`).
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"0",
           "Threads per block (at most; on the GPU at most the module "
           "target's max_threads_per_block); 0: the `threads` of the "
           "lowering config of the function the tile is in "
           "(fuse.lowering_config), 128 where it has none">,
    Option<"sharedBytes", "shared-bytes", "int64_t", /*default=*/"0",
           "Shared memory a block may use for tile-local buffers; 0: the "
           "shared memory per block of the module's fuse.target (h200's "
           "227 KiB when it has none)">,
    Option<"emulate", "emulate", "bool", /*default=*/"false",
           "Distribute the outermost scf.forall of each function for a CPU "
           "run, with a loop over the threads instead of thread ids">,
    Option<"epilogueInRegisters", "epilogue-in-registers", "bool",
           /*default=*/"true",
           "Run a tensor-core contraction's output initializer and "
           "elementwise epilogue on its accumulators in registers, instead "
           "of as ops over tile buffers in shared memory">,
    Option<"ldmatrix", "ldmatrix", "bool", /*default=*/"true",
           "Load the tensor-core fragments of operands staged K-fastest "
           "with TF32 elements (precision fp32, tf32) by ldmatrix (one "
           "instruction per A tile and per B tile and K step) instead of "
           "a shared-memory load per register">,
  ];
  let dependentDialects = ["::mlir::fuse::FuseDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::vector::VectorDialect"];
}

def FuseSplitKBuffers : Pass<"fuse-split-k-buffers", "::mlir::ModuleOp"> {
  let summary = "Place the split-K kernels' partials and counters in module globals";
  let description = [{
    Runs after `fuse-distribute-threads`. The `memref.alloc`s it marks
    `fuse.split_k_buffer` become views of two module globals that every
    split-K kernel of the module shares (they run one after the other on
    one stream): `@__fuse_split_k_partials` (f32, as large as the largest
    kernel's partials, uninitialized) and `@__fuse_split_k_counters` (i32,
    one per tile of the kernel with the most tiles, zero-initialized; every
    kernel leaves its counters at zero). Their deallocations and the
    counters' zero fill (which stands in for the global where this pass
    does not run) go. On the GPU, `fuse-device-memory` gives each global
    one device copy per process.

    Calls of one compiled module must therefore not run concurrently (on
    two streams at once): they would share the counters.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def FuseVerifyKernels : Pass<"fuse-verify-kernels", "::mlir::ModuleOp"> {
  let summary = "Check that no GPU kernel allocates memory or copies from shared memory with cp.async";
  let description = [{
    Runs after kernel outlining. A `memref.alloc` inside a `gpu.func`
    becomes a per-thread device `malloc` in the PTX: it compiles, runs
    slowly and leaks. Every such allocation is an error naming the kernel
    and the buffer's type (usually a tile of dynamic shape). Allocations of
    static shape should have been promoted to the stack before this pass.

    A `cp.async` (`nvgpu.device_async_copy`) whose source is in shared
    memory (a tile buffer, or a generic view of one) is an error too: the
    instruction reads global memory only, and would read a wrong address.
  }];
}

def FuseDropKnownBlockSize : Pass<"fuse-drop-known-block-size", "::mlir::ModuleOp"> {
  let summary = "Drop the known block size of outlined kernels";
  let description = [{
    `gpu-kernel-outlining` records a launch's constant block size on the
    kernel (`known_block_size`), which the NVVM lowering turns into
    `.maxntid`. ptxas then budgets registers for as many such blocks per SM
    as fit (32 registers for 128 threads) and spills where the kernel needs
    a few more. Without it, ptxas allocates what the kernel needs (a YOLO
    residual kernel: 37 registers and no spill instead of 32 and 16 bytes
    spilled). Grid sizes stay.
  }];
}

def FuseKernelArgAttrs : Pass<"fuse-kernel-arg-attrs", "::mlir::ModuleOp"> {
  let summary = "Mark kernel buffers read-only and unaliased where the launches prove it";
  let description = [{
    Runs after kernel outlining, on the module holding the launches and the
    kernels. For each buffer argument of a kernel:

    - `llvm.readonly` when the kernel only reads it (loads, vector loads and
      reads, `cp.async` and `ldmatrix` sources, size and pointer queries,
      and views of it that are themselves only read);
    - unaliased when, at every launch, the memory it reaches overlaps no
      other buffer argument that the kernel writes (and, where it is
      written, no other buffer argument at all). The NVVM lowering expands a
      buffer into its descriptor's fields and does not carry `llvm.noalias`
      over, so the kernel records the LLVM arguments to mark
      (`fuse.noalias_args`: the aligned pointers) and
      `fuse-kernel-noalias` marks them after the lowering.

    A launch operand is traced back through views (`memref.view` with a
    constant byte shift; subviews, casts, reshapes), and through the
    arguments of private functions to every call's operand, to the object
    it lies in: an allocation (the arena), a global (weights), or an
    argument of a public function (the caller's buffers, which may alias
    each other); the bytes it reaches are taken from the first fully static
    type on the way. Two buffers are disjoint when their objects differ (a
    caller's buffer never is an allocation or a global of the module), or
    when both lie in one object at byte ranges that do not overlap (the
    arena's buffers that are live together). Anything else is taken to
    overlap.

    Every workgroup buffer of a kernel (`gpu.func` workgroup attribution) is
    marked `llvm.align = 16`: `cp.async`'s 16-byte copies and `ldmatrix`'s
    rows need 16-byte aligned shared-memory addresses, and the lowering
    otherwise aligns a buffer only to its element.

    With both attributes on a global-memory pointer the NVPTX backend reads
    it through the non-coherent path (`ld.global.nc`, the read-only data
    cache); `noalias` also lets LLVM keep loaded values in registers across
    the kernel's stores.

    ```mlir
    gpu.func @k(%in: memref<64xf32>, %out: memref<64xf32>) kernel
    // becomes, when %in is only read and no launch passes an overlapping
    // buffer as %out (aligned pointers: LLVM arguments 1 and 6):
    gpu.func @k(%in: memref<64xf32> {llvm.readonly}, %out: memref<64xf32>)
        kernel attributes {fuse.llvm_arg_count = 10 : i64,
                           fuse.noalias_args = array<i64: 1, 6>}
    ```
  }];
}

def FuseKernelNoAlias : Pass<"fuse-kernel-noalias"> {
  let summary = "Mark the aligned pointers fuse-kernel-arg-attrs recorded noalias";
  let description = [{
    Runs after the kernels' NVVM lowering. On every `llvm.func` with
    `fuse.noalias_args` (the aligned pointers of the buffers
    `fuse-kernel-arg-attrs` proved unaliased) and `fuse.llvm_arg_count`,
    marks those arguments `llvm.noalias` when the function has that many
    arguments and each is a pointer (a lowering that expanded the buffers
    otherwise gets no mark), and drops both attributes.
  }];
}

def FuseDeviceMemory : Pass<"fuse-device-memory", "::mlir::ModuleOp"> {
  let summary = "Host buffers and constants the GPU kernels can reach";
  let description = [{
    Runs on the LLVM dialect after `gpu-to-llvm` (the end of
    `fuse-to-nvptx`). In the host functions (the module's own LLVM
    functions, not those of its `gpu.module`s):

    - `malloc(n)` becomes `fuseDeviceMalloc(n)`: CUDA managed memory, which
      the kernels write and the host reads (the arena between kernels, the
      results);
    - `free(p)` becomes `fuseDeviceFree(p)`;
    - the address of a constant global (weights passed to a kernel) becomes
      `fuseDeviceConstant(address, bytes)`: a copy in device memory, made on
      first use and kept for the process, where every use of the address
      (through address arithmetic and the memref descriptors built from it;
      their integer fields are not followed) is a kernel operand of a
      `gpu.launch_func`; otherwise (the address is returned, handed to a
      function, stored or read: the host may see it)
      `fuseSharedConstant(address, bytes)`, the same in managed memory.

    The functions are in fuse's CUDA runtime library
    (`libfuse_cuda_runtime.so`). The caller's own arguments must already be
    device-accessible (device or managed memory).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def FuseAttachNVVMTarget : Pass<"fuse-attach-nvvm-target", "::mlir::ModuleOp"> {
  let summary = "Compile every GPU module for the module's fuse.target";
  let description = [{
    Gives every `gpu.module` an `#nvvm.target` for the chip of the target
    the IR was fused for (the `arch` of the module's `fuse.target`, or
    `chip` when given), with the PTX features, the NVVM optimization level
    and libdevice to link. It stands where upstream's `nvvm-attach-target`
    would, which needs the chip when the pipeline is built, before the IR
    (and its target) is known.

    Before (module `fuse.target = #fuse.target<"a100">`):
    ```mlir
    gpu.module @f_kernel { ... }
    ```
    After:
    ```mlir
    gpu.module @f_kernel [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">] { ... }
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "sm_XX to compile for; empty: the arch of the module's "
           "fuse.target (h200's sm_90 when it has none)">,
    Option<"features", "features", "std::string", /*default=*/"\"+ptx80\"",
           "PTX features">,
    Option<"optLevel", "O", "int64_t", /*default=*/"3",
           "NVVM optimization level (0 to 3)">,
    Option<"libdevice", "libdevice", "std::string", /*default=*/"\"\"",
           "Bitcode to link into every kernel (libdevice); empty: none">,
  ];
  let dependentDialects = ["::mlir::fuse::FuseDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::gpu::GPUDialect"];
}

def FuseCheckLaunchLimits : Pass<"fuse-check-launch-limits", "::mlir::ModuleOp"> {
  let summary = "Check a block size and shared memory against the module's target";
  let description = [{
    The first step of `fuse-to-nvptx` after the target is known: the
    threads per block and the shared memory per block the pipeline was asked
    for must be within what the module's `fuse.target` allows
    (`max_threads_per_block`, shared memory per block). A value out of range
    is one error naming the option, the bound and the target; nothing is
    changed otherwise.

    ```
    $ fuse-opt fused.mlir --fuse-to-nvptx=block-size=2048
    error: fuse-check-launch-limits: option 'block-size' must be at most 1024 (max_threads_per_block of target 'h200'), got 2048
    ```
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"0",
           "Threads per block (0: each group's lowering config decides)">,
    Option<"sharedBytes", "shared-bytes", "int64_t", /*default=*/"0",
           "Shared memory per block (0: the target's)">,
  ];
  let dependentDialects = ["::mlir::fuse::FuseDialect"];
}

def FuseCheckKernelInput : Pass<"fuse-check-kernel-input", "::mlir::ModuleOp"> {
  let summary = "Check that a module is fused IR that fuse-to-nvptx can compile";
  let description = [{
    The first step of `fuse-to-nvptx`: every kernel comes from a
    `fuse.group`, so the input must be what the fusion pipeline produces.
    Each of these is an error that names the op, the cause and the fix
    (instead of a later "op was not bufferized" or "works on the host"):

    - a TOSA op: the input has not been through `--fuse-fusion-pipeline`;
    - an op that computes on tensors outside any `fuse.group` (a linalg op,
      elementwise `arith`/`math` on whole tensors, a loop over tensors):
      nothing would run it on the GPU;
    - a loop or other op without `TilingInterface` inside a group, which no
      kernel can be tiled from (elementwise `arith`/`math` on tensors are
      fine: the pipeline turns them into `linalg.generic` first).

    ```
    $ fuse-opt model.tosa.mlir --fuse-to-nvptx
    error: fuse-check-kernel-input: 'tosa.add' is a TOSA op: fuse-to-nvptx compiles fused IR; run --fuse-fusion-pipeline first
    ```
  }];
  let dependentDialects = ["::mlir::fuse::FuseDialect"];
}

#endif // FUSE_CODEGEN_GPU_PASSES_TD
