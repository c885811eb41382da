//===- AttachNVVMTarget.cpp - fuse-attach-nvvm-target ---------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Codegen/GPU/Passes.h"
#include "fuse/Dialect/Fuse/IR/FuseAttrs.h"
#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEATTACHNVVMTARGET
#include "fuse/Codegen/GPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

bool mlir::fuse::isNvvmChipName(StringRef chip) {
  unsigned version = 0;
  if (!chip.consume_front("sm_"))
    return false;
  if (chip.ends_with("a") || chip.ends_with("f"))
    chip = chip.drop_back();
  return !chip.getAsInteger(10, version) && version >= 20;
}

namespace {
struct AttachNVVMTargetPass
    : public fuse::impl::FuseAttachNVVMTargetBase<AttachNVVMTargetPass> {
  using FuseAttachNVVMTargetBase::FuseAttachNVVMTargetBase;

  LogicalResult initialize(MLIRContext *context) override {
    if (optLevel < 0 || optLevel > 3)
      return emitOptionError(context, getArgument())
             << "option 'O' must be in [0, 3], got " << optLevel.getValue();
    if (!chip.empty() && !isNvvmChipName(chip))
      return emitOptionError(context, getArgument())
             << "option 'chip' " << kNvvmChipRule << ", got '" << chip << "'";
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::string sm = chip;
    if (sm.empty()) {
      FailureOr<TargetAttr> target =
          resolveTarget(module, TargetAttr(), getArgument());
      if (failed(target))
        return signalPassFailure();
      sm = target->getArch().str();
    }
    Builder b(&getContext());
    ArrayAttr link;
    if (!libdevice.empty())
      link = b.getStrArrayAttr({libdevice});
    auto diagnose = [&]() -> InFlightDiagnostic {
      return emitError(module.getLoc()) << getArgument() << ": ";
    };
    NVVM::NVVMTargetAttr nvvm = NVVM::NVVMTargetAttr::getChecked(
        function_ref<InFlightDiagnostic()>(diagnose), &getContext(),
        static_cast<int>(optLevel), StringRef("nvptx64-nvidia-cuda"),
        StringRef(sm), StringRef(features), DictionaryAttr(), link,
        /*verifyTarget=*/true);
    if (!nvvm)
      return signalPassFailure();
    module.walk([&](gpu::GPUModuleOp gpuModule) {
      SmallVector<Attribute> targets;
      if (ArrayAttr existing = gpuModule.getTargetsAttr())
        targets.append(existing.begin(), existing.end());
      if (!llvm::is_contained(targets, nvvm))
        targets.push_back(nvvm);
      gpuModule.setTargetsAttr(b.getArrayAttr(targets));
    });
  }
};
} // namespace
