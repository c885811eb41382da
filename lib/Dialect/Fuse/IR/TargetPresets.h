//===- TargetPresets.h - named #fuse.target presets -------------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_LIB_DIALECT_FUSE_IR_TARGETPRESETS_H
#define FUSE_LIB_DIALECT_FUSE_IR_TARGETPRESETS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace mlir::fuse {

/// One GPU as plain data. Peaks of 0 mean "not supported".
struct TargetPreset {
  llvm::StringLiteral name;
  llvm::StringLiteral arch;
  int64_t numSMs, sharedMemPerBlock, sharedMemPerSM, l2Bytes, registersPerSM,
      maxThreadsPerBlock;
  double dramGBps, launchMicros;
  double f64, f32, tf32, f16, bf16, f8, i8;
};

llvm::ArrayRef<TargetPreset> getTargetPresets();
const TargetPreset *lookupTargetPreset(llvm::StringRef name);

} // namespace mlir::fuse

#endif // FUSE_LIB_DIALECT_FUSE_IR_TARGETPRESETS_H
