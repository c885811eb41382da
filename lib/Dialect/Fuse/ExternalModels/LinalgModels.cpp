//===- LinalgModels.cpp - classification of linalg ops --------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// Structured ops (named and generic) are classified from their iterator
// types, indexing maps and payload:
//   * a reduction iterator with a multiply-accumulate payload (or a named
//     contraction / convolution) is a contraction; any other reduction
//     iterator makes a reduction (pooling, sums, maxima);
//   * all-parallel ops are elementwise when every shaped operand is read and
//     written through the identity map, broadcast when some input drops or
//     pins dimensions, and injective otherwise (transposes, strided or
//     shifted reads, gathers through tensor.extract).
//
//===----------------------------------------------------------------------===//

#include "Models.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/CastInterfaces.h"

using namespace mlir;
using namespace mlir::fuse;

bool mlir::fuse::detail::isClassifiedLinalgOp(RegisteredOperationName name) {
  TypeID id = name.getTypeID();
  return name.hasInterface<linalg::LinalgOp>() ||
         id == TypeID::get<linalg::SoftmaxOp>() ||
         id == TypeID::get<linalg::PackOp>() ||
         id == TypeID::get<linalg::UnPackOp>();
}

/// Follows `value` back through casts (sign/zero/float extensions of mixed
/// precision contractions) and says whether it is an input block argument.
static bool comesFromInput(linalg::LinalgOp op, Value value) {
  Block *body = op.getBlock();
  while (Operation *def = value.getDefiningOp()) {
    if (!isa<CastOpInterface>(def) || def->getNumOperands() != 1)
      return false;
    value = def->getOperand(0);
  }
  auto arg = dyn_cast<BlockArgument>(value);
  return arg && arg.getOwner() == body &&
         arg.getArgNumber() < unsigned(op.getNumDpsInputs());
}

/// Whether the payload is `out + in0 * in1` (up to casts of the inputs).
static bool hasMulAccPayload(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1 || !op.getBlock())
    return false;
  Block *body = op.getBlock();
  Operation *terminator = body->getTerminator();
  if (terminator->getNumOperands() != 1)
    return false;
  Operation *add = terminator->getOperand(0).getDefiningOp();
  if (!add || !isa<arith::AddFOp, arith::AddIOp>(add))
    return false;
  Value acc = body->getArgument(op.getNumDpsInputs());
  Value lhs = add->getOperand(0), rhs = add->getOperand(1);
  if (rhs == acc)
    std::swap(lhs, rhs);
  if (lhs != acc)
    return false;
  Operation *mul = rhs.getDefiningOp();
  if (!mul || !isa<arith::MulFOp, arith::MulIOp>(mul))
    return false;
  return comesFromInput(op, mul->getOperand(0)) &&
         comesFromInput(op, mul->getOperand(1));
}

static OpCategory classifyStructured(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() > 0) {
    bool namedContraction =
        isa<linalg::ContractionOpInterface>(op.getOperation()) ||
        (isa<linalg::ConvolutionOpInterface>(op.getOperation()) &&
         !op->getName().getStringRef().starts_with("linalg.pooling"));
    return namedContraction || hasMulAccPayload(op) ? OpCategory::contraction
                                                    : OpCategory::reduction;
  }
  bool injective = false, broadcast = false;
  for (OpOperand &init : op.getDpsInitsMutable())
    injective |= !op.getMatchingIndexingMap(&init).isIdentity();
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (!isa<ShapedType>(input->get().getType()))
      continue; // scalars (e.g. linalg.fill's value) broadcast trivially
    AffineMap map = op.getMatchingIndexingMap(input);
    if (map.isIdentity())
      continue;
    if (isBroadcastMap(map))
      broadcast = true;
    else
      injective = true;
  }
  // A payload that reads other tensors at computed indices is a gather.
  if (Block *body = op.getBlock())
    injective |= llvm::any_of(body->getOperations(), [](Operation &nested) {
      return isa<tensor::ExtractOp>(nested);
    });
  if (injective)
    return OpCategory::injective;
  return broadcast ? OpCategory::broadcast : OpCategory::elementwise;
}

/// Arithmetic per loop iteration: payload ops other than constants, index
/// queries and casts.
static int64_t countPayloadOps(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (!body)
    return 0;
  int64_t count = 0;
  for (Operation &nested : body->without_terminator())
    if (!nested.hasTrait<OpTrait::ConstantLike>() &&
        !isa<linalg::IndexOp, CastOpInterface, tensor::ExtractOp>(nested))
      ++count;
  return count;
}

static OpClassification classifyStructuredCost(linalg::LinalgOp op) {
  OpClassification c;
  c.category = classifyStructured(op);
  int64_t iterations = 1;
  bool dynamic = false;
  for (int64_t range : op.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(range))
      dynamic = true;
    else
      iterations *= range;
  }
  if (!dynamic)
    c.flops = iterations * countPayloadOps(op);

  // Inputs are read once; an init is read too when the payload uses it
  // (accumulation).
  SmallVector<Value> read;
  for (OpOperand *input : op.getDpsInputOperands())
    read.push_back(input->get());
  SmallVector<Value> written;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    written.push_back(init.get());
    if (op.payloadUsesValueFromOperand(&init))
      read.push_back(init.get());
  }
  c.bytesRead = sumShapedBytes(read);
  c.bytesWritten = sumShapedBytes(written);
  return c;
}

OpClassification mlir::fuse::detail::classifyLinalgOp(Operation *op) {
  if (auto structured = dyn_cast<linalg::LinalgOp>(op))
    return classifyStructuredCost(structured);
  OpClassification c;
  if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op)) {
    // max, subtract, exp, sum, divide per element.
    c.category = OpCategory::reduction;
    c.flops = scaleElements(softmax.getInput().getType(), 5);
    c.bytesRead = getShapedTypeBytes(softmax.getInput().getType());
    c.bytesWritten = getShapedTypeBytes(softmax.getOutput().getType());
    return c;
  }
  if (isa<linalg::PackOp, linalg::UnPackOp>(op)) {
    c.category = OpCategory::injective;
    c.flops = 0;
    c.bytesRead = getShapedTypeBytes(op->getOperand(0).getType());
    c.bytesWritten = sumShapedBytes(op->getResults());
    return c;
  }
  return c;
}
