//===- ConcatSlices.cpp - the concat_slices rule --------------------------===//
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
  for (const Node &insert : graph.getNodes()) {
    auto op = dyn_cast<tensor::InsertSliceOp>(insert.op);
    if (!op || !state.isSingleton(insert.index))
      continue;
    std::optional<unsigned> producer = graph.getDefiningNode(op.getSource());
    if (!producer)
      continue;
    state.tryMerge(state.groupOf(*producer), state.groupOf(insert.index),
                   kConcatSlicesRule, insert.index);
  }
}

const FusionRule mlir::fuse::detail::kConcatSlicesRule = {
    "concat_slices", FusionKind::diagonal, 45,
    /*pattern=*/
    "the insertion of a branch's result into its slice of a concat joins "
    "the group that computes the branch: the branch writes straight into "
    "the concatenated tensor and no copy kernel remains",
    /*constraints=*/
    "no cycle through the other branches; all feasibility checks",
    /*traits=*/FusionRule::None,
    /*propose=*/propose};
