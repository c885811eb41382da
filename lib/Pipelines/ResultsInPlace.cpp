//===- ResultsInPlace.cpp - kernels write a model's outputs directly ------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "Bufferize.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

namespace {
/// Whether every use of `value` other than `copy` comes before `copy` in
/// its block (or inside an op that does).
bool onlyUsedBefore(Value value, Operation *copy) {
  Block *block = copy->getBlock();
  for (Operation *user : value.getUsers()) {
    if (user == copy)
      continue;
    Operation *ancestor = block->findAncestorOpInBlock(*user);
    if (!ancestor || !ancestor->isBeforeInBlock(copy))
      return false;
  }
  return true;
}

/// A function whose results became out-parameters (a compiled model's
/// entry) ends with `memref.copy %buffer, %out` for each result that a
/// call (a kernel) wrote into a buffer of its own: results-to-out-params
/// hoists only the allocations it sees in the function, not those it makes
/// for the calls' results. Where that buffer is a plain allocation of the
/// output's type, used by nothing after the copy, and the output is used
/// by nothing but the copy, the kernels write the output itself: the copy
/// and the buffer go (a pass over the result less, and a buffer less for
/// the arena). The caller's outputs overlap nothing (the runtime checks),
/// so writing them early changes no value a kernel reads.
struct ResultsInPlacePass
    : public PassWrapper<ResultsInPlacePass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ResultsInPlacePass)
  StringRef getArgument() const override { return "fuse-results-in-place"; }
  StringRef getDescription() const override {
    return "Kernels write a function's output parameters directly instead "
           "of a buffer copied into them at the end";
  }
  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    if (fn.isExternal())
      return;
    Block &entry = fn.getBody().front();
    SmallVector<memref::CopyOp> copies;
    for (auto copy : entry.getOps<memref::CopyOp>())
      copies.push_back(copy);
    for (memref::CopyOp copy : copies) {
      auto out = dyn_cast<BlockArgument>(copy.getTarget());
      auto alloc = copy.getSource().getDefiningOp<memref::AllocOp>();
      if (!out || out.getOwner() != &entry || !out.hasOneUse() || !alloc ||
          alloc->getBlock() != &entry || alloc.getType() != out.getType() ||
          !alloc.getDynamicSizes().empty() ||
          !alloc.getSymbolOperands().empty() || !onlyUsedBefore(alloc, copy))
        continue;
      alloc.getResult().replaceAllUsesWith(out);
      copy.erase();
      alloc.erase();
    }
  }
};
} // namespace

std::unique_ptr<Pass> mlir::fuse::detail::createResultsInPlacePass() {
  return std::make_unique<ResultsInPlacePass>();
}

void mlir::fuse::detail::registerResultsInPlacePass() {
  PassRegistration<ResultsInPlacePass>();
}
