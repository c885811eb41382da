/*===- ModelAbi.h - what a compiled model exports -----------------*- C -*-===*\
|*                                                                            *|
|* Part of fuse, an MLIR-based operator-fusion compiler.                      *|
|*                                                                            *|
|* A compiled model (`fuse-compile ... -o model.so`) is a shared library that *|
|* exports three symbols; the runtime (Runtime.h) checks the version before   *|
|* it reads or calls anything else. Applications use Runtime.h, not these.    *|
|*                                                                            *|
|*   const int32_t fuse_model_abi_version;   FUSE_MODEL_ABI_VERSION           *|
|*   const char    fuse_model_signature[];   the text below, NUL-terminated   *|
|*   int32_t fuse_model_run(void *const *inputs, void *const *outputs,        *|
|*                          void *workspace);  0 on success                   *|
|*                                                                            *|
|* The signature, one item per line:                                          *|
|* A GPU library (target cuda) also exports fuse_model_init and               *|
|* fuse_model_fini (void(void)): they load and unload its kernels through     *|
|* libfuse_cuda_runtime's mgpu* functions, whose symbols it leaves undefined; *|
|* nothing runs at dlopen.                                                    *|
|* A CPU library with parallel loops exports fuse_model_parallel_hook, a      *|
|* pointer the runtime may set at load to its parallel-for:                   *|
|*   void hook(void (*task)(void *context, int64_t begin, int64_t end),       *|
|*             void *context, int64_t begin, int64_t end);                    *|
|* which must run task over disjoint subranges covering [begin, end), on any *|
|* threads, and return when all are done. Null: each loop runs on the        *|
|* calling thread.                                                            *|
|*                                                                            *|
|*   fuse-model 1                                                             *|
|*   target cpu|cuda                                                          *|
|*   workspace <bytes>              (the caller's scratch buffer,             *|
|*                                   64-byte aligned or more)                 *|
|*   reentrant 0|1                  (1: concurrent calls with separate        *|
|*                                   workspaces are safe)                     *|
|*   input <name> <dtype> <shape>   (one line per input, in call order)       *|
|*   output <name> <dtype> <shape>  (one line per output, in call order)      *|
|*   kernel <name> <rule> <nodes>   (one line per kernel, in call order)      *|
|*   profile 1                      (optional: the profile hook is there)     *|
|*   parallel 1                     (optional: the parallel hook is there)    *|
|* <name> is percent-encoded (every byte outside [A-Za-z0-9_.:/+-] as %XX),   *|
|* <dtype> one of f16 bf16 f32 f64 bool i8 i16 i32 i64, <shape> the dims      *|
|* joined by 'x' ("1x3x224x224"), or "scalar" for rank 0. Data is dense,      *|
|* row-major, at least element-aligned.                                       *|
\*===----------------------------------------------------------------------===*/

#ifndef FUSE_C_MODELABI_H
#define FUSE_C_MODELABI_H

#define FUSE_MODEL_ABI_VERSION 1
#define FUSE_MODEL_ABI_VERSION_SYMBOL "fuse_model_abi_version"
#define FUSE_MODEL_SIGNATURE_SYMBOL "fuse_model_signature"
#define FUSE_MODEL_RUN_SYMBOL "fuse_model_run"
#define FUSE_MODEL_PROFILE_HOOK_SYMBOL "fuse_model_profile_hook"
#define FUSE_MODEL_INIT_SYMBOL "fuse_model_init"
#define FUSE_MODEL_FINI_SYMBOL "fuse_model_fini"
#define FUSE_MODEL_PARALLEL_HOOK_SYMBOL "fuse_model_parallel_hook"

#endif /* FUSE_C_MODELABI_H */
