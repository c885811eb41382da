//===- Registration.cpp - attach FusibleOpInterface to upstream ops -------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "Models.h"

#include "fuse/Dialect/Fuse/IR/FuseExternalModels.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::detail;

std::optional<int64_t> mlir::fuse::detail::scaleElements(Type type,
                                                         int64_t perElement) {
  std::optional<int64_t> count = getNumElements(type);
  if (!count)
    return std::nullopt;
  return *count * perElement;
}

static bool isElementwiseMappable(RegisteredOperationName name) {
  return name.hasTrait<OpTrait::Elementwise>();
}

void mlir::fuse::registerFusibleOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, linalg::LinalgDialect *dialect) {
    attachToDialectOps<classifyLinalgOp>(ctx, dialect, isClassifiedLinalgOp);
  });
  registry.addExtension(+[](MLIRContext *ctx, tensor::TensorDialect *dialect) {
    attachToDialectOps<classifyTensorOp>(ctx, dialect, isClassifiedTensorOp);
  });
  registry.addExtension(+[](MLIRContext *ctx, tosa::TosaDialect *dialect) {
    attachToDialectOps<classifyTosaOp>(ctx, dialect, isClassifiedTosaOp);
  });
  registry.addExtension(+[](MLIRContext *ctx, arith::ArithDialect *dialect) {
    attachToDialectOps<classifyElementwiseOp>(ctx, dialect,
                                              isElementwiseMappable);
  });
  registry.addExtension(+[](MLIRContext *ctx, math::MathDialect *dialect) {
    attachToDialectOps<classifyElementwiseOp>(ctx, dialect,
                                              isElementwiseMappable);
  });
}
