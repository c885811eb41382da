//===- Passes.h - GPU kernel generation passes ------------------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_CODEGEN_GPU_PASSES_H
#define FUSE_CODEGEN_GPU_PASSES_H

#include "fuse/Dialect/Fuse/IR/FuseAttrs.h"
#include "mlir/Pass/Pass.h"

namespace mlir::fuse {

#define GEN_PASS_DECL
#include "fuse/Codegen/GPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "fuse/Codegen/GPU/Passes.h.inc"

/// Checks `blockSize` threads and `sharedBytes` of shared memory per block
/// (0: the target's) against `target`; an error line names `pass`, the
/// option, the bound and the target.
LogicalResult checkLaunchLimits(MLIRContext *context, TargetAttr target,
                                int64_t blockSize, int64_t sharedBytes,
                                StringRef pass);

} // namespace mlir::fuse

#endif // FUSE_CODEGEN_GPU_PASSES_H
