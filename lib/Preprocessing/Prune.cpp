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

/// A depthwise convolution with channel multiplier 1 whose result is only
/// collapsed from [N, H, W, C, 1] to [N, H, W, C] (what TOSA's lowering
/// writes) becomes `depthwise_conv_2d_nhwc_hwc` on the collapsed filter and
/// init: the reshape between the convolution and its bias and activation
/// goes, so they fuse into its kernel as an epilogue.
struct DropDepthwiseMultiplier
    : OpRewritePattern<linalg::DepthwiseConv2DNhwcHwcmOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::DepthwiseConv2DNhwcHwcmOp op,
                                PatternRewriter &rewriter) const override {
    auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!resultType || !resultType.hasStaticShape() ||
        resultType.getDimSize(4) != 1 || !op->hasOneUse())
      return failure();
    auto collapse = dyn_cast<tensor::CollapseShapeOp>(*op->getUsers().begin());
    SmallVector<ReassociationIndices> channels = {{0}, {1}, {2}, {3, 4}};
    if (!collapse || collapse.getReassociationIndices() != channels)
      return failure();
    Location loc = op.getLoc();
    Value filter = op.getDpsInputOperand(1)->get();
    auto filterType = dyn_cast<RankedTensorType>(filter.getType());
    if (!filterType || filterType.getRank() != 4)
      return failure();
    Value filter3d = tensor::CollapseShapeOp::create(
        rewriter, loc, filter,
        SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}});
    Value init = tensor::CollapseShapeOp::create(
        rewriter, loc, op.getDpsInitOperand(0)->get(), channels);
    auto conv = linalg::DepthwiseConv2DNhwcHwcOp::create(
        rewriter, loc, collapse.getResultType(),
        ValueRange{op.getDpsInputOperand(0)->get(), filter3d}, ValueRange{init},
        op.getStrides(), op.getDilations());
    rewriter.replaceOp(collapse, conv->getResults());
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
    if (op.getNumResults() != 1 || op.getNumReductionLoops() != 0)
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
    owning.add<RemoveTosaIdentity, DropDepthwiseMultiplier>(context);
    patterns = std::make_shared<FrozenRewritePatternSet>(std::move(owning));
    return success();
  }

  void runOnOperation() override {
    if (failed(applyPatternsGreedily(getOperation(), *patterns)))
      getOperation()->emitWarning()
          << "fuse-prune did not converge; the IR is valid but may not be "
             "fully pruned";
  }

  std::shared_ptr<const FrozenRewritePatternSet> patterns;
};
} // namespace
