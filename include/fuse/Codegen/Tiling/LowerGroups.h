//===- LowerGroups.h - one loop nest per fusion group -----------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_CODEGEN_TILING_LOWERGROUPS_H
#define FUSE_CODEGEN_TILING_LOWERGROUPS_H

#include "fuse/Dialect/Fuse/IR/FuseOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::fuse {

/// Registers what tiling a group needs beyond its ops' dialects: the
/// TilingInterface models of linalg and tensor ops. Passes that lower groups
/// (or try to) call it from getDependentDialects, so they work in any
/// driver, not only in one that registers every upstream extension.
void registerTilingDependencies(DialectRegistry &registry);

/// Tiles `group`'s root and fuses the rest of it into that loop (one
/// scf.forall nest: what fuse-lower-groups does to each group); fails with a
/// diagnostic naming the group and the op when the group cannot be one loop
/// nest.
LogicalResult lowerFusionGroup(RewriterBase &rewriter, GroupOp group,
                               ArrayRef<int64_t> tileSizes = {},
                               int64_t threads = 128);

} // namespace mlir::fuse

#endif // FUSE_CODEGEN_TILING_LOWERGROUPS_H
