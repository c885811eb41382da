//===- fuse-translate.cpp - fuse's front ends ------------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// mlir-translate with fuse's importers:
//   fuse-translate --import-onnx model.onnx [--onnx-batch=N]
//                  [--onnx-dim NAME=N] [-o model.mlir]
//
//===----------------------------------------------------------------------===//

#include "fuse/Target/ONNX/Import.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  mlir::fuse::registerOnnxImportTranslation();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "fuse translation driver\n"));
}
