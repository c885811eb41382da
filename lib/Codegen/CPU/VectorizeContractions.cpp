//===- VectorizeContractions.cpp - register-blocked CPU contractions ------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// fuse-cpu-vectorize: each contraction on tensors becomes a loop nest over
// MR x NR register tiles whose reduction runs on vector accumulators.
//
//===----------------------------------------------------------------------===//

#include "fuse/Codegen/CPU/Passes.h"

#include "PackedWeights.h"

#include "fuse/Codegen/CostModel/CpuSchedule.h"

#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "fuse/Dialect/Fuse/Utils/ConstantData.h"
#include "fuse/Dialect/Fuse/Utils/Describe.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"

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
#include "llvm/Support/FormatVariadic.h"

#include <cstring>

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSECPUVECTORIZE
#include "fuse/Codegen/CPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

bool isPooling(Operation *op) {
  return isa<linalg::PoolingNhwcMaxOp, linalg::PoolingNhwcMinOp,
             linalg::PoolingNhwcSumOp>(op);
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
  bool depthwise = isa<linalg::DepthwiseConv2DNhwcHwcOp>(op);
  bool pooling = isPooling(op);
  // 16-bit operands: the convolution over input channels (a matmul of its
  // slices, whose payload extends them) and max/min pooling (exact in
  // 16 bits); a depthwise one keeps its loops.
  if (!isDecomposableConvolution(op) ||
      !(hasStaticF32Tensors(op) ||
        (!depthwise && !pooling && hasStaticSixteenBitProduct(op)) ||
        hasStaticSixteenBitExtremum(op)))
    return failure();
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
        rewriter, loc,
        RankedTensorType::get(
            shape, cast<RankedTensorType>(source.getType()).getElementType()),
        source, zeros, getAsIndexOpFoldResult(context, sizes),
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

/// The epilogue of contraction `op`: the chain of elementwise ops after it
/// that its result (then each one's) feeds alone, element for element (an
/// all-parallel linalg.generic with one result whose maps for that operand
/// and its output are identities over the same static shape; its other
/// inputs any projected permutations: a per-channel bias or scale, a
/// residual). Their register tiles can run on the accumulators.
SmallVector<linalg::GenericOp> epilogueOf(linalg::LinalgOp op) {
  SmallVector<linalg::GenericOp> chain;
  Value current = op->getResult(0);
  auto type = dyn_cast<RankedTensorType>(current.getType());
  if (!type)
    return chain;
  while (current.hasOneUse()) {
    auto user = dyn_cast<linalg::GenericOp>(*current.getUsers().begin());
    if (!user || user->getBlock() != op->getBlock() ||
        user->getNumResults() != 1 || user.getNumDpsInits() != 1 ||
        user.getNumLoops() != type.getRank() ||
        user.getNumParallelLoops() != user.getNumLoops() ||
        user->getResult(0).getType() != type)
      break;
    bool elementwise = true;
    for (OpOperand &operand : user->getOpOperands()) {
      AffineMap map = user.getMatchingIndexingMap(&operand);
      auto operandType = dyn_cast<RankedTensorType>(operand.get().getType());
      if (!operandType || !operandType.hasStaticShape() ||
          !map.isProjectedPermutation() ||
          ((operand.get() == current || user.isDpsInit(&operand)) &&
           !map.isIdentity()))
        elementwise = false;
    }
    // The contraction's value must be read once, as an input.
    if (!elementwise ||
        llvm::count_if(user->getOperands(),
                       [&](Value v) { return v == current; }) != 1 ||
        user.getDpsInitOperand(0)->get() == current)
      break;
    chain.push_back(user);
    current = user->getResult(0);
  }
  return chain;
}

/// Tiles `op` into its register tiles with its initial value's producer
/// (a zero fill, a broadcast bias: all parallel, read by nothing else)
/// fused, so the accumulators start from it instead of from memory it
/// wrote; with an epilogue `chain`, the chain's last op is the tiled root
/// and the chain and `op` are fused into its tiles too, so the epilogue
/// runs on the accumulators and each output element is stored once. Then
/// `op`'s reduction loops. The tile loops are appended to `loops`.
LogicalResult tileRegisterTiles(RewriterBase &rewriter, linalg::LinalgOp op,
                                ArrayRef<linalg::GenericOp> chain,
                                const RegisterTiling &tiling,
                                SmallVectorImpl<Operation *> &loops) {
  MLIRContext *context = op->getContext();
  Operation *root = chain.empty() ? op.getOperation() : chain.back();
  SmallVector<int64_t> sizes = tiling.parallel;
  SmallVector<int64_t> interchange = tiling.interchange;
  if (!chain.empty()) {
    // The root's loops are the output's dimensions: loop d is the
    // contraction's loop out(d).
    AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    sizes.clear();
    interchange.clear();
    llvm::DenseMap<unsigned, int64_t> dimOfLoop;
    for (auto [d, expr] : llvm::enumerate(out.getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      if (!dim)
        return failure();
      sizes.push_back(tiling.parallel[dim.getPosition()]);
      dimOfLoop[dim.getPosition()] = int64_t(d);
    }
    for (int64_t loop : tiling.interchange)
      if (auto it = dimOfLoop.find(unsigned(loop)); it != dimOfLoop.end())
        interchange.push_back(it->second);
    if (interchange.size() != sizes.size())
      return failure();
  }
  llvm::SmallPtrSet<Operation *, 8> fused;
  for (linalg::GenericOp link : chain)
    fused.insert(link);
  fused.insert(op);
  // (Under reduction blocks the initial value is the blocks' carried
  // output: no producer here.)
  Operation *initProducer = op.getDpsInitOperand(0)->get().getDefiningOp();
  if (auto producer = dyn_cast_or_null<linalg::LinalgOp>(initProducer))
    if (producer.getNumReductionLoops() == 0 &&
        producer->getNumResults() == 1 && producer->getResult(0).hasOneUse())
      fused.insert(producer);
  scf::SCFTilingOptions parallelOptions;
  parallelOptions.setTileSizes(asIndexAttrs(context, sizes));
  parallelOptions.setInterchange(interchange);
  scf::SCFTileAndFuseOptions fuseOptions;
  fuseOptions.setTilingOptions(parallelOptions);
  fuseOptions.setFusionControlFn(
      [&](tensor::ExtractSliceOp, OpResult producer,
          bool) -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        if (!fused.contains(producer.getOwner()))
          return std::nullopt;
        return scf::SCFTileAndFuseOptions::ControlFnResult{
            /*yieldProducerReplacement=*/false};
      });
  rewriter.setInsertionPoint(root);
  FailureOr<scf::SCFTileAndFuseResult> tiled =
      scf::tileConsumerAndFuseProducersUsingSCF(
          rewriter, cast<TilingInterface>(root), fuseOptions);
  if (failed(tiled))
    return failure();
  // The tiled contraction: the one tiled op of its kind that reduces.
  Operation *tiledOp = nullptr;
  for (Operation *candidate : tiled->tiledAndFusedOps)
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(candidate);
        linalgOp && linalgOp.getNumReductionLoops() > 0 &&
        candidate->getName() == op->getName())
      tiledOp = candidate;
  if (!tiledOp) {
    // Nothing uses the new loops yet.
    rewriter.eraseOp(tiled->loops.front());
    return failure();
  }
  rewriter.replaceAllUsesWith(root->getResult(0),
                              tiled->replacements.lookup(root->getResult(0)));
  // The originals, now unused but for the slices of them fusion left
  // unread: the chain from its end, the contraction, its initial value
  // (so that its weights are read by the tiles alone).
  auto eraseIfUnused = [&](Operation *original) {
    for (Operation *user : llvm::make_early_inc_range(original->getUsers()))
      if (isa<tensor::ExtractSliceOp>(user) && user->use_empty())
        rewriter.eraseOp(user);
    if (original->use_empty())
      rewriter.eraseOp(original);
  };
  for (linalg::GenericOp link : llvm::reverse(chain))
    eraseIfUnused(link);
  eraseIfUnused(op);
  if (initProducer && fused.contains(initProducer))
    eraseIfUnused(initProducer);
  // The register tiles are independent: fuse-cpu-outline-parallel may
  // spread these loops over threads.
  for (LoopLikeOpInterface loop : tiled->loops) {
    loops.push_back(loop);
    FuseDialect::ParallelTilesAttrHelper(context).setAttr(
        loop, UnitAttr::get(context));
  }
  return tileReductions(rewriter, tiledOp, tiling.reduction, loops);
}

