//===- VectorizeContractions.cpp - register-blocked CPU contractions ------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// fuse-cpu-vectorize: each contraction on tensors becomes a loop nest over
// MR x NR register tiles whose reduction runs on vector accumulators.
//
//===----------------------------------------------------------------------===//

#include "fuse/Codegen/CPU/Passes.h"

#include "fuse/Dialect/Fuse/IR/FuseDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSECPUVECTORIZE
#include "fuse/Codegen/CPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

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

/// The largest divisor of `extent` that is at most `bound` (at least 1).
int64_t largestDivisor(int64_t extent, int64_t bound) {
  for (int64_t d = std::min(extent, std::max<int64_t>(bound, 1)); d > 1; --d)
    if (extent % d == 0)
      return d;
  return 1;
}

/// The register tile's width along the contiguous dimension: the largest
/// divisor of `extent` up to `bound` that is a multiple of 16 floats (whole
/// vector registers), else the largest power of two that divides it, else
/// the largest divisor. A width such as 24 lowers to vectors of odd length
/// that ran 9-20x slower (a 3x3 depthwise convolution on 56x56x144: 3.85
/// ms with tiles 24 wide, 0.195 ms 16 wide).
int64_t vectorWidth(int64_t extent, int64_t bound) {
  for (int64_t d = std::min(extent, bound) / 16 * 16; d >= 16; d -= 16)
    if (extent % d == 0)
      return d;
  for (int64_t d = 8; d > 1; d /= 2)
    if (d <= bound && extent % d == 0)
      return d;
  return largestDivisor(extent, bound);
}

/// A convolution whose window is applied per channel (no sum over input
/// channels): its tile is elementwise on a row of channels.
bool isPerChannel(Operation *op) {
  return isa<linalg::DepthwiseConv2DNhwcHwcOp, linalg::PoolingNhwcMaxOp,
             linalg::PoolingNhwcMinOp, linalg::PoolingNhwcSumOp>(op);
}

/// A convolution whose register tile (one output row, a 1x1 window) has a
/// 1-D form that vectorizes.
bool isDecomposableConvolution(Operation *op) {
  return isa<linalg::Conv2DNhwcHwcfOp>(op) || isPerChannel(op);
}

bool isPooling(Operation *op) {
  return isa<linalg::PoolingNhwcMaxOp, linalg::PoolingNhwcMinOp,
             linalg::PoolingNhwcSumOp>(op);
}

bool hasStaticF32Tensors(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op->getNumResults() != 1)
    return false;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.get().getType());
    if (!type || !type.hasStaticShape() || !type.getElementType().isF32())
      return false;
  }
  return true;
}

