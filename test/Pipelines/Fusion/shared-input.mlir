// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="disable-rules=shared_input_contractions" | FileCheck %s --check-prefix=OFF
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT
// Fused and unfused give the same results on the CPU.
// RUN: %check_equivalence %s --function qkv | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function inception_1x1 | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function different_strides | FileCheck %s --check-prefix=EQUIV
// With every group lowered to one tile loop nest too.
// RUN: %check_equivalence %s --function qkv --lower-groups | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function different_strides --lower-groups | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function inception_1x1 --lower-groups | FileCheck %s --check-prefix=EQUIV
// EQUIV-NOT: FAIL
// EQUIV: PASS

// Q, K and V projections of one input with their biases: one GEMM on
// concatenated weights, its three slices and bias adds, one kernel.
// CHECK-LABEL: func @qkv
// CHECK: %[[G:.*]]:3 = fuse.group horizontal rule "shared_input_contractions"
// CHECK: linalg.batch_matmul {{.*}} -> tensor<1x16x96xf32>
// CHECK-COUNT-3: tensor.extract_slice
// CHECK-NOT: fuse.group
// CHECK: return %[[G]]#0, %[[G]]#1, %[[G]]#2
// With the rule off, three contractions on their own weights (the sibling
// rules still put them in one launch).
// OFF-LABEL: func @qkv
// OFF-COUNT-3: linalg.batch_matmul {{.*}} -> tensor<1x16x32xf32>
// OFF-LABEL: func @inception_1x1
// REPORT: "name": "qkv"
// REPORT: "kernels_before": 7
// REPORT-NEXT: "kernels_after": 1
// REPORT: "kind": "horizontal",
// REPORT-NEXT: "rule": "shared_input_contractions",
func.func @qkv(%x: tensor<1x16x32xf32>, %bq: tensor<1x1x32xf32>, %bk: tensor<1x1x32xf32>, %bv: tensor<1x1x32xf32>) -> (tensor<1x16x32xf32>, tensor<1x16x32xf32>, tensor<1x16x32xf32>) {
  %wq = "tosa.const"() <{values = dense<0.01> : tensor<1x32x32xf32>}> : () -> tensor<1x32x32xf32>
  %wk = "tosa.const"() <{values = dense<0.02> : tensor<1x32x32xf32>}> : () -> tensor<1x32x32xf32>
  %wv = "tosa.const"() <{values = dense<0.03> : tensor<1x32x32xf32>}> : () -> tensor<1x32x32xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %q0 = tosa.matmul %x, %wq, %zp, %zp : (tensor<1x16x32xf32>, tensor<1x32x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x32xf32>
  %k0 = tosa.matmul %x, %wk, %zp, %zp : (tensor<1x16x32xf32>, tensor<1x32x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x32xf32>
  %v0 = tosa.matmul %x, %wv, %zp, %zp : (tensor<1x16x32xf32>, tensor<1x32x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x32xf32>
  %q = tosa.add %q0, %bq : (tensor<1x16x32xf32>, tensor<1x1x32xf32>) -> tensor<1x16x32xf32>
  %k = tosa.add %k0, %bk : (tensor<1x16x32xf32>, tensor<1x1x32xf32>) -> tensor<1x16x32xf32>
  %v = tosa.add %v0, %bv : (tensor<1x16x32xf32>, tensor<1x1x32xf32>) -> tensor<1x16x32xf32>
  return %q, %k, %v : tensor<1x16x32xf32>, tensor<1x16x32xf32>, tensor<1x16x32xf32>
}

// -----

// Inception: the 1x1 convolutions of three branches on one input, each with
// its ReLU, are one conv and one kernel.
// CHECK-LABEL: func @inception_1x1
// CHECK: %[[G:.*]]:3 = fuse.group horizontal rule "shared_input_contractions"
// CHECK: linalg.conv_2d_nhwc_fhwc {{.*}} -> tensor<1x8x8x40xf32>
// CHECK-NOT: fuse.group
func.func @inception_1x1(%x: tensor<1x8x8x16xf32>) -> (tensor<1x8x8x8xf32>, tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>) {
  %w1 = "tosa.const"() <{values = dense<0.01> : tensor<8x1x1x16xf32>}> : () -> tensor<8x1x1x16xf32>
  %w2 = "tosa.const"() <{values = dense<0.02> : tensor<16x1x1x16xf32>}> : () -> tensor<16x1x1x16xf32>
  %w3 = "tosa.const"() <{values = dense<0.03> : tensor<16x1x1x16xf32>}> : () -> tensor<16x1x1x16xf32>
  %b8 = "tosa.const"() <{values = dense<0.1> : tensor<8xf32>}> : () -> tensor<8xf32>
  %b16 = "tosa.const"() <{values = dense<0.2> : tensor<16xf32>}> : () -> tensor<16xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c1 = tosa.conv2d %x, %w1, %b8, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x16xf32>, tensor<8x1x1x16xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x8xf32>
  %c2 = tosa.conv2d %x, %w2, %b16, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x16xf32>, tensor<16x1x1x16xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x16xf32>
  %c3 = tosa.conv2d %x, %w3, %b16, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x16xf32>, tensor<16x1x1x16xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x16xf32>
  %r1 = tosa.clamp %c1 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %r2 = tosa.clamp %c2 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %r3 = tosa.clamp %c3 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %r1, %r2, %r3 : tensor<1x8x8x8xf32>, tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>
}

// -----

// Different strides do not merge: a ResNet downsample (stride 2) and a
// stride-1 conv stay two contractions (their splat biases are fills, so
// each is a group of its own op).
// CHECK-LABEL: func @different_strides
// CHECK-NOT: shared_input_contractions
// CHECK-COUNT-2: fuse.group single
func.func @different_strides(%x: tensor<1x9x9x16xf32>) -> (tensor<1x5x5x16xf32>, tensor<1x9x9x16xf32>) {
  %w = "tosa.const"() <{values = dense<0.01> : tensor<16x1x1x16xf32>}> : () -> tensor<16x1x1x16xf32>
  %b = "tosa.const"() <{values = dense<0.1> : tensor<16xf32>}> : () -> tensor<16xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %d = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x9x9x16xf32>, tensor<16x1x1x16xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x5x16xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x9x9x16xf32>, tensor<16x1x1x16xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x9x9x16xf32>
  return %d, %c : tensor<1x5x5x16xf32>, tensor<1x9x9x16xf32>
}