/// The smallest column panel packed into a contiguous copy (smaller ones
/// stay in L1 whatever their layout).
constexpr int64_t kMinPackedPanelBytes = 16 * 1024;
/// The fewest column blocks whose panels are packed. A packed column block
/// is one task of fuse-cpu-outline-parallel (its copy runs before all its
/// row tiles), where an unpacked one's row tiles are tasks of their own:
/// with fewer blocks the threads would have too little to share.
constexpr int64_t kMinPackedColumnBlocks = 8;

/// Whether `slice` reads memory that is not contiguous in its source: some
/// dimension after the first one it takes more than one element of is cut.
bool isStridedSlice(tensor::ExtractSliceOp slice) {
  ArrayRef<int64_t> source = slice.getSourceType().getShape();
  ArrayRef<int64_t> sizes = slice.getStaticSizes();
  if (ShapedType::isDynamicShape(source) || ShapedType::isDynamicShape(sizes))
    return false;
  auto first = llvm::find_if(sizes, [](int64_t s) { return s > 1; });
  for (auto d = std::distance(sizes.begin(), first) + 1;
       d < int64_t(sizes.size()); ++d)
    if (sizes[d] != source[d])
      return true;
  return false;
}

/// Whether `value` is a multiple of `size` whatever the loops' values: a
/// constant that is, an scf.for induction variable whose start and step
/// are, or an affine.apply of such values whose sums and products keep
/// it.
bool isMultipleOf(OpFoldResult value, int64_t size);

