//===- StreamAttention.cpp - keys and values streamed through a tile ------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// The attention tile with its keys and values streamed in chunks
// (Lowering.md, "Streamed attention"). First every long reduction of the
// tile becomes a loop over chunks of its reduction, each chunk's producers
// fused in (streamReductions): for a softmax and the product after it,
// three loops (the row maximum; the row sum of exp(x - max); the product
// of the normalized weights with V), each recomputing QK^T for its chunk.
// Then, where the three are that computation, they become one loop with a
// running maximum m (mergeOnlineSoftmax): per chunk, m' = max(m, chunk
// maximum), a = exp(m - m'), the sum l' = l * a + the chunk's sum of
// exp(x - m'), the product's accumulators acc' = acc * a + exp(x - m')
// times the chunk of V; after the loop, acc is normalized as the weights
// were (acc times 1 / l, or acc / l). QK^T is computed once, K and V read
// once. Any other tile keeps its streamed loops.
//
//===----------------------------------------------------------------------===//

#include "StreamAttention.h"

#include "SliceCleanups.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::fuse;

/// Streams the long reductions of the tile loop `forall` (Lowering.md,
/// "Streamed attention"): each linalg op of the tile with one reduction
/// loop longer than `chunk` (a multiple of it) runs as a loop over chunks
/// of its reduction, accumulating into its output, with the producers of
/// each chunk's operands fused into the loop and recomputed per chunk
/// (the attention tile's QK^T chunk, its scale, mask and exp for each of
/// the row maximum, the row sum and the product with V; K and V copied
/// in one chunk at a time). A producer whose value the chunk reads whole
/// (a row statistic) is computed once, before the loop. The ops are
/// streamed last first, so each earlier op's chunks are the only copies
/// of what it reads; the whole-row tile buffers are gone.
LogicalResult fuse::detail::streamReductions(RewriterBase &rewriter,
                                             scf::ForallOp forall,
                                             int64_t chunk, StringRef name) {
  Block *tile = forall.getBody();
  // The tile's ops with one reduction loop longer than the chunk and a
  // multiple of it, in order (dead ones swept first).
  auto candidates = [&] {
    (void)runRegionDCE(rewriter, forall->getRegions());
    SmallVector<std::pair<linalg::LinalgOp, unsigned>> found;
    for (Operation &op : tile->without_terminator()) {
      auto linalgOp = dyn_cast<linalg::LinalgOp>(&op);
      if (!linalgOp || linalgOp.getNumReductionLoops() != 1 ||
          !isa<TilingInterface>(&op))
        continue;
      SmallVector<unsigned> reductions;
      linalgOp.getReductionDims(reductions);
      int64_t extent = linalgOp.getStaticLoopRanges()[reductions.front()];
      if (ShapedType::isDynamic(extent) || extent <= chunk || extent % chunk)
        continue;
      found.push_back({linalgOp, reductions.front()});
    }
    return found;
  };
  auto found = candidates();
  if (found.empty())
    return forall.emitError()
           << "fuse-lower-groups: " << name << ": its tile has no reduction "
           << "longer than the streamed chunk " << chunk
           << " and a multiple of it";
  // The last one each time: the earlier ones' results that only it read
  // are then dead (its chunks recompute them) and swept.
  for (; !found.empty(); found = candidates()) {
    auto [op, dim] = found.back();
    SmallVector<OpFoldResult> sizes(op.getNumLoops(), rewriter.getIndexAttr(0));
    sizes[dim] = rewriter.getIndexAttr(chunk);
    scf::SCFTilingOptions tiling;
    tiling.setTileSizes(sizes);
    tiling.setLoopType(scf::SCFTilingOptions::LoopType::ForOp);
    scf::SCFTileAndFuseOptions options;
    options.setTilingOptions(tiling);
    RewritePatternSet cleanup(rewriter.getContext());
    populateSliceCleanupPatterns(cleanup);
    options.cleanupPatterns = FrozenRewritePatternSet(std::move(cleanup));
    options.setFusionControlFn(
        [&](tensor::ExtractSliceOp slice, OpResult producer, bool)
            -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
          if (producer.getOwner()->getBlock() != tile)
            return std::nullopt;
          // Only what the chunk reads a part of: a value read whole is
          // computed once, outside the loop.
          auto type = cast<RankedTensorType>(producer.getType());
          if (llvm::equal(slice.getStaticSizes(), type.getShape()))
            return std::nullopt;
          return scf::SCFTileAndFuseOptions::ControlFnResult();
        });
    rewriter.setInsertionPoint(op);
    std::string opName = op->getName().getStringRef().str();
    FailureOr<scf::SCFTileAndFuseResult> tiled =
        scf::tileConsumerAndFuseProducersUsingSCF(
            rewriter, cast<TilingInterface>(op.getOperation()), options);
    if (failed(tiled))
      return forall.emitError() << "fuse-lower-groups: " << name
                                << ": streaming the reduction of '" << opName
                                << "' in chunks of " << chunk << " failed";
    for (auto [original, replacement] : tiled->replacements)
      rewriter.replaceAllUsesWith(original, replacement);
    // The empty tiles of the fused producers are chunks made in the loop,
    // not slices of whole-row buffers made before it.
    makeEmptyTilesLocal(rewriter, tiled->loops.front().getOperation());
  }
  return success();
}

