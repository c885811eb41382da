//===- LowerGroups.cpp - one tile loop nest per fuse.group ----------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Codegen/Tiling/LowerGroups.h"
#include "SliceCleanups.h"
#include "StreamAttention.h"
#include "fuse/Codegen/CostModel/CpuSchedule.h"
#include "fuse/Codegen/CostModel/KernelCost.h"
#include "fuse/Codegen/CostModel/MmaContraction.h"
#include "fuse/Codegen/Tiling/Passes.h"
#include "fuse/Dialect/Fuse/IR/FuseAttrs.h"
#include "fuse/Dialect/Fuse/IR/FuseInterfaces.h"
#include "fuse/Dialect/Fuse/IR/FuseOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/IR/TensorTilingInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/Support/InterleavedRange.h"

#include <limits>

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSECONFIGUREGROUPS
#define GEN_PASS_DEF_FUSELOWERGROUPS
#include "fuse/Codegen/Tiling/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

/// The value a yielded value stands for: an insertion into a slice of a
/// larger tensor (a branch of a concat) stands for what it inserts.
Value lookThroughInsertions(Value value) {
  while (auto insert = value.getDefiningOp<tensor::InsertSliceOp>())
    value = insert.getSource();
  return value;
}

/// How `user` reads `value` when it may read only part of it: an
/// extract_slice smaller than its source, or a window op (convolution,
/// pooling) striding by more than 1. Null when it reads all of it.
const char *partialRead(Operation *user, Value value) {
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(user))
    return slice.getSourceType() != slice.getResultType()
               ? "a slice smaller than the value"
               : nullptr;
  if (auto strides = user->getAttrOfType<DenseIntElementsAttr>("strides"))
    for (const APInt &stride : strides.getValues<APInt>())
      if (stride.getSExtValue() > 1)
        return "a window op striding by more than 1";
  return nullptr;
}

/// A value the group returns whose op feeds a root is computed inside the
/// root's tile loop, tile by tile, and leaves the loop whole only if the
/// root's tiles read all of it. The first op of the group on a path from
/// `value` that reads only part of what it gets, or null.
Operation *partiallyCovered(Value value, Block &body, const char **why) {
  SmallVector<Value> worklist = {value};
  llvm::DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    for (Operation *user : v.getUsers()) {
      if (user->getBlock() != &body || isa<YieldOp>(user))
        continue;
      if ((*why = partialRead(user, v)))
        return user;
      for (Value result : user->getResults())
        worklist.push_back(result);
    }
  }
  return nullptr;
}

/// The group's roots: the ops behind its yielded values that no other
/// yielded value's op depends on, in program order.
SmallVector<Operation *> findRoots(GroupOp group) {
  Block &body = group.getBodyBlock();
  llvm::SetVector<Operation *> outputs;
  for (Value value : group.getYield().getValues())
    if (Operation *def = lookThroughInsertions(value).getDefiningOp())
      if (def->getBlock() == &body)
        outputs.insert(def);
  // Producers (transitively, within the body) of each output.
  llvm::DenseSet<Operation *> feeding;
  for (Operation *output : outputs) {
    SmallVector<Operation *> worklist = {output};
    llvm::DenseSet<Operation *> seen;
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      for (Value operand : op->getOperands())
        if (Operation *def = operand.getDefiningOp())
          if (def->getBlock() == &body && seen.insert(def).second) {
            feeding.insert(def);
            worklist.push_back(def);
          }
    }
  }
  SmallVector<Operation *> roots;
  for (Operation *output : outputs)
    if (!feeding.contains(output))
      roots.push_back(output);
  llvm::sort(roots,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return roots;
}

/// An op's init that is a constant tensor (a fill or a bias broadcast that
/// constant folding turned into one: small tensors, e.g. the [1, 1, 1, C]
/// of a convolution on a 1 x 1 map) becomes a fill (splat) or a copy of the
/// constant into an empty tensor, ops the tile loop fuses. A constant
/// destination would otherwise be copied into a buffer by host code before
/// the kernel.
void materializeConstantInits(RewriterBase &rewriter, Block &body) {
  SmallVector<DestinationStyleOpInterface> ops;
  for (Operation &op : body)
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(&op);
        dps && isa<linalg::LinalgOp>(&op))
      ops.push_back(dps);
  for (DestinationStyleOpInterface dps : ops)
    for (OpOperand &init : dps.getDpsInitsMutable()) {
      auto cst = init.get().getDefiningOp<arith::ConstantOp>();
      auto type = dyn_cast<RankedTensorType>(init.get().getType());
      auto values = cst ? dyn_cast<DenseElementsAttr>(cst.getValue()) : nullptr;
      if (!values || !type || !type.hasStaticShape())
        continue;
      rewriter.setInsertionPoint(dps);
      Location loc = dps->getLoc();
      Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                            type.getElementType());
      Value made;
      if (values.isSplat()) {
        Value scalar = arith::ConstantOp::create(
            rewriter, loc, type.getElementType(),
            cast<TypedAttr>(values.getSplatValue<Attribute>()));
        made = linalg::FillOp::create(rewriter, loc, ValueRange{scalar},
                                      ValueRange{empty})
                   .getResult(0);
      } else {
        made = linalg::CopyOp::create(rewriter, loc, ValueRange{init.get()},
                                      ValueRange{empty})
                   .getResult(0);
      }
      rewriter.modifyOpInPlace(dps, [&] { init.set(made); });
    }
}

/// When the root's result is inserted into a slice of a larger tensor, the
/// root writes straight into that slice: its fresh init becomes the slice
/// of the destination, so bufferization writes in place and no copy
/// remains.
void writeIntoDestination(RewriterBase &rewriter, Operation *root) {
  auto dps = dyn_cast<DestinationStyleOpInterface>(root);
  if (!dps || root->getNumResults() != 1 || !root->hasOneUse())
    return;
  auto insert = dyn_cast<tensor::InsertSliceOp>(*root->getUsers().begin());
  if (!insert || insert.getSource() != root->getResult(0))
    return;
  OpOperand *init = dps.getDpsInitOperand(0);
  // The init is a fresh tensor, or a fill of one that only the root reads
  // (a max-pool's -inf): then the fill writes the slice.
  if (auto fill = init->get().getDefiningOp<linalg::FillOp>())
    if (fill->hasOneUse() && fill.getNumDpsInits() == 1)
      init = fill.getDpsInitOperand(0);
  if (!init->get().getDefiningOp<tensor::EmptyOp>() ||
      init->get().getType() != insert.getSourceType())
    return;
  // The destination must exist where the root is: an earlier branch's
  // insertion placed after the root (its source computed later) leaves the
  // root writing its own tensor, and the lowering then reports the
  // insertion it could not fuse instead of building IR that uses a value
  // before it is defined.
  Operation *writer = init->getOwner();
  if (Operation *def = insert.getDest().getDefiningOp())
    if (def->getBlock() == writer->getBlock() && !def->isBeforeInBlock(writer))
      return;
  rewriter.setInsertionPoint(writer);
  Value slice = tensor::ExtractSliceOp::create(
      rewriter, insert.getLoc(), insert.getSourceType(), insert.getDest(),
      insert.getMixedOffsets(), insert.getMixedSizes(),
      insert.getMixedStrides());
  rewriter.modifyOpInPlace(writer, [&] { init->set(slice); });
}

/// A linalg.copy of `value` into a fresh tensor, at the insertion point: a
/// root the kernel computes and stores where the value itself is not one.
Value copyIntoNewTensor(RewriterBase &rewriter, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                       type.getElementType());
  return linalg::CopyOp::create(rewriter, loc, value, init).getResult(0);
}

/// The static extent of each loop of `root` (kDynamic where unknown).
SmallVector<int64_t> staticDomain(TilingInterface root) {
  OpBuilder b(root);
  SmallVector<int64_t> extents;
  for (Range range : root.getIterationDomain(b)) {
    std::optional<int64_t> size = getConstantIntValue(range.size);
    extents.push_back(size ? *size : ShapedType::kDynamic);
  }
  return extents;
}

/// Fewest points a tile of a root without reduction loops is shrunk to
/// when filling the SMs: a warp's worth (a root with reductions does that
/// many multiply-adds per point and may go down to one).
constexpr int64_t kMinPointsPerTile = 32;

/// The tile of a root with loops `iterators` of `extents` (see
/// LoweringConfigAttr and the pass description): reductions whole; in a
/// group with a reduction (`keepRows`) the innermost parallel loop whole;
/// else the innermost parallel loop by 32, the next by 8, outer ones by 1,
/// each the largest divisor of its extent. A tile with fewer points than
/// `threads` (0: no such growth) doubles its outer tiled loops, inner
/// first, while the tiles still cover `sms` SMs; loops `keepWhole` stay
/// whole; then, while the tiles are fewer than `sms`, the tiled loop whose
/// next smaller divisor shrinks the tile least gets it.
SmallVector<int64_t> chooseTile(ArrayRef<utils::IteratorType> iterators,
                                ArrayRef<int64_t> extents, bool keepRows,
                                int64_t threads, ArrayRef<bool> keepWhole,
                                int64_t sms, bool reduces) {
  size_t rank = iterators.size();
  auto parallel = [&](size_t d) {
    return iterators[d] == utils::IteratorType::parallel;
  };
  auto isStatic = [&](size_t d) { return !ShapedType::isDynamic(extents[d]); };
  SmallVector<int64_t> tile(rank, 0);
  int parallelSeen = 0;
  for (int64_t i = int64_t(rank) - 1; i >= 0; --i) {
    if (!parallel(i))
      continue;
    int64_t size = parallelSeen == 0   ? (keepRows ? 0 : 32)
                   : parallelSeen == 1 ? (keepRows ? 1 : 8)
                                       : 1;
    ++parallelSeen;
    // Tiles divide the dimension: every tile then has the same static
    // shape (no partial tiles, no dynamically sized buffers in a kernel).
    if (size != 0 && isStatic(i)) {
      size = std::min<int64_t>(size, extents[i]);
      while (size > 1 && extents[i] % size != 0)
        --size;
    }
    tile[i] = size;
  }
  auto points = [&] {
    int64_t n = 1;
    for (size_t d = 0; d < rank; ++d)
      if (parallel(d))
        n *= tile[d] ? tile[d] : (isStatic(d) ? extents[d] : 1);
    return n;
  };
  auto tiles = [&] {
    int64_t n = 1;
    for (size_t d = 0; d < rank; ++d)
      if (parallel(d) && tile[d] && isStatic(d))
        n *= extents[d] / tile[d];
    return n;
  };
  if (!keepRows && threads > 1) {
    int seen = 0;
    for (int64_t i = int64_t(rank) - 1; i >= 0; --i) {
      if (!parallel(i) || seen++ == 0 || !isStatic(i) || tile[i] == 0)
        continue;
      while (points() < threads && tile[i] * 2 <= extents[i] &&
             extents[i] % (tile[i] * 2) == 0 &&
             (tiles() / 2 >= sms || points() < kMinPointsPerTile))
        tile[i] *= 2;
    }
  }
  for (auto [d, whole] : llvm::enumerate(keepWhole))
    if (whole && d < rank)
      tile[d] = 0;
  // Fill the SMs: smaller tiles while there are fewer tiles than SMs.
  int64_t floor = reduces ? 1 : kMinPointsPerTile;
  while (tiles() < sms) {
    int64_t best = -1, bestNext = 0;
    double bestRatio = 0;
    for (size_t d = 0; d < rank; ++d) {
      if (!parallel(d) || !isStatic(d) || tile[d] <= 1)
        continue;
      int64_t next = tile[d] - 1;
      while (next > 1 && extents[d] % next != 0)
        --next;
      double ratio = double(tile[d]) / double(next);
      if (points() / tile[d] * next < floor)
        continue;
      if (best < 0 || ratio < bestRatio) {
        best = d;
        bestNext = next;
        bestRatio = ratio;
      }
    }
    if (best < 0)
      break;
    tile[best] = bestNext;
  }
  return tile;
}

/// Whether two loops have the same bounds and steps.
bool sameSpace(scf::ForallOp a, scf::ForallOp b) {
  auto equal = [](ArrayRef<OpFoldResult> x, ArrayRef<OpFoldResult> y) {
    return x.size() == y.size() && llvm::all_of(llvm::zip(x, y), [](auto pair) {
             return isEqualConstantIntOrValue(std::get<0>(pair),
                                              std::get<1>(pair));
           });
  };
  return equal(a.getMixedLowerBound(), b.getMixedLowerBound()) &&
         equal(a.getMixedUpperBound(), b.getMixedUpperBound()) &&
         equal(a.getMixedStep(), b.getMixedStep());
}

/// "group N" for diagnostics.
std::string groupName(GroupOp group) {
  if (auto attr = FuseDialect::IdAttrHelper(group->getContext()).getAttr(group))
    return "group " + std::to_string(attr.getInt());
  return "a group";
}

