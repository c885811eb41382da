//===- CudaRuntime.cpp - the mgpu* ABI over the CUDA driver API -----------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// MLIR's GPU lowering (gpu-to-llvm) turns gpu.launch_func, gpu.alloc,
// gpu.memcpy and friends into calls of C functions named mgpu*. This library
// implements them over the CUDA driver API, so that the output of
// fuse-to-nvptx runs under mlir-runner (-shared-libs=libfuse_cuda_runtime.so)
// or links into an application.
//
// Every driver call is checked: a failure prints the call, the CUDA error
// name and its description, and ends the process, because a kernel that did
// not run leaves results that only look valid.
//
// With FUSE_KERNEL_PROFILE=FILE in the environment, every launch is timed on
// the device (a pair of CUDA events around it) and FILE gets, at exit, one
// line per kernel: name, launches, median, minimum and total milliseconds.
//
//===----------------------------------------------------------------------===//

#include "cuda.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#define FUSE_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

/// Errors are reported and end the process (the default: a program built by
/// fuse-to-nvptx under mlir-runner), or, after fuseCudaRecordErrors(1), are
/// recorded for fuseCudaTakeError and every later call does nothing until
/// the error is taken (a library user's process must not end).
std::atomic<bool> recordErrors{false};
std::atomic<bool> failed{false};
std::mutex errorLock;
std::string firstError;

/// Reports `message`: ends the process, or records it (the first one) and
/// returns.
void report(const std::string &message) {
  if (!recordErrors) {
    std::fflush(nullptr); // what the program printed comes first
    std::fprintf(stderr, "fuse-cuda-runtime: %s\n", message.c_str());
    // Ends without running destructors: the module unload registered at
    // startup must not call into a failed driver again.
    std::fflush(nullptr);
    std::_Exit(EXIT_FAILURE);
  }
  std::lock_guard<std::mutex> guard(errorLock);
  if (!failed)
    firstError = message;
  failed = true;
}

/// Whether `result` is success; otherwise reports the call, the CUDA error
/// name and its description (`detail` first, when given).
bool cuOk(const char *call, CUresult result, const std::string &detail = "") {
  if (result == CUDA_SUCCESS)
    return true;
  const char *name = nullptr;
  const char *text = nullptr;
  if (cuGetErrorName(result, &name) != CUDA_SUCCESS)
    name = "unknown CUresult";
  if (cuGetErrorString(result, &text) != CUDA_SUCCESS)
    text = "no description";
  char line[512];
  std::snprintf(line, sizeof(line), "%s failed: %s (%d): %s", call, name,
                static_cast<int>(result), text);
  report(detail.empty() ? std::string(line) : detail + "\n" + line);
  return false;
}

