//===- ThreadPool.cpp - the runtime's threads for CPU models --------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// A job is a range split into chunks that the calling thread and the
// workers that join it take one at a time (an atomic counter), so a worker
// busy with another call's job never holds this one up. The job lives on
// the caller's stack: the caller leaves only when the job is out of the
// queue and no worker holds it any more.
//
// A model's kernels follow each other microseconds apart, and waking a
// sleeping thread costs tens of microseconds (more on a virtual machine),
// as long as many of the kernels take: a worker that finds no job first
// spins for kSpinTime, watching the queue, before it sleeps, and a caller
// signals only when a worker sleeps.
//
//===----------------------------------------------------------------------===//

#include "ThreadPool.h"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace fuse::runtime {
namespace {

struct Job {
  ParallelTask task;
  void *context;
  int64_t begin, end, chunkSize;
  int64_t chunks;
  /// Workers that may still join (the call's threads less the caller).
  int32_t seats;
  /// Workers working on it now.
  int32_t holders = 0;
  std::atomic<int64_t> next{0};

  /// Runs chunks until none is left.
  void work() {
    for (int64_t c = next.fetch_add(1, std::memory_order_relaxed); c < chunks;
         c = next.fetch_add(1, std::memory_order_relaxed)) {
      int64_t from = begin + c * chunkSize;
      task(context, from, std::min(end, from + chunkSize));
    }
  }
  bool exhausted() const {
    return next.load(std::memory_order_relaxed) >= chunks;
  }
};

/// How long a worker without a job watches the queue before it sleeps.
constexpr std::chrono::microseconds kSpinTime{200};

/// A pause in a spin loop.
inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#else
  std::this_thread::yield();
#endif
}

class Pool {
public:
  /// Starts workers until there are `count` (or the system refuses more).
  void reserve(int32_t count) {
    std::lock_guard<std::mutex> lock(mutex);
    while (int32_t(workers.size()) < count && !refused) {
      try {
        workers.emplace_back([this] { serve(); });
      } catch (const std::system_error &) {
        refused = true;
      }
    }
  }

  void run(Job &job) {
    bool anyAsleep;
    {
      std::lock_guard<std::mutex> lock(mutex);
      queue.push_back(&job);
      queued.fetch_add(1, std::memory_order_release);
      anyAsleep = sleepers > 0;
    }
    if (anyAsleep)
      wake.notify_all();
    job.work();
    std::unique_lock<std::mutex> lock(mutex);
    dequeue(&job);
    finished.wait(lock, [&] { return job.holders == 0; });
  }

private:
  /// Takes `job` out of the queue, if it is still there (under `mutex`):
  /// no worker finds it afterwards.
  void dequeue(Job *job) {
    auto it = std::find(queue.begin(), queue.end(), job);
    if (it != queue.end()) {
      queue.erase(it);
      queued.fetch_sub(1, std::memory_order_relaxed);
    }
  }

  /// A queued job this worker may join, joined (under `mutex`); null if
  /// none.
  Job *join() {
    for (Job *candidate : queue)
      if (candidate->seats > 0 && !candidate->exhausted()) {
        --candidate->seats;
        ++candidate->holders;
        return candidate;
      }
    return nullptr;
  }

  /// Watches the queue (unlocked) until something is queued or kSpinTime
  /// has passed; returns whether something was.
  bool spin() {
    auto until = std::chrono::steady_clock::now() + kSpinTime;
    for (unsigned i = 1;; ++i) {
      if (queued.load(std::memory_order_acquire) > 0)
        return true;
      cpuRelax();
      if (i % 64 == 0 && std::chrono::steady_clock::now() >= until)
        return false;
    }
  }

  void serve() {
    std::unique_lock<std::mutex> lock(mutex);
    while (true) {
      Job *job = join();
      if (!job) {
        lock.unlock();
        bool seen = spin();
        lock.lock();
        if (seen)
          job = join();
        if (!job) {
          ++sleepers;
          wake.wait(lock, [&] { return (job = join()) != nullptr; });
          --sleepers;
        }
      }
      lock.unlock();
      job->work();
      lock.lock();
      dequeue(job);
      if (--job->holders == 0)
        finished.notify_all();
    }
  }

  std::mutex mutex;
  std::condition_variable wake, finished;
  std::deque<Job *> queue;
  /// The queue's length, read without the lock by spinning workers.
  std::atomic<int32_t> queued{0};
  /// Workers waiting on `wake` (under `mutex`).
  int32_t sleepers = 0;
  std::vector<std::thread> workers;
  bool refused = false;
};

/// The process's pool, never destroyed (workers wait in it until exit).
Pool &pool() {
  static Pool *instance = new Pool();
  return *instance;
}

thread_local int32_t callThreads = 1;

} // namespace

void parallelFor(int32_t threads, ParallelTask task, void *context,
                 int64_t begin, int64_t end) {
  int64_t count = end - begin;
  if (threads <= 1 || count < 2) {
    if (count > 0)
      task(context, begin, end);
    return;
  }
  threads = int32_t(std::min<int64_t>(threads, count));
  pool().reserve(threads - 1);
  Job job;
  job.task = task;
  job.context = context;
  job.begin = begin;
  job.end = end;
  // A few chunks per thread, so a thread that starts late (or is busy with
  // another call) takes fewer.
  int64_t chunks = std::min<int64_t>(count, int64_t(threads) * 4);
  job.chunkSize = (count + chunks - 1) / chunks;
  job.chunks = (count + job.chunkSize - 1) / job.chunkSize;
  job.seats = threads - 1;
  pool().run(job);
}

int32_t defaultThreads() {
  static const int32_t threads = [] {
    if (const char *text = std::getenv("FUSE_NUM_THREADS")) {
      char *endPtr = nullptr;
      long value = std::strtol(text, &endPtr, 10);
      if (endPtr != text && *endPtr == '\0' && value >= 1 && value <= 1024)
        return int32_t(value);
    }
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
      return int32_t(CPU_COUNT(&set));
    unsigned hardware = std::thread::hardware_concurrency();
    return hardware ? int32_t(std::min(hardware, 1024u)) : 1;
  }();
  return threads;
}

void setCurrentThreads(int32_t threads) { callThreads = std::max(threads, 1); }

void parallelHook(ParallelTask task, void *context, int64_t begin,
                  int64_t end) {
  // Chunks run on workers call no hook themselves (a body has no parallel
  // loop inside), so the count read here is the calling thread's.
  parallelFor(callThreads, task, context, begin, end);
}

} // namespace fuse::runtime
