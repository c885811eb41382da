//===- FuzzSupport.h - what fuse's MLIR fuzz harnesses share ----*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_TOOLS_FUZZ_FUZZSUPPORT_H
#define FUSE_TOOLS_FUZZ_FUZZSUPPORT_H

#include "fuse/InitAllDialects.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"

#include <memory>

namespace fuse_fuzz {

/// Every upstream dialect and extension, and fuse's dialects.
inline mlir::DialectRegistry &registry() {
  static mlir::DialectRegistry *r = [] {
    auto *reg = new mlir::DialectRegistry();
    mlir::registerAllDialects(*reg);
    mlir::registerAllExtensions(*reg);
    mlir::fuse::registerAllDialects(*reg);
    return reg;
  }();
  return *r;
}

/// A single-threaded context over registry() whose diagnostics go nowhere
/// (an input may be refused with any message), made anew every `renew`
/// calls so that the attributes and types uniqued for past inputs do not
/// pile up.
inline mlir::MLIRContext &context(unsigned renew) {
  static std::unique_ptr<mlir::MLIRContext> current;
  static unsigned calls = 0;
  if (!current || ++calls % renew == 0) {
    current = std::make_unique<mlir::MLIRContext>(
        registry(), mlir::MLIRContext::Threading::DISABLED);
    current->getDiagEngine().registerHandler(
        [](mlir::Diagnostic &) { return mlir::success(); });
  }
  return *current;
}

} // namespace fuse_fuzz

#endif // FUSE_TOOLS_FUZZ_FUZZSUPPORT_H
