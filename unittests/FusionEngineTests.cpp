//===- FusionEngineTests.cpp - the engine's record of a group's merges ----===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// The engine records every merge of a group, those of the groups it took in
// included, and which merge joined a contraction with a reduction (the one
// fuse-form-groups takes back to split a contraction from its row
// epilogue). These tests drive FusionState's merges by hand in both
// directions, so the record does not depend on the order the rules happen
// to merge in. copyPlannedGroup, the lowering check's trial group, is
// checked against materializeFusionPlan's group and for leaving the block as
// it was.
//
//===----------------------------------------------------------------------===//

#include "../lib/Fusion/FusionState.h"
#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "fuse/Dialect/Fuse/IR/FuseExternalModels.h"
#include "fuse/Fusion/FusionEngine.h"
#include "fuse/Fusion/FusionRule.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::detail;

namespace {

// A matmul, then a LayerNorm-like row epilogue of its output: two row sums
// (of the output, and of the centred squares) around an elementwise op.
// Each sum accumulates into its own tensor (two into one would be refused:
// the lowering check's in-place updates).
constexpr const char *kInput = R"mlir(
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @f(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>,
             %acc: tensor<8x32xf32>, %rows: tensor<8xf32>,
             %rows2: tensor<8xf32>) -> tensor<8xf32> {
  %c = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x32xf32>)
                     outs(%acc : tensor<8x32xf32>) -> tensor<8x32xf32>
  %sum = linalg.reduce ins(%c : tensor<8x32xf32>) outs(%rows : tensor<8xf32>)
      dimensions = [1]
      (%in: f32, %init: f32) {
        %s = arith.addf %in, %init : f32
        linalg.yield %s : f32
      }
  %centred = linalg.generic {indexing_maps = [#id, #row, #id],
                             iterator_types = ["parallel", "parallel"]}
      ins(%c, %sum : tensor<8x32xf32>, tensor<8xf32>) outs(%acc : tensor<8x32xf32>) {
    ^bb0(%x: f32, %m: f32, %o: f32):
      %d = arith.subf %x, %m : f32
      %sq = arith.mulf %d, %d : f32
      linalg.yield %sq : f32
  } -> tensor<8x32xf32>
  %var = linalg.reduce ins(%centred : tensor<8x32xf32>) outs(%rows2 : tensor<8xf32>)
      dimensions = [1]
      (%in: f32, %init: f32) {
        %s = arith.addf %in, %init : f32
        linalg.yield %s : f32
      }
  return %var : tensor<8xf32>
}
)mlir";

class FusionEngineTest : public ::testing::Test {
protected:
  FusionEngineTest() {
    DialectRegistry registry;
    registerFusibleOpInterfaceExternalModels(registry);
    context.appendDialectRegistry(registry);
    context.loadDialect<FuseDialect, arith::ArithDialect, func::FuncDialect,
                        linalg::LinalgDialect, tensor::TensorDialect>();
    module = parseSourceString<ModuleOp>(kInput, &context);
    policy.target = TargetAttr::getPreset(&context, "h200");
  }

  Block &body() {
    return cast<func::FuncOp>(module->getBody()->front()).getBody().front();
  }

  /// The graph node of the op named `name` (the `index`-th of that name).
  static unsigned nodeOf(const FusionState &state, StringRef name,
                         unsigned index = 0) {
    const FusionGraph &graph = state.getGraph();
    for (unsigned n = 0; n < graph.size(); ++n)
      if (graph.node(n).op->getName().getStringRef() == name && index-- == 0)
        return n;
    ADD_FAILURE() << "no node " << name.str();
    return 0;
  }

