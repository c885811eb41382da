//===- CpuSchedule.h - a group's CPU schedule -------------------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// The register tiling of a contraction on the CPU, from a #fuse.cpu_target:
// chosen by the configuration step (the `cpu` field of a group's
// #fuse.lowering_config) and applied by fuse-cpu-vectorize, so the schedule
// the report prints is the one the code has.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_CODEGEN_COSTMODEL_CPUSCHEDULE_H
#define FUSE_CODEGEN_COSTMODEL_CPUSCHEDULE_H

#include "fuse/Dialect/Fuse/IR/FuseAttrs.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>
#include <string>

namespace mlir::fuse {

/// Upper bounds of a register tiling, from a CPU target (or options).
struct CpuTileBounds {
  /// Rows of the register tile, elements along the contiguous dimension,
  /// the innermost reduction's step.
  int64_t mr = 8, nr = 32, kc = 4;
  /// f32 lanes of one vector register (NR is a multiple where it can be).
  int64_t lanes = 16;
  /// Vector registers the accumulators may hold (MR x NR / lanes at most).
  int64_t accumulators = 28;
  /// A reduction whose column panel (reduction points x NR x 4 bytes) is
  /// larger runs in cache blocks (0: never) ...
  int64_t panelBytes = 256 * 1024;
  /// ... each block's panel at most this many bytes (an L1).
  int64_t blockBytes = 32 * 1024;
};

/// The bounds for `target`: NR two vector registers, MR at most 8, the
/// accumulators all but four of the vector registers (the rest hold the
/// operands), K step 4, cache blocks of an L1 for panels over a quarter of
/// L2.
CpuTileBounds cpuTileBounds(CpuTargetAttr target);

/// How one contraction is tiled: sizes of the register tile over its
/// parallel loops (in loop order), the order of those tile loops, and the
/// reduction loops' step.
struct RegisterTiling {
  SmallVector<int64_t> parallel;
  SmallVector<int64_t> interchange;
  SmallVector<int64_t> reduction;
  /// Reduction blocks for the cache (all 0: none): the outermost loops
  /// walk them, each block's column panel of the weights stays in L1
  /// while every register tile of the output accumulates it.
  SmallVector<int64_t> blocks;
};

/// Whether `op` is on tensors of static shape and f32 elements, with one
/// result: what the register tiles and their vectorization handle.
bool hasStaticF32Tensors(linalg::LinalgOp op);

/// Whether `op` is a product of two inputs of one 16-bit float type (f16 or
/// bf16) into an f32 output on tensors of static shape, each input read
/// once and extended to f32 in the payload (a 16-bit model's contraction):
/// its register tiles are vectorized like an f32 one's, the operands
/// converted as they load.
bool hasStaticSixteenBitProduct(linalg::LinalgOp op);

/// Whether `op` is a max or min pooling whose tensors are of static shape
/// and one 16-bit float type (exact in that type): vectorized in it.
bool hasStaticSixteenBitExtremum(linalg::LinalgOp op);

/// A convolution whose window is applied per channel (no sum over input
/// channels): its tile is elementwise on a row of channels.
bool isPerChannelConvolution(Operation *op);

/// A convolution whose register tile (one output row, a 1x1 window) has a
/// 1-D form that vectorizes (`conv_2d_nhwc_hwcf` or per channel).
bool isDecomposableConvolution(Operation *op);

/// The register tiling of `op` within `bounds` (of the register tiles NR
/// wide and, where NR is two vectors, one vector wide, each with the most
/// rows dividing the output's whose accumulators fit, the one with the
/// most accumulated elements; the wider of equals), or nothing where the
/// op is
/// not a contraction the CPU schedule tiles (static f32 tensors; a product
/// with projected-permutation maps or a decomposable convolution; a
/// `conv_2d_nhwc_fhwc` too, which fuse-to-cpu re-lays out to HWCF when its
/// filter is a constant).
std::optional<RegisterTiling> registerTilingOf(linalg::LinalgOp op,
                                               const CpuTileBounds &bounds);

/// The tiling `schedule` gives `op`; fails with `why` set where the
/// schedule is not one of `op` (another kind, a size that does not divide
/// its loop).
FailureOr<RegisterTiling> registerTilingFrom(linalg::LinalgOp op,
                                             CpuScheduleAttr schedule,
                                             std::string &why);

/// The contraction among the ops under `root` that a group's CPU schedule
/// describes: the one with the most iteration points (the first of
/// equals), or null where there is none.
linalg::LinalgOp primaryCpuContraction(Operation *root);

/// The CPU schedule of the ops under `root` (a fuse.group or the function
/// made from one) for `target`: its primary contraction's tiling, or kind
/// "loops".
CpuScheduleAttr chooseCpuSchedule(Operation *root, CpuTargetAttr target);

} // namespace mlir::fuse

#endif // FUSE_CODEGEN_COSTMODEL_CPUSCHEDULE_H
