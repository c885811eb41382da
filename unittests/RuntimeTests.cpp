//===- RuntimeTests.cpp - the compiled-model runtime's C API --------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// GoogleTest over include/fuse-c/Runtime.h, on the libraries that
// test/Runtime/runtime-api.test compiles into $FUSE_TEST_MODELS:
//   api.so        test/Runtime/Inputs/api-model.mlir (y = relu(x + bias),
//                 row_sum = the rows' sums), a planned workspace;
//   version2.so   the same with ABI version 2;
//   nosig.so      a shared library without fuse's symbols;
//   api-profiled.so  api.so compiled with --profile;
//   parallel.so   test/Runtime/Inputs/parallel-model.mlir (y = relu(x . w +
//                 b)), whose loops run on the runtime's threads.
// Every error path returns a status whose message names the problem.
//
//===----------------------------------------------------------------------===//

#include "fuse-c/Runtime.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

namespace {

std::string modelDir() {
  const char *dir = std::getenv("FUSE_TEST_MODELS");
  return dir ? dir : ".";
}

std::string path(const std::string &name) { return modelDir() + "/" + name; }

/// The status's message (freed); "" for success.
std::string take(FuseStatus status) {
  std::string text = fuseStatusMessage(status);
  fuseStatusFree(status);
  return text;
}

/// A status expected to fail with `code` and a message containing `text`.
void expectError(FuseStatus status, FuseStatusCode code,
                 const std::string &text) {
  ASSERT_NE(status, nullptr) << "expected: " << text;
  EXPECT_EQ(fuseStatusCode(status), code) << fuseStatusMessage(status);
  EXPECT_NE(std::string(fuseStatusMessage(status)).find(text),
            std::string::npos)
      << "message: " << fuseStatusMessage(status) << "\nexpected: " << text;
  fuseStatusFree(status);
}

struct Model {
  FuseModel *model = nullptr;
  explicit Model(const std::string &name) {
    FuseStatus status = fuseModelLoad(path(name).c_str(), &model);
    EXPECT_EQ(status, nullptr) << take(status);
  }
  ~Model() { fuseModelRelease(model); }
};

const int64_t kXDims[] = {2, 3};
const int64_t kBiasDims[] = {3};
const int64_t kSumDims[] = {2};

/// Inputs, outputs and the expected results of api.so.
struct Call {
  float x[6] = {1, -2, 3, -4, 5, -6};
  float bias[3] = {0.5f, 1, -1};
  float y[6] = {};
  float sum[2] = {};
  FuseTensor inputs[2] = {{x, FUSE_DTYPE_F32, 2, kXDims},
                          {bias, FUSE_DTYPE_F32, 1, kBiasDims}};
  FuseTensor outputs[2] = {{y, FUSE_DTYPE_F32, 2, kXDims},
                           {sum, FUSE_DTYPE_F32, 1, kSumDims}};
  FuseStatus run(FuseModel *model, const FuseRunOptions *options = nullptr) {
    return fuseModelRun(model, inputs, 2, outputs, 2, options);
  }
  void check() const {
    const float expectY[6] = {1.5f, 0, 2, 0, 6, 0};
    for (int i = 0; i < 6; ++i)
      EXPECT_EQ(y[i], expectY[i]) << "y[" << i << "]";
    EXPECT_EQ(sum[0], 3.5f);
    EXPECT_EQ(sum[1], 6.0f);
    const float originalX[6] = {1, -2, 3, -4, 5, -6};
    for (int i = 0; i < 6; ++i)
      EXPECT_EQ(x[i], originalX[i]) << "the input x changed at " << i;
  }
};

TEST(RuntimeApi, LoadQueryRun) {
  Model m("api.so");
  ASSERT_NE(m.model, nullptr);
  EXPECT_STREQ(fuseModelTarget(m.model), "cpu");
  ASSERT_EQ(fuseModelNumInputs(m.model), 2);
  ASSERT_EQ(fuseModelNumOutputs(m.model), 2);
  FuseTensorInfo info;
  ASSERT_EQ(fuseModelInput(m.model, 0, &info), nullptr);
  EXPECT_STREQ(info.name, "x");
  EXPECT_EQ(info.dtype, FUSE_DTYPE_F32);
  ASSERT_EQ(info.rank, 2);
  EXPECT_EQ(info.dims[0], 2);
  EXPECT_EQ(info.dims[1], 3);
  EXPECT_EQ(info.num_elements, 6);
  EXPECT_EQ(info.bytes, 24u);
  ASSERT_EQ(fuseModelOutput(m.model, 1, &info), nullptr);
  EXPECT_STREQ(info.name, "row_sum");
  EXPECT_GT(fuseModelWorkspaceSize(m.model), 0u);
  EXPECT_EQ(fuseModelIsReentrant(m.model), 1);

  Call call;
  ASSERT_EQ(call.run(m.model), nullptr);
  call.check();

  // The caller's workspace.
  std::vector<char> memory(fuseModelWorkspaceSize(m.model) + 64);
  void *aligned = reinterpret_cast<void *>(
      (reinterpret_cast<uintptr_t>(memory.data()) + 63) / 64 * 64);
  FuseRunOptions options = {
      sizeof(FuseRunOptions),          FUSE_MEMORY_HOST, nullptr, aligned,
      fuseModelWorkspaceSize(m.model), nullptr,          0};
  Call again;
  ASSERT_EQ(again.run(m.model, &options), nullptr);
  again.check();
}

TEST(RuntimeApi, KernelsAndProfile) {
  Model plain("api.so");
  Model profiled("api-profiled.so");
  ASSERT_NE(plain.model, nullptr);
  ASSERT_NE(profiled.model, nullptr);
  EXPECT_EQ(fuseModelIsProfiled(plain.model), 0);
  EXPECT_EQ(fuseModelIsProfiled(profiled.model), 1);
  ASSERT_EQ(fuseModelNumKernels(plain.model), 2);
  FuseKernelInfo kernel;
  ASSERT_EQ(fuseModelKernel(plain.model, 0, &kernel), nullptr);
  EXPECT_STREQ(kernel.name, "api__group0");
  ASSERT_EQ(fuseModelKernel(plain.model, 1, &kernel), nullptr);
  EXPECT_STREQ(kernel.name, "api__group1");
  EXPECT_STREQ(kernel.rule, "contraction_row_epilogue");
  expectError(fuseModelKernel(plain.model, 2, &kernel),
              FUSE_STATUS_INVALID_ARGUMENT,
              "kernel 2: the model has 2 kernels");
  expectError(fuseModelKernel(plain.model, 0, nullptr),
              FUSE_STATUS_INVALID_ARGUMENT, "must not be NULL");

  double times[2] = {-1, -1};
  FuseRunOptions options = {
      sizeof(FuseRunOptions), FUSE_MEMORY_HOST, nullptr, nullptr, 0, times, 0};
  Call refused;
  expectError(refused.run(plain.model, &options), FUSE_STATUS_INVALID_ARGUMENT,
              "compile it with fuse-compile --profile");
  // Timed: each kernel's time is filled in, together no longer than the
  // whole call.
  Call call;
  auto start = std::chrono::steady_clock::now();
  ASSERT_EQ(call.run(profiled.model, &options), nullptr);
  double wall = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - start)
                    .count();
  call.check();
  EXPECT_GE(times[0], 0.0);
  EXPECT_GE(times[1], 0.0);
  EXPECT_LE(times[0] + times[1], wall);
  // Without kernel_ms a profiled model runs as any other.
  Call quiet;
  ASSERT_EQ(quiet.run(profiled.model), nullptr);
  quiet.check();
}

