// fuse-lower-tosa-leftovers gives what upstream's three passes give, run one
// after the other on every function:
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(fuse-lower-tosa-leftovers))' -o %t.fuse.mlir
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(tosa-to-tensor,tosa-to-arith,convert-elementwise-to-linalg))' -o %t.upstream.mlir
// RUN: diff %t.fuse.mlir %t.upstream.mlir
// RUN: FileCheck %s --input-file=%t.fuse.mlir

// Reshape and slice to tensor, the constant to arith.
// CHECK-LABEL: func @reshape_slice_const
// CHECK: tensor.collapse_shape
// CHECK: tensor.extract_slice
// CHECK: arith.constant dense<5.000000e-01> : tensor<1xf32>
// CHECK-NOT: tosa.reshape
// CHECK-NOT: tosa.slice
// CHECK-NOT: "tosa.const"
// CHECK: return
func.func @reshape_slice_const(%x: tensor<2x3xf32>) -> (tensor<2xf32>, tensor<1xf32>) {
  %shape = tosa.const_shape {values = dense<6> : tensor<1xindex>} : () -> !tosa.shape<1>
  %r = tosa.reshape %x, %shape : (tensor<2x3xf32>, !tosa.shape<1>) -> tensor<6xf32>
  %start = tosa.const_shape {values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
  %size = tosa.const_shape {values = dense<2> : tensor<1xindex>} : () -> !tosa.shape<1>
  %s = tosa.slice %r, %start, %size : (tensor<6xf32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<2xf32>
  %c = "tosa.const"() <{values = dense<0.5> : tensor<1xf32>}> : () -> tensor<1xf32>
  return %s, %c : tensor<2xf32>, tensor<1xf32>
}

// Only a constant is left (a lowered graph's usual leftover).
// CHECK-LABEL: func @const_only
// CHECK: arith.constant dense<2.000000e+00> : tensor<4xf32>
// CHECK-NOT: tosa.
// CHECK: return
func.func @const_only(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = "tosa.const"() <{values = dense<2.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.add ins(%x, %c : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// Elementwise arith and math on tensors become linalg.generic.
// CHECK-LABEL: func @arith_on_tensors
// CHECK: linalg.generic
// CHECK: arith.addf {{.*}} : f32
// CHECK: linalg.generic
// CHECK: math.exp {{.*}} : f32
// CHECK: return
func.func @arith_on_tensors(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %a = arith.addf %x, %y : tensor<4xf32>
  %m = math.exp %a : tensor<4xf32>
  return %m : tensor<4xf32>
}

// Nothing to convert: the function is left as it is.
// CHECK-LABEL: func @nothing
// CHECK-NEXT: tensor.empty
// CHECK-NEXT: linalg.exp
// CHECK-NEXT: arith.constant 1.000000e+00 : f32
// CHECK-NEXT: return
func.func @nothing(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.exp ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s = arith.constant 1.0 : f32
  return %y : tensor<4xf32>
}

// tosa.apply_scale stays: tosa-to-arith converts it only when asked to
// (include-apply-rescale), and the pipeline does not ask.
// CHECK-LABEL: func @apply_scale
// CHECK-NEXT: tosa.apply_scale
// CHECK-NEXT: return
func.func @apply_scale(%v: i32, %m: i32, %s: i8) -> i32 {
  %r = tosa.apply_scale %v, %m, %s {rounding_mode = SINGLE_ROUND} : (i32, i32, i8) -> i32
  return %r : i32
}
