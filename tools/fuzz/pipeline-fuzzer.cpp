//===- pipeline-fuzzer.cpp - libFuzzer harness for parser + fusion --------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// IR text -> parse -> verify -> fuse-fusion-pipeline (target h200) with the
// verifier after each pass. Text the parser or verifier rejects is fine, and
// so is a pipeline that reports an error; a crash, an assertion or a
// sanitizer report is a bug.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "fuse/InitAllPasses.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 64 * 1024)
    return 0;
  // The pipeline is parsed from text: the passes are registered once.
  static bool registered = [] {
    mlir::registerAllPasses();
    mlir::fuse::registerAllPasses();
    return true;
  }();
  (void)registered;
  mlir::MLIRContext &context = fuse_fuzz::context(/*renew=*/200);
  std::string text(reinterpret_cast<const char *>(data), size);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(text, &context);
  if (!module || mlir::failed(mlir::verify(*module)))
    return 0;
  mlir::PassManager pm(&context);
  pm.enableVerifier(true);
  if (mlir::failed(mlir::parsePassPipeline(
          "builtin.module(fuse-fusion-pipeline{target=h200})", pm)))
    return 0;
  (void)pm.run(*module);
  return 0;
}
