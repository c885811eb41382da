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

[[noreturn]] void fail(const char *call, CUresult result) {
  const char *name = nullptr;
  const char *text = nullptr;
  if (cuGetErrorName(result, &name) != CUDA_SUCCESS)
    name = "unknown CUresult";
  if (cuGetErrorString(result, &text) != CUDA_SUCCESS)
    text = "no description";
  std::fflush(nullptr); // what the program printed comes first
  std::fprintf(stderr, "fuse-cuda-runtime: %s failed: %s (%d): %s\n", call,
               name, static_cast<int>(result), text);
  // Ends without running destructors: the module unload registered at
  // startup must not call into a failed driver again.
  std::fflush(nullptr);
  std::_Exit(EXIT_FAILURE);
}

#define CHECK_CU(call)                                                         \
  do {                                                                         \
    CUresult result_ = (call);                                                 \
    if (result_ != CUDA_SUCCESS)                                               \
      fail(#call, result_);                                                    \
  } while (false)

int32_t defaultDevice = 0;

/// The device's primary context, made current on the calling thread. Created
/// on first use: cuInit, device `defaultDevice`, primary context.
CUcontext context() {
  static std::once_flag once;
  static CUcontext primary = nullptr;
  std::call_once(once, [] {
    CHECK_CU(cuInit(0));
    CUdevice device;
    CHECK_CU(cuDeviceGet(&device, defaultDevice));
    CHECK_CU(cuDevicePrimaryCtxRetain(&primary, device));
  });
  CHECK_CU(cuCtxSetCurrent(primary));
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

/// Opens the profile file when the library is loaded, so that a path that
/// cannot be written is reported before any kernel runs.
__attribute__((constructor)) void openProfile() {
  const char *path = std::getenv("FUSE_KERNEL_PROFILE");
  if (!path || !*path)
    return;
  std::FILE *file = std::fopen(path, "w");
  if (!file) {
    std::fprintf(stderr,
                 "fuse-cuda-runtime: cannot write the kernel profile '%s' "
                 "(FUSE_KERNEL_PROFILE): %s\n",
                 path, std::strerror(errno));
    std::_Exit(EXIT_FAILURE);
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
    } else {
      CHECK_CU(cuEventSynchronize(l.stop));
      CHECK_CU(cuEventElapsedTime(&ms, l.start, l.stop));
      CHECK_CU(cuEventDestroy(l.start));
      CHECK_CU(cuEventDestroy(l.stop));
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
  context();
  CUmodule module = nullptr;
  CHECK_CU(cuModuleLoadData(&module, data));
  return module;
}

/// PTX (format=isa), compiled by the driver at the given optimization level.
FUSE_EXPORT CUmodule mgpuModuleLoadJIT(void *data, int optLevel) {
  context();
  CUmodule module = nullptr;
  char log[4096] = {0};
  CUjit_option options[] = {CU_JIT_OPTIMIZATION_LEVEL, CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {reinterpret_cast<void *>(static_cast<intptr_t>(optLevel)),
                    log, reinterpret_cast<void *>(sizeof(log))};
  CUresult result = cuModuleLoadDataEx(&module, data, 3, options, values);
  if (result != CUDA_SUCCESS) {
    std::fprintf(stderr, "fuse-cuda-runtime: PTX JIT log:\n%s\n", log);
    fail("cuModuleLoadDataEx(PTX)", result);
  }
  return module;
}

FUSE_EXPORT void mgpuModuleUnload(CUmodule module) {
  CHECK_CU(cuModuleUnload(module));
}

FUSE_EXPORT CUfunction mgpuModuleGetFunction(CUmodule module,
                                             const char *name) {
  CUfunction function = nullptr;
  CUresult result = cuModuleGetFunction(&function, module, name);
  if (result != CUDA_SUCCESS) {
    std::fprintf(stderr, "fuse-cuda-runtime: no kernel '%s' in the module\n",
                 name);
    fail("cuModuleGetFunction", result);
  }
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
  context();
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

FUSE_EXPORT CUstream mgpuStreamCreate() {
  context();
  CUstream stream = nullptr;
  CHECK_CU(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  return stream;
}

FUSE_EXPORT void mgpuStreamDestroy(CUstream stream) {
  if (profile)
    profile->collect(stream, /*atExit=*/false);
  CHECK_CU(cuStreamDestroy(stream));
}

/// Waits for the stream and reports a failed kernel (an illegal address,
/// say) here, at the first synchronization after it.
FUSE_EXPORT void mgpuStreamSynchronize(CUstream stream) {
  CHECK_CU(cuStreamSynchronize(stream));
  if (profile)
    profile->collect(stream, /*atExit=*/false);
}

FUSE_EXPORT void mgpuStreamWaitEvent(CUstream stream, CUevent event) {
  CHECK_CU(cuStreamWaitEvent(stream, event, /*flags=*/0));
}

FUSE_EXPORT CUevent mgpuEventCreate() {
  context();
  CUevent event = nullptr;
  CHECK_CU(cuEventCreate(&event, CU_EVENT_DISABLE_TIMING));
  return event;
}

FUSE_EXPORT void mgpuEventDestroy(CUevent event) {
  CHECK_CU(cuEventDestroy(event));
}

FUSE_EXPORT void mgpuEventSynchronize(CUevent event) {
  CHECK_CU(cuEventSynchronize(event));
}

FUSE_EXPORT void mgpuEventRecord(CUevent event, CUstream stream) {
  CHECK_CU(cuEventRecord(event, stream));
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

/// Device memory, or managed memory visible to the host too.
FUSE_EXPORT void *mgpuMemAlloc(uint64_t sizeBytes, CUstream /*stream*/,
                               bool isHostShared) {
  context();
  if (sizeBytes == 0)
    return nullptr;
  CUdeviceptr pointer = 0;
  if (isHostShared)
    CHECK_CU(cuMemAllocManaged(&pointer, sizeBytes, CU_MEM_ATTACH_GLOBAL));
  else
    CHECK_CU(cuMemAlloc(&pointer, sizeBytes));
  return reinterpret_cast<void *>(pointer);
}

FUSE_EXPORT void mgpuMemFree(void *pointer, CUstream /*stream*/) {
  if (pointer)
    CHECK_CU(cuMemFree(reinterpret_cast<CUdeviceptr>(pointer)));
}

FUSE_EXPORT void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                            CUstream stream) {
  CHECK_CU(cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                         reinterpret_cast<CUdeviceptr>(src), sizeBytes,
                         stream));
}

FUSE_EXPORT void mgpuMemset32(void *dst, unsigned int value, size_t count,
                              CUstream stream) {
  CHECK_CU(cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst), value, count,
                            stream));
}

FUSE_EXPORT void mgpuMemset16(void *dst, unsigned short value, size_t count,
                              CUstream stream) {
  CHECK_CU(cuMemsetD16Async(reinterpret_cast<CUdeviceptr>(dst), value, count,
                            stream));
}

/// Pins host memory and maps it into the device's address space, so a
/// kernel can read a host buffer (gpu.host_register).
FUSE_EXPORT void mgpuMemHostRegister(void *pointer, uint64_t sizeBytes) {
  context();
  CHECK_CU(cuMemHostRegister(pointer, sizeBytes, /*flags=*/0));
}

FUSE_EXPORT void mgpuMemHostUnregister(void *pointer) {
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
    std::fflush(nullptr); // what the program printed comes first
    std::fprintf(stderr,
                 "fuse-cuda-runtime: fuseDeviceFree(%p): not a live buffer of "
                 "fuseDeviceMalloc (freed twice?)\n",
                 pointer);
    std::fflush(nullptr);
    std::_Exit(EXIT_FAILURE);
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
    copy = shared ? fuseDeviceMalloc(sizeBytes)
                  : mgpuMemAlloc(sizeBytes, nullptr, /*isHostShared=*/false);
    CHECK_CU(
        cuMemcpyHtoD(reinterpret_cast<CUdeviceptr>(copy), host, sizeBytes));
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
