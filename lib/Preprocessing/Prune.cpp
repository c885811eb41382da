//===- Prune.cpp - the fuse-prune pass ------------------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Preprocessing/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEPRUNE
#include "fuse/Preprocessing/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

/// tosa.identity (ONNX Identity, inference Dropout) forwards its input.
struct RemoveTosaIdentity : OpRewritePattern<tosa::IdentityOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::IdentityOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getInput1().getType() != op.getType())
      return failure();
    rewriter.replaceOp(op, op.getInput1());
    return success();
  }
};

/// Whether `op` is an all-parallel linalg.generic with one input and one
/// init, both read by the identity, whose result has one use: a conversion
/// of every element (a 16-bit model's f32 sum rounded back).
static bool isElementwiseConversion(Operation *op) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  return generic && generic.getNumDpsInputs() == 1 &&
         generic.getNumDpsInits() == 1 && generic->hasOneUse() &&
         generic.getNumLoops() == generic.getNumParallelLoops() &&
         llvm::all_of(generic.getIndexingMapsArray(),
                      [](AffineMap m) { return m.isIdentity(); }) &&
         !generic.payloadUsesValueFromOperand(generic.getDpsInitOperand(0));
}

/// A depthwise convolution with channel multiplier 1 whose result is only
/// collapsed from [N, H, W, C, 1] to [N, H, W, C] (what TOSA's lowering
/// writes), or only converted elementwise and then collapsed (a 16-bit
/// model's f32 sums rounded back), becomes `depthwise_conv_2d_nhwc_hwc` on
/// the collapsed filter and init (the conversion on the collapsed result):
/// the reshape between the convolution and its bias and activation goes,
/// so they fuse into its kernel as an epilogue.
struct DropDepthwiseMultiplier
    : OpRewritePattern<linalg::DepthwiseConv2DNhwcHwcmOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::DepthwiseConv2DNhwcHwcmOp op,
                                PatternRewriter &rewriter) const override {
    auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!resultType || !resultType.hasStaticShape() ||
        resultType.getDimSize(4) != 1 || !op->hasOneUse())
      return failure();
    Operation *user = *op->getUsers().begin();
    auto convert = isElementwiseConversion(user) ? cast<linalg::GenericOp>(user)
                                                 : linalg::GenericOp();
    if (convert)
      user = *convert->getUsers().begin();
    auto collapse = dyn_cast<tensor::CollapseShapeOp>(user);
    SmallVector<ReassociationIndices> channels = {{0}, {1}, {2}, {3, 4}};
    if (!collapse || collapse.getReassociationIndices() != channels)
      return failure();
    Location loc = op.getLoc();
    Value filter = op.getDpsInputOperand(1)->get();
    auto filterType = dyn_cast<RankedTensorType>(filter.getType());
    if (!filterType || filterType.getRank() != 4)
      return failure();
    // Where every operand (the conversion's init too) is defined.
    rewriter.setInsertionPoint(collapse);
    Value filter3d = tensor::CollapseShapeOp::create(
        rewriter, loc, filter,
        SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}});
    Value init = tensor::CollapseShapeOp::create(
        rewriter, loc, op.getDpsInitOperand(0)->get(), channels);
    auto convType = RankedTensorType::get(collapse.getResultType().getShape(),
                                          resultType.getElementType());
    auto conv = linalg::DepthwiseConv2DNhwcHwcOp::create(
        rewriter, loc, convType,
        ValueRange{op.getDpsInputOperand(0)->get(), filter3d}, ValueRange{init},
        op.getStrides(), op.getDilations());
    if (!convert) {
      rewriter.replaceOp(collapse, conv->getResults());
      rewriter.eraseOp(op);
      return success();
    }
    // The conversion, the same payload over the collapsed shape.
    Value convertInit = tensor::CollapseShapeOp::create(
        rewriter, loc, convert.getDpsInitOperand(0)->get(), channels);
    auto identity = rewriter.getMultiDimIdentityMap(4);
    auto converted = linalg::GenericOp::create(
        rewriter, loc, TypeRange{collapse.getResultType()},
        ValueRange{conv->getResult(0)}, ValueRange{convertInit},
        SmallVector<AffineMap>{identity, identity},
        SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel));
    rewriter.cloneRegionBefore(convert.getRegion(), converted.getRegion(),
                               converted.getRegion().end());
    rewriter.replaceOp(collapse, converted->getResults());
    rewriter.eraseOp(convert);
    rewriter.eraseOp(op);
    return success();
  }
};

