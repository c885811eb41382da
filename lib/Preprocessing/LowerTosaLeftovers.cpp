//===- LowerTosaLeftovers.cpp - fuse-lower-tosa-leftovers -----------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Preprocessing/Passes.h"

#include "SinglePass.h"

#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSELOWERTOSALEFTOVERS
#include "fuse/Preprocessing/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

bool isTosa(Operation *op) {
  return isa_and_present<tosa::TosaDialect>(op->getDialect());
}

/// What convert-elementwise-to-linalg rewrites: an elementwise-mappable op
/// on ranked tensors (a superset is fine: the pass then finds nothing).
/// The types first: they rule out a payload's scalar ops (most of a lowered
/// graph) faster than the traits.
bool isElementwiseOnTensors(Operation *op) {
  auto ranked = [](Type type) { return isa<RankedTensorType>(type); };
  return (llvm::any_of(op->getResultTypes(), ranked) ||
          llvm::any_of(op->getOperandTypes(), ranked)) &&
         OpTrait::hasElementwiseMappableTraits(op);
}

struct LowerTosaLeftoversPass
    : public fuse::impl::FuseLowerTosaLeftoversBase<LowerTosaLeftoversPass> {
  void runOnOperation() override {
    Operation *fn = getOperation();
    auto run = [&](std::unique_ptr<Pass> pass) {
      OpPassManager pm = fuse::detail::singlePassPipeline(std::move(pass));
      return runPipeline(pm, fn);
    };
    // One walk finds what each conversion would convert.
    bool tensorOps = false, elementwise = false;
    SmallVector<Operation *> constants;
    auto scan = [&] {
      tensorOps = elementwise = false;
      constants.clear();
      fn->walk([&](Operation *op) {
        if (isa<tosa::ConstOp>(op))
          constants.push_back(op);
        else if (isTosa(op) && !isa<tosa::ApplyScaleOp>(op))
          tensorOps = true;
        else if (isElementwiseOnTensors(op))
          elementwise = true;
      });
    };
    scan();
    if (tensorOps) {
      if (failed(run(createTosaToTensorPass())))
        return signalPassFailure();
      scan(); // what it made
    }
    // tosa-to-arith converts constants (with its default options, nothing
    // else): its patterns, on the constants alone. A lowered graph keeps
    // one deduplicated constant, and the pass would walk every op for it.
    if (!constants.empty()) {
      ConversionTarget target(getContext());
      target.addIllegalOp<tosa::ConstOp>();
      target.addLegalDialect<arith::ArithDialect>();
      RewritePatternSet patterns(&getContext());
      tosa::populateTosaToArithConversionPatterns(&patterns);
      if (failed(
              applyPartialConversion(constants, target, std::move(patterns))))
        return signalPassFailure();
    }
    if (elementwise && failed(run(createConvertElementwiseToLinalgPass())))
      return signalPassFailure();
  }
};

} // namespace
