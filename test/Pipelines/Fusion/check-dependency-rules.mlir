// The dependency check against the rules that can meet a cycle: each input
// offers the rule a merge whose group would reach the candidate through an
// op outside both, and the report names the rule, the check and the op.
// (residual_join, row_reduction and elementwise_chain are in
// check-dependency.mlir and check-dependency-chain.mlir.) The other rules
// cannot close a cycle: contraction_epilogue and pad_prologue take ops that
// read only the group; attention takes a subgraph whose every value stays
// inside until P.V; transpose_prologue takes a transpose whose readers are
// all in the group; the graph rewrites read one shared input and constants.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200" | FileCheck %s
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT
// Fused and unfused agree, with each group tiled into one loop nest too.
// RUN: %check_equivalence %s --function row_epilogue --lower-groups | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function concat_slices --lower-groups | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function siblings --lower-groups | FileCheck %s --check-prefix=EQUIV
// EQUIV-NOT: FAIL
// EQUIV: PASS

// contraction_row_epilogue: the row sum reads the matmul, but its consumer
// also reads the matmul through a transpose; the row group stays apart.
// CHECK-LABEL: func @row_epilogue
// CHECK: fuse.group single
// CHECK: linalg.batch_matmul
// CHECK: fuse.group single
// CHECK: linalg.transpose
// CHECK: fuse.group vertical rule "row_reduction"
// REPORT: "name": "row_epilogue"
// REPORT: "rejected": [
// REPORT: "rule": "contraction_row_epilogue",
// REPORT-NEXT: "check": "dependency",
// REPORT-NEXT: "anchor": "linalg.batch_matmul@check-dependency-rules.mlir:[[@LINE+7]]:8",
// REPORT-NEXT: "candidate": "linalg.reduce@check-dependency-rules.mlir:[[@LINE+8]]:8",
// REPORT-NEXT: "reason": "fusing would create a cycle: a path from the group to 'linalg.reduce@check-dependency-rules.mlir:[[@LINE+7]]:8' runs through ops outside the group"
// REPORT: "left_alone": [
// REPORT: "contraction_row_epilogue refused by dependency: fusing would create a cycle
func.func @row_epilogue(%x: tensor<1x16x16xf32>, %w: tensor<1x16x16xf32>) -> tensor<1x16x16xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x, %w, %zp, %zp : (tensor<1x16x16xf32>, tensor<1x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16xf32>
  %t = tosa.transpose %m {perms = array<i32: 0, 2, 1>} : (tensor<1x16x16xf32>) -> tensor<1x16x16xf32>
  %s = tosa.reduce_sum %m {axis = 2 : i32} : (tensor<1x16x16xf32>) -> tensor<1x16x1xf32>
  %y = tosa.sub %t, %s : (tensor<1x16x16xf32>, tensor<1x16x1xf32>) -> tensor<1x16x16xf32>
  return %y : tensor<1x16x16xf32>
}

// concat_slices: the ReLU branch's group (conv + ReLU) also feeds the other
// branch through a transpose, whose insertion comes first in the chain:
// writing the ReLU's slice from the conv's kernel would need the transposed
// branch's insertion before and after it. That insertion stays a copy.
// CHECK-LABEL: func @concat_slices
// CHECK: fuse.group diagonal rule "contraction_epilogue"
// CHECK: fuse.group diagonal rule "concat_slices"
// CHECK: linalg.transpose
// CHECK: fuse.group single
// CHECK-NEXT: tensor.insert_slice
// REPORT: "name": "concat_slices"
// REPORT: "rejected": [
// REPORT: "rule": "concat_slices",
// REPORT-NEXT: "check": "dependency",
// REPORT-NEXT: "anchor": "linalg.conv_2d_nhwc_fhwc@check-dependency-rules.mlir:[[@LINE+9]]:8",
// REPORT-NEXT: "candidate": "tensor.insert_slice@check-dependency-rules.mlir:[[@LINE+11]]:8",
// REPORT-NEXT: "reason": "fusing would create a cycle: a path from the group to 'tensor.insert_slice@check-dependency-rules.mlir:[[@LINE+10]]:8' runs through ops outside the group"
// REPORT: "left_alone": [
// REPORT: "concat_slices refused by dependency: fusing would create a cycle
func.func @concat_slices(%x: tensor<1x8x8x4xf32>) -> tensor<1x8x8x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w = "tosa.const"() <{values = dense<0.25> : tensor<4x1x1x4xf32>}> : () -> tensor<4x1x1x4xf32>
  %b = "tosa.const"() <{values = dense<0.1> : tensor<4xf32>}> : () -> tensor<4xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<4x1x1x4xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x4xf32>
  %t = tosa.transpose %c {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %o = tosa.concat %t, %r {axis = 3 : i32} : (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x8xf32>
  return %o : tensor<1x8x8x8xf32>
}

// sibling_merge: both elementwise ops read %x over the same space, but the
// second also reads the first through a transpose: not independent.
// CHECK-LABEL: func @siblings
// CHECK: fuse.group single
// CHECK: math.exp
// CHECK: fuse.group single
// CHECK: linalg.transpose
// CHECK: fuse.group single
// CHECK: arith.addf
// REPORT: "name": "siblings"
// REPORT: "rejected": [
// REPORT: "rule": "sibling_merge",
// REPORT-NEXT: "check": "dependency",
// REPORT-NEXT: "anchor": "linalg.generic@check-dependency-rules.mlir:[[@LINE+6]]:8",
// REPORT-NEXT: "candidate": "linalg.generic@check-dependency-rules.mlir:[[@LINE+7]]:8",
// REPORT-NEXT: "reason": "fusing would create a cycle: a path from the group to 'linalg.generic@check-dependency-rules.mlir:[[@LINE+6]]:8' runs through ops outside the group"
// REPORT: "left_alone": [
// REPORT: "sibling_merge refused by dependency: fusing would create a cycle
func.func @siblings(%x: tensor<1x8x8x4xf32>) -> (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) {
  %a = tosa.exp %x : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %t = tosa.transpose %a {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %b = tosa.add %x, %t : (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  return %a, %b : tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>
}
