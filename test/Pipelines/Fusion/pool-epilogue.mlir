// contraction_epilogue on poolings: what follows a pool elementwise (an
// average pool's division, an activation, a join with another value) is
// computed by the pool's kernel.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200" | FileCheck %s
// RUN: %check_equivalence %s --function avg_relu | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function avg_relu --lower-groups | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function max_join | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function max_join --lower-groups | FileCheck %s --check-prefix=EQUIV
// EQUIV: PASS

// A global average pool: the sum, its division and the ReLU are one kernel.
// CHECK-LABEL: func @avg_relu
// CHECK: fuse.group vertical rule "contraction_epilogue"
// CHECK: linalg.pooling_nhwc_sum
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK-NOT: fuse.group
// CHECK: return
func.func @avg_relu(%x: tensor<1x7x7x16xf32>) -> tensor<1x1x1x16xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %p = tosa.avg_pool2d %x, %zp, %zp {acc_type = f32, kernel = array<i64: 7, 7>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x7x7x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x1x16xf32>
  %r = tosa.clamp %p {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x1x1x16xf32>) -> tensor<1x1x1x16xf32>
  return %r : tensor<1x1x1x16xf32>
}

// A max pool whose result is added to its own input: the pool's group
// reads the input a second time (a join).
// CHECK-LABEL: func @max_join
// CHECK: fuse.group {{.*}}rule "{{contraction_epilogue|residual_join}}"
// CHECK: linalg.pooling_nhwc_max
// CHECK: arith.addf
// CHECK-NOT: fuse.group
// CHECK: return
func.func @max_join(%x: tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32> {
  %p = tosa.max_pool2d %x {kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %c = tosa.add %x, %p : (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  return %c : tensor<1x8x8x4xf32>
}
