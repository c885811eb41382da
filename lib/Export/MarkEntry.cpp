//===- MarkEntry.cpp - the function a compiled model runs -----------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// Chooses the entry function of a compiled model, checks that the runtime
// can describe every argument and result (static shapes, known element
// types) and records their names and types in `fuse.entry`.
//
//===----------------------------------------------------------------------===//

#include "ElementTypes.h"
#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "fuse/Export/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEMARKENTRY
#include "fuse/Export/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

struct MarkEntry : public fuse::impl::FuseMarkEntryBase<MarkEntry> {
  using Base::Base;

  func::FuncOp chooseEntry(ModuleOp module) {
    if (!function.empty()) {
      auto fn = module.lookupSymbol<func::FuncOp>(function);
      if (!fn || fn.isExternal()) {
        module.emitError() << "fuse-mark-entry: no function '" << function
                           << "' with a body in the module";
        return {};
      }
      return fn;
    }
    SmallVector<func::FuncOp> candidates;
    for (auto fn : module.getOps<func::FuncOp>())
      if (fn.isPublic() && !fn.isExternal())
        candidates.push_back(fn);
    if (candidates.size() == 1)
      return candidates.front();
    InFlightDiagnostic diag = module.emitError();
    if (candidates.empty()) {
      diag << "fuse-mark-entry: the module has no public function with a "
              "body to run";
      return {};
    }
    diag << "fuse-mark-entry: the module has " << candidates.size()
         << " public functions (";
    llvm::interleaveComma(candidates, diag,
                          [&](func::FuncOp fn) { diag << fn.getName(); });
    diag << "); name the one to run (function=NAME)";
    return {};
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp fn = chooseEntry(module);
    if (!fn)
      return signalPassFailure();
    MLIRContext *ctx = &getContext();
    llvm::StringSet<> names;
    bool ok = true;
    auto describe = [&](Type type, DictionaryAttr attrs, StringRef role,
                        unsigned index) -> Attribute {
      auto shaped = dyn_cast<ShapedType>(type);
      auto name = attrs ? attrs.getAs<StringAttr>("onnx.name") : StringAttr();
      std::string label = (role + " " + Twine(index)).str();
      if (name)
        label += " ('" + name.getValue().str() + "')";
      if (!shaped || !isa<RankedTensorType, MemRefType>(type) ||
          !shaped.hasStaticShape()) {
        fn.emitError() << "fuse-mark-entry: " << label << " of '"
                       << fn.getName() << "' is " << type
                       << "; a compiled model takes and returns statically "
                          "shaped tensors only";
        ok = false;
        return {};
      }
      if (fuse::detail::modelElementTypeName(shaped.getElementType()).empty()) {
        fn.emitError() << "fuse-mark-entry: " << label << " of '"
                       << fn.getName() << "' has element type "
                       << shaped.getElementType()
                       << ", which the runtime does not describe (f16, "
                          "bf16, f32, f64, i1, i8, i16, i32, i64)";
        ok = false;
        return {};
      }
      std::string text =
          name && !name.getValue().empty()
              ? name.getValue().str()
              : (role == "input" ? "input" : "output") + std::to_string(index);
      if (!names.insert(text).second) {
        fn.emitError() << "fuse-mark-entry: " << label << " of '"
                       << fn.getName() << "' is named '" << text
                       << "', as another input or output is; a compiled "
                          "model's names must be unique";
        ok = false;
        return {};
      }
      NamedAttribute fields[] = {
          NamedAttribute(StringAttr::get(ctx, "name"),
                         StringAttr::get(ctx, text)),
          NamedAttribute(StringAttr::get(ctx, "type"), TypeAttr::get(type))};
      return DictionaryAttr::get(ctx, fields);
    };
    SmallVector<Attribute> inputs, outputs;
    FunctionType type = fn.getFunctionType();
    for (auto [i, input] : llvm::enumerate(type.getInputs()))
      inputs.push_back(describe(input, fn.getArgAttrDict(i), "input", i));
    for (auto [i, output] : llvm::enumerate(type.getResults()))
      outputs.push_back(describe(output, fn.getResultAttrDict(i), "output", i));
    if (!ok)
      return signalPassFailure();
    if (outputs.empty()) {
      fn.emitError() << "fuse-mark-entry: '" << fn.getName()
                     << "' returns nothing; a compiled model needs an output";
      return signalPassFailure();
    }
    NamedAttribute entry[] = {NamedAttribute(StringAttr::get(ctx, "inputs"),
                                             ArrayAttr::get(ctx, inputs)),
                              NamedAttribute(StringAttr::get(ctx, "outputs"),
                                             ArrayAttr::get(ctx, outputs))};
    // The caller's inputs are read-only: bufferization copies rather than
    // update one in place.
    for (unsigned i = 0; i < fn.getNumArguments(); ++i)
      if (isa<TensorType>(fn.getArgument(i).getType()))
        fn.setArgAttr(i, "bufferization.writable", BoolAttr::get(ctx, false));
    fuse::FuseDialect::EntryAttrHelper helper(ctx);
    helper.setAttr(fn, DictionaryAttr::get(ctx, entry));
  }
};

} // namespace
