//===- WarpMma.h - contractions on warp-level tensor-core MMA ---*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// The `mma_sync` schedule of a tile's contraction (fuse-distribute-threads):
// block tiles of both operands staged in shared memory K-chunk by K-chunk,
// each warp computing its warp tile of 16x8 accumulator tiles with the
// sm_80 tensor-core instruction mma.sync.m16n8k8 (tf32 operands) or
// m16n8k16 (bf16/fp16 operands), f32 accumulators, in registers across the
// reduction and
// stored once. Emulated on the CPU with the same per-lane code: each lane's
// fragments land in memory and the instruction itself is computed from the
// PTX ISA's fragment layouts.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_LIB_CODEGEN_GPU_WARPMMA_H
#define FUSE_LIB_CODEGEN_GPU_WARPMMA_H

#include "fuse/Codegen/CostModel/MmaContraction.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

#include <optional>
#include <string>

namespace mlir::fuse::detail {

using fuse::MmaContraction;

/// Emits `body(builder, thread)` for every thread of a block of `threads`:
/// on the GPU once, for the thread id `tid`, followed by a barrier (unless
/// `barrier` is false); emulated, as a loop over the threads (a barrier's
/// effect: the next phase starts after all of them). The phases of
/// fuse-distribute-threads' SIMT and tensor-core schedules.
void emitPhase(OpBuilder &b, Location loc, bool emulate, int64_t threads,
               Value tid, llvm::function_ref<void(OpBuilder &, Value)> body,
               bool barrier = true);

/// An i1, computed at `b`: whether `memref`'s first element and every
/// stride but the innermost are whole `unit`-byte units (static strides and
/// offset checked here, the pointer and dynamic ones at run time): `unit`-
/// byte accesses (16: cp.async.cg, ld/st .v4 of f32; 8: .v4 of f16) along
/// its innermost dimension, from an index that is a multiple of `unit` /
/// the element size there, are then aligned.
Value emitAlignedTo(OpBuilder &b, Location loc, Value memref, int64_t unit);

/// Whether `operand` of `op` is an f32, f16 or bf16 buffer whose innermost
/// dimension has unit stride and is indexed by loop `loop` alone:
/// consecutive points of that loop are then consecutive elements (runs of
/// four can move as one access of four elements).
bool hasContiguousFloatLoop(linalg::LinalgOp op, OpOperand *operand,
                            unsigned loop);

/// Whether `memref` is (a view of) a buffer in the block's shared memory:
/// a memref in the workgroup address space, a view of one, a generic cast
/// of one, or a tile-local alloca (which fuse-distribute-threads places in
/// shared memory). cp.async reads only global memory; such an operand is
/// copied with loads and stores.
bool isInSharedMemory(Value memref);

/// Whether `memref` is (a view of) a tile-local buffer of the kernel that
/// computes `user`: an alloca or alloc in a region around `user` (tile
/// buffers, which fuse-distribute-threads places in shared memory), or a
/// buffer in the workgroup address space. The same answer emulated and on
/// the GPU.
bool isTileBuffer(Value memref, Operation *user);

/// The split-K buffers a kernel's blocks share, created in the host code
/// at `b` (freed at `after`) by fuse-distribute-threads and placed in
/// module globals by fuse-split-k-buffers: `partials` (f32, the blocks'
/// partial accumulators) and `counters` (i32, one arrival counter per
/// tile, zero between launches), 1-D and static.
struct SplitKBuffers {
  Value partials, counters;
};
SplitKBuffers createSplitKBuffers(OpBuilder &b, OpBuilder &after, Location loc,
                                  int64_t partialElements, int64_t tiles);

/// How the products are formed: `fp32` splits every operand into a TF32
/// value and a TF32 remainder and accumulates three products (fp32
/// accuracy) of mma.sync.m16n8k8; `tf32` one product of the operands
/// rounded to TF32; `bf16` and `fp16` one product of mma.sync.m16n8k16 of
/// the operands rounded to bfloat16 or IEEE half (to nearest, ties to
/// even), twice the multiply-adds per instruction. Accumulators are f32
/// in every case.
enum class MmaPrecision { fp32, tf32, bf16, fp16 };

/// Whether `precision` takes 16-bit operands (mma.sync.m16n8k16).
inline bool isHalfPrecision(MmaPrecision precision) {
  return precision == MmaPrecision::bf16 || precision == MmaPrecision::fp16;
}

/// The K points of one mma.sync at `precision`: 8 (TF32), 16 (16-bit).
inline int64_t mmaKStep(MmaPrecision precision) {
  return isHalfPrecision(precision) ? 16 : 8;
}

/// The mma_sync schedule of one contraction over a block of `threads`
/// threads (emulated: loops over the threads).
class WarpMma {
public:
  /// The schedule of `c` with `stages` K chunks staged at once (2 to 4)
  /// and the reduction split over `slices` blocks per tile (split-K; 1:
  /// none), or nullopt (with `why`, when given) when the block has no
  /// whole warp or a warp would hold more accumulator tiles than fit in
  /// registers.
  static std::optional<WarpMma> plan(const MmaContraction &c, int64_t threads,
                                     bool emulate, MmaPrecision precision,
                                     int64_t stages, int64_t slices = 1,
                                     std::string *why = nullptr);

