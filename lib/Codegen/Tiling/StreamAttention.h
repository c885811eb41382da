//===- StreamAttention.h - keys and values streamed -------------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// The attention schedule's streamed form (Lowering.md, "Streamed
// attention"), applied by fuse-lower-groups to a tile loop whose config
// tiles the root's reduction loop.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_LIB_CODEGEN_TILING_STREAMATTENTION_H
#define FUSE_LIB_CODEGEN_TILING_STREAMATTENTION_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::fuse::detail {

/// Replaces each slice, inside `loop`, of a tensor.empty made outside it
/// (the init of a producer fused into the loop) by an empty tensor of the
/// slice's shape made in the loop: a buffer local to one iteration, not a
/// slice of a whole buffer allocated before the loop.
void makeEmptyTilesLocal(RewriterBase &rewriter, Operation *loop);

/// Runs each linalg op of the tile `forall` with one reduction loop longer
/// than `chunk` (a multiple of it) as a loop over chunks of its reduction,
/// the producers of each chunk fused in; `name` names the group in errors.
LogicalResult streamReductions(RewriterBase &rewriter, scf::ForallOp forall,
                               int64_t chunk, StringRef name);

/// Merges the three streamed loops of a softmax and the product after it
/// (row maximum, row sum of exp(x - max), product of the normalized
/// weights with V) into one loop with a running maximum: the sum and the
/// product's accumulators are rescaled by exp(old max - new max) at each
/// chunk, and the product is normalized once, after the loop (the online
/// softmax). False, and nothing changed, where the tile's loops are not
/// that computation.
bool mergeOnlineSoftmax(RewriterBase &rewriter, scf::ForallOp forall);

} // namespace mlir::fuse::detail

#endif // FUSE_LIB_CODEGEN_TILING_STREAMATTENTION_H
