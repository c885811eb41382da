//===- KernelCost.h - predicted time of one kernel -------------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// The time one group's kernel is predicted to take on a target under its
// schedule (docs/Lowering.md, "Predicted kernel time", states the model and
// its assumptions). The fusion report prints it per group; the lowering
// config chooses a block size by it.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_CODEGEN_COSTMODEL_KERNELCOST_H
#define FUSE_CODEGEN_COSTMODEL_KERNELCOST_H

#include "fuse/Dialect/Fuse/IR/FuseAttrs.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::fuse {

/// One contraction of a kernel whose blocks run several in turn (the
/// attention schedule: QK^T, then the product with V): its points per
/// block, M x N outputs over K reduction points, `batch` times; and
/// whether its operands are read where the block computed them (tile
/// buffers in shared memory) rather than staged from global memory.
struct ContractionPhase {
  int64_t m = 0, n = 0, k = 0, batch = 1;
  bool staged = false;
};

/// What the model reads of a kernel.
struct KernelShape {
  /// The lowering config's schedule class (contraction, convolution,
  /// attention and depthwise do multiply-adds).
  StringRef schedule;
  int64_t blocks = 1;
  int64_t threads = 128;
  /// Output points of one block's tile, and of its contiguous dimension
  /// (0: unknown, the points of a thread then lie in one column).
  int64_t pointsPerBlock = 1;
  int64_t innerPoints = 0;
  /// Multiply-adds of the whole kernel (0 where it does none).
  double macs = 0;
  /// Bytes the kernel reads and writes in DRAM (its inputs and outputs).
  int64_t bytes = 0;
  /// Bytes one tile reads of the inputs (through L2), and holds in
  /// tile-local (shared) buffers.
  int64_t tileInputBytes = 0;
  int64_t tileSharedBytes = 0;
  /// The lowering config's instruction (simt or mma_sync) and, on tensor
  /// cores, the products per multiply-add (3: fp32 from TF32 splits; 1:
  /// tf32).
  StringRef instruction = "simt";
  int64_t products = 1;
  /// The contraction's reduction points (K; 0: from the multiply-adds per
  /// output point).
  int64_t reductionPoints = 0;
  /// On tensor cores, the K points of one mma.sync: 8 (TF32 operands) or
  /// 16 (bf16/fp16 operands: twice the multiply-adds per instruction).
  int64_t mmaK = 8;
  /// On tensor cores: the K chunks of the block tiles staged at once, and
  /// the shared memory they take (mmaStagingBytes).
  int64_t stages = 2;
  int64_t stagingBytes = 0;
  /// On tensor cores: the blocks of each tile (`blocks` counts tiles) that
  /// split its reduction (split-K; 1: none).
  int64_t splitK = 1;
  /// A kernel of phases (the attention schedule; empty otherwise): its
  /// contractions in order, and per block the points of its other ops on
  /// tile buffers (elementwise ops, reductions, fills), the elements it
  /// copies in from its inputs (the head-split transposes), and how many
  /// ops run one after the other (each ends in a barrier), of which
  /// `copyPhases` copy from global memory.
  SmallVector<ContractionPhase, 2> contractionPhases;
  int64_t phasePoints = 0, copyPoints = 0, phaseCount = 0, copyPhases = 0;
  /// Of those other ops, the points and phases that run on a contraction's
  /// accumulators instead when it is on tensor cores (its output's fill,
  /// the elementwise ops right after it: fuse-distribute-threads'
  /// epilogue-in-registers).
  int64_t foldedPoints = 0, foldedPhases = 0;
  /// Keys per streamed chunk of an attention tile (the config's
  /// `key_chunk`; 0: K and V whole).
  int64_t keyChunk = 0;
};

struct KernelCost {
  double us = 0;
  /// What bounds it: dram, l2, fma, lsu, tensor (tensor-core issue) or
  /// latency.
  StringRef bound;
  /// Blocks on the busiest SM, and the warps of those resident at once.
  int64_t blocksPerSM = 0;
  int64_t warpsPerSM = 0;
  double loadsPerMac = 0;
  /// Bytes all tiles read through L2.
  int64_t l2Bytes = 0;
};