/// Gives every value the kernel stores a root of its own (semantics
/// unchanged): a result that is only a slice of another op of the group
/// (one output of a merged contraction) gets a copy as its root; a concat
/// branch that no op of the group computes (an input, a reshape or a slice
/// of a value), or that the group also returns or reads elsewhere (a
/// pooling chain whose every stage joins the concat), gets a copy into its
/// slice as its root: the kernel stores it there, and writes the value
/// itself to its own output.
void insertRootCopies(RewriterBase &rewriter, GroupOp group) {
  for (OpOperand &result : group.getYield()->getOpOperands()) {
    auto slice = result.get().getDefiningOp<tensor::ExtractSliceOp>();
    if (!slice || slice->getBlock() != &group.getBodyBlock())
      continue;
    rewriter.setInsertionPoint(group.getYield());
    Value copy = copyIntoNewTensor(rewriter, slice.getLoc(), slice);
    rewriter.modifyOpInPlace(group.getYield(), [&] { result.set(copy); });
  }
  for (Value value : group.getYield().getValues()) {
    while (auto insert = value.getDefiningOp<tensor::InsertSliceOp>()) {
      value = insert.getDest();
      if (insert->getBlock() != &group.getBodyBlock())
        break;
      Value source = insert.getSource();
      Operation *def = source.getDefiningOp();
      bool direct = def && def->getBlock() == &group.getBodyBlock() &&
                    isa<TilingInterface>(def) && source.hasOneUse();
      if (direct)
        continue;
      rewriter.setInsertionPoint(insert);
      Value copy = copyIntoNewTensor(rewriter, insert.getLoc(), source);
      rewriter.modifyOpInPlace(insert,
                               [&] { insert.getSourceMutable().set(copy); });
    }
  }
}

/// A group's roots (after insertRootCopies) as the tiling sees them.
struct Roots {
  SmallVector<Operation *> ops;
  /// Per loop: a dimension whose extent differs between independent roots
  /// stays whole, so every root has the same tiles.
  SmallVector<bool> keepWhole;
  /// Whether a reduction's result is read along rows (rows stay whole).
  bool keepRows = false;
  /// 'op', 'op', ... for diagnostics.
  std::string names;
};

/// Whether a reduction of `group` has its result read along a row: by an
/// op that does not index it with its own innermost parallel loop (a
/// softmax's row maximum, a layernorm's mean). Tiling that loop would
/// recompute the reduction for every tile of the row, so the row stays
/// whole. A reduction read elementwise by linalg ops (a global average
/// pool's sum, divided per channel) does not keep rows; one read through
/// anything else (a reshape: tiling its consumer does not always reach the
/// reduction) does.
bool broadcastsReductionAlongRows(GroupOp group) {
  Block &body = group.getBodyBlock();
  for (Operation *op : group.getComputeOps()) {
    if (classifyOp(op).category != OpCategory::reduction)
      continue;
    for (Value value : op->getResults()) {
      for (OpOperand &use : value.getUses()) {
        Operation *user = use.getOwner();
        if (user->getBlock() != &body || isa<YieldOp>(user))
          continue;
        auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
        if (!linalgOp || linalgOp.getNumDpsInits() == 0)
          return true;
        // The user's innermost parallel loop: its first output's last
        // dimension.
        AffineMap out =
            linalgOp.getMatchingIndexingMap(linalgOp.getDpsInitOperand(0));
        if (out.getNumResults() == 0)
          return true;
        auto inner = dyn_cast<AffineDimExpr>(out.getResults().back());
        if (!inner)
          return true;
        AffineMap read = linalgOp.getMatchingIndexingMap(&use);
        if (!read.isFunctionOfDim(inner.getPosition()))
          return true;
      }
    }
  }
  return false;
}

/// The roots of `group`, or an error naming the group when they cannot be
/// tiled as one nest (a root without TilingInterface, independent roots
/// with nests of different depths). No roots: the group only forwards its
/// inputs.
FailureOr<Roots> analyzeRoots(GroupOp group) {
  Roots roots;
  roots.ops = findRoots(group);
  for (Operation *rootOp : roots.ops)
    if (!isa<TilingInterface>(rootOp))
      return rootOp->emitError()
             << "fuse-lower-groups: " << groupName(group) << " ("
             << stringifyFusionKind(group.getKind()) << "): its root '"
             << rootOp->getName() << "' cannot be tiled (no TilingInterface)";
  roots.keepRows = broadcastsReductionAlongRows(group);
  for (Operation *rootOp : roots.ops)
    roots.names += (roots.names.empty() ? "'" : ", '") +
                   rootOp->getName().getStringRef().str() + "'";
  if (roots.ops.size() > 1) {
    SmallVector<SmallVector<int64_t>> extents;
    for (Operation *rootOp : roots.ops)
      extents.push_back(staticDomain(cast<TilingInterface>(rootOp)));
    roots.keepWhole.assign(extents.front().size(), false);
    for (const SmallVector<int64_t> &dims : extents) {
      if (dims.size() != extents.front().size())
        return roots.ops.front()->emitError()
               << "fuse-lower-groups: " << groupName(group)
               << ": its independent outputs (roots " << roots.names
               << ") have loop nests of different depths, so they cannot "
                  "share one loop nest";
      for (auto [d, size] : llvm::enumerate(dims))
        roots.keepWhole[d] = roots.keepWhole[d] || size != extents.front()[d] ||
                             ShapedType::isDynamic(size);
    }
  }
  return roots;
}

/// The parallel points of `root`'s loops (0 where one is dynamic).
int64_t parallelPointsOf(TilingInterface root) {
  int64_t points = 1;
  for (auto [size, iterator] :
       llvm::zip(staticDomain(root), root.getLoopIteratorTypes())) {
    if (iterator != utils::IteratorType::parallel)
      continue;
    if (ShapedType::isDynamic(size))
      return 0;
    points *= size;
  }
  return points;
}

/// Whether `group`'s one root computes matrix-vector products through an
/// elementwise epilogue: the root does not reduce, and a contraction of
/// the group (out + a * b) has one point on its M or N side and as many
/// output points as the root (a classifier's GEMV + bias at batch 1).
/// Each of its points is then a long dot product that several lanes share,
/// as in a root that reduces.
bool matrixVectorRoot(GroupOp group, const Roots &roots) {
  if (roots.ops.size() != 1)
    return false;
  auto root = dyn_cast<linalg::LinalgOp>(roots.ops.front());
  if (!root || root.getNumReductionLoops() != 0)
    return false;
  int64_t rootPoints =
      parallelPointsOf(cast<TilingInterface>(root.getOperation()));
  if (rootPoints == 0)
    return false;
  for (Operation *op : group.getComputeOps())
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
      if (std::optional<MmaContraction> c = matchMmaContraction(linalgOp))
        if ((c->mPoints == 1 || c->nPoints == 1) &&
            c->batchPoints * c->mPoints * c->nPoints == rootPoints)
          return true;
  return false;
}

/// The tile of `roots` (see chooseTile), shared by all of them; `override`
/// (tile-sizes) replaces it. `reduces`: whether the tile's points are
/// reductions (a root that reduces, or a matrix-vector product behind it).
SmallVector<int64_t> tileForRoots(const Roots &roots, int64_t threads,
                                  int64_t sms, ArrayRef<int64_t> override,
                                  bool matrixVector) {
  auto root = cast<TilingInterface>(roots.ops.front());
  SmallVector<utils::IteratorType> iterators = root.getLoopIteratorTypes();
  SmallVector<int64_t> extents = staticDomain(root);
  if (!override.empty()) {
    // A size past a loop's extent is the whole loop.
    SmallVector<int64_t> tile(iterators.size(), 0);
    for (size_t d = 0; d < tile.size() && d < override.size(); ++d)
      tile[d] = ShapedType::isDynamic(extents[d])
                    ? override[d]
                    : std::min(override[d], extents[d]);
    return tile;
  }
  bool reduces = matrixVector || llvm::any_of(roots.ops, [](Operation *op) {
                   auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
                   return linalgOp && linalgOp.getNumReductionLoops() > 0;
                 });
  // Several roots share one loop nest: their tiles stay the plain defaults,
  // which the roots have in common.
  SmallVector<int64_t> tile = chooseTile(iterators, extents, roots.keepRows,
                                         roots.ops.size() == 1 ? threads : 0,
                                         roots.keepWhole, sms, reduces);
  if (llvm::all_of(tile, [](int64_t t) { return t == 0; })) {
    // Nothing left in common to tile: one tile covering the outermost
    // parallel dimension, so each root still runs as one loop iteration;
    // with one root (its only parallel loop kept whole), a tile per row.
    for (auto [d, iterator] : llvm::enumerate(iterators))
      if (iterator == utils::IteratorType::parallel) {
        tile[d] = roots.ops.size() > 1 && !ShapedType::isDynamic(extents[d])
                      ? extents[d]
                      : 1;
        break;
      }
  }
  return tile;
}

/// Whether `group`'s tiles may overlap (shiftLastTiles): the points two
/// tiles share are computed by both, from the same inputs by the same
/// code, and written twice with the same values. That holds when no tile
/// reads what any tile writes: its roots and every value the group
/// returns are computed into fresh tensors (not a
/// slice of a larger one, a concat's), written without being read, except
/// the accumulators of `contraction` (a tensor-core contraction, or null),
/// which start from a fill or a constant (its initializer, folded into
/// the registers).
bool tilesMayOverlap(GroupOp group, const Roots &roots,
                     Operation *contraction) {
  Block &body = group.getBodyBlock();
  SetVector<Operation *> writers(roots.ops.begin(), roots.ops.end());
  for (Value value : group.getYield().getValues())
    if (Operation *def = value.getDefiningOp(); def && def->getBlock() == &body)
      writers.insert(def);
  auto fresh = [](Value value) {
    if (auto fill = value.getDefiningOp<linalg::FillOp>())
      value = fill.getDpsInitOperand(0)->get();
    return value.getDefiningOp<tensor::EmptyOp>() ||
           value.getDefiningOp<arith::ConstantOp>();
  };
  for (Operation *writer : writers) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(writer);
    if (!linalgOp)
      return false;
    for (Operation *user : writer->getUsers())
      if (isa<tensor::InsertSliceOp>(user))
        return false;
    for (OpOperand &init : linalgOp.getDpsInitsMutable()) {
      if (!fresh(init.get()))
        return false;
      bool reads = linalgOp.payloadUsesValueFromOperand(&init);
      bool initialized = contraction && writer == contraction &&
                         (init.get().getDefiningOp<linalg::FillOp>() ||
                          init.get().getDefiningOp<arith::ConstantOp>());
      if (reads && !initialized)
        return false;
    }
  }
  return true;
}

/// Tile sizes given by the user (`tile-sizes`) for `group`'s root: each
/// value for a parallel loop must divide its extent (a partial tile would
/// need a buffer of dynamic shape inside the kernel) unless it covers the
/// whole loop or the group's tiles may overlap (tilesMayOverlap: the last
/// tile moves back), and some parallel loop must be tiled. Values for reduction
/// loops and past the root's loops are ignored.
LogicalResult checkTileOverride(GroupOp group, const Roots &roots,
                                ArrayRef<int64_t> override) {
  if (override.empty())
    return success();
  auto root = cast<TilingInterface>(roots.ops.front());
  SmallVector<utils::IteratorType> iterators = root.getLoopIteratorTypes();
  SmallVector<int64_t> extents = staticDomain(root);
  auto fail = [&]() {
    return root->emitError()
           << "fuse-lower-groups: " << groupName(group) << ": option "
           << "'tile-sizes' (" << llvm::interleaved(override, ",") << ") ";
  };
  int64_t parallel = 0;
  bool tiled = false;
  for (auto [d, iterator] : llvm::enumerate(iterators)) {
    if (iterator != utils::IteratorType::parallel)
      continue;
    ++parallel;
    if (d >= override.size() || override[d] == 0)
      continue;
    tiled = true;
    if (ShapedType::isDynamic(extents[d]) || override[d] >= extents[d])
      continue;
    if (extents[d] % override[d] != 0 &&
        !tilesMayOverlap(group, roots, /*contraction=*/nullptr))
      return fail() << "gives " << override[d] << " for loop " << d
                    << " of its root '" << root->getName() << "', which has "
                    << extents[d]
                    << " iterations: a partial tile would need a buffer of "
                       "dynamic shape in the kernel, and the group's tiles "
                       "cannot overlap instead (it reads what it writes); "
                       "give a divisor of "
                    << extents[d] << " (or 0 to leave the loop whole)";
  }
  if (!tiled)
    return fail() << "tiles none of the " << parallel
                  << " parallel loops of its root '" << root->getName()
                  << "' (0 leaves a loop whole); give a size for at least one"
                  << (parallel ? ""
                               : " (it has none: a full reduction to a "
                                 "scalar is not supported yet)");
  return success();
}

