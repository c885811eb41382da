//===- HoistGroupScratch.cpp - group scratch buffers to the caller --------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// fuse-hoist-group-scratch: a group function's intermediate buffers become
// arguments its callers allocate around the call, so fuse-plan-buffers
// places them in the arena instead of a malloc per call.
//
//===----------------------------------------------------------------------===//

#include "fuse/Memory/Passes.h"

#include "AliasOps.h"

#include "fuse/Dialect/Fuse/IR/FuseDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEHOISTGROUPSCRATCH
#include "fuse/Memory/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

/// Whether `alloc` (in `block`, the function's body) is scratch the
/// caller may own: freed only by plain deallocs in `block`, never leaving
/// the function. Collects the deallocs.
bool isHoistableScratch(memref::AllocOp alloc, Block &block,
                        SmallVectorImpl<Operation *> &deallocs) {
  MemRefType type = alloc.getType();
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      type.getMemorySpace() || !alloc.getDynamicSizes().empty() ||
      !alloc.getSymbolOperands().empty())
    return false;
  SmallVector<Value> worklist = {alloc.getResult()};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (user->hasTrait<OpTrait::IsTerminator>())
        return false;
      if (isa<memref::DeallocOp>(user)) {
        if (value != alloc.getResult() || user->getBlock() != &block)
          return false;
        deallocs.push_back(user);
        continue;
      }
      if (mlir::fuse::detail::isAliasOp(user)) {
        for (Value result : user->getResults())
          if (isa<BaseMemRefType>(result.getType()))
            worklist.push_back(result);
        continue;
      }
      if (llvm::any_of(user->getResultTypes(),
                       [](Type t) { return isa<BaseMemRefType>(t); }))
        return false;
    }
  }
  return !deallocs.empty();
}

struct FuseHoistGroupScratchPass
    : public mlir::fuse::impl::FuseHoistGroupScratchBase<
          FuseHoistGroupScratchPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    SymbolTableCollection tables;
    SymbolUserMap users(tables, module);
    for (func::FuncOp fn : module.getOps<func::FuncOp>()) {
      if (fn.isExternal() || !fn.isPrivate() || !fn.getBody().hasOneBlock() ||
          !FuseDialect::KindAttrHelper(context).isAttrPresent(fn) ||
          FuseDialect::NoPlanAttrHelper(context).isAttrPresent(fn))
        continue;
      SmallVector<func::CallOp> calls;
      bool onlyCalls = true;
      for (Operation *user : users.getUsers(fn)) {
        auto call = dyn_cast<func::CallOp>(user);
        if (!call) {
          onlyCalls = false;
          break;
        }
        calls.push_back(call);
      }
      if (!onlyCalls || calls.empty())
        continue;
      Block &block = fn.getBody().front();
      SmallVector<std::pair<memref::AllocOp, SmallVector<Operation *>>> moves;
      for (auto alloc : block.getOps<memref::AllocOp>()) {
        SmallVector<Operation *> deallocs;
        if (isHoistableScratch(alloc, block, deallocs))
          moves.emplace_back(alloc, std::move(deallocs));
      }
      if (moves.empty())
        continue;
      // The function takes the buffers as trailing arguments.
      SmallVector<Type> added;
      SmallVector<IntegerAttr> alignments;
      for (auto &[alloc, deallocs] : moves) {
        BlockArgument arg = block.addArgument(alloc.getType(), alloc.getLoc());
        alloc.getResult().replaceAllUsesWith(arg);
        for (Operation *dealloc : deallocs)
          dealloc->erase();
        added.push_back(alloc.getType());
        alignments.push_back(alloc.getAlignmentAttr());
        alloc->erase();
      }
      SmallVector<Type> inputs(fn.getArgumentTypes());
      inputs.append(added.begin(), added.end());
      fn.setType(FunctionType::get(context, inputs, fn.getResultTypes()));
      // Each caller allocates them around the call.
      for (func::CallOp call : calls) {
        OpBuilder builder(call);
        SmallVector<Value> operands(call.getOperands());
        SmallVector<Value> buffers;
        for (auto [type, alignment] : llvm::zip(added, alignments)) {
          auto buffer = memref::AllocOp::create(
              builder, call.getLoc(), cast<MemRefType>(type), alignment);
          buffers.push_back(buffer);
        }
        operands.append(buffers.begin(), buffers.end());
        call->setOperands(operands);
        builder.setInsertionPointAfter(call);
        for (Value buffer : buffers)
          memref::DeallocOp::create(builder, call.getLoc(), buffer);
      }
    }
  }
};

} // namespace
