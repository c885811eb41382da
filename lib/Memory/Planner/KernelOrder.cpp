//===- KernelOrder.cpp - a kernel order with less memory live -------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Memory/KernelOrder.h"

#include <algorithm>
#include <numeric>
#include <queue>
#include <random>
#include <tuple>

using namespace fuse::planner;

namespace {

/// `bytes` rounded up to a multiple of `alignment` (at least 1).
int64_t alignedBytes(int64_t bytes, int64_t alignment) {
  return (bytes + alignment - 1) / alignment * alignment;
}

/// The graph in the shape the schedulers read: for each kernel the buffers
/// it writes and reads (each once), its successors and predecessors (an
/// edge per buffer or dependence, repeats allowed).
struct Adjacency {
  std::vector<std::vector<uint32_t>> writes, reads, successors, before;
  std::vector<uint32_t> predecessors;

  explicit Adjacency(const KernelGraph &graph) {
    size_t n = graph.kernels;
    writes.resize(n);
    reads.resize(n);
    successors.resize(n);
    before.resize(n);
    predecessors.assign(n, 0);
    auto edge = [&](uint32_t from, uint32_t to) {
      if (from == to)
        return;
      successors[from].push_back(to);
      before[to].push_back(from);
      ++predecessors[to];
    };
    for (uint32_t v = 0; v < graph.values.size(); ++v) {
      const KernelGraph::Value &value = graph.values[v];
      writes[value.producer].push_back(v);
      std::vector<uint32_t> readers = value.readers;
      std::sort(readers.begin(), readers.end());
      readers.erase(std::unique(readers.begin(), readers.end()), readers.end());
      for (uint32_t r : readers) {
        if (r == value.producer)
          continue;
        reads[r].push_back(v);
        edge(value.producer, r);
      }
    }
    for (auto [from, to] : graph.after)
      edge(from, to);
  }
};

/// A greedy list schedule: among the kernels whose predecessors have run,
/// the one that adds the least live memory runs next (ties: the earlier in
/// the given order); with `continueBranch`, a ready successor of the kernel
/// just run is preferred over any other.
std::vector<uint32_t> greedyOrder(const KernelGraph &graph,
                                  const Adjacency &adj,
                                  const std::vector<uint32_t> &position,
                                  bool continueBranch) {
  size_t n = graph.kernels;
  // Readers of each buffer not yet run (the producer excluded).
  std::vector<uint32_t> remaining(graph.values.size(), 0);
  for (uint32_t k = 0; k < n; ++k)
    for (uint32_t v : adj.reads[k])
      ++remaining[v];
  // What running k adds to the memory alive: what it writes that someone
  // reads, less what it reads for the last time; a value written into an
  // input it reads last continues that input's memory.
  auto delta = [&](uint32_t k) {
    int64_t d = 0;
    int64_t continued = -1;
    for (uint32_t v : adj.writes[k]) {
      if (remaining[v] == 0)
        continue;
      const KernelGraph::Value &value = graph.values[v];
      int64_t w = value.writesInto;
      if (w >= 0 && size_t(w) < graph.values.size() && remaining[w] == 1 &&
          std::find(adj.reads[k].begin(), adj.reads[k].end(), uint32_t(w)) !=
              adj.reads[k].end()) {
        d += std::max<int64_t>(0, value.bytes - graph.values[w].bytes);
        continued = w;
      } else {
        d += value.bytes;
      }
    }
    for (uint32_t v : adj.reads[k])
      if (remaining[v] == 1 && int64_t(v) != continued)
        d -= graph.values[v].bytes;
    return d;
  };
  // Entries (delta, position, kernel, version); an entry whose version is
  // not the kernel's current one is stale.
  using Entry = std::tuple<int64_t, uint32_t, uint32_t, uint32_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
  std::vector<uint32_t> version(n, 0), waiting = adj.predecessors;
  std::vector<char> ready(n, 0), done(n, 0);
  auto push = [&](uint32_t k) {
    heap.push({delta(k), position[k], k, ++version[k]});
  };
  for (uint32_t k = 0; k < n; ++k)
    if (waiting[k] == 0) {
      ready[k] = 1;
      push(k);
    }
  std::vector<uint32_t> order;
  order.reserve(n);
  uint32_t last = uint32_t(-1);
  while (order.size() < n) {
    uint32_t next = uint32_t(-1);
    if (continueBranch && last != uint32_t(-1)) {
      int64_t best = 0;
      for (uint32_t s : adj.successors[last])
        if (ready[s] && !done[s]) {
          int64_t d = delta(s);
          if (next == uint32_t(-1) ||
              std::tie(d, position[s]) < std::tie(best, position[next])) {
            next = s;
            best = d;
          }
        }
    }
    while (next == uint32_t(-1)) {
      if (heap.empty())
        return {}; // a cycle: no order
      auto [d, pos, k, ver] = heap.top();
      heap.pop();
      if (!done[k] && ver == version[k])
        next = k;
    }
    done[next] = 1;
    order.push_back(next);
    last = next;
    for (uint32_t v : adj.reads[next]) {
      // A buffer down to one reader: that reader now frees it.
      if (--remaining[v] != 1)
        continue;
      for (uint32_t r : graph.values[v].readers)
        if (r != graph.values[v].producer && !done[r] && ready[r])
          push(r);
    }
    for (uint32_t s : adj.successors[next])
      if (--waiting[s] == 0) {
        ready[s] = 1;
        push(s);
      }
  }
  return order;
}

/// The greedy schedule built backwards from the last kernel: among the
/// kernels whose successors are all placed, the one that adds the least
/// memory alive going backwards (its inputs not yet alive, less its
/// outputs, which die there) is placed before them; so each producer runs
/// as late as its readers allow. With `continueBranch`, a ready predecessor
/// of the kernel just placed is preferred. Ties: later in the given order.
std::vector<uint32_t> reverseGreedyOrder(const KernelGraph &graph,
                                         const Adjacency &adj,
                                         const std::vector<uint32_t> &position,
                                         bool continueBranch) {
  size_t n = graph.kernels;
  std::vector<char> alive(graph.values.size(), 0), done(n, 0), ready(n, 0);
  auto delta = [&](uint32_t k) {
    int64_t d = 0;
    for (uint32_t v : adj.reads[k])
      if (!alive[v])
        d += graph.values[v].bytes;
    for (uint32_t v : adj.writes[k])
      if (alive[v])
        d -= graph.values[v].bytes;
    return d;
  };
  using Entry = std::tuple<int64_t, int64_t, uint32_t, uint32_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
  std::vector<uint32_t> version(n, 0);
  std::vector<uint32_t> waiting(n, 0);
  for (uint32_t k = 0; k < n; ++k)
    waiting[k] = uint32_t(adj.successors[k].size());
  auto push = [&](uint32_t k) {
    heap.push({delta(k), -int64_t(position[k]), k, ++version[k]});
  };
  for (uint32_t k = 0; k < n; ++k)
    if (waiting[k] == 0) {
      ready[k] = 1;
      push(k);
    }
  std::vector<uint32_t> order;
  order.reserve(n);
  uint32_t last = uint32_t(-1);
  while (order.size() < n) {
    uint32_t next = uint32_t(-1);
    if (continueBranch && last != uint32_t(-1)) {
      int64_t best = 0;
      for (uint32_t p : adj.before[last])
        if (ready[p] && !done[p]) {
          int64_t d = delta(p);
          if (next == uint32_t(-1) ||
              std::make_tuple(d, -int64_t(position[p])) <
                  std::make_tuple(best, -int64_t(position[next]))) {
            next = p;
            best = d;
          }
        }
    }
    while (next == uint32_t(-1)) {
      if (heap.empty())
        return {}; // a cycle: no order
      auto [d, pos, k, ver] = heap.top();
      heap.pop();
      if (!done[k] && ver == version[k])
        next = k;
    }
    done[next] = 1;
    order.push_back(next);
    last = next;
    // Its inputs are alive from here back to their producers: the other
    // readers and the producers of those inputs see a new delta.
    for (uint32_t v : adj.reads[next]) {
      if (alive[v])
        continue;
      alive[v] = 1;
      const KernelGraph::Value &value = graph.values[v];
      if (ready[value.producer] && !done[value.producer])
        push(value.producer);
      for (uint32_t r : value.readers)
        if (r != value.producer && ready[r] && !done[r])
          push(r);
    }
    for (uint32_t p : adj.before[next])
      if (--waiting[p] == 0) {
        ready[p] = 1;
        push(p);
      }
  }
  std::reverse(order.begin(), order.end());
  return order;
}

/// Orders with more kernels than this keep the greedy schedules' order (the
/// moves' work grows with the kernels times the buffers).
constexpr size_t kMaxKernelsForMoves = 4096;

/// Work budget of the moves: each candidate order costs one unit per kernel
/// and per buffer read or written. A count, so the order depends only on
/// the graph.
constexpr int64_t kMoveBudget = int64_t(1) << 18;

/// Improves `result.order` by moves: one kernel moved to another place
/// between its last predecessor and its first successor (so every
/// dependence holds), drawn by a seeded generator; a move is kept when the
/// max-live does not grow and, at an equal max-live, neither does the
/// memory-time (the sum over places of bytes times steps alive), which
/// leads towards orders where buffers live less long, so that a branch
/// whose output would be alive across another branch's peak runs after it.
/// Stops at the lower bound or when the budget is spent.
void improveByMoves(const KernelGraph &graph, const Adjacency &adj,
                    int64_t alignment, KernelOrder &result) {
  size_t n = graph.kernels;
  int64_t reads = 0;
  for (uint32_t k = 0; k < n; ++k)
    reads += int64_t(adj.reads[k].size() + adj.writes[k].size());
  int64_t perCandidate = int64_t(n) + reads + 1;
  auto aligned = [&](int64_t bytes) { return alignedBytes(bytes, alignment); };
  // (max-live, memory-time) of an order.
  auto costOf = [&](const std::vector<uint32_t> &order) {
    std::vector<Buffer> places = placesOf(graph, order).places;
    int64_t area = 0;
    for (const Buffer &b : places)
      area += aligned(b.size) * (b.end - b.start + 1);
    return std::make_pair(computeMaxLive(places, alignment), area);
  };
  std::vector<uint32_t> order = result.order;
  auto cost = costOf(order);
  std::vector<uint32_t> position(n);
  std::mt19937_64 rng(n * 0x9e3779b97f4a7c15ULL + graph.values.size());
  bool improved = false;
  for (int64_t units = kMoveBudget;
       units >= perCandidate && cost.first > result.lowerBound;
       units -= perCandidate) {
    for (size_t i = 0; i < n; ++i)
      position[order[i]] = uint32_t(i);
    uint32_t k = order[rng() % n];
    // The places k may take: after its last predecessor, before its first
    // successor.
    size_t lo = 0, hi = n - 1;
    for (uint32_t p : adj.before[k])
      lo = std::max<size_t>(lo, position[p] + 1);
    for (uint32_t q : adj.successors[k])
      hi = std::min<size_t>(hi, position[q] - 1);
    if (hi <= lo)
      continue;
    size_t to = lo + rng() % (hi - lo + 1);
    size_t from = position[k];
    if (to == from)
      continue;
    std::vector<uint32_t> candidate = order;
    candidate.erase(candidate.begin() + from);
    candidate.insert(candidate.begin() + to, k);
    auto candidateCost = costOf(candidate);
    if (candidateCost <= cost) {
      improved |= candidateCost.first < cost.first;
      order = std::move(candidate);
      cost = candidateCost;
    }
  }
  if (improved && cost.first < result.maxLiveAfter) {
    result.order = std::move(order);
    result.maxLiveAfter = cost.first;
    result.strategy = result.strategy == "given" ? std::string("moves")
                                                 : result.strategy + "+moves";
  }
}

} // namespace

