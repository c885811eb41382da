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

#include "fuse/InitAllDialects.h"
#include "fuse/InitAllPasses.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include <cstdint>
#include <memory>
#include <string>

static mlir::DialectRegistry &registry() {
  static mlir::DialectRegistry *r = [] {
    mlir::registerAllPasses();
    mlir::fuse::registerAllPasses();
    auto *reg = new mlir::DialectRegistry();
    mlir::registerAllDialects(*reg);
    mlir::registerAllExtensions(*reg);
    mlir::fuse::registerAllDialects(*reg);
    return reg;
  }();
  return *r;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 64 * 1024)
    return 0;
  static std::unique_ptr<mlir::MLIRContext> context;
  static unsigned runs = 0;
  if (!context || ++runs % 200 == 0) {
    context = std::make_unique<mlir::MLIRContext>(
        registry(), mlir::MLIRContext::Threading::DISABLED);
    context->getDiagEngine().registerHandler(
        [](mlir::Diagnostic &) { return mlir::success(); });
  }
  std::string text(reinterpret_cast<const char *>(data), size);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(text, context.get());
  if (!module || mlir::failed(mlir::verify(*module)))
    return 0;
  mlir::PassManager pm(context.get());
  pm.enableVerifier(true);
  if (mlir::failed(mlir::parsePassPipeline(
          "builtin.module(fuse-fusion-pipeline{target=h200})", pm)))
    return 0;
  (void)pm.run(*module);
  return 0;
}