/// The schedule class of `group` (LoweringConfigAttr's `schedule`).
StringRef scheduleOf(GroupOp group) {
  if (group.getRule() && *group.getRule() == "attention")
    return "attention";
  bool depthwise = false, conv = false, contraction = false, reduction = false;
  for (Operation *op : group.getComputeOps()) {
    StringRef name = op->getName().getStringRef();
    depthwise |= name.contains("depthwise_conv");
    conv |= isa<linalg::ConvolutionOpInterface>(op) &&
            !name.contains("pooling") && !name.contains("depthwise");
    OpCategory category = classifyOp(op).category;
    contraction |= category == OpCategory::contraction;
    reduction |= category == OpCategory::reduction;
  }
  if (conv)
    return "convolution";
  if (depthwise)
    return "depthwise";
  if (contraction)
    return "contraction";
  if (reduction)
    return "reduction";
  return "elementwise";
}

/// gatheredBytes of `value` by the ops in `region`.
static std::optional<int64_t> gatheredIn(Value value, Region &region) {
  return fuse::gatheredBytes(value, [&](Operation *user) {
    return region.isAncestor(user->getParentRegion());
  });
}

/// What the cost model reads of `group` tiled by `tile` (`root`'s loops):
/// its schedule class, the blocks, the points of a tile and of its
/// contiguous dimension (the root's last parallel loop), its multiply-adds
/// and the bytes of its inputs and results. The threads are the caller's.
KernelShape kernelShapeOf(GroupOp group, TilingInterface root,
                          ArrayRef<int64_t> tile) {
  auto bytesOf = [](Type type) { return getShapedTypeBytes(type).value_or(0); };
  KernelShape shape;
  shape.schedule = scheduleOf(group);
  double flops = 0;
  for (Operation *op : group.getComputeOps())
    flops += double(classifyOp(op).flops.value_or(0));
  shape.macs = flops / 2;
  // An input only gathered from (an embedding table) is read only where
  // the gather reads.
  for (auto [input, arg] :
       llvm::zip(group.getInputs(), group.getBodyBlock().getArguments()))
    shape.bytes +=
        gatheredIn(arg, group.getBody()).value_or(bytesOf(input.getType()));
  for (Type result : group.getResultTypes())
    shape.bytes += bytesOf(result);
  SmallVector<int64_t> extents = staticDomain(root);
  for (auto [d, iterator] : llvm::enumerate(root.getLoopIteratorTypes())) {
    if (iterator != utils::IteratorType::parallel)
      continue;
    bool tiled = d < tile.size() && tile[d] > 0;
    bool dynamic = ShapedType::isDynamic(extents[d]);
    // A loop kept whole counts its extent.
    shape.pointsPerBlock *= tiled ? tile[d] : (dynamic ? 1 : extents[d]);
    if (tiled && !dynamic)
      shape.blocks *= llvm::divideCeil(extents[d], tile[d]);
    // The last parallel loop: the tile's contiguous dimension.
    shape.innerPoints = tiled ? tile[d] : (dynamic ? 0 : extents[d]);
  }
  return shape;
}

/// The contraction of `group` that the tensor-core schedule computes (at
/// least one 16x8x8 instruction's worth), if any.
std::optional<MmaContraction> mmaContractionOf(GroupOp group) {
  for (Operation *op : group.getComputeOps())
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
      if (std::optional<MmaContraction> c = matchMmaContraction(linalgOp))
        if (c->mPoints >= 16 && c->nPoints >= 8 && c->kPoints >= 8)
          return c;
  return std::nullopt;
}

/// Whether some divisor of `extent` from 16 to 128 fills the 16 rows of an
/// accumulator tile: a loop with one keeps dividing tiles (overlapping
/// ones would only add work).
bool hasWholeTileDivisor(int64_t extent) {
  for (int64_t size = 16; size <= std::min<int64_t>(extent, 128); ++size)
    if (extent % size == 0)
      return true;
  return false;
}

/// The overlapping tensor-core tile sizes of a loop of `extent` (16, 32, 64
/// or 128 points, at most `most`, that do not divide it; the last tile is
/// moved back: shiftLastTiles): none where hasWholeTileDivisor.
SmallVector<int64_t> overlappingSizes(int64_t extent, int64_t most) {
  SmallVector<int64_t> sizes;
  if (hasWholeTileDivisor(extent))
    return sizes;
  for (int64_t size : {16, 32, 64, 128})
    if (size < extent && extent % size != 0 && size <= most)
      sizes.push_back(size);
  return sizes;
}

/// Most points of a tensor-core tile along the contiguous loop (N) and
/// over the loops outside it (M).
constexpr int64_t kMmaTileN = 128, kMmaTileM = 128;

/// The tiles a root (loops `iterators` of `extents`) whose contraction
/// runs on tensor cores may take: its contiguous (last parallel) loop, the
/// N of the GEMM, by a divisor of its extent up to 128 and at least 8 (or
/// the extent); the parallel loops outside it (the M) by divisors whose
/// product is at most 128 (fewer than 16 points leave rows of the 16-row
/// accumulator tiles empty, which the cost model counts). Tiles divide the
/// loops (no partial tiles), except with `overlapRows`: then the row loop
/// (the innermost outside N) and N, where no divisor from 16 to 128 fits
/// them, may also take 16, 32, 64 or 128 points, the last tile moved back
/// to end at the extent (shiftLastTiles; a prime row count, ViT's 197
/// tokens, has no divisor a tensor-core tile can use). With `wholeRows` (a
/// reduction reads each row whole) N stays the whole row. Empty when a parallel
/// loop is dynamic.
SmallVector<SmallVector<int64_t>>
mmaTileCandidates(ArrayRef<utils::IteratorType> iterators,
                  ArrayRef<int64_t> extents, bool wholeRows, bool overlapRows) {
  SmallVector<unsigned> parallel;
  for (auto [d, iterator] : llvm::enumerate(iterators))
    if (iterator == utils::IteratorType::parallel) {
      if (ShapedType::isDynamic(extents[d]))
        return {};
      parallel.push_back(d);
    }
  if (parallel.empty())
    return {};
  auto divisors = [](int64_t extent, int64_t most) {
    SmallVector<int64_t> out;
    for (int64_t size = 1; size <= std::min(extent, most); ++size)
      if (extent % size == 0)
        out.push_back(size);
    return out;
  };
  unsigned inner = parallel.back();
  ArrayRef<unsigned> outer = ArrayRef(parallel).drop_back();
  int64_t nFloor = std::min<int64_t>(extents[inner], 8);
  // The M tiles: every combination of the outer loops' divisors (and the
  // row loop's overlapping sizes: the innermost loop outside N of more
  // than one point).
  std::optional<unsigned> rowLoop;
  for (unsigned d : outer)
    if (extents[d] > 1)
      rowLoop = d;
  SmallVector<SmallVector<int64_t>> mTiles = {{}};
  for (unsigned d : outer) {
    SmallVector<SmallVector<int64_t>> next;
    for (const SmallVector<int64_t> &partial : mTiles) {
      int64_t points = 1;
      for (int64_t t : partial)
        points *= t;
      SmallVector<int64_t> sizes = divisors(extents[d], kMmaTileM / points);
      if (overlapRows && d == rowLoop)
        sizes.append(overlappingSizes(extents[d], kMmaTileM / points));
      for (int64_t size : sizes) {
        next.push_back(partial);
        next.back().push_back(size);
      }
    }
    mTiles = std::move(next);
  }
  SmallVector<SmallVector<int64_t>> candidates;
  SmallVector<int64_t> nTiles =
      wholeRows ? SmallVector<int64_t>{0} : divisors(extents[inner], kMmaTileN);
  if (overlapRows && !wholeRows)
    nTiles.append(overlappingSizes(extents[inner], kMmaTileN));
  for (int64_t n : nTiles) {
    if (n != 0 && n < nFloor)
      continue;
    for (const SmallVector<int64_t> &m : mTiles) {
      SmallVector<int64_t> tile(iterators.size(), 0);
      for (auto [d, size] : llvm::zip(outer, m))
        tile[d] = size;
      tile[inner] = n;
      candidates.push_back(std::move(tile));
    }
  }
  return candidates;
}

/// Bytes of the inputs one tile of a contraction `shape` reads (its M rows
/// of A and N columns of B over the whole reduction), before the lowering
/// measures them.
int64_t estimatedTileInputBytes(const KernelShape &shape) {
  int64_t n = std::max<int64_t>(shape.innerPoints, 1);
  int64_t m = std::max<int64_t>(shape.pointsPerBlock / n, 1);
  double k = shape.reductionPoints > 0
                 ? double(shape.reductionPoints)
                 : shape.macs / double(std::max<int64_t>(
                                    shape.pointsPerBlock * shape.blocks, 1));
  return int64_t(double(m + n) * k * 4);
}

/// Threads of a tensor-core tile: the fewest warps (1, 2, 4 or 8) that
/// leave each at most 8 of the tile's 16x8 accumulator tiles (32
/// registers a lane), else 8 warps if each then holds at most 16; 0 when
/// the tile is too large for a block.
int64_t mmaThreads(const KernelShape &shape) {
  int64_t n = std::max<int64_t>(shape.innerPoints, 1);
  int64_t m = std::max<int64_t>(shape.pointsPerBlock / n, 1);
  int64_t tilesM = llvm::divideCeil(m, 16), tilesN = llvm::divideCeil(n, 8);
  for (int64_t warps : {1, 2, 4, 8}) {
    MmaWarpGrid grid = chooseMmaWarps(tilesM, tilesN, warps);
    int64_t perWarp = grid.tilesM * grid.tilesN;
    if (perWarp <= 8 || (warps == 8 && perWarp <= 16))
      return 32 * grid.warpsM * grid.warpsN;
  }
  return 0;
}

/// The K points of one tensor-core instruction at the options' precision:
/// 16 for 16-bit operands (mma.sync.m16n8k16), else 8 (m16n8k8, TF32).
int64_t mmaKFor(const GroupConfigOptions &options) {
  return options.precision == "bf16" || options.precision == "fp16" ? 16 : 8;
}

/// Tensor-core products per multiply-add at the options' precision: 3 for
/// fp32 (TF32 splits), 1 otherwise.
int64_t mmaProductsFor(const GroupConfigOptions &options) {
  return options.precision == "fp32" || options.precision.empty() ? 3 : 1;
}

/// Bytes of one staged element of `contraction`'s operands: they are staged
/// in their own type (4 for f32, 2 for a 16-bit model's).
int64_t stagedBytes(const MmaContraction &contraction) {
  return contraction.operandType.getIntOrFloatBitWidth() / 8;
}

/// `shape` (a tile of `contraction`'s group) as the mma_sync schedule runs
/// it with `stages` K chunks staged: its products per multiply-add,
/// reduction, threads (options' when a multiple of 32), staging and
/// estimated tile input bytes; false when it is no kernel of that schedule
/// (one tile for the whole output leaves no tile loop for the grid, no
/// block holds its accumulators, or the staged chunks and the output tile
/// do not fit a block's shared memory on `target`).
bool onTensorCores(KernelShape &shape, const MmaContraction &contraction,
                   const GroupConfigOptions &options, int64_t stages,
                   TargetAttr target, int64_t slices = 1,
                   int64_t prologueBytes = 0, int64_t intermediates = 0) {
  if (shape.blocks <= 1)
    return false;
  int64_t n = std::max<int64_t>(shape.innerPoints, 1);
  int64_t m = std::max<int64_t>(shape.pointsPerBlock / n, 1);
  shape.stages = stages;
  shape.splitK = slices;
  shape.stagingBytes = mmaStagingBytes(
      m, n, contraction.kPoints, contraction.aKFastest, contraction.bKFastest,
      stages, mmaKFor(options), stagedBytes(contraction));
  // Split-K adds the block's last-to-arrive flag.
  int64_t flagBytes = slices > 1 ? 16 : 0;
  // The A prologue's tile buffers and the epilogue's intermediate tiles
  // share the block's shared memory (and count for residency).
  int64_t tileBytes = prologueBytes + intermediates * m * n * 4;
  if (shape.stagingBytes + m * n * 4 + flagBytes + tileBytes >
      target.getSharedMemPerBlock())
    return false;
  shape.tileSharedBytes = std::max(shape.tileSharedBytes, tileBytes);
  shape.instruction = "mma_sync";
  shape.products = mmaProductsFor(options);
  shape.mmaK = mmaKFor(options);
  shape.reductionPoints = contraction.kPoints;
  shape.threads = options.threads > 0 && options.threads % 32 == 0
                      ? options.threads
                      : mmaThreads(shape);
  if (shape.threads == 0)
    return false;
  shape.tileInputBytes = estimatedTileInputBytes(shape);
  return true;
}

/// The stage counts a tensor-core candidate is tried with: the options'
/// own, else 2, 3 and 4 (in that order, so that ties keep the fewer).
SmallVector<int64_t> stageCountsFor(const GroupConfigOptions &options) {
  if (options.stages != 0)
    return {options.stages};
  return {2, 3, 4};
}