bool isMultipleOf(AffineExpr expr, ValueRange dims, ValueRange symbols,
                  int64_t size) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return constant.getValue() % size == 0;
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return isMultipleOf(OpFoldResult(dims[dim.getPosition()]), size);
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
    return isMultipleOf(OpFoldResult(symbols[symbol.getPosition()]), size);
  auto binary = cast<AffineBinaryOpExpr>(expr);
  if (expr.getKind() == AffineExprKind::Add)
    return isMultipleOf(binary.getLHS(), dims, symbols, size) &&
           isMultipleOf(binary.getRHS(), dims, symbols, size);
  if (expr.getKind() == AffineExprKind::Mul) {
    auto factor = dyn_cast<AffineConstantExpr>(binary.getRHS());
    return (factor && factor.getValue() % size == 0) ||
           isMultipleOf(binary.getLHS(), dims, symbols, size);
  }
  return false;
}

bool isMultipleOf(OpFoldResult value, int64_t size) {
  if (size == 1)
    return true;
  if (std::optional<int64_t> constant = getConstantIntValue(value))
    return *constant % size == 0;
  auto v = cast<Value>(value);
  if (scf::ForOp loop = scf::getForInductionVarOwner(v)) {
    std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    return lb && step && *lb % size == 0 && *step % size == 0;
  }
  if (auto apply = v.getDefiningOp<affine::AffineApplyOp>()) {
    AffineMap map = apply.getAffineMap();
    ValueRange operands = apply.getMapOperands();
    return map.getNumResults() == 1 &&
           isMultipleOf(map.getResult(0), operands.take_front(map.getNumDims()),
                        operands.drop_front(map.getNumDims()), size);
  }
  return false;
}

/// How fuse-cpu-vectorize packs the column panels of one function's
/// constant weights (each recorded in its `fuse.relayouts`).
struct PackedPanels {
  /// Whether constant weights are packed (else only run-time copies).
  bool enabled = true;
  /// The contraction being tiled, as the records name it.
  std::string op;
  /// Numbers the packed constants' blobs.
  unsigned counter = 0;
};

