//===- onnx-import-fuzzer.cpp - libFuzzer harness for the ONNX importer ---===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// Bytes -> ModelProto -> TOSA. Any input may be rejected with a diagnostic;
// none may crash, hang or trip a sanitizer. A fresh context every 500 inputs
// keeps uniqued attributes from piling up.
//
// The model's directory is a hostile one, made at start-up: next to a
// regular weights file it holds a FIFO (opening it would block), symbolic
// links to /etc/passwd, to / , to /dev/zero, to itself and to nowhere, a
// subdirectory and a device link inside it. scripts/fuzz.sh seeds models
// whose external data names each of them; no input may hang on one or read
// outside the directory.
//
//===----------------------------------------------------------------------===//

#include "fuse/Target/ONNX/Import.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

static std::string modelDir;

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  char pattern[] = "/tmp/fuse-onnx-fuzz-XXXXXX";
  const char *dir = mkdtemp(pattern);
  if (!dir)
    return 0;
  modelDir = dir;
  auto path = [&](const char *name) { return modelDir + "/" + name; };
  if (FILE *f = std::fopen(path("weights.bin").c_str(), "wb")) {
    for (int i = 0; i < 4096; ++i)
      std::fputc(i & 0xff, f);
    std::fclose(f);
  }
  mkfifo(path("fifo").c_str(), 0600);
  mkdir(path("sub").c_str(), 0700);
  symlink("/etc/passwd", path("passwd").c_str());
  symlink("/", path("root").c_str());
  symlink("/dev/zero", path("zero").c_str());
  symlink("/dev/zero", path("sub/zero").c_str());
  symlink("loop", path("loop").c_str());
  symlink("missing-target", path("dangling").c_str());
  symlink("weights.bin", path("inside").c_str());
  return 0;
}

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
  options.modelDir = modelDir.empty() ? "/nonexistent-fuzz-dir" : modelDir;
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::fuse::importOnnxModel(
      llvm::StringRef(reinterpret_cast<const char *>(data), size),
      context.get(), options);
  // What the importer returns verifies (it checks before returning).
  if (module && mlir::failed(mlir::verify(*module)))
    std::abort();
  return 0;
}
