//===- PrepareTosa.cpp - fuse-prepare-tosa --------------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Preprocessing/Passes.h"

#include "SinglePass.h"

#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Transforms/Passes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEPREPARETOSA
#include "fuse/Preprocessing/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

/// What each skippable pass of upstream's list could rewrite in a function:
/// found by one walk, each a superset of the pass's patterns.
struct TosaWork {
  bool convolutions = false;  // tosa-optional-decompositions
  bool dynamicShapes = false; // tosa-infer-shapes
  bool rankMismatch = false;  // tosa-make-broadcastable
  bool namedOps = false;      // tosa-to-linalg-named
  bool constantFolds = false; // tosa-layerwise-constant-fold
};

bool isStatic(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  return !shaped || shaped.hasStaticShape();
}

/// The operands tosa-make-broadcastable reshapes to the result's rank (the
/// shift of tosa.mul is a scalar it leaves alone).
ValueRange broadcastOperands(Operation *op) {
  if (auto mul = dyn_cast<tosa::MulOp>(op))
    return mul->getOperands().take_front(2);
  return op->getOperands();
}

bool isBroadcastingOp(Operation *op) {
  return op->hasTrait<OpTrait::ResultsBroadcastableShape>() ||
         isa<tosa::MulOp, tosa::SelectOp, tosa::PowOp, tosa::IntDivOp,
             tosa::ArithmeticRightShiftOp>(op);
}

bool hasRankMismatch(Operation *op) {
  if (op->getNumResults() != 1)
    return false;
  auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!result)
    return true; // unranked: let the pass decide
  return llvm::any_of(broadcastOperands(op).getTypes(), [&](Type type) {
    auto ranked = dyn_cast<RankedTensorType>(type);
    return !ranked || ranked.getRank() != result.getRank();
  });
}

/// TOSA ops tosa-to-linalg-named never converts: every other TOSA op makes
/// the pass run.
bool isNeverNamed(Operation *op) {
  return op->hasTrait<OpTrait::tosa::TosaElementwiseOperator>() ||
         isa<tosa::ConstOp, tosa::ConstShapeOp, tosa::ReshapeOp, tosa::SliceOp,
             tosa::PadOp, tosa::ConcatOp, tosa::CastOp, tosa::MulOp,
             tosa::NegateOp, tosa::IdentityOp, tosa::ApplyScaleOp,
             tosa::RescaleOp, tosa::ReduceAllOp, tosa::ReduceAnyOp,
             tosa::ReduceMaxOp, tosa::ReduceMinOp, tosa::ReduceProductOp,
             tosa::ReduceSumOp, tosa::YieldOp>(op);
}

/// What tosa-layerwise-constant-fold folds beyond the TOSA canonicalization
/// patterns: transposes, reciprocals and reductions of constants.
bool isConstantFold(Operation *op) {
  if (!isa<tosa::TransposeOp, tosa::ReciprocalOp, tosa::ReduceAllOp,
           tosa::ReduceAnyOp, tosa::ReduceMaxOp, tosa::ReduceMinOp,
           tosa::ReduceProductOp, tosa::ReduceSumOp>(op))
    return false;
  return op->getNumOperands() > 0 &&
         matchPattern(op->getOperand(0), m_Constant());
}

TosaWork findWork(Operation *fn) {
  TosaWork work;
  fn->walk([&](Operation *op) {
    if (!isa_and_present<tosa::TosaDialect>(op->getDialect()))
      return;
    if (isa<tosa::Conv2DOp, tosa::Conv3DOp, tosa::DepthwiseConv2DOp,
            tosa::TransposeConv2DOp>(op))
      work.convolutions = true;
    if (isa<tosa::IfOp, tosa::WhileOp>(op) ||
        !llvm::all_of(op->getResultTypes(), isStatic))
      work.dynamicShapes = true;
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (!llvm::all_of(block.getArgumentTypes(), isStatic))
          work.dynamicShapes = true;
    if (isBroadcastingOp(op) && hasRankMismatch(op))
      work.rankMismatch = true;
    if (!isNeverNamed(op))
      work.namedOps = true;
    if (isConstantFold(op))
      work.constantFolds = true;
  });
  return work;
}

struct PrepareTosaPass
    : public fuse::impl::FusePrepareTosaBase<PrepareTosaPass> {
  void runOnOperation() override {
    Operation *fn = getOperation();
    auto run = [&](std::unique_ptr<Pass> pass) {
      OpPassManager pm = fuse::detail::singlePassPipeline(std::move(pass));
      return runPipeline(pm, fn);
    };
    // Upstream's defaults (tosa::addTosaToLinalgPasses with
    // TosaToLinalgOptions()).
    TosaToLinalgOptions options;
    TosaWork work = findWork(fn);
    if (!options.disableTosaDecompositions && work.convolutions &&
        failed(run(tosa::createTosaOptionalDecompositionsPass())))
      return signalPassFailure();
    if (failed(run(createCanonicalizerPass())))
      return signalPassFailure();
    work = findWork(fn);
    if (work.dynamicShapes && failed(run(tosa::createTosaInferShapesPass())))
      return signalPassFailure();
    if (work.dynamicShapes)
      work = findWork(fn);
    if (work.rankMismatch &&
        failed(run(tosa::createTosaMakeBroadcastablePass())))
      return signalPassFailure();
    if (work.namedOps && failed(run(tosa::createTosaToLinalgNamed())))
      return signalPassFailure();
    if (failed(run(createCanonicalizerPass())))
      return signalPassFailure();
    work = findWork(fn);
    if (work.constantFolds) {
      tosa::TosaLayerwiseConstantFoldPassOptions fold;
      fold.aggressiveReduceConstant = options.aggressiveReduceConstant;
      if (failed(run(tosa::createTosaLayerwiseConstantFoldPass(fold))))
        return signalPassFailure();
      work = findWork(fn);
    }
    if (work.rankMismatch &&
        failed(run(tosa::createTosaMakeBroadcastablePass())))
      return signalPassFailure();
  }
};

} // namespace