std::vector<Buffer>
fuse::planner::lifetimesOf(const KernelGraph &graph,
                           const std::vector<uint32_t> &order) {
  std::vector<int64_t> step(graph.kernels, 0);
  for (size_t i = 0; i < order.size(); ++i)
    step[order[i]] = int64_t(i);
  std::vector<Buffer> buffers;
  buffers.reserve(graph.values.size());
  for (const KernelGraph::Value &value : graph.values) {
    Buffer b{step[value.producer], step[value.producer], value.bytes};
    for (uint32_t r : value.readers)
      b.end = std::max(b.end, step[r]);
    buffers.push_back(b);
  }
  return buffers;
}

BufferPlaces fuse::planner::placesOf(const KernelGraph &graph,
                                     const std::vector<uint32_t> &order) {
  BufferPlaces result;
  result.buffers = lifetimesOf(graph, order);
  size_t n = graph.values.size();
  std::vector<size_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](size_t v) {
    while (parent[v] != v)
      v = parent[v] = parent[parent[v]];
    return v;
  };
  std::vector<char> given(n, 0); // already handed to another value
  std::vector<int64_t> step(graph.kernels, 0);
  for (size_t i = 0; i < order.size(); ++i)
    step[order[i]] = int64_t(i);
  // Whether `from`'s memory can go to `to`: its last reader is `to`'s
  // producer, and it was not given away before.
  auto takes = [&](size_t to, int64_t from) {
    if (from < 0 || size_t(from) >= n || size_t(from) == to || given[from] ||
        result.buffers[from].end != step[graph.values[to].producer] ||
        find(size_t(from)) == find(to))
      return false;
    given[from] = 1;
    parent[find(to)] = find(size_t(from));
    return true;
  };
  for (size_t v = 0; v < n; ++v) {
    if (takes(v, graph.values[v].writesInto))
      continue;
    for (uint32_t u : graph.values[v].mayReuse)
      if (graph.values[u].bytes >= graph.values[v].bytes && takes(v, u)) {
        result.inPlaceBytes += graph.values[v].bytes;
        break;
      }
  }
  result.placeOf.resize(n);
  for (size_t v = 0; v < n; ++v)
    result.placeOf[v] = find(v);
  result.places = mergePlaces(result.buffers, result.placeOf);
  return result;
}

