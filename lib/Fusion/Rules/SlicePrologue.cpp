//===- SlicePrologue.cpp - the slice_prologue rule ------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::detail;

static void propose(FusionState &state) {
  absorbViews<tensor::ExtractSliceOp>(state, kSlicePrologueRule);
}

const FusionRule mlir::fuse::detail::kSlicePrologueRule = {
    "slice_prologue", FusionKind::vertical, 101,
    /*pattern=*/
    "a slice whose readers are all in one convolution's, matmul's or "
    "pooling's group joins it (the rows a strided convolution reads, cut "
    "from a larger value): the kernel reads the slice as a view of its "
    "input instead of a copy",
    /*constraints=*/
    "every reader of the slice is in that group and reads it directly (not "
    "through a pad or a reshape); its result is not returned; all "
    "feasibility checks",
    /*traits=*/FusionRule::Prologue,
    /*propose=*/propose};
