//===- ThreadPool.h - the runtime's threads for CPU models ------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// One pool of worker threads per process, shared by every loaded model and
// every concurrent call: a compiled CPU model's parallel loops
// (fuse-cpu-dispatch-parallel) come here through its
// fuse_model_parallel_hook, and each call says how many threads it may use.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_LIB_RUNTIME_THREADPOOL_H
#define FUSE_LIB_RUNTIME_THREADPOOL_H

#include <cstdint>

namespace fuse::runtime {

/// A loop body over a range of its iterations.
using ParallelTask = void (*)(void *context, int64_t begin, int64_t end);

/// Runs `task` over disjoint subranges covering [begin, end), on the
/// calling thread and up to `threads` - 1 workers of the pool (fewer when
/// the pool cannot start more), and returns when every subrange is done.
/// `threads` <= 1 or fewer than two iterations: one call on this thread.
void parallelFor(int32_t threads, ParallelTask task, void *context,
                 int64_t begin, int64_t end);

/// The threads a call uses when it does not say: FUSE_NUM_THREADS when it
/// is a number from 1 to 1024, else the CPUs this process may run on.
int32_t defaultThreads();

/// Sets the thread count of the call running on this thread (around a
/// model's run; 1 where no call runs), which parallelHook uses.
void setCurrentThreads(int32_t threads);

/// The hook a model's parallel loops call: parallelFor with the current
/// call's thread count.
void parallelHook(ParallelTask task, void *context, int64_t begin, int64_t end);

} // namespace fuse::runtime

#endif // FUSE_LIB_RUNTIME_THREADPOOL_H
