//===- AliasOps.h - ops that only view a buffer -----------------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// Shared by the memory passes that follow a buffer through its views
// (fuse-plan-buffers, fuse-hoist-group-scratch).
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_LIB_MEMORY_ALIASOPS_H
#define FUSE_LIB_MEMORY_ALIASOPS_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::fuse::detail {

/// Ops that only make another view of a buffer.
inline bool isAliasOp(Operation *op) {
  return isa<ViewLikeOpInterface, memref::CastOp, memref::ExpandShapeOp,
             memref::CollapseShapeOp, memref::ReinterpretCastOp,
             memref::ExtractStridedMetadataOp>(op);
}

} // namespace mlir::fuse::detail

#endif // FUSE_LIB_MEMORY_ALIASOPS_H
