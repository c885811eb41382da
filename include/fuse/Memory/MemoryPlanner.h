//===- MemoryPlanner.h - pack buffer lifetimes into one arena ---*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// A static memory planner with no MLIR in its interface: buffers with
// inclusive lifetimes [start, end] and sizes get offsets in one arena so
// that no two buffers alive at the same step overlap. The planner runs a
// portfolio of placement orders with best-fit placement, then an exact
// branch-and-bound search at the lower bound and a seeded local search over
// the best order (random and aimed moves), taking turns within a work
// budget (not a clock, so the same input gives the same plan on any
// machine), and keeps the smallest arena. It is
// exact when all sizes are equal (interval-graph colouring). The max-live
// bound (the largest total size alive at one step) is the floor
// no plan can beat.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_SUPPORT_MEMORYPLANNER_H
#define FUSE_SUPPORT_MEMORYPLANNER_H

#include <cstdint>
#include <string>
#include <vector>

namespace fuse::planner {

/// One buffer: alive from step `start` to step `end` inclusive.
struct Buffer {
  int64_t start = 0;
  int64_t end = 0;
  int64_t size = 0;
};

/// The default work budget of the searches: 24 Mi units, 74 to 120 ms for
/// 1,000 buffers on this project's 2-core machine where no plan reaches
/// the bound (bench/memtraces.py and repeated runs).
inline constexpr int64_t kDefaultSearchBudget = int64_t(24) << 20;

struct Options {
  /// Every offset is a multiple of this; sizes round up to it.
  int64_t alignment = 1;
  /// Work budget of the searches, which take turns: a third to the exact
  /// search (a unit is four of its steps, each a visit to one buffer or
  /// section), the rest to the local search (a candidate order costs one
  /// unit per buffer placed or copied and per conflict looked at, k log k
  /// for sorting k, and four per buffer for the passes over the order). A
  /// count, not a clock: the plan depends only on the input.
  int64_t searchBudget = kDefaultSearchBudget;
  /// Seed of the local search.
  uint64_t seed = 0;
};

/// The arena of one strategy.
struct StrategyResult {
  std::string name;
  int64_t arena = 0;
};

struct Plan {
  /// One offset per input buffer, in input order.
  std::vector<int64_t> offsets;
  int64_t arena = 0;
  /// The strategy that produced this plan.
  std::string strategy;
  /// Every strategy tried, with its arena.
  std::vector<StrategyResult> strategies;
  /// Sum of all (aligned) sizes: every buffer its own memory.
  int64_t naive = 0;
  /// Largest total (aligned) size alive at one step: the lower bound.
  int64_t maxLive = 0;
  /// The best lower bound known: max-live, raised where the exact search
  /// proved that no arena of that size exists. The plan is optimal when
  /// `arena == lowerBound`.
  int64_t lowerBound = 0;
  /// Time spent planning.
  double planMs = 0;
};

/// The most buffers one plan takes (buffer indices are 32-bit).
inline constexpr size_t kMaxBuffers = size_t(1) << 24;

/// Checks the input: at most kMaxBuffers buffers, non-negative sizes and
/// steps, start <= end, and the sizes, each rounded up to `alignment` (at
/// least 1), adding up to at most 2^63 - 1 bytes, so that no offset or arena
/// can overflow. On failure returns false and says why; `where`, if given,
/// is set to the offending buffer's index (buffers.size() when the fault is
/// not one buffer's).
bool validate(const std::vector<Buffer> &buffers, std::string *error,
              int64_t alignment = 1, size_t *where = nullptr);

/// The max-live lower bound for `buffers` with sizes rounded up to
/// `alignment`.
int64_t computeMaxLive(const std::vector<Buffer> &buffers, int64_t alignment);

/// Sum of the sizes of `buffers`, each rounded up to `alignment`: the memory
/// they take when every buffer has its own.
int64_t computeNaive(const std::vector<Buffer> &buffers, int64_t alignment);

/// In-place reuse: buffers that take one place in the arena. On entry
/// `place[i]` names buffer i's place (any numbers, equal for buffers that
/// share); each place becomes one buffer over all its members' lifetimes, as
/// large as the largest member. On return `place[i]` is the index of buffer
/// i's place in the result, in order of first appearance.
std::vector<Buffer> mergePlaces(const std::vector<Buffer> &buffers,
                                std::vector<size_t> &place);

/// Plans `buffers` (which must validate with the options' alignment).
/// Near-linear in the number of buffers: interval colouring (equal sizes)
/// and best fit in start order run as sweeps over time in O(n log n); the
/// other orders and the local search need every pair of buffers alive
/// together and run when there are at most 2^23 such pairs.
Plan plan(const std::vector<Buffer> &buffers, const Options &options);

/// An independent check of a plan: offsets aligned, every buffer inside the
/// arena, no two buffers with intersecting lifetimes overlapping in memory.
bool verify(const std::vector<Buffer> &buffers, const Plan &plan,
            int64_t alignment, std::string *error);

} // namespace fuse::planner

#endif // FUSE_SUPPORT_MEMORYPLANNER_H
