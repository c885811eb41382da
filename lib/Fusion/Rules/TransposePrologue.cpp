//===- TransposePrologue.cpp - the transpose_prologue rule ----------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::detail;

static void propose(FusionState &state) {
  absorbViews<linalg::TransposeOp>(state, kTransposePrologueRule);
}

const FusionRule mlir::fuse::detail::kTransposePrologueRule = {
    "transpose_prologue", FusionKind::vertical, 101,
    /*pattern=*/
    "a transpose whose readers are all in one convolution's, matmul's or "
    "pooling's group joins it (the layout change at an ONNX graph's input, "
    "NCHW to NHWC): the kernel reads its input through the permutation "
    "instead of a transposed copy",
    /*constraints=*/
    "every reader of the transpose is in that group and reads it directly "
    "(not through a pad or a reshape); its result is not returned; all "
    "feasibility checks",
    /*traits=*/FusionRule::Prologue,
    /*propose=*/propose};
