//===- PackedWeights.h - records of weights packed for the CPU --*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_LIB_CODEGEN_CPU_PACKEDWEIGHTS_H
#define FUSE_LIB_CODEGEN_CPU_PACKEDWEIGHTS_H

#include "mlir/IR/Operation.h"

namespace mlir::fuse {

/// Appends to `fn`'s `fuse.relayouts` the record of weights packed for the
/// micro-kernels of contraction `op`: from shape `from` to the tiled shape
/// `to`, `bytes` in all (fuse-cpu-vectorize, fuse-cpu-pack-weights).
void recordPackedWeights(Operation *fn, StringRef op, ArrayRef<int64_t> from,
                         ArrayRef<int64_t> to, int64_t bytes);

} // namespace mlir::fuse

#endif // FUSE_LIB_CODEGEN_CPU_PACKEDWEIGHTS_H
