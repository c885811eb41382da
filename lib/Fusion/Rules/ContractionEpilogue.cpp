//===- ContractionEpilogue.cpp - the contraction_epilogue rule ------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::detail;

static void propose(FusionState &state) {
  const FusionGraph &graph = state.getGraph();
  // Compute-heavy anchors first; ties in program order.
  SmallVector<unsigned> anchors;
  // Poolings are window reductions with the same output-parallel structure:
  // an average pool's division (or anything elementwise after a pool) is
  // their epilogue.
  for (const Node &node : graph.getNodes())
    if (isWindowAnchor(node) && node.hasStaticShape)
      anchors.push_back(node.index);
  llvm::sort(anchors, [&](unsigned x, unsigned y) {
    int64_t fx = graph.node(x).cls.flops.value_or(0);
    int64_t fy = graph.node(y).cls.flops.value_or(0);
    return fx != fy ? fx > fy : x < y;
  });
  for (unsigned c : anchors) {
    // Contractions that another rule already placed (attention) are done;
    // one whose input pad joined it is still open.
    const GroupState &current = state.group(state.groupOf(c));
    if (current.members.size() > 1 &&
        !(current.firstRule && current.firstRule->has(FusionRule::Prologue)))
      continue;
    unsigned g = state.groupOf(c);
    ArrayRef<int64_t> shape = graph.node(c).shape;
    // A bias broadcast into the accumulator is computed by the contraction's
    // kernel when nothing else uses it.
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(graph.node(c).op))
      for (Value init : linalgOp.getDpsInits()) {
        std::optional<unsigned> p = graph.getDefiningNode(init);
        if (!p || !state.isSingleton(*p))
          continue;
        const Node &producer = graph.node(*p);
        if (producer.isElementwiseLike() && ArrayRef(producer.shape) == shape &&
            producer.consumers == SmallVector<unsigned>{c} &&
            !llvm::is_contained(producer.resultEscapes, true))
          state.tryMerge(g, state.groupOf(*p), kContractionEpilogueRule, *p);
      }
    // The shapes the epilogue may iterate over: the contraction's output
    // and the slices of it already in the group.
    SmallVector<SmallVector<int64_t>> spaces = {SmallVector<int64_t>(shape)};
    bool changed = true;
    while (changed) {
      changed = false;
      for (unsigned m : SmallVector<unsigned>(state.group(g).members.begin(),
                                              state.group(g).members.end())) {
        for (unsigned e : graph.node(m).consumers) {
          const Node &epi = graph.node(e);
          if (state.groupOf(e) == g || !state.isSingleton(e))
            continue;
          // A slice of the output (one of several merged contractions).
          if (isa<tensor::ExtractSliceOp>(epi.op) && epi.hasStaticShape) {
            if (state.tryMerge(g, state.groupOf(e), kContractionEpilogueRule,
                               e)) {
              spaces.push_back(
                  SmallVector<int64_t>(epi.shape.begin(), epi.shape.end()));
              changed = true;
              break;
            }
            continue;
          }
          if (!epi.isElementwiseLike() ||
              !llvm::is_contained(spaces, epi.shape))
            continue;
          // Another branch's result read here makes this a join.
          bool join = llvm::any_of(epi.reads, [&](Value read) {
            std::optional<unsigned> def = graph.getDefiningNode(read);
            return def && state.groupOf(*def) != g;
          });
          if (state.tryMerge(
                  g, state.groupOf(e),
                  join ? kResidualJoinRule : kContractionEpilogueRule, e)) {
            changed = true;
            break;
          }
        }
        if (changed)
          break;
      }
    }
  }
}

const FusionRule mlir::fuse::detail::kContractionEpilogueRule = {
    "contraction_epilogue", FusionKind::vertical, 100,
    /*pattern=*/
    "a contraction (matmul, batch_matmul, conv, depthwise conv) or a pooling "
    "followed by "
    "elementwise/broadcast ops on its output: bias, per-channel affine "
    "(inference BatchNorm), ReLU, clip, sigmoid, SiLU, GELU; a bias "
    "broadcast into its accumulator joins too",
    /*constraints=*/
    "the epilogue op iterates over the contraction's output shape; all "
    "feasibility checks",
    /*traits=*/FusionRule::None,
    /*propose=*/propose};
