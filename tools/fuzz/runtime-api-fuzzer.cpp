//===- runtime-api-fuzzer.cpp - libFuzzer: fuseModelRun's arguments -------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// The C API's argument checking (include/fuse-c/Runtime.h) on any call a
// careless or hostile caller can make: the bytes choose a model (two
// compiled CPU models from $FUSE_FUZZ_MODELS: api.so, a small one, and
// parallel.so, whose loops run on the runtime's threads), the counts, each
// tensor's data pointer (NULL, aligned, misaligned, overlapping another),
// element type, rank and dims (NULL dims included), and the options
// (NULL, any struct_size, memory kind, stream, workspace and its size and
// alignment, kernel times, thread count). Every call must return a status
// (or succeed on buffers that fit) and never crash; the sanitizers check
// every byte the runtime and the model touch. Also the queries with bad
// indices and NULL arguments.
//
//===----------------------------------------------------------------------===//

#include "fuse-c/Runtime.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

/// The fuzz input, read a byte (or a few) at a time; zeros past its end.
struct Bytes {
  const uint8_t *data;
  size_t size, at = 0;
  uint8_t next() { return at < size ? data[at++] : 0; }
  int64_t wide() {
    uint64_t value = 0;
    for (int i = 0; i < 8; ++i)
      value = value << 8 | next();
    return int64_t(value);
  }
};

FuseModel *models[2];

/// The memory every pointer points into: large enough for the largest
/// tensor of either model at any of the offsets used below.
constexpr size_t kArena = 4 << 20;
alignas(64) uint8_t arena[kArena];
/// A caller's workspace, apart from the tensors.
constexpr size_t kWorkspace = 1 << 20;
alignas(64) uint8_t workspace[kWorkspace];

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  const char *dir = std::getenv("FUSE_FUZZ_MODELS");
  if (!dir) {
    std::fprintf(stderr, "runtime-api-fuzzer: set FUSE_FUZZ_MODELS to a "
                         "directory with api.so and parallel.so\n");
    std::exit(2);
  }
  const char *names[2] = {"api.so", "parallel.so"};
  for (int m = 0; m < 2; ++m) {
    std::string path = std::string(dir) + "/" + names[m];
    if (FuseStatus status = fuseModelLoad(path.c_str(), &models[m])) {
      std::fprintf(stderr, "runtime-api-fuzzer: %s\n",
                   fuseStatusMessage(status));
      std::exit(2);
    }
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Bytes in{data, size};
  FuseModel *model = models[in.next() % 2];

  // Queries with any index, and NULL.
  FuseTensorInfo info;
  fuseStatusFree(fuseModelInput(model, int8_t(in.next()), &info));
  fuseStatusFree(fuseModelOutput(model, int8_t(in.next()), nullptr));
  FuseKernelInfo kernel;
  fuseStatusFree(fuseModelKernel(model, int8_t(in.next()), &kernel));

  // Tensors: by default each as the model describes it, in its own part of
  // the arena; the bytes change what they choose to.
  int32_t numInputs = fuseModelNumInputs(model);
  int32_t numOutputs = fuseModelNumOutputs(model);
  auto count = [&](int32_t real) {
    uint8_t choice = in.next();
    return choice < 200 ? real : int32_t(choice % 9) - 2;
  };
  int32_t givenInputs = count(numInputs), givenOutputs = count(numOutputs);
  std::vector<FuseTensor> tensors(16);
  std::vector<std::vector<int64_t>> dims(16);
  size_t slot = kArena / 16;
  for (int32_t k = 0; k < 16; ++k) {
    bool input = k < 8;
    int32_t index = input ? k : k - 8;
    FuseTensor &t = tensors[size_t(k)];
    FuseTensorInfo port;
    bool real =
        index < (input ? numInputs : numOutputs) &&
        !(input ? fuseModelInput : fuseModelOutput)(model, index, &port);
    uint8_t how = in.next();
    t.data = arena + size_t(k) * slot;
    t.dtype = real ? port.dtype : FUSE_DTYPE_F32;
    dims[size_t(k)] =
        real ? std::vector<int64_t>(port.dims, port.dims + port.rank)
             : std::vector<int64_t>{1};
    if (how & 1)
      t.data = nullptr;
    if (how & 2)
      t.data = arena + size_t(k) * slot + 1 + in.next() % 7; // misaligned
    if (how & 4)
      t.data = arena + size_t(in.next() % 16) * slot; // maybe another's
    if (how & 8) {
      // Any code a C caller can store, through memory (as a C caller's).
      int32_t code = int8_t(in.next()) % 12;
      std::memcpy(&t.dtype, &code, sizeof(code));
    }
    if (how & 16) {
      size_t rank = in.next() % 10;
      dims[size_t(k)].assign(rank, 0);
      for (int64_t &d : dims[size_t(k)])
        d = (in.next() & 1) ? in.wide() : int64_t(in.next());
    }
    t.rank = int32_t(dims[size_t(k)].size());
    if (how & 32)
      t.rank = int32_t(int8_t(in.next()));
    t.dims = (how & 64) ? nullptr : dims[size_t(k)].data();
    if (t.rank > int32_t(dims[size_t(k)].size()) && t.dims)
      t.rank = int32_t(dims[size_t(k)].size()); // the caller's own bug
  }

  // Options.
  FuseRunOptions options = {};
  options.struct_size = sizeof(FuseRunOptions);
  options.memory = FUSE_MEMORY_HOST;
  uint8_t how = in.next();
  if (how & 1)
    options.struct_size = size_t(in.next()) % (sizeof(FuseRunOptions) + 16);
  if (how & 2) {
    int32_t code = int8_t(in.next()) % 4;
    std::memcpy(&options.memory, &code, sizeof(code));
  }
  if (how & 4)
    options.stream = arena;
  size_t workspaceBytes = fuseModelWorkspaceSize(model);
  std::vector<double> times(size_t(fuseModelNumKernels(model)) + 1);
  if (how & 8) {
    // Aligned or not; its size as the model's, or any.
    options.workspace = workspace + size_t(in.next() % 4) * 16;
    options.workspace_bytes =
        (in.next() & 1) ? size_t(in.wide()) : workspaceBytes;
    if (options.workspace_bytes > kWorkspace - 64)
      options.workspace_bytes = workspaceBytes; // the caller's own bug
  }
  if (how & 16)
    options.kernel_ms = times.data();
  if (how & 32)
    options.threads = int32_t(in.wide() % 2048);
  else
    options.threads = in.next() % 4;

  FuseStatus status =
      fuseModelRun(model, (how & 64) ? nullptr : tensors.data(), givenInputs,
                   (how & 128) ? nullptr : tensors.data() + 8, givenOutputs,
                   (in.next() & 1) ? nullptr : &options);
  if (status) {
    // A failure names its problem.
    if (std::strlen(fuseStatusMessage(status)) == 0 ||
        fuseStatusCode(status) == FUSE_STATUS_OK)
      std::abort();
    fuseStatusFree(status);
  }
  return 0;
}
