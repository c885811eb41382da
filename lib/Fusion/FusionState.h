//===- FusionState.h - the engine's state, as rules see it ------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// The fusion engine keeps every compute op of a block in a group (at first
// one op each). Rules read the graph and the groups and propose merges with
// tryMerge; the engine runs the feasibility checks and the cost model and
// either merges or records the refusal.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_LIB_FUSION_FUSIONSTATE_H
#define FUSE_LIB_FUSION_FUSIONSTATE_H

#include "FusionGraph.h"

#include "fuse/Fusion/FusionCheck.h"
#include "fuse/Fusion/FusionEngine.h"
#include "fuse/Fusion/FusionRule.h"

#include <optional>
#include <set>
#include <string>
#include <tuple>

namespace mlir::fuse::detail {

/// A group while the engine works on it.
struct GroupState {
  /// Sorted node ids. (A state holds one group per node, most of them
  /// single ops: small inline sizes.)
  SmallVector<unsigned, 1> members;
  unsigned anchor = 0;
  /// The rule that names the group unless a NamesGroup rule took part.
  const FusionRule *firstRule = nullptr;
  /// The highest-priority NamesGroup rule that took part, if any.
  const FusionRule *namingRule = nullptr;
  /// The kinds of the rules that took part (bit i: FusionKind value i).
  unsigned kinds = 0;
  /// One merge: its rule, its candidate node, and whether it joined a
  /// group holding a contraction with one holding a reduction (neither
  /// side holding both).
  struct Step {
    const FusionRule *rule;
    unsigned candidate;
    bool joinsReduction;
  };
  /// The merges of this group and of every group it took in, in order
  /// (this group's, then each taken-in group's, then the merge that took
  /// them in). The plan's steps and merges.
  SmallVector<Step, 0> steps;
  /// Whether a member is a contraction, a reduction.
  bool hasContraction = false, hasReduction = false;
  /// Whether every member is elementwise-like, a gather or a transpose
  /// (FusionState::groupIsPointwise, kept through merges).
  bool pointwise = false;
  /// The group's global-memory bytes and recompute seconds, kept from the
  /// merge that formed it (-1: not known yet).
  int64_t bytes = -1;
  double recompute = -1;
  /// Its boundary, kept from the merge that formed it (null: not kept;
  /// single ops compute theirs when asked).
  std::unique_ptr<FusionGraph::Boundary> boundary;
  /// The last merge into this group.
  const FusionRule *lastRule = nullptr;
  unsigned lastCandidate = 0;
  bool alive = true;

  bool tookPart(FusionKind kind) const {
    return (kinds & (1u << static_cast<unsigned>(kind))) != 0;
  }
};

/// One candidate merge, as the feasibility checks see it.
struct FusionCheckInput {
  const FusionGraph &graph;
  const FusionPolicy &policy;
  /// The rule proposing the merge (null: none, as in the pattern API).
  const FusionRule *rule;
  /// The two sides and their union, sorted node ids.
  ArrayRef<unsigned> a, b, merged;
  /// The anchor of side `b`, and the node reports name as the candidate.
  unsigned bAnchor;
  std::optional<unsigned> candidate;
  /// What several checks need, computed once per merge: each side's and the
  /// union's global-memory bytes and recompute seconds (-1 until known; the
  /// engine passes the sides' when it kept them), and the union's boundary.
  mutable int64_t aBytes = -1, bBytes = -1, mergedBytes = -1;
  mutable double aRecompute = -1, bRecompute = -1, mergedRecompute = -1;
  mutable std::optional<FusionGraph::Boundary> mergedBoundary = std::nullopt;
  /// The sides' boundaries where the engine kept them (null: not kept; the
  /// union's is then made from them rather than from every member).
  const FusionGraph::Boundary *aBoundary = nullptr, *bBoundary = nullptr;
};

/// Runs getFusionChecks() in order; the first refusal, if any.
std::optional<FusionRefusal> runFusionChecks(const FusionCheckInput &input);

/// Time, in seconds, to recompute producers that a broadcast read makes
/// run once per consumer element.
double recomputeSeconds(const FusionGraph &graph, const FusionPolicy &policy,
                        ArrayRef<unsigned> members);

/// The engine's state for one block.
class FusionState {
public:
  FusionState(Block &block, const FusionPolicy &policy);

  /// Runs every rule's propose step by priority and returns the plan.
  FusionPlan run();

  //===--------------------------------------------------------------------===//
  // What rules read
  //===--------------------------------------------------------------------===//

  const FusionGraph &getGraph() const { return graph; }
  const Node &node(unsigned id) const { return graph.node(id); }
  const FusionPolicy &getPolicy() const { return policy; }
  /// The group node `node` is in.
  unsigned groupOf(unsigned node) const { return groupIds[node]; }
  const GroupState &group(unsigned g) const { return groups[g]; }
  unsigned numGroups() const { return groups.size(); }
  /// Whether `node` is still alone in its group.
  bool isSingleton(unsigned node) const {
    return groups[groupIds[node]].members.size() == 1;
  }
  /// Whether every op of group `g` is elementwise-like, a gather or a
  /// transpose (what elementwise_chain joins).
  bool groupIsPointwise(unsigned g) const;

  //===--------------------------------------------------------------------===//
  // What rules do
  //===--------------------------------------------------------------------===//

  /// Merges group `b` into group `a` under `rule` if every check passes;
  /// otherwise records why not. `candidate` is the op named in reports.
  bool tryMerge(unsigned a, unsigned b, const FusionRule &rule,
                unsigned candidate);
  /// Merges several groups into `a` at once: all or nothing.
  bool tryMerge(unsigned a, ArrayRef<unsigned> others, const FusionRule &rule,
                unsigned candidate);

private:
  bool enabled(StringRef rule) const {
    return !policy.disabledRules.contains(rule);
  }
  void record(const FusionRule &rule, StringRef check, std::string reason,
              unsigned anchor, unsigned candidate);

  FusionGraph graph;
  const FusionPolicy &policy;
  std::vector<GroupState> groups;
  std::vector<unsigned> groupIds;
  SmallVector<FusionRejection> rejections;
  std::set<std::tuple<std::string, unsigned, unsigned, std::string>> recorded;
};

} // namespace mlir::fuse::detail

#endif // FUSE_LIB_FUSION_FUSIONSTATE_H
