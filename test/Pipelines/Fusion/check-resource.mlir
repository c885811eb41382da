// The resource caps, each a pass option.
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="max-ops-per-group=2 report=-" -o /dev/null | FileCheck %s --check-prefix=OPS
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="max-ops-per-group=2" | FileCheck %s --check-prefix=OPS-IR
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="max-reductions-per-group=1 report=-" -o /dev/null | FileCheck %s --check-prefix=RED
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="max-kernel-param-bytes=200 report=-" -o /dev/null | FileCheck %s --check-prefix=PARAM

// OPS: "name": "matmul_bias_relu"
// OPS: "check": "resource",
// OPS: "reason": "3 ops exceed max-ops-per-group 2"
// OPS-IR-LABEL: func @matmul_bias_relu
// OPS-IR: fuse.group vertical rule "contraction_epilogue"
// OPS-IR: linalg.batch_matmul
// OPS-IR: linalg.generic
// OPS-IR: fuse.group single
// PARAM: "name": "matmul_bias_relu"
// PARAM: "check": "resource",
// PARAM: "reason": "kernel parameters take 288 B (3 inputs, 1 results), more than max-kernel-param-bytes 200"
func.func @matmul_bias_relu(%x: tensor<1x16x32xf32>, %w: tensor<1x32x64xf32>, %b: tensor<1x1x64xf32>) -> tensor<1x16x64xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x, %w, %zp, %zp : (tensor<1x16x32xf32>, tensor<1x32x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x64xf32>
  %y = tosa.add %m, %b : (tensor<1x16x64xf32>, tensor<1x1x64xf32>) -> tensor<1x16x64xf32>
  %r = tosa.clamp %y {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x64xf32>) -> tensor<1x16x64xf32>
  return %r : tensor<1x16x64xf32>
}

// -----

// Softmax has two reductions; with one allowed per group it splits.
// RED: "name": "softmax"
// RED: "check": "resource",
// RED: "reason": "2 reductions exceed max-reductions-per-group 1"
func.func @softmax(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %max = tosa.reduce_max %x {axis = 1 : i32} : (tensor<4x64xf32>) -> tensor<4x1xf32>
  %d = tosa.sub %x, %max : (tensor<4x64xf32>, tensor<4x1xf32>) -> tensor<4x64xf32>
  %e = tosa.exp %d : (tensor<4x64xf32>) -> tensor<4x64xf32>
  %sum = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<4x64xf32>) -> tensor<4x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %y = tosa.mul %e, %inv, %shift : (tensor<4x64xf32>, tensor<4x1xf32>, tensor<1xi8>) -> tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}