TEST(RuntimeApi, QueryErrors) {
  Model m("api.so");
  FuseTensorInfo info;
  expectError(fuseModelInput(m.model, 2, &info), FUSE_STATUS_INVALID_ARGUMENT,
              "input 2: the model has 2 inputs");
  expectError(fuseModelOutput(m.model, -1, &info), FUSE_STATUS_INVALID_ARGUMENT,
              "output -1: the model has 2");
  expectError(fuseModelInput(m.model, 0, nullptr), FUSE_STATUS_INVALID_ARGUMENT,
              "must not be NULL");
  expectError(fuseModelInput(nullptr, 0, &info), FUSE_STATUS_INVALID_ARGUMENT,
              "must not be NULL");
  EXPECT_EQ(fuseModelNumInputs(nullptr), 0);
  EXPECT_EQ(fuseModelWorkspaceSize(nullptr), 0u);
  EXPECT_STREQ(fuseDTypeName(FuseDType(99)), "invalid");
  EXPECT_EQ(fuseDTypeSize(FUSE_DTYPE_BF16), 2u);
  EXPECT_STREQ(fuseStatusCodeName(FUSE_STATUS_VERSION_MISMATCH),
               "version mismatch");
  EXPECT_STREQ(fuseStatusMessage(nullptr), "");
  fuseStatusFree(nullptr);
  fuseModelRelease(nullptr);
}

