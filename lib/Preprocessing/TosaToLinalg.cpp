//===- TosaToLinalg.cpp - fuse-tosa-to-linalg -----------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Preprocessing/Passes.h"

#include "SinglePass.h"

#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Transforms/Passes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSETOSATOLINALG
#include "fuse/Preprocessing/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

bool isStaticTensor(Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  return ranked && ranked.hasStaticShape();
}

/// Whether upstream's pattern for `op` (its elementwise lowering) always
/// succeeds once it starts rewriting: one of the ops whose floating-point
/// payload it builds unconditionally, on static tensors of f16, bf16, f32
/// or f64, and for tosa.mul a constant zero shift. The pattern's other
/// ways to fail (a payload it cannot build: an integer or unsupported
/// type, a shift on floats, a zero point not known) fail after it has
/// built the linalg.generic, which only a driver that can roll back
/// survives.
bool lowersWithoutRollback(Operation *op) {
  if (!isa<tosa::AddOp, tosa::SubOp, tosa::MulOp, tosa::PowOp,
           tosa::ReciprocalOp, tosa::RsqrtOp, tosa::LogOp, tosa::ExpOp,
           tosa::AbsOp, tosa::SinOp, tosa::CosOp, tosa::TanhOp, tosa::ErfOp,
           tosa::GreaterOp, tosa::GreaterEqualOp, tosa::EqualOp,
           tosa::MaximumOp, tosa::MinimumOp, tosa::CeilOp, tosa::FloorOp,
           tosa::ClampOp, tosa::SigmoidOp>(op))
    return false;
  if (op->getNumResults() != 1 || op->getNumOperands() == 0 ||
      !llvm::all_of(op->getOperandTypes(), isStaticTensor) ||
      !llvm::all_of(op->getResultTypes(), isStaticTensor))
    return false;
  Type element = getElementTypeOrSelf(op->getOperand(0).getType());
  if (!element.isF16() && !element.isBF16() && !element.isF32() &&
      !element.isF64())
    return false;
  if (auto mul = dyn_cast<tosa::MulOp>(op)) {
    DenseIntElementsAttr shift;
    if (!matchPattern(mul.getShift(), m_Constant(&shift)) ||
        shift.getNumElements() != 1 || !(*shift.begin()).isZero())
      return false;
  }
  return true;
}

struct TosaToLinalgPass
    : public fuse::impl::FuseTosaToLinalgBase<TosaToLinalgPass> {
  void runOnOperation() override {
    Operation *fn = getOperation();
    SmallVector<Operation *> direct;
    bool rest = false;
    fn->walk([&](Operation *op) {
      if (!isa_and_present<tosa::TosaDialect>(op->getDialect()) ||
          isa<tosa::ConstOp, tosa::ConstShapeOp>(op))
        return;
      if (lowersWithoutRollback(op))
        direct.push_back(op);
      else
        rest = true;
    });
    if (!direct.empty()) {
      // Upstream's patterns and type conversion, on these ops alone, by the
      // driver that keeps no rollback state (a third faster).
      ConversionTarget target(getContext());
      target.addLegalDialect<linalg::LinalgDialect, tensor::TensorDialect,
                             arith::ArithDialect, math::MathDialect,
                             scf::SCFDialect>();
      target.addIllegalDialect<tosa::TosaDialect>();
      target.addLegalOp<tosa::ConstOp, tosa::ConstShapeOp>();
      target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
      TypeConverter converter;
      tosa::populateTosaTypeConversion(converter);
      RewritePatternSet patterns(&getContext());
      tosa::populateTosaToLinalgConversionPatterns(converter, &patterns);
      ConversionConfig config;
      config.allowPatternRollback = false;
      if (failed(applyPartialConversion(direct, target, std::move(patterns),
                                        config)))
        return signalPassFailure();
    }
    // Everything else (reductions, gathers, casts, integer ops, and what
    // upstream leaves to later passes) by upstream's pass, where there is
    // any: on the rest of a lowered graph it would only walk.
    if (rest) {
      OpPassManager pm =
          fuse::detail::singlePassPipeline(tosa::createTosaToLinalg());
      if (failed(runPipeline(pm, fn)))
        return signalPassFailure();
    }
  }
};

} // namespace