/// The register tiling of `op`, or nothing where the op is not a
/// contraction this pass vectorizes.
std::optional<RegisterTiling> registerTilingOf(linalg::LinalgOp op, int64_t mr,
                                               int64_t nr, int64_t kc,
                                               int64_t panelBytes) {
  if (!hasStaticF32Tensors(op) || op.getNumReductionLoops() == 0 ||
      op.getNumDpsInits() != 1)
    return std::nullopt;
  bool convolution = isDecomposableConvolution(op);
  // A product summed over its reduction (its body a multiply and an add):
  // a plain reduction (a row's sum or maximum) is memory-bound and stays a
  // loop, which LLVM vectorizes along its contiguous dimension.
  if (!convolution &&
      (!linalg::isaContractionOpInterface(op) ||
       !llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
         return map.isProjectedPermutation();
       })))
    return std::nullopt;
  // The loops the output's last two dimensions index.
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (out.getNumResults() == 0)
    return std::nullopt; // a reduction to a scalar
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  unsigned n = cast<AffineDimExpr>(out.getResults().back()).getPosition();
  std::optional<unsigned> m;
  if (out.getNumResults() >= 2)
    m = cast<AffineDimExpr>(out.getResults()[out.getNumResults() - 2])
            .getPosition();

  RegisterTiling tiling;
  unsigned innermostReduction = 0;
  for (auto [i, it] : llvm::enumerate(iterators))
    if (it == utils::IteratorType::reduction)
      innermostReduction = i;
  for (auto [i, it] : llvm::enumerate(iterators)) {
    if (it == utils::IteratorType::reduction) {
      tiling.parallel.push_back(0);
      tiling.reduction.push_back(i == innermostReduction && !isPerChannel(op)
                                     ? largestDivisor(ranges[i], kc)
                                     : 1);
      continue;
    }
    tiling.reduction.push_back(0);
    if (i == n)
      tiling.parallel.push_back(vectorWidth(ranges[i], nr));
    else if (m && i == *m)
      tiling.parallel.push_back(largestDivisor(ranges[i], mr));
    else
      tiling.parallel.push_back(1);
  }
  // A reduction whose column panel (all of the reduction by NR elements)
  // outgrows `panelBytes` runs in blocks of its innermost dimension, each
  // block's panel at most `panelBytes` / 8 (an L1 share) and the window
  // one position at a time; its register tiles read the output back
  // between blocks.
  int64_t reductionPoints = 1;
  for (auto [i, it] : llvm::enumerate(iterators))
    if (it == utils::IteratorType::reduction)
      reductionPoints *= ranges[i];
  int64_t panel = reductionPoints * tiling.parallel[n] * 4;
  tiling.blocks.assign(iterators.size(), 0);
  if (panelBytes > 0 && panel > panelBytes && !isPerChannel(op)) {
    int64_t blockBound = std::max<int64_t>(
        panelBytes / 8 / (tiling.parallel[n] * 4), tiling.reduction.back());
    for (auto [i, it] : llvm::enumerate(iterators))
      if (it == utils::IteratorType::reduction)
        tiling.blocks[i] =
            i == innermostReduction ? largestDivisor(ranges[i], blockBound) : 1;
    // A block the register tiles' reduction step must divide.
    if (tiling.blocks[innermostReduction] %
            tiling.reduction[innermostReduction] !=
        0)
      tiling.blocks.assign(iterators.size(), 0);
  }
  // Tile loops: the contiguous dimension's first, the rest in loop order
  // (reduction loops are not tiled here but keep their place).
  tiling.interchange.push_back(n);
  for (unsigned i = 0; i < iterators.size(); ++i)
    if (i != n)
      tiling.interchange.push_back(i);
  return tiling;
}