// A failed driver call returns from the function (with `value`).
#define CHECK_CU(call)                                                         \
  do {                                                                         \
    if (!cuOk(#call, (call)))                                                  \
      return;                                                                  \
  } while (false)
#define CHECK_CU_OR(call, value)                                               \
  do {                                                                         \
    if (!cuOk(#call, (call)))                                                  \
      return value;                                                            \
  } while (false)
// After a recorded error every call does nothing.
#define SKIP_AFTER_ERROR()                                                     \
  do {                                                                         \
    if (failed)                                                                \
      return;                                                                  \
  } while (false)
#define SKIP_AFTER_ERROR_OR(value)                                             \
  do {                                                                         \
    if (failed)                                                                \
      return value;                                                            \
  } while (false)

int32_t defaultDevice = 0;

/// Why the kernel profile (FUSE_KERNEL_PROFILE) cannot be written; reported
/// at the first driver call, before any kernel runs, as any CUDA error is.
/// (A character array: set by a load-time constructor, before dynamic
/// initialization can be relied on.)
char profileError[1024];

/// The device's primary context, made current on the calling thread. Created
/// on first use: cuInit, device `defaultDevice`, primary context.
CUcontext context() {
  static std::once_flag once;
  static CUcontext primary = nullptr;
  std::call_once(once, [] {
    if (profileError[0]) {
      report(profileError);
      return;
    }
    if (!cuOk("cuInit(0)", cuInit(0)))
      return;
    CUdevice device;
    if (!cuOk("cuDeviceGet", cuDeviceGet(&device, defaultDevice)))
      return;
    cuOk("cuDevicePrimaryCtxRetain",
         cuDevicePrimaryCtxRetain(&primary, device));
  });
  if (!primary) {
    report("no CUDA context: the driver or the device failed to start");
    return nullptr;
  }
  CHECK_CU_OR(cuCtxSetCurrent(primary), nullptr);
  return primary;
}

//===----------------------------------------------------------------------===//
// Kernel profile (FUSE_KERNEL_PROFILE)
//===----------------------------------------------------------------------===//

/// The launches timed so far. Times are read when the launch's stream is
/// synchronized (gpu-to-llvm synchronizes after every launch without an
/// async token), and written out when the library is unloaded.
struct Profile {
  std::FILE *file = nullptr;
  std::mutex lock;
  std::unordered_map<CUfunction, std::string> names;
  struct Launch {
    CUfunction function;
    CUstream stream;
    CUevent start, stop;
  };
  std::vector<Launch> pending;
  /// Milliseconds per launch, by kernel name (sorted for the output).
  std::map<std::string, std::vector<float>> times;
  /// Launches whose times could not be read at exit.
  size_t lost = 0;

  /// Reads and releases the events of the pending launches on `stream`
  /// (every stream when null), which the caller has synchronized.
  void collect(CUstream stream, bool atExit);
  void write();
};

Profile *profile = nullptr;

/// Opens the profile file when the library is loaded. A path that cannot
/// be written is reported at the first driver call, before any kernel runs
/// (as an error the library's user takes, in a process that goes on).
__attribute__((constructor)) void openProfile() {
  const char *path = std::getenv("FUSE_KERNEL_PROFILE");
  if (!path || !*path)
    return;
  std::FILE *file = std::fopen(path, "w");
  if (!file) {
    std::snprintf(profileError, sizeof(profileError),
                  "cannot write the kernel profile '%s' "
                  "(FUSE_KERNEL_PROFILE): %s",
                  path, std::strerror(errno));
    return;
  }
  profile = new Profile();
  profile->file = file;
}

__attribute__((destructor)) void closeProfile() {
  if (!profile)
    return;
  profile->collect(nullptr, /*atExit=*/true);
  profile->write();
}

void Profile::collect(CUstream stream, bool atExit) {
  std::lock_guard<std::mutex> guard(lock);
  auto keep = std::remove_if(pending.begin(), pending.end(), [&](Launch &l) {
    if (stream && l.stream != stream)
      return false;
    float ms = 0;
    if (atExit) {
      // The driver may be shutting down: a failure loses this launch's
      // time instead of ending the process in a destructor.
      if (cuEventSynchronize(l.stop) != CUDA_SUCCESS ||
          cuEventElapsedTime(&ms, l.start, l.stop) != CUDA_SUCCESS) {
        ++lost;
        return true;
      }
    } else if (!cuOk("cuEventSynchronize", cuEventSynchronize(l.stop)) ||
               !cuOk("cuEventElapsedTime",
                     cuEventElapsedTime(&ms, l.start, l.stop)) ||
               !cuOk("cuEventDestroy", cuEventDestroy(l.start)) ||
               !cuOk("cuEventDestroy", cuEventDestroy(l.stop))) {
      ++lost;
      return true;
    }
    auto name = names.find(l.function);
    times[name == names.end() ? "?" : name->second].push_back(ms);
    return true;
  });
  pending.erase(keep, pending.end());
}

void Profile::write() {
  std::fprintf(file, "# kernel\tlaunches\tmedian_ms\tmin_ms\ttotal_ms\n");
  for (auto &[name, ms] : times) {
    std::sort(ms.begin(), ms.end());
    size_t n = ms.size();
    double median = n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2.0;
    double total = 0;
    for (float t : ms)
      total += t;
    std::fprintf(file, "%s\t%zu\t%.6f\t%.6f\t%.6f\n", name.c_str(), n, median,
                 double(ms.front()), total);
  }
  if (lost)
    std::fprintf(file,
                 "# %zu launch(es) not timed: their events could not "
                 "be read at exit\n",
                 lost);
  std::fclose(file);
}

} // namespace

//===----------------------------------------------------------------------===//
// Modules and kernels
//===----------------------------------------------------------------------===//

/// A cubin (gpu-module-to-binary format=bin), or a fatbin.
FUSE_EXPORT CUmodule mgpuModuleLoad(void *data, size_t /*gpuBlobSize*/) {
  SKIP_AFTER_ERROR_OR(nullptr);
  if (!context())
    return nullptr;
  CUmodule module = nullptr;
  CHECK_CU_OR(cuModuleLoadData(&module, data), nullptr);
  return module;
}

/// PTX (format=isa), compiled by the driver at the given optimization level.
FUSE_EXPORT CUmodule mgpuModuleLoadJIT(void *data, int optLevel) {
  SKIP_AFTER_ERROR_OR(nullptr);
  if (!context())
    return nullptr;
  CUmodule module = nullptr;
  char log[4096] = {0};
  CUjit_option options[] = {CU_JIT_OPTIMIZATION_LEVEL, CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {reinterpret_cast<void *>(static_cast<intptr_t>(optLevel)),
                    log, reinterpret_cast<void *>(sizeof(log))};
  CUresult result = cuModuleLoadDataEx(&module, data, 3, options, values);
  if (!cuOk("cuModuleLoadDataEx(PTX)", result,
            std::string("PTX JIT log:\n") + log))
    return nullptr;
  return module;
}

FUSE_EXPORT void mgpuModuleUnload(CUmodule module) {
  if (!module)
    return; // a load that failed (recorded)
  CHECK_CU(cuModuleUnload(module));
}

FUSE_EXPORT CUfunction mgpuModuleGetFunction(CUmodule module,
                                             const char *name) {
  SKIP_AFTER_ERROR_OR(nullptr);
  CUfunction function = nullptr;
  if (!cuOk("cuModuleGetFunction", cuModuleGetFunction(&function, module, name),
            std::string("no kernel '") + name + "' in the module"))
    return nullptr;
  if (profile) {
    std::lock_guard<std::mutex> guard(profile->lock);
    profile->names[function] = name;
  }
  return function;
}

/// Launches `function`; a kernel with more than 48 KiB of dynamic shared
/// memory is opted in to that amount first.
FUSE_EXPORT void mgpuLaunchKernel(CUfunction function, intptr_t gridX,
                                  intptr_t gridY, intptr_t gridZ,
                                  intptr_t blockX, intptr_t blockY,
                                  intptr_t blockZ, int32_t smem,
                                  CUstream stream, void **params, void **extra,
                                  size_t /*paramsCount*/) {
  SKIP_AFTER_ERROR();
  if (!context())
    return;
  if (smem > 48 * 1024)
    CHECK_CU(cuFuncSetAttribute(
        function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem));
  if (!profile) {
    CHECK_CU(cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY,
                            blockZ, smem, stream, params, extra));
    return;
  }
  Profile::Launch launch{function, stream, nullptr, nullptr};
  CHECK_CU(cuEventCreate(&launch.start, CU_EVENT_DEFAULT));
  CHECK_CU(cuEventCreate(&launch.stop, CU_EVENT_DEFAULT));
  CHECK_CU(cuEventRecord(launch.start, stream));
  CHECK_CU(cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ,
                          smem, stream, params, extra));
  CHECK_CU(cuEventRecord(launch.stop, stream));
  std::lock_guard<std::mutex> guard(profile->lock);
  profile->pending.push_back(launch);
}

//===----------------------------------------------------------------------===//
// Streams and events
//===----------------------------------------------------------------------===//

namespace {
/// The caller's stream for the calls of this thread (fuseCudaUseStream):
/// the compiled code's stream "creation" returns it, its "destruction"
/// leaves it alone.
thread_local CUstream callerStream = nullptr;
/// Whether this thread's caller stream is being captured into a CUDA graph
/// (fuseCudaBeginCapture): the compiled code's wait for it at the end of a
/// call is left to the graph's launch.
thread_local bool capturing = false;
} // namespace

FUSE_EXPORT CUstream mgpuStreamCreate() {
  SKIP_AFTER_ERROR_OR(nullptr);
  if (callerStream)
    return context() ? callerStream : nullptr;
  if (!context())
    return nullptr;
  CUstream stream = nullptr;
  CHECK_CU_OR(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), nullptr);
  return stream;
}

FUSE_EXPORT void mgpuStreamDestroy(CUstream stream) {
  SKIP_AFTER_ERROR();
  if (profile)
    profile->collect(stream, /*atExit=*/false);
  if (stream && stream == callerStream)
    return;
  CHECK_CU(cuStreamDestroy(stream));
}

/// Waits for the stream and reports a failed kernel (an illegal address,
/// say) here, at the first synchronization after it.
FUSE_EXPORT void mgpuStreamSynchronize(CUstream stream) {
  SKIP_AFTER_ERROR();
  // Captured: the graph's launch waits instead.
  if (capturing && stream == callerStream)
    return;
  CHECK_CU(cuStreamSynchronize(stream));
  if (profile)
    profile->collect(stream, /*atExit=*/false);
}

FUSE_EXPORT void mgpuStreamWaitEvent(CUstream stream, CUevent event) {
  SKIP_AFTER_ERROR();
  CHECK_CU(cuStreamWaitEvent(stream, event, /*flags=*/0));
}

FUSE_EXPORT CUevent mgpuEventCreate() {
  SKIP_AFTER_ERROR_OR(nullptr);
  if (!context())
    return nullptr;
  CUevent event = nullptr;
  CHECK_CU_OR(cuEventCreate(&event, CU_EVENT_DISABLE_TIMING), nullptr);
  return event;
}

FUSE_EXPORT void mgpuEventDestroy(CUevent event) {
  SKIP_AFTER_ERROR();
  CHECK_CU(cuEventDestroy(event));
}

FUSE_EXPORT void mgpuEventSynchronize(CUevent event) {
  SKIP_AFTER_ERROR();
  CHECK_CU(cuEventSynchronize(event));
}

FUSE_EXPORT void mgpuEventRecord(CUevent event, CUstream stream) {
  SKIP_AFTER_ERROR();
  CHECK_CU(cuEventRecord(event, stream));
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

/// Device memory, or managed memory visible to the host too.
FUSE_EXPORT void *mgpuMemAlloc(uint64_t sizeBytes, CUstream /*stream*/,
                               bool isHostShared) {
  SKIP_AFTER_ERROR_OR(nullptr);
  if (!context() || sizeBytes == 0)
    return nullptr;
  CUdeviceptr pointer = 0;
  if (isHostShared)
    CHECK_CU_OR(cuMemAllocManaged(&pointer, sizeBytes, CU_MEM_ATTACH_GLOBAL),
                nullptr);
  else
    CHECK_CU_OR(cuMemAlloc(&pointer, sizeBytes), nullptr);
  return reinterpret_cast<void *>(pointer);
}

FUSE_EXPORT void mgpuMemFree(void *pointer, CUstream /*stream*/) {
  SKIP_AFTER_ERROR();
  if (pointer)
    CHECK_CU(cuMemFree(reinterpret_cast<CUdeviceptr>(pointer)));
}

FUSE_EXPORT void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                            CUstream stream) {
  SKIP_AFTER_ERROR();
  CHECK_CU(cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                         reinterpret_cast<CUdeviceptr>(src), sizeBytes,
                         stream));
}

