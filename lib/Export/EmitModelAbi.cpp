//===- EmitModelAbi.cpp - a compiled model's exported entry point ---------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// After the LLVM lowering: fuse_model_run (one data pointer per input and
// output, and the workspace, expanded into the memref descriptors the
// lowered entry function takes), fuse_model_signature and
// fuse_model_abi_version, as include/fuse-c/ModelAbi.h describes them.
//
//===----------------------------------------------------------------------===//

#include "ElementTypes.h"
#include "fuse-c/ModelAbi.h"
#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "fuse/Dialect/Fuse/Utils/Describe.h"
#include "fuse/Export/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEEMITMODELABI
#include "fuse/Export/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

/// `name` with every byte outside [A-Za-z0-9_.:/+-] as %XX.
std::string escapeName(StringRef name) {
  std::string text;
  for (unsigned char c : name) {
    if (llvm::isAlnum(c) || llvm::is_contained(StringRef("_.:/+-"), c)) {
      text += c;
      continue;
    }
    text += '%';
    text += llvm::hexdigit(c >> 4);
    text += llvm::hexdigit(c & 15);
  }
  return text;
}

struct Port {
  std::string name;
  ShapedType type;
};

struct EmitModelAbi : public fuse::impl::FuseEmitModelAbiBase<EmitModelAbi> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    fuse::FuseDialect::EntryAttrHelper entryHelper(ctx);
    SmallVector<LLVM::LLVMFuncOp> entries;
    for (auto fn : module.getOps<LLVM::LLVMFuncOp>())
      if (entryHelper.isAttrPresent(fn))
        entries.push_back(fn);
    if (entries.size() != 1) {
      module.emitError() << "fuse-emit-model-abi: expected one LLVM function "
                            "marked fuse.entry (fuse-mark-entry, then the "
                            "LLVM lowering), found "
                         << entries.size();
      return signalPassFailure();
    }
    LLVM::LLVMFuncOp entry = entries.front();
    if (entry.isExternal()) {
      entry.emitError() << "fuse-emit-model-abi: the entry has no body";
      return signalPassFailure();
    }
    for (StringRef symbol : {FUSE_MODEL_RUN_SYMBOL, FUSE_MODEL_SIGNATURE_SYMBOL,
                             FUSE_MODEL_ABI_VERSION_SYMBOL})
      if (module.lookupSymbol(symbol)) {
        module.emitError() << "fuse-emit-model-abi: the module already "
                              "defines '"
                           << symbol << "'";
        return signalPassFailure();
      }

    // The inputs and outputs fuse-mark-entry recorded.
    DictionaryAttr record = entryHelper.getAttr(entry);
    auto ports = [&](StringRef key) {
      SmallVector<Port> list;
      for (Attribute item : cast<ArrayAttr>(record.get(key))) {
        auto dict = cast<DictionaryAttr>(item);
        list.push_back(
            {dict.getAs<StringAttr>("name").getValue().str(),
             cast<ShapedType>(dict.getAs<TypeAttr>("type").getValue())});
      }
      return list;
    };
    SmallVector<Port> inputs = ports("inputs"), outputs = ports("outputs");

    // The lowered entry: per buffer (inputs, then outputs, then the
    // workspace if fuse-plan-buffers added one) its descriptor's fields,
    // and no result (the outputs are the caller's buffers).
    auto ptrType = LLVM::LLVMPointerType::get(ctx);
    auto i64 = IntegerType::get(ctx, 64);
    auto i32 = IntegerType::get(ctx, 32);
    LLVM::LLVMFunctionType fnType = entry.getFunctionType();
    // A memref descriptor's fields: two pointers, the offset, the sizes and
    // the strides.
    SmallVector<Type> expectedParams;
    auto descriptorFields = [&](int64_t rank) {
      expectedParams.append({ptrType, ptrType});
      expectedParams.append(1 + 2 * rank, i64);
    };
    for (const Port &port : llvm::concat<const Port>(inputs, outputs))
      descriptorFields(port.type.getRank());
    int64_t expected = expectedParams.size();
    int64_t workspaceBytes = 0;
    bool hasWorkspace = false;
    int64_t actual = fnType.getNumParams();
    if (actual == expected + 5) {
      auto memory = fuse::FuseDialect::MemoryAttrHelper(ctx).getAttr(entry);
      auto arena = memory ? memory.getAs<IntegerAttr>("arena") : IntegerAttr();
      if (!arena) {
        entry.emitError() << "fuse-emit-model-abi: the entry takes a buffer "
                             "besides its inputs and outputs but records no "
                             "arena (fuse.memory) for it";
        return signalPassFailure();
      }
      hasWorkspace = true;
      workspaceBytes = arena.getInt();
      descriptorFields(1);
    } else if (actual != expected) {
      entry.emitError() << "fuse-emit-model-abi: the entry takes " << actual
                        << " LLVM arguments; its inputs and outputs as "
                           "buffers (fuse-to-cpu{entry-abi=true}) take "
                        << expected << " (or " << expected + 5
                        << " with a workspace)";
      return signalPassFailure();
    }
    if (!isa<LLVM::LLVMVoidType>(fnType.getReturnType())) {
      entry.emitError() << "fuse-emit-model-abi: the entry still returns "
                        << fnType.getReturnType()
                        << "; its results must be caller buffers";
      return signalPassFailure();
    }
    for (auto [i, param, wanted] :
         llvm::enumerate(fnType.getParams(), expectedParams)) {
      if (param != wanted) {
        entry.emitError() << "fuse-emit-model-abi: LLVM argument " << i
                          << " of the entry is " << param << ", expected "
                          << wanted << " (a memref descriptor's field)";
        return signalPassFailure();
      }
    }

    // The kernels: the functions the entry calls that fuse-outline-groups
    // made (they carry fuse.kind), in call order, named by the ONNX nodes
    // (names in their ops' locations) they hold.
    struct Kernel {
      LLVM::LLVMFuncOp fn;
      std::string rule, nodes;
      SmallVector<LLVM::CallOp> calls;
    };
    SmallVector<Kernel> kernels;
    llvm::DenseMap<Operation *, unsigned> kernelIndex;
    fuse::FuseDialect::KindAttrHelper kindHelper(ctx);
    fuse::FuseDialect::RuleAttrHelper ruleHelper(ctx);
    entry.walk([&](LLVM::CallOp call) {
      auto callee =
          call.getCallee()
              ? module.lookupSymbol<LLVM::LLVMFuncOp>(*call.getCallee())
              : LLVM::LLVMFuncOp();
      if (!callee || callee.isExternal() || !kindHelper.isAttrPresent(callee))
        return;
      auto [it, inserted] = kernelIndex.try_emplace(callee, kernels.size());
      if (inserted) {
        Kernel kernel{callee, "", "", {}};
        if (StringAttr rule = ruleHelper.getAttr(callee))
          kernel.rule = rule.getValue().str();
        // Its ops and those of the functions it reaches that are no kernel
        // of their own (the loop bodies its threads run).
        llvm::SetVector<StringRef> names;
        llvm::SetVector<Operation *> reached;
        reached.insert(callee);
        for (size_t next = 0; next < reached.size(); ++next)
          reached[next]->walk([&](Operation *op) {
            fuse::findInLocation(op->getLoc(), [&](Location l) {
              auto name = dyn_cast<NameLoc>(l);
              if (name)
                names.insert(name.getName().getValue());
              return bool(name);
            });
            FlatSymbolRefAttr target;
            if (auto inner = dyn_cast<LLVM::CallOp>(op))
              target = inner.getCalleeAttr();
            else if (auto address = dyn_cast<LLVM::AddressOfOp>(op))
              target = address.getGlobalNameAttr();
            auto function = target
                                ? module.lookupSymbol<LLVM::LLVMFuncOp>(target)
                                : LLVM::LLVMFuncOp();
            if (function && !function.isExternal() &&
                !kindHelper.isAttrPresent(function))
              reached.insert(function);
          });
        constexpr unsigned kMaxNames = 16;
        for (auto [i, name] : llvm::enumerate(names)) {
          if (i == kMaxNames) {
            kernel.nodes +=
                " + " + std::to_string(names.size() - kMaxNames) + " more";
            break;
          }
          kernel.nodes += (i ? " + " : "") + name.str();
        }
        kernels.push_back(std::move(kernel));
      }
      kernels[it->second].calls.push_back(call);
    });

    bool reentrant = true;
    for (auto fn : module.getOps<LLVM::LLVMFuncOp>()) {
      if (fn.isExternal())
        continue;
      fn.setLinkage(LLVM::Linkage::Internal);
      if (fn != entry)
        fn.setNoInline(true);
    }
    // The parallel-for hook (fuse-cpu-dispatch-parallel) stays exported:
    // the runtime sets it once, at load.
    bool parallel = false;
    for (auto global : module.getOps<LLVM::GlobalOp>()) {
      if (global.getSymName() == FUSE_MODEL_PARALLEL_HOOK_SYMBOL) {
        parallel = true;
        continue;
      }
      bool defined = global.getValueOrNull() || global.getInitializerBlock();
      if (!defined)
        continue;
      if (!global.getConstant())
        reentrant = false;
      if (global.getLinkage() == LLVM::Linkage::External)
        global.setLinkage(LLVM::Linkage::Internal);
    }

    // Weights as byte arrays: LLVM writes an i8 array into the object as
    // one block, a float array element by element (BERT-base: 13 s of
    // object emission, against 2 s as bytes). The globals are only
    // addressed (opaque pointers), so their type is free to change.
    auto i8 = IntegerType::get(ctx, 8);
    for (auto global : module.getOps<LLVM::GlobalOp>()) {
      if (!global.getConstant())
        continue;
      Attribute value = global.getValueOrNull();
      Attribute bytes;
      int64_t size = 0;
      if (auto resource = dyn_cast_or_null<DenseResourceElementsAttr>(value)) {
        AsmResourceBlob *blob = resource.getRawHandle().getBlob();
        Type element = resource.getType().getElementType();
        if (!blob || !element.isIntOrFloat() ||
            element.getIntOrFloatBitWidth() % 8 != 0)
          continue;
        size = blob->getData().size();
        if (size != resource.getType().getNumElements() *
                        (element.getIntOrFloatBitWidth() / 8))
          continue;
        bytes = DenseResourceElementsAttr::get(
            RankedTensorType::get({size}, i8), resource.getRawHandle());
      } else if (auto dense =
                     dyn_cast_or_null<DenseIntOrFPElementsAttr>(value)) {
        Type element = dense.getElementType();
        if (dense.isSplat() || element.getIntOrFloatBitWidth() % 8 != 0)
          continue;
        ArrayRef<char> raw = dense.getRawData();
        size = raw.size();
        if (size < 256)
          continue;
        bytes = DenseElementsAttr::getFromRawBuffer(
            RankedTensorType::get({size}, i8), raw);
      }
      if (!bytes)
        continue;
      if (!global.getAlignment())
        global.setAlignment(
            DataLayout::closest(global).getTypeABIAlignment(global.getType()));
      global.setGlobalType(LLVM::LLVMArrayType::get(i8, size));
      global.setValueAttr(bytes);
    }

    // The signature.
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "fuse-model " << FUSE_MODEL_ABI_VERSION << "\n"
       << "target " << target << "\n"
       << "workspace " << workspaceBytes << "\n"
       << "reentrant " << (reentrant ? 1 : 0) << "\n";
    auto line = [&](StringRef role, const Port &port) {
      os << role << " " << escapeName(port.name) << " "
         << fuse::detail::modelElementTypeName(port.type.getElementType())
         << " ";
      if (port.type.getRank() == 0)
        os << "scalar";
      else
        llvm::interleave(port.type.getShape(), os, "x");
      os << "\n";
    };
    for (const Port &port : inputs)
      line("input", port);
    for (const Port &port : outputs)
      line("output", port);
    for (Kernel &kernel : kernels)
      os << "kernel " << escapeName(kernel.fn.getName()) << " "
         << (kernel.rule.empty() ? "-" : escapeName(kernel.rule)) << " "
         << (kernel.nodes.empty() ? "-" : escapeName(kernel.nodes)) << "\n";
    if (profile)
      os << "profile 1\n";
    if (parallel)
      os << "parallel 1\n";
    text.push_back('\0');

    Location loc = entry.getLoc();
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    LLVM::GlobalOp::create(
        builder, loc,
        LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), text.size()),
        /*isConstant=*/true, LLVM::Linkage::External,
        FUSE_MODEL_SIGNATURE_SYMBOL, builder.getStringAttr(text));
    LLVM::GlobalOp::create(builder, loc, i32, /*isConstant=*/true,
                           LLVM::Linkage::External,
                           FUSE_MODEL_ABI_VERSION_SYMBOL,
                           builder.getI32IntegerAttr(FUSE_MODEL_ABI_VERSION));

    // The profile: a hook the runtime sets at load (never the model's code),
    // called with (kernel, 0) before and (kernel, 1) after each kernel.
    if (profile) {
      auto hook = LLVM::GlobalOp::create(
          builder, loc, ptrType, /*isConstant=*/false, LLVM::Linkage::External,
          FUSE_MODEL_PROFILE_HOOK_SYMBOL, Attribute());
      {
        OpBuilder init =
            OpBuilder::atBlockEnd(&hook.getInitializerRegion().emplaceBlock());
        Value null = LLVM::ZeroOp::create(init, loc, ptrType);
        LLVM::ReturnOp::create(init, loc, null);
      }
      auto eventType =
          LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {i32, i32});
      auto event =
          LLVM::LLVMFuncOp::create(builder, loc, "__fuse_profile_event",
                                   eventType, LLVM::Linkage::Internal);
      Block *start = event.addEntryBlock(builder);
      Block *callBlock = new Block(), *done = new Block();
      event.getBody().push_back(callBlock);
      event.getBody().push_back(done);
      {
        OpBuilder b = OpBuilder::atBlockEnd(start);
        Value address = LLVM::AddressOfOp::create(b, loc, hook);
        Value function = LLVM::LoadOp::create(b, loc, ptrType, address);
        Value null = LLVM::ZeroOp::create(b, loc, ptrType);
        Value isNull = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq,
                                            function, null);
        LLVM::CondBrOp::create(b, loc, isNull, done, callBlock);
        b.setInsertionPointToEnd(callBlock);
        SmallVector<Value> operands = {function, start->getArgument(0),
                                       start->getArgument(1)};
        LLVM::CallOp::create(b, loc, eventType, operands);
        LLVM::BrOp::create(b, loc, done);
        b.setInsertionPointToEnd(done);
        LLVM::ReturnOp::create(b, loc, ValueRange());
      }
      for (size_t k = 0; k < kernels.size(); ++k)
        for (LLVM::CallOp call : kernels[k].calls) {
          OpBuilder b(call);
          auto emit = [&](int32_t phase) {
            Value id =
                LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(k));
            Value when = LLVM::ConstantOp::create(b, loc, i32,
                                                  b.getI32IntegerAttr(phase));
            LLVM::CallOp::create(b, loc, event, ValueRange{id, when});
          };
          emit(0);
          b.setInsertionPointAfter(call);
          emit(1);
        }
    }

    // fuse_model_run(inputs, outputs, workspace) -> 0.
    auto runType =
        LLVM::LLVMFunctionType::get(i32, {ptrType, ptrType, ptrType});
    auto run = LLVM::LLVMFuncOp::create(builder, loc, FUSE_MODEL_RUN_SYMBOL,
                                        runType, LLVM::Linkage::External);
    Block *body = run.addEntryBlock(builder);
    builder.setInsertionPointToStart(body);
    auto constant = [&](int64_t value) -> Value {
      return LLVM::ConstantOp::create(builder, loc, i64,
                                      builder.getI64IntegerAttr(value));
    };
    Value zero = constant(0);
    SmallVector<Value> args;
    auto descriptor = [&](Value data, ArrayRef<int64_t> shape) {
      args.append({data, data, zero});
      for (int64_t size : shape)
        args.push_back(constant(size));
      int64_t stride = 1;
      SmallVector<Value> strides(shape.size());
      for (int64_t d = shape.size() - 1; d >= 0; --d) {
        strides[d] = constant(stride);
        stride *= shape[d];
      }
      args.append(strides.begin(), strides.end());
    };
    auto bufferList = [&](Value array, ArrayRef<Port> list) {
      for (auto [k, port] : llvm::enumerate(list)) {
        Value slot = LLVM::GEPOp::create(builder, loc, ptrType, ptrType, array,
                                         ArrayRef<LLVM::GEPArg>{(int32_t)k});
        Value data = LLVM::LoadOp::create(builder, loc, ptrType, slot);
        descriptor(data, port.type.getShape());
      }
    };
    bufferList(body->getArgument(0), inputs);
    bufferList(body->getArgument(1), outputs);
    if (hasWorkspace)
      descriptor(body->getArgument(2), {workspaceBytes});
    LLVM::CallOp::create(builder, loc, entry, args);
    Value ok = LLVM::ConstantOp::create(builder, loc, i32,
                                        builder.getI32IntegerAttr(0));
    LLVM::ReturnOp::create(builder, loc, ok);
  }
};

} // namespace
