/* A library user of fuse's CUDA runtime: with fuseCudaRecordErrors(1) a
 * failed driver call is recorded instead of ending the process, later calls
 * do nothing until fuseCudaTakeError takes the error (record-errors.test). */
#include <stddef.h>
#include <stdio.h>

void fuseCudaRecordErrors(int on);
int fuseCudaTakeError(char *buffer, size_t size);
void *mgpuStreamCreate(void);
void *mgpuMemAlloc(unsigned long long bytes, void *stream, _Bool shared);
void mgpuStreamSynchronize(void *stream);

int main(void) {
  char message[512] = "";
  fuseCudaRecordErrors(1);
  void *stream = mgpuStreamCreate();
  printf("stream: %s\n", stream ? "created" : "none");
  void *memory = mgpuMemAlloc(64, NULL, 0);
  printf("memory: %s\n", memory ? "allocated" : "none");
  mgpuStreamSynchronize(stream);
  int had = fuseCudaTakeError(message, sizeof(message));
  printf("error %d: %s\n", had, message);
  printf("error again: %d\n", fuseCudaTakeError(message, sizeof(message)));
  stream = mgpuStreamCreate();
  had = fuseCudaTakeError(message, sizeof(message));
  printf("retry: %s, error %d: %s\n", stream ? "created" : "none", had,
         message);
  puts("still running");
  return 0;
}
