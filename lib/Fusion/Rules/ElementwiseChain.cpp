//===- ElementwiseChain.cpp - the elementwise_chain rule ------------------===//
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
  for (const Node &consumer : graph.getNodes()) {
    if (!consumer.isElementwiseLike())
      continue;
    for (unsigned p : consumer.producers) {
      const Node &producer = graph.node(p);
      unsigned gc = state.groupOf(consumer.index), gp = state.groupOf(p);
      if (gc == gp || !producer.isElementwiseLike() ||
          !state.groupIsElementwiseLike(gc) ||
          !state.groupIsElementwiseLike(gp))
        continue;
      // Same iteration space, or a smaller producer read by broadcast.
      bool sameSpace = producer.shape == consumer.shape;
      bool broadcast = producer.numElements() < consumer.numElements() &&
                       producer.shape.size() <= consumer.shape.size();
      if (!sameSpace && !broadcast)
        continue;
      state.tryMerge(gc, gp, kElementwiseChainRule, p);
    }
  }
}

const FusionRule mlir::fuse::detail::kElementwiseChainRule = {
    "elementwise_chain", FusionKind::vertical, 50,
    /*pattern=*/
    "an elementwise/broadcast producer into its elementwise/broadcast "
    "consumer",
    /*constraints=*/
    "same iteration space, or a producer read through a broadcast map "
    "(recomputed per element: charged by the cost model)",
    /*traits=*/FusionRule::None,
    /*propose=*/propose};
