//===- PlannerTests.cpp - randomized tests of the memory planner ----------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// Thousands of seeded random traces, each planned and checked by the
// independent verifier (no two live buffers overlap, offsets aligned, arena
// at least the max-live bound); traces of equal sizes must reach the bound
// exactly. Ends with "N passed, M failed".
//
//===----------------------------------------------------------------------===//

#include "fuse/Memory/MemoryPlanner.h"

#include <cstdio>
#include <random>
#include <string>

using namespace fuse::planner;

namespace {
int passed = 0, failed = 0;

void expect(bool ok, const std::string &what) {
  if (ok) {
    ++passed;
    return;
  }
  ++failed;
  std::printf("FAIL: %s\n", what.c_str());
}

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
} // namespace

int main() {
  std::mt19937_64 rng(20261129);
  // Random traces, several alignments.
  for (int t = 0; t < 3000; ++t) {
    int count = 1 + rng() % 40;
    auto buffers = randomTrace(rng, count, 1 + rng() % 60, false);
    Options options;
    options.alignment = int64_t(1) << (rng() % 9);
    options.timeBudgetMs = 2;
    options.seed = t;
    Plan p = plan(buffers, options);
    std::string error;
    bool ok = verify(buffers, p, options.alignment, &error);
    expect(ok, "trace " + std::to_string(t) + ": " + error);
    expect(p.arena >= p.maxLive, "trace " + std::to_string(t) +
                                     ": arena below the max-live bound");
    expect(p.arena <= p.naive, "trace " + std::to_string(t) +
                                   ": arena above the naive sum");
  }
  // Equal sizes: exactly the bound.
  for (int t = 0; t < 500; ++t) {
    auto buffers = randomTrace(rng, 1 + rng() % 60, 1 + rng() % 80, true);
    Options options;
    options.timeBudgetMs = 0;
    Plan p = plan(buffers, options);
    std::string error;
    expect(verify(buffers, p, 1, &error),
           "equal-size trace " + std::to_string(t) + ": " + error);
    expect(p.arena == p.maxLive,
           "equal-size trace " + std::to_string(t) + ": arena " +
               std::to_string(p.arena) + " != max-live " +
               std::to_string(p.maxLive));
  }
  // Edge cases.
  {
    Plan p = plan({}, Options());
    expect(p.arena == 0 && p.offsets.empty(), "empty trace");
    std::vector<Buffer> one = {{3, 3, 100}};
    Plan q = plan(one, Options());
    expect(q.arena == 100 && q.offsets[0] == 0, "single buffer");
    std::vector<Buffer> disjoint = {{0, 1, 10}, {2, 3, 20}, {4, 5, 30}};
    Plan r = plan(disjoint, Options());
    expect(r.arena == 30, "disjoint lifetimes share memory");
    std::string error;
    expect(!validate({{5, 2, 1}}, &error) && !error.empty(),
           "end before start is rejected");
    expect(!validate({{0, 1, -4}}, &error) && !error.empty(),
           "negative size is rejected");
    Plan bad = r;
    bad.offsets = {0, 0, 0};
    bad.arena = 30;
    std::vector<Buffer> overlapping = {{0, 2, 10}, {1, 3, 20}, {4, 5, 30}};
    expect(!verify(overlapping, bad, 1, &error),
           "the verifier catches an overlap");
  }
  // Places shared by in-place reuse, and the naive sum.
  {
    std::vector<Buffer> buffers = {{0, 2, 100}, {2, 5, 300}, {1, 3, 50},
                                   {5, 6, 200}};
    std::vector<size_t> place = {7, 7, 3, 7};
    std::vector<Buffer> merged = mergePlaces(buffers, place);
    expect(merged.size() == 2, "two places");
    expect(place == std::vector<size_t>({0, 0, 1, 0}),
           "places numbered in order of first appearance");
    expect(merged[0].start == 0 && merged[0].end == 6 &&
               merged[0].size == 300,
           "a place spans its members' lifetimes, as large as the largest");
    expect(merged[1].start == 1 && merged[1].end == 3 && merged[1].size == 50,
           "a buffer alone keeps its interval");
    expect(computeNaive(buffers, 1) == 650, "naive sum");
    expect(computeNaive(buffers, 256) == 256 + 512 + 256 + 256,
           "naive sum with each size aligned");
  }
  std::printf("planner: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
