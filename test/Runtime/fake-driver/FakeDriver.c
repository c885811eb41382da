/* A stand-in for libcuda.so.1 on machines without a GPU driver, for testing
 * fuse's CUDA runtime library there.
 *
 * By default cuInit says there is no device: the tests check what the
 * runtime reports when the driver fails.
 *
 * With FUSE_FAKE_CUDA_DEVICE=1 there is a device that runs nothing: memory
 * is host memory, modules and kernels are names, a launch does no work but
 * advances a device clock by one nanosecond per thread of its grid, and
 * events read that clock. It lets the tests follow a whole compiled program
 * through the runtime (launches, streams, events, the kernel profile) with
 * times that are known in advance. Results are not computed. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
enum { kSuccess = 0, kInvalidValue = 1, kNoDevice = 100 };

/* Whether the environment variable `name` is "1" (the switches below). */
static int envFlag(const char *name) {
  const char *v = getenv(name);
  return v && strcmp(v, "1") == 0;
}

static int hasDevice(void) { return envFlag("FUSE_FAKE_CUDA_DEVICE"); }

CUresult cuInit(unsigned flags) {
  (void)flags;
  return hasDevice() ? kSuccess : kNoDevice;
}

CUresult cuGetErrorName(CUresult error, const char **name) {
  *name = error == kNoDevice       ? "CUDA_ERROR_NO_DEVICE"
          : error == kInvalidValue ? "CUDA_ERROR_INVALID_VALUE"
                                   : "CUDA_ERROR_UNKNOWN";
  return kSuccess;
}

CUresult cuGetErrorString(CUresult error, const char **text) {
  *text = error == kNoDevice       ? "no CUDA-capable device is detected"
          : error == kInvalidValue ? "invalid argument"
                                   : "unknown error";
  return kSuccess;
}

/* Device, context, modules. */
static int context;
static int module;

CUresult cuDeviceGet(int *device, int ordinal) {
  *device = ordinal;
  return ordinal == 0 ? kSuccess : kInvalidValue;
}
CUresult cuDevicePrimaryCtxRetain(void **ctx, int device) {
  (void)device;
  *ctx = &context;
  return kSuccess;
}
CUresult cuCtxSetCurrent(void *ctx) {
  return ctx == &context ? kSuccess : kInvalidValue;
}
CUresult cuModuleLoadData(void **m, const void *image) {
  *m = &module;
  return image ? kSuccess : kInvalidValue;
}
CUresult cuModuleLoadDataEx(void **m, const void *image, unsigned n,
                            void *options, void **values) {
  (void)n, (void)options, (void)values;
  return cuModuleLoadData(m, image);
}
CUresult cuModuleUnload(void *m) {
  return m == &module ? kSuccess : kInvalidValue;
}

/* A kernel is its name, interned: the same name gives the same handle. */
static char *kernels[4096];
static int numKernels;

CUresult cuModuleGetFunction(void **function, void *m, const char *name) {
  if (m != &module)
    return kInvalidValue;
  for (int i = 0; i < numKernels; ++i)
    if (strcmp(kernels[i], name) == 0) {
      *function = kernels[i];
      return kSuccess;
    }
  if (numKernels == 4096)
    return kInvalidValue;
  *function = kernels[numKernels++] = strdup(name);
  return kSuccess;
}
CUresult cuFuncSetAttribute(void *function, int attribute, int value) {
  (void)function, (void)attribute, (void)value;
  return kSuccess;
}

/* The device clock, in milliseconds. */
static double clockMs;

/* Stream capture (CUDA graphs): the stream being captured, and the
 * launches recorded into the graph so far. */
static void *capturedStream;
static int capturedLaunches;

CUresult cuLaunchKernel(void *function, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned smem,
                        void *stream, void **params, void **extra) {
  (void)function, (void)smem, (void)params, (void)extra;
  if (capturedStream && stream == capturedStream) {
    ++capturedLaunches;
    return kSuccess;
  }
  clockMs += (double)gx * gy * gz * bx * by * bz * 1e-6;
  /* FUSE_FAKE_CUDA_TRACE_LAUNCHES=1: each launch's grid, block and stream. */
  if (envFlag("FUSE_FAKE_CUDA_TRACE_LAUNCHES"))
    fprintf(stderr,
            "fake-cuda: launch grid %ux%ux%u block %ux%ux%u stream %p\n", gx,
            gy, gz, bx, by, bz, stream);
  return kSuccess;
}

/* Streams and events. */
CUresult cuStreamCreate(void **stream, unsigned flags) {
  (void)flags;
  *stream = malloc(1);
  return kSuccess;
}
CUresult cuStreamDestroy_v2(void *stream) {
  free(stream);
  return kSuccess;
}
CUresult cuStreamSynchronize(void *stream) {
  /* As the driver: no wait on a stream being captured. */
  if (capturedStream && stream == capturedStream)
    return 900; /* CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED */
  return kSuccess;
}

/* CUDA graphs: a capture counts the launches on its stream (not run); a
 * graph is that count; each of its launches is traced as one line with
 * FUSE_FAKE_CUDA_TRACE_LAUNCHES=1, as is each capture. */
