// contraction_row_epilogue: a GEMM, its residual add and the LayerNorm
// over its rows.
// fuse-form-groups alone, on the linalg that the TOSA of test/Pipelines/Fusion/row-epilogue.mlir
// becomes before fusion (the cases of that pipeline test, same decisions).
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200" | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200" --remarks-filter-missed=fuse --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSED --allow-empty

// CHECK-LABEL: func @gemm_residual_layernorm
// CHECK: fuse.group vertical rule "contraction_epilogue"
// CHECK: fuse.group vertical rule "row_reduction"
// CHECK-NOT: fuse.group
// CHECK: return
// MISSED: Function=gemm_residual_layernorm | {{.*}}Remark="residual_join refused by dependency"
// MISSED: Function=gemm_residual_layernorm | {{.*}}Remark="contraction_row_epilogue refused by cost"
func.func @gemm_residual_layernorm(%arg0: tensor<1x64x2048xf32>, %arg1: tensor<1x2048x2048xf32>, %arg2: tensor<1x1x2048xf32>, %arg3: tensor<1x1x2048xf32>, %arg4: tensor<1x1x2048xf32>) -> tensor<1x64x2048xf32> {
  %cst = arith.constant dense<4.8828125E-4> : tensor<1x1x1xf32>
  %cst_0 = arith.constant dense<9.99999974E-6> : tensor<1x1x1xf32>
  %cst_1 = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<1x64x2048xf32>
  %1 = linalg.fill ins(%cst_1 : f32) outs(%0 : tensor<1x64x2048xf32>) -> tensor<1x64x2048xf32>
  %2 = linalg.batch_matmul ins(%arg0, %arg1 : tensor<1x64x2048xf32>, tensor<1x2048x2048xf32>) outs(%1 : tensor<1x64x2048xf32>) -> tensor<1x64x2048xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%2, %arg2 : tensor<1x64x2048xf32>, tensor<1x1x2048xf32>) outs(%0 : tensor<1x64x2048xf32>) {
  ^bb0(%in: f32, %in_4: f32, %out: f32):
    %17 = arith.addf %in, %in_4 : f32
    linalg.yield %17 : f32
  } -> tensor<1x64x2048xf32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3, %arg0 : tensor<1x64x2048xf32>, tensor<1x64x2048xf32>) outs(%0 : tensor<1x64x2048xf32>) {
  ^bb0(%in: f32, %in_4: f32, %out: f32):
    %17 = arith.addf %in, %in_4 : f32
    linalg.yield %17 : f32
  } -> tensor<1x64x2048xf32>
  %5 = tensor.empty() : tensor<1x64xf32>
  %6 = linalg.fill ins(%cst_1 : f32) outs(%5 : tensor<1x64xf32>) -> tensor<1x64xf32>
  %reduced = linalg.reduce ins(%4 : tensor<1x64x2048xf32>) outs(%6 : tensor<1x64xf32>) dimensions = [2]
    (%in: f32, %init: f32) {
      %17 = arith.addf %in, %init : f32
      linalg.yield %17 : f32
    }
  %expanded = tensor.expand_shape %reduced [[0], [1, 2]] output_shape [1, 64, 1] : tensor<1x64xf32> into tensor<1x64x1xf32>
  %7 = tensor.empty() : tensor<1x64x1xf32>
  %8 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded, %cst : tensor<1x64x1xf32>, tensor<1x1x1xf32>) outs(%7 : tensor<1x64x1xf32>) {
  ^bb0(%in: f32, %in_4: f32, %out: f32):
    %17 = arith.mulf %in, %in_4 : f32
    linalg.yield %17 : f32
  } -> tensor<1x64x1xf32>
  %9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4, %8 : tensor<1x64x2048xf32>, tensor<1x64x1xf32>) outs(%0 : tensor<1x64x2048xf32>) {
  ^bb0(%in: f32, %in_4: f32, %out: f32):
    %17 = arith.subf %in, %in_4 : f32
    linalg.yield %17 : f32
  } -> tensor<1x64x2048xf32>
  %10 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%9, %9 : tensor<1x64x2048xf32>, tensor<1x64x2048xf32>) outs(%0 : tensor<1x64x2048xf32>) {
  ^bb0(%in: f32, %in_4: f32, %out: f32):
    %17 = arith.mulf %in, %in_4 : f32
    linalg.yield %17 : f32
  } -> tensor<1x64x2048xf32>
  %reduced_2 = linalg.reduce ins(%10 : tensor<1x64x2048xf32>) outs(%6 : tensor<1x64xf32>) dimensions = [2]
    (%in: f32, %init: f32) {
      %17 = arith.addf %in, %init : f32
      linalg.yield %17 : f32
    }
  %expanded_3 = tensor.expand_shape %reduced_2 [[0], [1, 2]] output_shape [1, 64, 1] : tensor<1x64xf32> into tensor<1x64x1xf32>
  %11 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_3, %cst : tensor<1x64x1xf32>, tensor<1x1x1xf32>) outs(%7 : tensor<1x64x1xf32>) {
  ^bb0(%in: f32, %in_4: f32, %out: f32):
    %17 = arith.mulf %in, %in_4 : f32
    linalg.yield %17 : f32
  } -> tensor<1x64x1xf32>
  %12 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%11, %cst_0 : tensor<1x64x1xf32>, tensor<1x1x1xf32>) outs(%7 : tensor<1x64x1xf32>) {
  ^bb0(%in: f32, %in_4: f32, %out: f32):
    %17 = arith.addf %in, %in_4 : f32
    linalg.yield %17 : f32
  } -> tensor<1x64x1xf32>
  %13 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%12 : tensor<1x64x1xf32>) outs(%7 : tensor<1x64x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %17 = math.rsqrt %in : f32
    linalg.yield %17 : f32
  } -> tensor<1x64x1xf32>
  %14 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%9, %13 : tensor<1x64x2048xf32>, tensor<1x64x1xf32>) outs(%0 : tensor<1x64x2048xf32>) {
  ^bb0(%in: f32, %in_4: f32, %out: f32):
    %17 = arith.mulf %in, %in_4 : f32
    linalg.yield %17 : f32
  } -> tensor<1x64x2048xf32>
  %15 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%14, %arg3 : tensor<1x64x2048xf32>, tensor<1x1x2048xf32>) outs(%0 : tensor<1x64x2048xf32>) {
  ^bb0(%in: f32, %in_4: f32, %out: f32):
    %17 = arith.mulf %in, %in_4 : f32
    linalg.yield %17 : f32
  } -> tensor<1x64x2048xf32>
  %16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%15, %arg4 : tensor<1x64x2048xf32>, tensor<1x1x2048xf32>) outs(%0 : tensor<1x64x2048xf32>) {
  ^bb0(%in: f32, %in_4: f32, %out: f32):
    %17 = arith.addf %in, %in_4 : f32
    linalg.yield %17 : f32
  } -> tensor<1x64x2048xf32>
  return %16 : tensor<1x64x2048xf32>
}
