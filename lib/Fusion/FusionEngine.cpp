//===- FusionEngine.cpp - rules, feasibility checks and cost model --------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// The engine starts with every compute op in a group of its own and merges
// groups rule by rule, highest priority first (the rules are in Rules/, the
// checks in FusionChecks.cpp). Each rule proposes candidate merges; a merge
// happens only when every feasibility check passes, the cost model last.
// Refused candidates are kept with the check that refused them and its
// numbers, so a report can say why ops stayed apart.
//
//===----------------------------------------------------------------------===//

#include "FusionState.h"

#include "fuse/Fusion/FusionEngine.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <new>
#include <set>
#include <tuple>

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::detail;

namespace mlir::fuse::detail {
extern const FusionRule kSharedInputContractionsRule;
} // namespace mlir::fuse::detail

/// Whether node `anchor` is a packed contraction: one whose result only
/// slices read, at least two of them (several contractions on one input
/// packed along the output, as fuse-merge-sibling-contractions makes them or
/// as a model's own packed QKV projection comes).
static bool isPackedContraction(const FusionGraph &graph, unsigned anchor) {
  const Node &node = graph.node(anchor);
  return node.isContraction() && node.consumers.size() >= 2 &&
         llvm::all_of(node.consumers, [&](unsigned c) {
           return isa<tensor::ExtractSliceOp>(graph.node(c).op);
         });
}

//===----------------------------------------------------------------------===//
// The engine
//===----------------------------------------------------------------------===//

/// Of two NamesGroup rules (either may be null), the one that names a group
/// both took part in: the higher priority.
static const FusionRule *namingRuleOf(const FusionRule *x,
                                      const FusionRule *y) {
  if (!x || !y)
    return x ? x : y;
  return y->priority > x->priority ? y : x;
}

FusionState::FusionState(Block &block, const FusionPolicy &policy)
    : graph(block), policy(policy) {
  groups.reserve(graph.size());
  groupIds.reserve(graph.size());
  for (unsigned id = 0; id < graph.size(); ++id) {
    GroupState group;
    group.members.push_back(id);
    group.anchor = id;
    const Node &node = graph.node(id);
    group.hasContraction = node.isContraction();
    group.hasReduction = node.isReduction();
    group.pointwise =
        node.isElementwiseLike() || node.isGather() || node.isTranspose();
    groupIds.push_back(groups.size());
    groups.push_back(std::move(group));
  }
}

bool FusionState::groupIsPointwise(unsigned g) const {
  return groups[g].pointwise;
}

void FusionState::record(const FusionRule &rule, StringRef checkName,
                         std::string reason, unsigned anchor,
                         unsigned candidate) {
  auto key =
      std::make_tuple(rule.name.str(), anchor, candidate, checkName.str());
  if (!recorded.insert(key).second)
    return;
  FusionRejection rejection;
  rejection.rule = rule.name.str();
  rejection.check = checkName.str();
  rejection.reason = std::move(reason);
  rejection.anchor = graph.node(anchor).op;
  rejection.candidate = graph.node(candidate).op;
  rejections.push_back(std::move(rejection));
}

/// Empties `vector` and frees its heap buffer (clear() keeps the buffer,
/// and so does assigning an empty SmallVector).
template <typename T, unsigned N>
static void releaseStorage(SmallVector<T, N> &vector) {
  vector.~SmallVector<T, N>();
  new (&vector) SmallVector<T, N>();
}

bool FusionState::tryMerge(unsigned a, unsigned b, const FusionRule &rule,
                           unsigned candidate) {
  return tryMerge(a, ArrayRef<unsigned>{b}, rule, candidate);
}

