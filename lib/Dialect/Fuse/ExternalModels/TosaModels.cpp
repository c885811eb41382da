//===- TosaModels.cpp - classification of tosa ops ------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// TOSA elementwise ops broadcast size-1 dimensions: such an op is
// `broadcast` when one of its data operands has another shape than its
// result. Zero points, shifts and lookup tables are not data operands.
//
//===----------------------------------------------------------------------===//

#include "Models.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::fuse;

namespace {

bool isTosaElementwise(RegisteredOperationName name) {
  return name.hasTrait<OpTrait::tosa::TosaElementwiseOperator>() ||
         llvm::is_contained(
             {TypeID::get<tosa::MulOp>(), TypeID::get<tosa::CastOp>(),
              TypeID::get<tosa::RescaleOp>(), TypeID::get<tosa::TableOp>(),
              TypeID::get<tosa::IdentityOp>()},
             name.getTypeID());
}

bool isTosaContraction(Operation *op) {
  return isa<tosa::Conv2DOp, tosa::Conv3DOp, tosa::DepthwiseConv2DOp,
             tosa::TransposeConv2DOp, tosa::MatMulOp>(op);
}

bool isTosaReduction(Operation *op) {
  return isa<tosa::ReduceAllOp, tosa::ReduceAnyOp, tosa::ReduceMaxOp,
             tosa::ReduceMinOp, tosa::ReduceProductOp, tosa::ReduceSumOp,
             tosa::ArgMaxOp, tosa::MaxPool2dOp, tosa::AvgPool2dOp>(op);
}

bool isTosaDataMovement(Operation *op) {
  return isa<tosa::TransposeOp, tosa::SliceOp, tosa::ConcatOp, tosa::PadOp,
             tosa::TileOp, tosa::ReverseOp, tosa::GatherOp, tosa::ScatterOp,
             tosa::ResizeOp, tosa::ReshapeOp>(op);
}

/// The operands that carry data elementwise (not zero points, shifts or
/// tables).
OperandRange getDataOperands(Operation *op) {
  if (isa<tosa::MulOp>(op))
    return op->getOperands().take_front(2);
  if (isa<tosa::NegateOp, tosa::RescaleOp, tosa::TableOp>(op))
    return op->getOperands().take_front(1);
  return op->getOperands();
}

std::optional<int64_t> elementsOf(Value value) {
  return getNumElements(value.getType());
}

/// 2 x (output elements) x (multiply-accumulates per output element).
std::optional<int64_t> macFlops(std::optional<int64_t> outputs,
                                std::optional<int64_t> macsPerOutput) {
  if (!outputs || !macsPerOutput)
    return std::nullopt;
  return 2 * *outputs * *macsPerOutput;
}

std::optional<int64_t> dimOf(Value value, unsigned dim) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || type.getRank() <= dim || type.isDynamicDim(dim))
    return std::nullopt;
  return type.getDimSize(dim);
}

std::optional<int64_t> divide(std::optional<int64_t> a,
                              std::optional<int64_t> b) {
  if (!a || !b || *b == 0)
    return std::nullopt;
  return *a / *b;
}

std::optional<int64_t> contractionFlops(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(op)
      .Case<tosa::Conv2DOp, tosa::Conv3DOp>([](auto conv) {
        // weight [OC, (KD,) KH, KW, IC]
        return macFlops(
            elementsOf(conv.getOutput()),
            divide(elementsOf(conv.getWeight()), dimOf(conv.getWeight(), 0)));
      })
      .Case([](tosa::DepthwiseConv2DOp conv) {
        // weight [KH, KW, C, M]
        std::optional<int64_t> kh = dimOf(conv.getWeight(), 0);
        std::optional<int64_t> kw = dimOf(conv.getWeight(), 1);
        return macFlops(elementsOf(conv.getOutput()),
                        kh && kw ? std::optional<int64_t>(*kh * *kw)
                                 : std::nullopt);
      })
      .Case([](tosa::TransposeConv2DOp conv) {
        // Each input element scatters into KH x KW x OC outputs.
        return macFlops(
            elementsOf(conv.getInput()),
            divide(elementsOf(conv.getWeight()), dimOf(conv.getWeight(), 3)));
      })
      .Case([](tosa::MatMulOp matmul) {
        // a [N, H, C] x b [N, C, W]
        return macFlops(elementsOf(matmul.getOutput()),
                        dimOf(matmul.getA(), 2));
      })
      .Default([](Operation *) { return std::nullopt; });
}

