//===- MemoryPlanner.cpp - pack buffer lifetimes into one arena -----------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Memory/MemoryPlanner.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <queue>
#include <random>
#include <set>
#include <sstream>
#include <tuple>
#include <utility>

using namespace fuse::planner;

namespace {

constexpr int64_t kInfinity = std::numeric_limits<int64_t>::max();

int64_t alignUp(int64_t value, int64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

/// The largest number of pairs of buffers alive together for which the
/// planner keeps every buffer's conflict list (8 bytes a pair): above it,
/// only the orders that a sweep over time places in O(n log n) run.
constexpr int64_t kMaxConflictPairs = int64_t(1) << 23;

/// floor(log2(k)) for k > 0.
size_t floorLog2(size_t k) {
  size_t log = 0;
  while (k >>= 1)
    ++log;
  return log;
}

/// The most buffers for which `place` keeps the placed buffers in offset
/// order (an insertion moves up to this many entries), and the fewest
/// conflicts a buffer must have on average: on sparser traces the sorts
/// are short and keeping the order costs more than it saves (measured on
/// bench/memtraces.py's generated traces).
constexpr size_t kMaxWalkedBuffers = 16384;
constexpr size_t kMinWalkedDegree = 64;

/// At most this many placed conflicts are always sorted (short sorts are
/// cheaper than any walk).
constexpr size_t kAlwaysSorted = 16;

/// One work unit of the budget is this many steps of the exact search (a
/// step visits one section or one buffer with no other work). A unit of the
/// local search (one buffer placed or copied, one conflict looked at, k log k
/// for sorting k) took 1.2 to 3 ns on this project's 2-core machine, four
/// exact steps 2.5 to 5 ns (bench/memtraces.py's traces).
constexpr int64_t kExactStepsPerUnit = 4;

/// The local search's share of the budget in the first round (later rounds
/// take multiples of it).
constexpr int64_t kLocalShareUnits = int64_t(1) << 21;

/// The exact search's first restart comes after this many steps.
constexpr int64_t kExactRestartSteps = int64_t(1) << 23;

/// One local-search candidate in this many is an aimed move (the others
/// random swaps and moves). Every second: fewer left some network traces
/// (ConvNeXt, EfficientNet-V2, YOLOv3) off the bound with some seeds.
constexpr int64_t kAimedEvery = 2;

/// Buffer indices sorted by (start, end, index). The keys are sorted in one
/// contiguous array, not through the indices, which on millions of buffers
/// is several times faster.
std::vector<uint32_t> byStartTime(const std::vector<Buffer> &buffers) {
  struct Key {
    int64_t start, end;
    uint32_t index;
  };
  std::vector<Key> keys;
  keys.reserve(buffers.size());
  for (size_t i = 0; i < buffers.size(); ++i)
    keys.push_back({buffers[i].start, buffers[i].end, uint32_t(i)});
  std::sort(keys.begin(), keys.end(), [](const Key &a, const Key &b) {
    return std::tie(a.start, a.end, a.index) <
           std::tie(b.start, b.end, b.index);
  });
  std::vector<uint32_t> order;
  order.reserve(buffers.size());
  for (const Key &k : keys)
    order.push_back(k.index);
  return order;
}

/// The number of pairs of buffers whose lifetimes intersect, counted in
/// O(n log n) without listing them: the buffer of rank r in start order
/// meets each of the r buffers before it (all start at or before it) except
/// those that ended before it starts.
int64_t countConflictPairs(const std::vector<Buffer> &buffers) {
  std::vector<int64_t> starts, ends;
  starts.reserve(buffers.size());
  ends.reserve(buffers.size());
  for (const Buffer &b : buffers) {
    starts.push_back(b.start);
    ends.push_back(b.end);
  }
  std::sort(starts.begin(), starts.end());
  std::sort(ends.begin(), ends.end());
  int64_t pairs = 0;
  size_t endedBefore = 0;
  for (size_t rank = 0; rank < starts.size(); ++rank) {
    while (endedBefore < ends.size() && ends[endedBefore] < starts[rank])
      ++endedBefore;
    pairs += int64_t(rank) - int64_t(std::min(endedBefore, rank));
  }
  return pairs;
}

/// The problem with sizes aligned and, once buildConflictLists() has run,
/// for each buffer the buffers whose lifetimes intersect its own (in one
/// flat array: conflicts of i are flat[first[i]] .. flat[first[i + 1]]).
struct Problem {
  const std::vector<Buffer> &buffers;
  std::vector<int64_t> sizes;
  std::vector<uint64_t> first;
  std::vector<uint32_t> flat;

  Problem(const std::vector<Buffer> &buffers, int64_t alignment)
      : buffers(buffers) {
    sizes.reserve(buffers.size());
    for (const Buffer &b : buffers)
      sizes.push_back(alignUp(b.size, alignment));
  }

  /// Lists every buffer's conflicts, unless more than kMaxConflictPairs
  /// pairs are alive together (then returns false and lists nothing). Only
  /// the portfolio and the local search need the lists; a plan the sweeps
  /// already made at the bound never builds them.
  bool buildConflictLists() {
    int64_t conflictPairs = countConflictPairs(buffers);
    if (conflictPairs > kMaxConflictPairs)
      return false;
    // Sweep by start time: only buffers still alive can conflict. Each
    // step of the walk over `active` either finds a pair or drops a buffer,
    // so the sweep is linear in buffers plus pairs. It runs twice, first
    // counting each buffer's conflicts and then listing them, so that no
    // list of pairs is kept besides the lists themselves.
    std::vector<uint32_t> byStart = byStartTime(buffers);
    auto sweep = [&](auto &&pair) {
      std::vector<uint32_t> active;
      for (uint32_t i : byStart) {
        active.erase(std::remove_if(active.begin(), active.end(),
                                    [&](uint32_t j) {
                                      return buffers[j].end < buffers[i].start;
                                    }),
                     active.end());
        for (uint32_t j : active)
          pair(i, j);
        active.push_back(i);
      }
    };
    first.assign(buffers.size() + 1, 0);
    sweep([&](uint32_t a, uint32_t b) {
      ++first[a + 1];
      ++first[b + 1];
    });
    for (size_t i = 0; i < buffers.size(); ++i)
      first[i + 1] += first[i];
    flat.resize(first.back());
    std::vector<uint64_t> next(first.begin(), first.end() - 1);
    sweep([&](uint32_t a, uint32_t b) {
      flat[next[a]++] = b;
      flat[next[b]++] = a;
    });
    return true;
  }

  struct Range {
    const uint32_t *first, *last;
    const uint32_t *begin() const { return first; }
    const uint32_t *end() const { return last; }
  };
  Range conflicts(uint32_t i) const {
    return {flat.data() + first[i], flat.data() + first[i + 1]};
  }

  /// Best-fit placement in `order`: each buffer goes into the smallest gap
  /// between the buffers already placed that it conflicts with, or on top.
  /// Gives up (returns kInfinity) once the arena exceeds `cutoff`. Needs the
  /// conflict lists.
  ///
  /// The gaps come from the placed conflicts in (offset, end) order. Where
  /// a buffer has few placed conflicts they are collected and sorted; where
  /// sorting them would cost more than a walk over every placed buffer (a
  /// dense trace: most buffers conflict with most others), the walk over
  /// the placed buffers kept in that order, skipping the ones it does not
  /// conflict with, gives the same sequence without sorting. Both see the
  /// same gaps in the same order, so the plan does not depend on the choice.
  ///
  /// With `from` (the plan `place` made of another order, whose arena is
  /// at most `cutoff`), the first `reuse` buffers of `order` are the other
  /// order's first ones and are where `*from` puts them (a buffer's place
  /// depends only on the buffers before it), and from position `sameFrom`
  /// on the two orders are the same again. Such a later buffer has the
  /// same buffers before it in both, so its place is its place in `*from`
  /// unless one of its conflicts has moved: it is copied unless a conflict
  /// placed before it has a new place. A move in the local search changes
  /// a few places, and the buffers after it that meet none of them cost
  /// one step each, not a sort of their conflicts.
  ///
  /// The result's excess is the bytes the buffers reach above `bound`,
  /// added up (0 with no bound). With `excessLimit`, the placement also
  /// gives up once the arena so far is `cutoff` and the excess so far
  /// exceeds `excessLimit` (the arena cannot shrink again, so the local
  /// search would refuse the plan).
  ///
  /// `work`, if given, grows by the steps taken: one per buffer placed or
  /// copied, one per conflict or placed buffer looked at.
  struct Placement {
    int64_t arena = kInfinity;
    int64_t excess = 0;
  };
  Placement place(const std::vector<uint32_t> &order,
                  std::vector<int64_t> &offsets, int64_t cutoff,
                  const std::vector<int64_t> *from = nullptr, size_t reuse = 0,
                  size_t sameFrom = 0, int64_t bound = kInfinity,
                  int64_t excessLimit = kInfinity,
                  int64_t *work = nullptr) const {
    offsets.assign(buffers.size(), -1);
    int64_t arena = 0, over = 0, steps = 0;
    auto excessOf = [&](uint32_t i) {
      return std::max<int64_t>(0, offsets[i] + sizes[i] -
                                      std::max(offsets[i], bound));
    };
    if (!from) {
      reuse = 0;
      sameFrom = order.size();
    }
    std::vector<std::pair<int64_t, int64_t>> used;
    // The placed buffers by (offset, end), kept only where the walk can pay
    // for it: small, dense problems. Buffers placed since the last walk wait
    // in `pending` and are merged in before the next.
    bool keepPlaced = buffers.size() <= kMaxWalkedBuffers &&
                      flat.size() >= kMinWalkedDegree * buffers.size();
    struct Placed {
      int64_t begin, end;
      uint32_t index;
    };
    std::vector<Placed> placed, pending;
    std::vector<uint32_t> mark;
    if (keepPlaced) {
      placed.reserve(buffers.size());
      mark.assign(buffers.size(), 0);
    }
    uint32_t epoch = 0;
    auto byOffset = [](const Placed &a, const Placed &b) {
      return std::tie(a.begin, a.end) < std::tie(b.begin, b.end);
    };
    // Per buffer, how many of its conflicts placed so far have a place other
    // than in `*from`.
    std::vector<uint32_t> moved;
    if (from)
      moved.assign(buffers.size(), 0);
    for (size_t p = 0; p < order.size(); ++p) {
      uint32_t i = order[p];
      ++steps;
      if (p < reuse || (p >= sameFrom && moved[i] == 0)) {
        offsets[i] = (*from)[i];
      } else {
        int64_t best = -1, bestGap = kInfinity, top = 0;
        auto visit = [&](int64_t begin, int64_t end) {
          int64_t gap = begin - top;
          if (gap >= sizes[i] && gap < bestGap) {
            bestGap = gap;
            best = top;
          }
          top = std::max(top, end);
        };
        used.clear();
        ++epoch;
        Range mine = conflicts(i);
        steps += mine.end() - mine.begin();
        for (uint32_t j : mine)
          if (offsets[j] >= 0) {
            used.push_back({offsets[j], offsets[j] + sizes[j]});
            if (keepPlaced)
              mark[j] = epoch;
          }
        // Sorting k pairs costs about k log k steps, the walk one per
        // placed buffer.
        size_t k = used.size();
        if (keepPlaced && k > kAlwaysSorted && 2 * k * floorLog2(k) > p) {
          if (!pending.empty()) {
            std::sort(pending.begin(), pending.end(), byOffset);
            size_t middle = placed.size();
            placed.insert(placed.end(), pending.begin(), pending.end());
            std::inplace_merge(placed.begin(), placed.begin() + middle,
                               placed.end(), byOffset);
            pending.clear();
          }
          steps += placed.size();
          for (const Placed &q : placed)
            if (mark[q.index] == epoch)
              visit(q.begin, q.end);
        } else {
          steps += int64_t(k * floorLog2(k + 1));
          std::sort(used.begin(), used.end(), [](const auto &a, const auto &b) {
            return a.first < b.first;
          });
          for (auto [begin, end] : used)
            visit(begin, end);
        }
        offsets[i] = best >= 0 ? best : top;
        if (from && offsets[i] != (*from)[i]) {
          steps += mine.end() - mine.begin();
          for (uint32_t j : mine)
            ++moved[j];
        }
      }
      arena = std::max(arena, offsets[i] + sizes[i]);
      over += excessOf(i);
      if (arena > cutoff || (arena == cutoff && over > excessLimit)) {
        if (work)
          *work += steps;
        return {};
      }
      if (keepPlaced)
        pending.push_back({offsets[i], offsets[i] + sizes[i], i});
    }
    if (work)
      *work += steps;
    return {arena, over};
  }

  /// Best fit in start order (larger first among equal starts) by a sweep
  /// over time, in O(n log n) whatever the number of pairs: the buffers
  /// placed before one that are still alive when it starts are exactly the
  /// ones it conflicts with, and they are disjoint in memory, so the free
  /// gaps between them are kept in a set ordered by (size, offset). The
  /// placement is the one `place` makes in this order.
  int64_t sweepPlace(std::vector<int64_t> &offsets) const {
    // The key carries what the sweep reads, so that it walks memory in order.
    struct Key {
      int64_t start, negSize, end;
      uint32_t index;
    };
    std::vector<Key> keys;
    keys.reserve(buffers.size());
    for (size_t i = 0; i < buffers.size(); ++i)
      keys.push_back(
          {buffers[i].start, -sizes[i], buffers[i].end, uint32_t(i)});
    std::sort(keys.begin(), keys.end(), [](const Key &a, const Key &b) {
      return std::tie(a.start, a.negSize, a.index) <
             std::tie(b.start, b.negSize, b.index);
    });
    offsets.assign(buffers.size(), 0);
    std::map<int64_t, int64_t> blocks;          // offset -> end offset
    std::set<std::pair<int64_t, int64_t>> gaps; // (size, offset)
    std::priority_queue<std::pair<int64_t, int64_t>,
                        std::vector<std::pair<int64_t, int64_t>>,
                        std::greater<>>
        expiry; // (end step, offset) of each block
    int64_t arena = 0;
    auto gapBefore = [&](std::map<int64_t, int64_t>::iterator it) {
      int64_t from = it == blocks.begin() ? 0 : std::prev(it)->second;
      return std::make_pair(it->first - from, from);
    };
    for (const Key &key : keys) {
      while (!expiry.empty() && expiry.top().first < key.start) {
        auto it = blocks.find(expiry.top().second);
        expiry.pop();
        // The gap below the block and the one above it become one gap, or
        // part of the free space on top.
        auto below = gapBefore(it);
        if (below.first > 0)
          gaps.erase(below);
        auto next = std::next(it);
        if (next != blocks.end()) {
          auto above = gapBefore(next);
          if (above.first > 0)
            gaps.erase(above);
        }
        blocks.erase(it);
        if (next != blocks.end()) {
          auto merged = gapBefore(next);
          if (merged.first > 0)
            gaps.insert(merged);
        }
      }
      int64_t size = -key.negSize;
      if (size == 0)
        continue; // takes no memory; offset 0
      int64_t offset;
      auto fit = gaps.lower_bound({size, std::numeric_limits<int64_t>::min()});
      if (fit != gaps.end()) {
        auto [gap, from] = *fit;
        gaps.erase(fit);
        offset = from;
        if (gap > size)
          gaps.insert({gap - size, from + size});
      } else {
        offset = blocks.empty() ? 0 : std::prev(blocks.end())->second;
      }
      blocks.emplace(offset, offset + size);
      expiry.push({key.end, offset});
      offsets[key.index] = offset;
      arena = std::max(arena, offset + size);
    }
    return arena;
  }

  /// Interval-graph colouring for equal sizes: greedy by start time takes
  /// exactly as many slots as buffers alive at once, so the arena is the
  /// max-live bound.
  int64_t colour(std::vector<int64_t> &offsets) const {
    std::vector<uint32_t> byStart = byStartTime(buffers);
    std::set<int64_t> freeSlots;
    std::multiset<std::pair<int64_t, int64_t>> active; // (end, slot)
    int64_t slots = 0;
    offsets.assign(buffers.size(), 0);
    for (uint32_t i : byStart) {
      while (!active.empty() && active.begin()->first < buffers[i].start) {
        freeSlots.insert(active.begin()->second);
        active.erase(active.begin());
      }
      int64_t slot;
      if (freeSlots.empty()) {
        slot = slots++;
      } else {
        slot = *freeSlots.begin();
        freeSlots.erase(freeSlots.begin());
      }
      active.insert({buffers[i].end, slot});
      offsets[i] = slot * (sizes.empty() ? 0 : sizes[i]);
    }
    return slots * (sizes.empty() ? 0 : sizes.front());
  }
};

/// Branch and bound over canonical placements: does an arena of at most
/// `capacity` bytes exist? Any plan can be made "gravity-compact" without
/// growing it (each buffer, in offset order, drops onto the highest buffer
/// below it that it conflicts with, or to 0), and a compact plan is fully
/// described by the order of its offsets: taken in (offset, index) order,
/// each buffer sits on the highest top among the buffers already placed
/// that it conflicts with. The search builds that order one buffer at a
/// time, keeping each unplaced buffer's landing offset up to date as its
/// neighbours are placed. Time is cut into sections (one per distinct start
/// step: two buffers conflict exactly when they share one), each with a
/// floor (the highest top placed in it) and the bytes still to place in it;
/// a node is refused when a section cannot stack those bytes above its
/// floor and the next offset, or a buffer no longer fits under the
/// capacity. Identical buffers are placed in index order only. Iterative
/// (the depth is the buffer count), and it counts its steps, so a budget
/// bounds it on any machine.
class ExactSearch {
public:
  enum class Outcome { Found, Infeasible, OutOfBudget };

  /// Needs the problem's conflict lists.
  explicit ExactSearch(const Problem &problem) : sizes(problem.sizes) {
    const std::vector<Buffer> &buffers = problem.buffers;
    for (size_t i = 0; i < buffers.size(); ++i)
      if (sizes[i] > 0)
        items.push_back(uint32_t(i));
    std::vector<int64_t> starts;
    for (uint32_t i : items)
      starts.push_back(buffers[i].start);
    std::sort(starts.begin(), starts.end());
    starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
    sectionCount = starts.size();
    for (uint32_t i : items) {
      auto lo =
          std::lower_bound(starts.begin(), starts.end(), buffers[i].start);
      auto hi = std::upper_bound(starts.begin(), starts.end(), buffers[i].end);
      first.push_back(uint32_t(lo - starts.begin()));
      last.push_back(uint32_t(hi - starts.begin())); // one past
    }
    // Neighbours: items whose section ranges intersect, which are the
    // buffers whose lifetimes do (a section is the step it starts at), so
    // the problem's conflict lists less the buffers that take no memory.
    std::vector<uint32_t> itemOf(buffers.size(), kNone);
    for (uint32_t k = 0; k < items.size(); ++k)
      itemOf[items[k]] = k;
    adjFirst.assign(items.size() + 1, 0);
    for (uint32_t k = 0; k < items.size(); ++k) {
      adjFirst[k + 1] = adjFirst[k];
      for (uint32_t j : problem.conflicts(items[k]))
        if (itemOf[j] != kNone)
          ++adjFirst[k + 1];
    }
    adj.reserve(adjFirst.back());
    for (uint32_t k = 0; k < items.size(); ++k)
      for (uint32_t j : problem.conflicts(items[k]))
        if (itemOf[j] != kNone)
          adj.push_back(itemOf[j]);
    // An identical buffer with a smaller index must be placed first.
    std::map<std::tuple<int64_t, int64_t, int64_t>, uint32_t> seen;
    twin.assign(items.size(), kNone);
    for (uint32_t k = 0; k < items.size(); ++k) {
      auto key = std::make_tuple(buffers[items[k]].start, buffers[items[k]].end,
                                 sizes[items[k]]);
      auto [it, inserted] = seen.try_emplace(key, k);
      if (!inserted) {
        twin[k] = it->second;
        it->second = k;
      }
    }
    order(0, 0);
  }

  /// Sets the order in which candidates at one offset are tried, by attempt
  /// modulo 3: larger first, then longer; longer first, then larger; a
  /// shuffle seeded by the attempt, larger first.
  void order(int attempt, uint64_t seed) {
    tryOrder.resize(items.size());
    std::iota(tryOrder.begin(), tryOrder.end(), 0);
    auto size = [&](uint32_t k) { return sizes[items[k]]; };
    auto length = [&](uint32_t k) { return int64_t(last[k] - first[k]); };
    int kind = attempt % 3;
    if (kind == 1) {
      std::sort(tryOrder.begin(), tryOrder.end(), [&](uint32_t a, uint32_t b) {
        return std::make_tuple(-length(a), -size(a), a) <
               std::make_tuple(-length(b), -size(b), b);
      });
      return;
    }
    if (kind == 2) {
      std::mt19937_64 rng(seed + uint64_t(attempt));
      for (size_t i = tryOrder.size(); i > 1; --i)
        std::swap(tryOrder[i - 1], tryOrder[rng() % i]);
    }
    std::stable_sort(tryOrder.begin(), tryOrder.end(),
                     [&](uint32_t a, uint32_t b) {
                       if (kind == 2)
                         return size(a) > size(b);
                       return std::make_tuple(-size(a), -length(a), a) <
                              std::make_tuple(-size(b), -length(b), b);
                     });
  }

  /// Searches for an arena of at most `capacity`, spending at most `budget`
  /// steps (decremented). On Found, `offsets` (indexed like the input)
  /// holds the plan and `arena` its size.
  Outcome run(int64_t capacity, int64_t &budget, std::vector<int64_t> &offsets,
              int64_t &arena) {
    size_t m = items.size();
    floorOf.assign(sectionCount, 0);
    need.assign(sectionCount, 0);
    for (uint32_t k = 0; k < m; ++k)
      for (uint32_t s = first[k]; s < last[k]; ++s)
        need[s] += sizes[items[k]];
    landing.assign(m, 0);
    lowest.assign(sectionCount, 0);
    placedAt.assign(m, -1);
    floorTrail.clear();
    landingTrail.clear();
    size_t left = m;
    struct Frame {
      std::vector<std::pair<int64_t, uint32_t>> candidates; // (offset, k)
      size_t next = 0;
      size_t floorMark = 0, landingMark = 0;
      uint32_t placed = kNone; // the candidate placed from this frame
    };
    std::vector<Frame> stack;
    // The node after placing `lastItem` at `lastOffset`: refused (false),
    // complete, or its candidates pushed as a new frame.
    auto expand = [&](int64_t lastOffset, uint32_t lastItem) -> bool {
      if (left == 0)
        return true;
      Frame frame;
      int64_t next = std::numeric_limits<int64_t>::max();
      budget -= int64_t(m);
      for (uint32_t k : tryOrder) {
        if (placedAt[k] >= 0)
          continue;
        // It lands at its floor or higher, never below the last one placed:
        // floors only rise.
        if (std::max(landing[k], lastOffset) + sizes[items[k]] > capacity)
          return false;
        if (twin[k] != kNone && placedAt[twin[k]] < 0)
          continue;
        if (landing[k] < lastOffset ||
            (landing[k] == lastOffset && lastItem != kNone && k < lastItem))
          continue; // it would come before the last placed one in the order
        frame.candidates.push_back({landing[k], k});
        next = std::min(next, landing[k]);
      }
      if (frame.candidates.empty())
        return false;
      // What a section still needs is stacked above its floor, above the
      // next one placed (a candidate: nothing lands below it), and above
      // the lowest offset any of the section's own buffers can take (the
      // space below that is lost).
      budget -= int64_t(sectionCount);
      std::fill(lowest.begin(), lowest.end(),
                std::numeric_limits<int64_t>::max());
      for (uint32_t k : tryOrder) {
        if (placedAt[k] >= 0)
          continue;
        budget -= int64_t(last[k] - first[k]);
        int64_t at = std::max(landing[k], lastOffset);
        for (uint32_t s = first[k]; s < last[k]; ++s)
          lowest[s] = std::min(lowest[s], at);
      }
      for (size_t s = 0; s < sectionCount; ++s)
        if (need[s] > 0 &&
            std::max({floorOf[s], next, lowest[s]}) + need[s] > capacity)
          return false;
      std::stable_sort(
          frame.candidates.begin(), frame.candidates.end(),
          [](const auto &a, const auto &b) { return a.first < b.first; });
      frame.floorMark = floorTrail.size();
      frame.landingMark = landingTrail.size();
      stack.push_back(std::move(frame));
      return true;
    };
    auto undo = [&](Frame &frame) {
      if (frame.placed == kNone)
        return;
      uint32_t k = frame.placed;
      while (floorTrail.size() > frame.floorMark) {
        floorOf[floorTrail.back().first] = floorTrail.back().second;
        floorTrail.pop_back();
      }
      while (landingTrail.size() > frame.landingMark) {
        landing[landingTrail.back().first] = landingTrail.back().second;
        landingTrail.pop_back();
      }
      for (uint32_t s = first[k]; s < last[k]; ++s)
        need[s] += sizes[items[k]];
      placedAt[k] = -1;
      ++left;
      frame.placed = kNone;
    };
    if (!expand(0, kNone))
      return budget < 0 ? Outcome::OutOfBudget : Outcome::Infeasible;
    while (left > 0) {
      if (budget < 0)
        return Outcome::OutOfBudget;
      if (stack.empty())
        return Outcome::Infeasible;
      Frame &frame = stack.back();
      undo(frame);
      if (frame.next == frame.candidates.size()) {
        stack.pop_back();
        continue;
      }
      auto [offset, k] = frame.candidates[frame.next++];
      int64_t size = sizes[items[k]], top = offset + size;
      for (uint32_t s = first[k]; s < last[k]; ++s) {
        floorTrail.push_back({s, floorOf[s]});
        floorOf[s] = top;
        need[s] -= size;
      }
      for (uint64_t e = adjFirst[k]; e < adjFirst[k + 1]; ++e) {
        uint32_t j = adj[e];
        if (placedAt[j] < 0 && landing[j] < top) {
          landingTrail.push_back({j, landing[j]});
          landing[j] = top;
        }
      }
      placedAt[k] = offset;
      --left;
      frame.placed = k;
      budget -= 1 + int64_t(last[k] - first[k]) +
                int64_t(adjFirst[k + 1] - adjFirst[k]);
      expand(offset, k); // pushes a frame, completes, or refuses the node
    }
    offsets.assign(sizes.size(), 0);
    arena = 0;
    for (uint32_t k = 0; k < m; ++k) {
      offsets[items[k]] = placedAt[k];
      arena = std::max(arena, placedAt[k] + sizes[items[k]]);
    }
    return Outcome::Found;
  }

private:
  static constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
  const std::vector<int64_t> &sizes;
  std::vector<uint32_t> items; // buffers that take memory
  size_t sectionCount = 0;
  std::vector<uint32_t> first, last, twin, tryOrder, adj;
  std::vector<uint64_t> adjFirst;
  std::vector<int64_t> floorOf, need, landing, lowest, placedAt;
  std::vector<std::pair<uint32_t, int64_t>> floorTrail, landingTrail;
};

} // namespace

bool fuse::planner::validate(const std::vector<Buffer> &buffers,
                             std::string *error, int64_t alignment,
                             size_t *where) {
  auto fail = [&](const std::string &why, size_t index) {
    if (error)
      *error = why;
    if (where)
      *where = index;
    return false;
  };
  if (alignment < 1)
    return fail("the alignment must be at least 1, not " +
                    std::to_string(alignment),
                buffers.size());
  if (buffers.size() > kMaxBuffers)
    return fail(std::to_string(buffers.size()) +
                    " buffers are more than the planner takes (" +
                    std::to_string(kMaxBuffers) + ")",
                buffers.size());
  int64_t total = 0;
  for (size_t i = 0; i < buffers.size(); ++i) {
    const Buffer &b = buffers[i];
    std::ostringstream os;
    if (b.size < 0)
      os << "buffer " << i << " has a negative size " << b.size;
    else if (b.start > b.end)
      os << "buffer " << i << " ends (" << b.end << ") before it starts ("
         << b.start << ")";
    else if (b.start < 0)
      os << "buffer " << i << " starts at a negative step " << b.start;
    else if (b.size > std::numeric_limits<int64_t>::max() - (alignment - 1) ||
             __builtin_add_overflow(total, alignUp(b.size, alignment), &total))
      os << "buffer " << i << " (" << b.size
         << " B) brings the sizes, each rounded up to " << alignment
         << " B, past 2^63 - 1 bytes, the largest arena the planner sizes";
    if (!os.str().empty())
      return fail(os.str(), i);
  }
  return true;
}

int64_t fuse::planner::computeMaxLive(const std::vector<Buffer> &buffers,
                                      int64_t alignment) {
  // Arrivals (start, size) and departures (last step, size), each sorted,
  // merged: at one step, the buffers that start there are counted before
  // those whose last step it is leave (lifetimes are inclusive). No end + 1,
  // which would overflow at the last step int64 has.
  std::vector<std::pair<int64_t, int64_t>> arrivals, departures;
  arrivals.reserve(buffers.size());
  departures.reserve(buffers.size());
  for (const Buffer &b : buffers) {
    int64_t size = alignUp(b.size, alignment);
    arrivals.push_back({b.start, size});
    departures.push_back({b.end, size});
  }
  std::sort(arrivals.begin(), arrivals.end());
  std::sort(departures.begin(), departures.end());
  int64_t live = 0, maxLive = 0;
  size_t left = 0;
  for (auto [step, size] : arrivals) {
    while (left < departures.size() && departures[left].first < step)
      live -= departures[left++].second;
    live += size;
    maxLive = std::max(maxLive, live);
  }
  return maxLive;
}

int64_t fuse::planner::computeNaive(const std::vector<Buffer> &buffers,
                                    int64_t alignment) {
  int64_t naive = 0;
  for (const Buffer &b : buffers)
    naive += alignUp(b.size, alignment);
  return naive;
}

std::vector<Buffer>
fuse::planner::mergePlaces(const std::vector<Buffer> &buffers,
                           std::vector<size_t> &place) {
  std::vector<Buffer> merged;
  std::map<size_t, size_t> index; // place name -> position in `merged`
  for (size_t i = 0; i < buffers.size(); ++i) {
    auto [it, inserted] = index.try_emplace(place[i], merged.size());
    if (inserted) {
      merged.push_back(buffers[i]);
    } else {
      Buffer &b = merged[it->second];
      b.start = std::min(b.start, buffers[i].start);
      b.end = std::max(b.end, buffers[i].end);
      b.size = std::max(b.size, buffers[i].size);
    }
    place[i] = it->second;
  }
  return merged;
}

Plan fuse::planner::plan(const std::vector<Buffer> &buffers,
                         const Options &options) {
  auto startTime = std::chrono::steady_clock::now();
  auto elapsedMs = [&] {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now() - startTime)
        .count();
  };
  int64_t alignment = std::max<int64_t>(1, options.alignment);
  Problem problem(buffers, alignment);
  Plan result;
  result.naive = computeNaive(buffers, alignment);
  result.maxLive = computeMaxLive(buffers, alignment);
  result.lowerBound = result.maxLive;
  result.arena = kInfinity;
  size_t n = buffers.size();
  if (n == 0) {
    result.arena = 0;
    result.strategy = "empty";
    result.planMs = elapsedMs();
    return result;
  }

