//===- VerifyKernels.cpp - no memory allocation inside GPU kernels --------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Dialect/Fuse/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEVERIFYKERNELS
#include "fuse/Dialect/Fuse/Transforms/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {
struct VerifyKernelsPass
    : public fuse::impl::FuseVerifyKernelsBase<VerifyKernelsPass> {
  void runOnOperation() override {
    bool failedAny = false;
    getOperation()->walk([&](gpu::GPUFuncOp kernel) {
      kernel.walk([&](memref::AllocOp alloc) {
        alloc.emitError() << "kernel '" << kernel.getName()
                          << "' allocates a buffer of type " << alloc.getType()
                          << " at run time (a device-side malloc); its tile "
                             "should have a static shape";
        failedAny = true;
      });
    });
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
