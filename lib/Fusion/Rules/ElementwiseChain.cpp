//===- ElementwiseChain.cpp - the elementwise_chain rule ------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::detail;

/// Whether `consumer` reads `producer`'s result as an operand with the
/// identity map (a transpose: as its input), so that each of its points
/// reads one point of the producer.
static bool readsPointwise(const Node &consumer, const Node &producer) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(consumer.op);
  if (!linalgOp)
    return false;
  return llvm::any_of(linalgOp.getDpsInputOperands(), [&](OpOperand *in) {
    return in->get().getDefiningOp() == producer.op &&
           (consumer.isTranspose() ||
            linalgOp.getMatchingIndexingMap(in).isIdentity());
  });
}

static void propose(FusionState &state) {
  const FusionGraph &graph = state.getGraph();
  for (const Node &consumer : graph.getNodes()) {
    // A transpose joins only as the last op (its result leaves the block:
    // an NCHW graph output); one read again in the group would recompute
    // its producer at permuted points.
    bool outputTranspose = consumer.isTranspose() && consumer.consumers.empty();
    if (!consumer.isElementwiseLike() && !outputTranspose)
      continue;
    for (unsigned p : consumer.producers) {
      const Node &producer = graph.node(p);
      unsigned gc = state.groupOf(consumer.index), gp = state.groupOf(p);
      if (gc == gp || !state.groupIsPointwise(gc) ||
          !state.groupIsPointwise(gp))
        continue;
      // A gather producer, or a transpose consumer: one point read per
      // point, never a gather recomputed per broadcast element.
      if (producer.isGather() || outputTranspose) {
        if ((producer.isGather() || producer.isElementwiseLike()) &&
            producer.numElements() == consumer.numElements() &&
            readsPointwise(consumer, producer))
          state.tryMerge(gc, gp, kElementwiseChainRule, p);
        continue;
      }
      if (!producer.isElementwiseLike())
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
    "consumer; a gather (embedding lookup, resize) into its elementwise "
    "consumer; an elementwise op or gather into the transpose of its "
    "result that leaves the block (an NCHW graph output)",
    /*constraints=*/
    "same iteration space, or a producer read through a broadcast map "
    "(recomputed per element: charged by the cost model); a gather or a "
    "transpose only point for point (the consumer reads the producer as "
    "an operand, identity map or transpose input, same element count), "
    "and a transpose no op of the block reads; "
    "every op of both groups elementwise-like, a gather or a transpose",
    /*traits=*/FusionRule::None,
    /*propose=*/propose};