/// Evaluates an all-parallel linalg.generic whose inputs are constants, by
/// folding its payload element by element, and replaces it with the
/// constant result. Any payload op that does not fold stops the rewrite.
struct FoldConstantGeneric : OpRewritePattern<linalg::GenericOp> {
  FoldConstantGeneric(MLIRContext *context, int64_t maxElements)
      : OpRewritePattern(context), maxElements(maxElements) {}

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    // The cheapest test first, on every generic of a large graph: all its
    // inputs constants (operand ranges and indexing maps only after it).
    if (op.getNumResults() != 1 || op.getInputs().empty() ||
        !llvm::all_of(op.getInputs(),
                      [](Value v) { return matchPattern(v, m_Constant()); }))
      return failure();
    if (op.getNumReductionLoops() != 0)
      return failure();
    auto resultType = dyn_cast<RankedTensorType>(op.getResult(0).getType());
    if (!resultType || !resultType.hasStaticShape() ||
        resultType.getNumElements() > maxElements ||
        !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity() ||
        op.payloadUsesValueFromOperand(op.getDpsInitOperand(0)))
      return failure();
    SmallVector<DenseElementsAttr> inputs;
    for (OpOperand *input : op.getDpsInputOperands()) {
      DenseElementsAttr value;
      if (!matchPattern(input->get(), m_Constant(&value)) ||
          !op.getMatchingIndexingMap(input).isProjectedPermutation(
              /*allowZeroInResults=*/true))
        return failure();
      inputs.push_back(value);
    }
    if (inputs.empty())
      return failure();
    // Folding a broadcast would trade a small constant for a large one that
    // the kernel then has to read: keep those.
    int64_t largestInput = 0;
    for (DenseElementsAttr input : inputs)
      largestInput = std::max<int64_t>(largestInput, input.getNumElements());
    if (resultType.getNumElements() > largestInput)
      return failure();
    Block *body = op.getBlock();
    ArrayRef<int64_t> shape = resultType.getShape();
    SmallVector<int64_t> index(shape.size(), 0);
    SmallVector<Attribute> results;
    results.reserve(resultType.getNumElements());
    llvm::DenseMap<Value, Attribute> values;
    for (int64_t n = 0; n < resultType.getNumElements(); ++n) {
      values.clear();
      for (auto [i, input] : llvm::enumerate(inputs)) {
        AffineMap map = op.getMatchingIndexingMap(op.getDpsInputOperand(i));
        SmallVector<uint64_t> at;
        for (int64_t v : map.compose(index))
          at.push_back(v);
        values[body->getArgument(i)] = input.isSplat()
                                           ? input.getSplatValue<Attribute>()
                                           : input.getValues<Attribute>()[at];
      }
      for (Operation &payload : body->without_terminator()) {
        if (auto indexOp = dyn_cast<linalg::IndexOp>(payload)) {
          values[indexOp] = rewriter.getIndexAttr(index[indexOp.getDim()]);
          continue;
        }
        SmallVector<Attribute> operands;
        for (Value operand : payload.getOperands()) {
          Attribute attr = values.lookup(operand);
          if (!attr && !matchPattern(operand, m_Constant(&attr)))
            return failure();
          operands.push_back(attr);
        }
        SmallVector<OpFoldResult> folded;
        if (payload.getNumResults() != 1 ||
            failed(payload.fold(operands, folded)) || folded.size() != 1)
          return failure();
        auto attr = dyn_cast<Attribute>(folded.front());
        if (!attr)
          return failure();
        values[payload.getResult(0)] = attr;
      }
      Value yielded = body->getTerminator()->getOperand(0);
      Attribute result = values.lookup(yielded);
      if (!result && !matchPattern(yielded, m_Constant(&result)))
        return failure();
      results.push_back(result);
      // Next index, last dimension fastest.
      for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
        if (++index[d] < shape[d])
          break;
        index[d] = 0;
      }
    }
    auto folded = DenseElementsAttr::get(resultType, results);
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, folded);
    return success();
  }

  int64_t maxElements;
};

/// The value a chain of tensor.expand_shape / tensor.collapse_shape ops
/// starts from.
static Value reshapeSource(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (auto expand = dyn_cast<tensor::ExpandShapeOp>(def))
      v = expand.getSrc();
    else if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(def))
      v = collapse.getSrc();
    else
      break;
  }
  return v;
}

/// Whether `v` is a linalg op's result, or a slice of one (a merged
/// contraction's part).
static bool fromLinalg(Value v) {
  if (auto slice = v.getDefiningOp<tensor::ExtractSliceOp>())
    v = slice.getSource();
  return v.getDefiningOp<linalg::LinalgOp>() != nullptr;
}

/// `shape` without its unit dimensions: a reshape that only adds or drops
/// those (a reduction's [N, 1] view) changes no grouping worth moving.
static SmallVector<int64_t> withoutUnitDims(ArrayRef<int64_t> shape) {
  return llvm::to_vector(
      llvm::make_filter_range(shape, [](int64_t d) { return d != 1; }));
}

/// The coarsest grouping two static shapes of one element count share:
/// contiguous dimension ranges of `a` and of `b`, pairwise of equal
/// products (trailing unit dimensions join the last range).
static std::optional<std::pair<SmallVector<ReassociationIndices>,
                               SmallVector<ReassociationIndices>>>
commonGroups(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  if (llvm::any_of(a, [](int64_t d) { return d <= 0; }) ||
      llvm::any_of(b, [](int64_t d) { return d <= 0; }))
    return std::nullopt;
  SmallVector<ReassociationIndices> ga, gb;
  int64_t i = 0, j = 0, na = a.size(), nb = b.size();
  while (i < na && j < nb) {
    ReassociationIndices ra{i}, rb{j};
    int64_t pa = a[i++], pb = b[j++];
    while (pa != pb) {
      if (pa < pb) {
        if (i == na)
          return std::nullopt;
        pa *= a[i];
        ra.push_back(i++);
      } else {
        if (j == nb)
          return std::nullopt;
        pb *= b[j];
        rb.push_back(j++);
      }
    }
    ga.push_back(ra);
    gb.push_back(rb);
  }
  for (; i < na; ++i) {
    if (a[i] != 1 || ga.empty())
      return std::nullopt;
    ga.back().push_back(i);
  }
  for (; j < nb; ++j) {
    if (b[j] != 1 || gb.empty())
      return std::nullopt;
    gb.back().push_back(j);
  }
  if (ga.empty())
    return std::nullopt;
  return std::make_pair(ga, gb);
}

