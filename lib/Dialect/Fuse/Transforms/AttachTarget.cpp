//===- AttachTarget.cpp - fuse-attach-target ------------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "fuse/Dialect/Fuse/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEATTACHTARGET
#define GEN_PASS_DEF_FUSESTRIPTARGET
#include "fuse/Dialect/Fuse/Transforms/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {
struct AttachTargetPass
    : public fuse::impl::FuseAttachTargetBase<AttachTargetPass> {
  using FuseAttachTargetBase::FuseAttachTargetBase;

  LogicalResult initialize(MLIRContext *context) override {
    FailureOr<TargetAttr> parsed =
        parseTargetOption(context, target, getArgument());
    if (failed(parsed))
      return failure();
    requested = *parsed;
    if (!requested)
      return emitOptionError(context, getArgument())
             << "option 'target' must name a target";
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The same target, or none yet: attach; another one: resolveTarget
    // says which two differ.
    FailureOr<TargetAttr> resolved =
        resolveTarget(module, requested, getArgument());
    if (failed(resolved))
      return signalPassFailure();
    FuseDialect::TargetAttrHelper(&getContext()).setAttr(module, *resolved);
  }

  TargetAttr requested;
};
} // namespace

namespace {
struct StripTargetPass
    : public fuse::impl::FuseStripTargetBase<StripTargetPass> {
  void runOnOperation() override {
    FuseDialect::TargetAttrHelper helper(&getContext());
    if (helper.isAttrPresent(getOperation()))
      helper.removeAttr(getOperation());
    FuseDialect::LoweringConfigAttrHelper config(&getContext());
    getOperation()->walk([&](Operation *op) {
      if (config.isAttrPresent(op))
        config.removeAttr(op);
    });
  }
};
} // namespace
