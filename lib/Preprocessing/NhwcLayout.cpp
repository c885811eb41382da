//===- NhwcLayout.cpp - channels-last layout for NCHW linalg --------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// NCHW convolutions and pools become their NHWC forms between transposes,
// and the transposes back to NCHW move below the elementwise ops that read
// them (into the reductions that read them), where they meet the next
// convolution's transpose to NHWC and cancel.
//
//===----------------------------------------------------------------------===//

#include "fuse/Dialect/Fuse/Utils/ConstantData.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "fuse/Preprocessing/Passes.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSENHWCLAYOUT
#include "fuse/Preprocessing/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

/// NCHW -> NHWC, and back.
constexpr int64_t kToNhwc[] = {0, 2, 3, 1};
constexpr int64_t kToNchw[] = {0, 3, 1, 2};

RankedTensorType permutedType(RankedTensorType type, ArrayRef<int64_t> perm) {
  SmallVector<int64_t> shape;
  for (int64_t d : perm)
    shape.push_back(type.getDimSize(d));
  return RankedTensorType::get(shape, type.getElementType());
}

/// linalg.transpose of `v` by `perm` (dimension k of the result is
/// dimension perm[k] of `v`).
Value transpose(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> perm) {
  auto type = permutedType(cast<RankedTensorType>(v.getType()), perm);
  Value empty =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  return linalg::TransposeOp::create(b, loc, v, empty, perm)->getResult(0);
}

/// `v` permuted by `perm`: a constant permuted at compile time (a
/// dense_resource blob stays one), anything else transposed.
Value permuteOperand(OpBuilder &b, Location loc, Value v,
                     ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(v.getType());
  std::optional<fuse::detail::ConstantData> data =
      fuse::detail::getConstantData(v);
  int64_t count = type.getNumElements();
  if (!data || count == 0 || data->bytes.size() % count != 0)
    return transpose(b, loc, v, perm);
  size_t bytes = data->bytes.size() / count;
  RankedTensorType out = permutedType(type, perm);
  int64_t rank = type.getRank();
  // Strides of the source, in elements, taken in the result's order.
  SmallVector<int64_t> srcStrides(rank, 1), stride(rank);
  for (int64_t d = rank - 2; d >= 0; --d)
    srcStrides[d] = srcStrides[d + 1] * type.getDimSize(d + 1);
  for (int64_t k = 0; k < rank; ++k)
    stride[k] = srcStrides[perm[k]];
  std::vector<char> permuted(data->bytes.size());
  SmallVector<int64_t> index(rank, 0);
  for (int64_t n = 0; n < count; ++n) {
    int64_t src = 0;
    for (int64_t k = 0; k < rank; ++k)
      src += index[k] * stride[k];
    std::memcpy(permuted.data() + n * bytes, data->bytes.data() + src * bytes,
                bytes);
    for (int64_t k = rank - 1; k >= 0; --k) {
      if (++index[k] < out.getDimSize(k))
        break;
      index[k] = 0;
    }
  }
  ElementsAttr attr = fuse::detail::makeElementsAttr(
      out, permuted, data->fromResource, "nhwc_filter");
  return arith::ConstantOp::create(b, loc, attr);
}

bool isStatic(Operation *op) {
  return llvm::all_of(op->getOperandTypes(), [](Type t) {
    auto ranked = dyn_cast<RankedTensorType>(t);
    return ranked && ranked.hasStaticShape();
  });
}

/// The map from loops in NHWC order to loops in NCHW order (loop k of the
/// old order is loop kToNchw[k] of the new one).
AffineMap nhwcLoops(MLIRContext *ctx) {
  SmallVector<AffineExpr> exprs;
  for (int64_t d : kToNchw)
    exprs.push_back(getAffineDimExpr(d, ctx));
  return AffineMap::get(4, 0, exprs, ctx);
}

