//===- KernelOrder.h - a kernel order with less memory live -----*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// The buffers between kernels are alive from the kernel that writes them to
// the last kernel that reads them, so the order in which independent kernels
// run (the branches of an Inception block, the heads of a detector) decides
// how much memory is alive at once. This orders the kernels of a dependence
// graph to lower that peak (max-live), keeping every dependence. No MLIR in
// the interface: the fusion engine builds the graph from its groups.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_MEMORY_KERNELORDER_H
#define FUSE_MEMORY_KERNELORDER_H

#include "fuse/Memory/MemoryPlanner.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fuse::planner {

/// Kernels 0..kernels-1 and the buffers between them. A kernel depends on
/// the producers of the buffers it reads, and on the kernels listed in
/// `after` (dependences that carry no buffer).
struct KernelGraph {
  struct Value {
    uint32_t producer = 0;
    /// The kernels that read it (any order, repeats allowed).
    std::vector<uint32_t> readers;
    int64_t bytes = 0;
    /// The value whose memory this one is written into (destination
    /// passing: a kernel that updates a slice of its input), or -1. It
    /// holds where the producer is that value's last reader (else the
    /// producer works on a copy).
    int64_t writesInto = -1;
    /// Values whose memory this one may take over where its producer is
    /// their last reader (an elementwise kernel writing over an input of
    /// its type); the first that qualifies is taken.
    std::vector<uint32_t> mayReuse;
  };
  size_t kernels = 0;
  std::vector<Value> values;
  /// Extra dependences: `second` runs after `first`.
  std::vector<std::pair<uint32_t, uint32_t>> after;
};

/// The buffers of `graph` as lifetimes under `order` (order[i] is the
/// kernel that runs i-th): alive from the producer's step to the last
/// reader's; a buffer nobody reads lives at its producer's step only.
std::vector<Buffer> lifetimesOf(const KernelGraph &graph,
                                const std::vector<uint32_t> &order);

/// The buffers of `graph` under `order` and the places they take: a value
/// written into another's memory, or taking over an input's, shares its
/// place (in value order, each value given to at most one other).
struct BufferPlaces {
  /// One lifetime per value (lifetimesOf).
  std::vector<Buffer> buffers;
  /// The place of each value, and the places (mergePlaces).
  std::vector<size_t> placeOf;
  std::vector<Buffer> places;
  /// Bytes of the values that took over an input's memory (mayReuse).
  int64_t inPlaceBytes = 0;
};
BufferPlaces placesOf(const KernelGraph &graph,
                      const std::vector<uint32_t> &order);

/// Whether `order` runs every kernel once and each after what it depends
/// on; if not, says why.
bool isValidOrder(const KernelGraph &graph, const std::vector<uint32_t> &order,
                  std::string *error);

struct KernelOrder {
  /// The order chosen: the kernel that runs i-th.
  std::vector<uint32_t> order;
  /// Max-live of the places (placesOf; sizes rounded up to the alignment)
  /// in the given order and in the chosen one (never more).
  int64_t maxLiveBefore = 0, maxLiveAfter = 0;
  /// anyOrderBound: the order is optimal where maxLiveAfter reaches it (the
  /// heuristics are not tried then).
  int64_t lowerBound = 0;
  /// The heuristic whose order was chosen ("given" when none was better).
  std::string strategy;
};

/// The max-live no order goes below: the largest, over the kernels, of the
/// memory one kernel's own buffers take while it runs (what it reads and
/// what it writes; a value written in place over an input it reads counted
/// once, at the larger size).
int64_t anyOrderBound(const KernelGraph &graph, int64_t alignment);

/// Orders the kernels of `graph` for a lower max-live, starting from
/// `given` (a valid order, which is kept unless another has a lower
/// max-live): greedy list schedules that run next the ready kernel which
/// adds the least memory (what it writes minus what it reads for the last
/// time), one of them preferring to continue the kernel just run (finishing
/// a branch before starting another); then, on graphs of at most 4096
/// kernels, seeded moves of one kernel between its last predecessor and
/// its first successor, kept when neither the max-live nor the memory-time
/// grows, within a work budget (2^18 units of one per kernel and buffer
/// access for each candidate). Deterministic: the same graph gets the same
/// order.
/// `moves` false: the greedy schedules only.
KernelOrder orderForMemory(const KernelGraph &graph,
                           const std::vector<uint32_t> &given,
                           int64_t alignment, bool moves = true);

} // namespace fuse::planner

#endif // FUSE_MEMORY_KERNELORDER_H
