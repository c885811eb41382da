//===- DistributeThreads.cpp - the work of a kernel over its threads ------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// After fuse-lower-groups, bufferization and the mapping of each group's
// tile loop to the grid, a kernel runs one tile per block, on one thread.
// This pass spreads each linalg op of a tile over the block's threads,
// contiguous dimension fastest, with a barrier between ops and the tile's
// intermediates in shared memory.
//
//===----------------------------------------------------------------------===//

#include "WarpMma.h"
#include "llvm/ADT/StringSwitch.h"

#include "fuse/Codegen/CostModel/KernelCost.h"
#include "fuse/Codegen/GPU/Passes.h"
#include "fuse/Dialect/Fuse/IR/FuseAttrs.h"
#include "fuse/Dialect/Fuse/IR/FuseDialect.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEDISTRIBUTETHREADS
#include "fuse/Codegen/GPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

/// Whether each parallel point of `op` writes its own output elements: every
/// output map is a projected permutation of all the parallel loops and of no
/// reduction loop. Then threads that own disjoint points never write the same
/// element.
bool ownsItsOutputs(linalg::LinalgOp op) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (OpOperand &init : op.getDpsInitsMutable()) {
    AffineMap map = op.getMatchingIndexingMap(&init);
    if (!map.isProjectedPermutation())
      return false;
    llvm::SmallBitVector seen(iterators.size());
    for (AffineExpr expr : map.getResults()) {
      unsigned dim = cast<AffineDimExpr>(expr).getPosition();
      if (iterators[dim] != utils::IteratorType::parallel)
        return false;
      seen.set(dim);
    }
    for (auto [dim, kind] : llvm::enumerate(iterators))
      if (kind == utils::IteratorType::parallel && !seen.test(dim))
        return false;
  }
  return true;
}

/// The parallel loops of `op`, slowest first: in the order of the first
/// output's dimensions (its last dimension is contiguous in memory), then
/// any the output does not index.
SmallVector<unsigned> parallelOrder(linalg::LinalgOp op) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<unsigned> order;
  if (op.getNumDpsInits() > 0) {
    AffineMap map = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    for (AffineExpr expr : map.getResults())
      if (auto dim = dyn_cast<AffineDimExpr>(expr))
        if (iterators[dim.getPosition()] == utils::IteratorType::parallel &&
            !llvm::is_contained(order, dim.getPosition()))
          order.push_back(dim.getPosition());
  }
  for (auto [dim, kind] : llvm::enumerate(iterators))
    if (kind == utils::IteratorType::parallel &&
        !llvm::is_contained(order, dim))
      order.push_back(dim);
  return order;
}

/// The number of parallel points of `op`, or nullopt when one is dynamic.
std::optional<int64_t> parallelPoints(linalg::LinalgOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t points = 1;
  for (auto [dim, kind] : llvm::enumerate(op.getIteratorTypesArray())) {
    if (kind != utils::IteratorType::parallel)
      continue;
    if (ShapedType::isDynamic(ranges[dim]))
      return std::nullopt;
    points *= ranges[dim];
  }
  return points;
}

/// Whether `op`'s reduction can run with its accumulator in a register: one
/// output, owned per point, a payload yielding one value, and no input that
/// is the output buffer itself (its loads would see the output's memory,
/// not the accumulator).
bool accumulatesInRegister(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0 ||
      !ownsItsOutputs(op) ||
      op.getBlock()->getTerminator()->getNumOperands() != 1)
    return false;
  Value out = op.getDpsInitOperand(0)->get();
  return llvm::none_of(op.getDpsInputOperands(),
                       [&](OpOperand *input) { return input->get() == out; });
}

/// The indices of a point's element of `op`'s (owned) output, from the
/// point's loop indices `ivs`.
SmallVector<Value> outputIndices(linalg::LinalgOp op, ArrayRef<Value> ivs) {
  AffineMap map = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  SmallVector<Value> indices;
  for (AffineExpr e : map.getResults())
    indices.push_back(ivs[cast<AffineDimExpr>(e).getPosition()]);
  return indices;
}

/// The reduction loops of `op`, in order.
SmallVector<unsigned> reductionDims(linalg::LinalgOp op) {
  SmallVector<unsigned> dims;
  for (auto [dim, kind] : llvm::enumerate(op.getIteratorTypesArray()))
    if (kind != utils::IteratorType::parallel)
      dims.push_back(dim);
  return dims;
}

/// The number of points of the loops `dims` (static `sizes`).
int64_t extentOf(ArrayRef<unsigned> dims, ArrayRef<int64_t> sizes) {
  int64_t extent = 1;
  for (unsigned d : dims)
    extent *= sizes[d];
  return extent;
}

/// Loop indices of `dims` from `linear` (the last of `dims` fastest), into
/// `ivs`.
void delinearize(OpBuilder &b, Location loc, Value linear,
                 ArrayRef<unsigned> dims, ArrayRef<int64_t> sizes,
                 MutableArrayRef<Value> ivs) {
  for (unsigned d : llvm::reverse(dims)) {
    Value size = arith::ConstantIndexOp::create(b, loc, sizes[d]);
    ivs[d] = b.createOrFold<arith::RemUIOp>(loc, linear, size);
    linear = b.createOrFold<arith::DivUIOp>(loc, linear, size);
  }
}

/// One iteration of `accumulate`'s loop: the payload of `op` per point at
/// the reduction indices `reductionIvs`, from the values `carried`.
SmallVector<Value> accumulateStep(OpBuilder &nb, Location nl,
                                  linalg::LinalgOp op,
                                  ArrayRef<SmallVector<Value>> points,
                                  ArrayRef<unsigned> reductions,
                                  ArrayRef<Value> reductionIvs,
                                  ValueRange carried);

/// The reduction iterations `first, first + step, ... < total` of parallel
/// points of `op` (`points[m]` holds point m's parallel indices; the
/// iterations count the reduction loops `reductions` linearly), each
/// accumulated in a register from `starts[m]`, the payload cloned per point
/// with the output's block argument replaced by it. The whole reduction in
/// order is a nest of scf.for, one per reduction loop; a strided share of it
/// (a lane's) one scf.for over the linear iterations. Returns the final
/// values. Same operations in the same order as the op's own loops for each
/// point, without a load and a store of the output per iteration; several
/// points interleave independent chains, and loads they share are one load
/// after CSE.
SmallVector<Value> accumulate(OpBuilder &b, Location loc, linalg::LinalgOp op,
                              ArrayRef<SmallVector<Value>> points,
                              ArrayRef<unsigned> reductions,
                              ArrayRef<int64_t> sizes, Value first, Value total,
                              Value step, ValueRange starts) {
  // The whole reduction in order (from 0, step 1): a loop per reduction
  // dimension, nested in the op's order, instead of one linear loop that
  // recovers each index by a div/rem per iteration.
  std::optional<int64_t> from = getConstantIntValue(first);
  std::optional<int64_t> by = getConstantIntValue(step);
  std::optional<int64_t> to = getConstantIntValue(total);
  if (from == 0 && by == 1 && to == extentOf(reductions, sizes) &&
      !reductions.empty()) {
    SmallVector<Value> lbs, ubs, steps;
    for (unsigned d : reductions) {
      lbs.push_back(arith::ConstantIndexOp::create(b, loc, 0));
      ubs.push_back(arith::ConstantIndexOp::create(b, loc, sizes[d]));
      steps.push_back(arith::ConstantIndexOp::create(b, loc, 1));
    }
    scf::LoopNest nest = scf::buildLoopNest(
        b, loc, lbs, ubs, steps, starts,
        [&](OpBuilder &nb, Location nl, ValueRange ivs, ValueRange carried) {
          SmallVector<Value> reductionIvs(sizes.size());
          for (auto [d, iv] : llvm::zip(reductions, ivs))
            reductionIvs[d] = iv;
          return accumulateStep(nb, nl, op, points, reductions, reductionIvs,
                                carried);
        });
    return SmallVector<Value>(nest.results);
  }
  auto loop = scf::ForOp::create(
      b, loc, first, total, step, starts,
      [&](OpBuilder &nb, Location nl, Value iv, ValueRange carried) {
        SmallVector<Value> reductionIvs(sizes.size());
        delinearize(nb, nl, iv, reductions, sizes, reductionIvs);
        scf::YieldOp::create(nb, nl,
                             accumulateStep(nb, nl, op, points, reductions,
                                            reductionIvs, carried));
      });
  return SmallVector<Value>(loop.getResults());
}