/// The elementwise ops of `group` after `contraction` whose results stay
/// inside the group: each is a tile buffer of the output tile's size in
/// the kernel (the one that writes the group's result is not).
int64_t epilogueIntermediates(GroupOp group,
                              const MmaContraction &contraction) {
  Operation *own = linalg::LinalgOp(contraction.op).getOperation();
  int64_t count = 0;
  for (Operation *op : group.getComputeOps()) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp || op == own || linalgOp.getNumReductionLoops() != 0 ||
        !own->isBeforeInBlock(op))
      continue;
    bool inside = llvm::any_of(
        op->getUsers(), [](Operation *user) { return !isa<YieldOp>(user); });
    count += inside;
  }
  return count;
}

/// Bytes of the tile-local buffers a tile (`tile`, over `root`'s loops)
/// of `contraction` keeps for its A operand's prologue: a chain of ops of
/// the group (a pad, elementwise ops) that makes A from the group's input
/// is computed into one tile buffer of A's tile each (the tile's rows with
/// their halo: per A dimension, the sum of its loops' tile extents minus 1
/// times their coefficients, plus 1). 0 where A is read from the input.
int64_t prologueTileBytes(const MmaContraction &contraction,
                          TilingInterface root, ArrayRef<int64_t> tile) {
  linalg::LinalgOp op = contraction.op;
  Value a = contraction.a->get();
  SmallVector<Operation *> chain;
  for (Operation *def = a.getDefiningOp(); def && chain.size() < 8;) {
    if (auto pad = dyn_cast<tensor::PadOp>(def)) {
      chain.push_back(def);
      def = pad.getSource().getDefiningOp();
      continue;
    }
    auto generic = dyn_cast<linalg::GenericOp>(def);
    if (!generic || generic.getNumReductionLoops() != 0 ||
        generic.getNumDpsInputs() < 1)
      break;
    chain.push_back(def);
    def = generic.getDpsInputOperand(0)->get().getDefiningOp();
  }
  if (chain.empty())
    return 0;
  // The contraction's loop extents in the tile: its parallel loops are the
  // root's (by the output map, the root being output-shaped), its
  // reduction loops whole.
  SmallVector<int64_t> sizes = op.getStaticLoopRanges();
  SmallVector<int64_t> rootExtents = staticDomain(root);
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (out.getNumResults() != rootExtents.size())
    return 0;
  SmallVector<int64_t> extent = sizes;
  for (auto [r, expr] : llvm::enumerate(out.getResults()))
    if (auto dim = dyn_cast<AffineDimExpr>(expr))
      if (r < tile.size() && tile[r] > 0)
        extent[dim.getPosition()] = tile[r];
  if (llvm::any_of(extent, ShapedType::isDynamic))
    return 0;
  // A's tile: each result's span over the loops' tile extents.
  AffineMap map = op.getMatchingIndexingMap(contraction.a);
  if (map.getNumSymbols() != 0)
    return 0;
  SmallVector<int64_t> spans = mapSpans(map, extent);
  int64_t elements = 1;
  for (int64_t span : spans)
    elements *= span;
  // A pad's tile is one buffer where it is the whole padded input; a tile
  // of it is sized at run time at the edges, and the lowering copies it
  // into a second buffer of the static tile.
  int64_t buffers = 0;
  for (Operation *def : chain) {
    ++buffers;
    if (auto pad = dyn_cast<tensor::PadOp>(def))
      if (pad.getResultType().getShape() != ArrayRef<int64_t>(spans))
        ++buffers;
  }
  return buffers * llvm::alignTo(elements * 4, 16);
}

/// The slices (split-K) a tensor-core kernel of `shape`, a tile of
/// `contraction`, is tried with: 1, and where its tiles do not fill the
/// SMs every count up to kMaxSplitK that gives each slice the same
/// number of K chunks, at least one (the options' count where it does; 1
/// where they say never). Only a contraction without batch loops that is
/// the group's one tensor-core contraction (`alone`) splits.
SmallVector<int64_t> splitCountsFor(const GroupConfigOptions &options,
                                    const KernelShape &shape,
                                    const MmaContraction &contraction,
                                    bool alone, TargetAttr target) {
  if (options.splitK == 1 || !alone || contraction.batchPoints != 1)
    return {1};
  int64_t chunks = llvm::divideCeil(
      contraction.kPoints, mmaChunk(contraction.kPoints, mmaKFor(options)));
  auto even = [&](int64_t slices) {
    return slices <= chunks &&
           int64_t(llvm::divideCeil(
               chunks, llvm::divideCeil(chunks, slices))) == slices;
  };
  if (options.splitK >= 2)
    return {even(options.splitK) ? options.splitK : 1};
  SmallVector<int64_t> counts = {1};
  if (shape.blocks >= target.getNumSMs())
    return counts;
  for (int64_t slices = 2; slices <= kMaxSplitK; ++slices)
    if (even(slices))
      counts.push_back(slices);
  return counts;
}

/// Whether `contraction` is the only contraction of `group` the
/// tensor-core schedule computes.
bool onlyMmaContraction(GroupOp group, const MmaContraction &contraction) {
  Operation *own = linalg::LinalgOp(contraction.op).getOperation();
  for (Operation *op : group.getComputeOps())
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
      if (op != own && linalgOp.getNumReductionLoops() > 0 &&
          matchMmaContraction(linalgOp))
        return false;
  return true;
}

/// Threads per block a tile is sized for when the block size is the cost
/// model's choice.
constexpr int64_t kTileThreads = 128;

/// The block size (a multiple of 32, at most the target's and the tile's
/// points rounded up) whose kernel `shape` the cost model predicts fastest;
/// `fallback` unless another is predicted strictly faster (a memory-bound
/// kernel keeps it), else the smallest of the equally fast ones.
int64_t fastestBlockSize(KernelShape shape, int64_t fallback,
                         TargetAttr target) {
  int64_t points = shape.pointsPerBlock;
  int64_t most =
      std::min<int64_t>(target.getMaxThreadsPerBlock(),
                        std::max<int64_t>(32, llvm::alignTo(points, 32)));
  shape.threads = fallback;
  int64_t best = fallback;
  double bestUs = predictKernelCost(shape, target).us;
  for (int64_t threads = 32; threads <= most; threads += 32) {
    shape.threads = threads;
    double us = predictKernelCost(shape, target).us;
    if (us < bestUs) {
      best = threads;
      bestUs = us;
    }
  }
  return best;
}

LogicalResult lowerGroup(RewriterBase &rewriter, GroupOp group,
                         LoweringConfigAttr config);

/// How many times `op` runs in its tile: the product of the trip counts of
/// the scf.for loops around it inside its tile loop (a streamed
/// reduction's chunks); 1 outside any.
int64_t tripsInTile(Operation *op) {
  int64_t trips = 1;
  for (Operation *parent = op->getParentOp();
       parent && !isa<scf::ForallOp>(parent); parent = parent->getParentOp())
    if (auto loop = dyn_cast<scf::ForOp>(parent))
      if (std::optional<APInt> count = loop.getStaticTripCount())
        trips *= std::max<int64_t>(count->getSExtValue(), 1);
  return trips;
}

/// Calls `fn` on the tile loop (the outermost scf.forall) of a lowered
/// `group`.
void forEachTileLoop(GroupOp group,
                     llvm::function_ref<void(scf::ForallOp)> fn) {
  group.walk([&](scf::ForallOp loop) {
    if (!loop->getParentOfType<scf::ForallOp>())
      fn(loop);
  });
}

/// Lowers a copy of `group` by `tile` (SIMT, 128 threads: the tile is what
/// matters), calls `fn` on it if it lowered, and erases it; its
/// diagnostics are not the user's. Returns `fn`'s answer (false when the
/// copy did not lower).
bool onLoweredCopy(RewriterBase &rewriter, GroupOp group,
                   ArrayRef<int64_t> tile, llvm::function_ref<bool(GroupOp)> fn,
                   int64_t keyChunk = 0) {
  MLIRContext *ctx = group->getContext();
  ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(group);
  auto copy = cast<GroupOp>(rewriter.clone(*group));
  auto config =
      LoweringConfigAttr::get(ctx, scheduleOf(group), tile, 128, "simt", "fp32",
                              0, 0, keyChunk, CpuScheduleAttr());
  bool answer = succeeded(lowerGroup(rewriter, copy, config)) && fn(copy);
  rewriter.eraseOp(copy);
  return answer;
}

/// Whether a copy of `group` lowers by `config`; the copy's diagnostics
/// are not the user's.
bool lowersWith(RewriterBase &rewriter, GroupOp group,
                LoweringConfigAttr config) {
  ScopedDiagnosticHandler quiet(group->getContext(),
                                [](Diagnostic &) { return success(); });
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(group);
  auto copy = cast<GroupOp>(rewriter.clone(*group));
  insertRootCopies(rewriter, copy);
  bool lowered = succeeded(lowerGroup(rewriter, copy, config));
  rewriter.eraseOp(copy);
  return lowered;
}

/// Whether `op` only moves its input's elements (a transpose, a copy, a
/// generic yielding an input element unchanged).
bool onlyMovesElements(linalg::LinalgOp op) {
  if (isa<linalg::TransposeOp, linalg::CopyOp>(op.getOperation()))
    return true;
  if (!isa<linalg::GenericOp>(op.getOperation()) || op.getNumDpsInputs() != 1)
    return false;
  Block *body = op.getBlock();
  return body->getOperations().size() == 1 &&
         body->getTerminator()->getOperand(0) == body->getArgument(0);
}

/// Fills the phases of `shape` (KernelShape's contractionPhases and the
/// points of the other ops) from the tile loop of a lowered attention
/// `group`: false where a tiled op has a dynamic size.
bool measureAttentionPhases(GroupOp group, KernelShape &shape) {
  Block &body = group.getBodyBlock();
  llvm::DenseSet<Value> inputs(body.getArguments().begin(),
                               body.getArguments().end());
  // Whether `value` is (a slice or reshape of) a group input.
  auto fromInput = [&](Value value) {
    while (Operation *def = value.getDefiningOp()) {
      if (!isa<tensor::ExtractSliceOp, tensor::ExpandShapeOp,
               tensor::CollapseShapeOp>(def))
        break;
      value = def->getOperand(0);
    }
    return inputs.contains(value);
  };
  bool ok = true;
  // The points of an op's parallel loops (0: a dynamic one).
  auto pointsOf = [](linalg::LinalgOp op) {
    return parallelPointsOf(cast<TilingInterface>(op.getOperation()));
  };
  // What runs on a tensor-core contraction's accumulators (as
  // WarpMma::foldElementwise folds it): the op that makes its output's
  // initial values, used by it alone, and the elementwise ops right after
  // it that read its result, or values made from it, element for element.
  auto elementwiseOver = [&](linalg::LinalgOp op, int64_t points) {
    return op.getNumLoops() == op.getNumParallelLoops() &&
           op.getNumDpsInits() == 1 &&
           op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity() &&
           pointsOf(op) == points;
  };
  auto heldSource = [](Value v) {
    while (Operation *def = v.getDefiningOp()) {
      if (!isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def))
        break;
      v = def->getOperand(0);
    }
    return v;
  };
  forEachTileLoop(group, [&](scf::ForallOp loop) {
    SmallVector<linalg::LinalgOp> ops;
    loop.walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    for (auto [i, op] : llvm::enumerate(ops)) {
      if (op.getNumReductionLoops() == 0 ||
          !linalg::isaContractionOpInterface(op) || !matchMmaContraction(op))
        continue;
      // The output's points (the contraction's parallel loops).
      int64_t points = pointsOf(op);
      if (points == 0)
        continue;
      // Ops in a streamed loop run once per chunk.
      int64_t trips = tripsInTile(op);
      if (auto init =
              op.getDpsInitOperand(0)->get().getDefiningOp<linalg::LinalgOp>())
        if (init->hasOneUse() && elementwiseOver(init, points)) {
          shape.foldedPoints += pointsOf(init) * tripsInTile(init);
          shape.foldedPhases += tripsInTile(init);
        }
      llvm::SmallPtrSet<Value, 8> held;
      for (Value result : op->getResults())
        held.insert(result);
      for (linalg::LinalgOp next : ArrayRef(ops).drop_front(i + 1)) {
        bool reads = false, elementwise = true;
        for (OpOperand &operand : next->getOpOperands())
          if (held.contains(heldSource(operand.get()))) {
            reads = true;
            elementwise &= next.getMatchingIndexingMap(&operand).isIdentity();
          }
        if (!reads || !elementwise || !elementwiseOver(next, points) ||
            next->getBlock() != op->getBlock())
          break;
        shape.foldedPoints += pointsOf(next) * trips;
        shape.foldedPhases += trips;
        for (Value result : next->getResults())
          held.insert(result);
      }
    }
    loop.walk([&](linalg::LinalgOp op) {
      SmallVector<int64_t> sizes = op.getStaticLoopRanges();
      if (llvm::any_of(sizes, ShapedType::isDynamic)) {
        ok = false;
        return;
      }
      // Each chunk of a streamed loop is a phase of its own.
      int64_t trips = tripsInTile(op);
      int64_t points = trips;
      for (int64_t size : sizes)
        points *= size;
      shape.phaseCount += trips;
      if (op.getNumReductionLoops() > 0 &&
          linalg::isaContractionOpInterface(op))
        if (std::optional<MmaContraction> c = matchMmaContraction(op)) {
          ContractionPhase phase;
          phase.m = c->mPoints;
          phase.n = c->nPoints;
          phase.k = c->kPoints;
          phase.batch = c->batchPoints;
          phase.staged = fromInput(c->a->get()) || fromInput(c->b->get());
          shape.contractionPhases.append(trips, phase);
          return;
        }
      if (onlyMovesElements(op) && fromInput(op.getDpsInputOperand(0)->get())) {
        shape.copyPoints += points;
        shape.copyPhases += trips;
        return;
      }
      shape.phasePoints += points;
    });
  });
  return ok && !shape.contractionPhases.empty();
}

