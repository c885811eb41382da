/*===- Runtime.h - fuse's compiled-model runtime (C API) ----------*- C -*-===*\
|*                                                                            *|
|* Part of fuse, an MLIR-based operator-fusion compiler.                      *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/**
 * \file
 * Loads a compiled model (`fuse-compile model.onnx --target=cpu -o model.so`)
 * and runs it on buffers the caller owns. Link with `-lfuse_runtime`.
 *
 *   FuseModel *model;
 *   FuseStatus status = fuseModelLoad("model.so", &model);
 *   if (status) { puts(fuseStatusMessage(status)); fuseStatusFree(status); }
 *   FuseTensorInfo info;
 *   fuseModelInput(model, 0, &info);           // name, dtype, shape
 *   FuseTensor in = {x, info.dtype, info.rank, info.dims};
 *   FuseTensor out = {y, ...};
 *   status = fuseModelRun(model, &in, 1, &out, 1, NULL);
 *   fuseModelRelease(model);
 *
 * Errors: every function that can fail returns a FuseStatus, NULL on
 * success; a non-NULL status carries a code and a message naming the
 * problem and is freed with fuseStatusFree. Nothing in the runtime exits or
 * aborts the process.
 *
 * Threads: a loaded model may be run from several threads at once; each
 * concurrent call needs its own workspace (or passes none and the runtime
 * allocates one per call). A model whose code keeps state between calls
 * (fuseModelIsReentrant() == 0) runs its calls one at a time. A CPU
 * model's parallel loops run on the caller's thread and a process-wide
 * pool of workers (FuseRunOptions.threads, FUSE_NUM_THREADS). Releasing a
 * model while a call on it runs is the caller's error.
 *
 * Trust: a compiled model is machine code. fuseModelLoad checks the file
 * (an ELF shared library for this machine, exporting a fuse model of this
 * ABI version, with a well-formed signature) before the dynamic loader
 * maps it, but cannot make a hostile library safe: load only models from a
 * compile you trust.
 *
 * Stability: the functions and types below keep their meaning within a
 * major version (FUSE_RUNTIME_API_VERSION); structs passed by pointer grow
 * only at their end.
 */

#ifndef FUSE_C_RUNTIME_H
#define FUSE_C_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define FUSE_RUNTIME_EXPORT __attribute__((visibility("default")))
#else
#define FUSE_RUNTIME_EXPORT
#endif

#define FUSE_RUNTIME_API_VERSION 1

/** The alignment a caller's workspace must have. */
#define FUSE_WORKSPACE_ALIGNMENT 64

/*===--- Status ----------------------------------------------------------===*/

typedef enum FuseStatusCode {
  FUSE_STATUS_OK = 0,
  /** A null pointer, a wrong count, shape or element type, a misaligned or
   *  overlapping buffer, a workspace too small. */
  FUSE_STATUS_INVALID_ARGUMENT = 1,
  /** The model file does not exist or cannot be read. */
  FUSE_STATUS_NOT_FOUND = 2,
  /** Not a compiled model: not an ELF shared library for this machine,
   *  truncated, no fuse model symbols, a malformed signature. */
  FUSE_STATUS_INVALID_MODEL = 3,
  /** A compiled model of another ABI version than this runtime's. */
  FUSE_STATUS_VERSION_MISMATCH = 4,
  /** What the model needs is not here (a GPU model without a device). */
  FUSE_STATUS_UNAVAILABLE = 5,
  /** Memory could not be allocated. */
  FUSE_STATUS_OUT_OF_MEMORY = 6,
  /** The model's code reported a failure. */
  FUSE_STATUS_INTERNAL = 7,
} FuseStatusCode;

/** NULL: success. */
typedef struct FuseStatusImpl *FuseStatus;

FUSE_RUNTIME_EXPORT FuseStatusCode fuseStatusCode(FuseStatus status);
/** The message; valid until fuseStatusFree. "" for NULL. */
FUSE_RUNTIME_EXPORT const char *fuseStatusMessage(FuseStatus status);
FUSE_RUNTIME_EXPORT void fuseStatusFree(FuseStatus status);
/** The code's name ("invalid argument", ...). */
FUSE_RUNTIME_EXPORT const char *fuseStatusCodeName(FuseStatusCode code);

/*===--- Element types ---------------------------------------------------===*/

typedef enum FuseDType {
  FUSE_DTYPE_INVALID = 0,
  FUSE_DTYPE_F16 = 1,
  FUSE_DTYPE_BF16 = 2,
  FUSE_DTYPE_F32 = 3,
  FUSE_DTYPE_F64 = 4,
  FUSE_DTYPE_BOOL = 5, /**< one byte, 0 or 1 */
  FUSE_DTYPE_I8 = 6,
  FUSE_DTYPE_I16 = 7,
  FUSE_DTYPE_I32 = 8,
  FUSE_DTYPE_I64 = 9,
} FuseDType;

/** Bytes per element (0 for FUSE_DTYPE_INVALID). */
FUSE_RUNTIME_EXPORT size_t fuseDTypeSize(FuseDType dtype);
/** "f32", "i64", ...; "invalid" for anything else. */
FUSE_RUNTIME_EXPORT const char *fuseDTypeName(FuseDType dtype);

/*===--- Models ----------------------------------------------------------===*/

typedef struct FuseModel FuseModel;

/** What an input or output is. The pointers live as long as the model. */
typedef struct FuseTensorInfo {
  const char *name;
  FuseDType dtype;
  int32_t rank;
  const int64_t *dims; /**< rank entries */
  int64_t num_elements;
  size_t bytes;
} FuseTensorInfo;

