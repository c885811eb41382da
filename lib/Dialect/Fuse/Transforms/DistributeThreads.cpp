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

#include "fuse/Dialect/Fuse/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEDISTRIBUTETHREADS
#include "fuse/Dialect/Fuse/Transforms/Passes.h.inc"
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

/// Static shared memory a kernel may declare without opting in.
constexpr int64_t kStaticSharedBytes = 48 * 1024;

/// Bytes a tile buffer of `type` takes in shared memory (16-byte aligned).
int64_t sharedBufferBytes(MemRefType type) {
  return llvm::alignTo(type.getNumElements() *
                           llvm::divideCeil(type.getElementTypeBitWidth(), 8),
                       16);
}

class Distributor {
public:
  Distributor(int64_t threads, bool emulate)
      : threads(threads), emulate(emulate) {}

  /// Spreads every linalg op under `body` (outside other linalg ops) over
  /// the threads; `tid` is the thread id (unused when emulating).
  void run(Region &body, Value tid) {
    SmallVector<linalg::LinalgOp> ops;
    body.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
        ops.push_back(linalgOp);
        return WalkResult::skip();
      }
      return WalkResult::advance();
    });
    for (linalg::LinalgOp op : ops)
      distribute(op, tid);
  }

private:
  void distribute(linalg::LinalgOp op, Value tid) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value count = arith::ConstantIndexOp::create(b, loc, threads);
    bool owns = ownsItsOutputs(op);
    auto emitPoints = [&](OpBuilder &ob, Value thread) {
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
      SmallVector<unsigned> reductions;
      for (auto [dim, kind] : llvm::enumerate(op.getIteratorTypesArray()))
        if (kind != utils::IteratorType::parallel)
          reductions.push_back(dim);
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
    if (emulate) {
      // One phase: every thread's share, one thread after the other.
      auto threadsLoop = scf::ForOp::create(b, loc, zero, count, one);
      OpBuilder tb = OpBuilder::atBlockBegin(threadsLoop.getBody());
      guarded(tb, threadsLoop.getInductionVar());
    } else {
      guarded(b, tid);
      // The next op reads complete results.
      Operation *next = op->getNextNode();
      if (!next || !isa<gpu::TerminatorOp>(next))
        gpu::BarrierOp::create(b, loc);
    }
    op->erase();
  }

  int64_t threads;
  bool emulate;
};

/// Threads for a body: block-size, fewer (a multiple of 32) when no op has
/// as many parallel points; 1 when no op has more than one.
int64_t threadsFor(Region &body, int64_t blockSize) {
  int64_t most = 0;
  body.walk([&](linalg::LinalgOp op) {
    std::optional<int64_t> points = parallelPoints(op);
    most = std::max(most, points.value_or(blockSize));
  });
  if (most <= 1)
    return 1;
  return std::min<int64_t>(blockSize, llvm::alignTo(most, 32));
}

struct DistributeThreadsPass
    : public fuse::impl::FuseDistributeThreadsBase<DistributeThreadsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (blockSize < 1 || blockSize > 1024 || sharedBytes < 0) {
      getOperation()->emitError()
          << "fuse-distribute-threads: block-size must be in [1, 1024] and "
             "shared-bytes non-negative, got "
          << blockSize.getValue() << " and " << sharedBytes.getValue();
      return signalPassFailure();
    }
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
        int64_t threads = threadsFor(body, blockSize);
        if (threads > 1)
          Distributor(threads, /*emulate=*/true).run(body, Value());
      }
      return;
    }
    SmallVector<gpu::LaunchOp> launches;
    getOperation()->walk([&](gpu::LaunchOp l) { launches.push_back(l); });
    for (gpu::LaunchOp launch : launches)
      distributeLaunch(launch);
  }

  void distributeLaunch(gpu::LaunchOp launch) {
    Region &body = launch.getBody();
    std::string why = whyNotDistributable(body);
    SmallVector<memref::AllocaOp> allocas;
    int64_t shared = 0;
    body.walk([&](memref::AllocaOp alloca) {
      allocas.push_back(alloca);
      MemRefType type = alloca.getType();
      if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
          type.getMemorySpace()) {
        why = "a tile-local buffer of dynamic shape or non-identity layout";
        return;
      }
      shared += sharedBufferBytes(type);
    });
    if (why.empty() && shared > sharedBytes)
      why = llvm::formatv("its tile-local buffers take {0} B of shared "
                          "memory, more than shared-bytes = {1}",
                          shared, sharedBytes.getValue())
                .str();
    if (!why.empty()) {
      emitRemark(launch.getLoc())
          << "fuse-distribute-threads: one thread per block: " << why;
      return;
    }
    int64_t threads = threadsFor(body, blockSize);
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
      Value bytes = arith::ConstantIntOp::create(outside, launch.getLoc(),
                                                 shared, 32);
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
        Value shift = arith::ConstantIndexOp::create(b, alloca.getLoc(), offset);
        buffer = memref::ViewOp::create(b, alloca.getLoc(), sharedType,
                                        dynamicBuffer, shift, ValueRange());
        offset += sharedBufferBytes(type);
        b.setInsertionPoint(alloca);
      } else {
        buffer = launch.addWorkgroupAttribution(sharedType, alloca.getLoc());
      }
      Value generic = memref::MemorySpaceCastOp::create(b, alloca.getLoc(),
                                                        type, buffer);
      alloca.replaceAllUsesWith(generic);
      alloca.erase();
    }
    Value size = arith::ConstantIndexOp::create(outside, launch.getLoc(),
                                                threads);
    launch.getBlockSizeXMutable().assign(size);
    Distributor(threads, /*emulate=*/false)
        .run(body, launch.getThreadIds().x);
  }
};

} // namespace

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEDROPTILEMAPPING
#include "fuse/Dialect/Fuse/Transforms/Passes.h.inc"
} // namespace mlir::fuse

namespace {
struct DropTileMappingPass
    : public fuse::impl::FuseDropTileMappingBase<DropTileMappingPass> {
  void runOnOperation() override {
    getOperation()->walk([](scf::ForallOp forall) {
      std::optional<ArrayAttr> mapping = forall.getMapping();
      if (mapping && llvm::all_of(*mapping, [](Attribute a) {
            return isa<gpu::GPUBlockMappingAttr>(a);
          }))
        forall.setMappingAttr(ArrayAttr());
    });
  }
};
} // namespace

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEDROPKNOWNBLOCKSIZE
#include "fuse/Dialect/Fuse/Transforms/Passes.h.inc"
} // namespace mlir::fuse

namespace {
struct DropKnownBlockSizePass
    : public fuse::impl::FuseDropKnownBlockSizeBase<DropKnownBlockSizePass> {
  void runOnOperation() override {
    getOperation()->walk([](gpu::GPUFuncOp kernel) {
      kernel.removeKnownBlockSizeAttr();
    });
  }
};
} // namespace
