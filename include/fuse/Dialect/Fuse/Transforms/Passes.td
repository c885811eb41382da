//===- Passes.td - fuse dialect passes ---------------------*- tablegen -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_DIALECT_FUSE_TRANSFORMS_PASSES_TD
#define FUSE_DIALECT_FUSE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def FuseTestClassify : Pass<"fuse-test-classify"> {
  let summary = "Annotate every op with its fusion category, FLOPs and bytes "
                "(for tests)";
  let description = [{
    Walks the IR and attaches what `FusibleOpInterface` says about each op as
    discardable attributes, so that lit tests can check the classification:
    `fuse.category` (a `#fuse.category`), and, where the shapes are static,
    `fuse.flops`, `fuse.bytes_read` and `fuse.bytes_written` (i64).

    Ops without the interface are annotated `#fuse.category<opaque>`.
    Constants, terminators and the payload of classified ops (e.g. the body of
    a `linalg.generic`) are left alone; ops with regions that are not
    classified themselves (functions, `fuse.group`) are entered.

    Before:
    ```mlir
    %0 = tosa.add %a, %b : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
    ```
    After:
    ```mlir
    %0 = tosa.add %a, %b {fuse.bytes_read = 160 : i64,
                          fuse.bytes_written = 128 : i64,
                          fuse.category = #fuse.category<broadcast>,
                          fuse.flops = 32 : i64}
        : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
    ```
  }];
  let dependentDialects = ["::mlir::fuse::FuseDialect"];
}

def FusePrune : Pass<"fuse-prune"> {
  let summary = "Remove what no kernel should compute before fusion";
  let description = [{
    Cleans the graph before fusion so that no group is spent on work that
    cancels out: dead ops, identity leftovers (`tosa.identity`, ONNX
    Identity/Dropout imported as identities, copy-only `linalg.generic`s),
    transpose∘transpose and reshape∘reshape pairs that cancel, depthwise
    convolutions with channel multiplier 1 whose result is only collapsed
    (`depthwise_conv_2d_nhwc_hwcm` + `tensor.collapse_shape` becomes
    `depthwise_conv_2d_nhwc_hwc`, so nothing separates them from their
    epilogue), and constant
    subgraphs, folded at compile time (linalg ops on constants up to
    `max-constant-fold-elements` result elements; broadcasts that would
    turn a small constant into a larger one are kept).

    It runs the canonicalization patterns of every loaded dialect and op
    plus linalg's constant folding; the fusion pipeline runs CSE after it.

    Before:
    ```mlir
    %t = linalg.transpose ins(%x : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
    %u = linalg.transpose ins(%t : tensor<8x4xf32>) outs(%f : tensor<4x8xf32>) permutation = [1, 0]
    return %u : tensor<4x8xf32>
    ```
    After:
    ```mlir
    return %x : tensor<4x8xf32>
    ```
  }];
  let options = [
    Option<"maxConstantFoldElements", "max-constant-fold-elements",
           "int64_t", /*default=*/"65536",
           "Fold linalg ops on constants only up to this many result "
           "elements">,
  ];
}

def FuseFoldAffine : Pass<"fuse-fold-affine"> {
  let summary = "Fold per-channel scale and shift (inference BatchNorm) into "
                "the contraction before it";
  let description = [{
    A graph rewrite on TOSA. When a convolution, depthwise convolution,
    transpose convolution or matmul is followed by a multiplication, addition
    or subtraction with a constant that varies only along the output channel
    (the last dimension), and nothing else reads the contraction's result,
    the constant is folded into the contraction:

    * `conv(x, W, b) * s`  becomes `conv(x, W * s, b * s)`;
    * `conv(x, W, b) + t`  becomes `conv(x, W, b + t)` (likewise `- t`, and
      `t - conv` negates the weights);
    * `matmul(a, B) * s`   becomes `matmul(a, B * s)` (a matmul has no bias,
      so an addition stays and fuses as an epilogue).

    Inference BatchNorm, `(y - mean) * gamma / sqrt(var + eps) + beta`, is a
    chain of these, so Conv+BN becomes one convolution with rescaled weights
    and bias: the BN costs nothing at run time. Only f32 constants given as
    dense elements are folded.

    Before:
    ```mlir
    %y = tosa.conv2d %x, %w, %b, %zp, %zp {...} : (...) -> tensor<1x8x8x16xf32>
    %z = tosa.mul %y, %scale, %shift : (tensor<1x8x8x16xf32>, tensor<1x1x1x16xf32>, tensor<1xi8>) -> tensor<1x8x8x16xf32>
    ```
    After:
    ```mlir
    %w2 = "tosa.const"() <{values = dense<...> : tensor<16x3x3x4xf32>}>   // w * scale
    %b2 = "tosa.const"() <{values = dense<...> : tensor<16xf32>}>         // b * scale
    %z = tosa.conv2d %x, %w2, %b2, %zp, %zp {...} : (...) -> tensor<1x8x8x16xf32>
    ```
  }];
}

