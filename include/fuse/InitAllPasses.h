//===- InitAllPasses.h - register fuse's passes -----------------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_INITALLPASSES_H
#define FUSE_INITALLPASSES_H

#include "fuse/Dialect/Fuse/Transforms/Passes.h"
#include "fuse/Pipelines/Pipelines.h"

namespace mlir::fuse {

/// Registers every fuse pass and pipeline with the global registry, so
/// `fuse-opt` and any embedding driver can run them from pipeline strings.
inline void registerAllPasses() {
  registerFusePasses();
  registerFusePipelines();
}

} // namespace mlir::fuse

#endif // FUSE_INITALLPASSES_H
