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

/// Whether `chip` names an NVVM chip: sm_NN (NN at least 20, NVVM's oldest)
/// with an optional architecture-specific suffix (sm_90a, sm_100f). The
/// message every chip option gives when it does not.
bool isNvvmChipName(StringRef chip);
inline constexpr llvm::StringLiteral kNvvmChipRule =
    "must be sm_NN with NN at least 20 (sm_80, sm_90, sm_90a)";

} // namespace mlir::fuse

#endif // FUSE_CODEGEN_GPU_PASSES_H
