//===- SiblingMerge.cpp - the sibling_merge rule --------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::detail;

/// The iteration space a group runs over, for sibling matching: the anchor's
/// result shape, plus the reduced dims for reductions.
static std::string iterationSpaceKey(const Node &anchor) {
  std::string key =
      llvm::join(llvm::map_range(anchor.shape,
                                 [](int64_t d) { return std::to_string(d); }),
                 "x");
  if (anchor.reduction)
    key +=
        "/r" +
        llvm::join(llvm::map_range(anchor.reduction->inputShape,
                                   [](int64_t d) { return std::to_string(d); }),
                   "x");
  return key;
}

static void propose(FusionState &state) {
  const FusionGraph &graph = state.getGraph();
  // Candidate pairs: groups that read a common value, found through an index
  // from values to their readers (not by comparing every pair of groups).
  llvm::MapVector<Value, SmallVector<unsigned>> readers;
  std::vector<std::string> keys(state.numGroups());
  for (unsigned g = 0; g < state.numGroups(); ++g) {
    if (!state.group(g).alive ||
        !graph.node(state.group(g).anchor).hasStaticShape)
      continue;
    keys[g] = iterationSpaceKey(graph.node(state.group(g).anchor));
    for (Value input : graph.getBoundary(state.group(g).members).inputs)
      readers[input].push_back(g);
  }
  std::set<std::pair<unsigned, unsigned>> pairs;
  for (auto &[value, list] : readers)
    for (size_t a = 0; a < list.size(); ++a)
      for (size_t b = a + 1; b < list.size(); ++b) {
        unsigned i = std::min(list[a], list[b]), j = std::max(list[a], list[b]);
        const Node &ai = graph.node(state.group(i).anchor);
        const Node &aj = graph.node(state.group(j).anchor);
        if (i != j && ai.cls.category == aj.cls.category && keys[i] == keys[j])
          pairs.insert({i, j});
      }
  for (auto [i, j] : pairs) {
    const GroupState &gi = state.group(i), &gj = state.group(j);
    if (!gi.alive || !gj.alive)
      continue;
    // Siblings are independent: neither feeds the other. A producer and
    // its direct consumer are no siblings; a pair joined by a path through
    // other groups is a candidate the dependency check refuses (reported).
    if (graph.hasPath(gi.members, gj.members) ||
        graph.hasPath(gj.members, gi.members)) {
      SmallVector<unsigned> both(gi.members.begin(), gi.members.end());
      both.append(gj.members.begin(), gj.members.end());
      MemberSet merged(both);
      if (!graph.hasPathThroughOutside(gi.members, gj.members, merged) &&
          !graph.hasPathThroughOutside(gj.members, gi.members, merged))
        continue;
    }
    state.tryMerge(i, j, kSiblingMergeRule, gj.anchor);
  }
}

const FusionRule mlir::fuse::detail::kSiblingMergeRule = {
    "sibling_merge", FusionKind::horizontal, 30,
    /*pattern=*/
    "independent groups with the same iteration space that read a common "
    "input become one multi-result group",
    /*constraints=*/
    "no dependency path between them; at most one compute-bound "
    "contraction",
    /*traits=*/FusionRule::None,
    /*propose=*/propose};