/// `v` of a shape grouped by `from` reshaped to the shape grouped by `to`
/// (one collapse to the common groups, one expand to `type`).
static Value regroup(PatternRewriter &rewriter, Location loc, Value v,
                     ArrayRef<ReassociationIndices> from,
                     ArrayRef<ReassociationIndices> to, RankedTensorType type) {
  auto trivial = [](ArrayRef<ReassociationIndices> groups) {
    return llvm::all_of(
        groups, [](const ReassociationIndices &g) { return g.size() == 1; });
  };
  if (!trivial(from))
    v = tensor::CollapseShapeOp::create(rewriter, loc, v, from);
  if (!trivial(to))
    v = tensor::ExpandShapeOp::create(rewriter, loc, type, v, to);
  return v;
}

/// An elementwise linalg.generic that reads a reshape of another linalg
/// op's result or of a slice of one (a batch matmul's [1, B*S, N] viewed as
/// [B, S, N], as ONNX MatMul imports, then its bias add) runs in that
/// shape instead, and
/// the reshape moves below it: the elementwise op then reads its producer
/// directly, which is what the epilogue rules need. Operands in the
/// generic's shape are regrouped the same way; broadcast operands may only
/// index dimensions the reshape leaves alone. A reshape that only adds or
/// drops unit dimensions stays (the loop depth rules rely on it); one that
/// only moves them, keeping the rank (a torch export's [1, S, 3D] viewed as
/// [S, 1, 3D] before its bias), sinks. A generic
/// that already reads
/// a linalg op's result directly keeps that adjacency, so the rewrite
/// moves a reshape down a chain of elementwise ops and never back.
struct SinkReshapeBelowElementwise : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    // The cheapest test first, on every generic of a large graph: an input
    // that is a reshape.
    if (op.getNumResults() != 1 || op.getOutputs().size() != 1 ||
        llvm::none_of(op.getInputs(),
                      [](Value v) { return reshapeSource(v) != v; }))
      return failure();
    if (op.getNumReductionLoops() != 0 || op.hasIndexSemantics())
      return failure();
    OpOperand *init = op.getDpsInitOperand(0);
    auto type = dyn_cast<RankedTensorType>(op.getResult(0).getType());
    if (!type || !type.hasStaticShape() ||
        !op.getMatchingIndexingMap(init).isIdentity() ||
        op.payloadUsesValueFromOperand(init))
      return failure();
    Value reshaped, source;
    for (OpOperand *input : op.getDpsInputOperands()) {
      Value v = input->get();
      Value from = reshapeSource(v);
      if (from == v) {
        // Read directly from a linalg op: keep that adjacency.
        if (fromLinalg(v))
          return failure();
        continue;
      }
      auto fromType = dyn_cast<RankedTensorType>(from.getType());
      if (!reshaped && fromLinalg(from) && fromType &&
          fromType.hasStaticShape() &&
          (withoutUnitDims(fromType.getShape()) !=
               withoutUnitDims(type.getShape()) ||
           (fromType.getRank() == type.getRank() &&
            fromType.getShape() != type.getShape())) &&
          op.getMatchingIndexingMap(input).isIdentity())
        reshaped = v, source = from;
    }
    if (!reshaped)
      return failure();
    auto sourceType = cast<RankedTensorType>(source.getType());
    auto groups = commonGroups(sourceType.getShape(), type.getShape());
    if (!groups)
      return failure();
    auto &[gs, gt] = *groups;
    // A dimension of the generic that one dimension of the source keeps.
    int64_t rank = sourceType.getRank();
    DenseMap<unsigned, unsigned> kept;
    for (auto [s, t] : llvm::zip(gs, gt))
      if (s.size() == 1 && t.size() == 1)
        kept[t.front()] = s.front();
    // Only unit dimensions move: the other dimensions pair up in order,
    // and a unit dimension of the generic is index 0 of any operand.
    bool unitMove = withoutUnitDims(sourceType.getShape()) ==
                    withoutUnitDims(type.getShape());
    if (unitMove)
      for (int64_t t = 0, src = 0; t < type.getRank(); ++t) {
        if (type.getDimSize(t) == 1)
          continue;
        while (sourceType.getDimSize(src) == 1)
          ++src;
        kept[t] = src++;
      }
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    for (OpOperand *input : op.getDpsInputOperands()) {
      Value v = input->get();
      AffineMap map = op.getMatchingIndexingMap(input);
      if (v == reshaped) {
        inputs.push_back(source);
        maps.push_back(rewriter.getMultiDimIdentityMap(rank));
        continue;
      }
      auto vType = dyn_cast<RankedTensorType>(v.getType());
      if (map.isIdentity() && vType && vType.getShape() == type.getShape()) {
        inputs.push_back(regroup(rewriter, op.getLoc(), v, gt, gs,
                                 sourceType.clone(vType.getElementType())));
        maps.push_back(rewriter.getMultiDimIdentityMap(rank));
        continue;
      }
      SmallVector<AffineExpr> exprs;
      for (AffineExpr e : map.getResults()) {
        if (auto c = dyn_cast<AffineConstantExpr>(e); c && c.getValue() == 0) {
          exprs.push_back(e);
          continue;
        }
        auto d = dyn_cast<AffineDimExpr>(e);
        if (d && unitMove && type.getDimSize(d.getPosition()) == 1) {
          exprs.push_back(rewriter.getAffineConstantExpr(0));
          continue;
        }
        if (!d || !kept.count(d.getPosition()))
          return failure();
        exprs.push_back(rewriter.getAffineDimExpr(kept[d.getPosition()]));
      }
      inputs.push_back(v);
      maps.push_back(AffineMap::get(rank, 0, exprs, rewriter.getContext()));
    }
    maps.push_back(rewriter.getMultiDimIdentityMap(rank));
    auto resultType = sourceType.clone(type.getElementType());
    Value empty =
        tensor::EmptyOp::create(rewriter, op.getLoc(), resultType.getShape(),
                                resultType.getElementType());
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    auto sunk =
        linalg::GenericOp::create(rewriter, op.getLoc(), resultType, inputs,
                                  ValueRange{empty}, maps, iterators);
    rewriter.cloneRegionBefore(op.getRegion(), sunk.getRegion(),
                               sunk.getRegion().end());
    rewriter.replaceOp(
        op, regroup(rewriter, op.getLoc(), sunk.getResult(0), gs, gt, type));
    return success();
  }
};

