//===- RowReduction.cpp - the row_reduction rule --------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::detail;

static void propose(FusionState &state) {
  const FusionGraph &graph = state.getGraph();
  for (const Node &anchor : graph.getNodes()) {
    if (!anchor.isReduction() || !anchor.reduction ||
        !state.isSingleton(anchor.index))
      continue;
    unsigned g = state.groupOf(anchor.index);
    const ReductionInfo &red = *anchor.reduction;
    int64_t full = red.rows * red.cols;
    auto sameRows = [&](const Node &other) {
      return other.reduction && other.reduction->inputShape == red.inputShape &&
             other.reduction->reducedDims == red.reducedDims;
    };
    auto fits = [&](const Node &node) {
      if (node.isElementwiseLike())
        return node.numElements() == full || node.numElements() == red.rows;
      return node.isReduction() && sameRows(node);
    };
    bool changed = true;
    while (changed) {
      changed = false;
      SmallVector<unsigned> candidates;
      llvm::DenseSet<unsigned> consumersOfGroup;
      for (unsigned m : state.group(g).members) {
        const Node &member = graph.node(m);
        candidates.append(member.producers.begin(), member.producers.end());
        candidates.append(member.consumers.begin(), member.consumers.end());
        consumersOfGroup.insert(member.consumers.begin(),
                                member.consumers.end());
      }
      llvm::sort(candidates);
      candidates.erase(llvm::unique(candidates), candidates.end());
      for (unsigned cand : candidates) {
        const Node &node = graph.node(cand);
        if (state.groupOf(cand) == g || !state.isSingleton(cand) || !fits(node))
          continue;
        // A prologue (a producer only) must cover the full input space.
        if (!consumersOfGroup.contains(cand) &&
            (!node.isElementwiseLike() || node.numElements() != full))
          continue;
        if (state.tryMerge(g, state.groupOf(cand), kRowReductionRule, cand)) {
          changed = true;
          break;
        }
      }
    }
  }
}

const FusionRule mlir::fuse::detail::kRowReductionRule = {
    "row_reduction", FusionKind::vertical, 80,
    /*pattern=*/
    "a reduction with the elementwise producers of its input, elementwise "
    "consumers of its result, further reductions over the same rows, and "
    "ops that broadcast the result back over the rows (softmax, layernorm)",
    /*constraints=*/
    "broadcasting back needs the reduced dims innermost and a row's working "
    "set in shared memory; at most max-reductions-per-group reductions",
    /*traits=*/FusionRule::RowBarrier,
    /*propose=*/propose};
