//===- VerifyKernels.cpp - no memory allocation inside GPU kernels --------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Dialect/Fuse/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
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
    // One kernel per group: each outlined group function (fuse.kind) launches
    // exactly one kernel, unless it only forwards values (no writes).
    getOperation()->walk([&](func::FuncOp fn) {
      if (!fn->hasAttr("fuse.kind"))
        return;
      unsigned launches = 0;
      Operation *hostWork = nullptr;
      fn.walk([&](Operation *op) {
        if (isa<gpu::LaunchFuncOp>(op))
          ++launches;
        else if (!hostWork && !isa<func::FuncOp>(op) &&
                 (isa<LoopLikeOpInterface>(op) ||
                  (!isMemoryEffectFree(op) && !isa<func::ReturnOp>(op) &&
                   !isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp>(
                       op))))
          hostWork = op;
      });
      if (launches > 1 || (launches == 0 && hostWork)) {
        fn.emitError() << "group function '" << fn.getName() << "' launches "
                       << launches << " kernels; a group must be exactly one"
                       << (hostWork ? " (it computes on the host instead)"
                                    : "");
        failedAny = true;
      }
    });
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
