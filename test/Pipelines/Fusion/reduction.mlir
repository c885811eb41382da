// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT
// Fused and unfused give the same results on the CPU.
// RUN: %check_equivalence %s --function softmax | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function layernorm | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function column_reduction | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function rms | FileCheck %s --check-prefix=EQUIV
// With every group lowered to one tile loop nest too.
// RUN: %check_equivalence %s --function softmax --lower-groups | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function layernorm --lower-groups | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function column_reduction --lower-groups | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function rms --lower-groups | FileCheck %s --check-prefix=EQUIV
// EQUIV-NOT: FAIL
// EQUIV: PASS

// row_reduction: a whole softmax (max, subtract, exp, sum, reciprocal,
// scale) is one kernel.
// CHECK-LABEL: func @softmax
// CHECK: %[[G:.*]] = fuse.group vertical rule "row_reduction"
// CHECK-COUNT-2: linalg.reduce
// CHECK: fuse.yield
// CHECK-NOT: fuse.group
// CHECK: return %[[G]]
// REPORT: "name": "softmax"
// REPORT: "kernels_before": 6
// REPORT-NEXT: "kernels_after": 1
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

// -----

// row_reduction: layer normalization over the last dimension, with its
// scale and shift, is one kernel.
// CHECK-LABEL: func @layernorm
// CHECK: %[[G:.*]] = fuse.group vertical rule "row_reduction"
// CHECK-COUNT-2: linalg.reduce
// CHECK-NOT: fuse.group
// CHECK: return %[[G]]
// REPORT: "name": "layernorm"
// REPORT: "kernels_after": 1
func.func @layernorm(%x: tensor<8x768xf32>, %gamma: tensor<1x768xf32>, %beta: tensor<1x768xf32>) -> tensor<8x768xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %invn = "tosa.const"() <{values = dense<0.00130208337> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-5> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %sum = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<8x768xf32>) -> tensor<8x1xf32>
  %mean = tosa.mul %sum, %invn, %shift : (tensor<8x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<8x1xf32>
  %xc = tosa.sub %x, %mean : (tensor<8x768xf32>, tensor<8x1xf32>) -> tensor<8x768xf32>
  %sq = tosa.mul %xc, %xc, %shift : (tensor<8x768xf32>, tensor<8x768xf32>, tensor<1xi8>) -> tensor<8x768xf32>
  %vs = tosa.reduce_sum %sq {axis = 1 : i32} : (tensor<8x768xf32>) -> tensor<8x1xf32>
  %var = tosa.mul %vs, %invn, %shift : (tensor<8x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<8x1xf32>
  %ve = tosa.add %var, %eps : (tensor<8x1xf32>, tensor<1x1xf32>) -> tensor<8x1xf32>
  %rstd = tosa.rsqrt %ve : (tensor<8x1xf32>) -> tensor<8x1xf32>
  %n = tosa.mul %xc, %rstd, %shift : (tensor<8x768xf32>, tensor<8x1xf32>, tensor<1xi8>) -> tensor<8x768xf32>
  %s = tosa.mul %n, %gamma, %shift : (tensor<8x768xf32>, tensor<1x768xf32>, tensor<1xi8>) -> tensor<8x768xf32>
  %y = tosa.add %s, %beta : (tensor<8x768xf32>, tensor<1x768xf32>) -> tensor<8x768xf32>
  return %y : tensor<8x768xf32>
}

// -----

// A reduction over the outer dimension broadcast back to every row needs a
// grid-wide barrier: the broadcast-back op stays out of its group.
// CHECK-LABEL: func @column_reduction
// CHECK: fuse.group single
// CHECK: linalg.reduce
// CHECK: fuse.group single
// REPORT: "name": "column_reduction"
// REPORT: "rule": "row_reduction",
// REPORT-NEXT: "check": "dependency",
// REPORT: "reason": "'linalg.reduce@reduction.mlir:{{[0-9:]+}}' reduces dims that are not innermost: broadcasting its result back to 'linalg.generic@reduction.mlir:{{[0-9:]+}}' needs a grid-wide synchronization"
func.func @column_reduction(%x: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %s = tosa.reduce_sum %x {axis = 0 : i32} : (tensor<64x16xf32>) -> tensor<1x16xf32>
  %y = tosa.sub %x, %s : (tensor<64x16xf32>, tensor<1x16xf32>) -> tensor<64x16xf32>
  return %y : tensor<64x16xf32>
}

// -----

// A reduction with an elementwise prologue and an epilogue on its result
// (mean of squares, then a square root) fuses without any barrier.
// CHECK-LABEL: func @rms
// CHECK: fuse.group vertical rule "row_reduction"
// CHECK-NOT: fuse.group
func.func @rms(%x: tensor<64x16xf32>) -> tensor<1x16xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %sq = tosa.mul %x, %x, %shift : (tensor<64x16xf32>, tensor<64x16xf32>, tensor<1xi8>) -> tensor<64x16xf32>
  %s = tosa.reduce_sum %sq {axis = 0 : i32} : (tensor<64x16xf32>) -> tensor<1x16xf32>
  %r = tosa.rsqrt %s : (tensor<1x16xf32>) -> tensor<1x16xf32>
  return %r : tensor<1x16xf32>
}
