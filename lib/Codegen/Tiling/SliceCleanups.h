//===- SliceCleanups.h - slices moved toward producers ----------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// The cleanups that tile-and-fuse runs after each fusion step, in the group's
// tile loop and in the streamed loops of attention: each moves a slice of a
// value toward the op that makes it, so the loop can fuse that op.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_LIB_CODEGEN_TILING_SLICECLEANUPS_H
#define FUSE_LIB_CODEGEN_TILING_SLICECLEANUPS_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::fuse::detail {

/// A slice of a slice becomes one slice (a merged contraction's output
/// slice, then its tile); a slice of a reshape becomes a reshape of a slice
/// (upstream's patterns, and a slice at any offset of a collapse whose
/// groups hold one dimension that is not 1, which those leave where the
/// offset is a loop's index: a single head's [1, 1, S, S] scores collapsed
/// to [1, S, S] and tiled by batch and row).
void populateSliceCleanupPatterns(RewritePatternSet &patterns);

} // namespace mlir::fuse::detail

#endif // FUSE_LIB_CODEGEN_TILING_SLICECLEANUPS_H
