//===- Passes.h - graph rewrites before fusion ------------------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_PREPROCESSING_PASSES_H
#define FUSE_PREPROCESSING_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::fuse {

#define GEN_PASS_DECL
#include "fuse/Preprocessing/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "fuse/Preprocessing/Passes.h.inc"

} // namespace mlir::fuse

#endif // FUSE_PREPROCESSING_PASSES_H