bool FusionState::tryMerge(unsigned a, ArrayRef<unsigned> others,
                           const FusionRule &rule, unsigned candidate) {
  GroupState &ga = groups[a];
  if (!ga.alive || llvm::is_contained(others, a) ||
      llvm::any_of(others, [&](unsigned o) { return !groups[o].alive; }))
    return false;
  if (!enabled(rule.name)) {
    record(rule, check::kRuleDisabled,
           llvm::formatv("rule '{0}' is disabled", rule.name), ga.anchor,
           candidate);
    return false;
  }
  // Everything that joins `a`, as one group.
  GroupState gb;
  gb.anchor = groups[others.front()].anchor;
  gb.pointwise = true;
  for (unsigned o : others) {
    const GroupState &g = groups[o];
    gb.members.append(g.members.begin(), g.members.end());
    if (!gb.firstRule)
      gb.firstRule = g.firstRule;
    gb.namingRule = namingRuleOf(gb.namingRule, g.namingRule);
    gb.kinds |= g.kinds;
    gb.steps.append(g.steps.begin(), g.steps.end());
    gb.hasContraction |= g.hasContraction;
    gb.hasReduction |= g.hasReduction;
    gb.pointwise &= g.pointwise;
    const Node &anchor = graph.node(g.anchor);
    if (anchor.isContraction() &&
        anchor.cls.flops.value_or(0) >
            graph.node(gb.anchor).cls.flops.value_or(0))
      gb.anchor = g.anchor;
  }
  llvm::sort(gb.members);
  SmallVector<unsigned> merged(ga.members.begin(), ga.members.end());
  merged.append(gb.members);
  llvm::sort(merged);
  FusionCheckInput input{graph,      policy, &rule,     ga.members,
                         gb.members, merged, gb.anchor, candidate};
  input.aBytes = ga.bytes;
  input.aRecompute = ga.recompute;
  input.aBoundary = ga.boundary.get();
  if (others.size() == 1) {
    input.bBytes = groups[others.front()].bytes;
    input.bRecompute = groups[others.front()].recompute;
    input.bBoundary = groups[others.front()].boundary.get();
  }
  if (std::optional<FusionRefusal> refusal = runFusionChecks(input)) {
    record(rule, refusal->check, std::move(refusal->reason), ga.anchor,
           candidate);
    return false;
  }
  // Keep the compute-heavier anchor.
  const Node &anchorA = graph.node(ga.anchor), &anchorB = graph.node(gb.anchor);
  if (anchorB.isContraction() &&
      (!anchorA.isContraction() ||
       anchorB.cls.flops.value_or(0) > anchorA.cls.flops.value_or(0)))
    ga.anchor = gb.anchor;
  ga.members = std::move(merged);
  ga.bytes = input.mergedBytes;
  ga.recompute = input.mergedRecompute;
  ga.boundary = input.mergedBoundary ? std::make_unique<FusionGraph::Boundary>(
                                           std::move(*input.mergedBoundary))
                                     : nullptr;
  // The rule that first merged into this group names it; an input pad is
  // only a prologue, so the rule after it names the group instead.
  if (!ga.firstRule || (ga.firstRule->has(FusionRule::Prologue) &&
                        !rule.has(FusionRule::Prologue)))
    ga.firstRule = &rule;
  ga.namingRule =
      namingRuleOf(namingRuleOf(ga.namingRule, gb.namingRule),
                   rule.has(FusionRule::NamesGroup) ? &rule : nullptr);
  ga.kinds |= gb.kinds | (1u << static_cast<unsigned>(rule.kind));
  // Whether this merge is the one that brings a contraction and a
  // reduction together: each side holds one of them and not both.
  bool joinsReduction = (ga.hasContraction && !ga.hasReduction &&
                         gb.hasReduction && !gb.hasContraction) ||
                        (gb.hasContraction && !gb.hasReduction &&
                         ga.hasReduction && !ga.hasContraction);
  ga.steps.append(gb.steps.begin(), gb.steps.end());
  ga.steps.push_back({&rule, candidate, joinsReduction});
  ga.hasContraction |= gb.hasContraction;
  ga.hasReduction |= gb.hasReduction;
  ga.pointwise &= gb.pointwise;
  ga.lastRule = &rule;
  ga.lastCandidate = candidate;
  for (unsigned o : others) {
    for (unsigned m : groups[o].members)
      groupIds[m] = a;
    groups[o].alive = false;
    // Its storage is freed, not only cleared: a chain grows one op at a
    // time, each merge moving the group into its next op's, and a million
    // dead groups would each keep the buffers they had.
    releaseStorage(groups[o].members);
    releaseStorage(groups[o].steps);
    groups[o].boundary.reset();
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Plan
//===----------------------------------------------------------------------===//

FusionPlan FusionState::run() {
  // Every rule, highest priority first; a disabled rule still proposes, so
  // the report lists what it would have merged.
  for (const FusionRule *rule : getFusionRules())
    if (rule->propose)
      rule->propose(*this);

  FusionPlan plan;
  plan.rejections = std::move(rejections);
  plan.kernelsBefore = graph.size();
  for (const Node &node : graph.getNodes())
    plan.bytesBefore += graph.getBytes({node.index});

  // Groups in the order of their first op.
  SmallVector<unsigned> order;
  for (unsigned g = 0; g < groups.size(); ++g)
    if (groups[g].alive)
      order.push_back(g);
  llvm::sort(order, [&](unsigned x, unsigned y) {
    return groups[x].members.front() < groups[y].members.front();
  });
  double bandwidth = policy.target.getDramBytesPerSecond();
  for (unsigned g : order) {
    const GroupState &state = groups[g];
    PlannedGroup group;
    group.id = plan.groups.size();
    for (unsigned m : state.members)
      group.ops.push_back(graph.node(m).op);
    group.anchor = graph.node(state.anchor).op;
    for (const GroupState::Step &step : state.steps) {
      Operation *op = graph.node(step.candidate).op;
      if (step.joinsReduction && !group.reductionJoin)
        group.reductionJoin = group.merges.size();
      group.merges.push_back({step.rule->name, op});
    }
    if (state.lastRule) {
      group.lastRule = state.lastRule->name.str();
      group.lastCandidate = graph.node(state.lastCandidate).op;
    }
    group.bytes = graph.getBytes(state.members);
    int64_t separate = 0;
    for (unsigned m : state.members)
      separate += graph.getBytes({m});
    group.bytesSaved = separate - group.bytes;
    if (state.members.size() > 1) {
      // The kinds of the rules that took part: a horizontal merge of groups
      // that are vertical or diagonal already is composite.
      bool diagonal = state.tookPart(FusionKind::diagonal) ||
                      graph.hasMultiOutput(state.members);
      bool horizontal = state.tookPart(FusionKind::horizontal);
      bool vertical =
          state.firstRule && state.firstRule->kind != FusionKind::horizontal;
      if (state.tookPart(FusionKind::composite) ||
          (horizontal && (vertical || diagonal)))
        group.kind = FusionKind::composite;
      else if (horizontal)
        group.kind = FusionKind::horizontal;
      else if (diagonal)
        group.kind = FusionKind::diagonal;
      else
        group.kind = FusionKind::vertical;
      group.rule =
          (state.namingRule ? state.namingRule : state.firstRule)->name.str();
      // A packed contraction: the horizontal rule formed this group's
      // anchor.
      if (isPackedContraction(graph, state.anchor)) {
        group.kind = group.kind == FusionKind::vertical ||
                             group.kind == FusionKind::horizontal
                         ? FusionKind::horizontal
                         : FusionKind::composite;
        group.rule = kSharedInputContractionsRule.name.str();
      }
      group.timeSavedUs =
          (double(group.bytesSaved) / bandwidth +
           double(state.members.size() - 1) * policy.target.getLaunchSeconds() -
           recomputeSeconds(graph, policy, state.members)) *
          1e6;
    }
    plan.bytesAfter += group.bytes;
    plan.groups.push_back(std::move(group));
  }
  plan.kernelsAfter = plan.groups.size();
  return plan;
}

FusionPlan mlir::fuse::planFusion(Block &block, const FusionPolicy &policy) {
  return FusionState(block, policy).run();
}