def FuseMergeSiblingContractions : Pass<"fuse-merge-sibling-contractions"> {
  let summary = "Merge contractions that read the same input into one on "
                "concatenated weights";
  let description = [{
    A graph rewrite on TOSA (the `shared_input_contractions` rule).
    Contractions that read the same input with constant weights and the same
    attributes become ONE contraction on weights concatenated along the
    output channels, followed by a slice per original contraction:

    * `tosa.matmul` with the same left operand (the Q, K and V projections
      of attention);
    * `tosa.conv2d` with the same input, kernel size, stride, padding and
      dilation (Inception's same-input 1x1 convolutions; a ResNet
      downsample 1x1 conv and the block's first 1x1 conv when their strides
      agree).

    One large GEMM instead of several smaller ones reads the input once and
    keeps the GPU busy. The merged op's location carries the metadata
    `fuse.shared_input_contractions`, so the fusion engine and its report
    name the rule.

    Before:
    ```mlir
    %q = tosa.matmul %x, %wq, %zp, %zp : (tensor<1x128x768xf32>, tensor<1x768x768xf32>, ...) -> tensor<1x128x768xf32>
    %k = tosa.matmul %x, %wk, %zp, %zp : (...) -> tensor<1x128x768xf32>
    ```
    After:
    ```mlir
    %w = "tosa.const"() <{values = dense<...> : tensor<1x768x1536xf32>}>
    %qk = tosa.matmul %x, %w, %zp, %zp : (...) -> tensor<1x128x1536xf32>
    %q = tosa.slice %qk, %start0, %size : (...) -> tensor<1x128x768xf32>
    %k = tosa.slice %qk, %start1, %size : (...) -> tensor<1x128x768xf32>
    ```
  }];
}

