//===- ModelRuntime.cpp - loading and running compiled models -------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// The C API of include/fuse-c/Runtime.h. A compiled model is checked from
// its file before the dynamic loader maps it: an ELF shared library for
// this machine whose dynamic symbol table defines the symbols of
// include/fuse-c/ModelAbi.h, of this ABI version, with a signature that
// parses. Every failure is a status with a message; nothing exits.
//
//===----------------------------------------------------------------------===//

#include "ModelFile.h"
#include "ThreadPool.h"
#include "fuse-c/ModelAbi.h"
#include "fuse-c/Runtime.h"

#include <dlfcn.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

using namespace fuse::runtime;

namespace {

using RunFn = int32_t (*)(void *const *, void *const *, void *);
using ParallelHook = void (*)(ParallelTask, void *, int64_t, int64_t);

/// FuseRunOptions as API version 1.0 had it (before `threads`).
constexpr size_t kRunOptionsV1Size = offsetof(FuseRunOptions, threads);

/// libfuse_cuda_runtime, loaded (globally: a GPU model's mgpu* symbols
/// resolve against it) for the first GPU model.
struct CudaRuntime {
  void (*recordErrors)(int) = nullptr;
  int (*takeError)(char *, size_t) = nullptr;
  void (*useStream)(void *) = nullptr;
  void *(*deviceMalloc)(uint64_t) = nullptr;
  void (*deviceFree)(void *) = nullptr;
  /// CUDA graphs (null in a CUDA runtime built before them).
  void (*beginCapture)() = nullptr;
  void *(*endCapture)() = nullptr;
  void (*launchGraph)(void *) = nullptr;
  void (*destroyGraph)(void *) = nullptr;
  /// Host staging (null in a CUDA runtime built before it).
  void (*copy)(void *, const void *, size_t) = nullptr;
  /// GPU calls run one at a time: the CUDA runtime's error state is the
  /// process's.
  std::mutex calls;
};

/// The CUDA runtime, or null with `why` set.
CudaRuntime *cudaRuntime(std::string &why) {
  static std::mutex lock;
  static CudaRuntime *runtime = nullptr;
  static std::string failure;
  std::lock_guard<std::mutex> guard(lock);
  if (runtime || !failure.empty()) {
    why = failure;
    return runtime;
  }
  std::string path;
  if (const char *env = std::getenv("FUSE_CUDA_RUNTIME_LIB"); env && *env) {
    path = env;
  } else {
    Dl_info info;
    if (dladdr(reinterpret_cast<void *>(&fuseModelLoad), &info) &&
        info.dli_fname) {
      path = info.dli_fname;
      size_t slash = path.rfind('/');
      path = (slash == std::string::npos ? std::string(".")
                                         : path.substr(0, slash)) +
             "/libfuse_cuda_runtime.so";
    }
  }
  void *handle =
      path.empty() ? nullptr : dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!handle) {
    const char *error = dlerror();
    failure = "this runtime cannot run GPU models: fuse's CUDA runtime '" +
              path + "' does not load (" + (error ? error : "not found") +
              "; fuse built without the CUDA toolkit? FUSE_CUDA_RUNTIME_LIB "
              "names another)";
    why = failure;
    return nullptr;
  }
  auto *loaded = new (std::nothrow) CudaRuntime;
  if (!loaded) {
    why = "out of memory";
    return nullptr;
  }
  loaded->recordErrors =
      reinterpret_cast<void (*)(int)>(dlsym(handle, "fuseCudaRecordErrors"));
  loaded->takeError = reinterpret_cast<int (*)(char *, size_t)>(
      dlsym(handle, "fuseCudaTakeError"));
  loaded->useStream =
      reinterpret_cast<void (*)(void *)>(dlsym(handle, "fuseCudaUseStream"));
  loaded->deviceMalloc =
      reinterpret_cast<void *(*)(uint64_t)>(dlsym(handle, "fuseDeviceMalloc"));
  loaded->deviceFree =
      reinterpret_cast<void (*)(void *)>(dlsym(handle, "fuseDeviceFree"));
  loaded->beginCapture =
      reinterpret_cast<void (*)()>(dlsym(handle, "fuseCudaBeginCapture"));
  loaded->endCapture =
      reinterpret_cast<void *(*)()>(dlsym(handle, "fuseCudaEndCapture"));
  loaded->launchGraph =
      reinterpret_cast<void (*)(void *)>(dlsym(handle, "fuseCudaLaunchGraph"));
  loaded->destroyGraph =
      reinterpret_cast<void (*)(void *)>(dlsym(handle, "fuseCudaDestroyGraph"));
  loaded->copy = reinterpret_cast<void (*)(void *, const void *, size_t)>(
      dlsym(handle, "fuseCudaCopy"));
  if (!loaded->recordErrors || !loaded->takeError || !loaded->useStream ||
      !loaded->deviceMalloc || !loaded->deviceFree) {
    delete loaded;
    failure = "fuse's CUDA runtime '" + path +
              "' is another version (it lacks fuseCudaRecordErrors and its "
              "companions)";
    why = failure;
    return nullptr;
  }
  loaded->recordErrors(1);
  runtime = loaded;
  return runtime;
}