void fuse::detail::makeEmptyTilesLocal(RewriterBase &rewriter,
                                       Operation *loop) {
  SmallVector<tensor::ExtractSliceOp> emptySlices;
  loop->getRegion(0).walk([&](tensor::ExtractSliceOp slice) {
    if (auto empty = slice.getSource().getDefiningOp<tensor::EmptyOp>();
        empty && !loop->isAncestor(empty))
      emptySlices.push_back(slice);
  });
  for (tensor::ExtractSliceOp slice : emptySlices) {
    rewriter.setInsertionPoint(slice);
    SmallVector<OpFoldResult> sizes;
    for (auto [d, size] : llvm::enumerate(slice.getMixedSizes()))
      if (!slice.getDroppedDims().test(d))
        sizes.push_back(size);
    rewriter.replaceOpWithNewOp<tensor::EmptyOp>(
        slice, sizes, slice.getType().getElementType());
  }
}

//===----------------------------------------------------------------------===//
// The online softmax
//===----------------------------------------------------------------------===//

namespace {

/// The reduction a streamed loop accumulates: the linalg op whose init is
/// the loop's one iter_arg and whose result the loop yields (through an
/// insert_slice of the whole iter_arg, as tiling leaves it).
linalg::LinalgOp accumulated(scf::ForOp loop) {
  if (loop.getNumRegionIterArgs() != 1)
    return {};
  BlockArgument iterArg = loop.getRegionIterArgs()[0];
  Value yielded = loop.getBody()->getTerminator()->getOperand(0);
  if (auto insert = yielded.getDefiningOp<tensor::InsertSliceOp>()) {
    if (insert.getDest() != iterArg ||
        insert.getSourceType() != insert.getDestType())
      return {};
    yielded = insert.getSource();
  }
  auto op = yielded.getDefiningOp<linalg::LinalgOp>();
  if (!op || op->getBlock() != loop.getBody() || op.getNumDpsInits() != 1 ||
      op.getDpsInitOperand(0)->get() != iterArg ||
      op.getNumReductionLoops() != 1)
    return {};
  return op;
}

/// The op whose result a linalg op's payload yields (null: a block
/// argument or several results).
Operation *yieldedOp(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (body->getTerminator()->getNumOperands() != 1)
    return nullptr;
  return body->getTerminator()->getOperand(0).getDefiningOp();
}

/// Whether `op`'s payload is `T(input, init)` in either order (a plain
/// reduction: a sum with T = addf, a maximum with maximumf or maxnumf).
template <typename... T> bool reducesBy(linalg::LinalgOp op) {
  Operation *y = yieldedOp(op);
  if (!y || !isa<T...>(y) || op.getNumDpsInputs() != 1)
    return false;
  Block *body = op.getBlock();
  Value in = body->getArgument(0), init = body->getArgument(1);
  return (y->getOperand(0) == in && y->getOperand(1) == init) ||
         (y->getOperand(0) == init && y->getOperand(1) == in);
}

/// Whether `value` is a fill of the constant 0.0.
bool isZeroFill(Value value) {
  auto fill = value.getDefiningOp<linalg::FillOp>();
  if (!fill)
    return false;
  auto constant = fill.getInputs()[0].getDefiningOp<arith::ConstantOp>();
  auto attr = constant ? dyn_cast<FloatAttr>(constant.getValue()) : nullptr;
  return attr && attr.getValue().isZero();
}

bool isElementwise(linalg::LinalgOp op) {
  return op && isa<linalg::GenericOp>(op) &&
         op.getNumLoops() == op.getNumParallelLoops() &&
         op.getNumDpsInits() == 1 &&
         op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity();
}

/// Whether `map` (of an operand of an elementwise op over `rank` loops) is
/// the identity but for the constant 0 at loop `kv`: a row value held
/// with a unit key dimension.
bool isRowMap(AffineMap map, unsigned rank, unsigned kv) {
  if (map.getNumDims() != rank || map.getNumResults() != rank)
    return false;
  for (unsigned d = 0; d < rank; ++d) {
    AffineExpr e = map.getResult(d);
    if (d == kv ? e != getAffineConstantExpr(0, map.getContext())
                : e != getAffineDimExpr(d, map.getContext()))
      return false;
  }
  return true;
}

/// The loop of elementwise `op` along which its operand `row` is constant
/// (a row value): its map is the identity but for the constant 0 at that
/// loop (the row held with a unit key dimension), or the identity with
/// that loop left out (the row without it).
std::optional<unsigned> rowKeyLoop(linalg::LinalgOp op, OpOperand *row) {
  unsigned rank = op.getNumLoops();
  AffineMap map = op.getMatchingIndexingMap(row);
  MLIRContext *ctx = op.getContext();
  if (map.getNumResults() == rank) {
    std::optional<unsigned> kv;
    for (unsigned d = 0; d < rank; ++d)
      if (map.getResult(d) == getAffineConstantExpr(0, ctx))
        kv = kv ? std::optional<unsigned>() : std::optional<unsigned>(d);
    if (!kv || !isRowMap(map, rank, *kv))
      return std::nullopt;
    return kv;
  }
  if (map.getNumResults() + 1 != rank || !map.isProjectedPermutation())
    return std::nullopt;
  // The dims in order, one left out.
  unsigned next = 0;
  std::optional<unsigned> kv;
  for (AffineExpr e : map.getResults()) {
    unsigned d = cast<AffineDimExpr>(e).getPosition();
    if (d == next + 1 && !kv)
      kv = next++;
    if (d != next)
      return std::nullopt;
    ++next;
  }
  return kv ? kv : std::optional<unsigned>(rank - 1);
}

/// The subtraction x - m of a row maximum `m` (operand `row` of `op`), as
/// the softmax writes it: `op` computes x - m and its one user is exp of
/// it, or `op` computes exp(x - m). Returns the op whose result is the
/// exp, or null.
Operation *expOfDifference(linalg::LinalgOp op, OpOperand *row) {
  if (!isElementwise(op) || op.getNumDpsInputs() != 2 || !rowKeyLoop(op, row))
    return nullptr;
  Block *body = op.getBlock();
  Value m = body->getArgument(row->getOperandNumber());
  Value x = body->getArgument(1 - row->getOperandNumber());
  auto isDifference = [&](Operation *sub) {
    return isa_and_nonnull<arith::SubFOp>(sub) && sub->getOperand(0) == x &&
           sub->getOperand(1) == m;
  };
  Operation *y = yieldedOp(op);
  if (isa_and_nonnull<math::ExpOp>(y) &&
      isDifference(y->getOperand(0).getDefiningOp()))
    return op;
  if (!isDifference(y) || !op->hasOneUse())
    return nullptr;
  auto exp = dyn_cast<linalg::LinalgOp>(*op->user_begin());
  if (!isElementwise(exp) || exp.getNumDpsInputs() != 1 ||
      exp->getBlock() != op->getBlock() ||
      !exp.getMatchingIndexingMap(exp.getDpsInputOperand(0)).isIdentity())
    return nullptr;
  Operation *e = yieldedOp(exp);
  if (!isa_and_nonnull<math::ExpOp>(e) ||
      e->getOperand(0) != exp.getBlock()->getArgument(0))
    return nullptr;
  return exp;
}

/// The reshapes from `from` to `to` (each the only source of the next), in
/// order; false where `to` is not `from` reshaped.
bool reshapeChain(Value from, Value to, SmallVectorImpl<Operation *> &chain) {
  SmallVector<Operation *> reversed;
  while (to != from) {
    Operation *def = to.getDefiningOp();
    if (!isa_and_nonnull<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def))
      return false;
    reversed.push_back(def);
    to = def->getOperand(0);
  }
  chain.assign(reversed.rbegin(), reversed.rend());
  return true;
}