static int traceLaunches(void) {
  return envFlag("FUSE_FAKE_CUDA_TRACE_LAUNCHES");
}
CUresult cuStreamBeginCapture_v2(void *stream, int mode) {
  (void)mode;
  /* FUSE_FAKE_CUDA_NO_CAPTURE=1: a driver that cannot capture. */
  if (envFlag("FUSE_FAKE_CUDA_NO_CAPTURE"))
    return 900; /* CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED */
  if (capturedStream || !stream)
    return 1; /* CUDA_ERROR_INVALID_VALUE */
  capturedStream = stream;
  capturedLaunches = 0;
  return kSuccess;
}
CUresult cuStreamEndCapture(void *stream, void **graph) {
  if (!capturedStream || stream != capturedStream)
    return 1;
  capturedStream = NULL;
  int *launches = malloc(sizeof(int));
  *launches = capturedLaunches;
  *graph = launches;
  if (traceLaunches())
    fprintf(stderr, "fake-cuda: captured %d launches from stream %p\n",
            capturedLaunches, stream);
  return kSuccess;
}
CUresult cuGraphInstantiateWithFlags(void **exec, void *graph,
                                     unsigned long long flags) {
  (void)flags;
  int *copy = malloc(sizeof(int));
  *copy = *(int *)graph;
  *exec = copy;
  return kSuccess;
}
CUresult cuGraphDestroy(void *graph) {
  free(graph);
  return kSuccess;
}
CUresult cuGraphExecDestroy(void *exec) {
  free(exec);
  return kSuccess;
}
CUresult cuGraphLaunch(void *exec, void *stream) {
  if (traceLaunches())
    fprintf(stderr, "fake-cuda: graph of %d launches on stream %p\n",
            *(int *)exec, stream);
  return kSuccess;
}
CUresult cuStreamWaitEvent(void *stream, void *event, unsigned flags) {
  (void)stream, (void)event, (void)flags;
  return kSuccess;
}

CUresult cuEventCreate(void **event, unsigned flags) {
  (void)flags;
  *event = calloc(1, sizeof(double));
  return kSuccess;
}
CUresult cuEventDestroy_v2(void *event) {
  free(event);
  return kSuccess;
}
CUresult cuEventRecord(void *event, void *stream) {
  (void)stream;
  *(double *)event = clockMs;
  return kSuccess;
}
CUresult cuEventSynchronize(void *event) {
  (void)event;
  return kSuccess;
}
CUresult cuEventElapsedTime_v2(float *ms, void *start, void *stop) {
  *ms = (float)(*(double *)stop - *(double *)start);
  return kSuccess;
}

/* Memory: the host's. With FUSE_FAKE_CUDA_TRACE=1 each allocation is
 * written to stderr with its kind (device or managed) and size; with
 * FUSE_FAKE_CUDA_TRACE_COPIES=1 each copy (cuMemcpyAsync) with its size and
 * direction (device memory is what cuMemAlloc returned). */
static void traceAllocation(const char *kind, size_t bytes) {
  if (envFlag("FUSE_FAKE_CUDA_TRACE"))
    fprintf(stderr, "fake-cuda: %s %zu bytes\n", kind, bytes);
}
/* The live device allocations (a short list: a test's few buffers). */
enum { kMaxDeviceBuffers = 4096 };
static struct {
  uintptr_t begin, end;
} deviceBuffers[kMaxDeviceBuffers];
static int deviceBufferCount;
static int isHostBuffer(CUdeviceptr pointer) {
  for (int i = 0; i < deviceBufferCount; ++i)
    if (pointer >= deviceBuffers[i].begin && pointer < deviceBuffers[i].end)
      return 0;
  return 1;
}
static CUresult allocate(CUdeviceptr *pointer, size_t bytes) {
  void *p = calloc(1, bytes);
  *pointer = (CUdeviceptr)(uintptr_t)p;
  if (p && deviceBufferCount < kMaxDeviceBuffers) {
    deviceBuffers[deviceBufferCount].begin = (uintptr_t)p;
    deviceBuffers[deviceBufferCount].end = (uintptr_t)p + bytes;
    ++deviceBufferCount;
  }
  return p ? kSuccess : kInvalidValue;
}
CUresult cuMemAllocManaged(CUdeviceptr *pointer, size_t bytes, unsigned flags) {
  (void)flags;
  traceAllocation("managed", bytes);
  return allocate(pointer, bytes);
}
CUresult cuMemAlloc_v2(CUdeviceptr *pointer, size_t bytes) {
  traceAllocation("device", bytes);
  return allocate(pointer, bytes);
}
CUresult cuMemFree_v2(CUdeviceptr pointer) {
  for (int i = 0; i < deviceBufferCount; ++i)
    if (deviceBuffers[i].begin == pointer) {
      deviceBuffers[i] = deviceBuffers[--deviceBufferCount];
      break;
    }
  free((void *)(uintptr_t)pointer);
  return kSuccess;
}
CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t bytes) {
  memcpy((void *)(uintptr_t)dst, src, bytes);
  return kSuccess;
}
CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                       void *stream) {
  (void)stream;
  if (envFlag("FUSE_FAKE_CUDA_TRACE_COPIES"))
    fprintf(stderr, "fake-cuda: copy %zu bytes %s\n", bytes,
            isHostBuffer(dst) ? "to the host" : "to the device");
  memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, bytes);
  return kSuccess;
}
CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned value, size_t count,
                          void *stream) {
  (void)stream;
  for (size_t i = 0; i < count; ++i)
    ((unsigned *)(uintptr_t)dst)[i] = value;
  return kSuccess;
}
CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short value, size_t count,
                          void *stream) {
  (void)stream;
  for (size_t i = 0; i < count; ++i)
    ((unsigned short *)(uintptr_t)dst)[i] = value;
  return kSuccess;
}
CUresult cuMemHostRegister_v2(void *p, size_t bytes, unsigned flags) {
  (void)p, (void)bytes, (void)flags;
  return kSuccess;
}
CUresult cuMemHostUnregister(void *p) {
  (void)p;
  return kSuccess;
}
