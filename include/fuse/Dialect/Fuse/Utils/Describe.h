//===- Describe.h - how reports and diagnostics name an op ------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_DIALECT_FUSE_UTILS_DESCRIBE_H
#define FUSE_DIALECT_FUSE_UTILS_DESCRIBE_H

#include "mlir/IR/Location.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace mlir {
class Operation;
namespace fuse {

/// Visits `loc` and the locations inside it (a name's child, a fusion's
/// parts, a call site's callee), depth first in order, until `found`
/// returns true; returns whether it did.
bool findInLocation(Location loc, llvm::function_ref<bool(Location)> found);

/// A human-readable identifier of an op for reports: "linalg.matmul@MatMul_12"
/// (the first name in its location: an ONNX node's), else
/// "linalg.matmul@file:3:5", or "linalg.matmul" when there is neither (fused
/// and call-site locations are looked through).
std::string describeOp(Operation *op);

/// A shape as reports write it: "768x3072".
std::string describeShape(llvm::ArrayRef<int64_t> shape);

} // namespace fuse
} // namespace mlir

#endif // FUSE_DIALECT_FUSE_UTILS_DESCRIBE_H
