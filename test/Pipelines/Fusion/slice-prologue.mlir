// slice_prologue: a slice whose readers all sit in one convolution's,
// matmul's or pooling's group joins it, so the kernel reads the slice as a
// view of its input instead of a copy. The case of ResNet's downsampling
// branch as imported from ONNX: the stride-2 1x1 conv reads the rows and
// columns it covers, cut from the block's output.
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="target=h200" | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="target=h200 report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT
// Resource check: with one op per group nothing joins.
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="target=h200 max-ops-per-group=1 report=-" -o /dev/null | FileCheck %s --check-prefix=RESOURCE
// Rule off: the slice is a kernel of its own. (The block's group cannot
// take it either: the lowering refuses a group whose returned value is
// also read through a smaller slice, check "lowering".)
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="target=h200 disable-rules=slice_prologue report=-" -o %t.off.mlir | FileCheck %s --check-prefix=OFFREPORT
// RUN: FileCheck %s --check-prefix=OFF < %t.off.mlir
// Fused and unfused agree, tiled and spread over threads too.
// RUN: %check_equivalence %s --function downsample | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function downsample --lower-groups --distribute-threads 96 | FileCheck %s --check-prefix=EQUIV
// Each group is one GPU kernel.
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="target=h200" | fuse-opt -split-input-file --fuse-to-nvptx="target=h200" | FileCheck %s --check-prefix=GPU
// GPU-COUNT-4: gpu.binary
// EQUIV: PASS

// CHECK-LABEL: func @downsample
// CHECK: fuse.group vertical rule "contraction_epilogue"
// CHECK: linalg.conv_2d_nhwc_fhwc
// CHECK: fuse.group vertical rule "slice_prologue"
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 7, 7, 16] [1, 1, 1, 1]
// CHECK: linalg.conv_2d_nhwc_fhwc {{.*}}strides = dense<2>
// REPORT: "slice_prologue: tensor.extract_slice@slice-prologue.mlir:[[@LINE+18]]:8"
// RESOURCE: "rule": "slice_prologue",
// RESOURCE-NEXT: "check": "resource",
// OFF-LABEL: func @downsample
// OFF: fuse.group single
// OFF-NEXT: tensor.extract_slice
// OFFREPORT-DAG: "reason": "rule 'slice_prologue' is disabled"
// OFFREPORT-DAG: "check": "lowering",
func.func @downsample(%x: tensor<1x8x8x16xf32>) -> (tensor<1x8x8x16xf32>, tensor<1x4x4x32xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w1 = "tosa.const"() <{values = dense<0.03> : tensor<16x1x1x16xf32>}> : () -> tensor<16x1x1x16xf32>
  %b1 = "tosa.const"() <{values = dense<0.1> : tensor<16xf32>}> : () -> tensor<16xf32>
  %w2 = "tosa.const"() <{values = dense<-0.02> : tensor<32x1x1x16xf32>}> : () -> tensor<32x1x1x16xf32>
  %b2 = "tosa.const"() <{values = dense<0.2> : tensor<32xf32>}> : () -> tensor<32xf32>
  %c = tosa.conv2d %x, %w1, %b1, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x16xf32>, tensor<16x1x1x16xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x16xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %start = tosa.const_shape {values = dense<[0, 0, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %size = tosa.const_shape {values = dense<[1, 7, 7, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s = tosa.slice %r, %start, %size : (tensor<1x8x8x16xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x7x7x16xf32>
  %d = tosa.conv2d %s, %w2, %b2, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x7x7x16xf32>, tensor<32x1x1x16xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x32xf32>
  return %r, %d : tensor<1x8x8x16xf32>, tensor<1x4x4x32xf32>
}

// -----

// Readers in two groups (a conv and an elementwise op), or the slice
// returned: the slice stays a kernel of its own.
// CHECK-LABEL: func @kept
// CHECK: fuse.group single
// CHECK-NEXT: tensor.extract_slice
// CHECK-LABEL: func @returned
// CHECK: fuse.group single
// CHECK-NEXT: tensor.extract_slice
func.func @kept(%x: tensor<1x8x8x16xf32>) -> (tensor<1x4x4x32xf32>, tensor<1x7x7x16xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w2 = "tosa.const"() <{values = dense<-0.02> : tensor<32x1x1x16xf32>}> : () -> tensor<32x1x1x16xf32>
  %b2 = "tosa.const"() <{values = dense<0.2> : tensor<32xf32>}> : () -> tensor<32xf32>
  %start = tosa.const_shape {values = dense<[0, 0, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %size = tosa.const_shape {values = dense<[1, 7, 7, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s = tosa.slice %x, %start, %size : (tensor<1x8x8x16xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x7x7x16xf32>
  %d = tosa.conv2d %s, %w2, %b2, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x7x7x16xf32>, tensor<32x1x1x16xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x32xf32>
  %e = tosa.exp %s : (tensor<1x7x7x16xf32>) -> tensor<1x7x7x16xf32>
  return %d, %e : tensor<1x4x4x32xf32>, tensor<1x7x7x16xf32>
}
func.func @returned(%x: tensor<1x8x8x16xf32>) -> (tensor<1x4x4x32xf32>, tensor<1x7x7x16xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w2 = "tosa.const"() <{values = dense<-0.02> : tensor<32x1x1x16xf32>}> : () -> tensor<32x1x1x16xf32>
  %b2 = "tosa.const"() <{values = dense<0.2> : tensor<32xf32>}> : () -> tensor<32xf32>
  %start = tosa.const_shape {values = dense<[0, 0, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %size = tosa.const_shape {values = dense<[1, 7, 7, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s = tosa.slice %x, %start, %size : (tensor<1x8x8x16xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x7x7x16xf32>
  %d = tosa.conv2d %s, %w2, %b2, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x7x7x16xf32>, tensor<32x1x1x16xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x32xf32>
  return %d, %s : tensor<1x4x4x32xf32>, tensor<1x7x7x16xf32>
}