/// The attention schedule's tile, threads and instruction (Lowering.md,
/// "Attention"): the SIMT tile `simtTile` (one query row) and tiles with
/// more rows (each tiled loop of the root grown, alone, to a divisor of its
/// extent up to 128, or with `overlap`, where no divisor from 16 to 128
/// fits it, to a power of two from 8: overlapping tiles, shiftLastTiles),
/// each lowered on a copy of
/// `group` and measured (its phases, tile buffers and input traffic), on SIMT
/// and, where the target has tensor cores and `options` allow, with both
/// products on tensor cores, for 64, 128 and 256 threads (or the options'
/// count); the fastest the cost model predicts whose tile buffers fit shared
/// memory. Nullopt when no candidate could be measured (the caller keeps the
/// SIMT tile); an error naming the group when none fits shared memory.
FailureOr<std::optional<std::pair<SmallVector<int64_t>, KernelShape>>>
bestAttentionSchedule(RewriterBase &rewriter, GroupOp group,
                      TilingInterface root, ArrayRef<int64_t> simtTile,
                      TargetAttr target, const GroupConfigOptions &options,
                      bool overlap) {
  SmallVector<SmallVector<int64_t>> tiles = {SmallVector<int64_t>(simtTile)};
  if (options.tileSizes.empty()) {
    SmallVector<int64_t> extents = staticDomain(root);
    for (auto [d, size] : llvm::enumerate(simtTile)) {
      if (size <= 0 || d >= extents.size() || ShapedType::isDynamic(extents[d]))
        continue;
      // Overlapping tiles only where no divisor from 16 to 128 fits.
      bool divides = hasWholeTileDivisor(extents[d]);
      for (int64_t f = size + 1; f <= std::min<int64_t>(extents[d], 128); ++f)
        if (f % size == 0 && (extents[d] % f == 0 ||
                              (overlap && !divides && llvm::isPowerOf2_64(f) &&
                               f >= 8 && f < extents[d]))) {
          SmallVector<int64_t> tile(simtTile);
          tile[d] = f;
          tiles.push_back(tile);
        }
    }
  }
  // Each tile with K and V whole and streamed (Lowering.md, "Streamed
  // attention") in chunks of 32, 64 or 128 of its keys that divide them
  // (the reduction of its last product), or in the options' chunk only.
  int64_t keys = 0;
  group.getBodyBlock().walk([&](linalg::LinalgOp op) {
    SmallVector<unsigned> reductions;
    op.getReductionDims(reductions);
    if (reductions.size() == 1 && linalg::isaContractionOpInterface(op))
      keys = op.getStaticLoopRanges()[reductions.front()];
  });
  SmallVector<int64_t> chunks;
  if (options.keyChunk > 0) {
    if (ShapedType::isDynamic(keys) || keys <= options.keyChunk ||
        keys % options.keyChunk != 0)
      return group->emitError()
             << "fuse-lower-groups: " << groupName(group)
             << " (attention): key-chunk " << options.keyChunk
             << " must divide its " << keys << " keys and be fewer";
    chunks = {options.keyChunk};
  } else {
    chunks = {0};
    if (options.keyChunk == 0 && !ShapedType::isDynamic(keys))
      for (int64_t chunk : {32, 64, 128})
        if (keys > chunk && keys % chunk == 0)
          chunks.push_back(chunk);
  }
  bool tensorCores =
      options.tensorCores != "never" && tf32MmaMacsPerSM(target.getArch()) > 0;
  SmallVector<StringRef> instructions;
  if (options.tensorCores != "always" || !tensorCores)
    instructions.push_back("simt");
  if (tensorCores)
    instructions.push_back("mma_sync");
  SmallVector<int64_t> threadCounts = {64, 128, 256};
  if (options.threads > 0)
    threadCounts = {
        std::min<int64_t>(options.threads, target.getMaxThreadsPerBlock())};
  std::optional<std::pair<SmallVector<int64_t>, KernelShape>> best;
  double bestUs = 0;
  bool measuredAny = false;
  int64_t smallestBytes = std::numeric_limits<int64_t>::max();
  for (const SmallVector<int64_t> &tile : tiles)
    for (int64_t chunk : chunks) {
      KernelShape measured = kernelShapeOf(group, root, tile);
      measured.keyChunk = chunk;
      if (!onLoweredCopy(
              rewriter, group, tile,
              [&](GroupOp copy) {
                measured.blocks = std::max<int64_t>(launchedBlocks(copy), 1);
                measureTiledGroup(copy, measured);
                return measureAttentionPhases(copy, measured);
              },
              chunk))
        continue;
      measuredAny = true;
      for (StringRef instruction : instructions)
        for (int64_t threads : threadCounts) {
          KernelShape shape = measured;
          shape.threads = threads;
          shape.instruction = instruction;
          shape.products =
              instruction == "mma_sync" ? mmaProductsFor(options) : 1;
          shape.mmaK = instruction == "mma_sync" ? mmaKFor(options) : 8;
          bool fits = true;
          if (instruction == "mma_sync") {
            // Each product a whole number of warps with at most 16
            // accumulator tiles each; staged operands take block tiles.
            shape.stagingBytes = 0;
            // A streamed contraction's chunks (equal phases in a row) reuse
            // one set of staging buffers.
            const ContractionPhase *previous = nullptr;
            for (const ContractionPhase &p : shape.contractionPhases) {
              MmaWarpGrid grid =
                  chooseMmaWarps(llvm::divideCeil(p.m, 16),
                                 llvm::divideCeil(p.n, 8), threads / 32);
              fits &= grid.tilesM * grid.tilesN <= 16;
              bool repeat = previous && previous->m == p.m &&
                            previous->n == p.n && previous->k == p.k &&
                            previous->batch == p.batch &&
                            previous->staged == p.staged;
              previous = &p;
              if (p.staged && !repeat)
                shape.stagingBytes += mmaStagingBytes(
                    p.m, p.n, p.k, true, false, 2, mmaKFor(options));
            }
          }
          if (shape.tileSharedBytes + shape.stagingBytes >
              target.getSharedMemPerBlock()) {
            smallestBytes = std::min(smallestBytes, shape.tileSharedBytes +
                                                        shape.stagingBytes);
            fits = false;
          }
          if (!fits)
            continue;
          double us = predictKernelCost(shape, target).us;
          if (!best || us < bestUs) {
            best = {tile, shape};
            bestUs = us;
          }
        }
    }
  if (!best && measuredAny)
    return group->emitError()
           << "fuse-lower-groups: " << groupName(group)
           << " (attention): the tile buffers of its smallest tile take "
           << smallestBytes << " B of shared memory, more than the "
           << target.getSharedMemPerBlock() << " B a block has on target '"
           << target.getName() << "' ("
           << (llvm::any_of(chunks, [](int64_t c) { return c > 0; })
                   ? "with the keys and values streamed in the smallest "
                     "chunk that divides them, or held whole where none does"
                   : "the keys and values of a head held whole")
           << ")";
  return best;
}

/// The M and N points per block of each tensor-core contraction the tile
/// of `group` by `tile` computes (lowered on a copy, SIMT): the tiled
/// copies of `contraction`, one per root whose tile reads a part of it (a
/// horizontal group's roots, slices of its output, each fuse their own).
/// Empty when the copy does not lower.
SmallVector<std::pair<int64_t, int64_t>>
tiledMmaPoints(RewriterBase &rewriter, GroupOp group, ArrayRef<int64_t> tile,
               const MmaContraction &contraction) {
  SmallVector<std::pair<int64_t, int64_t>> points;
  StringRef name = contraction.op->getName().getStringRef();
  (void)onLoweredCopy(rewriter, group, tile, [&](GroupOp copy) {
    forEachTileLoop(copy, [&](scf::ForallOp loop) {
      loop.walk([&](linalg::LinalgOp op) {
        if (op->getName().getStringRef() != name)
          return;
        if (std::optional<MmaContraction> c = matchMmaContraction(op))
          points.push_back({c->batchPoints * c->mPoints, c->nPoints});
      });
    });
    return true;
  });
  return points;
}

/// "fp16" or "bf16" where every contraction of `group` that tensor cores
/// could compute takes operands of that 16-bit type (a 16-bit model's): the
/// instruction that reads them exactly, at twice TF32's rate; else "".
static StringRef sixteenBitPrecisionOf(GroupOp group) {
  Type common;
  for (Operation *op : group.getComputeOps())
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
      if (std::optional<MmaContraction> c = matchMmaContraction(linalgOp)) {
        if (common && c->operandType != common)
          return "";
        common = c->operandType;
      }
  if (!common || common.isF32())
    return "";
  return common.isBF16() ? "bf16" : "fp16";
}