FUSE_EXPORT void mgpuMemset32(void *dst, unsigned int value, size_t count,
                              CUstream stream) {
  SKIP_AFTER_ERROR();
  CHECK_CU(cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst), value, count,
                            stream));
}

FUSE_EXPORT void mgpuMemset16(void *dst, unsigned short value, size_t count,
                              CUstream stream) {
  SKIP_AFTER_ERROR();
  CHECK_CU(cuMemsetD16Async(reinterpret_cast<CUdeviceptr>(dst), value, count,
                            stream));
}

/// Pins host memory and maps it into the device's address space, so a
/// kernel can read a host buffer (gpu.host_register).
FUSE_EXPORT void mgpuMemHostRegister(void *pointer, uint64_t sizeBytes) {
  SKIP_AFTER_ERROR();
  if (!context())
    return;
  CHECK_CU(cuMemHostRegister(pointer, sizeBytes, /*flags=*/0));
}

FUSE_EXPORT void mgpuMemHostUnregister(void *pointer) {
  SKIP_AFTER_ERROR();
  CHECK_CU(cuMemHostUnregister(pointer));
}

namespace {
/// The part of a ranked memref descriptor the registration needs: allocated
/// and aligned pointers, offset, then sizes[rank] and strides[rank].
struct Descriptor {
  char *allocated;
  char *aligned;
  int64_t offset;
  int64_t sizesAndStrides[1];
};

/// The bytes a memref spans from its aligned pointer (the largest index
/// reached, plus one element).
uint64_t spanBytes(int64_t rank, Descriptor *descriptor,
                   int64_t elementSizeBytes) {
  int64_t last = 0;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t size = descriptor->sizesAndStrides[i];
    int64_t stride = descriptor->sizesAndStrides[rank + i];
    if (size == 0)
      return 0;
    last += (size - 1) * stride;
  }
  return static_cast<uint64_t>(last + 1) * elementSizeBytes;
}
} // namespace