/// Where the key dimension (at `kv` of the first source of the reshapes
/// `chain`) is in each reshape's result; none where a reshape merges it
/// with a dimension that is not a unit one (a row value held with a unit
/// key dimension could not follow).
std::optional<SmallVector<unsigned>> keyThrough(ArrayRef<Operation *> chain,
                                                unsigned kv) {
  SmallVector<unsigned> positions;
  for (Operation *op : chain) {
    if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
      SmallVector<ReassociationIndices> groups =
          collapse.getReassociationIndices();
      auto srcShape = collapse.getSrcType().getShape();
      std::optional<unsigned> at;
      for (auto [g, group] : llvm::enumerate(groups))
        if (llvm::is_contained(group, int64_t(kv)))
          at = g;
      for (int64_t d : groups[*at])
        if (d != int64_t(kv) && srcShape[d] != 1)
          return std::nullopt;
      kv = *at;
    } else {
      // The key dimension becomes the one non-unit dimension of its group.
      auto expand = cast<tensor::ExpandShapeOp>(op);
      auto resultShape = expand.getResultType().getShape();
      std::optional<unsigned> at;
      int nonUnit = 0;
      for (int64_t d : expand.getReassociationIndices()[kv])
        if (resultShape[d] != 1)
          at = d, ++nonUnit;
      if (nonUnit != 1)
        return std::nullopt;
      kv = *at;
    }
    positions.push_back(kv);
  }
  return positions;
}

