//===- Passes.h - fusion passes ---------------------------------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_FUSION_PASSES_H
#define FUSE_FUSION_PASSES_H

#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "mlir/Pass/Pass.h"

namespace mlir::fuse {

#define GEN_PASS_DECL
#include "fuse/Fusion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "fuse/Fusion/Passes.h.inc"

} // namespace mlir::fuse

#endif // FUSE_FUSION_PASSES_H
