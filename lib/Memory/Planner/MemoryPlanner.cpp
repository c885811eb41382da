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
#include <random>
#include <set>
#include <sstream>
#include <utility>

using namespace fuse::planner;

namespace {

constexpr int64_t kInfinity = std::numeric_limits<int64_t>::max();

int64_t alignUp(int64_t value, int64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

bool overlapInTime(const Buffer &a, const Buffer &b) {
  return a.start <= b.end && b.start <= a.end;
}

/// The problem with sizes aligned and, for each buffer, the buffers whose
/// lifetimes intersect its own.
struct Problem {
  const std::vector<Buffer> &buffers;
  std::vector<int64_t> sizes;
  std::vector<std::vector<uint32_t>> conflicts;

  Problem(const std::vector<Buffer> &buffers, int64_t alignment)
      : buffers(buffers), conflicts(buffers.size()) {
    for (const Buffer &b : buffers)
      sizes.push_back(alignUp(b.size, alignment));
    // Sweep by start time: only buffers still alive can conflict.
    std::vector<uint32_t> byStart(buffers.size());
    std::iota(byStart.begin(), byStart.end(), 0);
    std::sort(byStart.begin(), byStart.end(), [&](uint32_t a, uint32_t b) {
      return buffers[a].start < buffers[b].start;
    });
    std::vector<uint32_t> active;
    for (uint32_t i : byStart) {
      active.erase(std::remove_if(active.begin(), active.end(),
                                  [&](uint32_t j) {
                                    return buffers[j].end < buffers[i].start;
                                  }),
                   active.end());
      for (uint32_t j : active) {
        conflicts[i].push_back(j);
        conflicts[j].push_back(i);
      }
      active.push_back(i);
    }
  }

  /// Best-fit placement in `order`: each buffer goes into the smallest gap
  /// between the buffers already placed that it conflicts with, or on top.
  /// Gives up (returns kInfinity) once the arena exceeds `cutoff`.
  int64_t place(const std::vector<uint32_t> &order,
                std::vector<int64_t> &offsets, int64_t cutoff) const {
    offsets.assign(buffers.size(), -1);
    int64_t arena = 0;
    std::vector<std::pair<int64_t, int64_t>> used;
    for (uint32_t i : order) {
      used.clear();
      for (uint32_t j : conflicts[i])
        if (offsets[j] >= 0)
          used.push_back({offsets[j], offsets[j] + sizes[j]});
      std::sort(used.begin(), used.end());
      int64_t best = -1, bestGap = kInfinity, top = 0;
      for (auto [begin, end] : used) {
        int64_t gap = begin - top;
        if (gap >= sizes[i] && gap < bestGap) {
          bestGap = gap;
          best = top;
        }
        top = std::max(top, end);
      }
      offsets[i] = best >= 0 ? best : top;
      arena = std::max(arena, offsets[i] + sizes[i]);
      if (arena > cutoff)
        return kInfinity;
    }
    return arena;
  }

  /// Interval-graph colouring for equal sizes: greedy by start time takes
  /// exactly as many slots as buffers alive at once, so the arena is the
  /// max-live bound.
  int64_t colour(std::vector<int64_t> &offsets) const {
    std::vector<uint32_t> byStart(buffers.size());
    std::iota(byStart.begin(), byStart.end(), 0);
    std::sort(byStart.begin(), byStart.end(), [&](uint32_t a, uint32_t b) {
      return std::make_pair(buffers[a].start, buffers[a].end) <
             std::make_pair(buffers[b].start, buffers[b].end);
    });
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

} // namespace

bool fuse::planner::validate(const std::vector<Buffer> &buffers,
                             std::string *error) {
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
    if (!os.str().empty()) {
      if (error)
        *error = os.str();
      return false;
    }
  }
  return true;
}

int64_t fuse::planner::computeMaxLive(const std::vector<Buffer> &buffers,
                                      int64_t alignment) {
  std::vector<std::pair<int64_t, int64_t>> events; // (step, delta)
  for (const Buffer &b : buffers) {
    int64_t size = alignUp(b.size, alignment);
    events.push_back({b.start, size});
    events.push_back({b.end + 1, -size});
  }
  // At one step, buffers that ended before it leave before new ones come.
  std::sort(events.begin(), events.end());
  int64_t live = 0, maxLive = 0;
  for (auto [step, delta] : events) {
    live += delta;
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
  result.arena = kInfinity;
  size_t n = buffers.size();
  if (n == 0) {
    result.arena = 0;
    result.strategy = "empty";
    result.planMs = elapsedMs();
    return result;
  }

  std::vector<int64_t> offsets;
  auto consider = [&](const std::string &name, int64_t arena) {
    result.strategies.push_back({name, arena});
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

  // The portfolio: best fit in several orders.
  std::vector<int64_t> degree(n);
  for (size_t i = 0; i < n; ++i)
    for (uint32_t j : problem.conflicts[i])
      degree[i] += problem.sizes[j];
  auto length = [&](uint32_t i) {
    return buffers[i].end - buffers[i].start + 1;
  };
  using Key = std::function<bool(uint32_t, uint32_t)>;
  std::vector<std::pair<std::string, Key>> orders = {
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
      {"start",
       [&](uint32_t a, uint32_t b) {
         return std::make_tuple(buffers[a].start, -problem.sizes[a], a) <
                std::make_tuple(buffers[b].start, -problem.sizes[b], b);
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
    int64_t arena = problem.place(order, offsets, kInfinity);
    consider(name, arena);
    if (arena < bestOrderArena) {
      bestOrderArena = arena;
      bestOrder = order;
    }
  }

  // Local search over the best order: swaps and moves, kept when the arena
  // does not grow, until the bound is reached or the budget is spent.
  if (result.arena > result.maxLive && n > 1) {
    std::mt19937_64 rng(options.seed);
    std::vector<uint32_t> order = bestOrder;
    int64_t current = bestOrderArena;
    std::vector<int64_t> bestOffsets;
    int64_t searchBest = kInfinity;
    for (int64_t iteration = 0;; ++iteration) {
      if ((iteration & 63) == 0 && elapsedMs() > options.timeBudgetMs)
        break;
      if (current == result.maxLive)
        break;
      std::vector<uint32_t> candidate = order;
      size_t i = rng() % n, j = rng() % n;
      if (rng() & 1) {
        std::swap(candidate[i], candidate[j]);
      } else {
        uint32_t moved = candidate[i];
        candidate.erase(candidate.begin() + i);
        candidate.insert(candidate.begin() + j, moved);
      }
      int64_t arena = problem.place(candidate, offsets, current);
      if (arena <= current) {
        order = std::move(candidate);
        current = arena;
        if (arena < searchBest) {
          searchBest = arena;
          bestOffsets = offsets;
        }
      }
    }
    if (searchBest < kInfinity) {
      std::swap(offsets, bestOffsets);
      consider("local-search", searchBest);
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
    if (plan.offsets[i] + buffers[i].size > plan.arena)
      return fail("buffer " + std::to_string(i) + " ends past the arena");
  }
  // Every pair, by brute force: independent of the planner's sweep.
  for (size_t i = 0; i < buffers.size(); ++i)
    for (size_t j = i + 1; j < buffers.size(); ++j) {
      if (!overlapInTime(buffers[i], buffers[j]) || buffers[i].size == 0 ||
          buffers[j].size == 0)
        continue;
      int64_t a0 = plan.offsets[i], a1 = a0 + buffers[i].size;
      int64_t b0 = plan.offsets[j], b1 = b0 + buffers[j].size;
      if (a0 < b1 && b0 < a1)
        return fail("buffers " + std::to_string(i) + " and " +
                    std::to_string(j) + " are alive together and overlap");
    }
  return true;
}