/// `value`, a row value held with a unit key dimension, through the
/// reshapes `chain`, the key dimension (at `positions`, keyThrough's) of
/// extent 1 throughout.
Value replayWithUnitKey(OpBuilder &b, Location loc, Value value,
                        ArrayRef<Operation *> chain,
                        ArrayRef<unsigned> positions) {
  for (auto [op, kv] : llvm::zip_equal(chain, positions)) {
    if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
      value = tensor::CollapseShapeOp::create(
          b, loc, value, collapse.getReassociationIndices());
      continue;
    }
    auto expand = cast<tensor::ExpandShapeOp>(op);
    SmallVector<int64_t> shape(expand.getResultType().getShape());
    shape[kv] = 1;
    auto type = RankedTensorType::get(
        shape, cast<RankedTensorType>(value.getType()).getElementType());
    value = tensor::ExpandShapeOp::create(b, loc, type, value,
                                          expand.getReassociationIndices());
  }
  return value;
}

/// An elementwise generic over the dims of `acc` computing
/// payload(acc, row) with `row` broadcast along the dims its map leaves
/// out (`rowMap`), into `acc`'s own tensor; `payloadFrom` gives the
/// payload (its block: acc's element, row's element, the output), with
/// the inputs in the order `rowFirst` says.
Value overAccumulator(
    OpBuilder &b, Location loc, Value acc, Value row, AffineMap rowMap,
    bool rowFirst,
    llvm::function_ref<void(OpBuilder &, Location, ValueRange)> payload) {
  auto accType = cast<RankedTensorType>(acc.getType());
  MLIRContext *ctx = b.getContext();
  AffineMap id = AffineMap::getMultiDimIdentityMap(accType.getRank(), ctx);
  SmallVector<Value> inputs = {acc, row};
  SmallVector<AffineMap> maps = {id, rowMap, id};
  if (rowFirst) {
    std::swap(inputs[0], inputs[1]);
    std::swap(maps[0], maps[1]);
  }
  SmallVector<utils::IteratorType> iterators(accType.getRank(),
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{accType}, inputs, ValueRange{acc}, maps,
             iterators,
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               payload(nb, nl, args);
             })
      .getResult(0);
}

} // namespace