/// Packs the weights whose panel `slice` reads when they are constant: a
/// constant of this function, or an argument every call passes a constant
/// for (`fuse.constant_arguments`), read directly or through one slice with
/// unit strides (a reduction block's), and read nowhere else. They are laid
/// out in tiles of the panel's shape, one after the other (tiledShape), so
/// each panel is contiguous, and the slice reads its tile. A constant of
/// the function is replaced now; an argument is packed by a linalg.generic
/// at the function's start, marked `fuse.pack_argument`, which
/// fuse-cpu-pack-weights then replaces by packing the callers' constants.
/// Each tile must be whole: every dimension is either read whole from 0 or
/// cut into equal tiles at offsets that are multiples of the tile size
/// (proved from the loops). Returns whether it packed.
bool packConstantPanel(RewriterBase &rewriter, func::FuncOp func,
                       tensor::ExtractSliceOp slice, PackedPanels &packed) {
  if (!slice.hasUnitStride())
    return false;
  SmallVector<OpFoldResult> outerOffsets;
  tensor::ExtractSliceOp outer;
  Value source = slice.getSource();
  if (auto producer = source.getDefiningOp<tensor::ExtractSliceOp>()) {
    if (!producer.hasUnitStride() || !source.hasOneUse() ||
        producer.getResultType().getRank() !=
            producer.getSourceType().getRank())
      return false;
    outer = producer;
    outerOffsets = producer.getMixedOffsets();
    source = producer.getSource();
  }
  if (!source.hasOneUse())
    return false;
  auto constant = source.getDefiningOp<arith::ConstantOp>();
  auto argument = dyn_cast<BlockArgument>(source);
  if (argument) {
    DenseI64ArrayAttr constants =
        FuseDialect::ConstantArgumentsAttrHelper(rewriter.getContext())
            .getAttr(func);
    if (argument.getOwner() != &func.getBody().front() || !constants ||
        !llvm::is_contained(constants.asArrayRef(),
                            int64_t(argument.getArgNumber())))
      return false;
  } else if (!constant) {
    return false;
  }
  auto sourceType = dyn_cast<RankedTensorType>(source.getType());
  if (!sourceType || !sourceType.hasStaticShape() ||
      !sourceType.getElementType().isIntOrFloat() ||
      sourceType.getElementTypeBitWidth() % 8 != 0)
    return false;
  ArrayRef<int64_t> shape = sourceType.getShape();
  ArrayRef<int64_t> sizes = slice.getStaticSizes();
  SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
  int64_t rank = shape.size();
  if (int64_t(sizes.size()) != rank || ShapedType::isDynamicShape(sizes))
    return false;
  // Per dimension: read whole, or cut into tiles of the slice's size.
  for (int64_t d = 0; d < rank; ++d) {
    SmallVector<OpFoldResult> parts = {offsets[d]};
    if (outer)
      parts.push_back(outerOffsets[d]);
    if (sizes[d] == shape[d]) {
      if (llvm::any_of(parts, [](OpFoldResult p) { return !isZeroInteger(p); }))
        return false;
      continue;
    }
    if (sizes[d] <= 0 || shape[d] % sizes[d] != 0 ||
        llvm::any_of(
            parts, [&](OpFoldResult p) { return !isMultipleOf(p, sizes[d]); }))
      return false;
  }
  SmallVector<int64_t> tiled = fuse::detail::tiledShape(shape, sizes);
  auto type = RankedTensorType::get(tiled, sourceType.getElementType());
  MLIRContext *context = rewriter.getContext();
  Value panels;
  if (constant) {
    std::string blob = llvm::formatv("fuse_panels_{0}", packed.counter++);
    ElementsAttr attr = fuse::detail::packConstantTiles(source, sizes, blob);
    if (!attr)
      return false;
    rewriter.setInsertionPoint(constant);
    panels = arith::ConstantOp::create(rewriter, constant.getLoc(),
                                       cast<TypedAttr>(attr));
    recordPackedWeights(func, packed.op, shape, tiled,
                        sourceType.getNumElements() *
                            sourceType.getElementTypeBitWidth() / 8);
  } else {
    // packed[t..., i...] = argument[t * size + i, ...]: an input map that
    // is no permutation, an identity output.
    rewriter.setInsertionPointToStart(&func.getBody().front());
    Location loc = func.getLoc();
    SmallVector<AffineExpr> reads;
    for (int64_t d = 0; d < rank; ++d)
      reads.push_back(getAffineDimExpr(d, context) * sizes[d] +
                      getAffineDimExpr(rank + d, context));
    SmallVector<AffineMap> maps = {
        AffineMap::get(2 * rank, 0, reads, context),
        AffineMap::getMultiDimIdentityMap(2 * rank, context)};
    Value empty =
        tensor::EmptyOp::create(rewriter, loc, tiled, type.getElementType());
    auto pack = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{source}, ValueRange{empty},
        maps,
        SmallVector<utils::IteratorType>(2 * rank,
                                         utils::IteratorType::parallel),
        [](OpBuilder &b, Location bodyLoc, ValueRange args) {
          linalg::YieldOp::create(b, bodyLoc, args[0]);
        });
    FuseDialect::PackArgumentAttrHelper(context).setAttr(
        pack, StringAttr::get(context, packed.op));
    panels = pack->getResult(0);
  }

  // The slice of its tile: each dimension's offset over the tile size.
  Location loc = slice.getLoc();
  rewriter.setInsertionPoint(slice);
  AffineExpr s0 = getAffineSymbolExpr(0, context);
  AffineExpr s1 = getAffineSymbolExpr(1, context);
  SmallVector<OpFoldResult> tileOffsets, tileSizes;
  for (int64_t d = 0; d < rank; ++d) {
    tileOffsets.push_back(
        outer ? affine::makeComposedFoldedAffineApply(
                    rewriter, loc, (s0 + s1).floorDiv(sizes[d]),
                    {offsets[d], outerOffsets[d]})
              : affine::makeComposedFoldedAffineApply(
                    rewriter, loc, s0.floorDiv(sizes[d]), {offsets[d]}));
    tileSizes.push_back(rewriter.getIndexAttr(1));
  }
  for (int64_t d = 0; d < rank; ++d) {
    tileOffsets.push_back(rewriter.getIndexAttr(0));
    tileSizes.push_back(rewriter.getIndexAttr(sizes[d]));
  }
  SmallVector<OpFoldResult> unitStrides(2 * rank, rewriter.getIndexAttr(1));
  auto tile = tensor::ExtractSliceOp::create(
      rewriter, loc, slice.getResultType(), panels, tileOffsets, tileSizes,
      unitStrides);
  rewriter.replaceOp(slice, tile.getResult());
  if (outer && outer->use_empty())
    rewriter.eraseOp(outer);
  if (constant && constant->use_empty())
    rewriter.eraseOp(constant);
  return true;
}

