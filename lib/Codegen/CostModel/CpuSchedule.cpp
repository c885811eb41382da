//===- CpuSchedule.cpp - a group's CPU schedule ---------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Codegen/CostModel/CpuSchedule.h"

#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::fuse;

namespace {

/// The largest divisor of `extent` that is at most `bound` (at least 1).
int64_t largestDivisor(int64_t extent, int64_t bound) {
  for (int64_t d = std::min(extent, std::max<int64_t>(bound, 1)); d > 1; --d)
    if (extent % d == 0)
      return d;
  return 1;
}

/// The register tile's width along the contiguous dimension: the largest
/// divisor of `extent` up to `bound` that is a multiple of `lanes` (whole
/// vector registers), else the largest power of two below `lanes` that
/// divides it, else the largest divisor. A width such as 24 (AVX-512)
/// lowers to vectors of odd length that ran 9-20x slower (a 3x3 depthwise
/// convolution on 56x56x144: 3.85 ms with tiles 24 wide, 0.195 ms 16
/// wide).
int64_t vectorWidth(int64_t extent, int64_t bound, int64_t lanes) {
  lanes = std::max<int64_t>(lanes, 1);
  for (int64_t d = std::min(extent, bound) / lanes * lanes; d >= lanes;
       d -= lanes)
    if (extent % d == 0)
      return d;
  for (int64_t d = llvm::PowerOf2Ceil(lanes) / 2; d > 1; d /= 2)
    if (d <= bound && extent % d == 0)
      return d;
  return largestDivisor(extent, bound);
}

} // namespace

/// The element type of each operand of `op`, in order, where `op` is on
/// tensors of static shape with one result; nullopt otherwise.
static std::optional<SmallVector<Type>>
staticTensorElements(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op->getNumResults() != 1)
    return std::nullopt;
  SmallVector<Type> elements;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.get().getType());
    if (!type || !type.hasStaticShape())
      return std::nullopt;
    elements.push_back(type.getElementType());
  }
  return elements;
}

bool mlir::fuse::hasStaticF32Tensors(linalg::LinalgOp op) {
  std::optional<SmallVector<Type>> elements = staticTensorElements(op);
  return elements && llvm::all_of(*elements, [](Type t) { return t.isF32(); });
}

bool mlir::fuse::hasStaticSixteenBitExtremum(linalg::LinalgOp op) {
  if (!isa<linalg::PoolingNhwcMaxOp, linalg::PoolingNhwcMinOp>(op))
    return false;
  std::optional<SmallVector<Type>> elements = staticTensorElements(op);
  if (!elements || elements->empty())
    return false;
  Type common = elements->front();
  return (common.isF16() || common.isBF16()) && llvm::all_equal(*elements);
}

bool mlir::fuse::hasStaticSixteenBitProduct(linalg::LinalgOp op) {
  std::optional<SmallVector<Type>> elements = staticTensorElements(op);
  // Operands: the two inputs, then the init.
  if (!elements || op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
    return false;
  Type a = (*elements)[0], b = (*elements)[1], out = (*elements)[2];
  if (!out.isF32() || a != b || !(a.isF16() || a.isBF16()))
    return false;
  // Each input read once, extended to f32: out + ext(a) * ext(b).
  Block &body = op->getRegion(0).front();
  for (BlockArgument arg : body.getArguments().drop_back())
    if (!arg.hasOneUse() || !isa<arith::ExtFOp>(*arg.getUsers().begin()))
      return false;
  return true;
}

namespace {

/// What a register tiling is built from: the loops the output's last two
/// dimensions index (N contiguous, M before it) and the innermost
/// reduction loop.
struct Structure {
  SmallVector<int64_t> ranges;
  SmallVector<utils::IteratorType> iterators;
  unsigned n = 0;
  std::optional<unsigned> m;
  unsigned innermostReduction = 0;
  int64_t reductionPoints = 1;
  bool perChannel = false;
};

std::optional<Structure> analyze(linalg::LinalgOp op) {
  if (!(hasStaticF32Tensors(op) || hasStaticSixteenBitProduct(op) ||
        hasStaticSixteenBitExtremum(op)) ||
      op.getNumReductionLoops() == 0 || op.getNumDpsInits() != 1)
    return std::nullopt;
  bool convolution = isDecomposableConvolution(op) ||
                     isa<linalg::Conv2DNhwcFhwcOp>(op.getOperation());
  // A product summed over its reduction (its body a multiply and an add):
  // a plain reduction (a row's sum or maximum) is memory-bound and stays a
  // loop, which LLVM vectorizes along its contiguous dimension.
  if (!convolution &&
      (!linalg::isaContractionOpInterface(op) ||
       !llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
         return map.isProjectedPermutation();
       })))
    return std::nullopt;
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (out.getNumResults() == 0)
    return std::nullopt; // a reduction to a scalar
  Structure s;
  s.ranges = op.getStaticLoopRanges();
  s.iterators = op.getIteratorTypesArray();
  s.perChannel = isPerChannelConvolution(op);
  s.n = cast<AffineDimExpr>(out.getResults().back()).getPosition();
  if (out.getNumResults() >= 2)
    s.m = cast<AffineDimExpr>(out.getResults()[out.getNumResults() - 2])
              .getPosition();
  for (auto [i, it] : llvm::enumerate(s.iterators))
    if (it == utils::IteratorType::reduction) {
      s.innermostReduction = i;
      s.reductionPoints *= s.ranges[i];
    }
  return s;
}

