//===- Passes.h - the compiled-model ABI ------------------------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_EXPORT_PASSES_H
#define FUSE_EXPORT_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::fuse {

#define GEN_PASS_DECL
#include "fuse/Export/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "fuse/Export/Passes.h.inc"

} // namespace mlir::fuse

#endif // FUSE_EXPORT_PASSES_H
