// transpose_prologue: a transpose whose readers all sit in one
// convolution's, matmul's or pooling's group joins it, so the kernel reads
// its input through the permutation (the NCHW -> NHWC change an ONNX
// importer puts at a graph's input).
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="target=h200" | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="target=h200 report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT
// Resource check: with one op per group nothing joins, and the report says
// which check refused.
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="target=h200 max-ops-per-group=1 report=-" -o /dev/null | FileCheck %s --check-prefix=RESOURCE
// Rule off: the transpose stays a kernel of its own.
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="target=h200 disable-rules=transpose_prologue" | FileCheck %s --check-prefix=OFF
// Fused and unfused agree, with each group tiled into one loop nest too.
// RUN: %check_equivalence %s --function pointwise | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function pointwise --lower-groups | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function pointwise --per-group --lower-groups | FileCheck %s --check-prefix=EQUIV
// Each group of the result is one GPU kernel with no run-time allocation.
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="target=h200" | fuse-opt -split-input-file --fuse-to-nvptx="target=h200" | FileCheck %s --check-prefix=GPU
// GPU-COUNT-6: gpu.binary
// EQUIV: PASS

// A ResNet stem as imported: transpose, 7x7/2 conv with its pad, ReLU. The
// conv reads the transpose through the pad: the transposed tile would be
// the pad's dynamically sized source slice (a device-side allocation in a
// GPU kernel), so the transpose stays a kernel of its own.
// CHECK-LABEL: func @stem
// CHECK: fuse.group single
// CHECK-NEXT: tensor.empty
// CHECK-NEXT: linalg.transpose
// CHECK: fuse.group vertical rule "contraction_epilogue"
// CHECK: tensor.pad
// CHECK: linalg.conv_2d_nhwc_fhwc
func.func @stem(%x: tensor<1x3x16x16xf32>) -> tensor<1x8x8x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w = "tosa.const"() <{values = dense<0.02> : tensor<8x7x7x3xf32>}> : () -> tensor<8x7x7x3xf32>
  %b = "tosa.const"() <{values = dense<0.1> : tensor<8xf32>}> : () -> tensor<8xf32>
  %t = tosa.transpose %x {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x3x16x16xf32>) -> tensor<1x16x16x3xf32>
  %c = tosa.conv2d %t, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 3, 2, 3, 2>, stride = array<i64: 2, 2>} : (tensor<1x16x16x3xf32>, tensor<8x7x7x3xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x8xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %r : tensor<1x8x8x8xf32>
}

// -----

// A 1x1 conv reads the transpose directly (no pad in between).
// CHECK-LABEL: func @pointwise
// CHECK: fuse.group vertical rule "{{transpose_prologue|contraction_epilogue}}"
// OFF-LABEL: func @pointwise
// OFF: fuse.group single
// OFF-NEXT: tensor.empty
// OFF-NEXT: linalg.transpose
// REPORT: "transpose_prologue: linalg.transpose@
// CHECK: linalg.transpose
// CHECK: linalg.conv_2d_nhwc_fhwc
// CHECK-NOT: fuse.group
// CHECK: return
// RESOURCE: "rule": "transpose_prologue",
// RESOURCE-NEXT: "check": "resource",
// RESOURCE: "reason": "2 ops exceed max-ops-per-group 1"
func.func @pointwise(%x: tensor<1x4x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w = "tosa.const"() <{values = dense<0.02> : tensor<8x1x1x4xf32>}> : () -> tensor<8x1x1x4xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<8xf32>}> : () -> tensor<8xf32>
  %t = tosa.transpose %x {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x4x8x8xf32>) -> tensor<1x8x8x4xf32>
  %c = tosa.conv2d %t, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<8x1x1x4xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x8xf32>
  return %c : tensor<1x8x8x8xf32>
}

// -----

// Readers in two groups (a pool and a conv): the transpose stays a kernel
// of its own rather than being computed twice.
// CHECK-LABEL: func @two_readers
// CHECK: fuse.group single
// CHECK-NEXT: tensor.empty
// CHECK-NEXT: linalg.transpose
func.func @two_readers(%x: tensor<1x4x8x8xf32>) -> (tensor<1x8x8x4xf32>, tensor<1x8x8x8xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w = "tosa.const"() <{values = dense<0.02> : tensor<8x1x1x4xf32>}> : () -> tensor<8x1x1x4xf32>
  %b = "tosa.const"() <{values = dense<0.1> : tensor<8xf32>}> : () -> tensor<8xf32>
  %t = tosa.transpose %x {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x4x8x8xf32>) -> tensor<1x8x8x4xf32>
  %p = tosa.max_pool2d %t {kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %c = tosa.conv2d %t, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<8x1x1x4xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x8xf32>
  return %p, %c : tensor<1x8x8x4xf32>, tensor<1x8x8x8xf32>
}

// -----

// The transposed value is also returned: it must be written anyway.
// CHECK-LABEL: func @returned
// CHECK: fuse.group single
// CHECK-NEXT: tensor.empty
// CHECK-NEXT: linalg.transpose
func.func @returned(%x: tensor<1x4x8x8xf32>) -> (tensor<1x8x8x4xf32>, tensor<1x8x8x8xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w = "tosa.const"() <{values = dense<0.02> : tensor<8x1x1x4xf32>}> : () -> tensor<8x1x1x4xf32>
  %b = "tosa.const"() <{values = dense<0.1> : tensor<8xf32>}> : () -> tensor<8xf32>
  %t = tosa.transpose %x {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x4x8x8xf32>) -> tensor<1x8x8x4xf32>
  %c = tosa.conv2d %t, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<8x1x1x4xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x8xf32>
  return %t, %c : tensor<1x8x8x4xf32>, tensor<1x8x8x8xf32>
}

// -----

// Only elementwise readers: no contraction or pooling to read through it.
// CHECK-LABEL: func @elementwise_reader
// CHECK: fuse.group single
// CHECK-NEXT: tensor.empty
// CHECK-NEXT: linalg.transpose
func.func @elementwise_reader(%x: tensor<1x4x8x8xf32>) -> tensor<1x8x8x4xf32> {
  %t = tosa.transpose %x {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x4x8x8xf32>) -> tensor<1x8x8x4xf32>
  %e = tosa.exp %t : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  return %e : tensor<1x8x8x4xf32>
}

// -----

// Read through a reshape (a Flatten after the transpose back to NCHW): the
// matmul's tile loop cannot take the transpose in across the reshape.
// CHECK-LABEL: func @through_reshape
// CHECK: fuse.group single
// CHECK-NEXT: tensor.empty
// CHECK-NEXT: linalg.transpose
func.func @through_reshape(%x: tensor<1x4x4x4xf32>) -> tensor<1x1x10xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w = "tosa.const"() <{values = dense<0.02> : tensor<1x64x10xf32>}> : () -> tensor<1x64x10xf32>
  %t = tosa.transpose %x {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %s = tosa.const_shape {values = dense<[1, 1, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %r = tosa.reshape %t, %s : (tensor<1x4x4x4xf32>, !tosa.shape<3>) -> tensor<1x1x64xf32>
  %m = tosa.matmul %r, %w, %zp, %zp : (tensor<1x1x64xf32>, tensor<1x64x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x10xf32>
  return %m : tensor<1x1x10xf32>
}