/// The tiling of `s` with register tile `mr` x `nr`, innermost reduction
/// step `kc` and cache blocks of `kBlock` (0: none).
RegisterTiling build(const Structure &s, int64_t mr, int64_t nr, int64_t kc,
                     int64_t kBlock) {
  RegisterTiling tiling;
  tiling.blocks.assign(s.iterators.size(), 0);
  for (auto [i, it] : llvm::enumerate(s.iterators)) {
    if (it == utils::IteratorType::reduction) {
      tiling.parallel.push_back(0);
      tiling.reduction.push_back(i == s.innermostReduction ? kc : 1);
      // A block is part of the innermost loop and one window position.
      if (kBlock)
        tiling.blocks[i] = i == s.innermostReduction ? kBlock : 1;
      continue;
    }
    tiling.reduction.push_back(0);
    if (i == s.n)
      tiling.parallel.push_back(nr);
    else if (s.m && i == *s.m)
      tiling.parallel.push_back(mr);
    else
      tiling.parallel.push_back(1);
  }
  // Tile loops: the contiguous dimension's first (one column block of the
  // weights reused over all rows), the rest in loop order.
  tiling.interchange.push_back(s.n);
  for (unsigned i = 0; i < s.iterators.size(); ++i)
    if (i != s.n)
      tiling.interchange.push_back(i);
  return tiling;
}

} // namespace

CpuTileBounds mlir::fuse::cpuTileBounds(CpuTargetAttr target) {
  CpuTileBounds bounds;
  if (!target)
    return bounds;
  bounds.lanes = target.getF32Lanes();
  bounds.nr = 2 * bounds.lanes;
  bounds.mr = 8;
  bounds.accumulators = std::max<int64_t>(target.getVectorRegisters() - 4, 1);
  bounds.kc = 4;
  bounds.panelBytes = target.getL2Bytes() / 4;
  bounds.blockBytes = target.getL1Bytes();
  return bounds;
}

bool mlir::fuse::isPerChannelConvolution(Operation *op) {
  return isa<linalg::DepthwiseConv2DNhwcHwcOp, linalg::PoolingNhwcMaxOp,
             linalg::PoolingNhwcMinOp, linalg::PoolingNhwcSumOp>(op);
}

bool mlir::fuse::isDecomposableConvolution(Operation *op) {
  return isa<linalg::Conv2DNhwcHwcfOp>(op) || isPerChannelConvolution(op);
}