/// The CUDA runtime's recorded error, taken; "" when none.
std::string takeCudaError(CudaRuntime *cuda) {
  char message[2048];
  if (!cuda->takeError(message, sizeof(message)))
    return "";
  return message;
}

} // namespace

struct FuseModel {
  void *handle = nullptr;
  RunFn run = nullptr;
  /// A GPU model's: the CUDA runtime, and the model's kernel unloading.
  CudaRuntime *cuda = nullptr;
  void (*fini)() = nullptr;
  Signature signature;
  std::mutex serial;
  /// options.cuda_graph: the executable graph of the last captured call,
  /// the pointers (inputs, outputs, workspace, stream) it was captured
  /// with, and the model's own device workspace for such calls (a stable
  /// address, so that a graph can be replayed). Guarded by the CUDA
  /// runtime's call lock.
  void *graphExec = nullptr;
  std::vector<void *> graphPointers;
  void *graphWorkspace = nullptr;
  /// Whether a GPU call has run: the first one uploads the weights and
  /// sets kernel attributes, which a capture must not record.
  bool ranOnGpu = false;
};

namespace {

/// The kernel times of the call running on this thread (fuseModelRun with
/// options->kernel_ms), or null.
struct ProfiledCall {
  double *times;
  int32_t kernels;
  std::chrono::steady_clock::time_point start;
};
thread_local ProfiledCall *profiledCall = nullptr;

/// The hook a profiled model calls around each kernel.
void profileEvent(int32_t kernel, int32_t phase) {
  ProfiledCall *call = profiledCall;
  if (!call || kernel < 0 || kernel >= call->kernels)
    return;
  auto now = std::chrono::steady_clock::now();
  if (phase == 0)
    call->start = now;
  else
    call->times[kernel] +=
        std::chrono::duration<double, std::milli>(now - call->start).count();
}

std::string shapeText(const int64_t *dims, int32_t rank) {
  if (rank == 0)
    return "scalar";
  std::string text;
  for (int32_t d = 0; d < rank; ++d) {
    if (d)
      text += 'x';
    text += std::to_string(dims[d]);
  }
  return text;
}

FuseStatus describe(const FuseModel *model, int32_t index, bool input,
                    FuseTensorInfo *info) {
  if (!model || !info)
    return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                      "fuseModel%s: the model and info must not be NULL",
                      input ? "Input" : "Output");
  const std::vector<Port> &list =
      input ? model->signature.inputs : model->signature.outputs;
  if (index < 0 || size_t(index) >= list.size())
    return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                      "%s %d: the model has %zu %ss",
                      input ? "input" : "output", int(index), list.size(),
                      input ? "input" : "output");
  const Port &port = list[size_t(index)];
  info->name = port.name.c_str();
  info->dtype = port.dtype;
  info->rank = int32_t(port.dims.size());
  info->dims = port.dims.data();
  info->num_elements = port.elements;
  info->bytes = port.bytes;
  return nullptr;
}

/// An enum field a C caller filled in, as the int it holds (a C enum is
/// int-sized, and a C caller can store any int in it; reading it as the C++
/// enum would be undefined for values outside the enumerators' range).
template <typename Enum> int64_t rawEnum(const Enum &field) {
  int32_t raw;
  static_assert(sizeof(raw) == sizeof(field), "C enums are int-sized");
  std::memcpy(&raw, &field, sizeof(raw));
  return raw;
}

