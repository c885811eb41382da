// RUN: fuse-opt %s -split-input-file --fuse-fold-affine | FileCheck %s

// Scale then shift after a conv: weights and bias absorb both.
// w' = w * s = [2, 6], b' = b * s + t = [0.5 * 2 + 1, -1 * 3 + 1] = [2, -2].
// CHECK-LABEL: func @conv_scale_shift
// CHECK-DAG: %[[W:.*]] = "tosa.const"() <{values = dense<{{\[}}[{{\[}}[2.000000e+00]]], [{{\[}}[6.000000e+00]]]]> : tensor<2x1x1x1xf32>}>
// CHECK-DAG: %[[B:.*]] = "tosa.const"() <{values = dense<[2.000000e+00, -2.000000e+00]> : tensor<2xf32>}>
// CHECK: %[[C:.*]] = tosa.conv2d %arg0, %[[W]], %[[B]]
// CHECK-NEXT: return %[[C]]
func.func @conv_scale_shift(%x: tensor<1x4x4x1xf32>) -> tensor<1x4x4x2xf32> {
  %w = "tosa.const"() <{values = dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>}> : () -> tensor<2x1x1x1xf32>
  %b = "tosa.const"() <{values = dense<[0.5, -1.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %s = "tosa.const"() <{values = dense<[[[[2.0, 3.0]]]]> : tensor<1x1x1x2xf32>}> : () -> tensor<1x1x1x2xf32>
  %t = "tosa.const"() <{values = dense<1.0> : tensor<1x1x1x2xf32>}> : () -> tensor<1x1x1x2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x1xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  %m = tosa.mul %c, %s, %shift : (tensor<1x4x4x2xf32>, tensor<1x1x1x2xf32>, tensor<1xi8>) -> tensor<1x4x4x2xf32>
  %y = tosa.add %t, %m : (tensor<1x1x1x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  return %y : tensor<1x4x4x2xf32>
}

// -----

// t - conv negates the weights: w' = -w, b' = t - b = [0.5, 2].
// CHECK-LABEL: func @shift_minus_conv
// CHECK-DAG: "tosa.const"() <{values = dense<{{\[}}[{{\[}}[-1.000000e+00]]], [{{\[}}[-2.000000e+00]]]]> : tensor<2x1x1x1xf32>}>
// CHECK-DAG: "tosa.const"() <{values = dense<[5.000000e-01, 2.000000e+00]> : tensor<2xf32>}>
// CHECK-NOT: tosa.sub
func.func @shift_minus_conv(%x: tensor<1x4x4x1xf32>) -> tensor<1x4x4x2xf32> {
  %w = "tosa.const"() <{values = dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>}> : () -> tensor<2x1x1x1xf32>
  %b = "tosa.const"() <{values = dense<[0.5, -1.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %t = "tosa.const"() <{values = dense<1.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x1xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  %y = tosa.sub %t, %c : (tensor<1x1x1x1xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  return %y : tensor<1x4x4x2xf32>
}

// -----

// Depthwise: output channel c * M + m scales weight [kh, kw, c, m].
// CHECK-LABEL: func @depthwise_scale
// CHECK-DAG: "tosa.const"() <{values = dense<{{\[}}[{{\[}}[1.000000e+01], [4.000000e+01]]]]> : tensor<1x1x2x1xf32>}>
// CHECK-DAG: "tosa.const"() <{values = dense<[1.000000e+01, 2.000000e+01]> : tensor<2xf32>}>
// CHECK-NOT: tosa.mul
func.func @depthwise_scale(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %w = "tosa.const"() <{values = dense<[[[[1.0], [2.0]]]]> : tensor<1x1x2x1xf32>}> : () -> tensor<1x1x2x1xf32>
  %b = "tosa.const"() <{values = dense<1.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %s = "tosa.const"() <{values = dense<[[[[10.0, 20.0]]]]> : tensor<1x1x1x2xf32>}> : () -> tensor<1x1x1x2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<1x1x2x1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  %y = tosa.mul %c, %s, %shift : (tensor<1x4x4x2xf32>, tensor<1x1x1x2xf32>, tensor<1xi8>) -> tensor<1x4x4x2xf32>
  return %y : tensor<1x4x4x2xf32>
}

// -----

// A matmul takes a scale into its right operand's columns; an addition has
// no bias to go into and stays.
// CHECK-LABEL: func @matmul_scale_add
// CHECK: %[[B:.*]] = "tosa.const"() <{values = dense<{{\[}}[{{\[}}2.000000e+00, 3.000000e+00], [4.000000e+00, 6.000000e+00]]]> : tensor<1x2x2xf32>}>
// CHECK: %[[M:.*]] = tosa.matmul %arg0, %[[B]]
// CHECK: tosa.add %[[M]]
func.func @matmul_scale_add(%a: tensor<1x3x2xf32>) -> tensor<1x3x2xf32> {
  %b = "tosa.const"() <{values = dense<[[[1.0, 1.0], [2.0, 2.0]]]> : tensor<1x2x2xf32>}> : () -> tensor<1x2x2xf32>
  %s = "tosa.const"() <{values = dense<[[[2.0, 3.0]]]> : tensor<1x1x2xf32>}> : () -> tensor<1x1x2xf32>
  %t = "tosa.const"() <{values = dense<[[[1.0, 1.0]]]> : tensor<1x1x2xf32>}> : () -> tensor<1x1x2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %m = tosa.matmul %a, %b, %zp, %zp : (tensor<1x3x2xf32>, tensor<1x2x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x2xf32>
  %s1 = tosa.mul %m, %s, %shift : (tensor<1x3x2xf32>, tensor<1x1x2xf32>, tensor<1xi8>) -> tensor<1x3x2xf32>
  %y = tosa.add %s1, %t : (tensor<1x3x2xf32>, tensor<1x1x2xf32>) -> tensor<1x3x2xf32>
  return %y : tensor<1x3x2xf32>
}

// -----

// Not folded: a scale that is not constant, a conv whose result is also
// returned, and a constant that varies along a spatial dimension.
// CHECK-LABEL: func @not_folded
// CHECK: tosa.mul
// CHECK: tosa.add
// CHECK: tosa.mul
func.func @not_folded(%x: tensor<1x2x2x2xf32>, %s: tensor<1x1x1x2xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) {
  %w = "tosa.const"() <{values = dense<1.0> : tensor<2x1x1x2xf32>}> : () -> tensor<2x1x1x2xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %t = "tosa.const"() <{values = dense<1.0> : tensor<1x1x1x2xf32>}> : () -> tensor<1x1x1x2xf32>
  %sp = "tosa.const"() <{values = dense<[[[[1.0, 1.0]], [[2.0, 2.0]]]]> : tensor<1x2x1x2xf32>}> : () -> tensor<1x2x1x2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c1 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x2x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x2xf32>
  %y1 = tosa.mul %c1, %s, %shift : (tensor<1x2x2x2xf32>, tensor<1x1x1x2xf32>, tensor<1xi8>) -> tensor<1x2x2x2xf32>
  %c2 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x2x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x2xf32>
  %y2 = tosa.add %c2, %t : (tensor<1x2x2x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x2x2x2xf32>
  %c3 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x2x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x2xf32>
  %y3 = tosa.mul %c3, %sp, %shift : (tensor<1x2x2x2xf32>, tensor<1x2x1x2xf32>, tensor<1xi8>) -> tensor<1x2x2x2xf32>
  return %y1, %y2, %c2, %y3 : tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>
}
