//===- FoldAffine.cpp - fold per-channel affine ops into contractions -----===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Dialect/Fuse/Utils/ConstantData.h"

#include "fuse/Preprocessing/Passes.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEFOLDAFFINE
#include "fuse/Preprocessing/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

/// Where a contraction keeps its weights and bias, and which output channel
/// each weight element belongs to.
struct ContractionLayout {
  unsigned weightOperand = 1;
  std::optional<unsigned> biasOperand;
  int64_t channels = 0;
  std::function<int64_t(int64_t)> channelOf;
};

/// The contractions whose weights a scale or shift folds into.
bool isFoldTarget(Operation *op) {
  return isa_and_present<tosa::Conv2DOp, tosa::Conv3DOp,
                         tosa::TransposeConv2DOp, tosa::DepthwiseConv2DOp,
                         tosa::MatMulOp>(op);
}

std::optional<ContractionLayout> getLayout(Operation *op) {
  if (!isFoldTarget(op))
    return std::nullopt;
  auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  auto weight = dyn_cast<RankedTensorType>(op->getOperand(1).getType());
  if (!result || !weight || !result.hasStaticShape() ||
      !weight.hasStaticShape() || !result.getElementType().isF32())
    return std::nullopt;
  ContractionLayout layout;
  layout.channels = result.getShape().back();
  int64_t numel = weight.getNumElements();
  int64_t channels = layout.channels;
  if (isa<tosa::Conv2DOp, tosa::Conv3DOp, tosa::TransposeConv2DOp>(op)) {
    // weight [OC, ...]: the channel is the outermost index.
    if (weight.getShape().front() != channels)
      return std::nullopt;
    int64_t inner = numel / channels;
    layout.channelOf = [inner](int64_t i) { return i / inner; };
    layout.biasOperand = 2;
  } else if (isa<tosa::DepthwiseConv2DOp>(op)) {
    // weight [KH, KW, C, M]: output channel c * M + m is the inner index.
    layout.channelOf = [channels](int64_t i) { return i % channels; };
    layout.biasOperand = 2;
  } else if (isa<tosa::MatMulOp>(op)) {
    // b [N, C, W]: the output column is the innermost index.
    layout.channelOf = [channels](int64_t i) { return i % channels; };
  } else {
    return std::nullopt;
  }
  return layout;
}

/// The values of an f32 constant (dense elements or a resource blob) as
/// doubles, and whether it came from a resource.
std::optional<std::vector<double>>
getConstantValues(Value value, bool *fromResource = nullptr) {
  std::optional<fuse::detail::ConstantData> data =
      fuse::detail::getConstantData(value);
  std::optional<std::vector<float>> floats = fuse::detail::getF32Values(value);
  if (!data || !floats)
    return std::nullopt;
  if (fromResource)
    *fromResource = data->fromResource;
  return std::vector<double>(floats->begin(), floats->end());
}

/// A constant that only varies along the last dimension, broadcast to
/// `channels` values; std::nullopt otherwise.
std::optional<std::vector<double>>
getPerChannel(Value value, RankedTensorType resultType, int64_t channels) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || type.getRank() != resultType.getRank() || !type.hasStaticShape())
    return std::nullopt;
  for (int64_t d : type.getShape().drop_back())
    if (d != 1)
      return std::nullopt;
  int64_t last = type.getShape().back();
  if (last != 1 && last != channels)
    return std::nullopt;
  std::optional<std::vector<double>> values = getConstantValues(value);
  if (!values)
    return std::nullopt;
  if (last == 1)
    values = std::vector<double>(channels, values->front());
  return values;
}

Value makeConstant(PatternRewriter &rewriter, Location loc,
                   RankedTensorType type, ArrayRef<double> values,
                   bool asResource) {
  SmallVector<float> data(values.begin(), values.end());
  ArrayRef<char> bytes(reinterpret_cast<const char *>(data.data()),
                       data.size() * sizeof(float));
  ElementsAttr attr =
      fuse::detail::makeElementsAttr(type, bytes, asResource, "fuse_folded");
  return tosa::ConstOp::create(rewriter, loc, type, attr);
}

