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
|*                                                                            *|
|*   fuse-model 1                                                             *|
|*   target cpu|cuda                                                          *|
|*   workspace <bytes>              (the caller's scratch buffer,             *|
|*                                   64-byte aligned or more)                 *|
|*   reentrant 0|1                  (1: concurrent calls with separate        *|
|*                                   workspaces are safe)                     *|
|*   input <name> <dtype> <shape>   (one line per input, in call order)       *|
|*   output <name> <dtype> <shape>  (one line per output, in call order)      *|
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

#endif /* FUSE_C_MODELABI_H */