/// How a thread's points of a tile lie (fuse-distribute-threads' SIMT
/// schedule): `rows` x `columns` of them, the columns `inner / columns`
/// apart along the tile's contiguous dimension (`inner` points long), the
/// rows as far apart in the dimensions outside it. Points in one row share
/// the loads of an operand that does not depend on the column (a matmul's
/// A), points in one column those of an operand that does not depend on
/// the row (its B): rows + columns loads per reduction step for rows x
/// columns multiply-adds.
struct PointGrid {
  int64_t rows = 1;
  int64_t columns = 1;
};

/// The grid of `perThread` points for `threads` threads over a tile whose
/// contiguous dimension has `inner` points: the one with the fewest loads
/// (rows + columns) whose columns divide `inner` with `threads` a multiple
/// of `inner / columns`; the widest such columns among equals. One column
/// of `perThread` rows (the points t, t + threads, ...) where none is.
PointGrid choosePointGrid(int64_t perThread, int64_t threads, int64_t inner);

/// How the warps of a block share a tile's 16x8 accumulator tiles (the
/// mma_sync schedule): `warpsM` x `warpsN` warps, each with `tilesM` x
/// `tilesN` of them.
struct MmaWarpGrid {
  int64_t warpsM = 1, warpsN = 1;
  int64_t tilesM = 1, tilesN = 1;
};

/// The warp grid over `tilesM` x `tilesN` accumulator tiles for at most
/// `warps` warps: the most warps whose rows and columns divide the tiles,
/// then the fewest fragment registers a lane loads per K step (4 per A
/// tile, 2 per B tile).
MmaWarpGrid chooseMmaWarps(int64_t tilesM, int64_t tilesN, int64_t warps);

/// The K chunk the mma_sync schedule stages at a time: 32, or K rounded up
/// to a whole K step (`step`: 8 for TF32 operands, 16 for 16-bit ones)
/// where K is smaller.
int64_t mmaChunk(int64_t k, int64_t step = 8);

/// The shape of one stage of a block tile of the mma_sync schedule in
/// shared memory, for `points` rows (padded to whole accumulator tiles)
/// and `chunk` K columns of `elementBytes`-byte elements: K-fastest
/// [points][chunk + 16 bytes]; else [chunk][points + pad] with the row
/// length 8 more than a multiple of 32. Either way the 32 lanes' fragment
/// loads (8 rows x 4 K columns) hit 32 different banks, and every row
/// starts 16-byte aligned (cp.async's 16-byte copies).
SmallVector<int64_t> mmaBlockTileShape(int64_t points, int64_t chunk,
                                       bool kFastest, int64_t elementBytes = 4);

/// Bytes of shared memory the mma_sync schedule stages for an `m` x `n`
/// tile with reduction `k`: `stages` block tiles of each operand, staged as
/// `elementBytes`-byte elements (4: f32; 2: a 16-bit model's operands).
int64_t mmaStagingBytes(int64_t m, int64_t n, int64_t k, bool aKFastest,
                        bool bKFastest, int64_t stages, int64_t step = 8,
                        int64_t elementBytes = 4);

/// Multiply-adds one SM does per cycle on TF32 tensor cores with
/// mma.sync (0: the architecture has none; sm_80 and newer do).
int64_t tf32MmaMacsPerSM(StringRef arch);

/// Whether a schedule class does multiply-adds (its FLOPs are half MACs).
bool schedulesMultiplyAdds(StringRef schedule);

/// The predicted time of `shape` on `target`.
KernelCost predictKernelCost(const KernelShape &shape, TargetAttr target);

/// The bytes of `value` that its users for which `counted` holds read,
/// when every such use is a gather (a tensor.extract in a linalg op's
/// payload: one element per point of that op, an embedding lookup's
/// rows), at most the whole tensor; nullopt where such a use reads it
/// otherwise (a slice, an operand of an op) or none reads it.
std::optional<int64_t>
gatheredBytes(Value value, llvm::function_ref<bool(Operation *)> counted);

} // namespace mlir::fuse

#endif // FUSE_CODEGEN_COSTMODEL_KERNELCOST_H
