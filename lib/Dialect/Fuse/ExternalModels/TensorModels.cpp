//===- TensorModels.cpp - classification of tensor ops --------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// tensor ops move data and compute nothing. Reshapes and casts are views
// (no bytes); slices read and write only the slice.
//
//===----------------------------------------------------------------------===//

#include "Models.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::fuse;

namespace {
OpClassification movement(OpCategory category, std::optional<int64_t> read,
                          std::optional<int64_t> written) {
  return {category, /*flops=*/0, read, written};
}
} // namespace

bool mlir::fuse::detail::isClassifiedTensorOp(RegisteredOperationName name) {
  TypeID id = name.getTypeID();
  return llvm::is_contained(
      {TypeID::get<tensor::ConcatOp>(), TypeID::get<tensor::ExtractSliceOp>(),
       TypeID::get<tensor::InsertSliceOp>(), TypeID::get<tensor::PadOp>(),
       TypeID::get<tensor::ExpandShapeOp>(),
       TypeID::get<tensor::CollapseShapeOp>(), TypeID::get<tensor::ReshapeOp>(),
       TypeID::get<tensor::CastOp>(), TypeID::get<tensor::BitcastOp>(),
       TypeID::get<tensor::ExtractOp>(), TypeID::get<tensor::InsertOp>(),
       TypeID::get<tensor::FromElementsOp>(), TypeID::get<tensor::GatherOp>(),
       TypeID::get<tensor::ScatterOp>(), TypeID::get<tensor::SplatOp>()},
      id);
}

OpClassification mlir::fuse::detail::classifyTensorOp(Operation *op) {
  auto bytes = [](Value v) { return getShapedTypeBytes(v.getType()); };
  return llvm::TypeSwitch<Operation *, OpClassification>(op)
      .Case([&](tensor::ConcatOp concat) {
        return movement(OpCategory::injective,
                        sumShapedBytes(concat.getInputs()),
                        bytes(concat.getResult()));
      })
      .Case([&](tensor::ExtractSliceOp slice) {
        return movement(OpCategory::injective, bytes(slice.getResult()),
                        bytes(slice.getResult()));
      })
      .Case([&](tensor::InsertSliceOp insert) {
        return movement(OpCategory::injective, bytes(insert.getSource()),
                        bytes(insert.getSource()));
      })
      .Case([&](tensor::PadOp pad) {
        return movement(OpCategory::injective, bytes(pad.getSource()),
                        bytes(pad.getResult()));
      })
      .Case<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::ReshapeOp,
            tensor::CastOp, tensor::BitcastOp>(
          [&](Operation *) { return movement(OpCategory::injective, 0, 0); })
      .Case([&](tensor::ExtractOp extract) {
        return movement(OpCategory::injective, bytes(extract.getResult()), 0);
      })
      .Case([&](tensor::InsertOp insert) {
        return movement(OpCategory::injective, bytes(insert.getScalar()),
                        bytes(insert.getScalar()));
      })
      .Case([&](tensor::FromElementsOp from) {
        return movement(OpCategory::injective, 0, bytes(from.getResult()));
      })
      .Case([&](tensor::GatherOp gather) {
        std::optional<int64_t> result = bytes(gather.getResult());
        std::optional<int64_t> indices = bytes(gather.getIndices());
        return movement(OpCategory::injective,
                        result && indices
                            ? std::optional<int64_t>(*result + *indices)
                            : std::nullopt,
                        result);
      })
      .Case([&](tensor::ScatterOp scatter) {
        return movement(
            OpCategory::injective,
            sumShapedBytes({scatter.getSource(), scatter.getIndices()}),
            bytes(scatter.getSource()));
      })
      .Case([&](tensor::SplatOp splat) {
        return movement(OpCategory::broadcast, 0, bytes(splat.getResult()));
      })
      .Default([](Operation *) { return OpClassification(); });
}
