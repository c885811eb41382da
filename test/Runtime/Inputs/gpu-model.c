/* Runs a GPU compiled model through the runtime's C API on "device" buffers
 * and the caller's stream (gpu-model.test runs it on the fake driver, whose
 * device memory is the host's and whose kernels compute nothing). */
#include "fuse-c/Runtime.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0); /* in order with the driver's trace */
  FuseModel *model = NULL;
  FuseStatus status = fuseModelLoad(argv[1], &model);
  if (status) {
    printf("load: %s: %s\n", fuseStatusCodeName(fuseStatusCode(status)),
           fuseStatusMessage(status));
    fuseStatusFree(status);
    return 0;
  }
  printf("target %s, workspace %zu\n", fuseModelTarget(model),
         fuseModelWorkspaceSize(model));
  int n = fuseModelNumInputs(model), m = fuseModelNumOutputs(model);
  FuseTensor *tensors = calloc((size_t)(n + m), sizeof(FuseTensor));
  for (int k = 0; k < n + m; ++k) {
    FuseTensorInfo info;
    fuseModelInput(model, k, &info);
    if (k >= n)
      fuseModelOutput(model, k - n, &info);
    tensors[k] = (FuseTensor){calloc(1, info.bytes + 64), info.dtype, info.rank,
                              info.dims};
  }
  /* Host memory: staged through device buffers of the call's own. The fake
   * device computes nothing, so the outputs come back as those buffers
   * were; a sentinel in the host outputs shows that they were written. */
  FuseRunOptions options = {
      sizeof(FuseRunOptions), FUSE_MEMORY_HOST, NULL, NULL, 0, NULL};
  for (int32_t k = n; k < n + m; ++k) {
    FuseTensorInfo info;
    fuseModelOutput(model, k - n, &info);
    memset(tensors[k].data, 0x7f, info.bytes);
  }
  status = fuseModelRun(model, tensors, n, tensors + n, m, &options);
  int written = 1;
  for (int32_t k = n; k < n + m; ++k) {
    FuseTensorInfo info;
    fuseModelOutput(model, k - n, &info);
    for (size_t b = 0; b < info.bytes; ++b)
      written &= ((unsigned char *)tensors[k].data)[b] != 0x7f;
  }
  printf("host memory: %s%s\n", status ? fuseStatusMessage(status) : "ran",
         status    ? ""
         : written ? ", outputs copied back"
                   : ", outputs NOT written");
  fuseStatusFree(status);
  static char hostWorkspace[1 << 16] __attribute__((aligned(64)));
  options.workspace = hostWorkspace;
  options.workspace_bytes = sizeof(hostWorkspace);
  status = fuseModelRun(model, tensors, n, tensors + n, m, &options);
  printf("host memory, a workspace: %s\n",
         status ? fuseStatusMessage(status) : "ran");
  fuseStatusFree(status);
  options.workspace = NULL;
  options.workspace_bytes = 0;
  options.memory = (FuseMemoryKind)7;
  status = fuseModelRun(model, tensors, n, tensors + n, m, &options);
  printf("memory kind 7: %s\n", status ? fuseStatusMessage(status) : "ran");
  fuseStatusFree(status);
  options.memory = FUSE_MEMORY_DEVICE;
  options.stream = (void *)0x5afe;
  status = fuseModelRun(model, tensors, n, tensors + n, m, &options);
  printf("device memory, caller's stream: %s\n",
         status ? fuseStatusMessage(status) : "ran");
  fuseStatusFree(status);
  /* CUDA graphs: captured, replayed, captured again for other addresses;
   * refused without a stream and for a value other than 0 or 1. */
  options.cuda_graph = 1;
  const char *steps[] = {"graph, first call", "graph, same addresses",
                         "graph, another output"};
  for (int step = 0; step < 3; ++step) {
    if (step == 2)
      tensors[n].data = (char *)tensors[n].data + 64;
    status = fuseModelRun(model, tensors, n, tensors + n, m, &options);
    printf("%s: %s\n", steps[step], status ? fuseStatusMessage(status) : "ran");
    fuseStatusFree(status);
  }
  options.stream = NULL;
  status = fuseModelRun(model, tensors, n, tensors + n, m, &options);
  printf("graph, no stream: %s\n", status ? fuseStatusMessage(status) : "ran");
  fuseStatusFree(status);
  options.stream = (void *)0x5afe;
  options.cuda_graph = 2;
  status = fuseModelRun(model, tensors, n, tensors + n, m, &options);
  printf("graph 2: %s\n", status ? fuseStatusMessage(status) : "ran");
  fuseStatusFree(status);
  fuseModelRelease(model);
  return 0;
}