/// Checks one caller buffer against the model's port.
FuseStatus checkTensor(const FuseTensor &tensor, const Port &port,
                       const char *role, int32_t index) {
  int64_t dtype = rawEnum(tensor.dtype);
  if (dtype != int64_t(port.dtype)) {
    bool known = dtype > FUSE_DTYPE_INVALID && dtype <= FUSE_DTYPE_I64;
    return makeStatus(
        FUSE_STATUS_INVALID_ARGUMENT,
        "%s %d ('%s'): element type %s%s given, the model's is %s", role,
        int(index), port.name.c_str(),
        known ? fuseDTypeName(FuseDType(dtype)) : "code ",
        known ? "" : std::to_string(dtype).c_str(), fuseDTypeName(port.dtype));
  }
  bool sameShape = tensor.rank == int32_t(port.dims.size()) &&
                   (tensor.rank == 0 || tensor.dims);
  for (int32_t d = 0; sameShape && d < tensor.rank; ++d)
    sameShape = tensor.dims[d] == port.dims[size_t(d)];
  if (!sameShape) {
    std::string given =
        tensor.rank < 0 || tensor.rank > kMaxRank ||
                (tensor.rank && !tensor.dims)
            ? "rank " + std::to_string(tensor.rank) +
                  (tensor.rank > 0 && !tensor.dims ? " without dims" : "")
            : shapeText(tensor.dims, tensor.rank);
    return makeStatus(
        FUSE_STATUS_INVALID_ARGUMENT,
        "%s %d ('%s'): shape %s given, the model's is %s", role, int(index),
        port.name.c_str(), given.c_str(),
        shapeText(port.dims.data(), int32_t(port.dims.size())).c_str());
  }
  if (!tensor.data && port.bytes > 0)
    return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                      "%s %d ('%s'): the data pointer is NULL", role,
                      int(index), port.name.c_str());
  size_t align = fuseDTypeSize(port.dtype);
  if (reinterpret_cast<uintptr_t>(tensor.data) % align != 0)
    return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                      "%s %d ('%s'): the data pointer %p is not aligned to "
                      "its element size (%zu bytes)",
                      role, int(index), port.name.c_str(), tensor.data, align);
  return nullptr;
}

bool overlaps(const void *a, size_t aBytes, const void *b, size_t bBytes) {
  if (aBytes == 0 || bBytes == 0)
    return false;
  uintptr_t x = reinterpret_cast<uintptr_t>(a);
  uintptr_t y = reinterpret_cast<uintptr_t>(b);
  return x < y + bBytes && y < x + aBytes;
}

} // namespace

