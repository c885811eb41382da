// The dependency check against elementwise_chain: %a and %c are elementwise
// and could form one chain, but %c also reads %a through a transpose that
// no rule joins to either; fusing them would put the transpose both before
// and after the group. The report names the rule, the check and the op.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200" | FileCheck %s
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: %check_equivalence %s | FileCheck %s --check-prefix=EQUIV
// CHECK: %[[A:.*]] = fuse.group single
// CHECK: math.tanh
// CHECK: %[[P:.*]] = fuse.group single (%{{.*}} = %[[A]]
// CHECK: linalg.transpose
// CHECK: fuse.group single (%{{.*}} = %[[A]] : {{.*}}, %{{.*}} = %[[P]] :
// REPORT: "rule": "elementwise_chain",
// REPORT-NEXT: "check": "dependency",
// REPORT: "reason": "fusing would create a cycle: a path from the group to 'linalg.generic@check-dependency-chain.mlir:{{[0-9]+}}:8' runs through ops outside the group"
// EQUIV: PASS
func.func @transpose_between(%x: tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32> {
  %a = tosa.tanh %x : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %p = tosa.transpose %a {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %c = tosa.add %a, %p : (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  return %c : tensor<1x8x8x4xf32>
}