SmallVector<Value> accumulateStep(OpBuilder &nb, Location nl,
                                  linalg::LinalgOp op,
                                  ArrayRef<SmallVector<Value>> points,
                                  ArrayRef<unsigned> reductions,
                                  ArrayRef<Value> reductionIvs,
                                  ValueRange carried) {
  Block *payload = op.getBlock();
  SmallVector<Value> results;
  for (auto [m, point] : llvm::enumerate(points)) {
    SmallVector<Value> ivs = point;
    for (unsigned d : reductions)
      ivs[d] = reductionIvs[d];
    IRMapping map;
    for (OpOperand *input : op.getDpsInputOperands()) {
      Value value = input->get();
      if (isa<MemRefType>(value.getType())) {
        AffineMap im = op.getMatchingIndexingMap(input);
        SmallVector<Value> indices;
        for (unsigned r = 0; r < im.getNumResults(); ++r)
          indices.push_back(affine::makeComposedAffineApply(
              nb, nl, im.getSubMap({r}), getAsOpFoldResult(ivs)));
        value = memref::LoadOp::create(nb, nl, value, indices);
      }
      map.map(op.getMatchingBlockArgument(input), value);
    }
    map.map(op.getMatchingBlockArgument(op.getDpsInitOperand(0)), carried[m]);
    for (Operation &inner : payload->without_terminator()) {
      if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
        map.map(index.getResult(), ivs[index.getDim()]);
        continue;
      }
      nb.clone(inner, map);
    }
    results.push_back(
        map.lookupOrDefault(payload->getTerminator()->getOperand(0)));
  }
  return results;
}

/// The whole reduction of `count` points of `op` (`pointAt(b, m)` emits
/// point m's parallel indices), with static loop `sizes`: each output
/// element loaded once, accumulated in a register (`accumulate`), stored
/// once.
void reduceInRegisters(
    OpBuilder &b, Location loc, linalg::LinalgOp op, int64_t count,
    llvm::function_ref<SmallVector<Value>(OpBuilder &, int64_t)> pointAt,
    ArrayRef<int64_t> sizes) {
  Value out = op.getDpsInitOperand(0)->get();
  SmallVector<unsigned> reductions = reductionDims(op);
  SmallVector<SmallVector<Value>> points;
  SmallVector<Value> starts;
  for (int64_t m = 0; m < count; ++m) {
    points.push_back(pointAt(b, m));
    starts.push_back(
        memref::LoadOp::create(b, loc, out, outputIndices(op, points.back())));
  }
  SmallVector<Value> sums = accumulate(
      b, loc, op, points, reductions, sizes,
      arith::ConstantIndexOp::create(b, loc, 0),
      arith::ConstantIndexOp::create(b, loc, extentOf(reductions, sizes)),
      arith::ConstantIndexOp::create(b, loc, 1), starts);
  for (auto [ivs, sum] : llvm::zip(points, sums))
    memref::StoreOp::create(b, loc, sum, out, outputIndices(op, ivs));
}

/// A reduction whose output points are fewer than the block's threads (a
/// row of a layernorm or softmax, a matrix-vector product): several lanes
/// share each output point, each combining a strided share of the
/// reduction into its own partial (starting from the combiner's neutral
/// element). For a 32-bit element type the partials of a point's lanes in
/// one warp fold by warp shuffles (a butterfly of `gpu.shuffle xor`,
/// log2(min(lanes, 32)) steps, no shared memory and no barrier); where a
/// point has more than 32 lanes each warp's result goes to shared memory
/// and those fold pairwise there. Other element types fold all partials
/// pairwise in shared memory (a tree, log2(lanes) steps). One thread per
/// point combines the result with the output's initial value.
struct Cooperation {
  int64_t lanes = 0;
  /// The payload's combining op (arith.addf, arith.maximumf, ...).
  Operation *combiner = nullptr;
  TypedAttr neutral;
  /// Whether the lanes of a warp fold by shuffles.
  bool shuffles = false;
  /// Lanes of a point in one warp, and the point's partials left for
  /// shared memory (1: none, the warp's lane 0 has the result).
  int64_t width() const { return shuffles ? std::min<int64_t>(lanes, 32) : 1; }
  int64_t sharedPartials() const { return lanes / width(); }
};

std::optional<Cooperation> planCooperation(linalg::LinalgOp op,
                                           int64_t threads) {
  if (!accumulatesInRegister(op) ||
      !isa<linalg::GenericOp, linalg::ReduceOp, linalg::MatmulOp,
           linalg::BatchMatmulOp, linalg::MatvecOp, linalg::VecmatOp>(op))
    return std::nullopt;
  auto outType = dyn_cast<MemRefType>(op.getDpsInitOperand(0)->get().getType());
  if (!outType || !outType.hasStaticShape())
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t points = 1, reduced = 1;
  for (auto [dim, kind] : llvm::enumerate(op.getIteratorTypesArray())) {
    if (ShapedType::isDynamic(ranges[dim]))
      return std::nullopt;
    (kind == utils::IteratorType::parallel ? points : reduced) *= ranges[dim];
  }
  int64_t lanes = 1;
  while (points * lanes * 2 <= threads && lanes * 2 <= reduced)
    lanes *= 2;
  if (lanes < 2)
    return std::nullopt;
  SmallVector<Operation *> combiners;
  if (!matchReduction(op.getRegionOutputArgs(), 0, combiners) ||
      combiners.size() != 1 || combiners.front()->getNumOperands() != 2 ||
      combiners.front()->getNumResults() != 1)
    return std::nullopt;
  std::optional<TypedAttr> neutral = arith::getNeutralElement(combiners[0]);
  if (!neutral)
    return std::nullopt;
  Cooperation c{lanes, combiners.front(), *neutral};
  // Lanes are consecutive threads and a power of two: a point's lanes lie
  // in one warp (lanes <= 32) or fill whole warps.
  Type element = outType.getElementType();
  c.shuffles =
      (element.isF32() || element.isInteger(32)) && llvm::isPowerOf2_64(lanes);
  return c;
}

