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

// Long sequences (2048 tokens): one attention kernel whose tiles stream
// the keys and values in chunks of 64 through an online softmax
// (Lowering.md, "Streamed attention"): 64 query rows a block on tensor
// cores on the H200, 32 on SIMT on the T4 (the roofline check, both
// products being compute-bound, and the whole-row working set, 256 KiB
// for 32 rows, do not apply to the attention rule, whose kernel keeps its
// scores on chip).
// CHECK-LABEL: func @long_attention
// CHECK: fuse.group composite rule "attention"
// CHECK-NOT: fuse.group
// CHECK: return
// REPORT: "name": "long_attention"
// REPORT: "rule": "attention",
// REPORT: "schedule": "attention",
// REPORT-NEXT: "tile": [
// REPORT-NEXT: 1,
// REPORT-NEXT: 64,
// REPORT-NEXT: 0,
// REPORT-NEXT: 0
// REPORT: "instruction": "mma_sync",
// REPORT: "key_chunk": 64
// REPORT-NOT: "check": "arithmetic_intensity"
// T4: "name": "long_attention"
// T4: "rule": "attention",
// T4: "schedule": "attention",
// T4-NEXT: "tile": [
// T4-NEXT: 1,
// T4-NEXT: 32,
// T4-NEXT: 0,
// T4-NEXT: 0
// T4: "key_chunk": 64
// T4-NOT: "check": "memory"
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