  std::vector<int64_t> offsets;
  // Records a strategy's arena (the smallest, for one that runs in
  // steps) and keeps `offsets` if it is the best plan so far.
  auto consider = [&](const std::string &name, int64_t arena) {
    auto known =
        std::find_if(result.strategies.begin(), result.strategies.end(),
                     [&](const StrategyResult &s) { return s.name == name; });
    if (known == result.strategies.end())
      result.strategies.push_back({name, arena});
    else
      known->arena = std::min(known->arena, arena);
    if (arena < result.arena) {
      result.arena = arena;
      result.offsets = offsets;
      result.strategy = name;
    }
  };

  // Equal sizes: exact.
  bool equalSizes =
      std::all_of(problem.sizes.begin(), problem.sizes.end(),
                  [&](int64_t s) { return s == problem.sizes[0]; });
  if (equalSizes)
    consider("interval-colouring", problem.colour(offsets));
  // Best fit in start order by a sweep: near-linear on any input.
  int64_t sweepArena = problem.sweepPlace(offsets);
  consider("start", sweepArena);
  // At the bound, or with too many pairs alive together to list, the
  // sweeps are the plan.
  if (result.arena == result.lowerBound || !problem.buildConflictLists()) {
    result.planMs = elapsedMs();
    return result;
  }