FUSE_EXPORT void mgpuMemHostRegisterMemRef(int64_t rank, Descriptor *descriptor,
                                           int64_t elementSizeBytes) {
  uint64_t bytes = spanBytes(rank, descriptor, elementSizeBytes);
  if (bytes)
    mgpuMemHostRegister(
        descriptor->aligned + descriptor->offset * elementSizeBytes, bytes);
}

FUSE_EXPORT void mgpuMemHostUnregisterMemRef(int64_t rank,
                                             Descriptor *descriptor,
                                             int64_t elementSizeBytes) {
  if (spanBytes(rank, descriptor, elementSizeBytes))
    mgpuMemHostUnregister(descriptor->aligned +
                          descriptor->offset * elementSizeBytes);
}

FUSE_EXPORT void mgpuSetDefaultDevice(int32_t device) {
  defaultDevice = device;
}

//===----------------------------------------------------------------------===//
// Host buffers of fuse-to-nvptx's code (fuse-device-memory)
//===----------------------------------------------------------------------===//

namespace {
/// Freed buffers kept for the next allocation of the same rounded size, as
/// a program that calls a compiled model again and again allocates the same
/// results each time (cudaMalloc-class calls cost tens of microseconds and
/// synchronize the device). FUSE_DEVICE_MEMORY_CACHE=0 returns every free
/// to the driver instead.
struct MemoryCache {
  std::mutex lock;
  bool enabled = true;
  /// Live buffers and their rounded sizes.
  std::unordered_map<void *, uint64_t> live;
  /// Free buffers by rounded size.
  std::unordered_map<uint64_t, std::vector<void *>> free;
};

MemoryCache &memoryCache() {
  static MemoryCache *cache = [] {
    auto *c = new MemoryCache();
    const char *setting = std::getenv("FUSE_DEVICE_MEMORY_CACHE");
    c->enabled = !(setting && std::strcmp(setting, "0") == 0);
    return c;
  }();
  return *cache;
}

/// Sizes round up to 512 bytes, so that nearly equal buffers share entries.
constexpr uint64_t kCacheGranule = 512;
} // namespace

