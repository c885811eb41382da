//===- PadPrologue.cpp - the pad_prologue rule ----------------------------===//
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
  const FusionGraph &graph = state.getGraph();
  for (const Node &pad : graph.getNodes()) {
    if (!isa<tensor::PadOp>(pad.op) || !state.isSingleton(pad.index) ||
        pad.consumers.size() != 1 ||
        llvm::is_contained(pad.resultEscapes, true))
      continue;
    const Node &consumer = graph.node(pad.consumers.front());
    if (!consumer.isContraction() && !consumer.isReduction())
      continue;
    state.tryMerge(state.groupOf(consumer.index), state.groupOf(pad.index),
                   kPadPrologueRule, pad.index);
  }
}

const FusionRule mlir::fuse::detail::kPadPrologueRule = {
    "pad_prologue", FusionKind::vertical, 102,
    /*pattern=*/
    "the tensor.pad of a convolution's or pooling's input joins its "
    "consumer: the kernel reads the border as the padding value instead of "
    "materializing a padded copy",
    /*constraints=*/
    "the pad has no other user",
    /*traits=*/FusionRule::Prologue,
    /*propose=*/propose};
