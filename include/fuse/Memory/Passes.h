//===- Passes.h - memory planning passes ------------------------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_MEMORY_PASSES_H
#define FUSE_MEMORY_PASSES_H

#include "fuse/Memory/MemoryPlanner.h"
#include "mlir/Pass/Pass.h"

namespace mlir::fuse {

#define GEN_PASS_DECL
#include "fuse/Memory/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "fuse/Memory/Passes.h.inc"

} // namespace mlir::fuse

#endif // FUSE_MEMORY_PASSES_H
