//===- Passes.td - tiling: each group one loop nest --------*- tablegen -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_CODEGEN_TILING_PASSES_TD
#define FUSE_CODEGEN_TILING_PASSES_TD

include "mlir/Pass/PassBase.td"

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
    Option<"threads", "threads", "int64_t", /*default=*/"128",
           "Threads per block the tiles are sized for">,
  ];
  let dependentDialects = ["::mlir::fuse::FuseDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::linalg::LinalgDialect"];
}

#endif // FUSE_CODEGEN_TILING_PASSES_TD
