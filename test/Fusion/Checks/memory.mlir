// The memory check on the T4: a working set larger than its shared memory.
// fuse-form-groups alone, on the linalg that the TOSA of test/Pipelines/Fusion/check-memory.mlir
// becomes before fusion (the cases of that pipeline test, same decisions).
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=t4" | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=t4" --remarks-filter-missed=fuse --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSED --allow-empty

// Softmax over rows of 65536 floats keeps a whole row (first x, then
// exp(x - max)) on chip: 65536 x 4 B = 256 KiB. An H200 holds 227 KiB per
// block and spills the rest to its share of the 50 MiB L2; a T4 holds 64 KiB
// and its L2 share (4 MiB / 40 SMs) is too small for the rest.
// On the T4 the softmax splits where a row would have to stay on chip:
// the max alone, then subtract/exp/sum/reciprocal (exp is also returned to
// the last group), then the final scaling.
// CHECK-LABEL: func @long_softmax
// CHECK: fuse.group single
// CHECK: fuse.group diagonal rule "row_reduction"
// CHECK: fuse.group single
// CHECK-NOT: fuse.group
// CHECK: return
// MISSED: Function=long_softmax | {{.*}}Remark="row_reduction refused by memory"
// MISSED: Function=long_softmax | {{.*}}Remark="row_reduction refused by memory"
func.func @long_softmax(%arg0: tensor<4x65536xf32>) -> tensor<4x65536xf32> {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant 0.000000e+00 : f32
  %cst_1 = arith.constant -3.40282347E+38 : f32
  %0 = tensor.empty() : tensor<4xf32>
  %1 = linalg.fill ins(%cst_1 : f32) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
  %reduced = linalg.reduce ins(%arg0 : tensor<4x65536xf32>) outs(%1 : tensor<4xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %9 = arith.maximumf %in, %init : f32
      linalg.yield %9 : f32
    }
  %expanded = tensor.expand_shape %reduced [[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
  %2 = tensor.empty() : tensor<4x65536xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %expanded : tensor<4x65536xf32>, tensor<4x1xf32>) outs(%2 : tensor<4x65536xf32>) {
  ^bb0(%in: f32, %in_4: f32, %out: f32):
    %9 = arith.subf %in, %in_4 : f32
    linalg.yield %9 : f32
  } -> tensor<4x65536xf32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<4x65536xf32>) outs(%2 : tensor<4x65536xf32>) {
  ^bb0(%in: f32, %out: f32):
    %9 = math.exp %in : f32
    linalg.yield %9 : f32
  } -> tensor<4x65536xf32>
  %5 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
  %reduced_2 = linalg.reduce ins(%4 : tensor<4x65536xf32>) outs(%5 : tensor<4xf32>) dimensions = [1]
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
  %8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%4, %7 : tensor<4x65536xf32>, tensor<4x1xf32>) outs(%2 : tensor<4x65536xf32>) {
  ^bb0(%in: f32, %in_4: f32, %out: f32):
    %9 = arith.mulf %in, %in_4 : f32
    linalg.yield %9 : f32
  } -> tensor<4x65536xf32>
  return %8 : tensor<4x65536xf32>
}

// -----

// A contraction needs at least a 32x32x32 double-buffered tile (16 KiB in
// f32): with 8 KiB of shared memory per block and 1 KiB of L2 per SM its
// epilogue cannot join.
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