TEST(RuntimeApi, RunErrors) {
  Model m("api.so");
  ASSERT_NE(m.model, nullptr);
  {
    Call call;
    expectError(fuseModelRun(nullptr, call.inputs, 2, call.outputs, 2, nullptr),
                FUSE_STATUS_INVALID_ARGUMENT, "the model must not be NULL");
    expectError(fuseModelRun(m.model, call.inputs, 1, call.outputs, 2, nullptr),
                FUSE_STATUS_INVALID_ARGUMENT,
                "1 inputs and 2 outputs given, the model has 2 and 2");
    expectError(fuseModelRun(m.model, nullptr, 2, call.outputs, 2, nullptr),
                FUSE_STATUS_INVALID_ARGUMENT, "the inputs array is NULL");
    expectError(fuseModelRun(m.model, call.inputs, 2, nullptr, 2, nullptr),
                FUSE_STATUS_INVALID_ARGUMENT, "the outputs array is NULL");
  }
  {
    Call call;
    const int64_t wrong[] = {3, 2};
    call.inputs[0].dims = wrong;
    expectError(call.run(m.model), FUSE_STATUS_INVALID_ARGUMENT,
                "input 0 ('x'): shape 3x2 given, the model's is 2x3");
  }
  {
    Call call;
    call.outputs[1].rank = 2;
    call.outputs[1].dims = kXDims;
    expectError(call.run(m.model), FUSE_STATUS_INVALID_ARGUMENT,
                "output 1 ('row_sum'): shape 2x3 given, the model's is 2");
  }
  {
    Call call;
    call.inputs[1].dims = nullptr;
    expectError(call.run(m.model), FUSE_STATUS_INVALID_ARGUMENT,
                "input 1 ('bias'): shape rank 1 without dims given");
  }
  {
    Call call;
    call.inputs[1].dtype = FUSE_DTYPE_F64;
    expectError(call.run(m.model), FUSE_STATUS_INVALID_ARGUMENT,
                "input 1 ('bias'): element type f64 given, the model's is f32");
    // Any code a C caller stores (found by runtime-api-fuzzer: read as the
    // C++ enum, a code outside the enumerators was undefined behaviour).
    int32_t code = -4;
    std::memcpy(&call.inputs[1].dtype, &code, sizeof(code));
    expectError(call.run(m.model), FUSE_STATUS_INVALID_ARGUMENT,
                "input 1 ('bias'): element type code -4 given, the model's is "
                "f32");
    FuseRunOptions options = {};
    options.struct_size = sizeof(FuseRunOptions);
    code = 7;
    std::memcpy(&options.memory, &code, sizeof(code));
    Call other;
    expectError(other.run(m.model, &options), FUSE_STATUS_INVALID_ARGUMENT,
                "memory kind 7 given");
  }
  {
    Call call;
    call.outputs[0].data = nullptr;
    expectError(call.run(m.model), FUSE_STATUS_INVALID_ARGUMENT,
                "output 0 ('y'): the data pointer is NULL");
  }
  {
    Call call;
    call.inputs[0].data = reinterpret_cast<char *>(call.x) + 2;
    expectError(call.run(m.model), FUSE_STATUS_INVALID_ARGUMENT,
                "is not aligned to its element size (4 bytes)");
  }
  {
    Call call;
    call.outputs[0].data = call.x;
    expectError(call.run(m.model), FUSE_STATUS_INVALID_ARGUMENT,
                "output 0 ('y') overlaps input 0 ('x')");
    call.outputs[0].data = call.y;
    call.outputs[1].data = call.y + 4;
    expectError(call.run(m.model), FUSE_STATUS_INVALID_ARGUMENT,
                "output 1 ('row_sum') overlaps output 0 ('y')");
  }
  {
    Call call;
    FuseRunOptions options = {sizeof(FuseRunOptions),
                              FUSE_MEMORY_DEVICE,
                              nullptr,
                              nullptr,
                              0,
                              nullptr,
                              0};
    expectError(call.run(m.model, &options), FUSE_STATUS_INVALID_ARGUMENT,
                "a cpu model runs on host memory");
    options.memory = FUSE_MEMORY_HOST;
    int stream;
    options.stream = &stream;
    expectError(call.run(m.model, &options), FUSE_STATUS_INVALID_ARGUMENT,
                "a cpu model takes no stream");
    options.stream = nullptr;
    options.struct_size = 8;
    expectError(call.run(m.model, &options), FUSE_STATUS_INVALID_ARGUMENT,
                "options.struct_size is 8");
  }
  {
    Call call;
    alignas(64) static char small[64];
    FuseRunOptions options = {
        sizeof(FuseRunOptions), FUSE_MEMORY_HOST, nullptr, small,
        sizeof(small),          nullptr,          0};
    if (fuseModelWorkspaceSize(m.model) > sizeof(small))
      expectError(call.run(m.model, &options), FUSE_STATUS_INVALID_ARGUMENT,
                  "the workspace has 64 bytes, the model needs");
    std::vector<char> big(fuseModelWorkspaceSize(m.model) + 128);
    char *misaligned = reinterpret_cast<char *>(
        (reinterpret_cast<uintptr_t>(big.data()) + 63) / 64 * 64 + 8);
    options.workspace = misaligned;
    options.workspace_bytes = fuseModelWorkspaceSize(m.model);
    expectError(call.run(m.model, &options), FUSE_STATUS_INVALID_ARGUMENT,
                "is not aligned to 64 bytes");
  }
  // None of the refused calls wrote anything.
  Call call;
  ASSERT_EQ(call.run(m.model), nullptr);
  call.check();
}

