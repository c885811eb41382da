//===- CheckKernelInput.cpp - fuse-check-kernel-input ---------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// fuse-to-nvptx makes one kernel per fuse.group and runs nothing else on the
// device. Input that is not fused IR used to fail deep in bufferization or
// the kernel verifier with wording about the compiler's internals; this pass
// says what the input is and what to run first.
//
//===----------------------------------------------------------------------===//

#include "fuse/Codegen/GPU/Passes.h"
#include "fuse/Dialect/Fuse/IR/FuseInterfaces.h"
#include "fuse/Dialect/Fuse/IR/FuseOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/TilingInterface.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSECHECKKERNELINPUT
#include "fuse/Codegen/GPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

/// Whether `op` works on whole tensors: a tensor result or operand.
bool onTensors(Operation *op) {
  auto isTensor = [](Type t) { return isa<TensorType>(t); };
  return llvm::any_of(op->getResultTypes(), isTensor) ||
         llvm::any_of(op->getOperandTypes(), isTensor);
}

/// Elementwise arith/math on whole tensors: the pipeline rewrites these into
/// linalg.generic (convert-elementwise-to-linalg) before tiling.
bool isElementwiseOnTensors(Operation *op) {
  return OpTrait::hasElementwiseMappableTraits(op) &&
         llvm::any_of(op->getResultTypes(),
                      [](Type t) { return isa<RankedTensorType>(t); });
}

struct CheckKernelInputPass
    : public fuse::impl::FuseCheckKernelInputBase<CheckKernelInputPass> {
  void runOnOperation() override {
    bool failedAny = false;
    auto fail = [&](Operation *op) {
      failedAny = true;
      return op->emitError()
             << "fuse-check-kernel-input: '" << op->getName() << "' ";
    };
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op->getDialect() && op->getDialect()->getNamespace() == "tosa") {
        fail(op) << "is a TOSA op: fuse-to-nvptx compiles fused IR; run "
                    "--fuse-fusion-pipeline first";
        return WalkResult::skip();
      }
      if (auto group = dyn_cast<GroupOp>(op)) {
        // Inside a group: every root must tile (fuse-lower-groups says which
        // otherwise); a loop over tensors never does.
        group.getBodyBlock().walk([&](Operation *inner) {
          if (isa<LoopLikeOpInterface>(inner) && onTensors(inner) &&
              !isa<TilingInterface>(inner))
            fail(inner) << "is a loop over tensors inside a fuse.group: no "
                           "kernel can be tiled from it (fuse-lower-groups "
                           "tiles linalg and tensor ops); move it out of the "
                           "group and express its body in linalg";
        });
        return WalkResult::skip();
      }
      // Host code: a function body outside the groups may shape, view and
      // pass tensors, but not compute on them.
      if (!op->getParentOfType<func::FuncOp>() || isa<func::FuncOp>(op))
        return WalkResult::advance();
      if (!onTensors(op) || !isComputeOp(op))
        return WalkResult::advance();
      if (isa<LoopLikeOpInterface>(op) && !isa<TilingInterface>(op)) {
        fail(op) << "is a loop over tensors: fuse compiles linalg, tensor and "
                    "elementwise ops into kernels, not loops; express the "
                    "loop's body in linalg (or unroll the loop)";
        return WalkResult::skip();
      }
      if (isa<TilingInterface>(op) || isElementwiseOnTensors(op)) {
        fail(op) << "computes on tensors outside any fuse.group: fuse-to-nvptx "
                    "runs only groups, each as one kernel; run "
                    "--fuse-fusion-pipeline first (or put the op in a "
                    "fuse.group)";
        return WalkResult::skip();
      }
      return WalkResult::advance();
    });
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace
