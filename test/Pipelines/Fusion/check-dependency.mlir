// With contraction_row_epilogue off, the reduction cannot simply join the
// matmul's kernel, which isolates the dependency check.
// RUN: fuse-opt %s --fuse-fusion-pipeline="disable-rules=contraction_row_epilogue" | FileCheck %s
// RUN: fuse-opt %s --fuse-fusion-pipeline="disable-rules=contraction_row_epilogue report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT
// With it on, the row sum and the subtraction become the matmul's epilogue.
// RUN: fuse-opt %s --fuse-fusion-pipeline | FileCheck %s --check-prefix=ROW
// Fused and unfused give the same results on the CPU.
// RUN: %check_equivalence %s --function cycle | FileCheck %s --check-prefix=EQUIV
// With every group lowered to one tile loop nest too.
// RUN: %check_equivalence %s --function cycle --lower-groups | FileCheck %s --check-prefix=EQUIV
// EQUIV-NOT: FAIL
// EQUIV: PASS

// The subtraction reads the matmul and a row sum of the matmul. Taking it
// into the matmul's epilogue would make the group feed the reduction that
// feeds the group: a cycle. It goes with the reduction instead.
// CHECK-LABEL: func @cycle
// CHECK: %[[M:.*]] = fuse.group single (
// CHECK: linalg.batch_matmul
// CHECK: fuse.group vertical rule "row_reduction" ({{.*}} = %[[M]]
// CHECK: linalg.reduce
// CHECK: linalg.generic
// ROW-LABEL: func @cycle
// ROW: fuse.group vertical rule "contraction_row_epilogue"
// ROW: linalg.batch_matmul
// ROW: linalg.reduce
// ROW: linalg.generic
// ROW-NOT: fuse.group
// REPORT: "rejected": [
// REPORT-NEXT: {
// REPORT-NEXT: "rule": "residual_join",
// REPORT-NEXT: "check": "dependency",
// REPORT-NEXT: "anchor": "linalg.batch_matmul@check-dependency.mlir:[[@LINE+11]]:8",
// REPORT-NEXT: "candidate": "linalg.generic@check-dependency.mlir:[[@LINE+12]]:8",
// REPORT-NEXT: "reason": "fusing would create a cycle: a path from the group to 'linalg.generic@check-dependency.mlir:[[@LINE+11]]:8' runs through ops outside the group"
// REPORT: "left_alone": [
// REPORT-NEXT: {
// REPORT-NEXT: "group": 0,
// REPORT-NEXT: "op": "linalg.batch_matmul@check-dependency.mlir:[[@LINE+5]]:8",
// REPORT-NEXT: "reasons": [
// REPORT-NEXT: "residual_join refused by dependency: fusing would create a cycle
func.func @cycle(%x: tensor<1x16x32xf32>, %w: tensor<1x32x64xf32>) -> tensor<1x16x64xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x, %w, %zp, %zp : (tensor<1x16x32xf32>, tensor<1x32x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x64xf32>
  %s = tosa.reduce_sum %m {axis = 2 : i32} : (tensor<1x16x64xf32>) -> tensor<1x16x1xf32>
  %y = tosa.sub %m, %s : (tensor<1x16x64xf32>, tensor<1x16x1xf32>) -> tensor<1x16x64xf32>
  return %y : tensor<1x16x64xf32>
}