extern "C" {

FuseStatusCode fuseStatusCode(FuseStatus status) {
  return status ? status->code : FUSE_STATUS_OK;
}

const char *fuseStatusMessage(FuseStatus status) {
  return status ? status->message.c_str() : "";
}

void fuseStatusFree(FuseStatus status) {
  if (status != &outOfMemoryStatus)
    delete status;
}

const char *fuseStatusCodeName(FuseStatusCode code) {
  switch (code) {
  case FUSE_STATUS_OK:
    return "ok";
  case FUSE_STATUS_INVALID_ARGUMENT:
    return "invalid argument";
  case FUSE_STATUS_NOT_FOUND:
    return "not found";
  case FUSE_STATUS_INVALID_MODEL:
    return "invalid model";
  case FUSE_STATUS_VERSION_MISMATCH:
    return "version mismatch";
  case FUSE_STATUS_UNAVAILABLE:
    return "unavailable";
  case FUSE_STATUS_OUT_OF_MEMORY:
    return "out of memory";
  case FUSE_STATUS_INTERNAL:
    return "internal";
  }
  return "unknown";
}

size_t fuseDTypeSize(FuseDType dtype) {
  switch (dtype) {
  case FUSE_DTYPE_BOOL:
  case FUSE_DTYPE_I8:
    return 1;
  case FUSE_DTYPE_F16:
  case FUSE_DTYPE_BF16:
  case FUSE_DTYPE_I16:
    return 2;
  case FUSE_DTYPE_F32:
  case FUSE_DTYPE_I32:
    return 4;
  case FUSE_DTYPE_F64:
  case FUSE_DTYPE_I64:
    return 8;
  case FUSE_DTYPE_INVALID:
    break;
  }
  return 0;
}

const char *fuseDTypeName(FuseDType dtype) {
  switch (dtype) {
  case FUSE_DTYPE_F16:
    return "f16";
  case FUSE_DTYPE_BF16:
    return "bf16";
  case FUSE_DTYPE_F32:
    return "f32";
  case FUSE_DTYPE_F64:
    return "f64";
  case FUSE_DTYPE_BOOL:
    return "bool";
  case FUSE_DTYPE_I8:
    return "i8";
  case FUSE_DTYPE_I16:
    return "i16";
  case FUSE_DTYPE_I32:
    return "i32";
  case FUSE_DTYPE_I64:
    return "i64";
  case FUSE_DTYPE_INVALID:
    break;
  }
  return "invalid";
}

FuseStatus fuseModelLoad(const char *path, FuseModel **model) {
  if (!model)
    return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                      "fuseModelLoad: the model pointer must not be NULL");
  *model = nullptr;
  if (!path || !*path)
    return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                      "fuseModelLoad: no path given");
  FileCheck check;
  if (FuseStatus status = checkFile(path, check))
    return status;
  std::unique_ptr<FuseModel> loaded(new (std::nothrow) FuseModel);
  if (!loaded)
    return &outOfMemoryStatus;
  std::string error;
  try {
    error = parseSignature(check.signature, loaded->signature);
  } catch (...) {
    return &outOfMemoryStatus;
  }
  if (!error.empty())
    return makeStatus(FUSE_STATUS_INVALID_MODEL,
                      "the model '%s' has a malformed signature: %s", path,
                      error.c_str());
  bool gpu = loaded->signature.target == "cuda";
  if (loaded->signature.target != "cpu" && !gpu)
    return makeStatus(FUSE_STATUS_UNAVAILABLE,
                      "the model '%s' is compiled for '%s'; this runtime runs "
                      "models for the host (cpu) and for CUDA GPUs (cuda)",
                      path, loaded->signature.target.c_str());
  if (gpu) {
    std::string why;
    loaded->cuda = cudaRuntime(why);
    if (!loaded->cuda)
      return makeStatus(FUSE_STATUS_UNAVAILABLE, "the model '%s': %s", path,
                        why.c_str());
  }
  // dlopen takes a path with a slash as a file, without one as a library
  // to search for: the model is always the file.
  std::string file = std::strchr(path, '/') ? path : std::string("./") + path;
  loaded->handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!loaded->handle) {
    const char *why = dlerror();
    return makeStatus(FUSE_STATUS_INVALID_MODEL,
                      "the dynamic loader refused the model '%s': %s", path,
                      why ? why : "no reason given");
  }
  auto *version = static_cast<const int32_t *>(
      dlsym(loaded->handle, FUSE_MODEL_ABI_VERSION_SYMBOL));
  auto *signature = static_cast<const char *>(
      dlsym(loaded->handle, FUSE_MODEL_SIGNATURE_SYMBOL));
  loaded->run =
      reinterpret_cast<RunFn>(dlsym(loaded->handle, FUSE_MODEL_RUN_SYMBOL));
  if (!version || !signature || !loaded->run ||
      *version != FUSE_MODEL_ABI_VERSION || check.signature != signature) {
    dlclose(loaded->handle);
    return makeStatus(FUSE_STATUS_INVALID_MODEL,
                      "the model '%s' changed while it was loaded, or its "
                      "symbols do not match its file",
                      path);
  }
  if (gpu) {
    // The kernels load now, through the CUDA runtime, after the checks.
    auto init = reinterpret_cast<void (*)()>(
        dlsym(loaded->handle, FUSE_MODEL_INIT_SYMBOL));
    loaded->fini = reinterpret_cast<void (*)()>(
        dlsym(loaded->handle, FUSE_MODEL_FINI_SYMBOL));
    if (!init || !loaded->fini) {
      dlclose(loaded->handle);
      return makeStatus(FUSE_STATUS_INVALID_MODEL,
                        "the GPU model '%s' exports no %s and %s", path,
                        FUSE_MODEL_INIT_SYMBOL, FUSE_MODEL_FINI_SYMBOL);
    }
    CudaRuntime *cuda = loaded->cuda;
    std::lock_guard<std::mutex> guard(cuda->calls);
    init();
    std::string error = takeCudaError(cuda);
    if (!error.empty()) {
      loaded->fini();
      takeCudaError(cuda);
      dlclose(loaded->handle);
      return makeStatus(FUSE_STATUS_UNAVAILABLE,
                        "the model '%s' cannot load its kernels: %s", path,
                        error.c_str());
    }
  }
  // The hooks its signature promises, set to the runtime's.
  auto setHook = [&](bool promised, const char *symbol, const char *claim,
                     auto function) -> FuseStatus {
    if (!promised)
      return nullptr;
    auto *hook =
        static_cast<decltype(function) *>(dlsym(loaded->handle, symbol));
    if (!hook) {
      dlclose(loaded->handle);
      return makeStatus(FUSE_STATUS_INVALID_MODEL,
                        "the model '%s' says it %s but exports no %s", path,
                        claim, symbol);
    }
    *hook = function;
    return nullptr;
  };
  if (FuseStatus status =
          setHook(loaded->signature.profiled, FUSE_MODEL_PROFILE_HOOK_SYMBOL,
                  "is profiled", &profileEvent))
    return status;
  if (FuseStatus status =
          setHook(loaded->signature.parallel, FUSE_MODEL_PARALLEL_HOOK_SYMBOL,
                  "has parallel loops", ParallelHook(&parallelHook)))
    return status;
  *model = loaded.release();
  return nullptr;
}