  // The portfolio: best fit in several more orders.
  std::vector<int64_t> degree(n);
  for (size_t i = 0; i < n; ++i)
    for (uint32_t j : problem.conflicts(i))
      degree[i] += problem.sizes[j];
  // As long double: a lifetime may span all of int64's steps.
  auto length = [&](uint32_t i) {
    return (long double)buffers[i].end - buffers[i].start + 1;
  };
  using Key = std::function<bool(uint32_t, uint32_t)>;
  std::vector<std::pair<std::string, Key>> orders = {
      {"start",
       [&](uint32_t a, uint32_t b) {
         return std::make_tuple(buffers[a].start, -problem.sizes[a], a) <
                std::make_tuple(buffers[b].start, -problem.sizes[b], b);
       }},
      {"size",
       [&](uint32_t a, uint32_t b) {
         return std::make_tuple(-problem.sizes[a], -length(a), a) <
                std::make_tuple(-problem.sizes[b], -length(b), b);
       }},
      {"lifetime",
       [&](uint32_t a, uint32_t b) {
         return std::make_tuple(-length(a), -problem.sizes[a], a) <
                std::make_tuple(-length(b), -problem.sizes[b], b);
       }},
      {"area",
       [&](uint32_t a, uint32_t b) {
         return std::make_tuple(-problem.sizes[a] * length(a), a) <
                std::make_tuple(-problem.sizes[b] * length(b), b);
       }},
      {"conflicts",
       [&](uint32_t a, uint32_t b) {
         return std::make_tuple(-degree[a], -problem.sizes[a], a) <
                std::make_tuple(-degree[b], -problem.sizes[b], b);
       }},
  };
  std::vector<uint32_t> bestOrder;
  int64_t bestOrderArena = kInfinity;
  for (auto &[name, key] : orders) {
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), key);
    int64_t arena;
    if (name == "start") {
      // Already placed by the sweep; the order seeds the local search.
      arena = sweepArena;
    } else {
      arena = problem.place(order, offsets, kInfinity).arena;
      consider(name, arena);
    }
    if (arena < bestOrderArena) {
      bestOrderArena = arena;
      bestOrder = order;
    }
  }

  // Local search over the best order, in steps of `units` of the budget,
  // until the bound is reached: a candidate order is kept when its arena
  // does not grow (and, at an equal arena, its excess below does not
  // grow). Every other candidate is a random swap or move; the others are
  // aimed: a buffer that ends above the lower bound in the current plan
  // (drawn with probability proportional to its size: the large ones
  // decide the arena, the small long-lived ones are many) moves to just
  // before a buffer it conflicts with that comes earlier in the order, so
  // that it is placed first and the other goes around it (what turns two
  // neighbours that both want the bottom of the arena into one below and
  // one above); half of the aimed moves are for the buffer above the lowest
  // gap under that one instead (what left the gap it lacks). Its state
  // carries over from one call to the next.
  std::mt19937_64 rng(options.seed);
  std::vector<uint32_t> order = bestOrder;
  std::vector<int64_t> currentOffsets;
  int64_t current = kInfinity;
  std::vector<uint32_t> position(n), above, earlier;
  std::vector<int64_t> aboveBytes;
  std::vector<std::pair<int64_t, uint32_t>> gapWalk;
  int64_t candidateCount = 0;
  // How far a plan is from the bound besides its arena: its excess, the
  // bytes its buffers reach above the lower bound, added up. A candidate
  // with the same arena is kept only when this does not grow, so the search
  // moves towards plans where fewer and smaller buffers stick out (one
  // block of a network put right lowers it although others still set the
  // arena).
  int64_t currentExcess = 0;
  auto localSearch = [&](int64_t units) {
    if (result.arena <= result.lowerBound || n < 2)
      return units;
    if (current == kInfinity) {
      int64_t work = int64_t(n);
      Problem::Placement start =
          problem.place(order, currentOffsets, kInfinity, nullptr, 0, 0,
                        result.lowerBound, kInfinity, &work);
      current = start.arena;
      currentExcess = start.excess;
      units -= work;
    }
    while (units > 0 && current > result.lowerBound) {
      // A candidate costs its placement's steps and a few passes over the
      // order (copying it, comparing it from both ends, clearing the
      // placement's arrays).
      units -= 4 * int64_t(n);
      std::vector<uint32_t> candidate = order;
      bool aimed = false;
      if (candidateCount++ % kAimedEvery == kAimedEvery - 1) {
        above.clear();
        aboveBytes.clear();
        int64_t total = 0;
        for (uint32_t b = 0; b < n; ++b)
          if (currentOffsets[b] + problem.sizes[b] > result.lowerBound) {
            above.push_back(b);
            total += problem.sizes[b];
            aboveBytes.push_back(total);
          }
        for (size_t p = 0; p < n; ++p)
          position[order[p]] = uint32_t(p);
        int64_t pick = int64_t(rng() % uint64_t(std::max<int64_t>(1, total)));
        uint32_t v =
            above[std::upper_bound(aboveBytes.begin(), aboveBytes.end(), pick) -
                  aboveBytes.begin()];
        // Half the time the move is for the buffer above the lowest gap
        // under v at one step of v's life (the step a random conflict of v
        // starts at, or v's own start): that buffer was pushed up by one
        // that is not alive at that step, and the bytes it left empty there
        // are what v misses.
        if ((rng() & 1) == 0) {
          const Problem::Range vc = problem.conflicts(v);
          size_t count = size_t(vc.end() - vc.begin());
          if (count > 0) {
            uint32_t u = vc.begin()[rng() % count];
            int64_t step = std::max(buffers[u].start, buffers[v].start);
            gapWalk.clear();
            for (uint32_t x : vc)
              if (buffers[x].start <= step && step <= buffers[x].end &&
                  problem.sizes[x] > 0)
                gapWalk.push_back({currentOffsets[x], x});
            std::sort(gapWalk.begin(), gapWalk.end());
            int64_t top = 0;
            for (auto [offset, x] : gapWalk) {
              if (offset > top && offset < currentOffsets[v]) {
                v = x;
                break;
              }
              top = std::max(top, offset + problem.sizes[x]);
            }
          }
        }
        earlier.clear();
        // Half the time only the buffers it rests on (their top is its
        // offset): what pushed it up.
        bool under = rng() & 1;
        for (uint32_t u : problem.conflicts(v))
          if (position[u] < position[v] &&
              (!under ||
               currentOffsets[u] + problem.sizes[u] == currentOffsets[v]))
            earlier.push_back(u);
        if (earlier.empty() && under)
          for (uint32_t u : problem.conflicts(v))
            if (position[u] < position[v])
              earlier.push_back(u);
        if (!earlier.empty()) {
          size_t from = position[v];
          size_t to = position[earlier[rng() % earlier.size()]];
          candidate.erase(candidate.begin() + from);
          candidate.insert(candidate.begin() + to, v);
          aimed = true;
        }
      }
      if (!aimed) {
        size_t i = rng() % n, j = rng() % n;
        if (rng() & 1) {
          std::swap(candidate[i], candidate[j]);
        } else {
          uint32_t moved = candidate[i];
          candidate.erase(candidate.begin() + i);
          candidate.insert(candidate.begin() + j, moved);
        }
      }
      // The buffers before the first one the move changed keep their
      // places in the current plan.
      size_t same =
          std::mismatch(candidate.begin(), candidate.end(), order.begin())
              .first -
          candidate.begin();
      // From the last buffer the move changed on, the order is the same.
      size_t sameFrom =
          n - size_t(std::mismatch(candidate.rbegin(), candidate.rend(),
                                   order.rbegin())
                         .first -
                     candidate.rbegin());
      int64_t work = 0;
      auto [arena, over] =
          problem.place(candidate, offsets, current, &currentOffsets, same,
                        sameFrom, result.lowerBound, currentExcess, &work);
      units -= work;
      if (arena > current)
        continue;
      if (arena < current || over <= currentExcess) {
        order = std::move(candidate);
        current = arena;
        currentExcess = over;
        std::swap(currentOffsets, offsets);
        if (arena < result.arena) {
          offsets = currentOffsets;
          consider("local-search", arena);
        }
      }
    }
    return units; // below 0 where the last candidate overran the share
  };

  // The exact search, at the lower bound: a capacity it proves too small
  // raises the bound by one alignment step (every arena is a multiple of
  // it) and it tries again; a plan it finds at the bound is optimal. It
  // restarts in another candidate order after a share of its budget that
  // follows the Luby sequence (1 1 2 1 1 2 4 ...), which keeps one bad
  // early choice from taking all of it; a search that ends without running
  // out is a proof either way. A third of the budget is the exact
  // search's, the rest the local search's; the two take turns, each round a
  // Luby share of each (the local search's first: it is cheap and reaches
  // the bound on most networks' traces in its first shares), so that
  // whichever reaches the bound on a trace does so early, and what one
  // leaves goes to the other at the end.
  auto luby = [](int64_t i) { // i >= 1
    for (;;) {
      int k = 1;
      while ((int64_t(1) << k) - 1 < i)
        ++k;
      if (i == (int64_t(1) << k) - 1)
        return int64_t(1) << (k - 1);
      i -= (int64_t(1) << (k - 1)) - 1;
    }
  };
  int64_t budget = std::max<int64_t>(0, options.searchBudget);
  int64_t exactBudget = (budget / 3) * kExactStepsPerUnit;
  int64_t localBudget = budget - budget / 3;
  std::optional<ExactSearch> exact;
  std::vector<int64_t> exactOffsets;
  for (int64_t round = 1; result.arena > result.lowerBound; ++round) {
    // The local search's share first: it reaches the bound on most traces
    // within a few shares, where the exact search would spend its first.
    bool last = exactBudget <= 0;
    int64_t localShare =
        last ? localBudget
             : std::min<int64_t>(localBudget, kLocalShareUnits * luby(round));
    localBudget -= localShare - localSearch(localShare);
    if (last || result.arena <= result.lowerBound)
      break; // the local search has had all that was left, or is done
    if (!exact)
      exact.emplace(problem);
    int64_t share =
        std::min<int64_t>(exactBudget, kExactRestartSteps * luby(round));
    int64_t left = share;
    exact->order(int(round - 1), options.seed);
    int64_t arena = 0;
    auto outcome = exact->run(result.lowerBound, left, exactOffsets, arena);
    exactBudget -= share - std::max<int64_t>(0, left);
    if (outcome == ExactSearch::Outcome::Found) {
      offsets = exactOffsets;
      consider("exact", arena);
    } else if (outcome == ExactSearch::Outcome::Infeasible) {
      result.lowerBound += alignment;
    }
    if (exactBudget <= 0 || result.arena <= result.lowerBound) {
      localBudget += std::max<int64_t>(0, exactBudget) / kExactStepsPerUnit;
      exactBudget = 0;
    }
  }
  result.planMs = elapsedMs();
  return result;
}

