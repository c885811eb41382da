//===- fuse-benchmark.cpp - time a compiled model -------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// fuse-benchmark MODEL.so [--warmup N] [--runs N] [--seed N] [--json FILE]
//
// Loads a compiled model through the runtime's C API, runs it on seeded
// random inputs `warmup` times untimed, then `runs` times timed (one
// workspace allocated once, as a serving loop would), and prints the
// minimum, median, 90th and 99th percentile, mean and maximum wall time of
// one call, in milliseconds (and as JSON with --json). A model compiled with
// `fuse-compile --profile` also gets each kernel's median time, slowest
// first, with its fusion rule and ONNX nodes.
//
//===----------------------------------------------------------------------===//

#include "RunnerCommon.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace fuse::runner;

const char *fuseRunnerName = "fuse-benchmark";

namespace {

void usage() {
  std::fprintf(stderr,
               "usage: fuse-benchmark MODEL.so [--warmup N] [--runs N] "
               "[--seed N] [--threads N] [--json FILE]\n"
               "  --warmup  untimed runs first (default 3)\n"
               "  --runs    timed runs (default 20)\n"
               "  --seed    seed of the random inputs (default 0)\n"
               "  --threads threads of a CPU model's call (default: "
               "FUSE_NUM_THREADS, else the\n"
               "            CPUs this process may use)\n"
               "  --json    also write the statistics as JSON to FILE\n");
}

double percentile(const std::vector<double> &sorted, double p) {
  if (sorted.empty())
    return 0;
  double rank = p / 100.0 * double(sorted.size() - 1);
  size_t low = size_t(rank);
  size_t high = std::min(low + 1, sorted.size() - 1);
  return sorted[low] + (rank - double(low)) * (sorted[high] - sorted[low]);
}

} // namespace

