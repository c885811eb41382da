//===- Passes.h - CPU kernel generation passes ------------------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_CODEGEN_CPU_PASSES_H
#define FUSE_CODEGEN_CPU_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::fuse {

#define GEN_PASS_DECL
#include "fuse/Codegen/CPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "fuse/Codegen/CPU/Passes.h.inc"

} // namespace mlir::fuse

#endif // FUSE_CODEGEN_CPU_PASSES_H
