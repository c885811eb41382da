// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="target=h200" | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="target=h200 report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="target=t4 report=-" -o /dev/null | FileCheck %s --check-prefix=T4
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="disable-rules=attention" | FileCheck %s --check-prefix=OFF
// Fused and unfused give the same results on the CPU.
// RUN: %check_equivalence %s --function attention | FileCheck %s --check-prefix=EQUIV
// With every group lowered to one tile loop nest too.
// RUN: %check_equivalence %s --function attention --lower-groups | FileCheck %s --check-prefix=EQUIV
// EQUIV-NOT: FAIL
// EQUIV: PASS

// attention: K's transpose, QK^T, scale, mask, softmax and the product with
// V are one composite kernel.
// CHECK-LABEL: func @attention
// CHECK: %[[G:.*]] = fuse.group composite rule "attention"
// CHECK: linalg.transpose
// CHECK: linalg.batch_matmul
// CHECK-COUNT-2: linalg.reduce
// CHECK: linalg.batch_matmul
// CHECK-NOT: fuse.group
// CHECK: return %[[G]]
// REPORT: "name": "attention"
// REPORT: "kernels_after": 1
// Without the rule the softmax still joins QK^T (contraction_row_epilogue),
// but the product with V is a kernel of its own.
// OFF-LABEL: func @attention
// OFF: fuse.group vertical rule "contraction_epilogue"
// OFF-COUNT-2: linalg.reduce
// OFF: fuse.group single
// OFF-NEXT: arith.constant
// OFF: linalg.batch_matmul
func.func @attention(%q: tensor<2x64x32xf32>, %k: tensor<2x64x32xf32>, %v: tensor<2x64x32xf32>, %mask: tensor<1x1x64xf32>) -> tensor<2x64x32xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x64x32xf32>) -> tensor<2x32x64xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x64x32xf32>, tensor<2x32x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x64x64xf32>
  %sc = tosa.mul %s, %scale, %shift : (tensor<2x64x64xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x64x64xf32>
  %sm = tosa.add %sc, %mask : (tensor<2x64x64xf32>, tensor<1x1x64xf32>) -> tensor<2x64x64xf32>
  %mx = tosa.reduce_max %sm {axis = 2 : i32} : (tensor<2x64x64xf32>) -> tensor<2x64x1xf32>
  %d = tosa.sub %sm, %mx : (tensor<2x64x64xf32>, tensor<2x64x1xf32>) -> tensor<2x64x64xf32>
  %e = tosa.exp %d : (tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x64x64xf32>) -> tensor<2x64x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<2x64x1xf32>) -> tensor<2x64x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<2x64x64xf32>, tensor<2x64x1xf32>, tensor<1xi8>) -> tensor<2x64x64xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x64x64xf32>, tensor<2x64x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x64x32xf32>
  return %o : tensor<2x64x32xf32>
}

// -----

// Long sequences: both products are compute-bound (over 30 FLOP/B against
// a ridge of 14 on the H200), so the roofline check keeps them in separate
// kernels. On a T4 a 32-row tile of 2048-wide score rows (256 KiB) fits
// neither shared memory nor its share of L2.
// CHECK-LABEL: func @long_attention
// CHECK-NOT: rule "attention"
// REPORT: "name": "long_attention"
// REPORT: "rule": "attention",
// REPORT-NEXT: "check": "arithmetic_intensity",
// REPORT: "reason": "'linalg.batch_matmul@attention.mlir:{{[0-9:]+}}' ({{[0-9.]+}} FLOP/B) and 'linalg.batch_matmul@attention.mlir:{{[0-9:]+}}' ({{[0-9.]+}} FLOP/B) are both compute-bound (ridge 14.0 FLOP/B on 'h200'); one kernel would fight for registers"
// T4: "name": "long_attention"
// T4: "rule": "attention",
// T4-NEXT: "check": "memory",
// T4: "reason": "per-block working set 262144 B exceeds shared memory per block 65536 B, and the 196608 B that would spill exceed one block's share of L2 (104857 B = 4194304 B / 40 SMs) on target 't4': 32 row(s) of 'linalg.reduce@attention.mlir:{{[0-9:]+}}' (2048 elements x 4 B x 1 values live across the reduction)"
func.func @long_attention(%q: tensor<12x2048x64xf32>, %k: tensor<12x2048x64xf32>, %v: tensor<12x2048x64xf32>, %mask: tensor<1x1x2048xf32>) -> tensor<12x2048x64xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<12x2048x64xf32>) -> tensor<12x64x2048xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<12x2048x64xf32>, tensor<12x64x2048xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<12x2048x2048xf32>
  %sc = tosa.mul %s, %scale, %shift : (tensor<12x2048x2048xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<12x2048x2048xf32>
  %sm = tosa.add %sc, %mask : (tensor<12x2048x2048xf32>, tensor<1x1x2048xf32>) -> tensor<12x2048x2048xf32>
  %mx = tosa.reduce_max %sm {axis = 2 : i32} : (tensor<12x2048x2048xf32>) -> tensor<12x2048x1xf32>
  %d = tosa.sub %sm, %mx : (tensor<12x2048x2048xf32>, tensor<12x2048x1xf32>) -> tensor<12x2048x2048xf32>
  %e = tosa.exp %d : (tensor<12x2048x2048xf32>) -> tensor<12x2048x2048xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<12x2048x2048xf32>) -> tensor<12x2048x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<12x2048x1xf32>) -> tensor<12x2048x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<12x2048x2048xf32>, tensor<12x2048x1xf32>, tensor<1xi8>) -> tensor<12x2048x2048xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<12x2048x2048xf32>, tensor<12x2048x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<12x2048x64xf32>
  return %o : tensor<12x2048x64xf32>
}