bool fuse::planner::isValidOrder(const KernelGraph &graph,
                                 const std::vector<uint32_t> &order,
                                 std::string *error) {
  auto fail = [&](const std::string &why) {
    if (error)
      *error = why;
    return false;
  };
  if (order.size() != graph.kernels)
    return fail("the order has " + std::to_string(order.size()) +
                " kernels, the graph " + std::to_string(graph.kernels));
  std::vector<int64_t> step(graph.kernels, -1);
  for (size_t i = 0; i < order.size(); ++i) {
    if (order[i] >= graph.kernels || step[order[i]] >= 0)
      return fail("kernel " + std::to_string(order[i]) +
                  " is out of range or runs twice");
    step[order[i]] = int64_t(i);
  }
  auto before = [&](uint32_t a, uint32_t b) {
    return a == b || step[a] < step[b];
  };
  for (const KernelGraph::Value &value : graph.values)
    for (uint32_t r : value.readers)
      if (!before(value.producer, r))
        return fail("kernel " + std::to_string(r) + " runs before kernel " +
                    std::to_string(value.producer) + ", whose buffer it reads");
  for (auto [from, to] : graph.after)
    if (!before(from, to))
      return fail("kernel " + std::to_string(to) + " runs before kernel " +
                  std::to_string(from) + ", which it depends on");
  return true;
}

