// RUN: fuse-opt %s --fuse-drop-known-block-size | FileCheck %s

// The block size gpu-kernel-outlining recorded on a kernel goes (so that the
// NVVM lowering emits no .maxntid and ptxas budgets registers by need); the
// launch's own sizes, and other attributes, stay.
// CHECK-LABEL: gpu.module @kernels
// CHECK: gpu.func @kernel(%{{.*}}: memref<128xf32>) kernel attributes {test.keep}
// CHECK-NOT: known_block_size
// CHECK: func.func @host
// CHECK: gpu.launch_func @kernels::@kernel blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%[[T:.*]], %{{.*}}, %{{.*}})
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel(%a: memref<128xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>, test.keep} {
      gpu.return
    }
  }
  func.func @host(%a: memref<128xf32>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    gpu.launch_func @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) args(%a : memref<128xf32>)
    return
  }
}
