//===- ArithMathModels.cpp - classification of arith and math ops ---------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// arith and math ops are elementwise-mappable: on tensors they map one
// element to one element, and their operands never broadcast.
//
//===----------------------------------------------------------------------===//

#include "Models.h"

#include "mlir/Interfaces/CastInterfaces.h"

using namespace mlir;
using namespace mlir::fuse;

OpClassification mlir::fuse::detail::classifyElementwiseOp(Operation *op) {
  OpClassification c;
  c.category = OpCategory::elementwise;
  // A cast moves bits but computes nothing.
  int64_t perElement = isa<CastOpInterface>(op) ? 0 : 1;
  c.flops = op->getNumResults() == 0
                ? std::optional<int64_t>(0)
                : scaleElements(op->getResult(0).getType(), perElement);
  c.bytesRead = sumShapedBytes(op->getOperands());
  c.bytesWritten = sumShapedBytes(op->getResults());
  return c;
}
