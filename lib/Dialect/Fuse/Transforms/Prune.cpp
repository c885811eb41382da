//===- Prune.cpp - the fuse-prune pass ------------------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Dialect/Fuse/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEPRUNE
#include "fuse/Dialect/Fuse/Transforms/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {
struct PrunePass : public fuse::impl::FusePruneBase<PrunePass> {
  using FusePruneBase::FusePruneBase;

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet owning(context);
    for (Dialect *dialect : context->getLoadedDialects())
      dialect->getCanonicalizationPatterns(owning);
    for (RegisteredOperationName op : context->getRegisteredOperations())
      op.getCanonicalizationPatterns(owning, context);
    int64_t limit = maxConstantFoldElements;
    linalg::populateConstantFoldLinalgOperations(
        owning, [limit](OpOperand *fused) {
          auto type = dyn_cast<ShapedType>(fused->getOwner()->getResult(0).getType());
          return type && type.hasStaticShape() && type.getNumElements() <= limit;
        });
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