/// A generic that only computes a value from its inputs (rank 4, every loop
/// parallel, one result written by the identity, its init not read): a
/// bias broadcast, as torch-mlir gives a convolution its initial value.
bool computesFromInputs(linalg::GenericOp op) {
  if (op.getNumResults() != 1 || op.getNumLoops() != 4 || !isStatic(op) ||
      !op.hasPureTensorSemantics() ||
      op.getNumParallelLoops() != op.getNumLoops())
    return false;
  OpOperand &out = op.getDpsInitsMutable()[0];
  return op.getMatchingIndexingMap(&out).isIdentity() &&
         !op.payloadUsesValueFromOperand(&out);
}

/// The init of an op moved to NHWC: a fill of an empty tensor (or an empty
/// tensor) made again in the new shape; a generic that computes it from
/// its inputs alone (computesFromInputs) and that nothing else reads
/// computes it in NHWC instead (its loops renamed); anything else
/// transposed.
Value nhwcInit(OpBuilder &b, Location loc, Value init) {
  auto type = permutedType(cast<RankedTensorType>(init.getType()), kToNhwc);
  auto empty = [&] {
    return tensor::EmptyOp::create(b, loc, type.getShape(),
                                   type.getElementType())
        .getResult();
  };
  if (init.getDefiningOp<tensor::EmptyOp>())
    return empty();
  if (auto fill = init.getDefiningOp<linalg::FillOp>())
    if (fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>())
      return linalg::FillOp::create(b, loc, fill.getInputs(),
                                    ValueRange{empty()})
          .getResult(0);
  auto producer = init.getDefiningOp<linalg::GenericOp>();
  if (producer && init.hasOneUse() && computesFromInputs(producer)) {
    AffineMap sigma = nhwcLoops(b.getContext());
    SmallVector<AffineMap> maps;
    for (OpOperand *in : producer.getDpsInputOperands())
      maps.push_back(producer.getMatchingIndexingMap(in).compose(sigma));
    maps.push_back(AffineMap::getMultiDimIdentityMap(4, b.getContext()));
    auto renamed = linalg::GenericOp::create(
        b, producer.getLoc(), TypeRange{type}, producer.getInputs(),
        ValueRange{empty()}, maps, producer.getIteratorTypesArray());
    IRMapping mapping;
    producer.getRegion().cloneInto(&renamed.getRegion(), mapping);
    renamed.walk(
        [&](linalg::IndexOp index) { index.setDim(kToNchw[index.getDim()]); });
    return renamed.getResult(0);
  }
  return transpose(b, loc, init, kToNhwc);
}

/// An NCHW convolution or pool as its NHWC form: the input transposed to
/// NHWC, a convolution's filter permuted from FCHW to FHWC (a pool's
/// window tensor only gives the window's shape), the result transposed
/// back.
template <typename NchwOp, typename NhwcOp>
struct ToNhwc : OpRewritePattern<NchwOp> {
  using OpRewritePattern<NchwOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(NchwOp op,
                                PatternRewriter &rewriter) const override {
    if (!isStatic(op) || !op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "not static tensors");
    Location loc = op.getLoc();
    constexpr bool isConv = std::is_same_v<NhwcOp, linalg::Conv2DNhwcFhwcOp>;
    Value input = transpose(rewriter, loc, op.getInputs()[0], kToNhwc);
    Value second = op.getInputs()[1];
    if (isConv)
      second = permuteOperand(rewriter, loc, second, kToNhwc);
    Value init = nhwcInit(rewriter, loc, op.getOutputs()[0]);
    auto nhwc = NhwcOp::create(
        rewriter, loc, TypeRange{init.getType()}, ValueRange{input, second},
        ValueRange{init},
        {rewriter.getNamedAttr("strides", op.getStridesAttr()),
         rewriter.getNamedAttr("dilations", op.getDilationsAttr())});
    rewriter.replaceOp(op, transpose(rewriter, loc, nhwc->getResult(0),
                                     ArrayRef<int64_t>(kToNchw)));
    return success();
  }
};

/// The linalg.transpose to NCHW that `v` is, if it is one.
linalg::TransposeOp nchwTranspose(Value v) {
  auto t = v.getDefiningOp<linalg::TransposeOp>();
  if (!t || t.getPermutation() != ArrayRef<int64_t>(kToNchw))
    return {};
  return t;
}

