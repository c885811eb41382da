//===- onnx-import-fuzzer.cpp - libFuzzer harness for the ONNX importer ---===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// Bytes -> ModelProto -> TOSA. Any input may be rejected with a diagnostic;
// none may crash, hang or trip a sanitizer. A fresh context every 500 inputs
// keeps uniqued attributes from piling up.
//
//===----------------------------------------------------------------------===//

#include "fuse/Target/ONNX/Import.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include <cstdint>
#include <cstdlib>
#include <memory>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static std::unique_ptr<mlir::MLIRContext> context;
  static unsigned runs = 0;
  if (!context || ++runs % 500 == 0) {
    context = std::make_unique<mlir::MLIRContext>(
        mlir::MLIRContext::Threading::DISABLED);
    context->getDiagEngine().registerHandler(
        [](mlir::Diagnostic &) { return mlir::success(); });
  }
  mlir::fuse::OnnxImportOptions options;
  options.modelDir = "/nonexistent-fuzz-dir"; // no external data is read
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::fuse::importOnnxModel(
      llvm::StringRef(reinterpret_cast<const char *>(data), size),
      context.get(), options);
  // What the importer returns verifies (it checks before returning).
  if (module && mlir::failed(mlir::verify(*module)))
    std::abort();
  return 0;
}