/// One spatial axis of a convolution over a zero-padded input: which kernel
/// taps read some input element (not only padding), and the input window
/// the kept taps need.
struct TapRange {
  int64_t first = 0, count = 0;
  /// The kept taps' window: `crop` rows of the source skipped, `length`
  /// kept, `low`/`high` zero rows around them.
  int64_t crop = 0, length = 0, low = 0, high = 0;
};

/// The taps of an axis of `in` source rows padded by `padLow` in front,
/// read by `out` output rows with `stride` and `dilation`, over `kernel`
/// taps; nullopt where every tap reads the source somewhere or none does.
static std::optional<TapRange> liveTaps(int64_t in, int64_t padLow, int64_t out,
                                        int64_t stride, int64_t dilation,
                                        int64_t kernel) {
  int64_t first = -1, last = -1;
  for (int64_t k = 0; k < kernel; ++k) {
    // The first output row whose read, o * stride + k * dilation - padLow,
    // is not before the source; the tap is live if that read is in it.
    int64_t start = padLow - k * dilation;
    int64_t o = start <= 0 ? 0 : llvm::divideCeil(start, stride);
    if (o < out && o * stride + k * dilation - padLow < in) {
      first = first < 0 ? k : first;
      last = k;
    }
  }
  if (first < 0 || (first == 0 && last == kernel - 1))
    return std::nullopt;
  TapRange r;
  r.first = first;
  r.count = last - first + 1;
  int64_t shifted = padLow - first * dilation;
  r.crop = std::max<int64_t>(0, -shifted);
  r.low = std::max<int64_t>(0, shifted);
  int64_t need = (out - 1) * stride + (r.count - 1) * dilation + 1;
  r.length = std::min(in - r.crop, need - r.low);
  r.high = need - r.low - r.length;
  return r;
}

