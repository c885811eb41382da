//===- Bufferize.h - the bufferization both builds share --------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_LIB_PIPELINES_BUFFERIZE_H
#define FUSE_LIB_PIPELINES_BUFFERIZE_H

#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Pass/Pass.h"

namespace mlir::fuse::detail {

/// One-shot bufferization of the whole module, function boundaries
/// included, with identity layouts at the boundaries. A loop over tensors
/// in host code whose iterations yield new tensors gets a buffer per
/// iteration (the CPU build runs it; fuse-to-nvptx refuses such loops
/// before).
inline std::unique_ptr<Pass> createModuleBufferizePass() {
  bufferization::OneShotBufferizePassOptions options;
  options.bufferizeFunctionBoundaries = true;
  options.allowReturnAllocsFromLoops = true;
  options.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  return bufferization::createOneShotBufferizePass(options);
}

/// Results as buffers the caller allocates (statically sized ones hoisted):
/// kernels write into buffers of the host function. With `publicFunctions`
/// the public functions too (a compiled model's entry writes into the
/// caller's output buffers).
inline std::unique_ptr<Pass>
createResultsToOutParamsPass(bool publicFunctions = false) {
  bufferization::BufferResultsToOutParamsPassOptions options;
  options.hoistStaticAllocs = true;
  options.modifyPublicFunctions = publicFunctions;
  return bufferization::createBufferResultsToOutParamsPass(options);
}

/// Kernels write a function's output parameters directly where its last
/// step copied a buffer of its own into one (fuse-results-in-place; the
/// compiled-model entry's outputs).
std::unique_ptr<Pass> createResultsInPlacePass();

/// Registers fuse-results-in-place on its own, for tests.
void registerResultsInPlacePass();

/// Upstream's buffer-deallocation-pipeline (ownership-based deallocation,
/// simplification, lowering), with deallocs that free distinct allocations
/// unconditionally split into memref.dealloc ops first: the simplification
/// checks every pair of a dealloc's buffers.
void addBufferDeallocationPasses(OpPassManager &pm);

/// Registers the split step on its own (fuse-split-trivial-deallocs), for
/// tests; fuse-to-cpu registers it.
void registerSplitTrivialDeallocsPass();

} // namespace mlir::fuse::detail

#endif // FUSE_LIB_PIPELINES_BUFFERIZE_H
