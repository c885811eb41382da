//===- TestWriteGroups.cpp - each outlined group as a module of its own ---===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSETESTWRITEGROUPS
#include "TestPasses.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {
/// Replaces the empty tensors `fn`'s insert_slices write into with zeros.
void zeroInsertDestinations(func::FuncOp fn) {
  SmallVector<tensor::EmptyOp> empties;
  fn.walk([&](tensor::EmptyOp empty) {
    if (llvm::any_of(empty->getUses(), [](OpOperand &use) {
          auto insert = dyn_cast<tensor::InsertSliceOp>(use.getOwner());
          return insert && use.get() == insert.getDest();
        }))
      empties.push_back(empty);
  });
  for (tensor::EmptyOp empty : empties) {
    auto type = cast<RankedTensorType>(empty.getType());
    Type element = type.getElementType();
    if (!type.hasStaticShape() || !element.isIntOrFloat())
      continue;
    OpBuilder builder(empty);
    TypedAttr zero = builder.getZeroAttr(element);
    auto zeros = arith::ConstantOp::create(builder, empty.getLoc(),
                                           DenseElementsAttr::get(type, zero));
    empty.replaceAllUsesWith(zeros.getResult());
    empty.erase();
  }
}

struct TestWriteGroupsPass
    : public fuse::impl::FuseTestWriteGroupsBase<TestWriteGroupsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (dir.empty()) {
      mlir::emitError(module.getLoc(),
                      "fuse-test-write-groups needs dir=<directory>");
      return signalPassFailure();
    }
    if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
      mlir::emitError(module.getLoc(), "cannot create '")
          << dir << "': " << ec.message();
      return signalPassFailure();
    }
    std::string names;
    auto kind = FuseDialect::KindAttrHelper(&getContext());
    // The groups of `function`: its calls name them.
    DenseSet<StringRef> wanted;
    if (!function.empty()) {
      auto source = module.lookupSymbol<func::FuncOp>(function);
      if (!source) {
        mlir::emitError(module.getLoc(), "no function @")
            << function << " to take groups from";
        return signalPassFailure();
      }
      source.walk([&](func::CallOp call) { wanted.insert(call.getCallee()); });
    }
    for (auto fn : module.getOps<func::FuncOp>()) {
      if (!kind.isAttrPresent(fn) || fn.isExternal() ||
          (!function.empty() && !wanted.contains(fn.getName())))
        continue;
      OpBuilder builder(&getContext());
      OwningOpRef<ModuleOp> alone = ModuleOp::create(fn.getLoc());
      builder.setInsertionPointToEnd(alone->getBody());
      auto copy = cast<func::FuncOp>(builder.clone(*fn));
      copy.setPublic();
      for (NamedAttribute attr :
           llvm::to_vector(copy->getDiscardableAttrDictionary()))
        copy->removeDiscardableAttr(attr.getName());
      zeroInsertDestinations(copy);
      SmallString<128> path(dir);
      llvm::sys::path::append(path, fn.getName() + ".mlir");
      if (!write(path, [&](raw_ostream &os) { alone->print(os); }))
        return signalPassFailure();
      names += fn.getName().str() + "\n";
    }
    SmallString<128> list(dir);
    llvm::sys::path::append(list, "groups.txt");
    if (!write(list, [&](raw_ostream &os) { os << names; }))
      return signalPassFailure();
  }

  /// Writes a file with `emit`; an error names it.
  bool write(StringRef path, function_ref<void(raw_ostream &)> emit) {
    std::string message;
    std::unique_ptr<llvm::ToolOutputFile> out = openOutputFile(path, &message);
    if (!out) {
      mlir::emitError(getOperation().getLoc(), message);
      return false;
    }
    emit(out->os());
    out->keep();
    return true;
  }
};
} // namespace