int main(int argc, char **argv) {
  std::string modelPath, jsonPath;
  uint64_t warmup = 3, runs = 20, seed = 0, threads = 0;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char *flag) {
      return optionValue(argc, argv, i, flag);
    };
    if (arg == "-h" || arg == "--help") {
      usage();
      return 0;
    }
    if (const char *v = value("--warmup")) {
      if (!parseCount(v, &warmup))
        return fail(std::string("--warmup: not a count: ") + v);
    } else if (const char *v = value("--runs")) {
      if (!parseCount(v, &runs) || runs == 0 || runs > 100000000)
        return fail(std::string("--runs: expected 1 to 10^8, got ") + v);
    } else if (const char *v = value("--seed")) {
      if (!parseCount(v, &seed))
        return fail(std::string("--seed: not a number: ") + v);
    } else if (const char *v = value("--threads")) {
      if (!parseCount(v, &threads) || threads < 1 || threads > 1024)
        return fail(std::string("--threads: expected 1 to 1024, got ") + v);
    } else if (const char *v = value("--json")) {
      jsonPath = v;
    } else if (!arg.empty() && arg[0] == '-') {
      usage();
      return fail("unknown option '" + arg + "'");
    } else if (modelPath.empty()) {
      modelPath = arg;
    } else {
      usage();
      return fail("more than one model given");
    }
  }
  if (modelPath.empty()) {
    usage();
    return fail("no model given");
  }
  LoadedModel model;
  if (!model.load(modelPath))
    return 2;
  Buffers buffers;
  if (!buffers.prepareInputs(model.get(), {}, seed, /*quiet=*/true))
    return 2;
  buffers.prepareOutputs(model.get());
  // A CPU model's workspace is allocated once, outside the timed runs; a
  // GPU model's call on host buffers uses the runtime's device memory
  // (reused from call to call).
  bool cpu = std::strcmp(fuseModelTarget(model.get()), "cpu") == 0;
  size_t workspaceBytes = cpu ? fuseModelWorkspaceSize(model.get()) : 0;
  void *workspace = nullptr;
  if (workspaceBytes) {
    size_t rounded = (workspaceBytes + FUSE_WORKSPACE_ALIGNMENT - 1) /
                     FUSE_WORKSPACE_ALIGNMENT * FUSE_WORKSPACE_ALIGNMENT;
    workspace = std::aligned_alloc(FUSE_WORKSPACE_ALIGNMENT, rounded);
    if (!workspace)
      return fail("cannot allocate the " + std::to_string(workspaceBytes) +
                  "-byte workspace");
  }
  // A profiled model's kernels, timed on every timed run.
  int32_t kernels =
      fuseModelIsProfiled(model.get()) ? fuseModelNumKernels(model.get()) : 0;
  std::vector<double> kernelMs(static_cast<size_t>(kernels), 0.0);
  std::vector<std::vector<double>> kernelTimes(static_cast<size_t>(kernels));
  FuseRunOptions options = {};
  options.struct_size = sizeof(FuseRunOptions);
  options.memory = FUSE_MEMORY_HOST;
  options.workspace = workspace;
  options.workspace_bytes = workspaceBytes;
  // A GPU model's call has one host thread.
  int32_t callThreads = !cpu      ? 1
                        : threads ? int32_t(threads)
                        : fuseModelIsParallel(model.get())
                            ? fuseRuntimeDefaultThreads()
                            : 1;
  options.threads = cpu ? callThreads : 0;
  for (uint64_t i = 0; i < warmup; ++i)
    if (!buffers.run(model.get(), &options))
      return 2;
  if (kernels)
    options.kernel_ms = kernelMs.data();
  std::vector<double> times;
  times.reserve(runs);
  for (uint64_t i = 0; i < runs; ++i) {
    auto start = std::chrono::steady_clock::now();
    if (!buffers.run(model.get(), &options))
      return 2;
    times.push_back(std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - start)
                        .count());
    for (int32_t k = 0; k < kernels; ++k)
      kernelTimes[size_t(k)].push_back(kernelMs[size_t(k)]);
  }
  std::free(workspace);
  std::vector<double> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  double mean = 0;
  for (double t : times)
    mean += t / double(times.size());
  struct {
    const char *name;
    double value;
  } stats[] = {{"min", sorted.front()},
               {"median", percentile(sorted, 50)},
               {"p90", percentile(sorted, 90)},
               {"p99", percentile(sorted, 99)},
               {"mean", mean},
               {"max", sorted.back()}};
  std::printf("%s: target %s, %llu runs after %llu warm-up, %d thread%s%s\n",
              modelPath.c_str(), fuseModelTarget(model.get()),
              (unsigned long long)runs, (unsigned long long)warmup,
              int(callThreads), callThreads == 1 ? "" : "s",
              cpu ? ""
                  : ", host buffers (each run copies the inputs to the "
                    "device and the outputs back)");
  for (const auto &stat : stats)
    std::printf("  %-6s %10.3f ms\n", stat.name, stat.value);
  // Per kernel: the median of its times, slowest first.
  std::vector<std::pair<double, int32_t>> byTime;
  double kernelTotal = 0;
  for (int32_t k = 0; k < kernels; ++k) {
    std::vector<double> &list = kernelTimes[size_t(k)];
    std::sort(list.begin(), list.end());
    byTime.push_back({percentile(list, 50), k});
    kernelTotal += byTime.back().first;
  }
  std::sort(byTime.begin(), byTime.end(),
            [](auto &a, auto &b) { return a.first > b.first; });
  if (kernels)
    std::printf("kernels (median ms of each, slowest first; their sum %.3f "
                "ms):\n",
                kernelTotal);
  for (auto [ms, k] : byTime) {
    FuseKernelInfo kernel;
    fuseModelKernel(model.get(), k, &kernel);
    std::printf("  %10.3f ms %5.1f%%  %s%s%s%s  %s\n", ms,
                kernelTotal > 0 ? 100.0 * ms / kernelTotal : 0.0, kernel.name,
                *kernel.rule ? " (" : "", kernel.rule, *kernel.rule ? ")" : "",
                kernel.nodes);
  }
  if (!jsonPath.empty()) {
    FILE *out = std::fopen(jsonPath.c_str(), "w");
    if (!out)
      return fail("cannot write '" + jsonPath + "': " + std::strerror(errno));
    std::fprintf(out,
                 "{\"model\": \"%s\", \"target\": \"%s\", \"runs\": %llu, "
                 "\"warmup\": %llu, \"threads\": %d, \"unit\": \"ms\"",
                 fileNameOf(modelPath).c_str(), fuseModelTarget(model.get()),
                 (unsigned long long)runs, (unsigned long long)warmup,
                 int(callThreads));
    for (const auto &stat : stats)
      std::fprintf(out, ", \"%s\": %.6f", stat.name, stat.value);
    std::fprintf(out, ", \"kernels\": [");
    for (int32_t k = 0; k < kernels; ++k) {
      FuseKernelInfo kernel;
      fuseModelKernel(model.get(), k, &kernel);
      std::fprintf(out, "%s{\"name\": \"%s\", \"median_ms\": %.6f}",
                   k ? ", " : "", fileNameOf(kernel.name).c_str(),
                   percentile(kernelTimes[size_t(k)], 50));
    }
    std::fprintf(out, "]");
    std::fprintf(out, "}\n");
    if (std::fclose(out) != 0)
      return fail("cannot write '" + jsonPath + "'");
  }
  return 0;
}
