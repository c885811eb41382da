//===- Deallocations.cpp - the buffer deallocation fuse-to-cpu runs -------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "Bufferize.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;

namespace {

/// Each `bufferization.dealloc` that frees distinct `memref.alloc` results
/// unconditionally and retains nothing becomes one `memref.dealloc` per
/// buffer: what upstream's simplification and lowering make of it, without
/// the simplification's alias check of every pair of its buffers (a host
/// function of n kernels frees its n buffers in one dealloc at its end:
/// 45 s at n = 15,625).
struct SplitTrivialDeallocsPass
    : public PassWrapper<SplitTrivialDeallocsPass,
                         OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(SplitTrivialDeallocsPass)

  StringRef getArgument() const override {
    return "fuse-split-trivial-deallocs";
  }
  StringRef getDescription() const override {
    return "Unconditional deallocs of distinct allocations without retained "
           "values as memref.dealloc ops";
  }

  void runOnOperation() override {
    SmallVector<bufferization::DeallocOp> deallocs;
    getOperation().walk(
        [&](bufferization::DeallocOp op) { deallocs.push_back(op); });
    for (bufferization::DeallocOp op : deallocs) {
      if (!op.getRetained().empty())
        continue;
      bool trivial = llvm::all_of(
          op.getConditions(), [](Value c) { return matchPattern(c, m_One()); });
      llvm::DenseSet<Value> seen;
      for (Value memref : op.getMemrefs())
        trivial &= memref.getDefiningOp<memref::AllocOp>() &&
                   seen.insert(memref).second;
      if (!trivial)
        continue;
      OpBuilder builder(op);
      for (Value memref : op.getMemrefs())
        memref::DeallocOp::create(builder, op.getLoc(), memref);
      op.erase();
    }
  }
};

} // namespace

void mlir::fuse::detail::registerSplitTrivialDeallocsPass() {
  PassRegistration<SplitTrivialDeallocsPass>();
}

void mlir::fuse::detail::addBufferDeallocationPasses(OpPassManager &pm) {
  // Upstream's buffer-deallocation-pipeline, with the trivial deallocs
  // split before its simplification.
  memref::ExpandReallocPassOptions expand;
  expand.emitDeallocs = false;
  pm.addPass(memref::createExpandReallocPass(expand));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(bufferization::createOwnershipBasedBufferDeallocationPass());
  pm.addPass(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(std::make_unique<SplitTrivialDeallocsPass>());
  pm.addPass(bufferization::createBufferDeallocationSimplificationPass());
  pm.addPass(bufferization::createLowerDeallocationsPass());
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
}