/// The buffers between kernels and the results: managed memory, written by
/// the kernels, readable by the host; a freed buffer of the same rounded
/// size is reused.
FUSE_EXPORT void *fuseDeviceMalloc(uint64_t sizeBytes) {
  uint64_t bytes = (std::max<uint64_t>(sizeBytes, 1) + kCacheGranule - 1) /
                   kCacheGranule * kCacheGranule;
  MemoryCache &cache = memoryCache();
  {
    std::lock_guard<std::mutex> guard(cache.lock);
    auto it = cache.free.find(bytes);
    if (it != cache.free.end() && !it->second.empty()) {
      void *pointer = it->second.back();
      it->second.pop_back();
      cache.live[pointer] = bytes;
      return pointer;
    }
  }
  void *pointer = mgpuMemAlloc(bytes, nullptr, /*isHostShared=*/true);
  if (!pointer)
    return nullptr; // a recorded error
  std::lock_guard<std::mutex> guard(cache.lock);
  cache.live[pointer] = bytes;
  return pointer;
}

/// Releases a buffer of fuseDeviceMalloc: into the cache, or to the driver.
/// Any other pointer is an error (a double free, say).
FUSE_EXPORT void fuseDeviceFree(void *pointer) {
  if (!pointer)
    return;
  MemoryCache &cache = memoryCache();
  std::unique_lock<std::mutex> guard(cache.lock);
  auto it = cache.live.find(pointer);
  if (it == cache.live.end()) {
    guard.unlock();
    char line[160];
    std::snprintf(line, sizeof(line),
                  "fuseDeviceFree(%p): not a live buffer of fuseDeviceMalloc "
                  "(freed twice?)",
                  pointer);
    report(line);
    return;
  }
  uint64_t bytes = it->second;
  cache.live.erase(it);
  if (cache.enabled) {
    cache.free[bytes].push_back(pointer);
    return;
  }
  guard.unlock();
  mgpuMemFree(pointer, nullptr);
}

