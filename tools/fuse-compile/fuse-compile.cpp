//===- fuse-compile.cpp - a model to a compiled-model library -------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// One process from a model to a library an application loads:
//   fuse-compile model.onnx --target=cpu -o model.so
// The command line, its checks and the stages are lib/Driver's
// (fuse/Driver/Compile.h); on any error: a message, exit status 1 and no
// output file.
//
//===----------------------------------------------------------------------===//

#include "fuse/Driver/Compile.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // --help lists fuse-compile's own options.
  llvm::cl::HideUnrelatedOptions(mlir::fuse::getCompileOptionCategory());
  mlir::fuse::CompileOptions options;
  if (!mlir::fuse::parseCompileCommandLine(argc, argv, options, llvm::errs()))
    return 1;
  return mlir::fuse::runCompile(options);
}
