//===- LowerGroups.h - one loop nest per fusion group -----------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_CODEGEN_TILING_LOWERGROUPS_H
#define FUSE_CODEGEN_TILING_LOWERGROUPS_H

#include "fuse/Codegen/CostModel/KernelCost.h"
#include "fuse/Dialect/Fuse/IR/FuseAttrs.h"
#include "fuse/Dialect/Fuse/IR/FuseOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::fuse {

/// Registers what tiling a group needs beyond its ops' dialects: the
/// TilingInterface models of linalg and tensor ops. Passes that lower groups
/// (or try to) call it from getDependentDialects, so they work in any
/// driver, not only in one that registers every upstream extension.
void registerTilingDependencies(DialectRegistry &registry);

/// What a group's lowering config is chosen for.
struct GroupConfigOptions {
  /// Threads per block (at most the target's); 0: the tile is sized for
  /// 128 and the block size is the one the cost model predicts fastest
  /// (fuse/Codegen/CostModel/KernelCost.h).
  int64_t threads = 0;
  /// The tile of every root instead of the chosen one (missing trailing
  /// sizes: 0, the loop whole).
  SmallVector<int64_t> tileSizes;
  /// When a contraction runs on tensor cores (instruction = "mma_sync",
  /// where the target has them): "auto" when the cost model predicts it
  /// faster than SIMT, "always" whenever the group's contraction is one
  /// the schedule computes, "never"; and the precision of its products:
  /// "fp32" (three TF32 products, fp32 accuracy) or "tf32" (one).
  std::string tensorCores = "auto";
  std::string precision = "fp32";
  /// K chunks a tensor-core kernel stages at once (2 to 4); 0: the count
  /// the cost model predicts fastest whose staging fits shared memory.
  int64_t stages = 0;
  /// Blocks per tile a tensor-core kernel splits its reduction over
  /// (split-K, 2 to 16, where the group allows: one tensor-core
  /// contraction, no batch loop, a K chunk per slice); 0: the count the
  /// cost model predicts fastest, tried where the tiles do not fill the
  /// SMs; 1: never.
  int64_t splitK = 0;
  /// Keys per chunk an attention tile streams its keys and values in (the
  /// config's `key_chunk`, Lowering.md "Streamed attention"); 0: the
  /// configuration chooses (K and V whole, or chunks of 32, 64 or 128
  /// keys); -1: never streamed.
  int64_t keyChunk = 0;
  /// The CPU the group's CPU schedule (the config's `cpu` field) is chosen
  /// for; null: none is chosen.
  CpuTargetAttr cpuTarget;
};

/// The lowering config of `group` for `target` (#fuse.lowering_config: the
/// schedule class, the tile of its roots, the threads per block), chosen on
/// a copy of it (the group is unchanged); null when the group computes
/// nothing (it forwards its inputs). Fails with a diagnostic naming the
/// group and the op when the group cannot be tiled as one loop nest. With
/// `shape`, also what the cost model reads of the kernel it chose (the
/// blocks, points, multiply-adds and bytes; not the tile's own traffic).
FailureOr<LoweringConfigAttr>
configureFusionGroup(GroupOp group, TargetAttr target,
                     const GroupConfigOptions &options = {},
                     KernelShape *shape = nullptr);

/// `config` with CPU schedule `cpu` (null: none).
LoweringConfigAttr withCpuSchedule(LoweringConfigAttr config,
                                   CpuScheduleAttr cpu);

/// Checks the lowering-config options a pass `pass` takes (precision,
/// tensor-cores, stages, split-k; GroupConfigOptions' meanings): one error
/// line naming the first wrong one.
LogicalResult checkGroupConfigOptions(MLIRContext *context, StringRef pass,
                                      StringRef precision,
                                      StringRef tensorCores, int64_t stages,
                                      int64_t splitK);

/// The predicted times of `group` as two kernels (Lowering.md, "Splitting
/// GEMM + LayerNorm"): its contraction alone on tensor cores (the fastest
/// tensor-core tile of its own loops) and the rest of the group as one
/// memory-bound kernel reading the contraction's result.
struct ContractionSplit {
  Operation *contraction = nullptr;
  double contractionUs = 0;
  double restUs = 0;
};

/// The split of `group` (untiled) when it applies: a contraction or
/// convolution group whose contraction is read along rows by a reduction
/// (GEMM + LayerNorm: each tile then holds whole rows, so the contraction
/// cannot take tensor-core tiles), whose contraction the tensor-core
/// schedule computes, for a target with tensor cores that `options`
/// allow. The caller compares it with the group's own predicted time.
std::optional<ContractionSplit>
predictContractionSplit(GroupOp group, TargetAttr target,
                        const GroupConfigOptions &options = {});

/// Tiles `group`'s root by its `fuse.lowering_config` (configured first for
/// `target` when it has none, and recorded on it) and fuses the rest of it
/// into that loop (one scf.forall nest: what fuse-lower-groups does to each
/// group); fails with a diagnostic naming the group and the op when the
/// group cannot be one loop nest.
/// `shape` is filled as by configureFusionGroup when the group is
/// configured here (it had no config).
LogicalResult lowerFusionGroup(RewriterBase &rewriter, GroupOp group,
                               TargetAttr target,
                               const GroupConfigOptions &options = {},
                               KernelShape *shape = nullptr);

/// The blocks the kernel of a lowered `group` launches: the iterations of
/// its tile loop (0 when unknown).
int64_t launchedBlocks(GroupOp group);

/// The extent of each result of `map` (no symbols, results affine in the
/// loops) over loops of `extents` points each, starting at 0: a tile's span
/// per dimension of an operand it reads (a convolution's rows with their
/// halo).
SmallVector<int64_t> mapSpans(AffineMap map, ArrayRef<int64_t> extents);

/// What one tile of a lowered `group` reads of its inputs (through L2) and
/// holds in tile-local buffers, in bytes, added to `shape`'s
/// tileInputBytes and tileSharedBytes.
void measureTiledGroup(GroupOp group, KernelShape &shape);

} // namespace mlir::fuse

#endif // FUSE_CODEGEN_TILING_LOWERGROUPS_H
