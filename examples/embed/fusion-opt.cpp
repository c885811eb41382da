//===- fusion-opt.cpp - a downstream driver with only fuse's fusion -------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// Fuse's dialect, its op classification models and the fusion stage
// (fuse-form-groups), on top of the dialects linalg-on-tensors input uses.
// It links FuseIR, FuseExternalModels and FuseFusion only: no GPU code
// generation, no LLVM dialect (CMakeLists.txt checks the link closure).
//
//===----------------------------------------------------------------------===//

#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "fuse/Dialect/Fuse/IR/FuseExternalModels.h"
#include "fuse/Fusion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::arith::ArithDialect, mlir::func::FuncDialect,
                  mlir::linalg::LinalgDialect, mlir::math::MathDialect,
                  mlir::tensor::TensorDialect, mlir::fuse::FuseDialect>();
  mlir::fuse::registerFusibleOpInterfaceExternalModels(registry);
  mlir::fuse::registerFuseFusionPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "fuse fusion-only embedding example\n", registry));
}