/** Loads the compiled model at `path` into `*model`. */
FUSE_RUNTIME_EXPORT FuseStatus fuseModelLoad(const char *path,
                                             FuseModel **model);
/** Unloads a model (NULL: nothing). */
FUSE_RUNTIME_EXPORT void fuseModelRelease(FuseModel *model);

/** "cpu" (the host). */
FUSE_RUNTIME_EXPORT const char *fuseModelTarget(const FuseModel *model);
FUSE_RUNTIME_EXPORT int32_t fuseModelNumInputs(const FuseModel *model);
FUSE_RUNTIME_EXPORT int32_t fuseModelNumOutputs(const FuseModel *model);
FUSE_RUNTIME_EXPORT FuseStatus fuseModelInput(const FuseModel *model,
                                              int32_t index,
                                              FuseTensorInfo *info);
FUSE_RUNTIME_EXPORT FuseStatus fuseModelOutput(const FuseModel *model,
                                               int32_t index,
                                               FuseTensorInfo *info);
/** The bytes of scratch memory one call needs (0: none). */
FUSE_RUNTIME_EXPORT size_t fuseModelWorkspaceSize(const FuseModel *model);
/** 1 when concurrent calls (with separate workspaces) run in parallel. */
FUSE_RUNTIME_EXPORT int fuseModelIsReentrant(const FuseModel *model);

/** A kernel of the model: one fusion group. The pointers live as long as
 *  the model. */
typedef struct FuseKernelInfo {
  const char *name;  /**< its function ("torch_jit__group3") */
  const char *rule;  /**< the fusion rule that formed it ("" for none) */
  const char *nodes; /**< the ONNX nodes in it ("Conv_3 + Relu_4"; "") */
} FuseKernelInfo;

/** The kernels, in the order a call runs them. */
FUSE_RUNTIME_EXPORT int32_t fuseModelNumKernels(const FuseModel *model);
FUSE_RUNTIME_EXPORT FuseStatus fuseModelKernel(const FuseModel *model,
                                               int32_t index,
                                               FuseKernelInfo *info);
/** 1 when the model times its kernels (fuse-compile --profile). */
FUSE_RUNTIME_EXPORT int fuseModelIsProfiled(const FuseModel *model);
/** 1 when a CPU model has loops that run on several threads
 *  (FuseRunOptions.threads); 0 when every call runs on its own thread. */
FUSE_RUNTIME_EXPORT int fuseModelIsParallel(const FuseModel *model);

/*===--- Running ---------------------------------------------------------===*/

/** A caller's buffer: dense, row-major, aligned to its element size. */
typedef struct FuseTensor {
  void *data;
  FuseDType dtype;
  int32_t rank;
  const int64_t *dims; /**< rank entries */
} FuseTensor;

typedef enum FuseMemoryKind {
  /** Host memory: a cpu model's only kind. A GPU model's call copies the
   *  inputs to device buffers of its own and the outputs back, on its
   *  stream, and takes no caller workspace (API version 1.3; before, a GPU
   *  model refused it). */
  FUSE_MEMORY_HOST = 0,
  FUSE_MEMORY_DEVICE = 1, /**< device memory of a GPU model */
} FuseMemoryKind;

typedef struct FuseRunOptions {
  /** sizeof(FuseRunOptions), so that the struct can grow. */
  size_t struct_size;
  /** Where the inputs and outputs are. */
  FuseMemoryKind memory;
  /** The caller's CUDA stream (CUstream) for a GPU model; NULL for cpu. */
  void *stream;
  /** Scratch memory of at least fuseModelWorkspaceSize() bytes, aligned
   *  to FUSE_WORKSPACE_ALIGNMENT; NULL: the runtime allocates it for the
   *  call. */
  void *workspace;
  size_t workspace_bytes;
  /** NULL, or fuseModelNumKernels() doubles that get each kernel's wall
   *  time in this call, in milliseconds (a model compiled with --profile). */
  double *kernel_ms;
  /** The threads a CPU model's call may use (the calling thread and
   *  workers of the runtime's pool, shared by all models and calls): 0 is
   *  fuseRuntimeDefaultThreads(), else 1 to 1024. Results do not depend on
   *  it. Added in API version 1.1: a caller built before it passes a
   *  smaller struct_size and gets the default. */
  int32_t threads;
  /** A GPU model only: 1 runs the call's launches as a CUDA graph, one
   *  launch for the whole call instead of one per kernel. The first call
   *  (and any whose inputs, outputs, workspace or stream differ from the
   *  last captured one) captures the graph from `stream` (required) and
   *  then launches it; the next calls with the same addresses replay it.
   *  A call without `workspace` uses one the model keeps for such calls.
   *  Not with `kernel_ms`. 0: one launch per kernel. Added in API version
   *  1.2 (an older caller gets 0). */
  int32_t cuda_graph;
} FuseRunOptions;

/** The threads a CPU model's call uses when its options do not say: the
 *  environment variable FUSE_NUM_THREADS (1 to 1024) if set, else the
 *  number of CPUs this process may run on. */
FUSE_RUNTIME_EXPORT int32_t fuseRuntimeDefaultThreads(void);

/** Runs the model: inputs and outputs in the model's order, each checked
 *  against the model's (count, element type, rank, dims, a non-null and
 *  aligned pointer, outputs overlapping nothing else). `options` NULL: host
 *  memory, a workspace allocated for the call. */
FUSE_RUNTIME_EXPORT FuseStatus fuseModelRun(FuseModel *model,
                                            const FuseTensor *inputs,
                                            int32_t num_inputs,
                                            const FuseTensor *outputs,
                                            int32_t num_outputs,
                                            const FuseRunOptions *options);

#ifdef __cplusplus
}
#endif

#endif /* FUSE_C_RUNTIME_H */
