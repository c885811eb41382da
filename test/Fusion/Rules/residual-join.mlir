// contraction_epilogue and residual_join: conv/matmul epilogues and the
// residual add joining two branches.
// fuse-form-groups alone, on the linalg that the TOSA of test/Pipelines/Fusion/vertical.mlir
// becomes before fusion (the cases of that pipeline test, same decisions).
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200" | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200" --remarks-filter-missed=fuse --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSED --allow-empty

// contraction_epilogue: matmul + bias + ReLU is one kernel.
// Its schedule: on the H200's tensor cores, a 1x16x64 output in 1x16x32
// tiles (2 blocks of one warp, 2 accumulator tiles of 16x8 each): the cost
// model predicts one K chunk of 32 on tensor cores faster than the SIMT
// kernel's 32 blocks of a warp.
// CHECK-LABEL: func @matmul_bias_relu
// CHECK: fuse.group vertical rule "contraction_epilogue"
// CHECK-NOT: fuse.group
// CHECK: return
func.func @matmul_bias_relu(%arg0: tensor<1x16x32xf32>, %arg1: tensor<1x32x64xf32>, %arg2: tensor<1x1x64xf32>) -> tensor<1x16x64xf32> {
  %cst = arith.constant 3.400000e+38 : f32
  %cst_0 = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<1x16x64xf32>
  %1 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<1x16x64xf32>) -> tensor<1x16x64xf32>
  %2 = linalg.batch_matmul ins(%arg0, %arg1 : tensor<1x16x32xf32>, tensor<1x32x64xf32>) outs(%1 : tensor<1x16x64xf32>) -> tensor<1x16x64xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%2, %arg2 : tensor<1x16x64xf32>, tensor<1x1x64xf32>) outs(%0 : tensor<1x16x64xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %5 = arith.addf %in, %in_1 : f32
    linalg.yield %5 : f32
  } -> tensor<1x16x64xf32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3 : tensor<1x16x64xf32>) outs(%0 : tensor<1x16x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %5 = arith.minimumf %in, %cst : f32
    %6 = arith.maximumf %5, %cst_0 : f32
    linalg.yield %6 : f32
  } -> tensor<1x16x64xf32>
  return %4 : tensor<1x16x64xf32>
}

// -----

// residual_join: the add that joins two conv branches, and the ReLU after it,
// go into the epilogue of the later conv; the other branch is an input.
// CHECK-LABEL: func @residual_join
// CHECK: fuse.group vertical rule "contraction_epilogue"
// CHECK: fuse.group diagonal rule "residual_join"
// CHECK-NOT: fuse.group
// CHECK: return
// MISSED: Function=residual_join | {{.*}}Remark="residual_join refused by dependency"
func.func @residual_join(%arg0: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %cst = arith.constant 3.400000e+38 : f32
  %cst_0 = arith.constant 0.000000e+00 : f32
  %cst_1 = arith.constant dense<0.00999999977> : tensor<16x1x1x16xf32>
  %cst_2 = arith.constant dense<2.000000e-02> : tensor<16x1x1x16xf32>
  %cst_3 = arith.constant dense<5.000000e-01> : tensor<16xf32>
  %0 = tensor.empty() : tensor<1x8x8x16xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_3 : tensor<16xf32>) outs(%0 : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x8x16xf32>
  %2 = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%arg0, %cst_1 : tensor<1x8x8x16xf32>, tensor<16x1x1x16xf32>) outs(%1 : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %3 = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%2, %cst_2 : tensor<1x8x8x16xf32>, tensor<16x1x1x16xf32>) outs(%1 : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%3, %2 : tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>) outs(%0 : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %in_4: f32, %out: f32):
    %6 = arith.addf %in, %in_4 : f32
    linalg.yield %6 : f32
  } -> tensor<1x8x8x16xf32>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%4 : tensor<1x8x8x16xf32>) outs(%0 : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %6 = arith.minimumf %in, %cst : f32
    %7 = arith.maximumf %6, %cst_0 : f32
    linalg.yield %7 : f32
  } -> tensor<1x8x8x16xf32>
  return %5 : tensor<1x8x8x16xf32>
}