/// Packs the column panels: each operand slice that all register tiles of
/// one column block read (a panel of the weights, NR columns of every
/// reduction point: the slice of a tensor defined outside the loops whose
/// place depends only on the column block) and that is strided in its
/// source. A row of the weights' panel is a few cache lines, one row of
/// the source apart: with a source row of a multiple of 4 KiB (BERT's 3072
/// columns: 12 KiB) every row of the panel maps to the same few cache
/// sets, so the panel falls out of L1 and L2 between the row tiles that
/// reuse it; packed, it is consecutive lines.
///
/// A panel of constant weights is packed at compile time
/// (packConstantPanel), whatever its size. Any other is copied, at the
/// start of the column block, into a contiguous tensor the tiles then
/// read, a row (one vector read and write of NR elements) at a time;
/// slices under kMinPackedPanelBytes fit in L1 either way and are left
/// alone, and so are the panels of fewer than kMinPackedColumnBlocks
/// column blocks.
void packColumnPanels(RewriterBase &rewriter, func::FuncOp func,
                      scf::ForOp columns, PackedPanels &packed) {
  // A loop of one iteration inside (a batch of one) runs at its start.
  columns.getBody()->walk([&](scf::ForOp loop) {
    std::optional<APInt> trips = loop.getStaticTripCount();
    if (trips && trips->getSExtValue() == 1)
      rewriter.replaceAllUsesWith(loop.getInductionVar(), loop.getLowerBound());
  });
  // Hoist what does not depend on the row tiles (the panel's slice and its
  // offsets) out of every loop inside the column block, innermost first.
  columns.getBody()->walk(
      [&](LoopLikeOpInterface loop) { moveLoopInvariantCode(loop); });
  std::optional<APInt> blocks = columns.getStaticTripCount();
  bool copyPanels = blocks && blocks->getSExtValue() >= kMinPackedColumnBlocks;
  SmallVector<tensor::ExtractSliceOp> panels;
  for (auto slice : columns.getBody()->getOps<tensor::ExtractSliceOp>()) {
    RankedTensorType type = slice.getResultType();
    if (!columns.isDefinedOutsideOfLoop(slice.getSource()) ||
        !type.hasStaticShape() || type.getRank() < 2 ||
        !type.getElementType().isIntOrFloat() || !isStridedSlice(slice))
      continue;
    // Read by an inner loop (the row tiles), not by the column block alone.
    bool readInLoops = llvm::any_of(slice->getUsers(), [&](Operation *user) {
      return user->getParentOp() != columns.getOperation();
    });
    if (readInLoops)
      panels.push_back(slice);
  }
  for (tensor::ExtractSliceOp slice : panels) {
    if (packed.enabled && packConstantPanel(rewriter, func, slice, packed))
      continue;
    RankedTensorType type = slice.getResultType();
    int64_t bytes = type.getNumElements() *
                    std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
    if (!copyPanels || bytes < kMinPackedPanelBytes)
      continue;
    Location loc = slice.getLoc();
    rewriter.setInsertionPointAfter(slice);
    Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                          type.getElementType());
    auto copy = linalg::CopyOp::create(rewriter, loc, slice.getResult(), empty);
    rewriter.replaceUsesWithIf(
        slice.getResult(), copy->getResult(0),
        [&](OpOperand &use) { return use.getOwner() != copy.getOperation(); });
    // One row at a time: every dimension but the innermost tiled by 1.
    SmallVector<int64_t> rowSizes(type.getRank(), 1);
    rowSizes.back() = 0;
    scf::SCFTilingOptions options;
    options.setTileSizes(asIndexAttrs(rewriter.getContext(), rowSizes));
    rewriter.setInsertionPoint(copy);
    FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
        rewriter, cast<TilingInterface>(copy.getOperation()), options);
    if (succeeded(tiled))
      rewriter.replaceOp(copy, tiled->replacements);
  }
}

