//===- SplitKBuffers.cpp - split-K partials and counters in globals -------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// fuse-distribute-threads gives each split-K kernel two buffers around its
// launch (memref.allocs marked fuse.split_k_buffer): the blocks' partial
// accumulators, and one arrival counter per tile that must be zero when
// the kernel starts. Kernels leave their counters at zero, so module
// globals serve every call and every split-K kernel of the module (they
// run one after the other): the counters need no zeroing per call, the
// partials no allocation.
//
//===----------------------------------------------------------------------===//

#include "fuse/Codegen/GPU/Passes.h"
#include "fuse/Dialect/Fuse/IR/FuseDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSESPLITKBUFFERS
#include "fuse/Codegen/GPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

struct SplitKBuffersPass
    : public fuse::impl::FuseSplitKBuffersBase<SplitKBuffersPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    auto helper = fuse::FuseDialect::SplitKBufferAttrHelper(ctx);
    SmallVector<memref::AllocOp> partials, counters;
    int64_t mostPartials = 0, mostCounters = 0;
    bool failedAny = false;
    module.walk([&](memref::AllocOp alloc) {
      StringAttr role = helper.getAttr(alloc);
      if (!role)
        return;
      MemRefType type = alloc.getType();
      if (type.getRank() != 1 || !type.hasStaticShape() ||
          !type.getLayout().isIdentity() || type.getMemorySpace() ||
          type.getNumElements() < 1) {
        alloc.emitError() << "fuse-split-k-buffers: a split-K buffer must be "
                             "a 1-D memref.alloc of static size, got "
                          << type;
        failedAny = true;
        return;
      }
      std::optional<int64_t> elements = type.getNumElements();
      bool isPartials = role.getValue() == "partials";
      (isPartials ? partials : counters).push_back(alloc);
      int64_t &most = isPartials ? mostPartials : mostCounters;
      most = std::max(most, *elements);
    });
    if (failedAny)
      return signalPassFailure();
    SymbolTable symbols(module);
    OpBuilder top(ctx); // globals are made detached, then inserted
    auto place = [&](ArrayRef<memref::AllocOp> allocs, int64_t most,
                     Type element, StringRef name, bool zeroed) {
      if (allocs.empty())
        return;
      auto type = MemRefType::get({most}, element);
      Attribute initial = UnitAttr::get(ctx);
      if (zeroed)
        initial = DenseElementsAttr::get(RankedTensorType::get({most}, element),
                                         top.getZeroAttr(element));
      auto global = memref::GlobalOp::create(
          top, module.getLoc(), name, top.getStringAttr("private"), type,
          initial, /*constant=*/false,
          /*alignment=*/top.getI64IntegerAttr(256));
      // Renamed where the module already has the name.
      symbols.insert(global, module.getBody()->begin());
      for (memref::AllocOp alloc : allocs) {
        OpBuilder b(alloc);
        Value whole = memref::GetGlobalOp::create(b, alloc.getLoc(), type,
                                                  global.getSymName());
        // The kernel's own extent of the global (same element type,
        // identity layout).
        int64_t extent = alloc.getType().getNumElements();
        Value view = memref::ReinterpretCastOp::create(
            b, alloc.getLoc(), alloc.getType(), whole, /*offset=*/0,
            /*sizes=*/ArrayRef<int64_t>{extent},
            /*strides=*/ArrayRef<int64_t>{1});
        for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
          if (isa<memref::DeallocOp, linalg::FillOp>(user))
            user->erase();
        alloc.replaceAllUsesWith(view);
        alloc.erase();
      }
    };
    place(partials, mostPartials, Float32Type::get(ctx),
          "__fuse_split_k_partials", /*zeroed=*/false);
    place(counters, mostCounters, IntegerType::get(ctx, 32),
          "__fuse_split_k_counters", /*zeroed=*/true);
  }
};

} // namespace