  /// The graph nodes of kInput's four ops.
  struct Nodes {
    unsigned matmul, sum, centred, var;
  };
  static Nodes nodesOf(const FusionState &state) {
    return {nodeOf(state, "linalg.matmul"), nodeOf(state, "linalg.reduce", 0),
            nodeOf(state, "linalg.generic"), nodeOf(state, "linalg.reduce", 1)};
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  FusionPolicy policy;
  const FusionRule *rows = lookupFusionRule("row_reduction");
  const FusionRule *join = lookupFusionRule("contraction_row_epilogue");
};

// The row epilogue is formed first (its own merges take in a reduction),
// then it takes in the contraction: the join is the last merge, not the
// epilogue's own.
TEST_F(FusionEngineTest, RowGroupTakesInContraction) {
  ASSERT_TRUE(module);
  FusionState state(body(), policy);
  ASSERT_TRUE(rows && join);
  auto [matmul, sum, centred, var] = nodesOf(state);
  ASSERT_TRUE(
      state.tryMerge(state.groupOf(centred), state.groupOf(var), *rows, var));
  ASSERT_TRUE(
      state.tryMerge(state.groupOf(centred), state.groupOf(sum), *rows, sum));
  ASSERT_TRUE(state.tryMerge(state.groupOf(centred), state.groupOf(matmul),
                             *join, matmul));
  FusionPlan plan = state.run();
  ASSERT_EQ(plan.groups.size(), 1u);
  const PlannedGroup &group = plan.groups.front();
  ASSERT_EQ(group.merges.size(), 3u);
  ASSERT_TRUE(group.reductionJoin.has_value());
  EXPECT_EQ(*group.reductionJoin, 2u);
  EXPECT_EQ(group.merges[2].first, "contraction_row_epilogue");
  EXPECT_EQ(group.merges[2].second, state.node(matmul).op);
}

// The contraction's group takes in the formed row epilogue: the epilogue's
// own merges are recorded too (before the join), and the join is the merge
// that took the epilogue in.
TEST_F(FusionEngineTest, ContractionTakesInRowGroup) {
  ASSERT_TRUE(module);
  FusionState state(body(), policy);
  ASSERT_TRUE(rows && join);
  auto [matmul, sum, centred, var] = nodesOf(state);
  ASSERT_TRUE(state.tryMerge(state.groupOf(sum), state.groupOf(centred), *rows,
                             centred));
  ASSERT_TRUE(
      state.tryMerge(state.groupOf(sum), state.groupOf(var), *rows, var));
  ASSERT_TRUE(
      state.tryMerge(state.groupOf(matmul), state.groupOf(sum), *join, sum));
  FusionPlan plan = state.run();
  ASSERT_EQ(plan.groups.size(), 1u);
  const PlannedGroup &group = plan.groups.front();
  ASSERT_EQ(group.merges.size(), 3u);
  EXPECT_EQ(group.merges[0].second, state.node(centred).op);
  EXPECT_EQ(group.merges[1].second, state.node(var).op);
  ASSERT_TRUE(group.reductionJoin.has_value());
  EXPECT_EQ(*group.reductionJoin, 2u);
  EXPECT_EQ(group.merges[2].second, state.node(sum).op);
}

// Merges that never put a contraction beside a reduction record no join:
// with contraction_row_epilogue off, the matmul stays alone.
TEST_F(FusionEngineTest, NoJoinWithoutContraction) {
  ASSERT_TRUE(module);
  policy.disabledRules.insert("contraction_row_epilogue");
  FusionState state(body(), policy);
  ASSERT_TRUE(rows);
  Nodes nodes = nodesOf(state);
  unsigned sum = nodes.sum, centred = nodes.centred;
  ASSERT_TRUE(state.tryMerge(state.groupOf(sum), state.groupOf(centred), *rows,
                             centred));
  FusionPlan plan = state.run();
  size_t merges = 0;
  for (const PlannedGroup &group : plan.groups) {
    merges += group.merges.size();
    EXPECT_FALSE(group.reductionJoin.has_value());
  }
  EXPECT_GE(merges, 1u);
}

// A chain whose groups hold what materializing clones in: a splat constant
// and an empty tensor read by members, and a view (tensor.cast) of one
// member read by the next, so the copy's clone of the view must read the
// member's copy. One member's result also leaves the block.
constexpr const char *kCopyInput = R"mlir(
#id = affine_map<(d0) -> (d0)>
func.func @g(%x: tensor<32xf32>, %y: tensor<32xf32>)
    -> (tensor<32xf32>, tensor<32xf32>) {
  %e = tensor.empty() : tensor<32xf32>
  %c = arith.constant dense<2.0> : tensor<32xf32>
  %a = linalg.generic {indexing_maps = [#id, #id, #id],
                       iterator_types = ["parallel"]}
      ins(%x, %c : tensor<32xf32>, tensor<32xf32>) outs(%e : tensor<32xf32>) {
    ^bb0(%p: f32, %q: f32, %o: f32):
      %s = arith.addf %p, %q : f32
      linalg.yield %s : f32
  } -> tensor<32xf32>
  %v = tensor.cast %a : tensor<32xf32> to tensor<32xf32>
  %b = linalg.generic {indexing_maps = [#id, #id, #id],
                       iterator_types = ["parallel"]}
      ins(%v, %y : tensor<32xf32>, tensor<32xf32>) outs(%e : tensor<32xf32>) {
    ^bb0(%p: f32, %q: f32, %o: f32):
      %s = arith.mulf %p, %q : f32
      linalg.yield %s : f32
  } -> tensor<32xf32>
  %d = linalg.generic {indexing_maps = [#id, #id],
                       iterator_types = ["parallel"]}
      ins(%b : tensor<32xf32>) outs(%e : tensor<32xf32>) {
    ^bb0(%p: f32, %o: f32):
      %s = math.exp %p : f32
      linalg.yield %s : f32
  } -> tensor<32xf32>
  return %d, %a : tensor<32xf32>, tensor<32xf32>
}
)mlir";

static std::string print(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os);
  return text;
}

// Each planned group's copy is the kernel materializing makes of it (the
// same ops, the view reading the member's copy, the same results), the
// block verifies with the copy beside it, and erasing the copy leaves the
// block exactly as it was.
TEST_F(FusionEngineTest, CopyOfPlannedGroupIsMaterializedGroup) {
  context.loadDialect<math::MathDialect>();
  OwningOpRef<ModuleOp> input =
      parseSourceString<ModuleOp>(kCopyInput, &context);
  ASSERT_TRUE(input);
  Block &block =
      cast<func::FuncOp>(input->getBody()->front()).getBody().front();
  FusionPlan plan = planFusion(block, policy);
  // The whole chain is one group, or the test checks less than it says.
  ASSERT_EQ(plan.groups.size(), 1u);
  ASSERT_EQ(plan.groups.front().ops.size(), 3u);

  OwningOpRef<ModuleOp> materialized = input->clone();
  Block &materializedBlock =
      cast<func::FuncOp>(materialized->getBody()->front()).getBody().front();
  FusionPlan mapped = plan;
  IRMapping mapping;
  for (auto [from, to] : llvm::zip(block, materializedBlock))
    mapping.map(&from, &to);
  for (PlannedGroup &group : mapped.groups) {
    for (Operation *&op : group.ops)
      op = mapping.lookup(op);
    group.anchor = mapping.lookup(group.anchor);
  }
  ASSERT_TRUE(succeeded(materializeFusionPlan(materializedBlock, mapped)));
  SmallVector<GroupOp> made(materializedBlock.getOps<GroupOp>());
  ASSERT_EQ(made.size(), 1u);

  std::string before = print(*input);
  GroupOp copy = copyPlannedGroup(block, plan.groups.front());
  EXPECT_TRUE(succeeded(verify(*input)));
  EXPECT_TRUE(copy.isSameKernel(made.front()));
  EXPECT_EQ(copy.hashKernel(), made.front().hashKernel());
  // Two results: %a leaves the block, %d is returned.
  EXPECT_EQ(copy->getNumResults(), 2u);
  EXPECT_TRUE(copy->use_empty());
  // The view inside the copy reads the copy of %a, not the original.
  for (Operation &op : copy.getBodyBlock())
    if (auto cast = dyn_cast<tensor::CastOp>(op)) {
      Operation *def = cast.getSource().getDefiningOp();
      ASSERT_TRUE(def);
      EXPECT_EQ(def->getBlock(), &copy.getBodyBlock());
    }
  copy->erase();
  EXPECT_EQ(print(*input), before);
}

// Pairs of two-op groups (an add, then an exp of it), each reading what the
// group before it made: some the same kernel, some not for one reason each.
constexpr const char *kSameInput = R"mlir(
#id = affine_map<(d0) -> (d0)>
func.func @h(%x: tensor<32xf32>, %y: tensor<32xf32>)
    -> (tensor<32xf32>, tensor<32xf32>) {
  %e = tensor.empty() : tensor<32xf32>
  %c2 = arith.constant dense<2.0> : tensor<32xf32>
  %c3 = arith.constant dense<3.0> : tensor<32xf32>
  %a0 = linalg.add ins(%x, %c2 : tensor<32xf32>, tensor<32xf32>) outs(%e : tensor<32xf32>) -> tensor<32xf32>
  %b0 = linalg.exp ins(%a0 : tensor<32xf32>) outs(%e : tensor<32xf32>) -> tensor<32xf32>
  %a1 = linalg.add ins(%b0, %c2 : tensor<32xf32>, tensor<32xf32>) outs(%e : tensor<32xf32>) -> tensor<32xf32>
  %b1 = linalg.exp ins(%a1 : tensor<32xf32>) outs(%e : tensor<32xf32>) -> tensor<32xf32>
  %a2 = linalg.add ins(%b1, %c3 : tensor<32xf32>, tensor<32xf32>) outs(%e : tensor<32xf32>) -> tensor<32xf32>
  %b2 = linalg.exp ins(%a2 : tensor<32xf32>) outs(%e : tensor<32xf32>) -> tensor<32xf32>
  %a3 = linalg.add ins(%b2, %y : tensor<32xf32>, tensor<32xf32>) outs(%e : tensor<32xf32>) -> tensor<32xf32>
  %b3 = linalg.exp ins(%a3 : tensor<32xf32>) outs(%e : tensor<32xf32>) -> tensor<32xf32>
  %a4 = linalg.add ins(%b3, %c2 : tensor<32xf32>, tensor<32xf32>) outs(%e : tensor<32xf32>) -> tensor<32xf32>
  %b4 = linalg.exp ins(%a4 : tensor<32xf32>) outs(%e : tensor<32xf32>) -> tensor<32xf32>
  %a5 = linalg.add ins(%y, %y : tensor<32xf32>, tensor<32xf32>) outs(%e : tensor<32xf32>) -> tensor<32xf32>
  %b5 = linalg.exp ins(%a5 : tensor<32xf32>) outs(%e : tensor<32xf32>) -> tensor<32xf32>
  %a6 = linalg.add ins(%b5, %y : tensor<32xf32>, tensor<32xf32>) outs(%e : tensor<32xf32>) -> tensor<32xf32>
  %b6 = linalg.exp ins(%a6 : tensor<32xf32>) outs(%e : tensor<32xf32>) -> tensor<32xf32>
  %a7 = linalg.add ins(%b6, %c2 : tensor<32xf32>, tensor<32xf32>) outs(%e : tensor<32xf32>) -> tensor<32xf32>
  %b7 = linalg.exp ins(%a7 : tensor<32xf32>) outs(%e : tensor<32xf32>) -> tensor<32xf32>
  return %b7, %a4 : tensor<32xf32>, tensor<32xf32>
}
)mlir";

// Whether two planned groups are the same kernel is decided on the planned
// ops as it is on the groups materializing would make (isSameKernel of
// their copies): the same where only the inputs differ; not the same for
// another constant, an input where the other clones a constant, a result
// that also leaves the group, or one input read twice against two inputs.
TEST_F(FusionEngineTest, SamePlannedKernelAgreesWithCopies) {
  OwningOpRef<ModuleOp> input =
      parseSourceString<ModuleOp>(kSameInput, &context);
  ASSERT_TRUE(input);
  Block &block =
      cast<func::FuncOp>(input->getBody()->front()).getBody().front();
  SmallVector<Operation *> computeOps;
  for (Operation &op : block)
    if (isa<linalg::LinalgOp>(op))
      computeOps.push_back(&op);
  ASSERT_EQ(computeOps.size(), 16u);
  SmallVector<PlannedGroup> groups(8);
  for (auto [i, group] : llvm::enumerate(groups)) {
    group.id = i;
    group.ops = {computeOps[2 * i], computeOps[2 * i + 1]};
    group.anchor = group.ops.front();
    group.kind = FusionKind::vertical;
    group.rule = "elementwise_chain";
  }
  SmallVector<GroupOp> copies;
  for (const PlannedGroup &group : groups)
    copies.push_back(copyPlannedGroup(block, group));
  auto same = [&](unsigned i, unsigned j) {
    bool planned = isSamePlannedKernel(block, groups[i], groups[j]);
    EXPECT_EQ(planned, copies[i].isSameKernel(copies[j]))
        << "groups " << i << " and " << j;
    if (planned)
      EXPECT_EQ(hashPlannedKernel(groups[i]), hashPlannedKernel(groups[j]));
    return planned;
  };
  EXPECT_TRUE(same(0, 1)); // another input, the same constant
  EXPECT_TRUE(same(1, 7));
  EXPECT_FALSE(same(0, 2)); // 2.0 against 3.0
  EXPECT_FALSE(same(0, 3)); // a constant against an input
  EXPECT_FALSE(same(0, 4)); // group 4's add also leaves the block
  EXPECT_FALSE(same(5, 6)); // %y twice against two inputs
  EXPECT_TRUE(same(3, 6));
  for (unsigned i = 0; i < groups.size(); ++i)
    for (unsigned j = 0; j < groups.size(); ++j)
      if (i != j)
        same(i, j);
  for (GroupOp copy : copies)
    copy->erase();
}

// The boundary of a union made from the sides' boundaries (the engine's
// incremental path) holds what the boundary of the union's members does,
// for contiguous and interleaved splits of the chain above.
TEST_F(FusionEngineTest, MergedBoundaryIsBoundaryOfUnion) {
  OwningOpRef<ModuleOp> input =
      parseSourceString<ModuleOp>(kSameInput, &context);
  ASSERT_TRUE(input);
  Block &block =
      cast<func::FuncOp>(input->getBody()->front()).getBody().front();
  FusionGraph graph(block);
  ASSERT_EQ(graph.size(), 16u);
  auto asSets = [](const FusionGraph::Boundary &boundary) {
    return std::make_pair(llvm::SmallDenseSet<Value>(boundary.inputs.begin(),
                                                     boundary.inputs.end()),
                          llvm::SmallDenseSet<Value>(boundary.outputs.begin(),
                                                     boundary.outputs.end()));
  };
  auto check = [&](ArrayRef<unsigned> a, ArrayRef<unsigned> b) {
    SmallVector<unsigned> merged(a.begin(), a.end());
    merged.append(b.begin(), b.end());
    llvm::sort(merged);
    FusionGraph::Boundary whole = graph.getBoundary(merged);
    FusionGraph::Boundary joined = graph.mergeBoundaries(
        merged, graph.getBoundary(a), graph.getBoundary(b));
    EXPECT_EQ(joined.inputs.size(), whole.inputs.size());
    EXPECT_EQ(joined.outputs.size(), whole.outputs.size());
    EXPECT_TRUE(asSets(joined) == asSets(whole));
    EXPECT_EQ(graph.getBytes(merged, joined), graph.getBytes(merged));
  };
  for (unsigned cut = 1; cut < 16; ++cut)
    for (unsigned end = cut + 1; end <= 16; ++end) {
      SmallVector<unsigned> a, b;
      for (unsigned n = 0; n < cut; ++n)
        a.push_back(n);
      for (unsigned n = cut; n < end; ++n)
        b.push_back(n);
      check(a, b);
      check(b, a);
    }
  SmallVector<unsigned> even, odd;
  for (unsigned n = 0; n < 16; ++n)
    (n % 2 ? odd : even).push_back(n);
  check(even, odd);
}

} // namespace
