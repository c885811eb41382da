// row_reduction: softmax, layernorm and RMSNorm each one kernel; a column
// reduction is not a row reduction.
// fuse-form-groups alone, on the linalg that the TOSA of test/Pipelines/Fusion/reduction.mlir
// becomes before fusion (the cases of that pipeline test, same decisions).
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200" | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200" --remarks-filter-missed=fuse --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSED --allow-empty

// row_reduction: a whole softmax (max, subtract, exp, sum, reciprocal,
// scale) is one kernel.
// CHECK-LABEL: func @softmax
// CHECK: fuse.group vertical rule "row_reduction"
// CHECK-NOT: fuse.group
// CHECK: return
func.func @softmax(%arg0: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant 0.000000e+00 : f32
  %cst_1 = arith.constant -3.40282347E+38 : f32
  %0 = tensor.empty() : tensor<4xf32>
  %1 = linalg.fill ins(%cst_1 : f32) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
  %reduced = linalg.reduce ins(%arg0 : tensor<4x64xf32>) outs(%1 : tensor<4xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %9 = arith.maximumf %in, %init : f32
      linalg.yield %9 : f32
    }
  %expanded = tensor.expand_shape %reduced [[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
  %2 = tensor.empty() : tensor<4x64xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %expanded : tensor<4x64xf32>, tensor<4x1xf32>) outs(%2 : tensor<4x64xf32>) {
  ^bb0(%in: f32, %in_4: f32, %out: f32):
    %9 = arith.subf %in, %in_4 : f32
    linalg.yield %9 : f32
  } -> tensor<4x64xf32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<4x64xf32>) outs(%2 : tensor<4x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %9 = math.exp %in : f32
    linalg.yield %9 : f32
  } -> tensor<4x64xf32>
  %5 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
  %reduced_2 = linalg.reduce ins(%4 : tensor<4x64xf32>) outs(%5 : tensor<4xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %9 = arith.addf %in, %init : f32
      linalg.yield %9 : f32
    }
  %expanded_3 = tensor.expand_shape %reduced_2 [[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
  %6 = tensor.empty() : tensor<4x1xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%expanded_3 : tensor<4x1xf32>) outs(%6 : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %9 = arith.divf %cst, %in : f32
    linalg.yield %9 : f32
  } -> tensor<4x1xf32>
  %8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%4, %7 : tensor<4x64xf32>, tensor<4x1xf32>) outs(%2 : tensor<4x64xf32>) {
  ^bb0(%in: f32, %in_4: f32, %out: f32):
    %9 = arith.mulf %in, %in_4 : f32
    linalg.yield %9 : f32
  } -> tensor<4x64xf32>
  return %8 : tensor<4x64xf32>
}

// -----

// row_reduction: layer normalization over the last dimension, with its
// scale and shift, is one kernel.
// CHECK-LABEL: func @layernorm
// CHECK: fuse.group vertical rule "row_reduction"
// CHECK-NOT: fuse.group
// CHECK: return
func.func @layernorm(%arg0: tensor<8x768xf32>, %arg1: tensor<1x768xf32>, %arg2: tensor<1x768xf32>) -> tensor<8x768xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant dense<0.00130208337> : tensor<1x1xf32>
  %cst_1 = arith.constant dense<9.99999974E-6> : tensor<1x1xf32>
  %0 = tensor.empty() : tensor<8xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<8xf32>) -> tensor<8xf32>
  %reduced = linalg.reduce ins(%arg0 : tensor<8x768xf32>) outs(%1 : tensor<8xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %13 = arith.addf %in, %init : f32
      linalg.yield %13 : f32
    }
  %expanded = tensor.expand_shape %reduced [[0, 1]] output_shape [8, 1] : tensor<8xf32> into tensor<8x1xf32>
  %2 = tensor.empty() : tensor<8x1xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%expanded, %cst_0 : tensor<8x1xf32>, tensor<1x1xf32>) outs(%2 : tensor<8x1xf32>) {
  ^bb0(%in: f32, %in_4: f32, %out: f32):
    %13 = arith.mulf %in, %in_4 : f32
    linalg.yield %13 : f32
  } -> tensor<8x1xf32>
  %4 = tensor.empty() : tensor<8x768xf32>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %3 : tensor<8x768xf32>, tensor<8x1xf32>) outs(%4 : tensor<8x768xf32>) {
  ^bb0(%in: f32, %in_4: f32, %out: f32):
    %13 = arith.subf %in, %in_4 : f32
    linalg.yield %13 : f32
  } -> tensor<8x768xf32>
  %6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%5, %5 : tensor<8x768xf32>, tensor<8x768xf32>) outs(%4 : tensor<8x768xf32>) {
  ^bb0(%in: f32, %in_4: f32, %out: f32):
    %13 = arith.mulf %in, %in_4 : f32
    linalg.yield %13 : f32
  } -> tensor<8x768xf32>
  %reduced_2 = linalg.reduce ins(%6 : tensor<8x768xf32>) outs(%1 : tensor<8xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %13 = arith.addf %in, %init : f32
      linalg.yield %13 : f32
    }
  %expanded_3 = tensor.expand_shape %reduced_2 [[0, 1]] output_shape [8, 1] : tensor<8xf32> into tensor<8x1xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%expanded_3, %cst_0 : tensor<8x1xf32>, tensor<1x1xf32>) outs(%2 : tensor<8x1xf32>) {
  ^bb0(%in: f32, %in_4: f32, %out: f32):
    %13 = arith.mulf %in, %in_4 : f32
    linalg.yield %13 : f32
  } -> tensor<8x1xf32>
  %8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%7, %cst_1 : tensor<8x1xf32>, tensor<1x1xf32>) outs(%2 : tensor<8x1xf32>) {
  ^bb0(%in: f32, %in_4: f32, %out: f32):
    %13 = arith.addf %in, %in_4 : f32
    linalg.yield %13 : f32
  } -> tensor<8x1xf32>
  %9 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%8 : tensor<8x1xf32>) outs(%2 : tensor<8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %13 = math.rsqrt %in : f32
    linalg.yield %13 : f32
  } -> tensor<8x1xf32>
  %10 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%5, %9 : tensor<8x768xf32>, tensor<8x1xf32>) outs(%4 : tensor<8x768xf32>) {
  ^bb0(%in: f32, %in_4: f32, %out: f32):
    %13 = arith.mulf %in, %in_4 : f32
    linalg.yield %13 : f32
  } -> tensor<8x768xf32>
  %11 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%10, %arg1 : tensor<8x768xf32>, tensor<1x768xf32>) outs(%4 : tensor<8x768xf32>) {
  ^bb0(%in: f32, %in_4: f32, %out: f32):
    %13 = arith.mulf %in, %in_4 : f32
    linalg.yield %13 : f32
  } -> tensor<8x768xf32>
  %12 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%11, %arg2 : tensor<8x768xf32>, tensor<1x768xf32>) outs(%4 : tensor<8x768xf32>) {
  ^bb0(%in: f32, %in_4: f32, %out: f32):
    %13 = arith.addf %in, %in_4 : f32
    linalg.yield %13 : f32
  } -> tensor<8x768xf32>
  return %12 : tensor<8x768xf32>
}

