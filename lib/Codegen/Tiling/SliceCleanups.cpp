//===- SliceCleanups.cpp - slices moved toward producers ------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "SliceCleanups.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;

namespace {

/// extract_slice(collapse_shape(x)) -> collapse_shape(extract_slice(x))
/// where every collapsed group of x's dimensions has at most one dimension
/// whose extent is not 1: the slice's offset and size along a collapsed
/// dimension are that dimension's (the last one's where all are 1), and
/// the others' are 0 and 1. Exact for any offset, a loop's index included.
/// Unit strides and no dropped dimensions only.
struct SliceOfUnitCollapse : OpRewritePattern<tensor::ExtractSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ExtractSliceOp slice,
                                PatternRewriter &rewriter) const override {
    auto collapse = slice.getSource().getDefiningOp<tensor::CollapseShapeOp>();
    if (!collapse)
      return failure();
    RankedTensorType sourceType = collapse.getSrcType();
    if (!sourceType.hasStaticShape() ||
        slice.getResultType().getRank() != slice.getSourceType().getRank() ||
        !llvm::all_of(slice.getMixedStrides(), isOneInteger))
      return failure();
    SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
    SmallVector<OpFoldResult> sizes = slice.getMixedSizes();
    SmallVector<OpFoldResult> sourceOffsets, sourceSizes;
    for (auto [d, group] :
         llvm::enumerate(collapse.getReassociationIndices())) {
      // The dimension that takes the slice: the one that is not 1.
      int64_t taking = group.back();
      unsigned notOne = 0;
      for (int64_t dim : group)
        if (sourceType.getDimSize(dim) != 1) {
          taking = dim;
          ++notOne;
        }
      if (notOne > 1)
        return failure();
      for (int64_t dim : group) {
        sourceOffsets.push_back(dim == taking ? offsets[d]
                                              : rewriter.getIndexAttr(0));
        sourceSizes.push_back(dim == taking ? sizes[d]
                                            : rewriter.getIndexAttr(1));
      }
    }
    SmallVector<OpFoldResult> strides(sourceType.getRank(),
                                      rewriter.getIndexAttr(1));
    Value part = tensor::ExtractSliceOp::create(
        rewriter, slice.getLoc(), collapse.getSrc(), sourceOffsets, sourceSizes,
        strides);
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
        slice, slice.getResultType(), part, collapse.getReassociationIndices());
    return success();
  }
};

} // namespace

void mlir::fuse::detail::populateSliceCleanupPatterns(
    RewritePatternSet &patterns) {
  tensor::populateMergeConsecutiveInsertExtractSlicePatterns(patterns);
  tensor::populateBubbleUpExtractSliceOpPatterns(patterns);
  patterns.add<SliceOfUnitCollapse>(patterns.getContext());
}
