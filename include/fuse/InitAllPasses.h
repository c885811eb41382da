//===- InitAllPasses.h - register fuse's passes -----------------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_INITALLPASSES_H
#define FUSE_INITALLPASSES_H

#include "fuse/Codegen/CPU/Passes.h"
#include "fuse/Codegen/GPU/Passes.h"
#include "fuse/Codegen/Tiling/Passes.h"
#include "fuse/Dialect/Fuse/Transforms/Passes.h"
#include "fuse/Export/Passes.h"
#include "fuse/Fusion/Passes.h"
#include "fuse/Memory/Passes.h"
#include "fuse/Pipelines/Pipelines.h"
#include "fuse/Preprocessing/Passes.h"

namespace mlir::fuse {

/// Registers every fuse pass and pipeline with the global registry, so
/// `fuse-opt` and any embedding driver can run them from pipeline strings.
inline void registerAllPasses() {
  registerFuseDialectTransformsPasses();
  registerFusePreprocessingPasses();
  registerFuseFusionPasses();
  registerFuseTilingPasses();
  registerFuseGPUPasses();
  registerFuseCPUPasses();
  registerFuseMemoryPasses();
  registerFuseExportPasses();
  registerFusePipelines();
}

} // namespace mlir::fuse

#endif // FUSE_INITALLPASSES_H