/// Why the ops of `body` cannot be spread over threads, or empty. Allowed:
/// linalg ops on buffers, ops without memory writes, allocas, and the
/// uniform control flow of the tile (scf.for, scf.if) around them.
std::string whyNotDistributable(Region &body) {
  std::string why;
  body.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<linalg::LinalgOp>(op)) {
      if (!cast<linalg::LinalgOp>(op).hasPureBufferSemantics()) {
        why = "a linalg op on tensors";
        return WalkResult::interrupt();
      }
      return WalkResult::skip();
    }
    // Allocation and release of tile-local buffers (the CPU build's) do not
    // write data.
    if (isa<scf::ForOp, scf::IfOp, scf::YieldOp, memref::AllocaOp,
            memref::AllocOp, memref::DeallocOp, gpu::TerminatorOp>(op))
      return WalkResult::advance();
    if (op->getNumRegions() > 0 && !isPure(op)) {
      why = ("'" + op->getName().getStringRef() + "' with regions").str();
      return WalkResult::interrupt();
    }
    if (!isMemoryEffectFree(op)) {
      auto effects = dyn_cast<MemoryEffectOpInterface>(op);
      if (!effects || effects.hasEffect<MemoryEffects::Write>() ||
          effects.hasEffect<MemoryEffects::Free>()) {
        why = ("'" + op->getName().getStringRef() + "' writes memory").str();
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return why;
}

/// At most this many output points of a reduction per thread carry their
/// accumulators through one reduction loop together.
constexpr int64_t kPointsPerThread = 8;

/// Static shared memory a kernel may declare without opting in.
constexpr int64_t kStaticSharedBytes = 48 * 1024;

/// Bytes a tile buffer of `type` takes in shared memory (16-byte aligned).
int64_t sharedBufferBytes(MemRefType type) {
  return llvm::alignTo(type.getNumElements() *
                           llvm::divideCeil(type.getElementTypeBitWidth(), 8),
                       16);
}

using fuse::detail::createSplitKBuffers;
using fuse::detail::MmaPrecision;
using fuse::detail::WarpMma;

/// How a kernel's contractions run on tensor cores: the precision and the
/// K chunks staged at once (the lowering config's).
struct MmaChoice {
  MmaPrecision precision = MmaPrecision::fp32;
  int64_t stages = 2;
  /// Blocks per tile splitting the reduction (split-K; 1: none).
  int64_t splitK = 1;
  /// Fragments of staged K-fastest TF32 operands by ldmatrix.
  bool ldmatrix = true;
};

class Distributor {
public:
  /// `mma`: the contractions run on tensor cores at that precision.
  /// `foldEpilogues`: the tensor-core contractions' elementwise
  /// neighbours run on their accumulators (WarpMma::foldElementwise).
  Distributor(int64_t threads, bool emulate,
              std::optional<MmaChoice> mma = std::nullopt,
              bool foldEpilogues = true)
      : threads(threads), emulate(emulate), foldEpilogues(foldEpilogues),
        mma(mma) {}

  /// Whether the tensor-core schedule is tried for `op` in a tile whose
  /// config asks for tensor cores: a reduction of two inputs (a product of
  /// them, if the schedule can compute it); a reduction of one input (a
  /// softmax's row statistics) is SIMT without a word.
  static bool mayRunOnTensorCores(linalg::LinalgOp op) {
    return op.getNumReductionLoops() > 0 && op.getNumDpsInputs() == 2;
  }

  /// The tensor-core schedule of `op` (a reduction of a tile whose config
  /// asks for tensor cores), or nullopt with `why`.
  std::optional<WarpMma> planMma(linalg::LinalgOp op, std::string &why) const {
    if (!op.hasPureBufferSemantics())
      return std::nullopt;
    std::optional<fuse::MmaContraction> contraction =
        fuse::matchMmaContraction(op, &why);
    if (!contraction)
      return std::nullopt;
    std::optional<WarpMma> schedule =
        WarpMma::plan(*contraction, threads, emulate, mma->precision,
                      mma->stages, mma->splitK, &why);
    if (schedule)
      schedule->useLdmatrix(mma->ldmatrix);
    return schedule;
  }

  /// The contractions under `body` that run on tensor cores (with their
  /// block tiles) and the reductions that lanes share (each with its
  /// partials buffer, [lanes] + the output's shape), allocated at the start
  /// of `body` (the caller moves allocas to shared memory).
  void planScratch(Region &body) {
    OpBuilder b = OpBuilder::atBlockBegin(&body.front());
    forEachOp(body, [&](linalg::LinalgOp op) {
      if (mma && mayRunOnTensorCores(op)) {
        std::string why;
        if (std::optional<WarpMma> schedule = planMma(op, why)) {
          if (foldEpilogues)
            schedule->foldElementwise();
          schedule->allocate(b, body.front().getTerminator());
          mmas.insert({op, std::move(*schedule)});
          return;
        }
        // The config asked for tensor cores: say why this one is SIMT.
        emitRemark(op.getLoc()) << "fuse-distribute-threads: '" << op->getName()
                                << "' runs on SIMT, not tensor cores: " << why;
      }
      std::optional<Cooperation> c = planCooperation(op, threads);
      if (!c)
        return;
      if (c->sharedPartials() == 1) {
        cooperations[op] = {*c, Value()};
        return;
      }
      auto outType = cast<MemRefType>(op.getDpsInitOperand(0)->get().getType());
      SmallVector<int64_t> shape = {c->sharedPartials()};
      llvm::append_range(shape, outType.getShape());
      auto alloca = memref::AllocaOp::create(
          b, op.getLoc(), MemRefType::get(shape, outType.getElementType()));
      cooperations[op] = {*c, alloca.getResult()};
    });
  }

  /// Gives up the shared reductions (their partials do not fit in shared
  /// memory): erases their buffers, drops them from `allocas`, and returns
  /// the shared-memory bytes they would have taken.
  int64_t dropScratch(SmallVectorImpl<memref::AllocaOp> &allocas) {
    int64_t bytes = 0;
    for (auto &entry : mmas) {
      emitRemark(entry.first->getLoc())
          << "fuse-distribute-threads: '" << entry.first->getName()
          << "' runs on SIMT, not tensor cores: the block's tile-local "
             "buffers do not fit shared memory";
      for (memref::AllocaOp alloca : entry.second.sharedAllocas()) {
        bytes += sharedBufferBytes(alloca.getType());
        llvm::erase(allocas, alloca);
      }
      // The epilogue's tile buffers are back.
      for (Operation *buffer : entry.second.foldedBuffers())
        if (auto alloca = dyn_cast<memref::AllocaOp>(buffer)) {
          bytes -= sharedBufferBytes(alloca.getType());
          allocas.push_back(alloca);
        }
      entry.second.drop();
    }
    mmas.clear();
    // Shuffle-only reductions take no shared memory and stay.
    SmallVector<Operation *> dropped;
    for (auto &entry : cooperations) {
      if (!entry.second.second)
        continue;
      auto alloca = entry.second.second.getDefiningOp<memref::AllocaOp>();
      bytes += sharedBufferBytes(alloca.getType());
      llvm::erase(allocas, alloca);
      alloca.erase();
      dropped.push_back(entry.first);
    }
    for (Operation *op : dropped)
      cooperations.erase(op);
    return bytes;
  }

  /// A tile buffer now lives in shared memory: `workgroup` (its
  /// workgroup-memory view, which the tensor-core schedule's cp.async
  /// writes), `replacement` (that cast to the generic address space, the
  /// shared reductions' partials).
  void replaceScratch(Value old, Value replacement, Value workgroup) {
    for (auto &entry : cooperations)
      if (entry.second.second && entry.second.second == old)
        entry.second.second = replacement;
    for (auto &entry : mmas)
      entry.second.replaceBuffer(old, workgroup);
  }

  bool hasMma() const { return !mmas.empty(); }

  /// The tile buffers that the tensor-core contractions' folded epilogues
  /// leave unused (not placed in shared memory).
  llvm::DenseSet<Operation *> foldedBuffers() const {
    llvm::DenseSet<Operation *> buffers;
    for (auto &entry : mmas)
      buffers.insert_range(entry.second.foldedBuffers());
    return buffers;
  }

  /// The contractions under `body` that planScratch would put on tensor
  /// cores (nothing is created).
  int64_t plannableMmas(Region &body) {
    int64_t count = 0;
    if (!mma)
      return 0;
    forEachOp(body, [&](linalg::LinalgOp op) {
      std::string why;
      if (mayRunOnTensorCores(op) && planMma(op, why))
        ++count;
    });
    return count;
  }

  /// The tensor-core schedule a split-K kernel splits, or null with `why`:
  /// the body must have exactly one tensor-core contraction, with one batch
  /// point per block.
  WarpMma *splitSchedule(std::string &why) {
    if (mmas.size() != 1) {
      why = llvm::formatv("its tile has {0} tensor-core contractions, not one",
                          mmas.size())
                .str();
      return nullptr;
    }
    WarpMma &schedule = mmas.begin()->second;
    if (int64_t points = schedule.contraction().batchPoints; points > 1) {
      why = llvm::formatv("its contraction has {0} batch points per block, "
                          "not one",
                          points)
                .str();
      return nullptr;
    }
    return &schedule;
  }

  /// Spreads every linalg op under `body` (outside other linalg ops) over
  /// the threads; `tid` is the thread id (unused when emulating).
  void run(Region &body, Value tid) {
    SmallVector<linalg::LinalgOp> ops;
    forEachOp(body, [&](linalg::LinalgOp op) { ops.push_back(op); });
    // Ops folded into a contraction's registers are emitted (and erased)
    // with it.
    llvm::DenseSet<Operation *> folded;
    for (auto &entry : mmas)
      folded.insert_range(entry.second.foldedOps());
    for (linalg::LinalgOp op : ops) {
      if (folded.contains(op))
        continue;
      auto schedule = mmas.find(op);
      if (schedule != mmas.end()) {
        // No barrier where nothing but the ops folded into it, or ops
        // without side effects, lies between it and the kernel's end.
        Operation *next = op->getNextNode();
        while (next &&
               (folded.contains(next) ||
                (next->getNumRegions() == 0 && !isa<gpu::TerminatorOp>(next) &&
                 isMemoryEffectFree(next))))
          next = next->getNextNode();
        schedule->second.emit(tid, !next || !isa<gpu::TerminatorOp>(next));
        continue;
      }
      auto it = cooperations.find(op);
      if (it != cooperations.end())
        distributeShared(op, tid, it->second.first, it->second.second);
      else if (!distributeByFour(op, tid))
        distribute(op, tid);
    }
    // Split-K: what follows a contraction runs in the tile's last block.
    for (auto &entry : mmas)
      entry.second.enclosePastSplit();
  }

private:
  /// The linalg ops under `body`, outside other linalg ops, in order.
  static void forEachOp(Region &body,
                        llvm::function_ref<void(linalg::LinalgOp)> fn) {
    SmallVector<linalg::LinalgOp> ops;
    body.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
        ops.push_back(linalgOp);
        return WalkResult::skip();
      }
      return WalkResult::advance();
    });
    for (linalg::LinalgOp op : ops)
      fn(op);
  }

  /// Emits `body(builder, thread)` for every thread: on the GPU once, for
  /// the thread id, followed by a barrier (unless `barrier` is false);
  /// emulated, as a loop over the threads (a barrier's effect: the next
  /// phase starts after all of them).
  void phase(OpBuilder &b, Location loc, Value tid,
             llvm::function_ref<void(OpBuilder &, Value)> body,
             bool barrier = true) {
    fuse::detail::emitPhase(b, loc, emulate, threads, tid, body, barrier);
  }

  /// The iteration space of a shared reduction: its loop sizes, parallel
  /// loops (contiguous last) and reduction loops, output points,
  /// reduction length, lanes per point and point groups at once.
  struct SharedShape {
    SmallVector<int64_t> sizes;
    SmallVector<unsigned> parallel, reductions;
    int64_t points, reduced, lanes, groups;
  };
  SharedShape sharedShapeOf(linalg::LinalgOp op, const Cooperation &c) const {
    SharedShape shape;
    shape.sizes = op.getStaticLoopRanges();
    shape.parallel = parallelOrder(op);
    shape.reductions = reductionDims(op);
    shape.points = extentOf(shape.parallel, shape.sizes);
    shape.reduced = extentOf(shape.reductions, shape.sizes);
    shape.lanes = c.lanes;
    shape.groups = std::min(threads / c.lanes, shape.points);
    return shape;
  }

  /// A reduction several lanes share (see Cooperation): each lane's strided
  /// share of every point's reduction, from the neutral element, into its
  /// partial; the partials folded (by shuffles in each warp, then pairwise
  /// in shared memory); lane 0's into the output.
  void distributeShared(linalg::LinalgOp op, Value tid, const Cooperation &c,
                        Value scratch) {
    if (c.shuffles) {
      distributeByShuffles(op, tid, c, scratch);
      return;
    }
    OpBuilder b(op);
    Location loc = op.getLoc();
    auto index = [&](OpBuilder &ob, int64_t v) -> Value {
      return arith::ConstantIndexOp::create(ob, loc, v);
    };
    SharedShape shape = sharedShapeOf(op, c);
    Value neutral = arith::ConstantOp::create(b, loc, c.neutral);

    // 1. Each lane's share: lane l of a point's group takes the reduction
    //    iterations l, l + lanes, ..., accumulated in a register from the
    //    neutral element, and writes its partial once (every partial is
    //    written: each point has a group, each lane an iteration).
    phase(b, loc, tid, [&](OpBuilder &ob, Value thread) {
      Value active =
          arith::CmpIOp::create(ob, loc, arith::CmpIPredicate::ult, thread,
                                index(ob, shape.groups * shape.lanes));
      auto ifOp = scf::IfOp::create(ob, loc, active, /*withElse=*/false);
      OpBuilder ib = ifOp.getThenBodyBuilder();
      Value group =
          ib.createOrFold<arith::DivUIOp>(loc, thread, index(ib, shape.lanes));
      Value lane =
          ib.createOrFold<arith::RemUIOp>(loc, thread, index(ib, shape.lanes));
      auto pointLoop = scf::ForOp::create(
          ib, loc, group, index(ib, shape.points), index(ib, shape.groups));
      OpBuilder pb = OpBuilder::atBlockBegin(pointLoop.getBody());
      SmallVector<Value> ivs(shape.sizes.size());
      delinearize(pb, loc, pointLoop.getInductionVar(), shape.parallel,
                  shape.sizes, ivs);
      Value partial =
          accumulate(pb, loc, op, {ivs}, shape.reductions, shape.sizes, lane,
                     index(pb, shape.reduced), index(pb, shape.lanes), neutral)
              .front();
      SmallVector<Value> at = {lane};
      llvm::append_range(at, outputIndices(op, ivs));
      memref::StoreOp::create(pb, loc, partial, scratch, at);
    });
    foldPartials(b, loc, op, tid, c, scratch, shape.lanes);
    op->erase();
  }

  /// The combiner of `c` on (lhs, rhs).
  static Value combine(OpBuilder &ob, Location loc, const Cooperation &c,
                       Value lhs, Value rhs) {
    OperationState state(loc, c.combiner->getName());
    state.addOperands({lhs, rhs});
    state.addTypes(lhs.getType());
    state.addAttributes(c.combiner->getAttrs());
    return ob.create(state)->getResult(0);
  }

  /// Every point's `partials` partials in `scratch` ([partials] + the
  /// output's shape) folded pairwise, partial l with partial l + s for
  /// s = partials/2, ..., 1 (one phase each), into partial 0; then one
  /// thread per point combines the output's value with it.
  void foldPartials(OpBuilder &b, Location loc, linalg::LinalgOp op, Value tid,
                    const Cooperation &c, Value scratch, int64_t partials) {
    auto index = [&](OpBuilder &ob, int64_t v) -> Value {
      return arith::ConstantIndexOp::create(ob, loc, v);
    };
    SmallVector<int64_t> sizes = op.getStaticLoopRanges();
    SmallVector<unsigned> parallel = parallelOrder(op);
    int64_t points = extentOf(parallel, sizes);
    Value out = op.getDpsInitOperand(0)->get();
    auto scratchType = cast<MemRefType>(scratch.getType());
    ArrayRef<int64_t> pointShape = scratchType.getShape().drop_front();
    for (int64_t half = partials / 2; half >= 1; half /= 2) {
      phase(b, loc, tid, [&](OpBuilder &ob, Value thread) {
        auto loop = scf::ForOp::create(
            ob, loc, thread, index(ob, half * points), index(ob, threads));
        OpBuilder lb = OpBuilder::atBlockBegin(loop.getBody());
        Value linear = loop.getInductionVar();
        SmallVector<Value> at;
        for (int64_t size : llvm::reverse(pointShape)) {
          at.push_back(
              lb.createOrFold<arith::RemUIOp>(loc, linear, index(lb, size)));
          linear =
              lb.createOrFold<arith::DivUIOp>(loc, linear, index(lb, size));
        }
        at.push_back(linear); // the partial
        std::reverse(at.begin(), at.end());
        SmallVector<Value> other = at;
        other[0] = lb.createOrFold<arith::AddIOp>(loc, at[0], index(lb, half));
        Value sum =
            combine(lb, loc, c, memref::LoadOp::create(lb, loc, scratch, at),
                    memref::LoadOp::create(lb, loc, scratch, other));
        memref::StoreOp::create(lb, loc, sum, scratch, at);
      });
    }

    // One thread per point adds partial 0 to the output.
    phase(b, loc, tid, [&](OpBuilder &ob, Value thread) {
      auto loop = scf::ForOp::create(ob, loc, thread, index(ob, points),
                                     index(ob, threads));
      OpBuilder lb = OpBuilder::atBlockBegin(loop.getBody());
      SmallVector<Value> ivs(sizes.size());
      delinearize(lb, loc, loop.getInductionVar(), parallel, sizes, ivs);
      SmallVector<Value> indices = outputIndices(op, ivs);
      SmallVector<Value> at = {index(lb, 0)};
      llvm::append_range(at, indices);
      Value acc =
          combine(lb, loc, c, memref::LoadOp::create(lb, loc, out, indices),
                  memref::LoadOp::create(lb, loc, scratch, at));
      memref::StoreOp::create(lb, loc, acc, out, indices);
    });
  }

  /// A shared reduction whose lanes fold by warp shuffles. Every thread
  /// runs the same rounds (a point per lane group each, ceil(points /
  /// groups) of them) so that every lane of a warp reaches every shuffle;
  /// a lane without a point contributes the neutral element. In a round
  /// each lane accumulates its strided share, then the butterfly: for
  /// s = width/2, ..., 1 a lane combines its value with that of lane
  /// (lane xor s) (`gpu.shuffle xor`, width 32: the lane groups are
  /// aligned within the warp), which leaves the group's fold in each of
  /// its lanes; lane 0 of a point's warp combines it into the output (one
  /// warp per point), else writes it to the shared partials, folded as in
  /// foldPartials after the rounds. Emulated, each step is a phase over
  /// the threads through two exchange buffers (one element per thread),
  /// the same lane arithmetic: lane t's value after a step is
  /// combine(value[t], value[t xor s]).
  void distributeByShuffles(linalg::LinalgOp op, Value tid,
                            const Cooperation &c, Value scratch) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    auto index = [&](OpBuilder &ob, int64_t v) -> Value {
      return arith::ConstantIndexOp::create(ob, loc, v);
    };
    SharedShape shape = sharedShapeOf(op, c);
    int64_t width = c.width();
    int64_t rounds = llvm::divideCeil(shape.points, shape.groups);
    bool direct = c.sharedPartials() == 1;
    Value out = op.getDpsInitOperand(0)->get();
    Type element = cast<MemRefType>(out.getType()).getElementType();
    Value neutral = arith::ConstantOp::create(b, loc, c.neutral);

    // Emulated: two exchange buffers of one value per thread.
    SmallVector<Value> exchange;
    if (emulate) {
      auto type = MemRefType::get({threads}, element);
      for (int i = 0; i < 2; ++i)
        exchange.push_back(memref::AllocOp::create(b, loc, type));
    }

    // The rounds: on the GPU one loop around straight-line lane code;
    // emulated the same loop around phases.
    Value round = index(b, 0);
    OpBuilder rb = b;
    if (rounds > 1) {
      auto loop = scf::ForOp::create(b, loc, index(b, 0), index(b, rounds),
                                     index(b, 1));
      round = loop.getInductionVar();
      rb = OpBuilder::atBlockBegin(loop.getBody());
    }
    // A thread's lane, point and whether it has one this round.
    struct Lane {
      Value lane, point, valid;
    };
    auto laneOf = [&](OpBuilder &ob, Value thread) {
      Lane l;
      Value group =
          ob.createOrFold<arith::DivUIOp>(loc, thread, index(ob, shape.lanes));
      l.lane =
          ob.createOrFold<arith::RemUIOp>(loc, thread, index(ob, shape.lanes));
      l.point = ob.createOrFold<arith::AddIOp>(
          loc, group,
          ob.createOrFold<arith::MulIOp>(loc, round, index(ob, shape.groups)));
      Value inGroup =
          arith::CmpIOp::create(ob, loc, arith::CmpIPredicate::ult, thread,
                                index(ob, shape.groups * shape.lanes));
      Value inRange = arith::CmpIOp::create(ob, loc, arith::CmpIPredicate::ult,
                                            l.point, index(ob, shape.points));
      l.valid = arith::AndIOp::create(ob, loc, inGroup, inRange);
      return l;
    };
    // The lane's partial: its share of its point's reduction, or neutral.
    auto partialOf = [&](OpBuilder &ob, const Lane &l) -> Value {
      auto ifOp = scf::IfOp::create(ob, loc, TypeRange{element}, l.valid,
                                    /*withElse=*/true);
      OpBuilder tb = ifOp.getThenBodyBuilder();
      SmallVector<Value> ivs(shape.sizes.size());
      delinearize(tb, loc, l.point, shape.parallel, shape.sizes, ivs);
      Value partial =
          accumulate(tb, loc, op, {ivs}, shape.reductions, shape.sizes, l.lane,
                     index(tb, shape.reduced), index(tb, shape.lanes), neutral)
              .front();
      scf::YieldOp::create(tb, loc, partial);
      OpBuilder eb = ifOp.getElseBodyBuilder();
      scf::YieldOp::create(eb, loc, neutral);
      return ifOp.getResult(0);
    };
    // Lane 0 of each warp of a point: the fold into the output (one warp
    // per point) or into the shared partials.
    auto storeFold = [&](OpBuilder &ob, const Lane &l, Value fold) {
      Value inWarp =
          width == shape.lanes
              ? l.lane
              : ob.createOrFold<arith::RemUIOp>(loc, l.lane, index(ob, width));
      Value first = arith::CmpIOp::create(ob, loc, arith::CmpIPredicate::eq,
                                          inWarp, index(ob, 0));
      Value storing = arith::AndIOp::create(ob, loc, l.valid, first);
      auto ifOp = scf::IfOp::create(ob, loc, storing, /*withElse=*/false);
      OpBuilder tb = ifOp.getThenBodyBuilder();
      SmallVector<Value> ivs(shape.sizes.size());
      delinearize(tb, loc, l.point, shape.parallel, shape.sizes, ivs);
      SmallVector<Value> indices = outputIndices(op, ivs);
      if (direct) {
        Value acc = combine(
            tb, loc, c, memref::LoadOp::create(tb, loc, out, indices), fold);
        memref::StoreOp::create(tb, loc, acc, out, indices);
        return;
      }
      SmallVector<Value> at = {
          tb.createOrFold<arith::DivUIOp>(loc, l.lane, index(tb, width))};
      llvm::append_range(at, indices);
      memref::StoreOp::create(tb, loc, fold, scratch, at);
    };

    if (!emulate) {
      Lane l = laneOf(rb, tid);
      Value value = partialOf(rb, l);
      for (int64_t offset = width / 2; offset >= 1; offset /= 2) {
        auto shuffle =
            gpu::ShuffleOp::create(rb, loc, value, offset,
                                   /*width=*/32, gpu::ShuffleMode::XOR);
        value = combine(rb, loc, c, value, shuffle.getShuffleResult());
      }
      storeFold(rb, l, value);
    } else {
      phase(rb, loc, tid, [&](OpBuilder &ob, Value thread) {
        memref::StoreOp::create(ob, loc, partialOf(ob, laneOf(ob, thread)),
                                exchange[0], thread);
      });
      int current = 0;
      for (int64_t offset = width / 2; offset >= 1; offset /= 2) {
        phase(rb, loc, tid, [&](OpBuilder &ob, Value thread) {
          Value partner =
              arith::XOrIOp::create(ob, loc, thread, index(ob, offset));
          Value own =
              memref::LoadOp::create(ob, loc, exchange[current], thread);
          Value theirs =
              memref::LoadOp::create(ob, loc, exchange[current], partner);
          memref::StoreOp::create(ob, loc, combine(ob, loc, c, own, theirs),
                                  exchange[1 - current], thread);
        });
        current = 1 - current;
      }
      phase(rb, loc, tid, [&](OpBuilder &ob, Value thread) {
        storeFold(ob, laneOf(ob, thread),
                  memref::LoadOp::create(ob, loc, exchange[current], thread));
      });
    }
    if (!direct) {
      // The rounds wrote every point's partials; fold them.
      if (!emulate)
        gpu::BarrierOp::create(b, loc);
      foldPartials(b, loc, op, tid, c, scratch, c.sharedPartials());
    } else if (!emulate) {
      gpu::BarrierOp::create(b, loc);
    }
    for (Value buffer : exchange)
      memref::DeallocOp::create(b, loc, buffer);
    op->erase();
  }

  /// How an elementwise op's operands move four points at a time (see
  /// distributeByFour): each input loaded as a vector of four (its
  /// innermost dimension is the points' contiguous loop) or as one scalar
  /// for the four (it does not depend on that loop).
  struct FourWide {
    SmallVector<bool> vectorInputs;
    bool readsOutput = false;
  };

  /// Whether `op` is elementwise on f32, f16 or bf16 buffers so that four
  /// consecutive points of its contiguous (innermost output) loop move as
  /// one access per operand (16 bytes of f32, 8 of a 16-bit type): every loop
  /// parallel with static sizes, the contiguous one a multiple of 4, one output
  /// owned per point and indexed there by that loop at unit stride, each input
  /// either the same or independent of the loop, no linalg.index in the
  /// payload.
  std::optional<FourWide> fourWideOf(linalg::LinalgOp op) {
    if (op.getNumReductionLoops() != 0 || op.getNumDpsInits() != 1 ||
        !ownsItsOutputs(op) || !op.hasPureBufferSemantics() ||
        !isa<linalg::GenericOp>(op) || op.getBlock()->empty())
      return std::nullopt;
    bool hasIndex = false;
    op->walk([&](linalg::IndexOp) { hasIndex = true; });
    if (hasIndex)
      return std::nullopt;
    SmallVector<int64_t> sizes = op.getStaticLoopRanges();
    if (llvm::any_of(sizes, ShapedType::isDynamic))
      return std::nullopt;
    unsigned inner = parallelOrder(op).back();
    if (sizes[inner] % 4 != 0)
      return std::nullopt;
    auto unitInnermost = [&](OpOperand *operand) {
      return fuse::detail::hasContiguousFloatLoop(op, operand, inner);
    };
    FourWide four;
    if (!unitInnermost(op.getDpsInitOperand(0)))
      return std::nullopt;
    four.readsOutput =
        !op.getMatchingBlockArgument(op.getDpsInitOperand(0)).use_empty();
    for (OpOperand *input : op.getDpsInputOperands()) {
      if (unitInnermost(input)) {
        four.vectorInputs.push_back(true);
        continue;
      }
      AffineMap map = op.getMatchingIndexingMap(input);
      if (map.isFunctionOfDim(inner))
        return std::nullopt;
      four.vectorInputs.push_back(false);
    }
    return four;
  }

  /// An elementwise op four points a thread at a time where its operands
  /// allow (fourWideOf) and are aligned to four elements (checked once at run
  /// time; emulated, always): thread t takes the runs t, t + T, ... of four
  /// consecutive points along the contiguous loop, loads each vector input
  /// with one load of four elements (ld .v4: 16 bytes of f32, 8 of f16 or
  /// bf16), applies the payload to the four points, and stores them with
  /// one store; unaligned operands
  /// take the one-point schedule (distribute). False when the op does not
  /// qualify.
  bool distributeByFour(linalg::LinalgOp op, Value tid) {
    std::optional<FourWide> four = fourWideOf(op);
    if (!four)
      return false;
    OpBuilder b(op);
    Location loc = op.getLoc();
    auto index = [&](OpBuilder &ob, int64_t v) -> Value {
      return arith::ConstantIndexOp::create(ob, loc, v);
    };
    SmallVector<int64_t> sizes = op.getStaticLoopRanges();
    SmallVector<unsigned> order = parallelOrder(op);
    int64_t runs = extentOf(order, sizes) / 4;
    OpOperand *init = op.getDpsInitOperand(0);
    // Four elements of an operand's type (16 bytes of f32, 8 of f16 or
    // bf16), aligned to their size.
    auto vectorTypeOf = [](Value memref) {
      return VectorType::get(
          {4}, cast<MemRefType>(memref.getType()).getElementType());
    };
    auto runBytes = [](Value memref) -> int64_t {
      return 4 * cast<MemRefType>(memref.getType()).getElementTypeBitWidth() /
             8;
    };

    // Every vector operand aligned (emulated: loads need no alignment).
    Value aligned;
    if (emulate) {
      aligned = arith::ConstantIntOp::create(b, loc, 1, 1);
    } else {
      aligned = fuse::detail::emitAlignedTo(b, loc, init->get(),
                                            runBytes(init->get()));
      for (auto [input, isVector] :
           llvm::zip(op.getDpsInputOperands(), four->vectorInputs))
        if (isVector)
          aligned = arith::AndIOp::create(
              b, loc, aligned,
              fuse::detail::emitAlignedTo(b, loc, input->get(),
                                          runBytes(input->get())));
    }
    auto ifOp = scf::IfOp::create(b, loc, aligned, /*withElseRegion=*/true);
    // The one-point schedule for unaligned operands: the op moved there.
    op->moveBefore(ifOp.elseBlock()->getTerminator());
    OpBuilder tb = ifOp.getThenBodyBuilder();
    auto emitRuns = [&](OpBuilder &ob, Value thread) {
      auto loop = scf::ForOp::create(ob, loc, thread, index(ob, runs),
                                     index(ob, threads));
      OpBuilder lb = OpBuilder::atBlockBegin(loop.getBody());
      SmallVector<Value> ivs(sizes.size());
      Value first = lb.createOrFold<arith::MulIOp>(loc, loop.getInductionVar(),
                                                   index(lb, 4));
      delinearize(lb, loc, first, order, sizes, ivs);
      auto indicesOf = [&](OpOperand *operand) {
        AffineMap map = op.getMatchingIndexingMap(operand);
        SmallVector<Value> indices;
        for (unsigned r = 0; r < map.getNumResults(); ++r)
          indices.push_back(affine::makeComposedAffineApply(
              lb, loc, map.getSubMap({r}), getAsOpFoldResult(ivs)));
        return indices;
      };
      auto loadFour = [&](OpOperand *operand) -> Value {
        auto load =
            vector::LoadOp::create(lb, loc, vectorTypeOf(operand->get()),
                                   operand->get(), indicesOf(operand));
        if (!emulate)
          load.setAlignment(runBytes(operand->get()));
        return load;
      };
      // Each block argument's four values (a vector's elements, or one
      // scalar four times).
      SmallVector<SmallVector<Value>> args;
      auto fourOf = [&](Value v, bool isVector) {
        SmallVector<Value> values;
        for (int64_t j = 0; j < 4; ++j)
          values.push_back(isVector ? vector::ExtractOp::create(
                                          lb, loc, v, ArrayRef<int64_t>{j})
                                          .getResult()
                                    : v);
        return values;
      };
      for (auto [input, isVector] :
           llvm::zip(op.getDpsInputOperands(), four->vectorInputs)) {
        Value v = isVector ? loadFour(input)
                           : memref::LoadOp::create(lb, loc, input->get(),
                                                    indicesOf(input))
                                 .getResult();
        args.push_back(fourOf(v, isVector));
      }
      if (four->readsOutput)
        args.push_back(fourOf(loadFour(init), true));
      else
        args.push_back(SmallVector<Value>(4, Value()));
      // The payload once per point.
      SmallVector<Value> results;
      Block *payload = op.getBlock();
      for (int64_t j = 0; j < 4; ++j) {
        IRMapping mapping;
        for (auto [arg, values] : llvm::zip(payload->getArguments(), args))
          if (values[j])
            mapping.map(arg, values[j]);
        for (Operation &inner : payload->without_terminator())
          lb.clone(inner, mapping);
        results.push_back(
            mapping.lookupOrDefault(payload->getTerminator()->getOperand(0)));
      }
      Value vector = vector::FromElementsOp::create(
          lb, loc, vectorTypeOf(init->get()), results);
      auto store = vector::StoreOp::create(lb, loc, vector, init->get(),
                                           indicesOf(init));
      if (!emulate)
        store.setAlignment(runBytes(init->get()));
    };
    // One phase; the next op reads complete results (no barrier before the
    // end of the kernel).
    Operation *next = ifOp->getNextNode();
    bool barrier = !next || !isa<gpu::TerminatorOp>(next);
    phase(tb, loc, tid, emitRuns, barrier);
    distribute(op, tid, barrier);
    return true;
  }

  /// `barrier`: whether a barrier follows (default: unless the op is the
  /// kernel's last).
  void distribute(linalg::LinalgOp op, Value tid,
                  std::optional<bool> barrier = std::nullopt) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value count = arith::ConstantIndexOp::create(b, loc, threads);
    bool owns = ownsItsOutputs(op);
    auto emitPoints = [&](OpBuilder &ob, Value thread) {
      SmallVector<int64_t> staticSizes = op.getStaticLoopRanges();
      SmallVector<unsigned> reductions = reductionDims(op);
      std::optional<int64_t> points = parallelPoints(op);
      bool inRegister = owns && accumulatesInRegister(op) &&
                        llvm::none_of(staticSizes, ShapedType::isDynamic);
      if (inRegister && *points % threads == 0 && *points / threads >= 2 &&
          *points / threads <= kPointsPerThread) {
        // Each thread's points all at once: one reduction loop carrying an
        // accumulator per point. They lie as a grid of rows x columns
        // (fuse/Codegen/CostModel/KernelCost.h): thread t's column
        // t % TC, then every TC-th (TC = inner / columns, neighbouring
        // threads on neighbouring elements), its row t / TC, then every
        // TR-th (TR = T / TC); one column is the points t, t + T, ...
        SmallVector<unsigned> order = parallelOrder(op);
        int64_t perThread = *points / threads;
        int64_t inner = staticSizes[order.back()];
        fuse::PointGrid grid = fuse::choosePointGrid(perThread, threads, inner);
        Value tc, tr;
        int64_t columnStride = inner / grid.columns;
        int64_t rowStride = threads / std::max<int64_t>(columnStride, 1);
        if (grid.columns > 1) {
          Value c = arith::ConstantIndexOp::create(ob, loc, columnStride);
          tc = ob.createOrFold<arith::RemUIOp>(loc, thread, c);
          tr = ob.createOrFold<arith::DivUIOp>(loc, thread, c);
        }
        reduceInRegisters(
            ob, loc, op, perThread,
            [&](OpBuilder &pb, int64_t m) {
              Value linear;
              if (grid.columns > 1) {
                // (tr + i * TR) * inner + tc + j * TC for point (i, j).
                int64_t i = m / grid.columns, j = m % grid.columns;
                Value row = pb.createOrFold<arith::AddIOp>(
                    loc, tr,
                    arith::ConstantIndexOp::create(pb, loc, i * rowStride));
                Value rowStart = pb.createOrFold<arith::MulIOp>(
                    loc, row, arith::ConstantIndexOp::create(pb, loc, inner));
                Value column = pb.createOrFold<arith::AddIOp>(
                    loc, tc,
                    arith::ConstantIndexOp::create(pb, loc, j * columnStride));
                linear = pb.createOrFold<arith::AddIOp>(loc, rowStart, column);
              } else {
                linear = pb.createOrFold<arith::AddIOp>(
                    loc, thread,
                    arith::ConstantIndexOp::create(pb, loc, m * threads));
              }
              SmallVector<Value> ivs(staticSizes.size());
              delinearize(pb, loc, linear, order, staticSizes, ivs);
              return ivs;
            },
            staticSizes);
        return;
      }
      SmallVector<Range> ranges = op.createLoopRanges(ob, loc);
      SmallVector<Value> sizes;
      for (Range &r : ranges)
        sizes.push_back(getValueOrCreateConstantIndexOp(ob, loc, r.size));
      SmallVector<unsigned> order = parallelOrder(op);
      Value total = one;
      for (unsigned dim : order)
        total = ob.createOrFold<arith::MulIOp>(loc, total, sizes[dim]);
      // Owned points: t, t + T, ...; otherwise every point on thread 0.
      Value lb = owns ? thread : zero;
      Value step = owns ? count : one;
      auto loop = scf::ForOp::create(ob, loc, lb, total, step);
      OpBuilder lb2 = OpBuilder::atBlockBegin(loop.getBody());
      SmallVector<Value> ivs(ranges.size());
      Value rest = loop.getInductionVar();
      for (unsigned dim : llvm::reverse(order)) {
        ivs[dim] = lb2.createOrFold<arith::RemUIOp>(loc, rest, sizes[dim]);
        rest = lb2.createOrFold<arith::DivUIOp>(loc, rest, sizes[dim]);
      }
      if (inRegister) {
        // The point's accumulator in a register across the reduction.
        reduceInRegisters(
            lb2, loc, op, 1, [&](OpBuilder &, int64_t) { return ivs; },
            staticSizes);
        return;
      }
      SmallVector<Value> lbs(reductions.size(), zero), ubs, steps;
      for (unsigned dim : reductions) {
        ubs.push_back(sizes[dim]);
        steps.push_back(one);
      }
      scf::buildLoopNest(lb2, loc, lbs, ubs, steps,
                         [&](OpBuilder &nb, Location nl, ValueRange red) {
                           for (auto [dim, iv] : llvm::zip(reductions, red))
                             ivs[dim] = iv;
                           (void)cast<TilingInterface>(op.getOperation())
                               .generateScalarImplementation(nb, nl, ivs);
                         });
    };
    auto guarded = [&](OpBuilder &ob, Value thread) {
      if (owns) {
        emitPoints(ob, thread);
        return;
      }
      Value first = arith::CmpIOp::create(ob, loc, arith::CmpIPredicate::eq,
                                          thread, zero);
      auto ifOp = scf::IfOp::create(ob, loc, first, /*withElse=*/false);
      OpBuilder ib = ifOp.getThenBodyBuilder();
      emitPoints(ib, thread);
    };
    // One phase; the next op reads complete results (no barrier before the
    // end of the kernel).
    Operation *next = op->getNextNode();
    phase(b, loc, tid, guarded,
          barrier ? *barrier : !next || !isa<gpu::TerminatorOp>(next));
    op->erase();
  }

  int64_t threads;
  bool emulate, foldEpilogues;
  std::optional<MmaChoice> mma;
  llvm::DenseMap<Operation *, std::pair<Cooperation, Value>> cooperations;
  llvm::DenseMap<Operation *, WarpMma> mmas;
};

