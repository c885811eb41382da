// fuse-tosa-to-linalg gives what upstream's tosa-to-linalg gives:
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(fuse-tosa-to-linalg))' -o %t.fuse.mlir
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(tosa-to-linalg))' -o %t.upstream.mlir
// RUN: diff %t.fuse.mlir %t.upstream.mlir
// RUN: FileCheck %s --input-file=%t.fuse.mlir

// Floating-point elementwise ops on static tensors: the faster driver
// converts all of them; no other TOSA op is left, so upstream's pass does
// not run.
// CHECK-LABEL: func @float_chain
// CHECK-COUNT-9: linalg.generic
// CHECK-NOT: tosa.
// CHECK: return
func.func @float_chain(%x: tensor<2x4xf32>, %y: tensor<1x4xf32>) -> tensor<2x4xi1> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %a = tosa.add %x, %y : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
  %m = tosa.mul %a, %x, %shift : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<1xi8>) -> tensor<2x4xf32>
  %c = tosa.clamp %m {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %s = tosa.sigmoid %c : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %t = tosa.tanh %s : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %e = tosa.exp %t : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %r = tosa.reciprocal %e : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %mx = tosa.maximum %r, %x : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %g = tosa.greater %mx, %x : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xi1>
  return %g : tensor<2x4xi1>
}

// Half precision, and the ops left to upstream's pass: a negation (its zero
// points), a reduction, a cast, integer arithmetic, a dynamic shape. Both
// steps run; the output is upstream's.
// CHECK-LABEL: func @mixed
// CHECK: linalg.generic
// CHECK: arith.negf
// CHECK: linalg.reduce
// CHECK: arith.addi
// CHECK-NOT: tosa.add
// CHECK-NOT: tosa.negate
// CHECK: return
func.func @mixed(%x: tensor<2x4xf16>, %i: tensor<4xi32>, %d: tensor<?x4xf32>) -> (tensor<2x4xf16>, tensor<1x4xf16>, tensor<2x4xf32>, tensor<4xi32>, tensor<?x4xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %a = tosa.abs %x : (tensor<2x4xf16>) -> tensor<2x4xf16>
  %n = tosa.negate %a, %zp, %zp : (tensor<2x4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x4xf16>
  %s = tosa.reduce_sum %n {axis = 0 : i32} : (tensor<2x4xf16>) -> tensor<1x4xf16>
  %c = tosa.cast %n : (tensor<2x4xf16>) -> tensor<2x4xf32>
  %j = tosa.add %i, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %e = tosa.exp %d : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %n, %s, %c, %j, %e : tensor<2x4xf16>, tensor<1x4xf16>, tensor<2x4xf32>, tensor<4xi32>, tensor<?x4xf32>
}
