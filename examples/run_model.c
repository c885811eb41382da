/* Loads a compiled model and runs it once on zeros: the C API in 30 lines.
 *   fuse-compile model.onnx --target=cpu -o model.so
 *   cc run_model.c -I PREFIX/include -L PREFIX/lib -lfuse_runtime -o run_model
 *   ./run_model model.so                                                    */
#include "fuse-c/Runtime.h"
#include <stdio.h>
#include <stdlib.h>

static int check(FuseStatus status) {
  if (!status)
    return 0;
  fprintf(stderr, "error: %s\n", fuseStatusMessage(status));
  fuseStatusFree(status);
  return 1;
}

int main(int argc, char **argv) {
  FuseModel *model;
  if (argc != 2 || check(fuseModelLoad(argv[1], &model)))
    return 1;
  int n = fuseModelNumInputs(model), m = fuseModelNumOutputs(model);
  FuseTensor *tensors = calloc(n + m, sizeof(FuseTensor));
  for (int k = 0; k < n + m; ++k) {
    FuseTensorInfo info;
    check(k < n ? fuseModelInput(model, k, &info)
                : fuseModelOutput(model, k - n, &info));
    tensors[k] = (FuseTensor){calloc(1, info.bytes + 1), info.dtype, info.rank,
                              info.dims};
    printf("%s %s: %s, %lld elements\n", k < n ? "input" : "output", info.name,
           fuseDTypeName(info.dtype), (long long)info.num_elements);
  }
  int failed = check(fuseModelRun(model, tensors, n, tensors + n, m, NULL));
  printf("%s\n", failed ? "run failed" : "ran");
  fuseModelRelease(model);
  return failed;
}