/// A convolution over a zero-padded NHWC input whose outer kernel taps
/// read only padding for every output point (a dilated convolution whose
/// rate exceeds the map: DeepLab's ASPP at rates 24 and 36 on a 16x16 map
/// reads the input only through its centre tap) keeps only the taps that
/// read the input: the filter is sliced, the padding (and the source)
/// trimmed to what those taps read. A rate-36 3x3 convolution becomes a
/// 1x1 one: no padded copy, and a plain GEMM for the tensor cores.
template <typename ConvOp, int KH, int KW>
struct DropPaddingOnlyTaps : OpRewritePattern<ConvOp> {
  using OpRewritePattern<ConvOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvOp op,
                                PatternRewriter &rewriter) const override {
    auto pad =
        op.getDpsInputOperand(0)->get().template getDefiningOp<tensor::PadOp>();
    if (!pad)
      return failure();
    Value padValue = pad.getConstantPaddingValue();
    if (!padValue || !(matchPattern(padValue, m_AnyZeroFloat()) ||
                       matchPattern(padValue, m_Zero())))
      return failure();
    Value filter = op.getDpsInputOperand(1)->get();
    auto source = dyn_cast<RankedTensorType>(pad.getSource().getType());
    auto filterType = dyn_cast<RankedTensorType>(filter.getType());
    auto outType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!source || !filterType || !outType || !source.hasStaticShape() ||
        !filterType.hasStaticShape() || !outType.hasStaticShape() ||
        source.getRank() != 4)
      return failure();
    ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
    if (llvm::any_of(low, ShapedType::isDynamic) ||
        llvm::any_of(high, ShapedType::isDynamic) || low[0] || low[3] ||
        high[0] || high[3])
      return failure();
    SmallVector<int64_t> strides(op.getStrides().template getValues<int64_t>());
    SmallVector<int64_t> dilations(
        op.getDilations().template getValues<int64_t>());
    std::optional<TapRange> axes[2];
    int kernelDim[2] = {KH, KW};
    for (int a = 0; a < 2; ++a)
      axes[a] = liveTaps(source.getDimSize(1 + a), low[1 + a],
                         outType.getDimSize(1 + a), strides[a], dilations[a],
                         filterType.getDimSize(kernelDim[a]));
    if (!axes[0] && !axes[1])
      return failure();
    // An axis left whole keeps its taps and window.
    for (int a = 0; a < 2; ++a)
      if (!axes[a]) {
        TapRange whole;
        whole.count = filterType.getDimSize(kernelDim[a]);
        whole.length = source.getDimSize(1 + a);
        whole.low = low[1 + a];
        whole.high = high[1 + a];
        axes[a] = whole;
      }
    Location loc = op.getLoc();
    // The source rows the kept taps read, padded by what they read around
    // them.
    Value in = pad.getSource();
    SmallVector<OpFoldResult> offsets = {
        rewriter.getIndexAttr(0), rewriter.getIndexAttr(axes[0]->crop),
        rewriter.getIndexAttr(axes[1]->crop), rewriter.getIndexAttr(0)};
    SmallVector<int64_t> sizes = {source.getDimSize(0), axes[0]->length,
                                  axes[1]->length, source.getDimSize(3)};
    if (ArrayRef<int64_t>(sizes) != source.getShape())
      in = tensor::ExtractSliceOp::create(
          rewriter, loc, in, offsets,
          getAsIndexOpFoldResult(rewriter.getContext(), sizes),
          SmallVector<OpFoldResult>(4, rewriter.getIndexAttr(1)));
    SmallVector<int64_t> newLow = {0, axes[0]->low, axes[1]->low, 0};
    SmallVector<int64_t> newHigh = {0, axes[0]->high, axes[1]->high, 0};
    if (llvm::any_of(newLow, [](int64_t v) { return v; }) ||
        llvm::any_of(newHigh, [](int64_t v) { return v; })) {
      auto type =
          RankedTensorType::get({sizes[0], sizes[1] + newLow[1] + newHigh[1],
                                 sizes[2] + newLow[2] + newHigh[2], sizes[3]},
                                source.getElementType());
      in = tensor::PadOp::create(
          rewriter, loc, type, in,
          getAsIndexOpFoldResult(rewriter.getContext(), newLow),
          getAsIndexOpFoldResult(rewriter.getContext(), newHigh), padValue);
    }
    // The kept taps of the filter.
    SmallVector<OpFoldResult> filterOffsets(filterType.getRank(),
                                            rewriter.getIndexAttr(0));
    SmallVector<int64_t> filterSizes(filterType.getShape());
    for (int a = 0; a < 2; ++a) {
      filterOffsets[kernelDim[a]] = rewriter.getIndexAttr(axes[a]->first);
      filterSizes[kernelDim[a]] = axes[a]->count;
    }
    Value newFilter = tensor::ExtractSliceOp::create(
        rewriter, loc, filter, filterOffsets,
        getAsIndexOpFoldResult(rewriter.getContext(), filterSizes),
        SmallVector<OpFoldResult>(filterType.getRank(),
                                  rewriter.getIndexAttr(1)));
    // A single tap has no dilation.
    SmallVector<int64_t> newDilations = dilations;
    for (int a = 0; a < 2; ++a)
      if (axes[a]->count == 1)
        newDilations[a] = 1;
    auto conv = ConvOp::create(
        rewriter, loc, outType, ValueRange{in, newFilter},
        ValueRange{op.getDpsInitOperand(0)->get()}, op.getStrides(),
        rewriter.getI64TensorAttr(newDilations));
    rewriter.replaceOp(op, conv->getResults());
    return success();
  }
};

/// `init` made again in `shape` where it holds no data of its own: an empty
/// tensor as an empty one, an init filled into an empty tensor (the usual
/// start value) filled into one of `shape`, so that the fill stays with its
/// op. Null for any other init.
static Value remadeInit(PatternRewriter &rewriter, Location loc, Value init,
                        ArrayRef<int64_t> shape) {
  auto fill = init.getDefiningOp<linalg::FillOp>();
  bool filled = fill && fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>();
  if (!filled && !init.getDefiningOp<tensor::EmptyOp>())
    return {};
  Type elem = cast<RankedTensorType>(init.getType()).getElementType();
  Value empty = tensor::EmptyOp::create(rewriter, loc, shape, elem);
  if (!filled)
    return empty;
  return linalg::FillOp::create(rewriter, fill.getLoc(), fill.getInputs()[0],
                                empty)
      .getResult(0);
}