/// Writes `bytes` to a file in the test's directory and returns its path.
std::string writeFile(const std::string &name, const std::string &bytes) {
  std::string file = path(name);
  std::ofstream out(file, std::ios::binary);
  out << bytes;
  return file;
}

std::string readFile(const std::string &file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void expectLoadError(const std::string &file, FuseStatusCode code,
                     const std::string &text) {
  FuseModel *model = reinterpret_cast<FuseModel *>(1);
  expectError(fuseModelLoad(file.c_str(), &model), code, text);
  EXPECT_EQ(model, nullptr);
}

TEST(RuntimeApi, LoadErrors) {
  expectError(fuseModelLoad(path("api.so").c_str(), nullptr),
              FUSE_STATUS_INVALID_ARGUMENT,
              "the model pointer must not be NULL");
  expectLoadError("", FUSE_STATUS_INVALID_ARGUMENT, "no path given");
  expectLoadError(path("missing.so"), FUSE_STATUS_NOT_FOUND,
                  "cannot open the model");
  expectLoadError(modelDir(), FUSE_STATUS_INVALID_MODEL,
                  "is not a regular file");
  std::string fifo = path("pipe.so");
  unlink(fifo.c_str());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  expectLoadError(fifo, FUSE_STATUS_INVALID_MODEL, "is not a regular file");
  expectLoadError(writeFile("empty.so", ""), FUSE_STATUS_INVALID_MODEL,
                  "too short for an ELF file");
  expectLoadError(writeFile("text.so", std::string(200, 'x')),
                  FUSE_STATUS_INVALID_MODEL, "not an ELF file");

  std::string good = readFile(path("api.so"));
  ASSERT_GT(good.size(), 4096u);
  // Truncated: the section headers (at the end) are gone.
  expectLoadError(writeFile("truncated.so", good.substr(0, good.size() / 2)),
                  FUSE_STATUS_INVALID_MODEL,
                  "section headers are missing or truncated");
  // Another machine.
  std::string foreign = good;
  foreign[18] = char(0xb7); // EM_AARCH64 / EM_X86_64 swapped
  foreign[19] = 0;
  if (foreign.compare(18, 2, good, 18, 2) != 0)
    expectLoadError(writeFile("foreign.so", foreign), FUSE_STATUS_INVALID_MODEL,
                    "is built for another machine");
  // A 32-bit ELF header.
  std::string narrow = good;
  narrow[4] = 1;
  expectLoadError(writeFile("narrow.so", narrow), FUSE_STATUS_INVALID_MODEL,
                  "not a 64-bit little-endian ELF file");
  // Random bytes over the whole file after the header: refused, or (if
  // the symbol table survives) loaded; never a crash.
  std::string damaged = good;
  unsigned state = 12345;
  for (size_t i = 64; i < damaged.size(); i += 7) {
    state = state * 1103515245 + 12345;
    damaged[i] = char(state >> 16);
  }
  FuseModel *model = nullptr;
  FuseStatus status =
      fuseModelLoad(writeFile("damaged.so", damaged).c_str(), &model);
  EXPECT_NE(status, nullptr);
  take(status);
  fuseModelRelease(model);

  expectLoadError(path("nosig.so"), FUSE_STATUS_INVALID_MODEL,
                  "it exports no fuse_model_abi_version");
  expectLoadError(path("version2.so"), FUSE_STATUS_VERSION_MISMATCH,
                  "has ABI version 2; this runtime runs version 1");
}

TEST(RuntimeApi, TwoModelsAndThreads) {
  Model first("api.so");
  Model second("api.so");
  ASSERT_NE(first.model, nullptr);
  ASSERT_NE(second.model, nullptr);
  size_t bytes = fuseModelWorkspaceSize(first.model);
  // Threads on one model, each with its own workspace, and on the other
  // model with runtime-allocated workspaces; every result as one run's.
  std::vector<std::thread> threads;
  std::vector<int> failures(8, 0);
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      FuseModel *model = t % 2 ? first.model : second.model;
      void *workspace = std::aligned_alloc(64, (bytes + 63) / 64 * 64);
      FuseRunOptions options = {sizeof(FuseRunOptions),
                                FUSE_MEMORY_HOST,
                                nullptr,
                                workspace,
                                bytes,
                                nullptr,
                                0};
      for (int i = 0; i < 200; ++i) {
        Call call;
        call.x[0] = float(t + i);
        FuseStatus status = call.run(model, t % 4 < 2 ? &options : nullptr);
        if (status || call.y[0] != float(t + i) + 0.5f ||
            call.sum[0] != float(t + i) + 0.5f + 2.0f)
          ++failures[size_t(t)];
        fuseStatusFree(status);
      }
      std::free(workspace);
    });
  for (std::thread &thread : threads)
    thread.join();
  for (int t = 0; t < 8; ++t)
    EXPECT_EQ(failures[size_t(t)], 0) << "thread " << t;
}