/// Threads for a body: block-size, fewer (a multiple of 32) when no op has
/// as many parallel points; 1 when no op has more than one.
int64_t threadsFor(Region &body, int64_t blockSize) {
  int64_t most = 0;
  body.walk([&](linalg::LinalgOp op) {
    std::optional<int64_t> points = parallelPoints(op);
    // A reduction with few points can share its iterations among lanes.
    if (points && planCooperation(op, blockSize))
      points = blockSize;
    most = std::max(most, points.value_or(blockSize));
  });
  if (most <= 1)
    return 1;
  return std::min<int64_t>(blockSize, llvm::alignTo(most, 32));
}

/// Threads per block where no lowering config says.
constexpr int64_t kDefaultBlockSize = 128;

struct DistributeThreadsPass
    : public fuse::impl::FuseDistributeThreadsBase<DistributeThreadsPass> {
  using Base::Base;

  /// The block size for the tile `op` is: block-size, else the lowering
  /// config of its function, else the default.
  int64_t blockSizeFor(Operation *op) {
    if (blockSize > 0)
      return blockSize;
    if (auto fn = op->getParentOfType<FunctionOpInterface>())
      if (fuse::LoweringConfigAttr config =
              fuse::FuseDialect::LoweringConfigAttrHelper(&getContext())
                  .getAttr(fn))
        return config.getThreads();
    return kDefaultBlockSize;
  }

  /// The precision of the tensor-core contractions of the tile `op` is,
  /// when its function's lowering config says `instruction = "mma_sync"`.
  std::optional<MmaChoice> mmaFor(Operation *op) {
    auto fn = op->getParentOfType<FunctionOpInterface>();
    if (!fn)
      return std::nullopt;
    fuse::LoweringConfigAttr config =
        fuse::FuseDialect::LoweringConfigAttrHelper(&getContext()).getAttr(fn);
    if (!config || config.getInstruction() != "mma_sync")
      return std::nullopt;
    MmaChoice choice;
    choice.precision = llvm::StringSwitch<MmaPrecision>(config.getPrecision())
                           .Case("tf32", MmaPrecision::tf32)
                           .Case("bf16", MmaPrecision::bf16)
                           .Case("fp16", MmaPrecision::fp16)
                           .Default(MmaPrecision::fp32);
    choice.stages = config.getPipelineStages();
    choice.splitK = config.getSplitSlices();
    choice.ldmatrix = ldmatrix;
    return choice;
  }

  /// The error for a split-K config the tile `op` cannot take.
  void refuseSplit(Operation *op, int64_t slices, StringRef why) {
    op->emitError() << "fuse-distribute-threads: the lowering config asks "
                       "for split_k = "
                    << slices << ", but " << why;
    signalPassFailure();
  }

  /// Emulated split-K for the tile loop `forall` of a config with
  /// `slices`: the tile's body runs once per slice (the GPU's blocks of
  /// one tile, in slice order), in a loop made before the schedule is
  /// planned; `slice` is its index. The loop starts after `tileIndex`
  /// (computed once per tile, outside it).
  Value wrapSlices(scf::ForallOp forall, int64_t slices, Value tileIndex) {
    Block &body = forall.getRegion().front();
    Location loc = forall.getLoc();
    OpBuilder b(&body, std::next(tileIndex.getDefiningOp()->getIterator()));
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    auto loop = scf::ForOp::create(
        b, loc, zero, arith::ConstantIndexOp::create(b, loc, slices), one);
    Block *inner = loop.getBody();
    // Everything after the loop but the terminator goes inside it.
    inner->getOperations().splice(
        inner->getTerminator()->getIterator(), body.getOperations(),
        std::next(loop->getIterator()), body.getTerminator()->getIterator());
    return loop.getInductionVar();
  }

  /// The linear index of the tile `forall`'s body runs (its induction
  /// variables normalized, the last fastest) and the tiles, at the start
  /// of the body; nullopt when a bound is dynamic.
  std::optional<std::pair<Value, int64_t>> tileIndexOf(scf::ForallOp forall) {
    std::optional<SmallVector<int64_t>> lbs =
        getConstantIntValues(forall.getMixedLowerBound());
    std::optional<SmallVector<int64_t>> ubs =
        getConstantIntValues(forall.getMixedUpperBound());
    std::optional<SmallVector<int64_t>> steps =
        getConstantIntValues(forall.getMixedStep());
    if (!lbs || !ubs || !steps)
      return std::nullopt;
    OpBuilder b = OpBuilder::atBlockBegin(&forall.getRegion().front());
    Location loc = forall.getLoc();
    Value linear = arith::ConstantIndexOp::create(b, loc, 0);
    int64_t tiles = 1;
    for (auto [iv, lb, ub, step] :
         llvm::zip(forall.getInductionVars(), *lbs, *ubs, *steps)) {
      int64_t count = llvm::divideCeil(ub - lb, step);
      Value at = arith::DivUIOp::create(
          b, loc,
          arith::SubIOp::create(b, loc, iv,
                                arith::ConstantIndexOp::create(b, loc, lb)),
          arith::ConstantIndexOp::create(b, loc, step));
      linear = arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(b, loc, linear,
                                arith::ConstantIndexOp::create(b, loc, count)),
          at);
      tiles *= count;
    }
    return std::make_pair(linear, tiles);
  }

  /// `v` as a constant, folding the ops that compute it from constants
  /// (the grid of a mapped loop: affine.apply of its bounds).
  static std::optional<int64_t> foldedIndex(Value v, int depth = 0) {
    if (std::optional<int64_t> c = getConstantIntValue(v))
      return c;
    Operation *def = v.getDefiningOp();
    if (!def || depth > 8 || def->getNumResults() != 1 ||
        def->getNumRegions() != 0)
      return std::nullopt;
    SmallVector<Attribute> operands;
    for (Value operand : def->getOperands()) {
      std::optional<int64_t> c = foldedIndex(operand, depth + 1);
      if (!c)
        return std::nullopt;
      operands.push_back(IntegerAttr::get(operand.getType(), *c));
    }
    SmallVector<OpFoldResult> results;
    if (failed(def->fold(operands, results)) || results.size() != 1)
      return std::nullopt;
    // A fold may give back one of the operands (x * 1).
    if (auto same = dyn_cast_if_present<Value>(results.front()))
      return foldedIndex(same, depth + 1);
    if (auto integer = dyn_cast_if_present<IntegerAttr>(
            dyn_cast_if_present<Attribute>(results.front())))
      return integer.getInt();
    return std::nullopt;
  }

  /// GPU split-K for `launch` (one tile per block): `slices` times the
  /// blocks along x, each block's slice and tile from its id, the tile
  /// coordinates as before; false (an error) where the grid is dynamic.
  bool splitGrid(gpu::LaunchOp launch, WarpMma &schedule, int64_t slices) {
    std::optional<int64_t> gx = foldedIndex(launch.getGridSizeX()),
                           gy = foldedIndex(launch.getGridSizeY()),
                           gz = foldedIndex(launch.getGridSizeZ());
    if (!gx || !gy || !gz) {
      refuseSplit(launch, slices, "the kernel's grid is not static");
      return false;
    }
    int64_t tiles = *gx * *gy * *gz;
    if (*gx * slices > std::numeric_limits<int32_t>::max()) {
      refuseSplit(launch, slices, "the grid's x would exceed 2^31 - 1 blocks");
      return false;
    }
    Location loc = launch.getLoc();
    OpBuilder host(launch);
    OpBuilder after(launch->getBlock(), std::next(launch->getIterator()));
    launch.getGridSizeXMutable().assign(
        arith::ConstantIndexOp::create(host, loc, *gx * slices));
    Block &body = launch.getBody().front();
    gpu::KernelDim3 ids = launch.getBlockIds();
    gpu::KernelDim3 sizes = launch.getGridSize();
    OpBuilder b = OpBuilder::atBlockBegin(&body);
    Value width = arith::ConstantIndexOp::create(b, loc, *gx);
    auto x = arith::RemUIOp::create(b, loc, ids.x, width);
    auto slice = arith::DivUIOp::create(b, loc, ids.x, width);
    ids.x.replaceAllUsesExcept(x, SmallPtrSet<Operation *, 2>{x, slice});
    sizes.x.replaceAllUsesWith(width);
    Value tile = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(
            b, loc,
            arith::AddIOp::create(
                b, loc,
                arith::MulIOp::create(
                    b, loc, ids.z, arith::ConstantIndexOp::create(b, loc, *gy)),
                ids.y),
            width),
        x);
    schedule.setSplit(slice, tile,
                      createSplitKBuffers(host, after, loc,
                                          schedule.partialElements(tiles),
                                          tiles));
    return true;
  }

  void runOnOperation() override {
    if (emulate) {
      SmallVector<scf::ForallOp> tiles;
      getOperation()->walk([&](scf::ForallOp forall) {
        if (!forall->getParentOfType<scf::ForallOp>())
          tiles.push_back(forall);
      });
      for (scf::ForallOp forall : tiles) {
        Region &body = forall.getRegion();
        std::string why = whyNotDistributable(body);
        if (!why.empty()) {
          // At the op's location, without printing the whole loop nest.
          emitRemark(forall.getLoc())
              << "fuse-distribute-threads: one thread per tile: " << why;
          continue;
        }
        int64_t threads = threadsFor(body, blockSizeFor(forall));
        if (threads <= 1)
          continue;
        std::optional<MmaChoice> mma = mmaFor(forall);
        int64_t slices = mma ? mma->splitK : 1;
        Value slice;
        std::optional<std::pair<Value, int64_t>> tile;
        // A tile whose contraction runs on SIMT (planScratch says why) is
        // not split.
        if (slices > 1 &&
            Distributor(threads, /*emulate=*/true, mma).plannableMmas(body) ==
                0)
          slices = 1;
        if (slices > 1) {
          tile = tileIndexOf(forall);
          if (!tile)
            return refuseSplit(forall, slices, "the tile loop is not static");
          slice = wrapSlices(forall, slices, tile->first);
        }
        Distributor distributor(threads, /*emulate=*/true, mma,
                                epilogueInRegisters);
        distributor.planScratch(body);
        if (slices > 1) {
          std::string why;
          WarpMma *schedule = distributor.splitSchedule(why);
          if (!schedule)
            return refuseSplit(forall, slices, why);
          OpBuilder host(forall);
          OpBuilder after(forall->getBlock(), std::next(forall->getIterator()));
          schedule->setSplit(
              slice, tile->first,
              createSplitKBuffers(host, after, forall.getLoc(),
                                  schedule->partialElements(tile->second),
                                  tile->second));
        }
        distributor.run(body, Value());
      }
      return;
    }
    // On the GPU the block size and the shared memory are bounded by the
    // target the module is compiled for.
    FailureOr<fuse::TargetAttr> target =
        fuse::resolveTarget(getOperation(), fuse::TargetAttr(), getArgument());
    if (failed(target))
      return signalPassFailure();
    if (failed(fuse::checkLaunchLimits(&getContext(), *target, blockSize,
                                       sharedBytes, getArgument())))
      return signalPassFailure();
    blockShared =
        sharedBytes ? int64_t(sharedBytes) : target->getSharedMemPerBlock();
    maxThreads = target->getMaxThreadsPerBlock();
    computeCapability = target->getComputeCapability();
    SmallVector<gpu::LaunchOp> launches;
    getOperation()->walk([&](gpu::LaunchOp l) { launches.push_back(l); });
    for (gpu::LaunchOp launch : launches)
      distributeLaunch(launch);
  }

  LogicalResult initialize(MLIRContext *context) override {
    if (blockSize < 0 || sharedBytes < 0)
      return fuse::emitOptionError(context, getArgument())
             << "options 'block-size' and 'shared-bytes' must be "
                "non-negative, got "
             << blockSize.getValue() << " and " << sharedBytes.getValue();
    return success();
  }

  /// Shared memory a block may use: shared-bytes, or the target's.
  int64_t blockShared = 0;
  /// The target's threads per block and compute capability.
  int64_t maxThreads = 0, computeCapability = 0;

  void distributeLaunch(gpu::LaunchOp launch) {
    Region &body = launch.getBody();
    std::string why = whyNotDistributable(body);
    int64_t block = blockSizeFor(launch);
    if (block > maxThreads) {
      launch.emitError() << "fuse-distribute-threads: the lowering config "
                            "asks for "
                         << block << " threads per block, more than the "
                         << maxThreads << " of the target";
      return signalPassFailure();
    }
    int64_t threads = threadsFor(body, block);
    std::optional<MmaChoice> mma = mmaFor(launch);
    if (mma && computeCapability < 80) {
      launch.emitError() << "fuse-distribute-threads: the lowering config "
                            "asks for instruction = \"mma_sync\" (TF32 "
                            "tensor cores), which needs sm_80 or newer; the "
                            "target is sm_"
                         << computeCapability;
      return signalPassFailure();
    }
    Distributor distributor(threads, /*emulate=*/false, mma,
                            epilogueInRegisters);
    // The partials of shared reductions are tile buffers too.
    if (why.empty() && threads > 1)
      distributor.planScratch(body);
    SmallVector<memref::AllocaOp> allocas;
    int64_t shared = 0;
    llvm::DenseSet<Operation *> unused = distributor.foldedBuffers();
    body.walk([&](memref::AllocaOp alloca) {
      if (unused.contains(alloca))
        return;
      allocas.push_back(alloca);
      MemRefType type = alloca.getType();
      if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
          type.getMemorySpace()) {
        why = "a tile-local buffer of dynamic shape or non-identity layout";
        return;
      }
      shared += sharedBufferBytes(type);
    });
    if (why.empty() && shared > blockShared)
      shared -= distributor.dropScratch(allocas);
    if (why.empty() && shared > blockShared)
      why = llvm::formatv("its tile-local buffers take {0} B of shared "
                          "memory, more than shared-bytes = {1}",
                          shared, blockShared)
                .str();
    if (!why.empty()) {
      emitRemark(launch.getLoc())
          << "fuse-distribute-threads: one thread per block: " << why;
      return;
    }
    if (threads <= 1)
      return;
    // Tile-local buffers are shared by the block's threads: static shared
    // memory (workgroup attributions) up to the 48 KiB every kernel may
    // declare, else one dynamic shared buffer the launch sizes (the runtime
    // opts the kernel in to more than 48 KiB).
    MLIRContext *ctx = launch.getContext();
    auto workgroup =
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    OpBuilder outside(launch);
    bool dynamic = shared > kStaticSharedBytes;
    Value dynamicBuffer;
    if (dynamic) {
      OpBuilder start = OpBuilder::atBlockBegin(&body.front());
      dynamicBuffer = gpu::DynamicSharedMemoryOp::create(
          start, launch.getLoc(),
          MemRefType::get({ShapedType::kDynamic}, start.getI8Type(),
                          MemRefLayoutAttrInterface(), workgroup));
      Value bytes =
          arith::ConstantIntOp::create(outside, launch.getLoc(), shared, 32);
      launch.getDynamicSharedMemorySizeMutable().assign(bytes);
    }
    int64_t offset = 0;
    for (memref::AllocaOp alloca : allocas) {
      MemRefType type = alloca.getType();
      auto sharedType = MemRefType::get(type.getShape(), type.getElementType(),
                                        MemRefLayoutAttrInterface(), workgroup);
      OpBuilder b(alloca);
      Value buffer;
      if (dynamic) {
        b.setInsertionPointAfter(dynamicBuffer.getDefiningOp());
        Value shift =
            arith::ConstantIndexOp::create(b, alloca.getLoc(), offset);
        buffer = memref::ViewOp::create(b, alloca.getLoc(), sharedType,
                                        dynamicBuffer, shift, ValueRange());
        offset += sharedBufferBytes(type);
        b.setInsertionPoint(alloca);
      } else {
        buffer = launch.addWorkgroupAttribution(sharedType, alloca.getLoc());
      }
      Value generic =
          memref::MemorySpaceCastOp::create(b, alloca.getLoc(), type, buffer);
      distributor.replaceScratch(alloca.getResult(), generic, buffer);
      alloca.replaceAllUsesWith(generic);
      alloca.erase();
    }
    Value size =
        arith::ConstantIndexOp::create(outside, launch.getLoc(), threads);
    launch.getBlockSizeXMutable().assign(size);
    if (mma && mma->splitK > 1 && distributor.hasMma()) {
      std::string why;
      WarpMma *schedule = distributor.splitSchedule(why);
      if (!schedule)
        return refuseSplit(launch, mma->splitK, why);
      if (!splitGrid(launch, *schedule, mma->splitK))
        return;
    }
    distributor.run(body, launch.getThreadIds().x);
  }
};

} // namespace

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEDROPTILEMAPPING
#include "fuse/Codegen/GPU/Passes.h.inc"
} // namespace mlir::fuse

namespace {
struct DropTileMappingPass
    : public fuse::impl::FuseDropTileMappingBase<DropTileMappingPass> {
  void runOnOperation() override {
    getOperation()->walk([](scf::ForallOp forall) {
      std::optional<ArrayAttr> mapping = forall.getMapping();
      if (mapping && llvm::all_of(*mapping, [](Attribute a) {
            return isa<fuse::TileMappingAttr>(a);
          }))
        forall.setMappingAttr(ArrayAttr());
    });
  }
};
} // namespace

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEDROPKNOWNBLOCKSIZE
#include "fuse/Codegen/GPU/Passes.h.inc"
} // namespace mlir::fuse

namespace {
struct DropKnownBlockSizePass
    : public fuse::impl::FuseDropKnownBlockSizeBase<DropKnownBlockSizePass> {
  void runOnOperation() override {
    getOperation()->walk(
        [](gpu::GPUFuncOp kernel) { kernel.removeKnownBlockSizeAttr(); });
  }
};
} // namespace