/// Rewrites `op` = `contraction <op> constant` into a contraction with new
/// weights and bias. `kind` is 'm' (multiply), 'a' (add), 's' (contraction
/// minus constant), 'r' (constant minus contraction).
LogicalResult foldInto(PatternRewriter &rewriter, Operation *op,
                       Operation *contraction, Value constant, char kind) {
  if (!contraction || !contraction->hasOneUse() ||
      contraction->getNumResults() != 1 ||
      op->getResult(0).getType() != contraction->getResult(0).getType())
    return failure();
  std::optional<ContractionLayout> layout = getLayout(contraction);
  if (!layout)
    return failure();
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  std::optional<std::vector<double>> c =
      getPerChannel(constant, resultType, layout->channels);
  if (!c)
    return failure();
  // A matmul has no bias: only a scale folds.
  if (!layout->biasOperand && kind != 'm')
    return failure();
  Value weightValue = contraction->getOperand(layout->weightOperand);
  bool weightsFromResource = false;
  std::optional<std::vector<double>> weights =
      getConstantValues(weightValue, &weightsFromResource);
  if (!weights)
    return failure();
  std::optional<std::vector<double>> bias;
  if (layout->biasOperand) {
    Value biasValue = contraction->getOperand(*layout->biasOperand);
    bias = getConstantValues(biasValue);
    if (!bias)
      return failure();
    // A bias of one value broadcasts over the channels.
    if (bias->size() == 1)
      bias = std::vector<double>(layout->channels, bias->front());
    if (int64_t(bias->size()) != layout->channels)
      return failure();
  }

  for (auto [i, w] : llvm::enumerate(*weights)) {
    double channelValue = (*c)[layout->channelOf(i)];
    if (kind == 'm')
      w *= channelValue;
    else if (kind == 'r')
      w = -w;
  }
  if (bias)
    for (auto [ch, b] : llvm::enumerate(*bias)) {
      switch (kind) {
      case 'm':
        b *= (*c)[ch];
        break;
      case 'a':
        b += (*c)[ch];
        break;
      case 's':
        b -= (*c)[ch];
        break;
      case 'r':
        b = (*c)[ch] - b;
        break;
      }
    }

  rewriter.setInsertionPoint(contraction);
  Location loc = op->getLoc();
  Operation *folded = rewriter.clone(*contraction);
  folded->setOperand(layout->weightOperand,
                     makeConstant(rewriter, loc,
                                  cast<RankedTensorType>(weightValue.getType()),
                                  *weights, weightsFromResource));
  if (layout->biasOperand) {
    auto biasType = RankedTensorType::get(
        {layout->channels},
        cast<ShapedType>(
            contraction->getOperand(*layout->biasOperand).getType())
            .getElementType());
    folded->setOperand(*layout->biasOperand,
                       makeConstant(rewriter, loc, biasType, *bias,
                                    /*asResource=*/false));
  }
  folded->setLoc(rewriter.getFusedLoc({contraction->getLoc(), loc}));
  rewriter.replaceOp(op, folded->getResults());
  rewriter.eraseOp(contraction);
  return success();
}

bool isZeroShift(Value shift) {
  DenseElementsAttr attr;
  return matchPattern(shift, m_Constant(&attr)) &&
         llvm::all_of(attr.getValues<APInt>(),
                      [](const APInt &v) { return v.isZero(); });
}

struct FoldMul : OpRewritePattern<tosa::MulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::MulOp op,
                                PatternRewriter &rewriter) const override {
    if (!isZeroShift(op.getShift()))
      return failure();
    for (auto [x, c] : {std::pair(op.getInput1(), op.getInput2()),
                        std::pair(op.getInput2(), op.getInput1())})
      if (succeeded(foldInto(rewriter, op, x.getDefiningOp(), c, 'm')))
        return success();
    return failure();
  }
};

struct FoldAdd : OpRewritePattern<tosa::AddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::AddOp op,
                                PatternRewriter &rewriter) const override {
    for (auto [x, c] : {std::pair(op.getInput1(), op.getInput2()),
                        std::pair(op.getInput2(), op.getInput1())})
      if (succeeded(foldInto(rewriter, op, x.getDefiningOp(), c, 'a')))
        return success();
    return failure();
  }
};

struct FoldSub : OpRewritePattern<tosa::SubOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::SubOp op,
                                PatternRewriter &rewriter) const override {
    if (succeeded(foldInto(rewriter, op, op.getInput1().getDefiningOp(),
                           op.getInput2(), 's')))
      return success();
    return foldInto(rewriter, op, op.getInput2().getDefiningOp(),
                    op.getInput1(), 'r');
  }
};

struct FoldAffinePass : public fuse::impl::FuseFoldAffineBase<FoldAffinePass> {
  void runOnOperation() override {
    // Nothing to fold without a scale or shift of a contraction's result
    // (what foldInto needs first): the driver would walk (and try to fold)
    // every op of the function for nothing, a second per 10^6 ops.
    auto isContraction = [](Value value) {
      return isFoldTarget(value.getDefiningOp());
    };
    bool any =
        getOperation()
            ->walk([&](Operation *op) {
              return isa<tosa::MulOp, tosa::AddOp, tosa::SubOp>(op) &&
                             llvm::any_of(op->getOperands(), isContraction)
                         ? WalkResult::interrupt()
                         : WalkResult::advance();
            })
            .wasInterrupted();
    if (!any)
      return;
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldMul, FoldAdd, FoldSub>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      getOperation()->emitWarning() << "fuse-fold-affine did not converge";
  }
};

} // namespace
