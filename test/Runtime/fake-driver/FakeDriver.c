/* A stand-in for libcuda.so.1 on machines without a GPU driver: cuInit says
 * there is no device. It lets the tests check what fuse's CUDA runtime
 * library reports when the driver fails. */
#include <stddef.h>

typedef int CUresult;
enum { kNoDevice = 100 };

CUresult cuInit(unsigned flags) {
  (void)flags;
  return kNoDevice;
}

CUresult cuGetErrorName(CUresult error, const char **name) {
  *name = error == kNoDevice ? "CUDA_ERROR_NO_DEVICE" : "CUDA_ERROR_UNKNOWN";
  return 0;
}

CUresult cuGetErrorString(CUresult error, const char **text) {
  *text = error == kNoDevice ? "no CUDA-capable device is detected"
                             : "unknown error";
  return 0;
}