/// `init` (a scalar tensor) as a [1] tensor: remade (remadeInit) where it
/// holds no data of its own; any other is copied into one by an
/// elementwise generic (a reshape of a scalar the caller passes in would be
/// read on the host).
static Value unitInit(PatternRewriter &rewriter, Location loc, Value init) {
  if (Value remade = remadeInit(rewriter, loc, init, {1}))
    return remade;
  Type elem = cast<RankedTensorType>(init.getType()).getElementType();
  Value empty = tensor::EmptyOp::create(rewriter, loc, {1}, elem);
  SmallVector<AffineMap> maps = {
      AffineMap::get(1, 0, {}, rewriter.getContext()),
      rewriter.getMultiDimIdentityMap(1)};
  return linalg::GenericOp::create(
             rewriter, loc, TypeRange{empty.getType()}, ValueRange{init},
             ValueRange{empty}, maps,
             SmallVector<utils::IteratorType>{utils::IteratorType::parallel},
             [](OpBuilder &b, Location l, ValueRange args) {
               linalg::YieldOp::create(b, l, args[0]);
             })
      .getResult(0);
}

/// Each [1] result viewed back as the scalar `old` was.
static SmallVector<Value> scalarResults(PatternRewriter &rewriter, Location loc,
                                        ValueRange results, ValueRange old) {
  SmallVector<Value> scalars;
  for (auto [result, before] : llvm::zip(results, old))
    scalars.push_back(
        tensor::CollapseShapeOp::create(rewriter, loc, before.getType(), result,
                                        SmallVector<ReassociationIndices>{}));
  return scalars;
}

static bool allScalarTensors(ValueRange values) {
  return llvm::all_of(values, [](Value v) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    return type && type.getRank() == 0;
  });
}

/// A reduction of every dimension to a scalar (ReduceSum over all axes, an
/// Einsum trace) gets a leading unit dimension: the input viewed as
/// [1, ...], the init as [1], the reduction over all but the new
/// dimension, the result viewed back as a scalar. The unit dimension is a
/// parallel loop, so the GPU tiling has a tile (one block) to give it; the
/// arithmetic, and its order, are unchanged.
struct UnitDimForFullReduction : OpRewritePattern<linalg::ReduceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::ReduceOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || !allScalarTensors(op.getInits()))
      return failure();
    for (Value input : op.getInputs()) {
      auto type = dyn_cast<RankedTensorType>(input.getType());
      if (!type || type.getRank() == 0 || !type.hasStaticShape())
        return failure();
    }
    Location loc = op.getLoc();
    SmallVector<Value> inputs, inits;
    for (Value input : op.getInputs()) {
      auto type = cast<RankedTensorType>(input.getType());
      SmallVector<int64_t> shape = {1};
      llvm::append_range(shape, type.getShape());
      SmallVector<ReassociationIndices> groups = {{0, 1}};
      for (int64_t d = 2; d <= type.getRank(); ++d)
        groups.push_back({d});
      inputs.push_back(tensor::ExpandShapeOp::create(
          rewriter, loc, RankedTensorType::get(shape, type.getElementType()),
          input, groups));
    }
    for (Value init : op.getInits())
      inits.push_back(unitInit(rewriter, loc, init));
    int64_t rank = cast<RankedTensorType>(inputs.front().getType()).getRank();
    SmallVector<int64_t> dims;
    for (int64_t d = 1; d < rank; ++d)
      dims.push_back(d);
    auto reduce = linalg::ReduceOp::create(rewriter, loc, inputs, inits, dims,
                                           /*bodyBuild=*/nullptr);
    rewriter.inlineRegionBefore(op.getCombiner(), reduce.getCombiner(),
                                reduce.getCombiner().end());
    rewriter.replaceOp(op, scalarResults(rewriter, loc, reduce->getResults(),
                                         op->getResults()));
    return success();
  }
};

/// The same for a linalg.generic whose loops all reduce into scalars (an
/// ArgMax over a vector), or that has no loop at all (arithmetic on
/// scalars, such as a mean's division after its sum): a leading parallel
/// loop of one iteration, which only the outputs' maps read; the inputs'
/// maps and the body's linalg.index ops move one loop up.
struct UnitDimForFullReductionGeneric : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getNumReductionLoops() != op.getNumLoops() ||
        !op.hasPureTensorSemantics() || !allScalarTensors(op.getOutputs()))
      return failure();
    Location loc = op.getLoc();
    int64_t loops = op.getNumLoops() + 1;
    MLIRContext *context = rewriter.getContext();
    SmallVector<AffineMap> maps;
    for (OpOperand *input : op.getDpsInputOperands())
      maps.push_back(op.getMatchingIndexingMap(input).shiftDims(1));
    SmallVector<Value> inits;
    for (Value init : op.getOutputs()) {
      inits.push_back(unitInit(rewriter, loc, init));
      maps.push_back(
          AffineMap::get(loops, 0, rewriter.getAffineDimExpr(0), context));
    }
    SmallVector<utils::IteratorType> iterators = {
        utils::IteratorType::parallel};
    llvm::append_range(iterators, op.getIteratorTypesArray());
    SmallVector<Type> types;
    for (Value init : inits)
      types.push_back(init.getType());
    auto generic = linalg::GenericOp::create(
        rewriter, loc, types, op.getInputs(), inits, maps, iterators);
    rewriter.inlineRegionBefore(op.getRegion(), generic.getRegion(),
                                generic.getRegion().end());
    generic.getRegion().walk([&](linalg::IndexOp index) {
      rewriter.modifyOpInPlace(index,
                               [&] { index.setDim(index.getDim() + 1); });
    });
    rewriter.replaceOp(op, scalarResults(rewriter, loc, generic->getResults(),
                                         op->getResults()));
    return success();
  }
};

