//===- DispatchParallel.cpp - fuse-cpu-dispatch-parallel ------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// Calls of outlined parallel loop bodies (fuse-cpu-outline-parallel) go
// through the runtime's parallel-for hook: their arguments in a record on
// the caller's stack, a task function that unpacks it.
//
//===----------------------------------------------------------------------===//

#include "fuse/Codegen/CPU/Passes.h"

#include "fuse-c/ModelAbi.h"
#include "fuse/Dialect/Fuse/IR/FuseDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSECPUDISPATCHPARALLEL
#include "fuse/Codegen/CPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

struct FuseCpuDispatchParallelPass
    : public fuse::impl::FuseCpuDispatchParallelBase<
          FuseCpuDispatchParallelPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    SmallVector<LLVM::LLVMFuncOp> bodies;
    for (auto fn : module.getOps<LLVM::LLVMFuncOp>())
      if (FuseDialect::ParallelBodyAttrHelper(context).isAttrPresent(fn))
        bodies.push_back(fn);
    if (bodies.empty())
      return;

    SymbolTable symbols(module);
    Location loc = module.getLoc();
    auto ptrType = LLVM::LLVMPointerType::get(context);
    auto i64 = IntegerType::get(context, 64);
    auto voidType = LLVM::LLVMVoidType::get(context);
    auto taskType = LLVM::LLVMFunctionType::get(voidType, {ptrType, i64, i64});
    auto hookType =
        LLVM::LLVMFunctionType::get(voidType, {ptrType, ptrType, i64, i64});
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());

    // The hook the runtime sets; null until it does.
    auto hook = dyn_cast_or_null<LLVM::GlobalOp>(
        symbols.lookup(FUSE_MODEL_PARALLEL_HOOK_SYMBOL));
    if (!hook) {
      hook = LLVM::GlobalOp::create(
          builder, loc, ptrType, /*isConstant=*/false, LLVM::Linkage::External,
          FUSE_MODEL_PARALLEL_HOOK_SYMBOL, Attribute());
      OpBuilder init =
          OpBuilder::atBlockEnd(&hook.getInitializerRegion().emplaceBlock());
      LLVM::ReturnOp::create(init, loc,
                             LLVM::ZeroOp::create(init, loc, ptrType).getRes());
      symbols.insert(hook);
    } else if (hook.getGlobalType() != ptrType) {
      hook.emitError() << "fuse-cpu-dispatch-parallel: '"
                       << FUSE_MODEL_PARALLEL_HOOK_SYMBOL
                       << "' exists and is not a pointer";
      return signalPassFailure();
    }

    // __fuse_parallel_for(task, context, begin, end): through the hook, or
    // on this thread.
    auto parallelFor = LLVM::LLVMFuncOp::create(
        builder, loc, "__fuse_parallel_for", hookType, LLVM::Linkage::Internal);
    symbols.insert(parallelFor);
    {
      Block *start = parallelFor.addEntryBlock(builder);
      Block *viaHook = new Block(), *inline_ = new Block();
      parallelFor.getBody().push_back(viaHook);
      parallelFor.getBody().push_back(inline_);
      OpBuilder b = OpBuilder::atBlockEnd(start);
      Value address = LLVM::AddressOfOp::create(b, loc, hook);
      Value function = LLVM::LoadOp::create(b, loc, ptrType, address);
      Value null = LLVM::ZeroOp::create(b, loc, ptrType);
      Value isNull =
          LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, function, null);
      LLVM::CondBrOp::create(b, loc, isNull, inline_, viaHook);
      b.setInsertionPointToEnd(viaHook);
      SmallVector<Value> hookArgs = {function};
      hookArgs.append(start->args_begin(), start->args_end());
      LLVM::CallOp::create(b, loc, hookType, hookArgs);
      LLVM::ReturnOp::create(b, loc, ValueRange());
      b.setInsertionPointToEnd(inline_);
      SmallVector<Value> taskArgs(start->args_begin(), start->args_end());
      LLVM::CallOp::create(b, loc, taskType, taskArgs);
      LLVM::ReturnOp::create(b, loc, ValueRange());
    }

    // The bodies' calls, found in one walk before any task adds its own.
    llvm::DenseMap<StringAttr, SmallVector<LLVM::CallOp>> callsOf;
    for (LLVM::LLVMFuncOp body : bodies)
      callsOf[body.getSymNameAttr()];
    module.walk([&](LLVM::CallOp call) {
      FlatSymbolRefAttr callee = call.getCalleeAttr();
      if (!callee)
        return;
      auto it = callsOf.find(callee.getAttr());
      if (it != callsOf.end())
        it->second.push_back(call);
    });

    for (LLVM::LLVMFuncOp body : bodies) {
      ArrayRef<Type> params = body.getFunctionType().getParams();
      if (params.size() < 2 || params[0] != i64 || params[1] != i64 ||
          !isa<LLVM::LLVMVoidType>(body.getFunctionType().getReturnType())) {
        body.emitError() << "fuse-cpu-dispatch-parallel: a parallel body "
                            "takes (i64 begin, i64 end, ...) and returns "
                            "nothing, got "
                         << body.getFunctionType();
        return signalPassFailure();
      }
      auto recordType =
          LLVM::LLVMStructType::getLiteral(context, params.drop_front(2));

      const SmallVector<LLVM::CallOp> &calls = callsOf[body.getSymNameAttr()];

      // The task: unpacks the record and calls the body.
      builder.setInsertionPointAfter(body);
      auto task = LLVM::LLVMFuncOp::create(builder, body.getLoc(),
                                           (body.getSymName() + "_task").str(),
                                           taskType, LLVM::Linkage::Internal);
      symbols.insert(task);
      {
        Block *entry = task.addEntryBlock(builder);
        OpBuilder b = OpBuilder::atBlockEnd(entry);
        SmallVector<Value> args = {entry->getArgument(1),
                                   entry->getArgument(2)};
        for (auto [i, type] : llvm::enumerate(params.drop_front(2))) {
          Value field = LLVM::GEPOp::create(
              b, loc, ptrType, recordType, entry->getArgument(0),
              ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
          args.push_back(LLVM::LoadOp::create(b, loc, type, field));
        }
        LLVM::CallOp::create(b, loc, body, args);
        LLVM::ReturnOp::create(b, loc, ValueRange());
      }

      // Each call: the record, then the parallel-for.
      for (LLVM::CallOp call : calls) {
        auto caller = call->getParentOfType<LLVM::LLVMFuncOp>();
        OpBuilder entry =
            OpBuilder::atBlockBegin(&caller.getFunctionBody().front());
        Value one = LLVM::ConstantOp::create(entry, loc, i64,
                                             entry.getI64IntegerAttr(1));
        Value record =
            LLVM::AllocaOp::create(entry, loc, ptrType, recordType, one);
        OpBuilder b(call);
        for (auto [i, value] :
             llvm::enumerate(call.getArgOperands().drop_front(2))) {
          Value field = LLVM::GEPOp::create(
              b, loc, ptrType, recordType, record,
              ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
          LLVM::StoreOp::create(b, loc, value, field);
        }
        Value taskAddress = LLVM::AddressOfOp::create(b, loc, task);
        LLVM::CallOp::create(b, call.getLoc(), parallelFor,
                             ValueRange{taskAddress, record,
                                        call.getArgOperands()[0],
                                        call.getArgOperands()[1]});
        call.erase();
      }
    }
  }
};

} // namespace
