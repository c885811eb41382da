//===- ContractFloat.cpp - multiply-add as fma ----------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSECONTRACTFLOAT
#include "fuse/Codegen/GPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {
struct ContractFloatPass
    : public fuse::impl::FuseContractFloatBase<ContractFloatPass> {
  void runOnOperation() override {
    // Only the ops an fma is made of: a conversion's flags would reach the
    // LLVM dialect as a stray arith attribute.
    getOperation()->walk([](arith::ArithFastMathInterface op) {
      if (!isa<arith::MulFOp, arith::AddFOp, arith::SubFOp>(op))
        return;
      StringRef name = op.getFastMathAttrName();
      arith::FastMathFlagsAttr old = op.getFastMathFlagsAttr();
      arith::FastMathFlags flags =
          old ? old.getValue() : arith::FastMathFlags::none;
      op->setAttr(
          name, arith::FastMathFlagsAttr::get(
                    op->getContext(), flags | arith::FastMathFlags::contract));
    });
  }
};
} // namespace