/// The lowering config of `group` (changed: its root copies), for
/// `target`.
FailureOr<LoweringConfigAttr> configure(RewriterBase &rewriter, GroupOp group,
                                        TargetAttr target,
                                        const GroupConfigOptions &requested,
                                        KernelShape *shapeOut) {
  // A 16-bit model's contractions run at their operands' precision, which
  // loses nothing of them, where the options ask for as much (fp32, tf32)
  // or the same; a narrower one asked for (bf16 of f16) is kept.
  GroupConfigOptions options = requested;
  if (options.precision.empty() || options.precision == "fp32" ||
      options.precision == "tf32")
    if (StringRef own = sixteenBitPrecisionOf(group); !own.empty())
      options.precision = own.str();
  insertRootCopies(rewriter, group);
  FailureOr<Roots> roots = analyzeRoots(group);
  if (failed(roots))
    return failure();
  if (roots->ops.empty())
    return LoweringConfigAttr(); // forwards inputs only: no kernel
  int64_t threads =
      std::min<int64_t>(options.threads > 0 ? options.threads : kTileThreads,
                        target.getMaxThreadsPerBlock());
  if (failed(checkTileOverride(group, *roots, options.tileSizes)))
    return failure();
  bool matrixVector = matrixVectorRoot(group, *roots);
  SmallVector<int64_t> tile = tileForRoots(*roots, threads, target.getNumSMs(),
                                           options.tileSizes, matrixVector);
  if (llvm::all_of(tile, [](int64_t t) { return t == 0; }))
    return roots->ops.front()->emitError()
           << "fuse-lower-groups: " << groupName(group) << ": its root '"
           << roots->ops.front()->getName()
           << "' has no parallel loop to tile (a full reduction to a "
              "scalar needs a split reduction, not supported yet)";
  // A block as large as the tile: fewer threads (a multiple of 32) when the
  // root's tile has fewer points, unless the root reduces (or computes
  // matrix-vector products) and several lanes can share each point's
  // reduction.
  auto root = cast<TilingInterface>(roots->ops.front());
  KernelShape shape = kernelShapeOf(group, root, tile);
  int64_t points = shape.pointsPerBlock;
  auto linalgRoot = dyn_cast<linalg::LinalgOp>(root.getOperation());
  bool lanesShare = roots->ops.size() == 1 && linalgRoot &&
                    (linalgRoot.getNumReductionLoops() > 0 || matrixVector) &&
                    points * 2 <= threads;
  if (!lanesShare && points < threads)
    threads = std::min<int64_t>(
        threads, std::max<int64_t>(32, llvm::alignTo(points, 32)));
  // The cost model tells block sizes apart only by how they issue
  // multiply-adds; other groups keep the size that gives each point a
  // thread.
  if (options.threads == 0 && !lanesShare &&
      schedulesMultiplyAdds(scheduleOf(group)))
    threads = fastestBlockSize(shape, threads, target);
  shape.threads = threads;
  StringRef instruction = "simt", precision = "fp32";
  // Tensor cores where the target has them, for a group whose roots tile
  // the output of a contraction the schedule computes (rows whole where a
  // reduction reads them: GEMM + LayerNorm), when the cost model predicts
  // them faster than the SIMT kernel (or always, when asked).
  bool matrix =
      shape.schedule == "contraction" || shape.schedule == "convolution";
  if (shape.schedule == "attention") {
    auto chosen =
        bestAttentionSchedule(rewriter, group, root, tile, target, options,
                              tilesMayOverlap(group, *roots, nullptr));
    if (failed(chosen))
      return failure();
    if (auto &best = *chosen) {
      tile = best->first;
      shape = best->second;
      threads = shape.threads;
      instruction = shape.instruction;
      if (instruction == "mma_sync" && !options.precision.empty())
        precision = options.precision;
      // Measured again by whoever lowers the group (fuse-form-groups).
      shape.tileInputBytes = 0;
      shape.tileSharedBytes = 0;
    }
  }
  std::optional<MmaContraction> contraction;
  if (options.tensorCores != "never" && matrix &&
      tf32MmaMacsPerSM(target.getArch()) > 0)
    contraction = mmaContractionOf(group);
  if (contraction) {
    SmallVector<SmallVector<int64_t>> candidates;
    if (options.tileSizes.empty())
      candidates = mmaTileCandidates(
          root.getLoopIteratorTypes(), staticDomain(root), roots->keepRows,
          tilesMayOverlap(group, *roots,
                          linalg::LinalgOp(contraction->op).getOperation()));
    else
      candidates.push_back(tile);
    // The candidate the cost model predicts fastest (the L2 traffic of
    // both schedules estimated alike; ties: the larger tile).
    KernelShape simt = shape;
    simt.tileInputBytes = estimatedTileInputBytes(simt);
    double bestUs = predictKernelCost(simt, target).us;
    bool always = options.tensorCores == "always";
    // Tiling clones the contraction into every root's tile: split-K needs
    // one root as well.
    bool alone =
        roots->ops.size() == 1 && onlyMmaContraction(group, *contraction);
    int64_t intermediates = epilogueIntermediates(group, *contraction);
    struct Feasible {
      SmallVector<int64_t> tile;
      KernelShape shape;
      double us;
      size_t order;
    };
    std::vector<Feasible> feasible;
    for (SmallVector<int64_t> &candidate : candidates) {
      // Loops the roots do not share stay whole.
      for (auto [d, whole] : llvm::enumerate(roots->keepWhole))
        if (whole && d < candidate.size())
          candidate[d] = 0;
      if (llvm::all_of(candidate, [](int64_t t) { return t == 0; }))
        continue;
      KernelShape tiled = kernelShapeOf(group, root, candidate);
      int64_t prologue = prologueTileBytes(*contraction, root, candidate);
      for (int64_t stages : stageCountsFor(options))
        for (int64_t slices :
             splitCountsFor(options, tiled, *contraction, alone, target)) {
          KernelShape mma = tiled;
          if (!onTensorCores(mma, *contraction, options, stages, target, slices,
                             prologue, intermediates))
            continue;
          feasible.push_back({candidate, mma, predictKernelCost(mma, target).us,
                              feasible.size()});
        }
    }
    // Fastest first (ties: the larger tile, then the earlier candidate).
    llvm::sort(feasible, [](const Feasible &a, const Feasible &b) {
      if (a.us != b.us)
        return a.us < b.us;
      if (a.shape.pointsPerBlock != b.shape.pointsPerBlock)
        return a.shape.pointsPerBlock > b.shape.pointsPerBlock;
      return a.order < b.order;
    });
    // The candidates' shapes are the root's tile. Where the contraction's
    // tile differs (a horizontal group's roots are slices of its output, a
    // pooling root reads a window of it), the fastest are lowered on a copy
    // and taken with the contraction's own tile, if a block holds that.
    bool sameTile = roots->ops.size() == 1 &&
                    parallelPointsOf(root) == contraction->batchPoints *
                                                  contraction->mPoints *
                                                  contraction->nPoints;
    std::optional<std::pair<SmallVector<int64_t>, KernelShape>> best;
    double bestMmaUs = 0;
    constexpr int kVerified = 4;
    for (auto [i, f] : llvm::enumerate(feasible)) {
      if (sameTile) {
        best = {f.tile, f.shape};
        bestMmaUs = f.us;
        break;
      }
      if (i == kVerified)
        break;
      SmallVector<std::pair<int64_t, int64_t>> tiled =
          tiledMmaPoints(rewriter, group, f.tile, *contraction);
      if (tiled.empty())
        continue;
      // The block's threads are the largest one's; the others' staged
      // tiles share its shared memory.
      auto largest = llvm::max_element(tiled, [](auto &a, auto &b) {
        return a.first * a.second < b.first * b.second;
      });
      int64_t others = 0;
      for (auto &mn : tiled)
        if (&mn != &*largest)
          others += mmaStagingBytes(
              mn.first, mn.second, contraction->kPoints, contraction->aKFastest,
              contraction->bKFastest, f.shape.stages, mmaKFor(options),
              stagedBytes(*contraction));
      KernelShape own = kernelShapeOf(group, root, f.tile);
      own.pointsPerBlock = largest->first * largest->second;
      own.innerPoints = largest->second;
      if (!onTensorCores(own, *contraction, options, f.shape.stages, target,
                         f.shape.splitK,
                         prologueTileBytes(*contraction, root, f.tile) + others,
                         intermediates))
        continue;
      best = {f.tile, own};
      bestMmaUs = predictKernelCost(own, target).us;
      break;
    }
    if (best && (always || bestMmaUs < bestUs)) {
      tile = best->first;
      shape = best->second;
      shape.tileInputBytes = 0; // measured by the lowering, if at all
      threads = shape.threads;
      instruction = "mma_sync";
      precision = options.precision.empty() ? StringRef("fp32")
                                            : StringRef(options.precision);
    }
  }
  if (shapeOut)
    *shapeOut = shape;
  // The stage count is printed where it is not the default 2.
  int64_t stages =
      instruction == "mma_sync" && shape.stages != 2 ? shape.stages : 0;
  int64_t splitK =
      instruction == "mma_sync" && shape.splitK > 1 ? shape.splitK : 0;
  return LoweringConfigAttr::get(group->getContext(), shape.schedule, tile,
                                 threads, instruction, precision, stages,
                                 splitK, shape.keyChunk, CpuScheduleAttr());
}

/// The static lower bounds, upper bounds and steps of `forall`'s loops.
struct ForallBounds {
  SmallVector<int64_t> lbs, ubs, steps;
};

/// `forall`'s bounds, or nullopt where one is dynamic.
std::optional<ForallBounds> staticBounds(scf::ForallOp forall) {
  std::optional<SmallVector<int64_t>> lbs =
      getConstantIntValues(forall.getMixedLowerBound());
  std::optional<SmallVector<int64_t>> ubs =
      getConstantIntValues(forall.getMixedUpperBound());
  std::optional<SmallVector<int64_t>> steps =
      getConstantIntValues(forall.getMixedStep());
  if (!lbs || !ubs || !steps)
    return std::nullopt;
  return ForallBounds{std::move(*lbs), std::move(*ubs), std::move(*steps)};
}

/// Each loop of the tile loop `forall` whose step does not divide its
/// extent gets a last tile moved back to end at the extent, overlapping
/// the tile before it: every tile is then full, of one static shape (the
/// kernel's buffers and its tensor-core schedule need that), and the
/// points two tiles share are computed twice (tilesMayOverlap says when
/// that is correct; the cost model counts the extra tile). The tiling's
/// partial sizes (min(step, extent - iv)) become the step, the induction
/// variable min(iv, extent - step). Whether anything changed (a loop
/// moved already is left alone); failure when a step exceeds its loop.
FailureOr<bool> shiftLastTileIvs(RewriterBase &rewriter, scf::ForallOp forall) {
  std::optional<ForallBounds> bounds = staticBounds(forall);
  if (!bounds)
    return false;
  Location loc = forall.getLoc();
  MLIRContext *context = forall.getContext();
  AffineExpr d0 = getAffineDimExpr(0, context);
  bool shifted = false;
  for (auto [iv, lb, ub, step] :
       llvm::zip(forall.getInductionVars(), bounds->lbs, bounds->ubs,
                 bounds->steps)) {
    if (step <= 0 || (ub - lb) % step == 0)
      continue;
    if (step > ub - lb)
      return failure();
    AffineMap moved = AffineMap::get(
        1, 0, {d0, getAffineConstantExpr(ub - step, context)}, context);
    // Done already: the moved start is the variable's one use.
    if (iv.hasOneUse())
      if (auto min = dyn_cast<affine::AffineMinOp>(*iv.getUsers().begin());
          min && min.getAffineMap() == moved)
        continue;
    // The partial sizes: mins over the induction variable alone that are
    // the step on the first tile.
    SmallVector<affine::AffineMinOp> sizes;
    for (Operation *user : iv.getUsers()) {
      auto min = dyn_cast<affine::AffineMinOp>(user);
      AffineMap map = min ? min.getAffineMap() : AffineMap();
      if (!min || map.getNumDims() != 1 || map.getNumSymbols() != 0 ||
          map.getNumResults() == 0)
        continue;
      if (*llvm::min_element(map.compose(ArrayRef<int64_t>{lb})) == step)
        sizes.push_back(min);
    }
    rewriter.setInsertionPointToStart(forall.getBody());
    Value full = arith::ConstantIndexOp::create(rewriter, loc, step);
    for (affine::AffineMinOp min : sizes)
      rewriter.replaceOp(min, full);
    Value start =
        affine::AffineMinOp::create(rewriter, loc, moved, ValueRange{iv});
    rewriter.replaceAllUsesExcept(iv, start, start.getDefiningOp());
    shifted = true;
  }
  return shifted;
}

/// shiftLastTileIvs as a pattern: run among the tile-and-fuse cleanups, it
/// moves the last tiles before the producers fuse, so they fuse into
/// static tiles (through a reshape, too, which a dynamic size stops).
struct ShiftLastTiles : OpRewritePattern<scf::ForallOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(scf::ForallOp forall,
                                PatternRewriter &rewriter) const override {
    FailureOr<bool> shifted = shiftLastTileIvs(rewriter, forall);
    return success(succeeded(shifted) && *shifted);
  }
};

/// shiftLastTileIvs, then the slices of the tile, of constant sizes now,
/// made static; fails when one keeps a dynamic size.
LogicalResult shiftLastTiles(RewriterBase &rewriter, scf::ForallOp forall) {
  FailureOr<bool> shifted = shiftLastTileIvs(rewriter, forall);
  if (failed(shifted))
    return failure();
  bool overlapping = false;
  if (std::optional<ForallBounds> bounds = staticBounds(forall))
    for (auto [lb, ub, step] :
         llvm::zip(bounds->lbs, bounds->ubs, bounds->steps))
      overlapping |= step > 0 && (ub - lb) % step != 0;
  if (!overlapping)
    return success();
  MLIRContext *context = forall.getContext();
  // The slices of the tile, now of constant sizes, become static.
  RewritePatternSet patterns(context);
  for (Dialect *dialect : context->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : context->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, context);
  GreedyRewriteConfig config;
  config.setScope(&forall.getRegion());
  (void)applyPatternsGreedily(forall.getRegion(), std::move(patterns), config);
  WalkResult dynamic = forall.getRegion().walk([](Operation *op) {
    for (Type type : op->getResultTypes())
      if (auto shaped = dyn_cast<ShapedType>(type);
          shaped && !shaped.hasStaticShape())
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(dynamic.wasInterrupted());
}

/// Tiles `group` (after insertRootCopies) by `config`.
LogicalResult lowerGroup(RewriterBase &rewriter, GroupOp group,
                         LoweringConfigAttr config) {
  std::string name = groupName(group);
  auto groupName = [&] { return name; };
  FailureOr<Roots> analyzed = analyzeRoots(group);
  if (failed(analyzed))
    return failure();
  SmallVector<Operation *> roots = analyzed->ops;
  if (roots.empty())
    return success(); // forwards inputs only: nothing to compute
  std::string rootNames = analyzed->names;
  Block &body = group.getBodyBlock();
  materializeConstantInits(rewriter, body);
  llvm::DenseSet<Value> yielded(group.getYield().getValues().begin(),
                                group.getYield().getValues().end());

  // A returned value that also feeds a root through a partial read would
  // leave the loop with only the tiles the root needed: refuse.
  for (Value value : yielded) {
    Operation *def = value.getDefiningOp();
    if (!def || def->getBlock() != &body || llvm::is_contained(roots, def))
      continue;
    const char *why = nullptr;
    if (Operation *user = partiallyCovered(value, body, &why))
      return def->emitError()
             << "fuse-lower-groups: " << groupName() << ": its output '"
             << def->getName() << "' also feeds " << rootNames << " through '"
             << user->getName() << "' (" << why
             << "), so the tile loop would compute only part of it";
  }

  // One tile loop per root, each by the config's tile (its reduction
  // loops whole); independent roots over the same tiles then become one
  // loop.
  SmallVector<scf::ForallOp> loops;
  for (Operation *rootOp : roots) {
    writeIntoDestination(rewriter, rootOp);
    auto root = cast<TilingInterface>(rootOp);
    rewriter.setInsertionPoint(rootOp);
    SmallVector<OpFoldResult> sizes;
    for (auto [d, iterator] : llvm::enumerate(root.getLoopIteratorTypes())) {
      bool whole = d < analyzed->keepWhole.size() && analyzed->keepWhole[d];
      sizes.push_back(
          rewriter.getIndexAttr(iterator == utils::IteratorType::parallel &&
                                        !whole && d < config.getTile().size()
                                    ? config.getTile()[d]
                                    : 0));
    }
    // Independent roots with nothing in common to tile: each covers its
    // outermost parallel dimension in one tile (its own extent), so every
    // root runs as one loop iteration.
    if (roots.size() > 1 && llvm::all_of(sizes, isZeroInteger)) {
      SmallVector<Range> domain = root.getIterationDomain(rewriter);
      for (auto [d, iterator] : llvm::enumerate(root.getLoopIteratorTypes()))
        if (iterator == utils::IteratorType::parallel) {
          sizes[d] = domain[d].size;
          break;
        }
    }
    if (llvm::all_of(sizes, isZeroInteger))
      return rootOp->emitError()
             << "fuse-lower-groups: " << groupName() << ": its root '"
             << rootOp->getName()
             << "' has no parallel loop to tile (a full reduction to a "
                "scalar needs a split reduction, not supported yet)";
    scf::SCFTilingOptions tiling;
    tiling.setTileSizes(sizes);
    tiling.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
    // Each tile is a block of the kernel. The mapping also keeps the loop
    // when it has one iteration (canonicalization would otherwise inline
    // its body into the host code, and the group would launch no kernel).
    SmallVector<Attribute> blocks;
    for (OpFoldResult size : sizes)
      if (!isZeroInteger(size))
        blocks.push_back(
            TileMappingAttr::get(rewriter.getContext(), blocks.size()));
    tiling.setMapping(blocks);
    scf::SCFTileAndFuseOptions options;
    options.setTilingOptions(tiling);
    // A slice of a slice (a merged contraction's output slice, then its
    // tile) becomes one slice of the producer, which the loop can fuse; a
    // slice of a reshape becomes a reshape of a slice, so the producer
    // behind the reshape (a reduction that kept its dims) fuses too.
    RewritePatternSet cleanup(rewriter.getContext());
    cleanup.add<ShiftLastTiles>(rewriter.getContext());
    fuse::detail::populateSliceCleanupPatterns(cleanup);
    options.cleanupPatterns = FrozenRewritePatternSet(std::move(cleanup));
    options.setFusionControlFn(
        [&](tensor::ExtractSliceOp, OpResult producer, bool)
            -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
          if (producer.getOwner()->getBlock() != &body)
            return std::nullopt;
          scf::SCFTileAndFuseOptions::ControlFnResult result;
          // A value the group also returns leaves the loop as a result.
          result.yieldProducerReplacement = yielded.contains(producer);
          return result;
        });
    std::string rootName = rootOp->getName().getStringRef().str();
    FailureOr<scf::SCFTileAndFuseResult> tiled =
        scf::tileConsumerAndFuseProducersUsingSCF(rewriter, root, options);
    if (failed(tiled))
      return rootOp->emitError()
             << "fuse-lower-groups: " << groupName() << ": tiling its root '"
             << rootName << "' failed";
    for (auto [original, replacement] : tiled->replacements)
      rewriter.replaceAllUsesWith(original, replacement);
    auto forall = cast<scf::ForallOp>(tiled->loops.front().getOperation());
    if (failed(shiftLastTiles(rewriter, forall)))
      return rootOp->emitError()
             << "fuse-lower-groups: " << groupName() << ": the tile "
             << llvm::interleaved(config.getTile(), ",")
             << " does not divide the loops of its root '" << rootName
             << "', and its last tiles could not be moved back to full "
                "tiles (some slice of the tile keeps a dynamic size)";
    // Zero-based unit-step loops: roots whose tiles line up by count share
    // one loop even when their tile sizes differ.
    if (roots.size() > 1) {
      FailureOr<scf::ForallOp> normalized = normalizeForallOp(rewriter, forall);
      if (succeeded(normalized))
        forall = *normalized;
    }
    loops.push_back(forall);
  }
  // Independent roots: their loops become one when they cover the same
  // tiles.
  scf::ForallOp loop = loops.front();
  for (scf::ForallOp other : llvm::drop_begin(loops)) {
    if (!sameSpace(loop, other))
      return other.emitError()
             << "fuse-lower-groups: " << groupName()
             << ": its independent outputs (roots " << rootNames
             << ") tile differently, so they cannot share one loop nest";
    // A root that reads a value an earlier root's loop returns (an output
    // both compute from) would read it inside the merged loop before the
    // loop has written it all.
    bool readsLoop = false;
    other.walk([&](Operation *op) {
      for (Value operand : op->getOperands())
        readsLoop |= operand.getDefiningOp() == loop.getOperation();
    });
    if (readsLoop)
      return other.emitError()
             << "fuse-lower-groups: " << groupName() << ": the loop of one of "
             << "its roots (" << rootNames
             << ") reads an output another root's loop computes, so they "
                "cannot share one loop nest";
    loop = fuseIndependentSiblingForallLoops(loop, other, rewriter);
    // The merged loop stands where the later loop stood: what used the
    // earlier loop's results in between (the insertion of a concat branch
    // into its slice) moves after it, in order.
    SmallVector<Operation *> early;
    for (Operation *user : loop->getUsers())
      if (user->getBlock() == loop->getBlock() && user->isBeforeInBlock(loop) &&
          !llvm::is_contained(early, user))
        early.push_back(user);
    llvm::sort(early, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    Operation *after = loop;
    for (Operation *user : early) {
      user->moveAfter(after);
      after = user;
    }
  }

  // A slice, inside the tile loop, of a tensor.empty made outside it (the
  // init of a producer fused into the tile) is an empty tile made in the
  // loop: a tile-local buffer. Left as a slice, the whole tensor is
  // allocated outside the loop, in host code, and handed to the kernel
  // (with one tile, once the offsets fold to constants, nothing else moves
  // it in). The loop's own outputs are block arguments, not touched.
  fuse::detail::makeEmptyTilesLocal(rewriter, loop);

  // Slices tiling made and did not use keep the untiled ops alive: sweep
  // dead code inside and outside the loop. What is left besides the loop
  // must be free.
  (void)runRegionDCE(rewriter, group->getRegions());
  // A producer fused into several consumers' tiles is one op per
  // consumer, indexed by equal but differently built index math
  // (linearize_index [%i, 0] by (n, 1) for %i): folded, the copies are
  // one (CSE), so a kernel computes each tile of it once.
  {
    RewritePatternSet patterns(rewriter.getContext());
    affine::AffineLinearizeIndexOp::getCanonicalizationPatterns(
        patterns, rewriter.getContext());
    affine::AffineDelinearizeIndexOp::getCanonicalizationPatterns(
        patterns, rewriter.getContext());
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns,
                                                       rewriter.getContext());
    GreedyRewriteConfig config;
    config.setScope(&group.getBody());
    (void)applyPatternsGreedily(group.getBody(), std::move(patterns), config);
    DominanceInfo dominance;
    eliminateCommonSubExpressions(rewriter, dominance, group);
    (void)runRegionDCE(rewriter, group->getRegions());
  }
  // Attention with a key chunk: the keys and values streamed in chunks of
  // it.
  if (int64_t chunk = config.getKeyChunk()) {
    if (failed(fuse::detail::streamReductions(rewriter, loop, chunk, name)))
      return failure();
    (void)fuse::detail::mergeOnlineSoftmax(rewriter, loop);
    DominanceInfo dominance;
    eliminateCommonSubExpressions(rewriter, dominance, group);
    (void)runRegionDCE(rewriter, group->getRegions());
  }
  for (Operation &op : body) {
    if (&op == loop.getOperation() || !isComputeOp(&op))
      continue;
    // The slice of a concat's destination the loop writes into.
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op);
        slice && llvm::all_of(slice->getUsers(), [&](Operation *user) {
          return user == loop.getOperation();
        }))
      continue;
    // The loop's result inserted into its slice of a concat: in place.
    if (auto insert = dyn_cast<tensor::InsertSliceOp>(op);
        insert && insert.getSource().getDefiningOp() == loop.getOperation())
      continue;
    return op.emitError() << "fuse-lower-groups: " << groupName() << ": '"
                          << op.getName()
                          << "' stays outside the tile loop of its roots ("
                          << rootNames
                          << "): the loop could not fuse it; the group "
                             "would not be one kernel";
  }
  return success();
}

/// The config `group` is lowered with: its own, unless `reconfigure` or
/// it has none; then chosen for `target` (on a copy of the group).
FailureOr<LoweringConfigAttr> configFor(GroupOp group, TargetAttr target,
                                        const GroupConfigOptions &options,
                                        bool reconfigure,
                                        KernelShape *shape = nullptr) {
  if (!reconfigure)
    if (LoweringConfigAttr config =
            FuseDialect::LoweringConfigAttrHelper(group->getContext())
                .getAttr(group))
      return config;
  return configureFusionGroup(group, target, options, shape);
}

/// The config chosen again for a group (`reconfigure`, no tile sizes
/// given) that had `own`: `chosen`, unless its tile does not take all of
/// the group's ops into one loop (the fusion lowered the group with `own`
/// when it formed it); then `own`, with a remark from `pass`.
LoweringConfigAttr keepLowerable(RewriterBase &rewriter, GroupOp group,
                                 LoweringConfigAttr chosen,
                                 LoweringConfigAttr own, StringRef pass) {
  if (!own || !chosen || chosen == own || lowersWith(rewriter, group, chosen))
    return chosen;
  group->emitRemark() << pass << ": " << groupName(group)
                      << " keeps its own lowering config: the one chosen "
                         "again ("
                      << chosen << ") does not tile all of its ops into one "
                      << "loop";
  return own;
}

/// The options fuse-configure-groups and fuse-lower-groups share, checked
/// once before any IR is read: the target parsed into `requested`, one
/// error line naming a wrong one.
LogicalResult parseTilingOptions(MLIRContext *context, StringRef pass,
                                 StringRef target, int64_t threads,
                                 ArrayRef<int64_t> tileSizes,
                                 StringRef precision, StringRef tensorCores,
                                 int64_t stages, int64_t splitK,
                                 int64_t keyChunk, TargetAttr &requested) {
  FailureOr<TargetAttr> parsed = parseTargetOption(context, target, pass);
  if (failed(parsed))
    return failure();
  requested = *parsed;
  if (threads < 0)
    return emitOptionError(context, pass)
           << "option 'threads' must be non-negative (0: the cost model "
              "chooses), got "
           << threads;
  if (llvm::any_of(tileSizes, [](int64_t size) { return size < 0; }))
    return emitOptionError(context, pass)
           << "option 'tile-sizes' must not be negative";
  if (keyChunk < -1)
    return emitOptionError(context, pass)
           << "option 'key-chunk' must be a positive chunk, 0 (the cost "
              "model chooses) or -1 (never streamed), got "
           << keyChunk;
  return checkGroupConfigOptions(context, pass, precision, tensorCores, stages,
                                 splitK);
}

} // namespace

LogicalResult
mlir::fuse::checkGroupConfigOptions(MLIRContext *context, StringRef pass,
                                    StringRef precision, StringRef tensorCores,
                                    int64_t stages, int64_t splitK) {
  if (!llvm::is_contained(LoweringConfigAttr::getPrecisions(), precision))
    return emitOptionError(context, pass)
           << "option 'precision' must be 'fp32', 'tf32', 'bf16' or 'fp16', "
              "got '"
           << precision << "'";
  if (!llvm::is_contained({"auto", "always", "never"}, tensorCores))
    return emitOptionError(context, pass)
           << "option 'tensor-cores' must be 'auto', 'always' or 'never', "
              "got '"
           << tensorCores << "'";
  if (stages != 0 && (stages < 2 || stages > 4))
    return emitOptionError(context, pass)
           << "option 'stages' must be 2, 3 or 4 (0: the cost model "
              "chooses), got "
           << stages;
  if (splitK < 0 || splitK > kMaxSplitK)
    return emitOptionError(context, pass)
           << "option 'split-k' must be in [0, " << kMaxSplitK
           << "] (0: the cost model chooses, 1: never), got " << splitK;
  return success();
}

namespace {

struct ConfigureGroupsPass
    : public fuse::impl::FuseConfigureGroupsBase<ConfigureGroupsPass> {
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    fuse::registerTilingDependencies(registry);
  }

  using FuseConfigureGroupsBase::FuseConfigureGroupsBase;

  TargetAttr requestedTarget;
  CpuTargetAttr requestedCpuTarget;