/// A linalg.generic that writes an output through a constant index (a
/// reduction keeping its reduced dimension as 1, as torch-mlir writes
/// `sum(dim, keepdim=True)`: an output map (d0, d1, d2) -> (d0, d1, 0))
/// writes that output without those dimensions, and the result is expanded
/// back to the kept shape. Tiling and fusion need outputs indexed by loops
/// alone; the arithmetic is unchanged. An init that holds no data of its
/// own is remade in the smaller shape (remadeInit); any other is collapsed.
struct DropConstantOutputIndices : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    auto isConstant = [](AffineExpr e) { return isa<AffineConstantExpr>(e); };
    auto writesThroughConstant = [&](OpOperand &init) {
      return llvm::any_of(op.getMatchingIndexingMap(&init).getResults(),
                          isConstant);
    };
    if (llvm::none_of(op.getDpsInitsMutable(), writesThroughConstant) ||
        !op.hasPureTensorSemantics())
      return failure();
    // Every constant index must be 0 into a static unit dimension, and what
    // is left a projection of the loops.
    for (OpOperand &init : op.getDpsInitsMutable()) {
      auto type = cast<RankedTensorType>(init.get().getType());
      AffineMap map = op.getMatchingIndexingMap(&init);
      for (auto [d, e] : llvm::enumerate(map.getResults()))
        if (auto c = dyn_cast<AffineConstantExpr>(e))
          if (c.getValue() != 0 || type.getDimSize(d) != 1)
            return failure();
      if (!map.dropResults(constantResults(map)).isProjectedPermutation())
        return failure();
    }
    Location loc = op.getLoc();
    SmallVector<Value> inits;
    SmallVector<AffineMap> maps;
    SmallVector<SmallVector<ReassociationIndices>> groupsOf;
    for (OpOperand *input : op.getDpsInputOperands())
      maps.push_back(op.getMatchingIndexingMap(input));
    for (OpOperand &init : op.getDpsInitsMutable()) {
      auto type = cast<RankedTensorType>(init.get().getType());
      AffineMap map = op.getMatchingIndexingMap(&init);
      llvm::SmallBitVector dropped = constantResults(map);
      SmallVector<int64_t> shape;
      SmallVector<ReassociationIndices> groups;
      // Each kept dimension starts a group; a dropped one joins the group
      // before it, or the first group where none is before it.
      for (int64_t d = 0; d < type.getRank(); ++d) {
        if (dropped.test(d)) {
          if (!groups.empty())
            groups.back().push_back(d);
          continue;
        }
        groups.push_back({});
        if (groups.size() == 1)
          for (int64_t u = 0; u < d; ++u)
            groups.back().push_back(u);
        groups.back().push_back(d);
        shape.push_back(type.getDimSize(d));
      }
      Value value = remadeInit(rewriter, loc, init.get(), shape);
      if (!value)
        value = tensor::CollapseShapeOp::create(
            rewriter, loc, RankedTensorType::get(shape, type.getElementType()),
            init.get(), groups);
      inits.push_back(value);
      maps.push_back(map.dropResults(dropped));
      groupsOf.push_back(groups);
    }
    SmallVector<Type> types;
    for (Value init : inits)
      types.push_back(init.getType());
    auto generic =
        linalg::GenericOp::create(rewriter, loc, types, op.getInputs(), inits,
                                  maps, op.getIteratorTypesArray());
    rewriter.inlineRegionBefore(op.getRegion(), generic.getRegion(),
                                generic.getRegion().end());
    SmallVector<Value> results;
    for (auto [result, before, groups] :
         llvm::zip(generic->getResults(), op->getResults(), groupsOf))
      results.push_back(tensor::ExpandShapeOp::create(
          rewriter, loc, before.getType(), result, groups));
    rewriter.replaceOp(op, results);
    return success();
  }

  static llvm::SmallBitVector constantResults(AffineMap map) {
    llvm::SmallBitVector bits(map.getNumResults());
    for (auto [d, e] : llvm::enumerate(map.getResults()))
      if (isa<AffineConstantExpr>(e))
        bits.set(d);
    return bits;
  }
};

/// A linalg.generic that only copies a splat constant into every element of
/// its result (the zero bias an importer gives a convolution without one,
/// broadcast as its initial value) is a linalg.fill of that value: nothing
/// to read, and the contraction rules see the usual start value.
struct BroadcastSplatAsFill : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getNumResults() != 1 || op.getNumDpsInputs() != 1 ||
        !op.hasPureTensorSemantics() ||
        op.getNumParallelLoops() != op.getNumLoops())
      return failure();
    auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
    if (yield.getValues()[0] != op.getBody()->getArgument(0))
      return failure();
    DenseElementsAttr splat;
    if (!matchPattern(op.getInputs()[0], m_Constant(&splat)) ||
        !splat.isSplat())
      return failure();
    OpOperand &out = op.getDpsInitsMutable()[0];
    if (!op.getMatchingIndexingMap(&out).isPermutation())
      return failure();
    Value value = arith::ConstantOp::create(rewriter, op.getLoc(),
                                            splat.getSplatValue<TypedAttr>());
    rewriter.replaceOpWithNewOp<linalg::FillOp>(op, value, out.get());
    return success();
  }
};