namespace {
/// The copy of constant `host` (made on first use, kept for the process;
/// later calls with the same host address get the same copy): in managed
/// memory when `shared`, else in device memory.
void *constantCopy(void *host, uint64_t sizeBytes, bool shared) {
  static std::mutex lock;
  static std::unordered_map<void *, void *> copies[2];
  std::lock_guard<std::mutex> guard(lock);
  void *&copy = copies[shared][host];
  if (!copy && sizeBytes > 0) {
    SKIP_AFTER_ERROR_OR(nullptr);
    copy = shared ? fuseDeviceMalloc(sizeBytes)
                  : mgpuMemAlloc(sizeBytes, nullptr, /*isHostShared=*/false);
    if (!copy)
      return nullptr;
    if (!cuOk("cuMemcpyHtoD", cuMemcpyHtoD(reinterpret_cast<CUdeviceptr>(copy),
                                           host, sizeBytes))) {
      void *lost = copy;
      copy = nullptr;
      (void)lost; // left allocated: the driver has failed
      return nullptr;
    }
  }
  return copy;
}
} // namespace

/// A constant (weights) only the kernels read: copied into device memory
/// (no page migration, nothing the host can touch).
FUSE_EXPORT void *fuseDeviceConstant(void *host, uint64_t sizeBytes) {
  return constantCopy(host, sizeBytes, /*shared=*/false);
}

/// A constant the host may read too (one the program returns): copied into
/// managed memory.
FUSE_EXPORT void *fuseSharedConstant(void *host, uint64_t sizeBytes) {
  return constantCopy(host, sizeBytes, /*shared=*/true);
}