  LogicalResult initialize(MLIRContext *context) override {
    FailureOr<CpuTargetAttr> cpu =
        parseCpuTargetOption(context, cpuTarget, getArgument());
    if (failed(cpu))
      return failure();
    requestedCpuTarget = *cpu;
    return parseTilingOptions(context, getArgument(), target, threads,
                              tileSizes, precision, tensorCores, stages, splitK,
                              keyChunk, requestedTarget);
  }

  void runOnOperation() override {
    FailureOr<TargetAttr> resolved =
        resolveTarget(getOperation(), requestedTarget, getArgument());
    if (failed(resolved))
      return signalPassFailure();
    GroupConfigOptions options;
    options.threads = threads;
    options.tileSizes.assign(tileSizes.begin(), tileSizes.end());
    options.tensorCores = tensorCores;
    options.precision = precision;
    options.stages = stages;
    options.splitK = splitK;
    options.keyChunk = keyChunk;
    options.cpuTarget = requestedCpuTarget;
    FuseDialect::LoweringConfigAttrHelper helper(&getContext());
    // The fused IR records the CPU its schedules are for.
    if (requestedCpuTarget)
      if (auto module = dyn_cast<ModuleOp>(getOperation()))
        FuseDialect::CpuTargetAttrHelper(&getContext())
            .setAttr(module, requestedCpuTarget);
    bool failedAny = false;
    IRRewriter rewriter(&getContext());
    SmallVector<GroupOp> groups;
    getOperation()->walk([&](GroupOp group) { groups.push_back(group); });
    for (GroupOp group : groups) {
      if (helper.isAttrPresent(group) && !reconfigure &&
          options.tileSizes.empty()) {
        // A configured group keeps its GPU schedule and gets the CPU one.
        if (requestedCpuTarget)
          helper.setAttr(
              group,
              withCpuSchedule(helper.getAttr(group),
                              chooseCpuSchedule(group, requestedCpuTarget)));
        continue;
      }
      FailureOr<LoweringConfigAttr> config =
          configureFusionGroup(group, *resolved, options);
      if (failed(config)) {
        failedAny = true;
        continue;
      }
      if (options.tileSizes.empty()) {
        LoweringConfigAttr kept = keepLowerable(
            rewriter, group, *config, helper.getAttr(group), getArgument());
        if (kept != *config && requestedCpuTarget)
          kept = withCpuSchedule(kept,
                                 chooseCpuSchedule(group, requestedCpuTarget));
        config = kept;
      }
      if (*config)
        helper.setAttr(group, *config);
    }
    if (failedAny)
      signalPassFailure();
  }
};

struct LowerGroupsPass
    : public fuse::impl::FuseLowerGroupsBase<LowerGroupsPass> {
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    fuse::registerTilingDependencies(registry);
  }

  using FuseLowerGroupsBase::FuseLowerGroupsBase;

  TargetAttr requestedTarget;

  LogicalResult initialize(MLIRContext *context) override {
    return parseTilingOptions(context, getArgument(), target, threads,
                              tileSizes, precision, tensorCores, stages, splitK,
                              keyChunk, requestedTarget);
  }

  void runOnOperation() override {
    SmallVector<GroupOp> groups;
    getOperation()->walk([&](GroupOp group) { groups.push_back(group); });
    IRRewriter rewriter(&getContext());
    GroupConfigOptions options;
    options.threads = threads;
    options.tileSizes.assign(tileSizes.begin(), tileSizes.end());
    options.tensorCores = tensorCores;
    options.precision = precision;
    options.stages = stages;
    options.splitK = splitK;
    options.keyChunk = keyChunk;
    bool failedAny = false;
    FailureOr<TargetAttr> resolved =
        resolveTarget(getOperation(), requestedTarget, getArgument());
    if (failed(resolved))
      return signalPassFailure();
    FuseDialect::LoweringConfigAttrHelper helper(&getContext());
    for (GroupOp group : groups) {
      LoweringConfigAttr own = helper.getAttr(group);
      FailureOr<LoweringConfigAttr> config = configFor(
          group, *resolved, options, reconfigure || !options.tileSizes.empty());
      if (failed(config)) {
        failedAny = true;
        continue;
      }
      insertRootCopies(rewriter, group);
      if (reconfigure && options.tileSizes.empty())
        config = keepLowerable(rewriter, group, *config, own, getArgument());
      if (*config)
        helper.setAttr(group, *config);
      failedAny |= *config && failed(lowerGroup(rewriter, group, *config));
    }
    if (failedAny)
      return signalPassFailure();
    // Fusing a producer into each of its consumers' tiles clones it once per
    // use; the clones of one tile read the same slices, so one computation
    // serves them all (a layernorm's statistics and its normalization do
    // not recompute the matmul they read).
    DominanceInfo dominance;
    eliminateCommonSubExpressions(rewriter, dominance, getOperation());
  }
};

} // namespace

FailureOr<LoweringConfigAttr>
mlir::fuse::configureFusionGroup(GroupOp group, TargetAttr target,
                                 const GroupConfigOptions &options,
                                 KernelShape *shape) {
  // On a copy: the root copies it needs are the lowering's to make.
  IRRewriter rewriter(group->getContext());
  rewriter.setInsertionPoint(group);
  auto copy = cast<GroupOp>(rewriter.clone(*group));
  FailureOr<LoweringConfigAttr> config =
      configure(rewriter, copy, target, options, shape);
  rewriter.eraseOp(copy);
  if (succeeded(config) && *config && options.cpuTarget)
    return withCpuSchedule(*config,
                           chooseCpuSchedule(group, options.cpuTarget));
  return config;
}

LoweringConfigAttr mlir::fuse::withCpuSchedule(LoweringConfigAttr config,
                                               CpuScheduleAttr cpu) {
  return LoweringConfigAttr::get(
      config.getContext(), config.getSchedule(), config.getTile(),
      config.getThreads(), config.getInstruction(), config.getPrecision(),
      config.getStages(), config.getSplitK(), config.getKeyChunk(), cpu);
}

LogicalResult mlir::fuse::lowerFusionGroup(RewriterBase &rewriter,
                                           GroupOp group, TargetAttr target,
                                           const GroupConfigOptions &options,
                                           KernelShape *shape) {
  FailureOr<LoweringConfigAttr> config =
      configFor(group, target, options, /*reconfigure=*/false, shape);
  if (failed(config))
    return failure();
  insertRootCopies(rewriter, group);
  if (!*config)
    return success();
  FuseDialect::LoweringConfigAttrHelper(group->getContext())
      .setAttr(group, *config);
  return lowerGroup(rewriter, group, *config);
}

std::optional<ContractionSplit>
mlir::fuse::predictContractionSplit(GroupOp group, TargetAttr target,
                                    const GroupConfigOptions &options) {
  if (options.tensorCores == "never" ||
      tf32MmaMacsPerSM(target.getArch()) == 0 ||
      !broadcastsReductionAlongRows(group))
    return std::nullopt;
  StringRef schedule = scheduleOf(group);
  if (schedule != "contraction" && schedule != "convolution")
    return std::nullopt;
  std::optional<MmaContraction> contraction = mmaContractionOf(group);
  if (!contraction || !isa<TilingInterface>(contraction->op.getOperation()))
    return std::nullopt;
  linalg::LinalgOp op = contraction->op;
  auto bytesOf = [](Type type) { return getShapedTypeBytes(type).value_or(0); };
  auto root = cast<TilingInterface>(op.getOperation());
  SmallVector<utils::IteratorType> iterators = root.getLoopIteratorTypes();
  SmallVector<int64_t> extents = staticDomain(root);
  int64_t inputBytes = 0;
  for (OpOperand *input : op.getDpsInputOperands())
    inputBytes += bytesOf(input->get().getType());
  int64_t resultBytes = bytesOf(op->getResult(0).getType());
  double best = -1;
  for (const SmallVector<int64_t> &tile :
       mmaTileCandidates(iterators, extents, /*wholeRows=*/false,
                         /*overlapRows=*/true)) {
    KernelShape shape;
    shape.schedule = schedule;
    shape.macs = double(classifyOp(op).flops.value_or(0)) / 2;
    shape.bytes = inputBytes + resultBytes;
    for (auto [d, iterator] : llvm::enumerate(iterators)) {
      if (iterator != utils::IteratorType::parallel)
        continue;
      int64_t size = tile[d] > 0 ? tile[d] : extents[d];
      shape.pointsPerBlock *= size;
      shape.blocks *= llvm::divideCeil(extents[d], size);
      shape.innerPoints = size;
    }
    // Unsplit (split-K is not weighed here yet: the two kernels are
    // estimated as before it existed, so the fusion keeps its choices).
    for (int64_t stages : stageCountsFor(options))
      for (int64_t slices : {int64_t(1)}) {
        KernelShape staged = shape;
        if (!onTensorCores(staged, *contraction, options, stages, target,
                           slices))
          continue;
        double us = predictKernelCost(staged, target).us;
        if (best < 0 || us < best)
          best = us;
      }
  }
  if (best < 0)
    return std::nullopt;
  // The rest reads the contraction's result instead of its operands.
  int64_t groupBytes = 0;
  for (Value input : group.getInputs())
    groupBytes += bytesOf(input.getType());
  for (Type result : group.getResultTypes())
    groupBytes += bytesOf(result);
  int64_t operandBytes = 0;
  for (OpOperand *input : op.getDpsInputOperands())
    if (auto arg = dyn_cast<BlockArgument>(input->get());
        arg && arg.getOwner() == &group.getBodyBlock())
      operandBytes += bytesOf(arg.getType());
  double restBytes =
      double(std::max<int64_t>(groupBytes - operandBytes, 0) + resultBytes);
  ContractionSplit split;
  split.contraction = op;
  split.contractionUs = best;
  split.restUs = restBytes / target.getDramBytesPerSecond() * 1e6 +
                 target.getLaunchMicros().convertToDouble();
  return split;
}

/// The blocks the kernel of a lowered `group` launches: the iterations of
/// its tile loop (0 when unknown).
SmallVector<int64_t> mlir::fuse::mapSpans(AffineMap map,
                                          ArrayRef<int64_t> extents) {
  SmallVector<int64_t> zero(extents.size(), 0);
  SmallVector<int64_t> base = map.compose(zero);
  SmallVector<int64_t> spans(map.getNumResults(), 1);
  for (unsigned d = 0; d < extents.size(); ++d) {
    SmallVector<int64_t> unit(extents.size(), 0);
    unit[d] = 1;
    SmallVector<int64_t> moved = map.compose(unit);
    for (unsigned r = 0; r < spans.size(); ++r)
      spans[r] += std::abs(moved[r] - base[r]) * (extents[d] - 1);
  }
  return spans;
}

int64_t mlir::fuse::launchedBlocks(GroupOp group) {
  int64_t blocks = 0;
  forEachTileLoop(group, [&](scf::ForallOp loop) {
    std::optional<ForallBounds> bounds = staticBounds(loop);
    if (!bounds)
      return;
    int64_t n = 1;
    for (auto [lb, ub, step] :
         llvm::zip(bounds->lbs, bounds->ubs, bounds->steps))
      n *= step > 0 ? llvm::divideCeil(std::max<int64_t>(ub - lb, 0), step) : 0;
    blocks += n;
  });
  return blocks;
}

void mlir::fuse::measureTiledGroup(GroupOp group, KernelShape &shape) {
  auto bytesOf = [](Type type) { return getShapedTypeBytes(type).value_or(0); };
  Block &body = group.getBodyBlock();
  forEachTileLoop(group, [&](scf::ForallOp loop) {
    llvm::DenseSet<Value> inputs(body.getArguments().begin(),
                                 body.getArguments().end());
    llvm::SetVector<Value> whole;
    loop.walk([&](Operation *op) {
      if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
        // A slice read in a streamed loop is read once per chunk.
        if (inputs.contains(slice.getSource()))
          shape.tileInputBytes += bytesOf(slice.getType()) * tripsInTile(op);
        // A tile of a fresh tensor (a fused producer's init): a tile-local
        // buffer.
        else if (slice.getSource().getDefiningOp<tensor::EmptyOp>())
          shape.tileSharedBytes += bytesOf(slice.getType());
        return;
      }
      if (isa<tensor::EmptyOp, tensor::PadOp>(op))
        shape.tileSharedBytes += bytesOf(op->getResult(0).getType());
      for (Value operand : op->getOperands())
        if (inputs.contains(operand))
          whole.insert(operand);
    });
    // An input the tile only gathers from: the elements it gathers.
    for (Value input : whole)
      shape.tileInputBytes += gatheredIn(input, loop.getRegion())
                                  .value_or(bytesOf(input.getType()));
  });
}

void mlir::fuse::registerTilingDependencies(DialectRegistry &registry) {
  linalg::registerTilingInterfaceExternalModels(registry);
  tensor::registerTilingInterfaceExternalModels(registry);
}