/// A convolution tile of one output row with a 1x1 window (its window
/// loops tiled by 1) as a product on 2-D slices, so it vectorizes like a
/// matrix product: the input becomes a strided slice (the convolution's
/// stride) with one row per output point, the filter and the output lose
/// their unit dimensions.
///   conv_2d_nhwc_hwcf:          out[w, f] += in[w * s, c] * filter[c, f]
///                               (linalg.matmul)
///   depthwise_conv_2d_nhwc_hwc: out[w, c] = fma(in[w * s, c], filter[c],
///                               out[w, c]) (linalg.generic)
///   pooling_nhwc_max/min/sum:   out[w, c] = max/min/+(out[w, c],
///                               in[w * s, c]) (linalg.generic)
FailureOr<linalg::LinalgOp> convolutionTileToProduct(RewriterBase &rewriter,
                                                     linalg::LinalgOp op) {
  if (!isDecomposableConvolution(op) || !hasStaticF32Tensors(op))
    return failure();
  bool depthwise = isa<linalg::DepthwiseConv2DNhwcHwcOp>(op);
  bool pooling = isPooling(op);
  // A pooling body combines the input with the output; the window operand
  // only gives the window's shape.
  if (pooling && !op->getRegion(0).front().getArgument(1).use_empty())
    return failure();
  Value input = op.getDpsInputOperand(0)->get();
  Value filter = op.getDpsInputOperand(1)->get();
  Value init = op.getDpsInitOperand(0)->get();
  auto filterType = cast<RankedTensorType>(filter.getType());
  auto outType = cast<RankedTensorType>(init.getType());
  ArrayRef<int64_t> outShape = outType.getShape();
  // One image, one output row, a 1x1 window.
  if (outShape[0] != 1 || outShape[1] != 1 || filterType.getDimSize(0) != 1 ||
      filterType.getDimSize(1) != 1)
    return failure();
  auto stridesAttr = op->getAttrOfType<DenseIntElementsAttr>("strides");
  if (!stridesAttr || stridesAttr.getNumElements() != 2)
    return failure();
  int64_t stride = *std::next(stridesAttr.getValues<int64_t>().begin());
  Location loc = op.getLoc();
  MLIRContext *context = op->getContext();
  Type f32 = outType.getElementType();
  int64_t width = outShape[2], outChannels = outShape[3];
  // (A pooling window has no channels: it pools each channel.)
  int64_t channels = pooling ? outChannels : filterType.getDimSize(2);
  // Each 2-D slice must keep two dimensions of more than one element: a
  // rank-reducing slice that keeps a unit dimension does not say which
  // one it dropped, and its buffer's view cannot be expanded. Such a tile
  // keeps its loops.
  if (width == 1 || channels == 1 || outChannels == 1)
    return failure();
  auto slice = [&](Value source, ArrayRef<int64_t> sizes,
                   ArrayRef<int64_t> strides, ArrayRef<int64_t> shape) {
    SmallVector<OpFoldResult> zeros(sizes.size(), rewriter.getIndexAttr(0));
    return tensor::ExtractSliceOp::create(
        rewriter, loc, RankedTensorType::get(shape, f32), source, zeros,
        getAsIndexOpFoldResult(context, sizes),
        getAsIndexOpFoldResult(context, strides));
  };
  Value inSlice = slice(input, {1, 1, width, channels}, {1, 1, stride, 1},
                        {width, channels});
  Value filterSlice =
      pooling     ? Value()
      : depthwise ? slice(filter, {1, 1, channels}, {1, 1, 1}, {channels})
                  : slice(filter, {1, 1, channels, outChannels}, {1, 1, 1, 1},
                          {channels, outChannels});
  Value outSlice = slice(init, {1, 1, width, outChannels}, {1, 1, 1, 1},
                         {width, outChannels});
  linalg::LinalgOp product;
  if (pooling) {
    // The pooling's own combiner (its body: in, window, out), on the input
    // and the output.
    AffineMap identity = AffineMap::getMultiDimIdentityMap(2, context);
    SmallVector<utils::IteratorType> iterators(2,
                                               utils::IteratorType::parallel);
    Block &poolBody = op->getRegion(0).front();
    product = linalg::GenericOp::create(
        rewriter, loc, TypeRange{outSlice.getType()}, ValueRange{inSlice},
        ValueRange{outSlice}, SmallVector<AffineMap>{identity, identity},
        iterators, [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
          IRMapping mapping;
          mapping.map(poolBody.getArgument(0), args[0]);
          mapping.map(poolBody.getArgument(2), args[1]);
          for (Operation &inner : poolBody.without_terminator())
            b.clone(inner, mapping);
          linalg::YieldOp::create(
              b, bodyLoc,
              mapping.lookupOrDefault(poolBody.getTerminator()->getOperand(0)));
        });
  } else if (depthwise) {
    AffineExpr d0 = getAffineDimExpr(0, context);
    AffineExpr d1 = getAffineDimExpr(1, context);
    SmallVector<AffineMap> maps = {AffineMap::get(2, 0, {d0, d1}, context),
                                   AffineMap::get(2, 0, {d1}, context),
                                   AffineMap::get(2, 0, {d0, d1}, context)};
    SmallVector<utils::IteratorType> iterators(2,
                                               utils::IteratorType::parallel);
    product = linalg::GenericOp::create(
        rewriter, loc, TypeRange{outSlice.getType()},
        ValueRange{inSlice, filterSlice}, ValueRange{outSlice}, maps, iterators,
        [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
          Value fma =
              math::FmaOp::create(b, bodyLoc, args[0], args[1], args[2]);
          linalg::YieldOp::create(b, bodyLoc, fma);
        });
  } else {
    product = linalg::MatmulOp::create(
        rewriter, loc, TypeRange{outSlice.getType()},
        ValueRange{inSlice, filterSlice}, ValueRange{outSlice});
  }
  SmallVector<OpFoldResult> zeros(4, rewriter.getIndexAttr(0));
  Value inserted = tensor::InsertSliceOp::create(
      rewriter, loc, product->getResult(0), init, zeros,
      getAsIndexOpFoldResult(context, {1, 1, width, outChannels}),
      SmallVector<OpFoldResult>(4, rewriter.getIndexAttr(1)));
  rewriter.replaceOp(op, inserted);
  return product;
}

SmallVector<OpFoldResult> asIndexAttrs(MLIRContext *context,
                                       ArrayRef<int64_t> sizes) {
  Builder b(context);
  return llvm::map_to_vector(
      sizes, [&](int64_t s) -> OpFoldResult { return b.getIndexAttr(s); });
}

