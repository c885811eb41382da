//===- Models.h - shared pieces of the FusibleOpInterface models -*- C++
//-*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// Every upstream dialect gets one generic model that forwards the four
// interface methods to a classification function of that dialect.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_LIB_DIALECT_FUSE_EXTERNALMODELS_MODELS_H
#define FUSE_LIB_DIALECT_FUSE_EXTERNALMODELS_MODELS_H

#include "fuse/Dialect/Fuse/IR/FuseInterfaces.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"

namespace mlir::fuse::detail {

using ClassifyFn = OpClassification (*)(Operation *);

/// FusibleOpInterface for any op whose dialect has a classification function.
template <ClassifyFn Classify>
struct FusibleModel
    : public FusibleOpInterface::FallbackModel<FusibleModel<Classify>> {
  OpCategory getFusionCategory(Operation *op) const {
    return Classify(op).category;
  }
  std::optional<int64_t> getEstimatedFlops(Operation *op) const {
    return Classify(op).flops;
  }
  std::optional<int64_t> getBytesRead(Operation *op) const {
    return Classify(op).bytesRead;
  }
  std::optional<int64_t> getBytesWritten(Operation *op) const {
    return Classify(op).bytesWritten;
  }
  OpClassification getClassification(Operation *op) const {
    return Classify(op);
  }
};

/// Attaches FusibleModel<Classify> to every registered op of `dialect` for
/// which `select` says yes.
template <ClassifyFn Classify, typename Select>
void attachToDialectOps(MLIRContext *ctx, Dialect *dialect, Select select) {
  for (RegisteredOperationName name : ctx->getRegisteredOperations()) {
    if (&name.getDialect() != dialect || !select(name))
      continue;
    if (name.hasInterface<FusibleOpInterface>())
      continue;
    name.attachInterface<FusibleModel<Classify>>();
  }
}

/// Number of elements times `perElement`, or std::nullopt for dynamic shapes.
std::optional<int64_t> scaleElements(Type type, int64_t perElement);

/// The classification functions, one per dialect family.
OpClassification classifyLinalgOp(Operation *op);
OpClassification classifyTensorOp(Operation *op);
OpClassification classifyTosaOp(Operation *op);
OpClassification classifyElementwiseOp(Operation *op);

/// Whether fuse classifies `name` (an op of its dialect); the registration
/// attaches the model to exactly these ops.
bool isClassifiedLinalgOp(RegisteredOperationName name);
bool isClassifiedTensorOp(RegisteredOperationName name);
bool isClassifiedTosaOp(RegisteredOperationName name);

} // namespace mlir::fuse::detail

#endif // FUSE_LIB_DIALECT_FUSE_EXTERNALMODELS_MODELS_H