/// `map` reading a transpose to NCHW, as a map reading its NHWC source:
/// the same point, its results in the source's order (result d of the new
/// map is result kToNhwc[d] of `map`).
AffineMap readThroughTranspose(AffineMap map) {
  SmallVector<AffineExpr> results;
  for (int64_t d : kToNhwc)
    results.push_back(map.getResult(d));
  return AffineMap::get(map.getNumDims(), map.getNumSymbols(), results,
                        map.getContext());
}

/// An elementwise generic (rank 4, every loop parallel, every result written
/// by the identity) that reads a transpose to NCHW by the identity: the
/// transpose can move below it.
bool canSink(linalg::GenericOp op) {
  if (op.getNumLoops() != 4 || !isStatic(op) || !op.hasPureTensorSemantics() ||
      op.getNumParallelLoops() != op.getNumLoops())
    return false;
  for (OpOperand &out : op.getDpsInitsMutable())
    if (!op.getMatchingIndexingMap(&out).isIdentity())
      return false;
  return llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *in) {
    return nchwTranspose(in->get()) &&
           op.getMatchingIndexingMap(in).isIdentity();
  });
}

/// Moves a transpose to NCHW below the elementwise generic that reads it
/// (canSink): the generic's loops renamed into NHWC order (loop k of the
/// old order is loop kToNchw[k] of the new one), every transpose to NCHW
/// it reads replaced by its source, every other operand read through its
/// map composed with the renaming; its results made in NHWC (an init the
/// payload reads transposed to NHWC) and transposed back.
struct SinkThroughElementwise : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!canSink(op))
      return rewriter.notifyMatchFailure(op, "no NCHW transpose to sink");
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    // sigma: new loops (NHWC order) -> old loops (NCHW order).
    AffineMap sigma = nhwcLoops(ctx);
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    for (OpOperand *in : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(in).compose(sigma);
      if (linalg::TransposeOp t = nchwTranspose(in->get())) {
        inputs.push_back(t.getInput());
        maps.push_back(readThroughTranspose(map));
        continue;
      }
      inputs.push_back(in->get());
      maps.push_back(map);
    }
    SmallVector<Value> inits;
    for (OpOperand &out : op.getDpsInitsMutable()) {
      inits.push_back(op.payloadUsesValueFromOperand(&out)
                          ? transpose(rewriter, loc, out.get(), kToNhwc)
                          : nhwcInit(rewriter, loc, out.get()));
      maps.push_back(AffineMap::getMultiDimIdentityMap(4, ctx));
    }
    auto renamed = linalg::GenericOp::create(
        rewriter, loc, ValueRange(inits).getTypes(), inputs, inits, maps,
        op.getIteratorTypesArray());
    rewriter.inlineRegionBefore(op.getRegion(), renamed.getRegion(),
                                renamed.getRegion().begin());
    renamed.walk(
        [&](linalg::IndexOp index) { index.setDim(kToNchw[index.getDim()]); });
    SmallVector<Value> results;
    for (Value r : renamed.getResults())
      results.push_back(transpose(rewriter, loc, r, kToNchw));
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// Any other generic that reads a transpose to NCHW (a reduction, a
/// broadcast, an elementwise op reading it through another map) reads its
/// NHWC source through the permuted map: no transpose of its own.
struct FoldTransposeRead : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || canSink(op) ||
        llvm::none_of(op.getDpsInputOperands(), [](OpOperand *in) {
          return bool(nchwTranspose(in->get()));
        }))
      return rewriter.notifyMatchFailure(op, "no transpose read to fold");
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    rewriter.modifyOpInPlace(op, [&] {
      for (OpOperand *in : op.getDpsInputOperands()) {
        linalg::TransposeOp t = nchwTranspose(in->get());
        if (!t)
          continue;
        unsigned k = in->getOperandNumber();
        maps[k] = readThroughTranspose(maps[k]);
        in->set(t.getInput());
      }
      op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    });
    return success();
  }
};

