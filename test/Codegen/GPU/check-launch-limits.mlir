// fuse-check-launch-limits: the block size and shared memory asked for are
// within the module target's limits, or one error line says which is not.
// RUN: fuse-opt %s --fuse-check-launch-limits="block-size=1024 shared-bytes=232448" | FileCheck %s --check-prefix=OK
// RUN: not fuse-opt %s --fuse-check-launch-limits="block-size=2048" 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: fuse-opt %s --fuse-attach-target=target=t4 | not fuse-opt --fuse-check-launch-limits="shared-bytes=65537" 2>&1 | FileCheck %s --check-prefix=T4
// RUN: fuse-opt %s --fuse-attach-target=target=t4 | fuse-opt --fuse-check-launch-limits="shared-bytes=65536" | FileCheck %s --check-prefix=OK
// OK: func.func @f
// BLOCK: error: fuse-check-launch-limits: option 'block-size' must be at most 1024 (max_threads_per_block of target 'h200'), got 2048
// T4: error: fuse-check-launch-limits: option 'shared-bytes' must be at most 65536 (shared memory per block of target 't4'), got 65537
func.func @f() {
  return
}
