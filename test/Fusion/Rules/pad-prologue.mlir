// pad_prologue (and pooling epilogues): the pad joins the pooling that
// reads it; the pooling takes its epilogue.
// fuse-form-groups alone, on the linalg that the TOSA of test/Pipelines/Fusion/pool-epilogue.mlir
// becomes before fusion (the cases of that pipeline test, same decisions).
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200" | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200" --remarks-filter-missed=fuse --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSED --allow-empty
// No candidate is refused here.
// MISSED-NOT: [Missed] refused

// A global average pool: the sum, its division and the ReLU are one kernel.
// CHECK-LABEL: func @avg_relu
// CHECK: fuse.group vertical rule "contraction_epilogue"
// CHECK-NOT: fuse.group
// CHECK-LABEL: func @max_join
// CHECK: fuse.group vertical rule "contraction_epilogue"
// CHECK-NOT: fuse.group
// CHECK: return
func.func @avg_relu(%arg0: tensor<1x7x7x16xf32>) -> tensor<1x1x1x16xf32> {
  %cst = arith.constant 3.400000e+38 : f32
  %cst_0 = arith.constant 4.900000e+01 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<1x1x1x16xf32>
  %1 = linalg.fill ins(%cst_1 : f32) outs(%0 : tensor<1x1x1x16xf32>) -> tensor<1x1x1x16xf32>
  %2 = tensor.empty() : tensor<7x7xf32>
  %3 = linalg.pooling_nhwc_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%arg0, %2 : tensor<1x7x7x16xf32>, tensor<7x7xf32>) outs(%1 : tensor<1x1x1x16xf32>) -> tensor<1x1x1x16xf32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%3 : tensor<1x1x1x16xf32>) outs(%0 : tensor<1x1x1x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %6 = arith.divf %in, %cst_0 : f32
    linalg.yield %6 : f32
  } -> tensor<1x1x1x16xf32>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%4 : tensor<1x1x1x16xf32>) outs(%0 : tensor<1x1x1x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %6 = arith.minimumf %in, %cst : f32
    %7 = arith.maximumf %6, %cst_1 : f32
    linalg.yield %7 : f32
  } -> tensor<1x1x1x16xf32>
  return %5 : tensor<1x1x1x16xf32>
}
func.func @max_join(%arg0: tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32> {
  %cst = arith.constant -3.40282347E+38 : f32
  %padded = tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
    tensor.yield %cst : f32
  } : tensor<1x8x8x4xf32> to tensor<1x10x10x4xf32>
  %0 = tensor.empty() : tensor<1x8x8x4xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %2 = tensor.empty() : tensor<3x3xf32>
  %3 = linalg.pooling_nhwc_max {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %2 : tensor<1x10x10x4xf32>, tensor<3x3xf32>) outs(%1 : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0, %3 : tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) outs(%0 : tensor<1x8x8x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %5 = arith.addf %in, %in_0 : f32
    linalg.yield %5 : f32
  } -> tensor<1x8x8x4xf32>
  return %4 : tensor<1x8x8x4xf32>
}
