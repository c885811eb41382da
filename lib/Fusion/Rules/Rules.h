//===- Rules.h - what the rule files share ----------------------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_LIB_FUSION_RULES_RULES_H
#define FUSE_LIB_FUSION_RULES_RULES_H

#include "../FusionState.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::fuse::detail {

// Every rule of Rules.def.
#define FUSE_RULE(Name) extern const FusionRule k##Name##Rule;
#include "Rules.def"

/// Whether `node` anchors a kernel that reads its inputs tile by tile and
/// takes epilogues and view prologues: a contraction or a pooling.
inline bool isWindowAnchor(const Node &node) {
  return node.isContraction() ||
         node.op->getName().getStringRef().starts_with("linalg.pooling_");
}

/// `shape` without its unit dimensions: shapes that differ only by those
/// (an importer's leading batch of 1) iterate over the same elements in the
/// same order.
inline SmallVector<int64_t> squeezed(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> s;
  for (int64_t d : shape)
    if (d != 1)
      s.push_back(d);
  return s;
}

/// Ops of type OpTy (transposes, slices) whose readers are all in one
/// contraction's or pooling's group, read directly, join it by `rule`.
template <typename OpTy>
void absorbViews(FusionState &state, const FusionRule &rule) {
  const FusionGraph &graph = state.getGraph();
  for (const Node &t : graph.getNodes()) {
    if (!isa<OpTy>(t.op) || !state.isSingleton(t.index) ||
        t.consumers.empty() || llvm::is_contained(t.resultEscapes, true))
      continue;
    unsigned g = state.groupOf(t.consumers.front());
    if (llvm::any_of(t.consumers,
                     [&](unsigned c) { return state.groupOf(c) != g; }))
      continue;
    // Read directly: through a pad, the view's tile would be the pad's
    // dynamically sized source slice, which a GPU kernel cannot hold
    // without a device-side allocation; through a reshape (the graph sees
    // through views), the reader's tile loop cannot take the view in.
    if (llvm::any_of(t.consumers, [&](unsigned c) {
          Operation *reader = graph.node(c).op;
          return isa<tensor::PadOp>(reader) ||
                 !llvm::is_contained(reader->getOperands(), t.op->getResult(0));
        }))
      continue;
    if (!isWindowAnchor(graph.node(state.group(g).anchor)))
      continue;
    state.tryMerge(g, state.groupOf(t.index), rule, t.index);
  }
}

} // namespace mlir::fuse::detail

#endif // FUSE_LIB_FUSION_RULES_RULES_H