bool fuse::detail::mergeOnlineSoftmax(RewriterBase &rewriter,
                                      scf::ForallOp forall) {
  SmallVector<scf::ForOp> loops;
  for (Operation &op : forall.getBody()->without_terminator())
    if (auto loop = dyn_cast<scf::ForOp>(&op))
      loops.push_back(loop);
  if (loops.size() != 3)
    return false;
  scf::ForOp maxLoop = loops[0], sumLoop = loops[1], pvLoop = loops[2];
  for (scf::ForOp loop : {sumLoop, pvLoop})
    if (getConstantIntValue(loop.getLowerBound()) !=
            getConstantIntValue(maxLoop.getLowerBound()) ||
        getConstantIntValue(loop.getUpperBound()) !=
            getConstantIntValue(maxLoop.getUpperBound()) ||
        getConstantIntValue(loop.getStep()) !=
            getConstantIntValue(maxLoop.getStep()) ||
        !getConstantIntValue(loop.getStep()))
      return false;
  linalg::LinalgOp maxOp = accumulated(maxLoop), sumOp = accumulated(sumLoop),
                   pvOp = accumulated(pvLoop);
  if (!maxOp || !sumOp || !pvOp ||
      !reducesBy<arith::MaximumFOp, arith::MaxNumFOp>(maxOp) ||
      !reducesBy<arith::AddFOp>(sumOp) || pvOp.getNumDpsInputs() != 2 ||
      !linalg::isaContractionOpInterface(pvOp) ||
      !isZeroFill(sumLoop.getInitArgs()[0]) ||
      !isZeroFill(pvLoop.getInitArgs()[0]))
    return false;

  // Every use of the maximum is a view of it (reshapes outside the loops)
  // or the subtraction inside exp(x - m) in the sum's or the product's
  // loop.
  Value max = maxLoop.getResult(0);
  SmallVector<Value> views = {max};
  SmallVector<std::pair<linalg::LinalgOp, OpOperand *>> differences;
  for (size_t i = 0; i < views.size(); ++i)
    for (OpOperand &use : views[i].getUses()) {
      Operation *user = use.getOwner();
      if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(user) &&
          user->getBlock() == forall.getBody()) {
        views.push_back(user->getResult(0));
        continue;
      }
      auto op = dyn_cast<linalg::LinalgOp>(user);
      if (!op ||
          !(op->getParentOp() == sumLoop || op->getParentOp() == pvLoop) ||
          !expOfDifference(op, &use))
        return false;
      differences.push_back({op, &use});
    }
  if (differences.empty())
    return false;

  // The product's weights: exp(x - m) normalized by a row value made
  // outside the loop (times 1 / sum, or divided by the sum), reshaped
  // into the product's operand.
  linalg::LinalgOp norm;
  unsigned weightsOperand = 0;
  SmallVector<Operation *> toProduct;
  for (OpOperand *input : pvOp.getDpsInputOperands()) {
    Value v = input->get();
    while (Operation *def = v.getDefiningOp())
      if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def) &&
          def->getBlock() == pvLoop.getBody())
        v = def->getOperand(0);
      else
        break;
    auto op = v.getDefiningOp<linalg::LinalgOp>();
    if (!op || op->getBlock() != pvLoop.getBody() || !isElementwise(op) ||
        op.getNumDpsInputs() != 2)
      continue;
    if (norm)
      return false;
    norm = op;
    weightsOperand = input->getOperandNumber();
    if (!reshapeChain(norm->getResult(0), input->get(), toProduct))
      return false;
  }
  if (!norm)
    return false;
  // Which of the normalization's inputs is the exp (made in the loop) and
  // which the row value (made before it).
  OpOperand *expInput = nullptr, *rowInput = nullptr;
  for (OpOperand *input : norm.getDpsInputOperands()) {
    if (pvLoop->isAncestor(input->get().getParentRegion()->getParentOp()))
      expInput = input;
    else
      rowInput = input;
  }
  if (!expInput || !rowInput)
    return false;
  auto expDef = expInput->get().getDefiningOp();
  if (!llvm::any_of(differences, [&](auto &d) { return d.first == expDef; }) &&
      !llvm::any_of(differences, [&](auto &d) {
        return d.first->hasOneUse() && *d.first->user_begin() == expDef;
      }))
    return false;
  {
    Operation *y = yieldedOp(norm);
    Block *body = norm.getBlock();
    Value e = body->getArgument(expInput->getOperandNumber());
    Value r = body->getArgument(rowInput->getOperandNumber());
    bool times = isa_and_nonnull<arith::MulFOp>(y) &&
                 ((y->getOperand(0) == e && y->getOperand(1) == r) ||
                  (y->getOperand(0) == r && y->getOperand(1) == e));
    bool divided = isa_and_nonnull<arith::DivFOp>(y) && y->getOperand(0) == e &&
                   y->getOperand(1) == r;
    if (!times && !divided)
      return false;
  }
  std::optional<unsigned> keyLoop = rowKeyLoop(norm, rowInput);
  if (!keyLoop)
    return false;

  // The accumulator's dims the product's weights map to: the operand's
  // dims through its map (the key loop, the product's reduction, to 0).
  AffineMap weightsMap =
      pvOp.getMatchingIndexingMap(&pvOp->getOpOperand(weightsOperand));
  AffineMap accMap = pvOp.getMatchingIndexingMap(pvOp.getDpsInitOperand(0));
  SmallVector<unsigned> reductions;
  pvOp.getReductionDims(reductions);
  SmallVector<AffineExpr> rowExprs;
  MLIRContext *ctx = rewriter.getContext();
  for (AffineExpr e : weightsMap.getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(e);
    if (!dim)
      return false;
    if (dim.getPosition() == reductions.front()) {
      rowExprs.push_back(getAffineConstantExpr(0, ctx));
      continue;
    }
    std::optional<unsigned> at;
    for (unsigned o = 0; o < accMap.getNumResults(); ++o)
      if (accMap.getResult(o) == e)
        at = o;
    if (!at)
      return false;
    rowExprs.push_back(getAffineDimExpr(*at, ctx));
  }
  AffineMap rowMap = AffineMap::get(accMap.getNumResults(), 0, rowExprs, ctx);
  bool rowFirst = rowInput->getOperandNumber() < expInput->getOperandNumber();
  // Every difference is over the same key loop as the normalization.
  for (auto &[op, use] : differences)
    if (rowKeyLoop(op, use) != keyLoop)
      return false;

  // The maximum's view each difference reads, and the reshapes to it.
  DenseMap<Value, SmallVector<Operation *>> viewChains;
  for (auto &[op, use] : differences)
    if (!viewChains.count(use->get())) {
      SmallVector<Operation *> chain;
      if (!reshapeChain(max, use->get(), chain))
        return false;
      viewChains[use->get()] = chain;
    }

  // How the row values (the scale a, the normalizer) reach the
  // accumulators: with no reshape between the weights and the product, or
  // between the maximum and the differences, their maps compose (the
  // weights' dims are the product's operand dims); otherwise the row
  // values, held with a unit key dimension, go through the same reshapes
  // as the weights.
  bool compose = toProduct.empty() && llvm::all_of(viewChains, [](auto &e) {
                   return e.second.empty();
                 });
  auto toAccumulator = [&](AffineMap eMap) -> std::optional<AffineMap> {
    SmallVector<AffineExpr> exprs;
    for (AffineExpr e : eMap.getResults()) {
      if (isa<AffineConstantExpr>(e)) {
        exprs.push_back(e);
        continue;
      }
      unsigned loop = cast<AffineDimExpr>(e).getPosition();
      if (loop == *keyLoop || loop >= weightsMap.getNumResults())
        return std::nullopt;
      std::optional<unsigned> at;
      for (unsigned o = 0; o < accMap.getNumResults(); ++o)
        if (accMap.getResult(o) == weightsMap.getResult(loop))
          at = o;
      if (!at)
        return std::nullopt;
      exprs.push_back(getAffineDimExpr(*at, ctx));
    }
    return AffineMap::get(accMap.getNumResults(), 0, exprs, ctx);
  };
  AffineMap scaleMap = rowMap, normMap = rowMap;
  // Where the key dimension is along the weights' reshapes (replayed).
  SmallVector<unsigned> keyPath;
  if (compose) {
    auto &[firstDifference, firstUse] = differences.front();
    std::optional<AffineMap> s =
        toAccumulator(firstDifference.getMatchingIndexingMap(firstUse));
    std::optional<AffineMap> n =
        toAccumulator(norm.getMatchingIndexingMap(rowInput));
    if (!s || !n)
      return false;
    scaleMap = *s;
    normMap = *n;
  } else {
    std::optional<SmallVector<unsigned>> path = keyThrough(toProduct, *keyLoop);
    if (!path)
      return false;
    keyPath = std::move(*path);
  }

  // One loop, where the product's loop was; what used the three loops'
  // results before it moves after it.
  Location loc = pvLoop.getLoc();
  // What is made from the maximum or the sum between the loops (views of
  // the maximum, the normalizer): it moves after the merged loop, so the
  // loops may read it only as the differences' maximum and the weights'
  // normalizer.
  SmallVector<Operation *> moved;
  llvm::SmallPtrSet<Operation *, 16> dependent = {maxLoop, sumLoop};
  for (Operation *op = maxLoop->getNextNode();
       op && op != pvLoop.getOperation(); op = op->getNextNode()) {
    if (op == sumLoop.getOperation())
      continue;
    if (llvm::any_of(op->getOperands(), [&](Value v) {
          return dependent.contains(v.getDefiningOp());
        })) {
      dependent.insert(op);
      moved.push_back(op);
    }
  }
  bool readsMoved = false;
  for (scf::ForOp loop : {sumLoop, pvLoop})
    loop.getBody()->walk([&](Operation *op) {
      for (OpOperand &use : op->getOpOperands()) {
        if (!dependent.contains(use.get().getDefiningOp()))
          continue;
        bool difference = llvm::any_of(
            differences, [&](auto &d) { return d.second == &use; });
        if (!difference && &use != rowInput)
          readsMoved = true;
      }
    });
  if (readsMoved)
    return false;
  rewriter.setInsertionPoint(pvLoop);
  auto maxInit = maxLoop.getInitArgs()[0].getDefiningOp<linalg::FillOp>();
  if (!maxInit)
    return false;
  SmallVector<Value> inits = {maxLoop.getInitArgs()[0],
                              sumLoop.getInitArgs()[0],
                              pvLoop.getInitArgs()[0]};
  Type maxType = max.getType();
  auto merged = scf::ForOp::create(
      rewriter, loc, maxLoop.getLowerBound(), maxLoop.getUpperBound(),
      maxLoop.getStep(), inits,
      [&](OpBuilder &b, Location l, Value iv, ValueRange args) {
        Value m = args[0], sum = args[1], acc = args[2];
        IRMapping map;
        // The chunk's own maximum, from the loop's initial value (a fill
        // made here: the running maximum is still read below).
        Operation *fill = maxInit.getOperation();
        IRMapping fresh;
        for (Value operand : fill->getOperands())
          if (auto empty = operand.getDefiningOp<tensor::EmptyOp>())
            fresh.map(operand, b.clone(*empty)->getResult(0));
        Value chunkInit = b.clone(*fill, fresh)->getResult(0);
        // One of the three loops' bodies, for this chunk, accumulating
        // into `into`; its yielded value. The weights' normalization is
        // left out (the weights are then the exp it normalized).
        auto inlineBody = [&](scf::ForOp loop, Value into) {
          map.map(loop.getInductionVar(), iv);
          map.map(loop.getRegionIterArgs()[0], into);
          for (Operation &op : loop.getBody()->without_terminator()) {
            if (&op == norm.getOperation())
              map.map(norm->getResult(0), map.lookup(expInput->get()));
            else
              b.clone(op, map);
          }
          return map.lookup(loop.getBody()->getTerminator()->getOperand(0));
        };
        Value chunkMax = inlineBody(maxLoop, chunkInit);
        auto rowType = cast<RankedTensorType>(maxType);
        // An elementwise generic over the row values `inputs`, into `init`.
        auto overRows =
            [&](ValueRange inputs, Value init,
                llvm::function_ref<Value(OpBuilder &, Location, ValueRange)>
                    payload) {
              AffineMap id =
                  AffineMap::getMultiDimIdentityMap(rowType.getRank(), ctx);
              SmallVector<AffineMap> maps(inputs.size() + 1, id);
              SmallVector<utils::IteratorType> iterators(
                  rowType.getRank(), utils::IteratorType::parallel);
              return linalg::GenericOp::create(
                         b, l, TypeRange{rowType}, inputs, ValueRange{init},
                         maps, iterators,
                         [&](OpBuilder &nb, Location nl, ValueRange a) {
                           linalg::YieldOp::create(nb, nl, payload(nb, nl, a));
                         })
                  .getResult(0);
            };
        auto maxOf = [&](OpBuilder &nb, Location nl, Value x, Value y) {
          return isa<arith::MaximumFOp>(yieldedOp(maxOp))
                     ? arith::MaximumFOp::create(nb, nl, x, y).getResult()
                     : arith::MaxNumFOp::create(nb, nl, x, y).getResult();
        };
        // a = exp(m - max(m, chunk maximum)): the old sum's and
        // accumulators' scale.
        Value empty = tensor::EmptyOp::create(b, l, rowType.getShape(),
                                              rowType.getElementType());
        Value scale =
            overRows(ValueRange{m, chunkMax}, empty,
                     [&](OpBuilder &nb, Location nl, ValueRange a) -> Value {
                       Value d = arith::SubFOp::create(
                           nb, nl, a[0], maxOf(nb, nl, a[0], a[1]));
                       return math::ExpOp::create(nb, nl, d);
                     });
        // The running maximum, in place.
        Value newMax =
            overRows(ValueRange{chunkMax}, m,
                     [&](OpBuilder &nb, Location nl, ValueRange a) -> Value {
                       return maxOf(nb, nl, a[1], a[0]);
                     });
        Value scaledSum =
            overRows(ValueRange{sum, scale}, sum,
                     [](OpBuilder &nb, Location nl, ValueRange a) -> Value {
                       return arith::MulFOp::create(nb, nl, a[0], a[1]);
                     });
        // The maximum's views, of the running maximum.
        map.map(max, newMax);
        for (auto &[view, chain] : viewChains)
          for (Operation *op : chain)
            if (!map.contains(op->getResult(0)))
              b.clone(*op, map);
        // The sum, from the scaled one.
        Value newSum = inlineBody(sumLoop, scaledSum);
        // The accumulators scaled, then the product of the unnormalized
        // weights with the chunk of V.
        IRMapping viewOfScale;
        viewOfScale.map(max, scale);
        Value scaleView = differences.front().second->get();
        Value scaleRow = scale;
        for (Operation *op : viewChains[scaleView])
          scaleRow = b.clone(*op, viewOfScale)->getResult(0),
          viewOfScale.map(op->getResult(0), scaleRow);
        Value scaleAcc =
            compose ? scaleRow
                    : replayWithUnitKey(b, l, scaleRow, toProduct, keyPath);
        Value scaledAcc = overAccumulator(
            b, l, acc, scaleAcc, scaleMap, /*rowFirst=*/false,
            [](OpBuilder &nb, Location nl, ValueRange a) {
              linalg::YieldOp::create(
                  nb, nl,
                  arith::MulFOp::create(nb, nl, a[0], a[1]).getResult());
            });
        Value newAcc = inlineBody(pvLoop, scaledAcc);
        scf::YieldOp::create(b, l, ValueRange{newMax, newSum, newAcc});
      });
  // The three loops' results: what read them (views of the maximum, the
  // normalizer made from the sum) moves after the merged loop.
  rewriter.replaceAllUsesWith(maxLoop.getResult(0), merged.getResult(0));
  rewriter.replaceAllUsesWith(sumLoop.getResult(0), merged.getResult(1));
  Operation *after = merged;
  for (Operation *op : moved) {
    rewriter.moveOpAfter(op, after);
    after = op;
  }
  // The product normalized once: acc times (or divided by) the row value.
  rewriter.setInsertionPointAfter(after);
  Value rowValue = rowInput->get();
  Value rowAcc =
      compose ? rowValue
              : replayWithUnitKey(rewriter, loc, rowValue, toProduct, keyPath);
  Value normalized = overAccumulator(
      rewriter, loc, merged.getResult(2), rowAcc, normMap, rowFirst,
      [&](OpBuilder &nb, Location nl, ValueRange a) {
        IRMapping payload;
        Block *body = norm.getBlock();
        for (auto [from, to] : llvm::zip(body->getArguments(), a))
          payload.map(from, to);
        for (Operation &op : body->without_terminator())
          nb.clone(op, payload);
        linalg::YieldOp::create(
            nb, nl, payload.lookup(body->getTerminator()->getOperand(0)));
      });
  rewriter.replaceAllUsesWith(pvLoop.getResult(0), normalized);
  rewriter.eraseOp(pvLoop);
  rewriter.eraseOp(sumLoop);
  rewriter.eraseOp(maxLoop);
  return true;
}