TEST(RuntimeApi, ParallelLoops) {
  Model small("api.so");
  ASSERT_NE(small.model, nullptr);
  EXPECT_EQ(fuseModelIsParallel(small.model), 0) << "loops too small";
  Model m("parallel.so");
  ASSERT_NE(m.model, nullptr);
  EXPECT_EQ(fuseModelIsParallel(m.model), 1);
  EXPECT_GE(fuseRuntimeDefaultThreads(), 1);

  const int64_t xDims[] = {64, 256}, wDims[] = {256, 128}, bDims[] = {128},
                yDims[] = {64, 128};
  std::vector<float> x(64 * 256), w(256 * 128), b(128);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = float(int(i * 7 % 23) - 11) / 8.0f;
  for (size_t i = 0; i < w.size(); ++i)
    w[i] = float(int(i * 5 % 19) - 9) / 16.0f;
  for (size_t i = 0; i < b.size(); ++i)
    b[i] = float(int(i % 5) - 2);
  FuseTensor inputs[3] = {{x.data(), FUSE_DTYPE_F32, 2, xDims},
                          {w.data(), FUSE_DTYPE_F32, 2, wDims},
                          {b.data(), FUSE_DTYPE_F32, 1, bDims}};
  auto run = [&](int32_t threads, std::vector<float> &y,
                 size_t structSize = sizeof(FuseRunOptions)) {
    y.assign(64 * 128, -1.0f);
    FuseTensor output = {y.data(), FUSE_DTYPE_F32, 2, yDims};
    FuseRunOptions options = {};
    options.struct_size = structSize;
    options.memory = FUSE_MEMORY_HOST;
    options.threads = threads;
    return fuseModelRun(m.model, inputs, 3, &output, 1, &options);
  };

  // One thread against a plain computation (the inputs are exact in
  // binary, the sums of at most 256 terms of 1/128ths exact too).
  std::vector<float> one;
  ASSERT_EQ(run(1, one), nullptr);
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 128; ++j) {
      double sum = b[size_t(j)];
      for (int k = 0; k < 256; ++k)
        sum += double(x[size_t(i * 256 + k)]) * double(w[size_t(k * 128 + j)]);
      ASSERT_EQ(one[size_t(i * 128 + j)], float(std::max(sum, 0.0)))
          << "y[" << i << ", " << j << "]";
    }
  // Any thread count: the same bits (every iteration writes its own
  // elements; no sum is split).
  for (int32_t threads : {2, 3, 7, 64}) {
    std::vector<float> y;
    ASSERT_EQ(run(threads, y), nullptr);
    EXPECT_EQ(std::memcmp(y.data(), one.data(), one.size() * sizeof(float)), 0)
        << threads << " threads";
  }
  // The default (0), and a caller built before `threads` existed.
  std::vector<float> byDefault, older;
  ASSERT_EQ(run(0, byDefault), nullptr);
  EXPECT_EQ(byDefault, one);
  ASSERT_EQ(run(5, older, offsetof(FuseRunOptions, threads)), nullptr);
  EXPECT_EQ(older, one);
  // Concurrent calls share the pool.
  std::vector<std::thread> callers;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t)
    callers.emplace_back([&, t] {
      for (int i = 0; i < 25; ++i) {
        std::vector<float> y;
        FuseStatus status = run(2 + t % 2, y);
        if (status || y != one)
          ++failures[size_t(t)];
        fuseStatusFree(status);
      }
    });
  for (std::thread &caller : callers)
    caller.join();
  for (int t = 0; t < 4; ++t)
    EXPECT_EQ(failures[size_t(t)], 0) << "caller " << t;

  std::vector<float> y;
  expectError(run(-1, y), FUSE_STATUS_INVALID_ARGUMENT,
              "options.threads is -1; give 0 (the default");
  expectError(run(1025, y), FUSE_STATUS_INVALID_ARGUMENT,
              "options.threads is 1025");

  // A CPU model has no CUDA graph to run; a caller built before the field
  // (API 1.1's struct) gets none.
  {
    std::vector<float> y2(64 * 128, -1.0f);
    FuseTensor output = {y2.data(), FUSE_DTYPE_F32, 2, yDims};
    FuseRunOptions options = {};
    options.struct_size = sizeof(FuseRunOptions);
    options.memory = FUSE_MEMORY_HOST;
    options.cuda_graph = 1;
    expectError(fuseModelRun(m.model, inputs, 3, &output, 1, &options),
                FUSE_STATUS_INVALID_ARGUMENT,
                "options.cuda_graph asks for a CUDA graph, but a cpu model "
                "has no GPU launches");
    options.struct_size = offsetof(FuseRunOptions, cuda_graph);
    ASSERT_EQ(fuseModelRun(m.model, inputs, 3, &output, 1, &options), nullptr);
    EXPECT_EQ(y2, one);
  }
}

} // namespace
