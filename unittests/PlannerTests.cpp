//===- PlannerTests.cpp - unit tests of the memory planner ----------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// GoogleTest: thousands of seeded random traces, each planned and checked
// by the independent verifier (no two live buffers overlap, offsets
// aligned, arena at least the max-live bound); traces of equal sizes must
// reach the bound exactly; edge cases, input validation, in-place places.
//
//===----------------------------------------------------------------------===//

#include "fuse/Memory/KernelOrder.h"
#include "fuse/Memory/MemoryPlanner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <thread>

using namespace fuse::planner;

namespace {
std::vector<Buffer> randomTrace(std::mt19937_64 &rng, int count, int steps,
                                bool equalSizes) {
  std::vector<Buffer> buffers;
  for (int i = 0; i < count; ++i) {
    Buffer b;
    b.start = rng() % steps;
    b.end = b.start + rng() % (steps / 4 + 1);
    b.size = equalSizes ? 256 : int64_t(1 + rng() % 4096) * (1 + rng() % 3);
    buffers.push_back(b);
  }
  return buffers;
}

TEST(PlannerTest, RandomTracesAreValidAndBounded) {
  std::mt19937_64 rng(20261129);
  for (int t = 0; t < 3000; ++t) {
    int count = 1 + rng() % 40;
    auto buffers = randomTrace(rng, count, 1 + rng() % 60, false);
    Options options;
    options.alignment = int64_t(1) << (rng() % 9);
    options.searchBudget = 20000;
    options.seed = t;
    Plan p = plan(buffers, options);
    std::string error;
    EXPECT_TRUE(verify(buffers, p, options.alignment, &error))
        << "trace " << t << ": " << error;
    EXPECT_GE(p.arena, p.maxLive) << "trace " << t;
    EXPECT_LE(p.arena, p.naive) << "trace " << t;
    EXPECT_GE(p.lowerBound, p.maxLive) << "trace " << t;
    EXPECT_LE(p.lowerBound, p.arena) << "trace " << t;
  }
}

TEST(PlannerTest, EqualSizesReachTheBound) {
  std::mt19937_64 rng(20261130);
  for (int t = 0; t < 500; ++t) {
    auto buffers = randomTrace(rng, 1 + rng() % 60, 1 + rng() % 80, true);
    Options options;
    options.searchBudget = 0;
    Plan p = plan(buffers, options);
    std::string error;
    EXPECT_TRUE(verify(buffers, p, 1, &error))
        << "equal-size trace " << t << ": " << error;
    EXPECT_EQ(p.arena, p.maxLive) << "equal-size trace " << t;
  }
}

TEST(PlannerTest, EdgeCases) {
  Plan p = plan({}, Options());
  EXPECT_EQ(p.arena, 0);
  EXPECT_TRUE(p.offsets.empty());
  std::vector<Buffer> one = {{3, 3, 100}};
  Plan q = plan(one, Options());
  EXPECT_EQ(q.arena, 100);
  EXPECT_EQ(q.offsets[0], 0);
  std::vector<Buffer> disjoint = {{0, 1, 10}, {2, 3, 20}, {4, 5, 30}};
  EXPECT_EQ(plan(disjoint, Options()).arena, 30)
      << "disjoint lifetimes share memory";
}

TEST(PlannerTest, ValidationAndVerifierCatchBadInput) {
  std::string error;
  EXPECT_FALSE(validate({{5, 2, 1}}, &error)) << "end before start";
  EXPECT_FALSE(error.empty());
  error.clear();
  EXPECT_FALSE(validate({{0, 1, -4}}, &error)) << "negative size";
  EXPECT_FALSE(error.empty());
  Plan bad;
  bad.offsets = {0, 0, 0};
  bad.arena = 30;
  std::vector<Buffer> overlapping = {{0, 2, 10}, {1, 3, 20}, {4, 5, 30}};
  EXPECT_FALSE(verify(overlapping, bad, 1, &error)) << "an overlap";
}

/// Every pair, by brute force: the reference the verifier's sweep must
/// agree with.
bool overlapsByBruteForce(const std::vector<Buffer> &buffers,
                          const std::vector<int64_t> &offsets) {
  for (size_t i = 0; i < buffers.size(); ++i)
    for (size_t j = i + 1; j < buffers.size(); ++j) {
      const Buffer &a = buffers[i], &b = buffers[j];
      if (a.start <= b.end && b.start <= a.end && a.size && b.size &&
          offsets[i] < offsets[j] + b.size && offsets[j] < offsets[i] + a.size)
        return true;
    }
  return false;
}

TEST(PlannerTest, VerifierAgreesWithBruteForce) {
  std::mt19937_64 rng(20261202);
  int invalid = 0;
  for (int t = 0; t < 3000; ++t) {
    auto buffers = randomTrace(rng, 1 + rng() % 30, 1 + rng() % 20, false);
    for (Buffer &b : buffers)
      if (rng() % 8 == 0)
        b.size = 0;
    // Random offsets: about half the plans overlap somewhere.
    Plan p;
    for (const Buffer &b : buffers) {
      p.offsets.push_back(int64_t(rng() % 16) * 512);
      p.arena = std::max(p.arena, p.offsets.back() + b.size);
    }
    bool overlap = overlapsByBruteForce(buffers, p.offsets);
    invalid += overlap;
    std::string error;
    EXPECT_EQ(verify(buffers, p, 1, &error), !overlap) << "trace " << t;
  }
  EXPECT_GT(invalid, 300) << "the random plans exercise the failing side";
  EXPECT_LT(invalid, 2700) << "the random plans exercise the passing side";
}

TEST(PlannerTest, LongLifetimesAndLargeSizes) {
  constexpr int64_t kLast = std::numeric_limits<int64_t>::max();
  // A lifetime to int64's last step: max-live must not overflow to 0.
  EXPECT_EQ(computeMaxLive({{0, kLast, 100}}, 1), 100);
  EXPECT_EQ(computeMaxLive({{0, kLast, 100}, {kLast, kLast, 7}}, 1), 107);
  Plan p = plan({{0, kLast, 100}, {5, 6, 50}}, Options());
  EXPECT_EQ(p.maxLive, 150);
  EXPECT_EQ(p.arena, 150);
  // Sizes whose aligned sum passes 2^63 - 1 are refused, naming the buffer.
  std::string error;
  size_t where = 99;
  EXPECT_FALSE(validate({{0, 1, kLast - 10}, {3, 4, 11}}, &error, 1, &where));
  EXPECT_EQ(where, 1u) << error;
  EXPECT_FALSE(validate({{0, 1, kLast - 10}}, &error, 4096, &where));
  EXPECT_EQ(where, 0u) << error;
  EXPECT_TRUE(validate({{0, 1, kLast - 10}, {3, 4, 10}}, &error, 1));
  EXPECT_FALSE(validate({{0, 1, 1}}, &error, 0, &where));
  EXPECT_EQ(where, 1u) << "a bad alignment is no buffer's fault";
}

TEST(PlannerTest, DenseTracesBeyondThePairLimit) {
  // 20,000 buffers over 400 steps: about 10^7 pairs alive together, more
  // than the conflict lists hold, so only the sweeps plan them.
  std::mt19937_64 rng(7);
  auto buffers = randomTrace(rng, 20000, 400, false);
  Options options;
  options.alignment = 64;
  Plan p = plan(buffers, options);
  std::string error;
  EXPECT_TRUE(verify(buffers, p, 64, &error)) << error;
  ASSERT_EQ(p.strategies.size(), 1u);
  EXPECT_EQ(p.strategies[0].name, "start");
  EXPECT_GE(p.arena, p.maxLive);
  EXPECT_LE(double(p.arena), 1.2 * double(p.maxLive));
  // The same with equal sizes: colouring is still exact.
  auto equal = randomTrace(rng, 20000, 400, true);
  Plan q = plan(equal, Options());
  EXPECT_EQ(q.arena, q.maxLive);
  EXPECT_TRUE(verify(equal, q, 1, &error)) << error;
}

TEST(PlannerTest, SameInputSamePlanUnderLoad) {
  // The search stops on a work count: a plan made while other threads keep
  // the cores busy is the plan made on an idle machine.
  std::mt19937_64 rng(99);
  auto buffers = randomTrace(rng, 300, 120, false);
  Options options;
  options.searchBudget = int64_t(1) << 22;
  Plan idle = plan(buffers, options);
  std::atomic<bool> stop{false};
  std::vector<std::thread> busy;
  for (int t = 0; t < 4; ++t)
    busy.emplace_back([&] {
      volatile uint64_t x = 0;
      while (!stop.load(std::memory_order_relaxed))
        x = x + 1;
    });
  Plan loaded = plan(buffers, options);
  stop = true;
  for (std::thread &t : busy)
    t.join();
  EXPECT_EQ(idle.offsets, loaded.offsets);
  EXPECT_EQ(idle.arena, loaded.arena);
  EXPECT_EQ(idle.strategy, loaded.strategy);
}

/// The optimum by brute force: every order of the buffers, each placed at
/// the lowest offset where it fits beside those placed before it. Some
/// order gives an optimal plan (take an optimal plan's buffers by offset:
/// none lands higher than it was).
int64_t optimumByBruteForce(const std::vector<Buffer> &buffers) {
  std::vector<size_t> order(buffers.size());
  std::iota(order.begin(), order.end(), 0);
  int64_t best = std::numeric_limits<int64_t>::max();
  do {
    std::vector<int64_t> offsets(buffers.size(), -1);
    int64_t arena = 0;
    for (size_t i : order) {
      int64_t offset = 0;
      for (bool moved = true; moved;) {
        moved = false;
        for (size_t j = 0; j < buffers.size(); ++j)
          if (offsets[j] >= 0 && buffers[i].start <= buffers[j].end &&
              buffers[j].start <= buffers[i].end &&
              offset < offsets[j] + buffers[j].size &&
              offsets[j] < offset + buffers[i].size) {
            offset = offsets[j] + buffers[j].size;
            moved = true;
          }
      }
      offsets[i] = offset;
      arena = std::max(arena, offset + buffers[i].size);
    }
    best = std::min(best, arena);
  } while (std::next_permutation(order.begin(), order.end()));
  return best;
}

/// A perfect packing: a rectangle of `steps` steps by `height` bytes cut
/// into `count` pieces by random guillotine cuts (across time or across
/// memory), each piece a buffer. Every step is covered to the full height,
/// so max-live is `height` and a plan at max-live exists, though greedy
/// orders rarely find it.
std::vector<Buffer> perfectPacking(std::mt19937_64 &rng, size_t count,
                                   int64_t steps, int64_t height) {
  struct Piece {
    int64_t start, end, bottom, top; // [start, end) x [bottom, top)
  };
  std::vector<Piece> pieces = {{0, steps, 0, height}};
  for (int tries = 0; pieces.size() < count && tries < 100000; ++tries) {
    size_t i = rng() % pieces.size();
    Piece p = pieces[i];
    bool acrossTime = rng() % 2;
    int64_t extent = acrossTime ? p.end - p.start : p.top - p.bottom;
    if (extent < 2)
      continue;
    int64_t cut = 1 + int64_t(rng() % uint64_t(extent - 1));
    Piece a = p, b = p;
    if (acrossTime)
      a.end = b.start = p.start + cut;
    else
      a.top = b.bottom = p.bottom + cut;
    pieces[i] = a;
    pieces.push_back(b);
  }
  std::vector<Buffer> buffers;
  for (const Piece &p : pieces)
    buffers.push_back({p.start, p.end - 1, p.top - p.bottom});
  std::shuffle(buffers.begin(), buffers.end(), rng);
  return buffers;
}

TEST(PlannerTest, ExactSearchFindsAndProvesTheOptimum) {
  // Small traces: the plan must be optimal, and the lower bound (max-live,
  // raised only by the exact search's proofs) must be the optimum.
  std::mt19937_64 rng(20261203);
  for (int t = 0; t < 400; ++t) {
    // Half random, half perfect packings (which greedy orders often miss).
    std::vector<Buffer> buffers;
    if (t % 2) {
      buffers = randomTrace(rng, 2 + rng() % 6, 1 + rng() % 8, false);
      for (Buffer &b : buffers)
        b.size = 1 + int64_t(rng() % 5) * (1 + rng() % 3);
    } else {
      buffers = perfectPacking(rng, 5 + rng() % 3, 6, 12);
    }
    int64_t optimum = optimumByBruteForce(buffers);
    Plan p = plan(buffers, Options());
    std::string error;
    ASSERT_TRUE(verify(buffers, p, 1, &error))
        << "trace " << t << ": " << error;
    EXPECT_EQ(p.arena, optimum) << "trace " << t;
    EXPECT_EQ(p.lowerBound, optimum) << "trace " << t;
  }
}

TEST(PlannerTest, PerfectPackingsReachTheBound) {
  // Four times the default budget: with the default, trace 8 (74 buffers)
  // stays just above the bound with every seed tried (0 to 4), and trace 3
  // with seed 0; four times the default reaches all 40 with seeds 0 and 3
  // (trace 8 stays at 1.0005 to 1.0021 with seeds 1, 2 and 4).
  Options options;
  options.searchBudget = 4 * kDefaultSearchBudget;
  std::mt19937_64 rng(20261204);
  int greedyAbove = 0, byExact = 0, traces = 40;
  for (int t = 0; t < traces; ++t) {
    auto buffers = perfectPacking(rng, 20 + rng() % 60, 200, 1 << 16);
    Plan p = plan(buffers, options);
    std::string error;
    ASSERT_TRUE(verify(buffers, p, 1, &error))
        << "trace " << t << ": " << error;
    EXPECT_EQ(p.maxLive, 1 << 16) << "trace " << t;
    EXPECT_EQ(p.arena, p.maxLive) << "trace " << t;
    for (const StrategyResult &s : p.strategies)
      if (s.name == "size")
        greedyAbove += s.arena > p.maxLive;
    byExact += p.strategy == "exact";
  }
  // The local search has the first turn and reaches most of them; the
  // exact search plans some of the rest (4 with seed 0).
  EXPECT_GE(byExact, 2) << "the exact search plans some of them";
  EXPECT_GT(greedyAbove, traces / 2)
      << "greedy by size misses the bound on most of these traces";
}

/// The shape of an EfficientNet stage in ONNX node order: per block, its
/// input `a` (alive over the block and the first step of the next, so
/// consecutive inputs overlap), three wide intermediates (expansion,
/// sigmoid, product) that peak together with it, and small buffers alive
/// across all blocks, nested. A plan at max-live must put every other
/// block's input above its intermediates and the others below; best fit in
/// every greedy order puts them all at the lowest place free.
std::vector<Buffer> alternatingBlocks(int blocks, int smalls) {
  std::vector<Buffer> buffers;
  const int64_t a = 1769472, wide = 7077888;
  for (int k = 0; k < blocks; ++k) {
    int64_t s = 5 * k + 10;
    buffers.push_back({s, s + 5, a});
    buffers.push_back({s + 1, s + 3, wide});
    buffers.push_back({s + 2, s + 3, wide});
    buffers.push_back({s + 3, s + 4, wide});
  }
  int64_t last = 5 * blocks + 20;
  for (int i = 0; i < smalls; ++i)
    buffers.push_back({i, last - i, 6144});
  return buffers;
}

TEST(PlannerTest, AlternatingBlocksReachTheBound) {
  for (int blocks : {2, 5, 15, 40}) {
    std::vector<Buffer> buffers = alternatingBlocks(blocks, 8);
    Plan p = plan(buffers, Options());
    std::string error;
    ASSERT_TRUE(verify(buffers, p, 1, &error)) << blocks << ": " << error;
    EXPECT_EQ(p.arena, p.maxLive) << blocks << " blocks";
    bool greedyAbove = false;
    for (const StrategyResult &s : p.strategies)
      if (s.name == "size")
        greedyAbove = s.arena > p.maxLive;
    EXPECT_TRUE(greedyAbove)
        << blocks << " blocks: greedy by size already reaches the bound";
    // The same plan again, with a shuffled copy of the input planned in
    // between: the plan depends on the input only.
    Plan again = plan(buffers, Options());
    EXPECT_EQ(again.offsets, p.offsets) << blocks << " blocks";
  }
}

/// An Inception block: kernel 0 writes the input of four branches, each a
/// reduction (a 1x1 convolution to few channels, small) then a widening
/// (large), and a last kernel joins them. In source order every branch's
/// first kernel runs before any second one.
KernelGraph inceptionBlock(std::vector<uint32_t> &sourceOrder) {
  KernelGraph g;
  g.kernels = 10;
  g.values.push_back({0, {1, 3, 5, 7}, 1000}); // the block's input
  for (uint32_t b = 0; b < 4; ++b) {
    uint32_t first = 1 + 2 * b, second = first + 1;
    g.values.push_back({first, {second}, 2000}); // wide
    g.values.push_back({second, {9}, 300});      // the branch's output
  }
  sourceOrder = {0, 1, 3, 5, 7, 2, 4, 6, 8, 9};
  return g;
}

TEST(KernelOrderTest, InceptionBranchesOneAfterAnother) {
  std::vector<uint32_t> source;
  KernelGraph g = inceptionBlock(source);
  KernelOrder o = orderForMemory(g, source, 1);
  std::string error;
  ASSERT_TRUE(isValidOrder(g, o.order, &error)) << error;
  // Source order: the input and all four wide buffers alive together.
  EXPECT_EQ(o.maxLiveBefore, 1000 + 4 * 2000);
  // A branch at a time: the input, one wide buffer, the outputs so far.
  EXPECT_EQ(o.maxLiveAfter, 1000 + 2000 + 3 * 300);
  EXPECT_EQ(o.maxLiveAfter, computeMaxLive(lifetimesOf(g, o.order), 1));
  EXPECT_NE(o.strategy, "given");
}

TEST(KernelOrderTest, RandomGraphsValidAndNeverWorse) {
  std::mt19937_64 rng(20261205);
  int better = 0, moved = 0;
  for (int t = 0; t < 500; ++t) {
    KernelGraph g;
    g.kernels = 2 + rng() % 40;
    // Edges only forward in index order: the index order is valid.
    for (uint32_t k = 0; k + 1 < g.kernels; ++k) {
      KernelGraph::Value v;
      v.producer = k;
      v.bytes = int64_t(1 + rng() % 1000);
      int readers = 1 + rng() % 3;
      for (int r = 0; r < readers; ++r)
        v.readers.push_back(k + 1 + rng() % (g.kernels - k - 1));
      g.values.push_back(v);
      if (rng() % 4 == 0)
        g.after.push_back({k, uint32_t(k + 1 + rng() % (g.kernels - k - 1))});
    }
    std::vector<uint32_t> given(g.kernels);
    std::iota(given.begin(), given.end(), 0);
    int64_t alignment = int64_t(1) << (rng() % 5);
    KernelOrder o = orderForMemory(g, given, alignment);
    std::string error;
    ASSERT_TRUE(isValidOrder(g, o.order, &error))
        << "graph " << t << ": " << error;
    EXPECT_LE(o.maxLiveAfter, o.maxLiveBefore) << "graph " << t;
    EXPECT_EQ(o.maxLiveBefore,
              computeMaxLive(lifetimesOf(g, given), alignment));
    EXPECT_EQ(o.maxLiveAfter,
              computeMaxLive(lifetimesOf(g, o.order), alignment));
    better += o.maxLiveAfter < o.maxLiveBefore;
    moved += o.strategy.find("moves") != std::string::npos;
    // The same graph gets the same order.
    EXPECT_EQ(orderForMemory(g, given, alignment).order, o.order)
        << "graph " << t;
  }
  EXPECT_GT(better, 50) << "reordering helps on a share of random graphs";
  // 175 of these 500 when the moves came in: their max-live went below
  // the best greedy schedule's.
  EXPECT_GT(moved, 100) << "the moves lower the greedy schedules' max-live";
}

TEST(KernelOrderTest, OrderChecks) {
  std::vector<uint32_t> source;
  KernelGraph g = inceptionBlock(source);
  std::string error;
  EXPECT_FALSE(isValidOrder(g, {0, 2, 1, 3, 4, 5, 6, 7, 8, 9}, &error))
      << "a reader before its producer";
  EXPECT_NE(error.find("reads"), std::string::npos) << error;
  EXPECT_FALSE(isValidOrder(g, {0, 1, 2}, &error)) << "too short";
  EXPECT_FALSE(isValidOrder(g, {0, 0, 2, 3, 4, 5, 6, 7, 8, 9}, &error))
      << "a kernel twice";
  g.after.push_back({9, 0});
  // A cycle: no schedule exists; the given order is kept as it is.
  KernelOrder o = orderForMemory(g, source, 1);
  EXPECT_EQ(o.order, source);
  EXPECT_EQ(o.strategy, "given");
}

TEST(PlannerTest, InPlacePlacesAndNaiveSum) {
  std::vector<Buffer> buffers = {
      {0, 2, 100}, {2, 5, 300}, {1, 3, 50}, {5, 6, 200}};
  std::vector<size_t> place = {7, 7, 3, 7};
  std::vector<Buffer> merged = mergePlaces(buffers, place);
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_EQ(place, std::vector<size_t>({0, 0, 1, 0}))
      << "places numbered in order of first appearance";
  // A place spans its members' lifetimes and is as large as the largest.
  EXPECT_EQ(merged[0].start, 0);
  EXPECT_EQ(merged[0].end, 6);
  EXPECT_EQ(merged[0].size, 300);
  // A buffer alone keeps its interval.
  EXPECT_EQ(merged[1].start, 1);
  EXPECT_EQ(merged[1].end, 3);
  EXPECT_EQ(merged[1].size, 50);
  EXPECT_EQ(computeNaive(buffers, 1), 650);
  EXPECT_EQ(computeNaive(buffers, 256), 256 + 512 + 256 + 256);
}
} // namespace