void fuseModelRelease(FuseModel *model) {
  if (!model)
    return;
  if (model->cuda) {
    std::lock_guard<std::mutex> guard(model->cuda->calls);
    if (model->graphExec)
      model->cuda->destroyGraph(model->graphExec);
    if (model->graphWorkspace)
      model->cuda->deviceFree(model->graphWorkspace);
    model->fini();
    takeCudaError(model->cuda);
  }
  if (model->handle)
    dlclose(model->handle);
  delete model;
}

const char *fuseModelTarget(const FuseModel *model) {
  return model ? model->signature.target.c_str() : "";
}

int32_t fuseModelNumInputs(const FuseModel *model) {
  return model ? int32_t(model->signature.inputs.size()) : 0;
}

int32_t fuseModelNumOutputs(const FuseModel *model) {
  return model ? int32_t(model->signature.outputs.size()) : 0;
}

FuseStatus fuseModelInput(const FuseModel *model, int32_t index,
                          FuseTensorInfo *info) {
  return describe(model, index, /*input=*/true, info);
}

FuseStatus fuseModelOutput(const FuseModel *model, int32_t index,
                           FuseTensorInfo *info) {
  return describe(model, index, /*input=*/false, info);
}

size_t fuseModelWorkspaceSize(const FuseModel *model) {
  return model ? size_t(model->signature.workspace) : 0;
}

int fuseModelIsReentrant(const FuseModel *model) {
  return model && model->signature.reentrant ? 1 : 0;
}

int32_t fuseModelNumKernels(const FuseModel *model) {
  return model ? int32_t(model->signature.kernels.size()) : 0;
}

FuseStatus fuseModelKernel(const FuseModel *model, int32_t index,
                           FuseKernelInfo *info) {
  if (!model || !info)
    return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                      "fuseModelKernel: the model and info must not be NULL");
  const std::vector<Kernel> &kernels = model->signature.kernels;
  if (index < 0 || size_t(index) >= kernels.size())
    return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                      "kernel %d: the model has %zu kernels", int(index),
                      kernels.size());
  const Kernel &kernel = kernels[size_t(index)];
  info->name = kernel.name.c_str();
  info->rule = kernel.rule.c_str();
  info->nodes = kernel.nodes.c_str();
  return nullptr;
}

int fuseModelIsProfiled(const FuseModel *model) {
  return model && model->signature.profiled ? 1 : 0;
}

int fuseModelIsParallel(const FuseModel *model) {
  return model && model->signature.parallel ? 1 : 0;
}