std::optional<int64_t> reductionFlops(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(op)
      .Case<tosa::MaxPool2dOp, tosa::AvgPool2dOp>(
          [](auto pool) -> std::optional<int64_t> {
            std::optional<int64_t> outputs = elementsOf(pool.getOutput());
            if (!outputs)
              return std::nullopt;
            int64_t window = 1;
            for (int64_t k : pool.getKernel())
              window *= k;
            return *outputs * window;
          })
      .Default([](Operation *op) { return elementsOf(op->getOperand(0)); });
}

} // namespace

bool mlir::fuse::detail::isClassifiedTosaOp(RegisteredOperationName name) {
  if (isTosaElementwise(name))
    return true;
  return llvm::is_contained({TypeID::get<tosa::Conv2DOp>(),
                             TypeID::get<tosa::Conv3DOp>(),
                             TypeID::get<tosa::DepthwiseConv2DOp>(),
                             TypeID::get<tosa::TransposeConv2DOp>(),
                             TypeID::get<tosa::MatMulOp>(),
                             TypeID::get<tosa::ReduceAllOp>(),
                             TypeID::get<tosa::ReduceAnyOp>(),
                             TypeID::get<tosa::ReduceMaxOp>(),
                             TypeID::get<tosa::ReduceMinOp>(),
                             TypeID::get<tosa::ReduceProductOp>(),
                             TypeID::get<tosa::ReduceSumOp>(),
                             TypeID::get<tosa::ArgMaxOp>(),
                             TypeID::get<tosa::MaxPool2dOp>(),
                             TypeID::get<tosa::AvgPool2dOp>(),
                             TypeID::get<tosa::TransposeOp>(),
                             TypeID::get<tosa::SliceOp>(),
                             TypeID::get<tosa::ConcatOp>(),
                             TypeID::get<tosa::PadOp>(),
                             TypeID::get<tosa::TileOp>(),
                             TypeID::get<tosa::ReverseOp>(),
                             TypeID::get<tosa::GatherOp>(),
                             TypeID::get<tosa::ScatterOp>(),
                             TypeID::get<tosa::ResizeOp>(),
                             TypeID::get<tosa::ReshapeOp>(),
                             TypeID::get<tosa::FFT2dOp>(),
                             TypeID::get<tosa::RFFT2dOp>(),
                             TypeID::get<tosa::CustomOp>()},
                            name.getTypeID());
}

OpClassification mlir::fuse::detail::classifyTosaOp(Operation *op) {
  OpClassification c;
  // Tensor operands only: !tosa.shape operands (reshape, pad, slice, tile
  // sizes) are compile-time metadata.
  SmallVector<Value> tensorOperands;
  for (Value operand : op->getOperands())
    if (isa<ShapedType>(operand.getType()))
      tensorOperands.push_back(operand);
  c.bytesRead = sumShapedBytes(tensorOperands);
  c.bytesWritten = sumShapedBytes(op->getResults());
  Value result = op->getNumResults() ? op->getResult(0) : Value();

  if (isTosaElementwise(op->getName().getRegisteredInfo().value())) {
    c.category = OpCategory::elementwise;
    auto resultType = dyn_cast<ShapedType>(result.getType());
    for (Value operand : getDataOperands(op)) {
      auto type = dyn_cast<ShapedType>(operand.getType());
      if (type && resultType && type.getShape() != resultType.getShape())
        c.category = OpCategory::broadcast;
    }
    int64_t perElement = isa<tosa::CastOp, tosa::IdentityOp>(op) ? 0 : 1;
    c.flops = scaleElements(result.getType(), perElement);
    return c;
  }
  if (isTosaContraction(op)) {
    c.category = OpCategory::contraction;
    c.flops = contractionFlops(op);
    return c;
  }
  if (isTosaReduction(op)) {
    c.category = OpCategory::reduction;
    c.flops = reductionFlops(op);
    return c;
  }
  if (isTosaDataMovement(op)) {
    c.category = OpCategory::injective;
    c.flops = 0;
    if (isa<tosa::ReshapeOp>(op)) {
      // A reshape of a contiguous tensor is a view.
      c.bytesRead = 0;
      c.bytesWritten = 0;
    } else if (isa<tosa::SliceOp>(op)) {
      c.bytesRead = c.bytesWritten;
    }
    return c;
  }
  // FFTs and custom ops: fuse cannot see into them.
  c.category = OpCategory::opaque;
  return c;
}