/// Tiles `op` into register tiles (with its elementwise epilogue, which
/// then runs on the accumulators, where it has one and the reduction is
/// not in cache blocks), then its reduction loops; returns the loops
/// holding the vectorizable ops. The column panels (a block's, under cache
/// blocks) are then packed where it pays (packColumnPanels); those packed
/// at compile time are recorded in `packed`.
LogicalResult tileContraction(RewriterBase &rewriter, linalg::LinalgOp op,
                              const RegisterTiling &tiling,
                              SmallVectorImpl<Operation *> &loops,
                              PackedPanels &packed) {
  packed.op = describeOp(op);
  // The register tiles' loops start at loops[first]: the outermost walks
  // the column blocks (the tiling's interchange).
  size_t first;
  if (llvm::any_of(tiling.blocks, [](int64_t b) { return b; })) {
    // Reduction blocks first: the output is their loops' carried value, so
    // its initial value stays outside them (computed once), and the
    // accumulators are final only after the last block.
    FailureOr<Operation *> blockedOp =
        tileReductions(rewriter, op, tiling.blocks, loops);
    if (failed(blockedOp))
      return failure();
    first = loops.size();
    if (failed(tileRegisterTiles(rewriter, cast<linalg::LinalgOp>(*blockedOp),
                                 {}, tiling, loops)))
      return failure();
  } else {
    SmallVector<linalg::GenericOp> chain = epilogueOf(op);
    first = loops.size();
    if (chain.empty() ||
        failed(tileRegisterTiles(rewriter, op, chain, tiling, loops))) {
      first = loops.size();
      if (failed(tileRegisterTiles(rewriter, op, {}, tiling, loops)))
        return failure();
    }
  }
  // The column blocks' loop: the first register-tile loop of more than one
  // iteration (a loop of one that holds the next comes first).
  for (size_t i = first; i < loops.size(); ++i) {
    auto loop = dyn_cast<scf::ForOp>(loops[i]);
    if (!loop)
      break;
    std::optional<APInt> trips = loop.getStaticTripCount();
    if (trips && trips->getSExtValue() == 1 && i + 1 < loops.size() &&
        loops[i + 1]->getParentOp() == loop.getOperation())
      continue;
    packColumnPanels(rewriter, loop->getParentOfType<func::FuncOp>(), loop,
                     packed);
    break;
  }
  return success();
}