bool fuse::planner::verify(const std::vector<Buffer> &buffers, const Plan &plan,
                           int64_t alignment, std::string *error) {
  auto fail = [&](const std::string &why) {
    if (error)
      *error = why;
    return false;
  };
  if (plan.offsets.size() != buffers.size())
    return fail("the plan has " + std::to_string(plan.offsets.size()) +
                " offsets for " + std::to_string(buffers.size()) + " buffers");
  alignment = std::max<int64_t>(1, alignment);
  for (size_t i = 0; i < buffers.size(); ++i) {
    if (plan.offsets[i] < 0 || plan.offsets[i] % alignment != 0)
      return fail("buffer " + std::to_string(i) + " has offset " +
                  std::to_string(plan.offsets[i]) + ", not a multiple of " +
                  std::to_string(alignment));
    if (buffers[i].size > plan.arena ||
        plan.offsets[i] > plan.arena - buffers[i].size)
      return fail("buffer " + std::to_string(i) + " ends past the arena");
  }
  // A sweep over time with the live buffers ordered by offset: when a
  // buffer starts, every buffer still alive must lie wholly below or above
  // it. The live ones are disjoint (each was checked on arrival), so its two
  // neighbours in offset order are the only ones to look at. Written apart
  // from the planner's placement code, and O(n log n).
  struct Arrival {
    int64_t start, end, offset, size;
    uint32_t index;
  };
  std::vector<Arrival> arrivals;
  arrivals.reserve(buffers.size());
  for (size_t i = 0; i < buffers.size(); ++i)
    if (buffers[i].size > 0)
      arrivals.push_back({buffers[i].start, buffers[i].end, plan.offsets[i],
                          buffers[i].size, uint32_t(i)});
  std::sort(arrivals.begin(), arrivals.end(),
            [](const Arrival &a, const Arrival &b) {
              return std::tie(a.start, a.index) < std::tie(b.start, b.index);
            });
  std::map<int64_t, std::pair<int64_t, uint32_t>> live; // offset -> end, buffer
  std::priority_queue<std::pair<int64_t, int64_t>,
                      std::vector<std::pair<int64_t, int64_t>>, std::greater<>>
      ends; // (last step, offset)
  for (const Arrival &b : arrivals) {
    uint32_t i = b.index;
    while (!ends.empty() && ends.top().first < b.start) {
      live.erase(ends.top().second);
      ends.pop();
    }
    int64_t begin = b.offset, end = begin + b.size;
    auto above = live.lower_bound(begin);
    auto overlap = [&](uint32_t j) {
      return fail("buffers " + std::to_string(std::min(i, j)) + " and " +
                  std::to_string(std::max(i, j)) +
                  " are alive together and overlap");
    };
    if (above != live.end() && above->first < end)
      return overlap(above->second.second);
    if (above != live.begin() && std::prev(above)->second.first > begin)
      return overlap(std::prev(above)->second.second);
    live.emplace(begin, std::make_pair(end, i));
    ends.push({b.end, begin});
  }
  return true;
}
