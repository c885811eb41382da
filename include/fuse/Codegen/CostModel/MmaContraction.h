//===- MmaContraction.h - a contraction as a GEMM ---------------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// The GEMM view of a linalg contraction that the tensor-core schedule
// computes: read by the lowering config's choice (fuse-configure-groups) and
// by the code generator (fuse-distribute-threads), so the two agree on
// which contractions run on tensor cores.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_CODEGEN_COSTMODEL_MMACONTRACTION_H
#define FUSE_CODEGEN_COSTMODEL_MMACONTRACTION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>
#include <string>

namespace mlir::fuse {

/// A linalg contraction as batches of C[M, N] += A[M, K] * B[K, N]: its
/// parallel loops that index only one input are that input's side (M or N),
/// loops both inputs index are batch loops, its reduction loops K. The N
/// side is the input indexed by the output's contiguous (last) dimension.
struct MmaContraction {
  linalg::LinalgOp op;
  /// The inputs of the M side and of the N side.
  OpOperand *a = nullptr, *b = nullptr;
  /// Loops of each class, slowest first (M, N and batch in the output's
  /// order, K in the order input A indexes them).
  SmallVector<unsigned> batch, m, n, k;
  /// The static extent of every loop.
  SmallVector<int64_t> sizes;
  int64_t batchPoints = 1, mPoints = 1, nPoints = 1, kPoints = 1;
  /// Whether the input's contiguous dimension is indexed by a K loop (its
  /// block tile is then staged K-fastest).
  bool aKFastest = true, bKFastest = true;
  /// The inputs' element type: f32, or f16 or bf16 (a 16-bit model's
  /// contraction, each operand extended to f32 in the payload).
  Type operandType;
};

/// `op` as an MmaContraction, or nullopt (with `why`, when given) when it is
/// not one the schedule computes: two inputs of one element type (f32, or
/// f16 or bf16 each extended to f32 in the payload) and one f32 output on
/// static tensors or buffers, a payload `out + a * b`, every parallel loop
/// indexing the output, every reduction loop indexing both inputs, and
/// non-empty M, N and K.
std::optional<MmaContraction> matchMmaContraction(linalg::LinalgOp op,
                                                  std::string *why = nullptr);

} // namespace mlir::fuse

#endif // FUSE_CODEGEN_COSTMODEL_MMACONTRACTION_H
