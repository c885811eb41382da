//===- FuseInterfaces.h - op classification for fusion ----------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// The FusibleOpInterface and the helpers that every implementation (fuse's
// external models and other dialects' own) uses to count bytes.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_DIALECT_FUSE_IR_FUSEINTERFACES_H
#define FUSE_DIALECT_FUSE_IR_FUSEINTERFACES_H

#include "fuse/Dialect/Fuse/IR/FuseAttrs.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/OpDefinition.h"

#include <optional>

namespace mlir::fuse {
/// The cost of one op as the fusion engine sees it.
struct OpClassification {
  OpCategory category = OpCategory::opaque;
  std::optional<int64_t> flops;
  std::optional<int64_t> bytesRead;
  std::optional<int64_t> bytesWritten;
};

} // namespace mlir::fuse

#include "fuse/Dialect/Fuse/IR/FuseInterfaces.h.inc"

namespace mlir::fuse {

/// Bytes of one element of `type` (integers and floats round up to whole
/// bytes, index counts as 8, complex as two parts), or std::nullopt for types
/// without a fixed size.
std::optional<int64_t> getElementTypeBytes(Type type);

/// Bytes of a statically shaped tensor or memref; for a scalar int, float or
/// index, its element size. std::nullopt for dynamic shapes and other types.
std::optional<int64_t> getShapedTypeBytes(Type type);

/// Sum of getShapedTypeBytes over `values`, skipping values that are neither
/// shaped nor scalar numbers; std::nullopt if one is dynamic.
std::optional<int64_t> sumShapedBytes(ValueRange values);

/// Number of elements of a statically shaped type (1 for scalars), or
/// std::nullopt for dynamic shapes.
std::optional<int64_t> getNumElements(Type type);

/// Whether `map` reads a broadcast operand: each result is a loop dimension
/// (in increasing order) or the constant 0, and it is not the identity.
bool isBroadcastMap(AffineMap map);

/// Classifies `op` through FusibleOpInterface; an op without the interface is
/// opaque with unknown costs.
OpClassification classifyOp(Operation *op);

/// Whether `op` does work that a kernel has to run: false for constants,
/// `tensor.empty`, `tensor.dim`, pure index arithmetic, terminators, views
/// (classified ops that neither compute nor move bytes, e.g. reshapes), and
/// initializers that only write scalars into fresh tensors without
/// arithmetic (`linalg.fill` of a value into `tensor.empty`, `tensor.splat`).
bool isComputeOp(Operation *op);
/// The same; where it returns true, `classification` receives classifyOp(op),
/// which it computed on the way (a caller that needs both classifies once).
bool isComputeOp(Operation *op, OpClassification *classification);

} // namespace mlir::fuse

#endif // FUSE_DIALECT_FUSE_IR_FUSEINTERFACES_H
