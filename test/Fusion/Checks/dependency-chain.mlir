// The dependency check on a long chain of groups.
// fuse-form-groups alone, on the linalg that the TOSA of test/Pipelines/Fusion/check-dependency-chain.mlir
// becomes before fusion (the cases of that pipeline test, same decisions).
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200" | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200" --remarks-filter-missed=fuse --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSED --allow-empty

// The dependency check against elementwise_chain: %a and %c are elementwise
// and could form one chain, but %c also reads %a through a transpose that
// no rule joins to either; fusing them would put the transpose both before
// and after the group. The report names the rule, the check and the op.
// CHECK-LABEL: func @transpose_between
// CHECK: fuse.group single
// CHECK: fuse.group single
// CHECK: fuse.group single
// CHECK-NOT: fuse.group
// CHECK: return
// MISSED: Function=transpose_between | {{.*}}Remark="elementwise_chain refused by dependency"
func.func @transpose_between(%arg0: tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32> {
  %0 = tensor.empty() : tensor<1x8x8x4xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<1x8x8x4xf32>) outs(%0 : tensor<1x8x8x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %3 = math.tanh %in : f32
    linalg.yield %3 : f32
  } -> tensor<1x8x8x4xf32>
  %transposed = linalg.transpose ins(%1 : tensor<1x8x8x4xf32>) outs(%0 : tensor<1x8x8x4xf32>) permutation = [0, 2, 1, 3]
  %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1, %transposed : tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) outs(%0 : tensor<1x8x8x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %3 = arith.addf %in, %in_0 : f32
    linalg.yield %3 : f32
  } -> tensor<1x8x8x4xf32>
  return %2 : tensor<1x8x8x4xf32>
}
