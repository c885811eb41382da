// fuse-attach-target records the target on the module once; the same one
// again changes nothing, another one is an error naming both; the target
// option must name one. fuse-strip-target drops it.
// RUN: fuse-opt %s --fuse-attach-target=target=t4 | FileCheck %s --check-prefix=T4
// RUN: fuse-opt %s --fuse-attach-target=target=t4 --fuse-attach-target=target=t4 | FileCheck %s --check-prefix=T4
// RUN: fuse-opt %s --fuse-attach-target | FileCheck %s --check-prefix=DEFAULT
// RUN: fuse-opt %s --fuse-attach-target='target={#fuse.target<"a100", smem_per_block = 49152>}' | FileCheck %s --check-prefix=ATTR
// RUN: not fuse-opt %s --fuse-attach-target=target=t4 --fuse-attach-target=target=a100 2>&1 | FileCheck %s --check-prefix=MISMATCH
// RUN: not fuse-opt %s --fuse-attach-target=target= 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: fuse-opt %s --fuse-attach-target=target=t4 --fuse-strip-target | FileCheck %s --check-prefix=STRIP
// T4: module attributes {fuse.target = #fuse.target<"t4">}
// DEFAULT: module attributes {fuse.target = #fuse.target<"h200">}
// ATTR: module attributes {fuse.target = #fuse.target<"a100", {{.*}}smem_per_block = 49152
// MISMATCH: error: fuse-attach-target: target=#fuse.target<"a100"> differs from the module's fuse.target = #fuse.target<"t4">
// EMPTY: error: fuse-attach-target: option 'target' must name a target
// STRIP-NOT: fuse.target
// STRIP: func.func @f
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