int64_t fuse::planner::anyOrderBound(const KernelGraph &graph,
                                     int64_t alignment) {
  alignment = std::max<int64_t>(1, alignment);
  Adjacency adj(graph);
  int64_t bound = 0;
  auto aligned = [&](int64_t bytes) { return alignedBytes(bytes, alignment); };
  for (uint32_t k = 0; k < graph.kernels; ++k) {
    int64_t bytes = 0;
    std::vector<uint32_t> continued;
    for (uint32_t v : adj.writes[k]) {
      const KernelGraph::Value &value = graph.values[v];
      int64_t over = -1; // an input it may be written over
      if (value.writesInto >= 0 &&
          std::find(adj.reads[k].begin(), adj.reads[k].end(),
                    uint32_t(value.writesInto)) != adj.reads[k].end())
        over = value.writesInto;
      for (uint32_t u : value.mayReuse)
        if (over < 0 &&
            std::find(adj.reads[k].begin(), adj.reads[k].end(), u) !=
                adj.reads[k].end() &&
            std::find(continued.begin(), continued.end(), u) == continued.end())
          over = u;
      if (over >= 0 && std::find(continued.begin(), continued.end(),
                                 uint32_t(over)) == continued.end()) {
        continued.push_back(uint32_t(over));
        bytes +=
            std::max(aligned(value.bytes), aligned(graph.values[over].bytes));
      } else {
        bytes += aligned(value.bytes);
      }
    }
    for (uint32_t v : adj.reads[k])
      if (std::find(continued.begin(), continued.end(), v) == continued.end())
        bytes += aligned(graph.values[v].bytes);
    bound = std::max(bound, bytes);
  }
  return bound;
}

KernelOrder fuse::planner::orderForMemory(const KernelGraph &graph,
                                          const std::vector<uint32_t> &given,
                                          int64_t alignment, bool moves) {
  KernelOrder result;
  result.order = given;
  result.strategy = "given";
  alignment = std::max<int64_t>(1, alignment);
  auto maxLiveOf = [&](const std::vector<uint32_t> &order) {
    return computeMaxLive(placesOf(graph, order).places, alignment);
  };
  result.maxLiveBefore = maxLiveOf(given);
  result.maxLiveAfter = result.maxLiveBefore;
  Adjacency adj(graph);
  result.lowerBound = anyOrderBound(graph, alignment);
  if (graph.kernels < 2 || result.maxLiveAfter <= result.lowerBound)
    return result;
  std::vector<uint32_t> position(graph.kernels, 0);
  for (size_t i = 0; i < given.size(); ++i)
    position[given[i]] = uint32_t(i);
  for (bool backwards : {false, true})
    for (bool continueBranch : {true, false}) {
      std::vector<uint32_t> order =
          backwards ? reverseGreedyOrder(graph, adj, position, continueBranch)
                    : greedyOrder(graph, adj, position, continueBranch);
      if (order.size() != graph.kernels)
        return result; // a cycle
      int64_t maxLive = maxLiveOf(order);
      if (maxLive < result.maxLiveAfter) {
        result.order = std::move(order);
        result.maxLiveAfter = maxLive;
        result.strategy =
            std::string(continueBranch ? "branch-first" : "least-memory") +
            (backwards ? "-backwards" : "");
      }
    }
  if (moves && result.maxLiveAfter > result.lowerBound &&
      graph.kernels <= kMaxKernelsForMoves)
    improveByMoves(graph, adj, alignment, result);
  return result;
}
