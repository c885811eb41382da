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

#include "fuse/Dialect/Fuse/Utils/ToolFiles.h"
#include "fuse/Target/ONNX/Import.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

/// The output file named on the command line ("-o FILE"), for messages.
static std::string outputName = "-";

/// A failed write of the output (a full disk) ends the translation driver
/// when its stream closes; say which file, as an error, not an abort.
static void reportFatalError(void *, const char *reason, bool) {
  llvm::StringRef text(reason);
  if (text.consume_front("IO failure on output stream: "))
    llvm::errs() << "error: cannot write '" << outputName << "': " << text
                 << "\n";
  else
    llvm::errs() << "error: " << text << "\n";
  llvm::sys::Process::Exit(1, /*NoCleanup=*/true);
}

int main(int argc, char **argv) {
  // --onnx-list-ops answers without reading any input.
  for (int i = 1; i < argc; ++i)
    if (llvm::StringRef(argv[i]) == "--onnx-list-ops") {
      for (const std::string &op : mlir::fuse::supportedOnnxOps())
        llvm::outs() << op << "\n";
      return 0;
    }
  // An input that is a device (/dev/zero) or larger than a tool reads is
  // refused before the driver reads it without end. Arguments that name no
  // existing file (option values) are left to the driver.
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if ((arg == "-o" || arg == "--o") && i + 1 < argc) {
      outputName = argv[++i];
      continue;
    }
    if (arg.consume_front("-o=") || arg.consume_front("--o=")) {
      outputName = arg.str();
      continue;
    }
    llvm::sys::fs::file_status status;
    if (arg.starts_with("-") || llvm::sys::fs::status(arg, status) ||
        status.type() == llvm::sys::fs::file_type::directory_file)
      continue;
    std::string why = mlir::fuse::checkToolInput(arg);
    if (!why.empty()) {
      llvm::errs() << "error: " << why << "\n";
      return 1;
    }
  }
  llvm::install_fatal_error_handler(reportFatalError);
  mlir::fuse::registerOnnxImportTranslation();
  // --help shows the translation driver's and the importer's options, not
  // every option of the LLVM libraries linked in (--help-hidden has them).
  llvm::cl::HideUnrelatedOptions(mlir::fuse::getOnnxImportCategory());
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "fuse translation driver\n"));
}