namespace {
/// A register tile's sizes: rows, columns, the innermost reduction's step
/// and its cache blocks (0: none).
struct TileSizes {
  int64_t mr, nr, kc, kBlock;
};

/// The sizes of `s` within `bounds`.
TileSizes chooseSizes(const Structure &s, const CpuTileBounds &bounds) {
  // NR as wide as the bound allows, or one vector narrower where that
  // lets more rows divide the output's (7 output pixels with 12
  // accumulator registers of 8 lanes: 7x8, not 1x16).
  int64_t mr = 0, nr = 0;
  SmallVector<int64_t, 2> widths = {bounds.nr};
  if (bounds.nr > bounds.lanes)
    widths.push_back(std::max(bounds.nr - bounds.lanes, bounds.lanes));
  for (int64_t widthBound : widths) {
    int64_t width = vectorWidth(s.ranges[s.n], widthBound, bounds.lanes);
    int64_t vectors = llvm::divideCeil(width, bounds.lanes);
    int64_t rowBound = std::min(
        bounds.mr, std::max<int64_t>(bounds.accumulators / vectors, 1));
    int64_t rows = s.m ? largestDivisor(s.ranges[*s.m], rowBound) : 1;
    if (rows * width > mr * nr) {
      mr = rows;
      nr = width;
    }
  }
  int64_t kc = s.perChannel
                   ? 1
                   : largestDivisor(s.ranges[s.innermostReduction], bounds.kc);
  // A reduction whose column panel (all of the reduction by NR elements)
  // outgrows `panelBytes` runs in blocks of its innermost dimension, each
  // block's panel at most `blockBytes` and the window one position at a
  // time; its register tiles read the output back between blocks.
  int64_t kBlock = 0;
  int64_t panel = s.reductionPoints * nr * 4;
  if (bounds.panelBytes > 0 && panel > bounds.panelBytes && !s.perChannel) {
    int64_t blockBound = std::max<int64_t>(bounds.blockBytes / (nr * 4), kc);
    kBlock = largestDivisor(s.ranges[s.innermostReduction], blockBound);
    // A block the register tiles' reduction step must divide.
    if (kBlock % kc != 0)
      kBlock = 0;
  }
  return {mr, nr, kc, kBlock};
}
} // namespace

std::optional<RegisterTiling>
mlir::fuse::registerTilingOf(linalg::LinalgOp op, const CpuTileBounds &bounds) {
  std::optional<Structure> s = analyze(op);
  if (!s)
    return std::nullopt;
  TileSizes sizes = chooseSizes(*s, bounds);
  return build(*s, sizes.mr, sizes.nr, sizes.kc, sizes.kBlock);
}

FailureOr<RegisterTiling>
mlir::fuse::registerTilingFrom(linalg::LinalgOp op, CpuScheduleAttr schedule,
                               std::string &why) {
  llvm::raw_string_ostream os(why);
  std::optional<Structure> s = analyze(op);
  if (!s) {
    os << "the op is not a contraction the CPU schedule tiles";
    return failure();
  }
  StringRef kind = s->perChannel ? "channel_tiles" : "register_tiles";
  if (schedule.getKind() != kind) {
    os << "kind \"" << schedule.getKind() << "\" does not fit the op (\""
       << kind << "\")";
    return failure();
  }
  auto divides = [&](StringRef field, int64_t size, int64_t extent) {
    if (extent % size == 0)
      return true;
    os << "'" << field << "' = " << size << " does not divide the loop's "
       << extent << " iterations";
    return false;
  };
  int64_t inner = s->ranges[s->innermostReduction];
  if (!divides("nr", schedule.getNr(), s->ranges[s->n]) ||
      (s->m && !divides("mr", schedule.getMr(), s->ranges[*s->m])))
    return failure();
  if (!s->m && schedule.getMr() != 1) {
    os << "'mr' must be 1: the output has no row dimension";
    return failure();
  }
  if (s->perChannel && (schedule.getKc() != 1 || schedule.getKBlock() != 0)) {
    os << "a per-channel window runs one position at a time ('kc' 1, "
          "'k_block' 0)";
    return failure();
  }
  if (!divides("kc", schedule.getKc(), inner) ||
      (schedule.getKBlock() &&
       !divides("k_block", schedule.getKBlock(), inner)))
    return failure();
  return build(*s, schedule.getMr(), schedule.getNr(), schedule.getKc(),
               schedule.getKBlock());
}

linalg::LinalgOp mlir::fuse::primaryCpuContraction(Operation *root) {
  linalg::LinalgOp best;
  uint64_t bestPoints = 0;
  root->walk([&](linalg::LinalgOp op) {
    if (!analyze(op))
      return;
    uint64_t points = 1;
    for (int64_t range : op.getStaticLoopRanges())
      points = llvm::SaturatingMultiply(points, uint64_t(range));
    if (!best || points > bestPoints) {
      best = op;
      bestPoints = points;
    }
  });
  return best;
}

CpuScheduleAttr mlir::fuse::chooseCpuSchedule(Operation *root,
                                              CpuTargetAttr target) {
  MLIRContext *context = root->getContext();
  std::optional<Structure> s;
  if (linalg::LinalgOp primary = primaryCpuContraction(root))
    s = analyze(primary);
  if (!s)
    return CpuScheduleAttr::get(context, "loops", 0, 0, 0, 0);
  TileSizes sizes = chooseSizes(*s, cpuTileBounds(target));
  return CpuScheduleAttr::get(
      context, s->perChannel ? "channel_tiles" : "register_tiles", sizes.mr,
      sizes.nr, sizes.kc, sizes.kBlock);
}
