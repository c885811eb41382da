//===- VerifyKernels.cpp - no memory allocation inside GPU kernels --------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "WarpMma.h"
#include "fuse/Codegen/GPU/Passes.h"
#include "fuse/Dialect/Fuse/IR/FuseDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEVERIFYKERNELS
#include "fuse/Codegen/GPU/Passes.h.inc"
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
      // cp.async reads global memory: a source in shared memory (a generic
      // pointer to it) would be read at a wrong address.
      kernel.walk([&](nvgpu::DeviceAsyncCopyOp copy) {
        if (!fuse::detail::isInSharedMemory(copy.getSrc()))
          return;
        copy.emitError() << "kernel '" << kernel.getName()
                         << "' copies from shared memory with cp.async ("
                         << copy.getSrc().getType()
                         << "), which reads only global memory";
        failedAny = true;
      });
    });
    // One kernel per group: each outlined group function (fuse.kind) launches
    // exactly one kernel, unless it only forwards values (no writes).
    getOperation()->walk([&](func::FuncOp fn) {
      if (!fuse::FuseDialect::KindAttrHelper(fn->getContext())
               .isAttrPresent(fn))
        return;
      unsigned launches = 0;
      Operation *hostWork = nullptr;
      fn.walk<WalkOrder::PreOrder>([&](Operation *op) {
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
      } else if (hostWork) {
        // Host code touching the buffers around the launch (a copy lowered
        // to loops) reads and writes device memory from the CPU: slow at
        // best, and a race once launches are asynchronous.
        InFlightDiagnostic diag =
            hostWork->emitError()
            << "group function '" << fn.getName()
            << "' works on the host besides its kernel: '"
            << hostWork->getName()
            << "' runs on the CPU over the kernel's buffers";
        diag.attachNote(fn.getLoc()) << "the group function is here";
        failedAny = true;
      }
    });
    // A kernel reaches only device-visible memory: a buffer on the host's
    // stack (an alloca in host code) is not.
    getOperation()->walk([&](gpu::LaunchFuncOp launch) {
      for (Value operand : launch.getKernelOperands()) {
        Value base = operand;
        while (Operation *def = base.getDefiningOp()) {
          if (isa<memref::AllocaOp>(def)) {
            launch.emitError()
                << "kernel '" << launch.getKernelName().getValue()
                << "' is given a buffer on the host's stack (" << def->getName()
                << " of " << cast<MemRefType>(def->getResult(0).getType())
                << "), which the device cannot reach";
            failedAny = true;
            break;
          }
          auto view = dyn_cast<ViewLikeOpInterface>(def);
          if (!view)
            break;
          base = view.getViewSource();
        }
      }
    });
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
