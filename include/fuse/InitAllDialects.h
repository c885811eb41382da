//===- InitAllDialects.h - register fuse's dialects -------------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_INITALLDIALECTS_H
#define FUSE_INITALLDIALECTS_H

#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "fuse/Dialect/Fuse/IR/FuseExternalModels.h"
#include "mlir/IR/DialectRegistry.h"

namespace mlir::fuse {

/// Registers fuse's dialects and its FusibleOpInterface models for linalg,
/// tensor, tosa, arith and math into `registry`.
inline void registerAllDialects(DialectRegistry &registry) {
  registry.insert<FuseDialect>();
  registerFusibleOpInterfaceExternalModels(registry);
}

} // namespace mlir::fuse

#endif // FUSE_INITALLDIALECTS_H