//===----------------------------------------------------------------------===//
// Errors for a library user
//===----------------------------------------------------------------------===//

/// 1: a failed driver call is recorded (fuseCudaTakeError) instead of ending
/// the process, and every later call does nothing until it is taken; 0 (the
/// default): report and exit.
FUSE_EXPORT void fuseCudaRecordErrors(int on) { recordErrors = on != 0; }

/// Copies the first recorded error into `buffer` (at most `size` bytes with
/// its NUL) and clears it; returns 1 if there was one, else 0.
FUSE_EXPORT int fuseCudaTakeError(char *buffer, size_t size) {
  std::lock_guard<std::mutex> guard(errorLock);
  if (!failed)
    return 0;
  if (buffer && size) {
    std::snprintf(buffer, size, "%s", firstError.c_str());
  }
  firstError.clear();
  failed = false;
  return 1;
}

/// The stream (a CUstream; null: one per call, as before) that this
/// thread's compiled code runs on from now on.
FUSE_EXPORT void fuseCudaUseStream(void *stream) {
  callerStream = static_cast<CUstream>(stream);
}

/// Copies `bytes` from `src` to `dst` (host or device memory, told apart by
/// the driver's unified addressing) on the caller's stream, or on the
/// legacy default stream where none is set, and waits for the copy: the
/// runtime's staging of a call's host inputs and outputs.
FUSE_EXPORT void fuseCudaCopy(void *dst, const void *src, size_t bytes) {
  SKIP_AFTER_ERROR();
  if (bytes == 0 || !context())
    return;
  CHECK_CU(cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                         reinterpret_cast<CUdeviceptr>(src), bytes,
                         callerStream));
  CHECK_CU(cuStreamSynchronize(callerStream));
}

//===----------------------------------------------------------------------===//
// CUDA graphs: a call's launches captured once and replayed
//===----------------------------------------------------------------------===//

/// Starts capturing the caller's stream (fuseCudaUseStream): the compiled
/// code's launches, copies and sets are recorded, not run.
FUSE_EXPORT void fuseCudaBeginCapture(void) {
  SKIP_AFTER_ERROR();
  if (!callerStream) {
    report("fuseCudaBeginCapture: a CUDA graph is captured from the "
           "caller's stream, and none is set (the legacy default stream "
           "cannot be captured)");
    return;
  }
  if (!context())
    return;
  CHECK_CU(
      cuStreamBeginCapture(callerStream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
  capturing = true;
}

/// Ends the capture and instantiates what was recorded: the executable
/// graph (a CUgraphExec), or null with the error recorded. The capture is
/// always ended, even after an error inside it, so that the stream is
/// usable again.
FUSE_EXPORT void *fuseCudaEndCapture(void) {
  if (!capturing)
    return nullptr;
  capturing = false;
  CUgraph graph = nullptr;
  CUresult ended = cuStreamEndCapture(callerStream, &graph);
  if (failed) {
    if (graph)
      cuGraphDestroy(graph);
    return nullptr;
  }
  if (!cuOk("cuStreamEndCapture", ended))
    return nullptr;
  CUgraphExec exec = nullptr;
  bool ok = cuOk("cuGraphInstantiate", cuGraphInstantiate(&exec, graph, 0));
  cuGraphDestroy(graph);
  return ok ? exec : nullptr;
}

/// Replays an executable graph on the caller's stream and waits for it
/// (a call returns with its outputs written, as without a graph).
FUSE_EXPORT void fuseCudaLaunchGraph(void *exec) {
  SKIP_AFTER_ERROR();
  CHECK_CU(cuGraphLaunch(static_cast<CUgraphExec>(exec), callerStream));
  CHECK_CU(cuStreamSynchronize(callerStream));
}

FUSE_EXPORT void fuseCudaDestroyGraph(void *exec) {
  if (exec)
    cuGraphExecDestroy(static_cast<CUgraphExec>(exec));
}