/// Tiles the reduction loops of `op` by `sizes` (0: not tiled; the
/// parallel loops' are 0), the output carried through the loops, which are
/// appended to `loops`; returns the tiled op.
FailureOr<Operation *> tileReductions(RewriterBase &rewriter, Operation *op,
                                      ArrayRef<int64_t> sizes,
                                      SmallVectorImpl<Operation *> &loops) {
  scf::SCFTilingOptions options;
  options.setTileSizes(asIndexAttrs(op->getContext(), sizes));
  SmallVector<unsigned> dims;
  for (auto [i, size] : llvm::enumerate(sizes))
    if (size != 0)
      dims.push_back(i);
  options.setReductionDims(dims);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled =
      scf::tileUsingSCF(rewriter, cast<TilingInterface>(op), options);
  if (failed(tiled))
    return failure();
  rewriter.replaceOp(op, tiled->replacements);
  for (LoopLikeOpInterface loop : tiled->loops)
    loops.push_back(loop);
  return tiled->tiledOps.back();
}

/// Tiles `op` into register tiles with its output's producer fused, then
/// its reduction loops; returns the loops holding the vectorizable ops.
LogicalResult tileContraction(RewriterBase &rewriter, linalg::LinalgOp op,
                              const RegisterTiling &tiling,
                              SmallVectorImpl<Operation *> &loops) {
  MLIRContext *context = op->getContext();
  // Reduction blocks first: the output is their loops' carried value, so
  // its initial value stays outside them (computed once).
  bool blocked = llvm::any_of(tiling.blocks, [](int64_t b) { return b; });
  if (blocked) {
    FailureOr<Operation *> blockedOp =
        tileReductions(rewriter, op, tiling.blocks, loops);
    if (failed(blockedOp))
      return failure();
    op = cast<linalg::LinalgOp>(*blockedOp);
  }
  scf::SCFTilingOptions parallelOptions;
  parallelOptions.setTileSizes(asIndexAttrs(context, tiling.parallel));
  parallelOptions.setInterchange(tiling.interchange);
  scf::SCFTileAndFuseOptions fuseOptions;
  fuseOptions.setTilingOptions(parallelOptions);
  // Nothing is fused here; the initial value's producer follows below.
  fuseOptions.setFusionControlFn(
      [](tensor::ExtractSliceOp, OpResult,
         bool) -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        return std::nullopt;
      });
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTileAndFuseResult> tiled =
      scf::tileConsumerAndFuseProducersUsingSCF(
          rewriter, cast<TilingInterface>(op.getOperation()), fuseOptions);
  if (failed(tiled))
    return failure();
  Value init = op.getDpsInitOperand(0)->get();
  for (OpResult result : op->getResults())
    if (Value replacement = tiled->replacements.lookup(result))
      rewriter.replaceAllUsesWith(result, replacement);
  if (op->use_empty())
    rewriter.eraseOp(op);
  // The register tiles are independent: fuse-cpu-outline-parallel may
  // spread these loops over threads.
  for (LoopLikeOpInterface loop : tiled->loops) {
    loops.push_back(loop);
    FuseDialect::ParallelTilesAttrHelper(context).setAttr(
        loop, UnitAttr::get(context));
  }
  auto tiledOp = cast<TilingInterface>(tiled->tiledAndFusedOps.front());
  // The producer of the initial value (a zero fill, a broadcast bias: all
  // parallel, read by nothing else) is computed per tile, so the
  // accumulators start from it instead of from memory it wrote.
  // (Under reduction blocks the initial value is the blocks' carried
  // output and stays outside.)
  auto producer = init.getDefiningOp<linalg::LinalgOp>();
  auto initSlice = cast<linalg::LinalgOp>(tiledOp.getOperation())
                       .getDpsInitOperand(0)
                       ->get()
                       .getDefiningOp<tensor::ExtractSliceOp>();
  if (!blocked && initSlice && producer &&
      producer.getNumReductionLoops() == 0 && producer->getNumResults() == 1 &&
      init.hasOneUse()) {
    SmallVector<LoopLikeOpInterface> loopLikes(tiled->loops);
    rewriter.setInsertionPoint(initSlice);
    (void)scf::tileAndFuseProducerOfSlice(rewriter, initSlice, loopLikes);
  }

  if (failed(tileReductions(rewriter, tiledOp, tiling.reduction, loops)))
    return failure();
  return success();
}

