// The dependency check: a merge that would close a cycle through another
// group is refused.
// fuse-form-groups alone, on the linalg that the TOSA of test/Pipelines/Fusion/check-dependency.mlir
// becomes before fusion (the cases of that pipeline test, same decisions).
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200 disable-rules=contraction_row_epilogue" | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200 disable-rules=contraction_row_epilogue" --remarks-filter-missed=fuse --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSED --allow-empty

// The subtraction reads the matmul and a row sum of the matmul. Taking it
// into the matmul's epilogue would make the group feed the reduction that
// feeds the group: a cycle. It goes with the reduction instead.
// CHECK-LABEL: func @cycle
// CHECK: fuse.group single
// CHECK: fuse.group vertical rule "row_reduction"
// CHECK-NOT: fuse.group
// CHECK: return
// MISSED: Function=cycle | {{.*}}Remark="residual_join refused by dependency"
// MISSED: Function=cycle | {{.*}}Remark="contraction_row_epilogue refused by rule_disabled"
func.func @cycle(%arg0: tensor<1x16x32xf32>, %arg1: tensor<1x32x64xf32>) -> tensor<1x16x64xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<1x16x64xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x16x64xf32>) -> tensor<1x16x64xf32>
  %2 = linalg.batch_matmul ins(%arg0, %arg1 : tensor<1x16x32xf32>, tensor<1x32x64xf32>) outs(%1 : tensor<1x16x64xf32>) -> tensor<1x16x64xf32>
  %3 = tensor.empty() : tensor<1x16xf32>
  %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<1x16xf32>) -> tensor<1x16xf32>
  %reduced = linalg.reduce ins(%2 : tensor<1x16x64xf32>) outs(%4 : tensor<1x16xf32>) dimensions = [2]
    (%in: f32, %init: f32) {
      %6 = arith.addf %in, %init : f32
      linalg.yield %6 : f32
    }
  %expanded = tensor.expand_shape %reduced [[0], [1, 2]] output_shape [1, 16, 1] : tensor<1x16xf32> into tensor<1x16x1xf32>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%2, %expanded : tensor<1x16x64xf32>, tensor<1x16x1xf32>) outs(%0 : tensor<1x16x64xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %6 = arith.subf %in, %in_0 : f32
    linalg.yield %6 : f32
  } -> tensor<1x16x64xf32>
  return %5 : tensor<1x16x64xf32>
}
