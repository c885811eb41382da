//===- Attention.cpp - the attention rule ---------------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::detail;

/// Whether `op` is a plain or batched matmul (the two products of
/// attention).
static bool isMatmulLike(Operation *op) {
  return isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op);
}

static void propose(FusionState &state) {
  const FusionGraph &graph = state.getGraph();
  for (const Node &c1 : graph.getNodes()) {
    if (!isMatmulLike(c1.op) || !c1.hasStaticShape ||
        !state.isSingleton(c1.index))
      continue;
    ArrayRef<int64_t> space = c1.shape;
    int64_t full = c1.numElements();
    int64_t rows = space.empty() ? 0 : full / space.back();
    // Forward from QK^T through the scores' elementwise ops and the softmax
    // reductions until the product with V.
    // Shapes compare as rows of the score matrix: an importer's 4-D
    // [batch, heads, S, S] scores are the batch matmul's
    // [batch * heads, S, S] (the same elements, rows of the same length).
    auto sameRows = [&](ArrayRef<int64_t> shape) {
      int64_t n = 1;
      for (int64_t d : shape)
        n *= d;
      return !shape.empty() && !space.empty() && n == full &&
             shape.back() == space.back();
    };
    auto interiorFits = [&](const Node &n) {
      if (n.isElementwiseLike())
        return n.numElements() == full || n.numElements() == rows;
      return n.isReduction() && n.reduction && n.reduction->innermost &&
             sameRows(n.reduction->inputShape);
    };
    SmallVector<unsigned> interior;
    std::optional<unsigned> c2;
    bool ok = true, hasReduction = false;
    SmallVector<unsigned> worklist(c1.consumers.begin(), c1.consumers.end());
    llvm::DenseSet<unsigned> seen;
    while (ok && !worklist.empty()) {
      unsigned n = worklist.pop_back_val();
      if (!seen.insert(n).second)
        continue;
      const Node &node = graph.node(n);
      if (isMatmulLike(node.op)) {
        // The probabilities are the left operand of P·V.
        std::optional<unsigned> lhs = graph.getDefiningNode(
            cast<linalg::LinalgOp>(node.op).getDpsInputOperand(0)->get());
        ok = (!c2 || *c2 == n) && lhs && seen.contains(*lhs);
        c2 = n;
        continue;
      }
      if (!interiorFits(node) || !state.isSingleton(n)) {
        ok = false;
        break;
      }
      hasReduction |= node.isReduction();
      interior.push_back(n);
      worklist.append(node.consumers.begin(), node.consumers.end());
    }
    if (!ok || !c2 || !hasReduction || !state.isSingleton(*c2))
      continue;
    // Nothing computed inside may escape except through P·V.
    llvm::DenseSet<unsigned> inside(interior.begin(), interior.end());
    inside.insert(*c2);
    if (llvm::any_of(interior, [&](unsigned n) {
          const Node &node = graph.node(n);
          return llvm::is_contained(node.resultEscapes, true) ||
                 llvm::any_of(node.consumers,
                              [&](unsigned c) { return !inside.contains(c); });
        }))
      continue;
    // Head-split transposes feeding the products, and the transpose after.
    SmallVector<unsigned> parts(interior);
    parts.push_back(*c2);
    auto addTranspose = [&](std::optional<unsigned> t) {
      if (!t || !state.isSingleton(*t))
        return;
      const Node &node = graph.node(*t);
      if (node.cls.category == OpCategory::injective &&
          isa<linalg::LinalgOp>(node.op) && node.consumers.size() == 1 &&
          !llvm::is_contained(node.resultEscapes, true) &&
          !llvm::is_contained(parts, *t))
        parts.push_back(*t);
    };
    // Before a product: elementwise ops on its operand alone (Q scaled by
    // 1/sqrt(d) before QK^T, as torch's multi-head attention does), then
    // the transpose.
    auto addPrologue = [&](std::optional<unsigned> t) {
      while (t && state.isSingleton(*t)) {
        const Node &node = graph.node(*t);
        if (!node.isElementwiseLike() || node.producers.size() != 1 ||
            node.consumers.size() != 1 ||
            llvm::is_contained(node.resultEscapes, true) ||
            llvm::is_contained(parts, *t))
          break;
        parts.push_back(*t);
        t = node.producers.front();
      }
      addTranspose(t);
    };
    for (const Node *mm : {&c1, &graph.node(*c2)})
      for (OpOperand *input :
           cast<linalg::LinalgOp>(mm->op).getDpsInputOperands())
        if (mm == &c1 || input->getOperandNumber() == 1)
          addPrologue(graph.getDefiningNode(input->get()));
    // After P·V: elementwise ops on its result alone (the conversion of an
    // f32 product back to a 16-bit model's type), then the transpose.
    const Node *last = &graph.node(*c2);
    int64_t pvElements = last->numElements();
    while (last->consumers.size() == 1 &&
           !llvm::is_contained(last->resultEscapes, true)) {
      const Node &next = graph.node(last->consumers.front());
      if (next.cls.category == OpCategory::injective) {
        addTranspose(next.index);
        break;
      }
      if (!next.isElementwiseLike() || next.numElements() != pvElements ||
          next.producers.size() != 1 || !state.isSingleton(next.index))
        break;
      parts.push_back(next.index);
      last = &next;
    }
    SmallVector<unsigned> others;
    for (unsigned n : parts)
      others.push_back(state.groupOf(n));
    state.tryMerge(state.groupOf(c1.index), others, kAttentionRule, *c2);
  }
}

const FusionRule mlir::fuse::detail::kAttentionRule = {
    "attention", FusionKind::composite, 105,
    /*pattern=*/
    "QK^T (a batch matmul), elementwise scaling and masking, a softmax over "
    "its rows, then the product with V; the head-split transposes that "
    "feed the two matmuls and elementwise ops on an operand alone after "
    "them (Q's scaling), elementwise ops on P·V's result alone (a 16-bit "
    "model's conversion) and the transpose after them join too",
    /*constraints=*/
    "the kernel's tile buffers fit shared memory, with the keys and values "
    "held whole or streamed in chunks (online softmax); at most "
    "max-reductions-per-group reductions",
    /*traits=*/FusionRule::NamesGroup | FusionRule::RowBarrier |
        FusionRule::StreamsOperands,
    /*propose=*/propose};