def FuseFormGroups : Pass<"fuse-form-groups", "::mlir::ModuleOp"> {
  let summary = "Decide the fusion groups and wrap each in a fuse.group";
  let description = [{
    The fusion engine. For every function it builds the dataflow graph of
    the compute ops, applies the fusion rules by priority (contraction
    epilogues and residual joins first, then row reductions, elementwise
    chains and sibling merges), checks every candidate against the target
    (dependency/cycles, shared memory, arithmetic intensity, hardware
    capability, resource caps) and the cost model, and wraps each resulting
    group, one future kernel, in a `fuse.group` with its `kind` and `rule`.
    Every compute op ends up in exactly one group; constants, `tensor.empty`,
    fills and reshapes are cloned into the groups that use them.

    `fuse-opt --fuse-list-rules` prints the rules. The JSON report
    (`report=`) lists every group, every refused candidate with the check
    that refused it and its numbers, every op left alone with the reasons,
    and kernel and byte totals; `graph=` writes a Graphviz picture.

    Before:
    ```mlir
    %m = linalg.matmul ins(%a, %b : ...) outs(%fill : ...) -> tensor<16x64xf32>
    %y = linalg.generic {...} ins(%m, %bias : ...) outs(%e : ...) {  // + bias, relu
      ...
    } -> tensor<16x64xf32>
    ```
    After:
    ```mlir
    %y = fuse.group vertical rule "contraction_epilogue"
        (%arg0 = %a : ..., %arg1 = %b : ..., %arg2 = %bias : ...) -> tensor<16x64xf32>
        attributes {fuse.id = 0 : i64} {
      %fill = linalg.fill ...
      %m = linalg.matmul ...
      %y = linalg.generic ...
      fuse.yield %y : tensor<16x64xf32>
    }
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"h200\"",
           "The GPU to fuse for: a preset name (t4, v100, a100, h100, h200, "
           "orin, jetson-nano) or a #fuse.target<...> attribute">,
    Option<"reportFile", "report", "std::string", /*default=*/"\"\"",
           "Write the fusion report as JSON to this file ('-' for stdout)">,
    Option<"graphFile", "graph", "std::string", /*default=*/"\"\"",
           "Write the fused graph as Graphviz DOT to this file ('-' for "
           "stdout)">,
    ListOption<"disabledRules", "disable-rules", "std::string",
               "Fusion rules to switch off, by name">,
    Option<"maxOpsPerGroup", "max-ops-per-group", "int64_t",
           /*default=*/"64", "Most compute ops in one group">,
    Option<"maxKernelParamBytes", "max-kernel-param-bytes", "int64_t",
           /*default=*/"4096",
           "Most bytes of kernel parameters (memref descriptors) per group">,
    Option<"maxReductionsPerGroup", "max-reductions-per-group", "int64_t",
           /*default=*/"2", "Most reductions (not contractions) per group">,
    Option<"checkLowering", "check-lowering", "bool", /*default=*/"true",
           "Try fuse-lower-groups on each planned group (on a copy) and take "
           "back the last merge of a group it refuses (check 'lowering')">,
  ];
  // The trial lowering of each planned group (check-lowering) tiles it.
  let dependentDialects = ["::mlir::fuse::FuseDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect"];
}

def FuseLowerGroups : Pass<"fuse-lower-groups"> {
  let summary = "Tile each fuse.group's root and fuse the rest of the group "
                "into that tile loop: one scf.forall nest per group";
  let description = [{
    The first step from a group to ONE kernel. The group's root is the op
    that produces its last result; every other op of the group must be a
    (transitive) producer of the root. The root is tiled with an
    `scf.forall` over its parallel loops (TilingInterface) and the producers
    are fused into the tile loop, recomputed per tile where needed; values
    the group also returns come out of the loop as extra results.

    Tile sizes: reduction loops are never tiled; in a group with a
    reduction the innermost parallel loop is kept whole (rows stay in one
    tile); otherwise the innermost parallel loop is tiled by 32, the one
    before it by 8 and the outer ones by 1, each lowered to the largest size
    that divides the loop's extent, so every tile has the same static shape.
    In a group with one root, a tile with fewer points than `threads`
    (at most the target's threads per block) takes twice as many iterations
    of its outer tiled loops, inner first, while that still divides them, so
    each thread of the kernel's block gets a point.
    `tile-sizes` overrides them for every root (missing trailing sizes count
    as 0: not tiled).

    A group that cannot be tiled as one nest gets an error naming the group
    and the op that stayed outside; nothing is split silently.

    Before:
    ```mlir
    %r = fuse.group vertical (%a = %x : tensor<64x256xf32>) -> tensor<64x256xf32> {
      %e = math.exp %a ... ; %t = math.tanh %e ...
      fuse.yield %t : tensor<64x256xf32>
    }
    ```
    After:
    ```mlir
    %r = fuse.group vertical (%a = %x : tensor<64x256xf32>) -> tensor<64x256xf32> {
      %l = scf.forall (%i, %j) = (0, 0) to (64, 256) step (8, 32) shared_outs(...) {
        ... exp and tanh on a 8x32 tile ...
        scf.forall.in_parallel { tensor.parallel_insert_slice ... }
      }
      fuse.yield %l : tensor<64x256xf32>
    }
    ```
  }];
  let options = [
    ListOption<"tileSizes", "tile-sizes", "int64_t",
               "Tile sizes for every group root (0: not tiled)">,
    Option<"target", "target", "std::string", /*default=*/"\"h200\"",
           "Target preset or #fuse.target attribute: bounds the threads a "
           "tile is sized for (max_threads_per_block)">,
    Option<"threads", "threads", "int64_t", /*default=*/"128",
           "Threads per block the tiles are sized for">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::gpu::GPUDialect"];
}

def FuseOutlineGroups : Pass<"fuse-outline-groups", "::mlir::ModuleOp"> {
  let summary = "Turn every fuse.group into a function of its own and a call";
  let description = [{
    The CPU build keeps the kernel structure visible: each `fuse.group` of a
    function `@f` becomes a private function `@f__group<id>` (the group's
    `fuse.id`, else its position), taking the group's inputs and returning
    its results, and the group is replaced by a `func.call`. The kind and
    rule stay on the function as `fuse.kind` and `fuse.rule` string
    attributes (plain strings, so the lowered module needs no fuse dialect);
    a `fuse.no_plan` marker on the parent carries over to its groups.

    Before:
    ```mlir
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = fuse.group vertical rule "elementwise_chain" (%a = %x : tensor<4xf32>) -> tensor<4xf32>
          attributes {fuse.id = 0 : i64} { ... fuse.yield %r : tensor<4xf32> }
      return %0 : tensor<4xf32>
    }
    ```
    After:
    ```mlir
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = call @f__group0(%x) : (tensor<4xf32>) -> tensor<4xf32>
      return %0 : tensor<4xf32>
    }
    func.func private @f__group0(%a: tensor<4xf32>) -> tensor<4xf32>
        attributes {fuse.kind = "vertical", fuse.rule = "elementwise_chain"} {
      ...
      return %r : tensor<4xf32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
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
    Option<"blockSize", "block-size", "int64_t", /*default=*/"128",
           "Threads per block (at most)">,
    Option<"sharedBytes", "shared-bytes", "int64_t", /*default=*/"232448",
           "Shared memory a block may use for tile-local buffers (default: "
           "227 KiB, the most an H100/H200 block can opt in to; "
           "fuse-to-nvptx passes its target's)">,
    Option<"emulate", "emulate", "bool", /*default=*/"false",
           "Distribute the outermost scf.forall of each function for a CPU "
           "run, with a loop over the threads instead of thread ids">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
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
      `fuseDeviceConstant(address, bytes)`: a managed copy, made on first
      use and kept for the process.

    The three functions are in fuse's CUDA runtime library
    (`libfuse_cuda_runtime.so`). The caller's own arguments must already be
    device-accessible (device or managed memory).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

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
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect"];
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

def FuseVerifyKernels : Pass<"fuse-verify-kernels", "::mlir::ModuleOp"> {
  let summary = "Check that no GPU kernel allocates memory";
  let description = [{
    Runs after kernel outlining. A `memref.alloc` inside a `gpu.func`
    becomes a per-thread device `malloc` in the PTX: it compiles, runs
    slowly and leaks. Every such allocation is an error naming the kernel
    and the buffer's type (usually a tile of dynamic shape). Allocations of
    static shape should have been promoted to the stack before this pass.
  }];
}

def FusePlanBuffers : Pass<"fuse-plan-buffers", "::mlir::ModuleOp"> {
  let summary = "Place the buffers between kernels in one arena";
  let description = [{
    Runs on host functions after bufferization, when the buffers that
    kernels pass each other are `memref.alloc`s of the function (use
    `buffer-results-to-out-params` so that callees do not allocate their
    results). Each such buffer gets a live interval over the function's ops
    (its first to its last use, through views and casts); a buffer that is
    returned escapes and is not planned. The static planner (see
    `fuse-plan-memory`) packs the intervals into ONE arena with `alignment`,
    and every planned allocation becomes a `memref.view` into it; their
    deallocations go.

    In-place reuse: when an elementwise-only group function (the output of
    `fuse-outline-groups`) is the last user of an input buffer of the same
    type as its output buffer, the output takes the input's memory.

    `workspace=alloc` allocates the arena in the function; with
    `workspace=argument` the arena is a new trailing function argument and
    `@<function>_workspace_bytes() -> index` returns its size, so the caller
    owns the memory (TensorRT-style workspace). The numbers go on the
    function as `fuse.memory = {naive, arena, max_live, in_place_bytes,
    strategy}`. Functions marked `fuse.no_plan` are left alone.

    Before:
    ```mlir
    %a = memref.alloc() : memref<64xf32>
    call @f__group0(%x, %a) : (memref<64xf32>, memref<64xf32>) -> ()
    %b = memref.alloc() : memref<64xf32>
    call @f__group1(%a, %b) : (memref<64xf32>, memref<64xf32>) -> ()
    ```
    After (`workspace=alloc`):
    ```mlir
    %arena = memref.alloc() {alignment = 256 : i64} : memref<512xi8>
    %a = memref.view %arena[%c0][] : memref<512xi8> to memref<64xf32>
    ...
    ```
  }];
  let options = [
    Option<"alignment", "alignment", "int64_t", /*default=*/"256",
           "Alignment of every buffer in the arena, in bytes">,
    Option<"workspace", "workspace", "std::string", /*default=*/"\"alloc\"",
           "alloc: the function allocates the arena; argument: the caller "
           "passes it">,
    Option<"inPlace", "in-place", "bool", /*default=*/"true",
           "Let elementwise groups write over an input they read last">,
    Option<"timeBudgetMs", "time-budget-ms", "double", /*default=*/"1000.0",
           "Local search budget of the planner">,
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def FuseTestFusionPatterns : Pass<"fuse-test-fusion-patterns"> {
  let summary = "Apply one family of fusion patterns greedily (for tests "
                "and as an example for embedders)";
  let description = [{
    Runs `populate<Family>FusionPatterns` with a policy built from the
    options under the greedy driver, on IR that already holds `fuse.group`s
    (single-op groups, say). See `FusionPatterns.h`.
  }];
  let options = [
    Option<"family", "family", "std::string", /*default=*/"\"composite\"",
           "vertical, horizontal, diagonal or composite">,
    Option<"target", "target", "std::string", /*default=*/"\"h200\"",
           "Preset name or #fuse.target attribute">,
    Option<"maxOpsPerGroup", "max-ops-per-group", "int64_t",
           /*default=*/"64", "Most compute ops in one group">,
  ];
  let dependentDialects = ["::mlir::fuse::FuseDialect"];
}

#endif // FUSE_DIALECT_FUSE_TRANSFORMS_PASSES_TD
