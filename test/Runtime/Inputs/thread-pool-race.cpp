//===- thread-pool-race.cpp - the runtime's pool under ThreadSanitizer ----===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// test/Runtime/thread-pool-tsan.test: four callers at once, each running
// parallel-fors of 1 to 5 threads over ranges of varying length on the
// process's one pool; every element is written exactly once per job.
//
//===----------------------------------------------------------------------===//

#include "ThreadPool.h"

#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>

using namespace fuse::runtime;

namespace {

struct Context {
  std::vector<int> *out;
};

void task(void *context, int64_t begin, int64_t end) {
  auto *c = static_cast<Context *>(context);
  for (int64_t i = begin; i < end; ++i)
    (*c->out)[size_t(i)] += 1;
}

} // namespace

int main() {
  std::atomic<int> wrong{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < 4; ++t)
    callers.emplace_back([&, t] {
      for (int round = 0; round < 200; ++round) {
        std::vector<int> out(size_t(1 + round * 7 % 997), 0);
        Context context{&out};
        parallelFor(1 + (t + round) % 5, task, &context, 0,
                    int64_t(out.size()));
        for (int v : out)
          if (v != 1)
            ++wrong;
      }
    });
  for (std::thread &caller : callers)
    caller.join();
  std::printf("elements not written exactly once: %d\n", wrong.load());
  return wrong.load() != 0;
}