  /// Split-K: the blocks of a tile each reduce one slice of the K chunks
  /// into partial accumulators (the first slice from the output's initial
  /// values, the others from zero), write them to the kernel's partials
  /// buffer and arrive at their tile's counter; the last to arrive sums
  /// the partials in slice order (the same sums whatever the arrival
  /// order), resets the counter and alone stores the accumulators and runs
  /// the rest of the kernel (enclosePastSplit).
  int64_t slices() const { return split; }
  /// Elements of the partials buffer for `tiles` tiles.
  int64_t partialElements(int64_t tiles) const;
  /// The block's slice and its tile's linear index (index values at the
  /// start of the tile), and the kernel's buffers.
  void setSplit(Value slice, Value tile, SplitKBuffers buffers) {
    sliceIndex = slice;
    tileIndex = tile;
    splitBuffers = buffers;
  }
  /// Moves the ops that follow the schedule in its block (the epilogue,
  /// once every op is emitted) under the last-to-arrive check, but for the
  /// deallocations of buffers made before it.
  void enclosePastSplit();

  /// Creates the buffers the schedule uses at `b`'s insertion point (the
  /// start of the tile): the operands' block tiles (shared memory on the
  /// GPU: the caller moves the allocas there), and when emulating the
  /// lanes' fragments and accumulators, freed before `end`.
  void allocate(OpBuilder &b, Operation *end);
  /// The allocas the block's threads share (the operands' block tiles).
  ArrayRef<memref::AllocaOp> sharedAllocas() const { return shared; }
  /// The buffer `old` (a shared allocation) now lives at `replacement`.
  void replaceBuffer(Value old, Value replacement) {
    if (sharedA == old)
      sharedA = replacement;
    if (sharedB == old)
      sharedB = replacement;
    if (lastFlag == old)
      lastFlag = replacement;
  }
  /// Folds the contraction's elementwise neighbours into its registers:
  /// the op that initializes its output (a fill, a bias broadcast) runs as
  /// each lane loads its accumulators, and the elementwise ops after it
  /// (bias, activation, a GELU's several ops, residual add, a copy out) on
  /// each accumulator and the values made from it, which are then stored
  /// once to each buffer seen after them (the group's output, a tile
  /// buffer a reduction reads). An op folds when every loop is parallel,
  /// its output's map is the identity over the contraction's output shape,
  /// it reads values the lanes hold only element for element, and nothing
  /// but side-effect-free ops lies between it and the contraction (their
  /// operands are moved above the contraction). The folded ops and the
  /// tile buffers only they used are erased by emit.
  void foldElementwise();
  /// The ops foldElementwise folded (not to be distributed: emit erases
  /// them).
  ArrayRef<Operation *> foldedOps() const { return folded; }
  /// The tile buffers only the folded ops used: not placed in shared
  /// memory, erased by emit.
  ArrayRef<Operation *> foldedBuffers() const { return deadBuffers; }
  /// Erases the buffers (the caller falls back to another schedule); the
  /// folded ops stay, to be distributed as before.
  void drop();
  /// Replaces the contraction by the schedule; `tid` is the thread id
  /// (unused when emulating). A barrier follows unless `barrier` is false.
  void emit(Value tid, bool barrier);

