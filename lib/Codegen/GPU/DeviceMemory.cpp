//===- DeviceMemory.cpp - host buffers that the kernels can reach ---------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// The host side of fuse-to-nvptx allocates the buffers between kernels and
// the results with malloc, and passes constant weights as pointers to host
// globals. A kernel cannot read either (without system-wide unified
// memory). This pass, on the LLVM dialect after gpu-to-llvm, points them at
// memory the device reaches, through fuse's CUDA runtime library:
//   malloc(n)            -> fuseDeviceMalloc(n)   (CUDA managed memory: the
//                                                  host reads results too)
//   free(p)              -> fuseDeviceFree(p)
//   addressof @global    -> fuseDeviceConstant(@global, bytes)
//                           (a copy in device memory, made once per
//                            global and process, where only kernels reach
//                            it: constant weights, and the split-K
//                            kernels' partials and counters)
//                        -> fuseSharedConstant(@global, bytes)
//                           (the same in managed memory, where the host
//                            may read it too: a constant the function
//                            returns or hands to another function)
//
//===----------------------------------------------------------------------===//

#include "TransitiveUses.h"
#include "fuse/Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEDEVICEMEMORY
#include "fuse/Codegen/GPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

/// Declares `name` with `type` at the start of `module` unless it exists.
LLVM::LLVMFuncOp declare(ModuleOp module, StringRef name,
                         LLVM::LLVMFunctionType type) {
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  return LLVM::LLVMFuncOp::create(b, module.getLoc(), name, type);
}

/// Whether the pointer `value` reaches only kernels: every use, through
/// address arithmetic and the memref descriptors built from it, is a
/// kernel operand of a gpu.launch_func. Descriptor fields that are not
/// pointers (offsets, sizes, strides) carry no address and are not
/// followed; anything else (a return, a call, a store, a load, ptrtoint)
/// may let the host read the memory.
bool onlyKernelsReach(Value value) {
  using fuse::detail::UseVerdict;
  return fuse::detail::allUsesAccepted(value, [](OpOperand &use) {
    Operation *user = use.getOwner();
    if (auto launch = dyn_cast<gpu::LaunchFuncOp>(user)) {
      unsigned first = launch.getKernelOperands().getBeginOperandIndex();
      return use.getOperandNumber() >= first &&
                     use.getOperandNumber() <
                         first + launch.getNumKernelOperands()
                 ? UseVerdict::accept
                 : UseVerdict::reject;
    }
    if (!isa<LLVM::GEPOp, LLVM::InsertValueOp, LLVM::ExtractValueOp,
             LLVM::AddrSpaceCastOp>(user))
      return UseVerdict::reject;
    // A descriptor field that is no pointer carries no address.
    Type type = user->getResult(0).getType();
    bool carriesPointer = isa<LLVM::LLVMPointerType>(type);
    if (auto structType = dyn_cast<LLVM::LLVMStructType>(type))
      carriesPointer = llvm::any_of(structType.getBody(), [](Type field) {
        return isa<LLVM::LLVMPointerType>(field);
      });
    return carriesPointer ? UseVerdict::follow : UseVerdict::accept;
  });
}

struct DeviceMemoryPass
    : public fuse::impl::FuseDeviceMemoryBase<DeviceMemoryPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = module.getContext();
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    auto i64 = IntegerType::get(ctx, 64);
    auto voidType = LLVM::LLVMVoidType::get(ctx);
    DataLayout layout(module);

    // Host functions: the LLVM functions of the module itself, not those of
    // its gpu.modules.
    SmallVector<LLVM::LLVMFuncOp> hosts;
    for (auto fn : module.getOps<LLVM::LLVMFuncOp>())
      if (!fn.isExternal())
        hosts.push_back(fn);

    SmallVector<LLVM::CallOp> mallocs, frees;
    SmallVector<LLVM::AddressOfOp> constants;
    for (LLVM::LLVMFuncOp fn : hosts) {
      fn.walk([&](Operation *op) {
        if (auto call = dyn_cast<LLVM::CallOp>(op)) {
          std::optional<StringRef> callee = call.getCallee();
          if (callee == "malloc")
            mallocs.push_back(call);
          else if (callee == "free")
            frees.push_back(call);
        } else if (auto address = dyn_cast<LLVM::AddressOfOp>(op)) {
          auto global = dyn_cast_or_null<LLVM::GlobalOp>(
              module.lookupSymbol(address.getGlobalNameAttr()));
          if (global && (global.getConstant() ||
                         global.getSymName().starts_with("__fuse_split_k_")))
            constants.push_back(address);
        }
      });
    }
    for (LLVM::CallOp call : mallocs) {
      LLVM::LLVMFuncOp deviceMalloc = declare(
          module, "fuseDeviceMalloc", LLVM::LLVMFunctionType::get(ptr, {i64}));
      OpBuilder b(call);
      auto replacement = LLVM::CallOp::create(b, call.getLoc(), deviceMalloc,
                                              call.getArgOperands());
      call.replaceAllUsesWith(replacement.getResults());
      call.erase();
    }
    for (LLVM::CallOp call : frees) {
      LLVM::LLVMFuncOp deviceFree =
          declare(module, "fuseDeviceFree",
                  LLVM::LLVMFunctionType::get(voidType, {ptr}));
      OpBuilder b(call);
      LLVM::CallOp::create(b, call.getLoc(), deviceFree, call.getArgOperands());
      call.erase();
    }
    for (LLVM::AddressOfOp address : constants) {
      LLVM::LLVMFuncOp deviceConstant =
          declare(module,
                  onlyKernelsReach(address.getResult()) ? "fuseDeviceConstant"
                                                        : "fuseSharedConstant",
                  LLVM::LLVMFunctionType::get(ptr, {ptr, i64}));
      auto global = cast<LLVM::GlobalOp>(
          module.lookupSymbol(address.getGlobalNameAttr()));
      int64_t bytes = layout.getTypeSize(global.getGlobalType());
      OpBuilder b(address->getBlock(), std::next(address->getIterator()));
      Value size = LLVM::ConstantOp::create(b, address.getLoc(), i64,
                                            b.getI64IntegerAttr(bytes));
      auto copy = LLVM::CallOp::create(b, address.getLoc(), deviceConstant,
                                       ValueRange{address.getResult(), size});
      address.getResult().replaceAllUsesExcept(copy.getResult(), copy);
    }
  }
};

} // namespace