// -----

// A reduction over the outer dimension broadcast back to every row needs a
// grid-wide barrier: the broadcast-back op stays out of its group.
// CHECK-LABEL: func @column_reduction
// CHECK: fuse.group single
// CHECK: fuse.group single
// CHECK-NOT: fuse.group
// CHECK: return
// MISSED: Function=column_reduction | {{.*}}Remark="row_reduction refused by dependency"
func.func @column_reduction(%arg0: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<16xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<16xf32>) -> tensor<16xf32>
  %reduced = linalg.reduce ins(%arg0 : tensor<64x16xf32>) outs(%1 : tensor<16xf32>) dimensions = [0]
    (%in: f32, %init: f32) {
      %4 = arith.addf %in, %init : f32
      linalg.yield %4 : f32
    }
  %expanded = tensor.expand_shape %reduced [[0, 1]] output_shape [1, 16] : tensor<16xf32> into tensor<1x16xf32>
  %2 = tensor.empty() : tensor<64x16xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %expanded : tensor<64x16xf32>, tensor<1x16xf32>) outs(%2 : tensor<64x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %4 = arith.subf %in, %in_0 : f32
    linalg.yield %4 : f32
  } -> tensor<64x16xf32>
  return %3 : tensor<64x16xf32>
}

// -----

// A reduction with an elementwise prologue and an epilogue on its result
// (mean of squares, then a square root) fuses without any barrier.
// CHECK-LABEL: func @rms
// CHECK: fuse.group vertical rule "row_reduction"
// CHECK-NOT: fuse.group
// CHECK: return
func.func @rms(%arg0: tensor<64x16xf32>) -> tensor<1x16xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<64x16xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg0 : tensor<64x16xf32>, tensor<64x16xf32>) outs(%0 : tensor<64x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %6 = arith.mulf %in, %in_0 : f32
    linalg.yield %6 : f32
  } -> tensor<64x16xf32>
  %2 = tensor.empty() : tensor<16xf32>
  %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<16xf32>) -> tensor<16xf32>
  %reduced = linalg.reduce ins(%1 : tensor<64x16xf32>) outs(%3 : tensor<16xf32>) dimensions = [0]
    (%in: f32, %init: f32) {
      %6 = arith.addf %in, %init : f32
      linalg.yield %6 : f32
    }
  %expanded = tensor.expand_shape %reduced [[0, 1]] output_shape [1, 16] : tensor<16xf32> into tensor<1x16xf32>
  %4 = tensor.empty() : tensor<1x16xf32>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%expanded : tensor<1x16xf32>) outs(%4 : tensor<1x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %6 = math.rsqrt %in : f32
    linalg.yield %6 : f32
  } -> tensor<1x16xf32>
  return %5 : tensor<1x16xf32>
}
