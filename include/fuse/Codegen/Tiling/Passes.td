//===- Passes.td - tiling: each group one loop nest --------*- tablegen -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_CODEGEN_TILING_PASSES_TD
#define FUSE_CODEGEN_TILING_PASSES_TD

include "mlir/Pass/PassBase.td"

def FuseConfigureGroups : Pass<"fuse-configure-groups"> {
  let summary = "Choose each fuse.group's schedule: its #fuse.lowering_config";
  let description = [{
    Attaches a `#fuse.lowering_config` to every `fuse.group` that has none
    (every one with `reconfigure`), from the module's `#fuse.target` (or
    `target`) and the group's shape: its schedule class, the tile of its
    roots (one tile is one thread block) and the threads per block.
    `fuse-form-groups` does this for the groups it forms (the config its
    lowering check tiled with); this pass is for groups formed elsewhere, or
    to choose again for other options. `fuse-lower-groups` and
    `fuse-distribute-threads` read the attribute; the fusion report prints
    it per group.

    The tile: reduction loops whole; in a group with a reduction the
    innermost parallel loop whole (a row per tile); otherwise the innermost
    parallel loop by 32, the next by 8, the outer ones by 1 (each the
    largest divisor of its extent, so every tile has one static shape). A
    tile with fewer points than `threads` doubles its outer tiled loops
    while the tiles still cover the target's SMs; then, while there are
    fewer tiles than SMs, the tiled loop whose next smaller divisor shrinks
    the tile least takes it (down to 32 points per tile, or 1 when the root
    itself reduces: each point is then a whole dot product). The threads:
    `threads` (at most the target's), fewer (a multiple of 32) when the
    root's tile has fewer points and no lanes can share a reduction.

    ```mlir
    %r = fuse.group vertical (...) -> tensor<1x7x7x512xf32> {
      ... conv 3x3 + bias + relu ...
    }
    // becomes (H200: 112 tiles of 7x32 would leave SMs idle)
    %r = fuse.group vertical (...) -> tensor<1x7x7x512xf32> attributes {
        fuse.lowering_config = #fuse.lowering_config<schedule = "convolution",
          tile = [1, 1, 7, 16, 0, 0, 0], threads = 128, instruction = "simt",
          precision = "fp32">} { ... }
    ```

    A group that cannot be tiled as one loop nest is an error naming the
    group and the op (as `fuse-lower-groups` would report it).
  }];
  let options = [
    ListOption<"tileSizes", "tile-sizes", "int64_t",
               "Tile sizes for every group root (0: not tiled) instead of "
               "the chosen ones">,
    Option<"cpuTarget", "cpu-target", "std::string", /*default=*/"\"\"",
           "Also choose each group's CPU schedule (the config's cpu field) "
           "for this CPU: a preset (host, avx512, avx2, neon) or a "
           "#fuse.cpu_target<...>; empty: none">,
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "The GPU: a preset or a #fuse.target<...>; empty: the module's "
           "fuse.target, else h200">,
    Option<"threads", "threads", "int64_t", /*default=*/"0",
           "Threads per block (the tiles sized for them); 0: tiles sized "
           "for 128, the block size the cost model predicts fastest">,
    Option<"tensorCores", "tensor-cores", "std::string",
           /*default=*/"\"auto\"",
           "When contractions run on tensor cores (instruction = mma_sync; "
           "targets of sm_80 and newer): auto (where the cost model "
           "predicts them faster), always (wherever the schedule computes "
           "the group's contraction) or never">,
    Option<"precision", "precision", "std::string", /*default=*/"\"fp32\"",
           "Precision of tensor-core products: fp32 (three TF32 products "
           "per multiply-add, fp32 accuracy), tf32 (one, about 1e-3 "
           "relative), bf16 or fp16 (one mma.sync.m16n8k16 of operands "
           "rounded to 16 bits: twice the multiply-adds per instruction, "
           "about 1e-2 and 1e-3 relative)">,
    Option<"stages", "stages", "int64_t", /*default=*/"0",
           "K chunks a tensor-core kernel stages in shared memory at once "
           "(2 to 4); 0: the count the cost model predicts fastest that "
           "fits shared memory">,
    Option<"splitK", "split-k", "int64_t", /*default=*/"0",
           "Blocks per tile a tensor-core kernel splits its reduction over "
           "(split-K, 2 to 16, where the group allows it); 0: the cost "
           "model's choice where the tiles do not fill the SMs; 1: never">,
    Option<"keyChunk", "key-chunk", "int64_t", /*default=*/"0",
           "Keys per chunk an attention tile streams its keys and values "
           "in, through an online softmax (it must divide them); 0: the "
           "cost model's choice of K and V whole or chunks of 32, 64 or "
           "128 keys; -1: never streamed">,
    Option<"reconfigure", "reconfigure", "bool", /*default=*/"false",
           "Choose anew for groups that already have a config (one whose "
           "new config does not tile all of its ops into one loop keeps "
           "its own; a remark says so)">,
  ];
  let dependentDialects = ["::mlir::fuse::FuseDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::linalg::LinalgDialect"];
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
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "The GPU whose block size bounds the tiles: a preset or a "
           "#fuse.target<...>; empty: the module's fuse.target, else h200">,
    Option<"threads", "threads", "int64_t", /*default=*/"0",
           "Threads per block the tiles are sized for (groups configured "
           "here); 0: the cost model's choice">,
    Option<"tensorCores", "tensor-cores", "std::string",
           /*default=*/"\"auto\"",
           "When contractions run on tensor cores (instruction = mma_sync; "
           "targets of sm_80 and newer): auto (where the cost model "
           "predicts them faster), always (wherever the schedule computes "
           "the group's contraction) or never">,
    Option<"precision", "precision", "std::string", /*default=*/"\"fp32\"",
           "Precision of tensor-core products: fp32 (three TF32 products "
           "per multiply-add, fp32 accuracy), tf32 (one, about 1e-3 "
           "relative), bf16 or fp16 (one mma.sync.m16n8k16 of operands "
           "rounded to 16 bits: twice the multiply-adds per instruction, "
           "about 1e-2 and 1e-3 relative)">,
    Option<"stages", "stages", "int64_t", /*default=*/"0",
           "K chunks a tensor-core kernel stages in shared memory at once "
           "(2 to 4); 0: the count the cost model predicts fastest that "
           "fits shared memory">,
    Option<"splitK", "split-k", "int64_t", /*default=*/"0",
           "Blocks per tile a tensor-core kernel splits its reduction over "
           "(split-K, 2 to 16, where the group allows it); 0: the cost "
           "model's choice where the tiles do not fill the SMs; 1: never">,
    Option<"keyChunk", "key-chunk", "int64_t", /*default=*/"0",
           "Keys per chunk an attention tile streams its keys and values "
           "in, through an online softmax (it must divide them); 0: the "
           "cost model's choice of K and V whole or chunks of 32, 64 or "
           "128 keys; -1: never streamed">,
    Option<"reconfigure", "reconfigure", "bool", /*default=*/"false",
           "Choose every group's lowering config anew (with `threads`), "
           "even one it already has; a group whose new config does not "
           "tile all of its ops into one loop keeps its own (a remark "
           "says so)">,
  ];
  let dependentDialects = ["::mlir::fuse::FuseDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::linalg::LinalgDialect"];
}

#endif // FUSE_CODEGEN_TILING_PASSES_TD
