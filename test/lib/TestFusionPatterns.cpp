//===- TestFusionPatterns.cpp - drive one family of fusion patterns -------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"
#include "fuse/Dialect/Fuse/IR/FuseOps.h"
#include "fuse/Fusion/FusionPatterns.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSETESTFUSIONPATTERNS
#include "TestPasses.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {
struct TestFusionPatternsPass
    : public fuse::impl::FuseTestFusionPatternsBase<TestFusionPatternsPass> {
  using FuseTestFusionPatternsBase::FuseTestFusionPatternsBase;

  void runOnOperation() override {
    FailureOr<TargetAttr> requested =
        parseTargetOption(&getContext(), target, getArgument());
    if (failed(requested))
      return signalPassFailure();
    FailureOr<TargetAttr> resolved =
        resolveTarget(getOperation(), *requested, getArgument());
    if (failed(resolved))
      return signalPassFailure();
    policy.target = *resolved;
    policy.maxOpsPerGroup = maxOpsPerGroup;
    RewritePatternSet patterns(&getContext());
    if (family == "vertical")
      populateVerticalFusionPatterns(patterns, policy);
    else if (family == "horizontal")
      populateHorizontalFusionPatterns(patterns, policy);
    else if (family == "diagonal")
      populateDiagonalFusionPatterns(patterns, policy);
    else if (family == "composite")
      populateCompositeFusionPatterns(patterns, policy);
    else {
      getOperation()->emitError()
          << "fuse-test-fusion-patterns: unknown family '" << family
          << "'; expected vertical, horizontal, diagonal or composite";
      return signalPassFailure();
    }
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      getOperation()->emitWarning() << "fusion patterns did not converge";
  }

  FusionPolicy policy;
};
} // namespace