struct FuseCpuVectorizePass
    : public fuse::impl::FuseCpuVectorizeBase<FuseCpuVectorizePass> {
  using FuseCpuVectorizeBase::FuseCpuVectorizeBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    MLIRContext *context = &getContext();
    if (mr < 1 || nr < 1 || kc < 1 || panelBytes < 0) {
      func.emitError() << "fuse-cpu-vectorize: options 'mr', 'nr' and 'kc' "
                          "must be at least 1 and 'panel-bytes' at least 0, "
                          "got "
                       << mr.getValue() << ", " << nr.getValue() << ", "
                       << kc.getValue() << " and " << panelBytes.getValue();
      return signalPassFailure();
    }
    // A reference build keeps its loops.
    if (FuseDialect::NoVectorizeAttrHelper(context).isAttrPresent(func))
      return;
    std::vector<std::pair<linalg::LinalgOp, RegisterTiling>> contractions;
    func.walk([&](linalg::LinalgOp op) {
      if (std::optional<RegisterTiling> tiling =
              registerTilingOf(op, mr, nr, kc, panelBytes))
        contractions.emplace_back(op, *tiling);
    });
    if (contractions.empty())
      return;

    IRRewriter rewriter(context);
    SmallVector<Operation *> loops;
    for (auto &[op, tiling] : contractions) {
      // A tiling that fails leaves the op as it was (it lowers to loops).
      SmallVector<Operation *> opLoops;
      if (failed(tileContraction(rewriter, op, tiling, opLoops)))
        continue;
      loops.append(opLoops);
    }

    // Every op inside the register-tile loops to vectors (a convolution's
    // tile first as a product).
    llvm::SmallPtrSet<Operation *, 16> tileLoops(loops.begin(), loops.end());
    SmallVector<linalg::LinalgOp> toVectorize;
    func.walk([&](linalg::LinalgOp op) {
      for (Operation *parent = op->getParentOp(); parent;
           parent = parent->getParentOp())
        if (tileLoops.contains(parent)) {
          toVectorize.push_back(op);
          return;
        }
    });
    for (linalg::LinalgOp &op : toVectorize) {
      if (!isDecomposableConvolution(op))
        continue;
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::LinalgOp> product =
          convolutionTileToProduct(rewriter, op);
      if (succeeded(product))
        op = *product;
    }
    for (linalg::LinalgOp op : toVectorize) {
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::VectorizationResult> result = linalg::vectorize(
          rewriter, op, /*inputVectorSizes=*/{}, /*inputScalableVecDims=*/{},
          /*vectorizeNDExtract=*/false, /*flatten1DDepthwiseConv=*/false,
          /*assumeDynamicDimsMatchVecSizes=*/false,
          /*createNamedContraction=*/true);
      if (failed(result))
        continue;
      rewriter.replaceOp(op, result->replacements);
    }

    // Clean up, fold reductions into contractions, and keep the
    // accumulators in registers through the reduction loops.
    {
      RewritePatternSet patterns(context);
      // Broadcasting reads become a read and a broadcast, which the
      // contraction takes into its indexing maps (a matrix product).
      vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
      vector::populateVectorReductionToContractPatterns(patterns);
      vector::populateVectorTransferDropUnitDimsPatterns(patterns);
      vector::populateDropUnitDimWithShapeCastPatterns(patterns);
      vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
      vector::populateVectorToVectorCanonicalizationPatterns(patterns);
      tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(patterns);
      scf::ForOp::getCanonicalizationPatterns(patterns, context);
      tensor::ExtractSliceOp::getCanonicalizationPatterns(patterns, context);
      tensor::InsertSliceOp::getCanonicalizationPatterns(patterns, context);
      vector::TransferReadOp::getCanonicalizationPatterns(patterns, context);
      vector::TransferWriteOp::getCanonicalizationPatterns(patterns, context);
      if (failed(applyPatternsGreedily(func, std::move(patterns))))
        return signalPassFailure();
    }
    // Innermost loops first, so an accumulator climbs out of every
    // reduction loop.
    SmallVector<scf::ForOp> forOps;
    func.walk([&](scf::ForOp loop) { forOps.push_back(loop); });
    for (scf::ForOp loop : forOps)
      hoistLoopInvariantSubsets(rewriter,
                                cast<LoopLikeOpInterface>(loop.getOperation()));
  }
};

} // namespace