  const MmaContraction &contraction() const { return c; }

  /// Whether a lane's fragments of a staged K-fastest operand with TF32
  /// elements (precision fp32 or tf32) load with ldmatrix (on by
  /// default): one `ldmatrix.x4` per A tile and one `ldmatrix.x2` per B
  /// tile and K step, the lanes giving the rows' addresses, instead of
  /// a load per register. Emulated, each register is loaded from the row
  /// that the lane the instruction takes it from addresses.
  void useLdmatrix(bool on) { ldmatrix = on; }
  /// Whether operand A's (`isA`) or B's fragments load with ldmatrix.
  bool loadsWithLdmatrix(bool isA) const;

private:
  WarpMma(MmaContraction c) : c(std::move(c)) {}

  MmaContraction c;
  int64_t threads = 0;
  bool emulate = false;
  MmaPrecision precision = MmaPrecision::fp32;
  /// 16x8 accumulator tiles over M and N, the warps over them (WM x WN),
  /// and each warp's tiles (TM x TN).
  int64_t tilesM = 0, tilesN = 0, warpsM = 1, warpsN = 1;
  int64_t warpTilesM = 0, warpTilesN = 0;
  /// The K chunk staged at a time (a multiple of 8), and the chunks in
  /// shared memory at once (the ring of block tiles).
  int64_t chunk = 8;
  int64_t stages = 2;
  /// Split-K: the slices, the K points of one slice (whole chunks; all of
  /// K, rounded up to a chunk, when unsplit) and of all slices together.
  int64_t split = 1;
  int64_t sliceK = 0, paddedK = 0;
  Value sliceIndex, tileIndex;
  SplitKBuffers splitBuffers;
  /// On the GPU, the shared flag thread 0 tells the block by whether it
  /// arrived last; after emit, the check the rest of the kernel goes under.
  Value lastFlag;
  Operation *lastCheck = nullptr;
  /// Whether A and B are tile buffers the fragments load from directly
  /// (an operand the kernel computed is in shared memory already: no
  /// block tiles, no copies).
  bool directA = false, directB = false;
  /// useLdmatrix.
  bool ldmatrix = true;
  /// The element types A's and B's block tiles are staged in: the
  /// operand's own (f32, or a 16-bit model's f16 or bf16, copied as it is
  /// and extended as the fragments load).
  Type stagedA, stagedB;
  /// Block tiles of A and B in shared memory, and (emulated) the lanes'
  /// accumulators and fragments and one instruction's A and B.
  Value sharedA, sharedB, accs, fragA, fragB, tileA, tileB;
  SmallVector<memref::AllocaOp> shared;
  SmallVector<Operation *> created;
  /// foldElementwise: the output's initializer (null: the accumulators
  /// load the output), the epilogue's ops in order, the buffers the lanes
  /// store (the operands that write them; empty: the output), the folded
  /// ops and the buffers left dead.
  linalg::LinalgOp initializer;
  SmallVector<linalg::LinalgOp> epilogue;
  SmallVector<OpOperand *> stored;
  /// The reshapes (expand_shape, collapse_shape) of held buffers that
  /// epilogue ops read through.
  SmallVector<Operation *> views;
  SmallVector<Operation *> folded, deadBuffers;

  friend class WarpMmaEmitter;
};

} // namespace mlir::fuse::detail

#endif // FUSE_LIB_CODEGEN_GPU_WARPMMA_H
