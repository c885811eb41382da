//===- ContractionRowEpilogue.cpp - the contraction_row_epilogue rule -----===//
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
  const FusionGraph &graph = state.getGraph();
  for (unsigned h = 0; h < state.numGroups(); ++h) {
    const GroupState &rowGroup = state.group(h);
    if (!rowGroup.alive || !(rowGroup.firstRule == &kRowReductionRule ||
                             (rowGroup.members.size() == 1 &&
                              graph.node(rowGroup.anchor).isReduction())))
      continue;
    // The group's first reduction reads the contraction group's output.
    for (unsigned m : rowGroup.members) {
      const Node &red = graph.node(m);
      if (!red.isReduction() || !red.reduction || !red.reduction->innermost)
        continue;
      Value input = cast<linalg::LinalgOp>(red.op).getDpsInputOperand(0)->get();
      std::optional<unsigned> def = graph.getDefiningNode(input);
      if (!def || state.groupOf(*def) == h)
        break;
      unsigned g = state.groupOf(*def);
      bool fromContraction =
          llvm::any_of(state.group(g).members, [&](unsigned c) {
            const Node &node = graph.node(c);
            return node.isContraction() &&
                   ArrayRef(node.shape) == ArrayRef(red.reduction->inputShape);
          });
      if (fromContraction)
        state.tryMerge(g, h, kContractionRowEpilogueRule, m);
      break;
    }
  }
}

const FusionRule mlir::fuse::detail::kContractionRowEpilogueRule = {
    "contraction_row_epilogue", FusionKind::vertical, 75,
    /*pattern=*/
    "a row reduction group (layernorm, softmax) over the last dimension of "
    "a contraction group's output joins that group: GEMM + bias + residual "
    "+ LayerNorm is one kernel",
    /*constraints=*/
    "a 32-row tile of whole output rows, and what stays live across the "
    "reductions, fits shared memory",
    /*traits=*/FusionRule::RowBarrier,
    /*propose=*/propose};