FuseStatus fuseModelRun(FuseModel *model, const FuseTensor *inputs,
                        int32_t numInputs, const FuseTensor *outputs,
                        int32_t numOutputs, const FuseRunOptions *options) {
  if (!model)
    return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                      "fuseModelRun: the model must not be NULL");
  const Signature &signature = model->signature;
  FuseRunOptions given = {sizeof(FuseRunOptions),
                          FUSE_MEMORY_HOST,
                          nullptr,
                          nullptr,
                          0,
                          nullptr,
                          0,
                          0};
  if (options) {
    // A caller built against an older header passes a smaller struct: the
    // fields it has, the rest at their defaults.
    if (options->struct_size < kRunOptionsV1Size)
      return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                        "fuseModelRun: options.struct_size is %zu; set it to "
                        "sizeof(FuseRunOptions) (%zu)",
                        options->struct_size, sizeof(FuseRunOptions));
    std::memcpy(&given, options,
                std::min(options->struct_size, sizeof(FuseRunOptions)));
    given.struct_size = sizeof(FuseRunOptions);
  }
  if (given.threads < 0 || given.threads > 1024)
    return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                      "fuseModelRun: options.threads is %d; give 0 (the "
                      "default, %d here) or 1 to 1024",
                      int(given.threads), int(defaultThreads()));
  CudaRuntime *cuda = model->cuda;
  bool gpu = cuda != nullptr;
  int64_t memory = rawEnum(given.memory);
  if (gpu && memory != FUSE_MEMORY_DEVICE && memory != FUSE_MEMORY_HOST)
    return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                      "fuseModelRun: a %s model runs on device memory "
                      "(FUSE_MEMORY_DEVICE) or on host memory it copies "
                      "(FUSE_MEMORY_HOST); memory kind %d given",
                      signature.target.c_str(), int(memory));
  if (!gpu && memory != FUSE_MEMORY_HOST)
    return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                      "fuseModelRun: a %s model runs on host memory "
                      "(FUSE_MEMORY_HOST); memory kind %d given",
                      signature.target.c_str(), int(memory));
  // A GPU model's call on host memory: the inputs are copied to device
  // buffers of the call's own, and the outputs back, on the call's stream.
  bool staged = gpu && memory == FUSE_MEMORY_HOST;
  if (staged && !cuda->copy)
    return makeStatus(FUSE_STATUS_UNAVAILABLE,
                      "fuseModelRun: host memory for a %s model: fuse's CUDA "
                      "runtime predates host staging (it lacks fuseCudaCopy); "
                      "pass device memory (FUSE_MEMORY_DEVICE)",
                      signature.target.c_str());
  if (staged && given.workspace)
    return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                      "fuseModelRun: a %s model's call on host memory takes "
                      "no workspace (options.workspace must be NULL: the "
                      "runtime uses device memory of its own)",
                      signature.target.c_str());
  if (given.kernel_ms && !signature.profiled)
    return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                      "fuseModelRun: kernel times asked for, but the model "
                      "does not time its kernels (compile it with "
                      "fuse-compile --profile)");
  if (given.stream && !gpu)
    return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                      "fuseModelRun: a %s model takes no stream",
                      signature.target.c_str());
  if (given.cuda_graph != 0 && given.cuda_graph != 1)
    return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                      "fuseModelRun: options.cuda_graph is %d; give 0 or 1",
                      int(given.cuda_graph));
  bool graph = given.cuda_graph == 1;
  if (graph && !gpu)
    return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                      "fuseModelRun: options.cuda_graph asks for a CUDA "
                      "graph, but a %s model has no GPU launches",
                      signature.target.c_str());
  if (graph && !given.stream)
    return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                      "fuseModelRun: options.cuda_graph needs the caller's "
                      "stream (options.stream): the legacy default stream "
                      "cannot be captured");
  if (graph && given.kernel_ms)
    return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                      "fuseModelRun: kernel times and a CUDA graph cannot be "
                      "asked for together (a graph's kernels are not timed "
                      "one by one)");
  if (graph && !cuda->beginCapture)
    return makeStatus(FUSE_STATUS_UNAVAILABLE,
                      "fuseModelRun: options.cuda_graph: fuse's CUDA runtime "
                      "predates CUDA graphs (it lacks fuseCudaBeginCapture)");
  if (numInputs != int32_t(signature.inputs.size()) ||
      numOutputs != int32_t(signature.outputs.size()))
    return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                      "fuseModelRun: %d inputs and %d outputs given, the "
                      "model has %zu and %zu",
                      int(numInputs), int(numOutputs), signature.inputs.size(),
                      signature.outputs.size());
  if ((numInputs > 0 && !inputs) || !outputs)
    return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                      "fuseModelRun: the %s array is NULL",
                      !outputs ? "outputs" : "inputs");
  for (int32_t i = 0; i < numInputs; ++i)
    if (FuseStatus status =
            checkTensor(inputs[i], signature.inputs[size_t(i)], "input", i))
      return status;
  for (int32_t i = 0; i < numOutputs; ++i) {
    const Port &port = signature.outputs[size_t(i)];
    if (FuseStatus status = checkTensor(outputs[i], port, "output", i))
      return status;
    for (int32_t j = 0; j < numInputs; ++j)
      if (overlaps(outputs[i].data, port.bytes, inputs[j].data,
                   signature.inputs[size_t(j)].bytes))
        return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                          "output %d ('%s') overlaps input %d ('%s')", int(i),
                          port.name.c_str(), int(j),
                          signature.inputs[size_t(j)].name.c_str());
    for (int32_t j = 0; j < i; ++j)
      if (overlaps(outputs[i].data, port.bytes, outputs[j].data,
                   signature.outputs[size_t(j)].bytes))
        return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                          "output %d ('%s') overlaps output %d ('%s')", int(i),
                          port.name.c_str(), int(j),
                          signature.outputs[size_t(j)].name.c_str());
  }

  // The workspace: the caller's, or one for this call.
  void *workspace = given.workspace;
  struct Owned {
    void *memory = nullptr;
    void *device = nullptr;
    CudaRuntime *cuda = nullptr;
    ~Owned() {
      std::free(memory);
      if (device) {
        std::lock_guard<std::mutex> guard(cuda->calls);
        cuda->deviceFree(device);
        cuda->takeError(nullptr, 0);
      }
    }
  } owned;
  if (workspace) {
    if (given.workspace_bytes < signature.workspace)
      return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                        "fuseModelRun: the workspace has %zu bytes, the model "
                        "needs %llu",
                        given.workspace_bytes,
                        (unsigned long long)signature.workspace);
    if (reinterpret_cast<uintptr_t>(workspace) % FUSE_WORKSPACE_ALIGNMENT)
      return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                        "fuseModelRun: the workspace %p is not aligned to %d "
                        "bytes",
                        workspace, FUSE_WORKSPACE_ALIGNMENT);
  } else if (signature.workspace > 0 && graph) {
    // The model's own: a graph replays with the addresses it captured.
    std::lock_guard<std::mutex> guard(cuda->calls);
    if (!model->graphWorkspace) {
      model->graphWorkspace = cuda->deviceMalloc(signature.workspace);
      std::string error = takeCudaError(cuda);
      if (!model->graphWorkspace || !error.empty()) {
        model->graphWorkspace = nullptr;
        return makeStatus(FUSE_STATUS_OUT_OF_MEMORY,
                          "fuseModelRun: cannot allocate the %llu-byte device "
                          "workspace: %s",
                          (unsigned long long)signature.workspace,
                          error.c_str());
      }
    }
    workspace = model->graphWorkspace;
  } else if (signature.workspace > 0 && gpu) {
    // Device memory of the CUDA runtime's cache (reused call after call).
    std::lock_guard<std::mutex> guard(cuda->calls);
    workspace = cuda->deviceMalloc(signature.workspace);
    std::string error = takeCudaError(cuda);
    if (!workspace || !error.empty())
      return makeStatus(FUSE_STATUS_OUT_OF_MEMORY,
                        "fuseModelRun: cannot allocate the %llu-byte device "
                        "workspace: %s",
                        (unsigned long long)signature.workspace, error.c_str());
    owned.device = workspace;
    owned.cuda = cuda;
  } else if (signature.workspace > 0) {
    size_t bytes =
        (size_t(signature.workspace) + FUSE_WORKSPACE_ALIGNMENT - 1) /
        FUSE_WORKSPACE_ALIGNMENT * FUSE_WORKSPACE_ALIGNMENT;
    owned.memory = std::aligned_alloc(FUSE_WORKSPACE_ALIGNMENT, bytes);
    if (!owned.memory)
      return makeStatus(FUSE_STATUS_OUT_OF_MEMORY,
                        "fuseModelRun: cannot allocate the %llu-byte "
                        "workspace",
                        (unsigned long long)signature.workspace);
    workspace = owned.memory;
  }

  std::vector<void *> in, out;
  try {
    in.reserve(size_t(numInputs));
    out.reserve(size_t(numOutputs));
  } catch (...) {
    return &outOfMemoryStatus;
  }
  for (int32_t i = 0; i < numInputs; ++i)
    in.push_back(inputs[i].data);
  for (int32_t i = 0; i < numOutputs; ++i)
    out.push_back(outputs[i].data);
  ProfiledCall profile{given.kernel_ms, int32_t(signature.kernels.size()), {}};
  if (given.kernel_ms) {
    for (size_t k = 0; k < signature.kernels.size(); ++k)
      given.kernel_ms[k] = 0;
    profiledCall = &profile;
  }
  // This call's thread count, read by the model's parallel loops
  // (parallelHook) on this thread.
  setCurrentThreads(given.threads ? given.threads : defaultThreads());
  struct Reset {
    ~Reset() {
      profiledCall = nullptr;
      setCurrentThreads(1);
    }
  } reset;
  int32_t result;
  if (gpu) {
    // On the caller's stream (or one of the call's own), one GPU call at a
    // time; a failed driver call is the call's status.
    std::lock_guard<std::mutex> guard(cuda->calls);
    cuda->useStream(given.stream);
    // Staged: device buffers for the inputs and outputs (the memory cache's,
    // back to it when the call ends), the inputs copied in.
    struct Staging {
      CudaRuntime *cuda;
      std::vector<void *> buffers;
      ~Staging() {
        for (void *buffer : buffers)
          if (buffer)
            cuda->deviceFree(buffer);
        if (!buffers.empty())
          cuda->takeError(nullptr, 0); // the call's status is already made
      }
    } staging{cuda, {}};
    if (staged) {
      auto stage = [&](std::vector<void *> &pointers,
                       const std::vector<Port> &ports) -> bool {
        for (size_t k = 0; k < pointers.size(); ++k) {
          if (ports[k].bytes == 0)
            continue; // nothing to copy; the caller's pointer stands
          void *device = cuda->deviceMalloc(ports[k].bytes);
          if (!device)
            return false;
          staging.buffers.push_back(device);
          pointers[k] = device;
        }
        return true;
      };
      std::vector<void *> hostIn = in;
      bool allocated = false;
      try {
        staging.buffers.reserve(in.size() + out.size());
        allocated =
            stage(in, signature.inputs) && stage(out, signature.outputs);
      } catch (...) {
      }
      std::string error = takeCudaError(cuda);
      if (!allocated || !error.empty()) {
        cuda->useStream(nullptr);
        return makeStatus(FUSE_STATUS_OUT_OF_MEMORY,
                          "fuseModelRun: cannot allocate device buffers for "
                          "the call's host inputs and outputs%s%s",
                          error.empty() ? "" : ": ", error.c_str());
      }
      for (size_t k = 0; k < in.size(); ++k)
        if (in[k] != hostIn[k])
          cuda->copy(in[k], hostIn[k], signature.inputs[k].bytes);
    }
    if (!graph) {
      result = model->run(in.data(), out.data(), workspace);
    } else {
      // Replayed where the call's addresses are those captured; else
      // captured anew (the launches recorded, not run), then replayed.
      std::vector<void *> pointers = in;
      pointers.insert(pointers.end(), out.begin(), out.end());
      pointers.push_back(workspace);
      pointers.push_back(given.stream);
      result = 0;
      if (!model->graphExec || pointers != model->graphPointers) {
        if (model->graphExec)
          cuda->destroyGraph(model->graphExec);
        model->graphExec = nullptr;
        // The model's first GPU call (weights uploaded, synchronously) runs
        // as it is; its graph is captured from the second run.
        if (!model->ranOnGpu)
          result = model->run(in.data(), out.data(), workspace);
        if (result == 0) {
          cuda->beginCapture();
          result = model->run(in.data(), out.data(), workspace);
          model->graphExec = cuda->endCapture();
          model->graphPointers = pointers;
          // A failed call's graph is not kept.
          if (result != 0 && model->graphExec) {
            cuda->destroyGraph(model->graphExec);
            model->graphExec = nullptr;
          }
        }
      }
      if (model->graphExec && result == 0)
        cuda->launchGraph(model->graphExec);
    }
    if (staged && result == 0)
      for (size_t k = 0; k < out.size(); ++k)
        if (out[k] != outputs[k].data)
          cuda->copy(outputs[k].data, out[k], signature.outputs[k].bytes);
    cuda->useStream(nullptr);
    std::string error = takeCudaError(cuda);
    if (error.empty() && result == 0)
      model->ranOnGpu = true;
    if (!error.empty())
      return makeStatus(FUSE_STATUS_INTERNAL,
                        "the model's GPU code failed%s: %s",
                        graph ? " (in a CUDA graph)" : "", error.c_str());
  } else if (signature.reentrant) {
    result = model->run(in.data(), out.data(), workspace);
  } else {
    std::lock_guard<std::mutex> lock(model->serial);
    result = model->run(in.data(), out.data(), workspace);
  }
  if (result != 0)
    return makeStatus(FUSE_STATUS_INTERNAL,
                      "the model's code failed (status %d)", int(result));
  return nullptr;
}

int32_t fuseRuntimeDefaultThreads(void) { return defaultThreads(); }

} // extern "C"
