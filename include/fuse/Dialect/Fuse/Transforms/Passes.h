//===- Passes.h - fuse.group transforms -------------------------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_DIALECT_FUSE_TRANSFORMS_PASSES_H
#define FUSE_DIALECT_FUSE_TRANSFORMS_PASSES_H

#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "mlir/Pass/Pass.h"

namespace mlir::fuse {

#define GEN_PASS_DECL
#include "fuse/Dialect/Fuse/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "fuse/Dialect/Fuse/Transforms/Passes.h.inc"

} // namespace mlir::fuse

#endif // FUSE_DIALECT_FUSE_TRANSFORMS_PASSES_H