/// transpose(transpose(x, p), q) = transpose(x, p o q), or x.
struct ComposeTransposes : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<linalg::TransposeOp>();
    if (!inner || !op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "not a transpose of one");
    ArrayRef<int64_t> p = inner.getPermutation(), q = op.getPermutation();
    SmallVector<int64_t> composed;
    bool identity = true;
    for (int64_t k = 0, e = q.size(); k < e; ++k) {
      composed.push_back(p[q[k]]);
      identity &= composed.back() == k;
    }
    if (identity) {
      rewriter.replaceOp(op, inner.getInput());
      return success();
    }
    rewriter.replaceOp(
        op, transpose(rewriter, op.getLoc(), inner.getInput(), composed));
    return success();
  }
};

/// A static slice of a transpose to NCHW is the transpose of the slice of
/// its NHWC source (offsets and sizes permuted), so the transpose moves on
/// towards the elementwise ops that read the slice: the per-branch
/// epilogues of merged convolutions.
struct SinkThroughExtractSlice : OpRewritePattern<tensor::ExtractSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ExtractSliceOp op,
                                PatternRewriter &rewriter) const override {
    linalg::TransposeOp t = nchwTranspose(op.getSource());
    if (!t || op.getType().getRank() != 4 || !op.hasUnitStride() ||
        ShapedType::isDynamicShape(op.getStaticOffsets()) ||
        ShapedType::isDynamicShape(op.getStaticSizes()))
      return rewriter.notifyMatchFailure(op, "not a static slice of one");
    SmallVector<OpFoldResult> offsets, sizes;
    SmallVector<OpFoldResult> strides(4, rewriter.getIndexAttr(1));
    for (int64_t d : kToNhwc) {
      offsets.push_back(rewriter.getIndexAttr(op.getStaticOffsets()[d]));
      sizes.push_back(rewriter.getIndexAttr(op.getStaticSizes()[d]));
    }
    Value slice = tensor::ExtractSliceOp::create(
        rewriter, op.getLoc(), t.getInput(), offsets, sizes, strides);
    rewriter.replaceOp(op, transpose(rewriter, op.getLoc(), slice, kToNchw));
    return success();
  }
};

/// A concatenation of transposes to NCHW is the transpose of the
/// concatenation of their NHWC sources (along the permuted dimension).
struct SinkThroughConcat : OpRewritePattern<tensor::ConcatOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ConcatOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<Value> sources;
    for (Value input : op.getInputs()) {
      linalg::TransposeOp t = nchwTranspose(input);
      if (!t)
        return rewriter.notifyMatchFailure(op, "an input is not a transpose");
      sources.push_back(t.getInput());
    }
    // Dimension k of a transpose to NCHW is dimension kToNchw[k] of its
    // source.
    int64_t dim = kToNchw[op.getDim()];
    Value concat =
        tensor::ConcatOp::create(rewriter, op.getLoc(), dim, sources);
    rewriter.replaceOp(op, transpose(rewriter, op.getLoc(), concat, kToNchw));
    return success();
  }
};

struct NhwcLayoutPass : public fuse::impl::FuseNhwcLayoutBase<NhwcLayoutPass> {
  void runOnOperation() override {
    // The rewrite driver walks every op: only where there is work (a
    // 10^6-op graph imported channels last has none).
    WalkResult found = getOperation().walk([](Operation *op) {
      if (isa<linalg::Conv2DNchwFchwOp, linalg::PoolingNchwMaxOp,
              linalg::PoolingNchwSumOp>(op))
        return WalkResult::interrupt();
      if (op->getNumResults() == 1 && nchwTranspose(op->getResult(0)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (!found.wasInterrupted())
      return;
    RewritePatternSet patterns(&getContext());
    patterns.add<ToNhwc<linalg::Conv2DNchwFchwOp, linalg::Conv2DNhwcFhwcOp>,
                 ToNhwc<linalg::PoolingNchwMaxOp, linalg::PoolingNhwcMaxOp>,
                 ToNhwc<linalg::PoolingNchwSumOp, linalg::PoolingNhwcSumOp>,
                 SinkThroughElementwise, SinkThroughExtractSlice,
                 SinkThroughConcat, FoldTransposeRead, ComposeTransposes>(
        &getContext());
    // A rewrite that did not converge leaves valid IR; nothing to report.
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));
  }
};

} // namespace
