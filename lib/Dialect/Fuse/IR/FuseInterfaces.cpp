//===- FuseInterfaces.cpp - op classification for fusion ------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Dialect/Fuse/IR/FuseInterfaces.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::fuse;

#include "fuse/Dialect/Fuse/IR/FuseInterfaces.cpp.inc"

bool mlir::fuse::isBroadcastMap(AffineMap map) {
  int64_t lastDim = -1;
  for (AffineExpr expr : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
      if (int64_t(dim.getPosition()) <= lastDim)
        return false;
      lastDim = dim.getPosition();
      continue;
    }
    auto cst = dyn_cast<AffineConstantExpr>(expr);
    if (!cst || cst.getValue() != 0)
      return false;
  }
  return !map.isIdentity();
}

std::optional<int64_t> mlir::fuse::getElementTypeBytes(Type type) {
  if (isa<IndexType>(type))
    return 8;
  if (auto complex = dyn_cast<ComplexType>(type)) {
    std::optional<int64_t> part = getElementTypeBytes(complex.getElementType());
    return part ? std::optional<int64_t>(2 * *part) : std::nullopt;
  }
  if (type.isIntOrFloat())
    return llvm::divideCeil(type.getIntOrFloatBitWidth(), 8);
  return std::nullopt;
}

std::optional<int64_t> mlir::fuse::getNumElements(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped)
    return 1;
  if (!shaped.hasStaticShape())
    return std::nullopt;
  return shaped.getNumElements();
}

std::optional<int64_t> mlir::fuse::getShapedTypeBytes(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  std::optional<int64_t> elementBytes =
      getElementTypeBytes(shaped ? shaped.getElementType() : type);
  std::optional<int64_t> count = getNumElements(type);
  if (!elementBytes || !count)
    return std::nullopt;
  return *elementBytes * *count;
}

std::optional<int64_t> mlir::fuse::sumShapedBytes(ValueRange values) {
  int64_t total = 0;
  for (Value value : values) {
    Type type = value.getType();
    auto shaped = dyn_cast<ShapedType>(type);
    if (!shaped && !type.isIntOrIndexOrFloat())
      continue;
    std::optional<int64_t> bytes = getShapedTypeBytes(type);
    if (!bytes)
      return std::nullopt;
    total += *bytes;
  }
  return total;
}

OpClassification mlir::fuse::classifyOp(Operation *op) {
  auto fusible = dyn_cast<FusibleOpInterface>(op);
  if (!fusible)
    return {};
  return fusible.getClassification();
}

bool mlir::fuse::isComputeOp(Operation *op) { return isComputeOp(op, nullptr); }

bool mlir::fuse::isComputeOp(Operation *op, OpClassification *classification) {
  if (classification)
    *classification = {}; // classifyOp's answer for ops without the interface
  if (op->hasTrait<OpTrait::IsTerminator>() ||
      op->hasTrait<OpTrait::ConstantLike>())
    return false;
  if (isa<tensor::EmptyOp, tensor::DimOp>(op))
    return false;
  // Initializers: ops that only write scalars into fresh tensors
  // (linalg.fill of a value into tensor.empty, tensor.splat). The kernel that
  // uses them materializes them; they do no arithmetic of their own.
  if (auto fusible = dyn_cast<FusibleOpInterface>(op)) {
    OpClassification c = fusible.getClassification();
    if (classification)
      *classification = c;
    if (c.flops == 0 && op->getNumResults() > 0 &&
        llvm::all_of(op->getResultTypes(),
                     [](Type t) { return isa<RankedTensorType>(t); }) &&
        llvm::all_of(op->getOperands(), [](Value v) {
          return !isa<ShapedType>(v.getType()) ||
                 isa_and_nonnull<tensor::EmptyOp>(v.getDefiningOp());
        }))
      return false;
    // Views: reshapes and casts that neither compute nor move bytes.
    if (c.flops == 0 && c.bytesRead == 0 && c.bytesWritten == 0)
      return false;
  }
  // Pure index arithmetic (shape computations) is not kernel work.
  if (op->getNumResults() > 0 &&
      llvm::all_of(op->getResultTypes(),
                   [](Type t) { return isa<IndexType>(t); }) &&
      llvm::all_of(op->getOperandTypes(),
                   [](Type t) { return isa<IndexType>(t); }))
    return false;
  return true;
}