struct FuseCpuVectorizePass
    : public fuse::impl::FuseCpuVectorizeBase<FuseCpuVectorizePass> {
  using FuseCpuVectorizeBase::FuseCpuVectorizeBase;

  CpuTargetAttr requestedTarget, defaultTarget;

  LogicalResult initialize(MLIRContext *context) override {
    if (mr == 0 || mr < -1 || nr == 0 || nr < -1 || kc == 0 || kc < -1 ||
        panelBytes < -1)
      return emitOptionError(context, getArgument())
             << "options 'mr', 'nr' and 'kc' must be at least 1 and "
                "'panel-bytes' at least 0 (-1: from the CPU target), got "
             << mr.getValue() << ", " << nr.getValue() << ", " << kc.getValue()
             << " and " << panelBytes.getValue();
    FailureOr<CpuTargetAttr> cpu =
        parseCpuTargetOption(context, cpuTarget, getArgument());
    if (failed(cpu))
      return failure();
    requestedTarget = *cpu;
    defaultTarget = CpuTargetAttr::getPreset(context, kDefaultCpuTargetPreset);
    return success();
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    MLIRContext *context = &getContext();
    // A reference build keeps its loops.
    if (FuseDialect::NoVectorizeAttrHelper(context).isAttrPresent(func))
      return;
    // The bounds: the option's CPU target, else the module's, else the
    // default preset; each size option replaces its bound.
    CpuTargetAttr carried;
    if (auto module = func->getParentOfType<ModuleOp>())
      carried = FuseDialect::CpuTargetAttrHelper(context).getAttr(module);
    CpuTargetAttr target = requestedTarget ? requestedTarget : carried;
    if (!target)
      target = defaultTarget;
    CpuTileBounds bounds = cpuTileBounds(target);
    // Another CPU than the groups' schedules were chosen for, or a size
    // option: the bounds decide.
    bool overridden = mr > 0 || nr > 0 || kc > 0 || panelBytes >= 0 ||
                      (requestedTarget && requestedTarget != carried);
    if (mr > 0)
      bounds.mr = mr;
    if (nr > 0)
      bounds.nr = nr;
    if (kc > 0)
      bounds.kc = kc;
    if (panelBytes >= 0) {
      bounds.panelBytes = panelBytes;
      bounds.blockBytes = panelBytes / 8;
    }
    // The schedule the configuration step chose for the group this
    // function was made from, for its primary contraction (options
    // override it).
    CpuScheduleAttr schedule;
    if (auto config =
            FuseDialect::LoweringConfigAttrHelper(context).getAttr(func))
      schedule = config.getCpu();
    linalg::LinalgOp primary;
    if (schedule && !overridden && schedule.getKind() != "loops")
      primary = primaryCpuContraction(func);
    std::vector<std::pair<linalg::LinalgOp, RegisterTiling>> contractions;
    bool failedAny = false;
    func.walk([&](linalg::LinalgOp op) {
      // A filter fuse-relayout-weights left as FHWC (not a constant) has
      // no 1-D form: loops.
      if (isa<linalg::Conv2DNhwcFhwcOp>(op.getOperation()))
        return;
      if (op == primary) {
        std::string why;
        FailureOr<RegisterTiling> tiling =
            registerTilingFrom(op, schedule, why);
        if (failed(tiling)) {
          op->emitError() << "fuse-cpu-vectorize: the group's CPU schedule "
                          << Attribute(schedule)
                          << " does not fit this op: " << why;
          failedAny = true;
          return;
        }
        contractions.emplace_back(op, *tiling);
        return;
      }
      if (std::optional<RegisterTiling> tiling = registerTilingOf(op, bounds))
        contractions.emplace_back(op, *tiling);
    });
    if (failedAny)
      return signalPassFailure();
    if (contractions.empty())
      return;

    IRRewriter rewriter(context);
    SmallVector<Operation *> loops;
    PackedPanels packed;
    packed.enabled = packConstants;
    for (auto &[op, tiling] : contractions) {
      // A tiling that fails leaves the op as it was (it lowers to loops).
      SmallVector<Operation *> opLoops;
      if (failed(tileContraction(rewriter, op, tiling, opLoops, packed)))
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