/// A tensor put back together from its own slices: a chain of
/// tensor.insert_slice into an empty tensor of `m`'s type, each inserting
/// the tensor.extract_slice of `m` at the same place, pairwise disjoint and
/// covering the whole tensor, is `m` (three 1x1 convolutions merged into one
/// and concatenated in the merged order). Static unit-stride slices only.
struct FoldReassembledSlices : OpRewritePattern<tensor::InsertSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::InsertSliceOp op,
                                PatternRewriter &rewriter) const override {
    auto first = op.getSource().getDefiningOp<tensor::ExtractSliceOp>();
    if (!first)
      return failure();
    Value whole = first.getSource();
    if (whole.getType() != op.getResult().getType() ||
        !cast<RankedTensorType>(whole.getType()).hasStaticShape())
      return failure();
    struct Box {
      ArrayRef<int64_t> offsets, sizes;
    };
    SmallVector<Box> boxes;
    int64_t covered = 0;
    // A concatenation's chain is as long as its inputs; a longer chain is
    // left alone rather than walked from each of its links.
    constexpr int kMaxLinks = 256;
    tensor::InsertSliceOp link = op;
    for (int n = 0; link; ++n) {
      auto slice = link.getSource().getDefiningOp<tensor::ExtractSliceOp>();
      if (n == kMaxLinks || !slice || slice.getSource() != whole ||
          ShapedType::isDynamicShape(link.getStaticOffsets()) ||
          ShapedType::isDynamicShape(link.getStaticSizes()) ||
          link.getStaticOffsets() != slice.getStaticOffsets() ||
          link.getStaticSizes() != slice.getStaticSizes() ||
          link.getStaticStrides() != slice.getStaticStrides() ||
          llvm::any_of(link.getStaticStrides(),
                       [](int64_t s) { return s != 1; }))
        return failure();
      Box box{link.getStaticOffsets(), link.getStaticSizes()};
      for (const Box &other : boxes) {
        bool apart = false;
        for (size_t d = 0; d < box.offsets.size(); ++d)
          apart |= box.offsets[d] + box.sizes[d] <= other.offsets[d] ||
                   other.offsets[d] + other.sizes[d] <= box.offsets[d];
        if (!apart)
          return failure();
      }
      boxes.push_back(box);
      covered += ShapedType::getNumElements(box.sizes);
      Value dest = link.getDest();
      if (dest.getDefiningOp<tensor::EmptyOp>())
        break;
      link = dest.getDefiningOp<tensor::InsertSliceOp>();
      if (!link)
        return failure();
    }
    if (covered != cast<RankedTensorType>(whole.getType()).getNumElements())
      return failure();
    rewriter.replaceOp(op, whole);
    return success();
  }
};

struct PrunePass : public fuse::impl::FusePruneBase<PrunePass> {
  using FusePruneBase::FusePruneBase;

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet owning(context);
    for (Dialect *dialect : context->getLoadedDialects())
      dialect->getCanonicalizationPatterns(owning);
    for (RegisteredOperationName op : context->getRegisteredOperations())
      op.getCanonicalizationPatterns(owning, context);
    int64_t limit = maxConstantFoldElements;
    linalg::populateConstantFoldLinalgOperations(owning, [limit](
                                                             OpOperand *fused) {
      auto type =
          dyn_cast<ShapedType>(fused->getOwner()->getResult(0).getType());
      return type && type.hasStaticShape() && type.getNumElements() <= limit;
    });
    owning.add<FoldConstantGeneric>(context, limit);
    // tensor.concat becomes insertions into one tensor, so that each branch
    // can write its slice (the concat_slices rule).
    tensor::populateDecomposeTensorConcatPatterns(owning);
    owning.add<RemoveTosaIdentity, DropDepthwiseMultiplier,
               SinkReshapeBelowElementwise, UnitDimForFullReduction,
               UnitDimForFullReductionGeneric, DropConstantOutputIndices,
               FoldReassembledSlices, BroadcastSplatAsFill,
               DropPaddingOnlyTaps<linalg::Conv2DNhwcFhwcOp, 1, 2>,
               DropPaddingOnlyTaps<linalg::Conv2DNhwcHwcfOp, 0, 1>,
               DropPaddingOnlyTaps<linalg::DepthwiseConv2DNhwcHwcOp, 0, 1>>(
        context);
    patterns = std::make_shared<FrozenRewritePatternSet>(std::move(owning));
    return success();
  }

  void runOnOperation() override {
    // Dead ops go as the driver meets them (and when their last user goes);
    // the whole-region simplification after every round (unreachable
    // blocks, dead block arguments) finds nothing more in a model's
    // one-block functions and was half of this pass on large graphs.
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(applyPatternsGreedily(getOperation(), *patterns, config)))
      getOperation()->emitWarning()
          << "fuse-prune did not converge; the IR is valid but may not be "
             "fully pruned";
  }

  std::shared_ptr<const FrozenRewritePatternSet> patterns;
};
} // namespace
