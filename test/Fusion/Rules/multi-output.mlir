// multi_output: a value computed inside a group is also returned.
// fuse-form-groups alone, on the linalg that the TOSA of test/Pipelines/Fusion/rules.mlir
// becomes before fusion (the cases of that pipeline test, same decisions).
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200" | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200" --remarks-filter-missed=fuse --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSED --allow-empty
// No candidate is refused here.
// MISSED-NOT: [Missed] refused

// CHECK-LABEL: func @matmul_relu
// CHECK: fuse.group vertical rule "contraction_epilogue"
// CHECK-NOT: fuse.group
// CHECK: return
func.func @matmul_relu(%arg0: tensor<1x16x32xf32>, %arg1: tensor<1x32x64xf32>) -> tensor<1x16x64xf32> {
  %cst = arith.constant 3.400000e+38 : f32
  %cst_0 = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<1x16x64xf32>
  %1 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<1x16x64xf32>) -> tensor<1x16x64xf32>
  %2 = linalg.batch_matmul ins(%arg0, %arg1 : tensor<1x16x32xf32>, tensor<1x32x64xf32>) outs(%1 : tensor<1x16x64xf32>) -> tensor<1x16x64xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%2 : tensor<1x16x64xf32>) outs(%0 : tensor<1x16x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %4 = arith.minimumf %in, %cst : f32
    %5 = arith.maximumf %4, %cst_0 : f32
    linalg.yield %5 : f32
  } -> tensor<1x16x64xf32>
  return %3 : tensor<1x16x64xf32>
}

// -----

// multi_output: the matmul result is returned and also feeds the epilogue,
// so the group yields both.
// CHECK-LABEL: func @multi_output
// CHECK: fuse.group diagonal rule "contraction_epilogue"
// CHECK-NOT: fuse.group
// CHECK: return
func.func @multi_output(%arg0: tensor<1x16x32xf32>, %arg1: tensor<1x32x64xf32>) -> (tensor<1x16x64xf32>, tensor<1x16x64xf32>) {
  %cst = arith.constant 3.400000e+38 : f32
  %cst_0 = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<1x16x64xf32>
  %1 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<1x16x64xf32>) -> tensor<1x16x64xf32>
  %2 = linalg.batch_matmul ins(%arg0, %arg1 : tensor<1x16x32xf32>, tensor<1x32x64xf32>) outs(%1 : tensor<1x16x64xf32>) -> tensor<1x16x64xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%2 : tensor<1x16x64xf32>) outs(%0 : tensor<1x16x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %4 = arith.minimumf %in, %cst : f32
    %5 = arith.maximumf %4, %cst_0 : f32
    linalg.yield %5 : f32
  } -> tensor<1x16x64xf32>
  return %2, %3 : tensor<1x16x64xf32>, tensor<1x16x64xf32>
}
