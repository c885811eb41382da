// fuse-prepare-tosa gives what upstream's preparation passes give, run one
// after the other on every function (tosa-to-linalg-pipeline before
// tosa-to-linalg, with its default options):
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(fuse-prepare-tosa))' -o %t.fuse.mlir
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(tosa-optional-decompositions,canonicalize,tosa-infer-shapes,tosa-make-broadcastable,tosa-to-linalg-named,canonicalize,tosa-layerwise-constant-fold,tosa-make-broadcastable))' -o %t.upstream.mlir
// RUN: diff %t.fuse.mlir %t.upstream.mlir
// RUN: FileCheck %s --input-file=%t.fuse.mlir
// Each case makes one of the skippable passes run (and fails the diff if
// the walk that decides missed it). A rank mismatch between broadcast
// operands (what tosa-make-broadcastable reshapes) no longer verifies.

// Only elementwise ops: every skippable pass is skipped. The canonicalizer
// still folds the addition of zero and erases the dead exponential, as the
// greedy passes skipped would have.
// CHECK-LABEL: func @elementwise
// CHECK-NOT: tosa.add
// CHECK-NOT: tosa.exp
// CHECK: tosa.sigmoid %arg0
func.func @elementwise(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<2x4xf32>}> : () -> tensor<2x4xf32>
  %a = tosa.add %x, %zero : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %dead = tosa.exp %a : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %s = tosa.sigmoid %a : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %s : tensor<2x4xf32>
}

// A result whose shape is not static: tosa-infer-shapes refines it.
// CHECK-LABEL: func @dynamic
// CHECK: tosa.abs %arg0 : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK: tensor.cast
func.func @dynamic(%x: tensor<2x4xf32>) -> tensor<?x4xf32> {
  %a = tosa.abs %x : (tensor<2x4xf32>) -> tensor<?x4xf32>
  %b = tosa.exp %a : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %b : tensor<?x4xf32>
}

// A 1x1 depthwise convolution: tosa-optional-decompositions makes it a
// multiplication.
// CHECK-LABEL: func @depthwise
// CHECK-NOT: tosa.depthwise_conv2d
// CHECK: tosa.mul
func.func @depthwise(%x: tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w = "tosa.const"() <{values = dense<0.5> : tensor<1x1x8x1xf32>}> : () -> tensor<1x1x8x1xf32>
  %b = "tosa.const"() <{values = dense<0.25> : tensor<8xf32>}> : () -> tensor<8xf32>
  %c = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x8xf32>, tensor<1x1x8x1xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x8xf32>
  return %c : tensor<1x4x4x8xf32>
}

// A product: tosa-to-linalg-named makes it linalg.batch_matmul.
// CHECK-LABEL: func @matmul
// CHECK: linalg.batch_matmul
// CHECK-NOT: tosa.matmul
func.func @matmul(%x: tensor<1x2x3xf32>, %w: tensor<1x3x4xf32>) -> tensor<1x2x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x, %w, %zp, %zp : (tensor<1x2x3xf32>, tensor<1x3x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x4xf32>
  return %m : tensor<1x2x4xf32>
}

// The reciprocal of a constant: tosa-layerwise-constant-fold folds it.
// CHECK-LABEL: func @reciprocal_of_constant
// CHECK-NOT: tosa.reciprocal
// CHECK: tosa.add
func.func @reciprocal_of_constant(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = "tosa.const"() <{values = dense<[1.0, 2.0, 4.0, 8.0]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %r = tosa.reciprocal %c : (tensor<4xf32>) -> tensor<4xf32>
  %a = tosa.add %x, %r : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}

// A sum of a constant: tosa-layerwise-constant-fold runs, and leaves it
// (it folds reductions only with aggressive-reduce-constant).
// CHECK-LABEL: func @reduce_of_constant
// CHECK: tosa.reduce_sum
func.func @reduce_of_constant() -> tensor<1x4xf32> {
  %c = "tosa.const"() <{values = dense<[[1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0]]> : tensor<3x4xf32>}> : () -> tensor<3x4xf32>
  %r = tosa.reduce_sum %c {axis = 0 : i32} : (tensor<3x4xf32>) -> tensor<1x4xf32>
  return %r : tensor<1x4xf32>
}

// A transpose of a constant: tosa-to-linalg-named converts it before
// tosa-layerwise-constant-fold could fold it.
// CHECK-LABEL: func @transpose_of_constant
// CHECK: linalg.transpose
func.func @transpose_of_constant() -> tensor<2x3xf32> {
  %c = "tosa.const"() <{values = dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>}> : () -> tensor<3x2xf32>
  %r = tosa.transpose %c {perms = array<i32: 1, 0>} : (tensor<3x2xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
