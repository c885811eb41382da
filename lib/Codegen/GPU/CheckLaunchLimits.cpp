//===- CheckLaunchLimits.cpp - fuse-check-launch-limits -------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Codegen/GPU/Passes.h"
#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSECHECKLAUNCHLIMITS
#include "fuse/Codegen/GPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

LogicalResult mlir::fuse::checkLaunchLimits(MLIRContext *context,
                                            TargetAttr target,
                                            int64_t blockSize,
                                            int64_t sharedBytes,
                                            StringRef pass) {
  auto inRange = [&](StringRef option, int64_t value, int64_t high,
                     StringRef property) -> LogicalResult {
    if (value <= high)
      return success();
    return emitOptionError(context, pass)
           << "option '" << option << "' must be at most " << high << " ("
           << property << " of target '" << target.getName() << "'), got "
           << value;
  };
  if (failed(inRange("block-size", blockSize, target.getMaxThreadsPerBlock(),
                     "max_threads_per_block")) ||
      failed(inRange("shared-bytes", sharedBytes, target.getSharedMemPerBlock(),
                     "shared memory per block")))
    return failure();
  return success();
}

namespace {
struct CheckLaunchLimitsPass
    : public fuse::impl::FuseCheckLaunchLimitsBase<CheckLaunchLimitsPass> {
  using FuseCheckLaunchLimitsBase::FuseCheckLaunchLimitsBase;

  void runOnOperation() override {
    FailureOr<TargetAttr> target =
        resolveTarget(getOperation(), TargetAttr(), getArgument());
    if (failed(target) ||
        failed(checkLaunchLimits(&getContext(), *target, blockSize, sharedBytes,
                                 getArgument())))
      return signalPassFailure();
  }
};
} // namespace
