//===- fuse-translate.cpp - fuse's front ends
//------------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// mlir-translate with fuse's importers:
//   fuse-translate --import-onnx model.onnx [--onnx-batch=N]
//                  [--onnx-dim NAME=N] [-o model.mlir]
//   fuse-translate --onnx-list-ops    the ONNX ops the importer takes
//
//===----------------------------------------------------------------------===//

#include "fuse/Target/ONNX/Import.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  // --onnx-list-ops answers without reading any input.
  for (int i = 1; i < argc; ++i)
    if (llvm::StringRef(argv[i]) == "--onnx-list-ops") {
      for (const std::string &op : mlir::fuse::supportedOnnxOps())
        llvm::outs() << op << "\n";
      return 0;
    }
  mlir::fuse::registerOnnxImportTranslation();
  // --help shows the translation driver's and the importer's options, not
  // every option of the LLVM libraries linked in (--help-hidden has them).
  llvm::cl::HideUnrelatedOptions(mlir::fuse::getOnnxImportCategory());
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "fuse translation driver\n"));
}
