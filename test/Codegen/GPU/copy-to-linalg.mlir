// RUN: fuse-opt %s -split-input-file --fuse-copy-to-linalg | FileCheck %s

// A memref.copy (a padded tile into its buffer) becomes a linalg.copy of the
// same operands, which lowers to loops inside a kernel.
// CHECK-LABEL: func @strided_copy
// CHECK-SAME: (%[[SRC:.*]]: memref<4x4xf32>, %[[DST:.*]]: memref<4x4xf32, strided<[8, 1]>>)
// CHECK-NOT: memref.copy
// CHECK: linalg.copy ins(%[[SRC]] : memref<4x4xf32>) outs(%[[DST]] : memref<4x4xf32, strided<[8, 1]>>)
func.func @strided_copy(%src: memref<4x4xf32>, %dst: memref<4x4xf32, strided<[8, 1]>>) {
  memref.copy %src, %dst : memref<4x4xf32> to memref<4x4xf32, strided<[8, 1]>>
  return
}

// -----

// Inside a gpu.module's kernel too, from shared memory.
// CHECK-LABEL: gpu.func @kernel
// CHECK: linalg.copy ins(%{{.*}} : memref<8xf32, 3>) outs(%{{.*}} : memref<8xf32>)
// CHECK-NOT: memref.copy
gpu.module @kernels {
  gpu.func @kernel(%a: memref<8xf32, 3>, %b: memref<8xf32>) kernel {
    memref.copy %a, %b : memref<8xf32, 3> to memref<8xf32>
    gpu.return
  }
}
