// attention: QK^T, scale, softmax and the product with V as one composite
// kernel; a sequence too long for shared memory is refused.
// fuse-form-groups alone, on the linalg that the TOSA of test/Pipelines/Fusion/attention.mlir
// becomes before fusion (the cases of that pipeline test, same decisions).
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200" | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200" --remarks-filter-missed=fuse --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSED --allow-empty

// attention: K's transpose, QK^T, scale, mask, softmax and the product with
// V are one composite kernel.
// Without the rule the softmax still joins QK^T (contraction_row_epilogue),
// but the product with V is a kernel of its own.
// CHECK-LABEL: func @attention
// CHECK: fuse.group composite rule "attention"
// CHECK-NOT: fuse.group
// CHECK: return
func.func @attention(%arg0: tensor<2x64x32xf32>, %arg1: tensor<2x64x32xf32>, %arg2: tensor<2x64x32xf32>, %arg3: tensor<1x1x64xf32>) -> tensor<2x64x32xf32> {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %cst_2 = arith.constant dense<1.250000e-01> : tensor<1x1x1xf32>
  %0 = tensor.empty() : tensor<2x32x64xf32>
  %transposed = linalg.transpose ins(%arg1 : tensor<2x64x32xf32>) outs(%0 : tensor<2x32x64xf32>) permutation = [0, 2, 1]
  %1 = tensor.empty() : tensor<2x64x64xf32>
  %2 = linalg.fill ins(%cst_1 : f32) outs(%1 : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  %3 = linalg.batch_matmul ins(%arg0, %transposed : tensor<2x64x32xf32>, tensor<2x32x64xf32>) outs(%2 : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (0, 0, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3, %cst_2 : tensor<2x64x64xf32>, tensor<1x1x1xf32>) outs(%1 : tensor<2x64x64xf32>) {
  ^bb0(%in: f32, %in_5: f32, %out: f32):
    %17 = arith.mulf %in, %in_5 : f32
    linalg.yield %17 : f32
  } -> tensor<2x64x64xf32>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4, %arg3 : tensor<2x64x64xf32>, tensor<1x1x64xf32>) outs(%1 : tensor<2x64x64xf32>) {
  ^bb0(%in: f32, %in_5: f32, %out: f32):
    %17 = arith.addf %in, %in_5 : f32
    linalg.yield %17 : f32
  } -> tensor<2x64x64xf32>
  %6 = tensor.empty() : tensor<2x64xf32>
  %7 = linalg.fill ins(%cst_0 : f32) outs(%6 : tensor<2x64xf32>) -> tensor<2x64xf32>
  %reduced = linalg.reduce ins(%5 : tensor<2x64x64xf32>) outs(%7 : tensor<2x64xf32>) dimensions = [2]
    (%in: f32, %init: f32) {
      %17 = arith.maximumf %in, %init : f32
      linalg.yield %17 : f32
    }
  %expanded = tensor.expand_shape %reduced [[0], [1, 2]] output_shape [2, 64, 1] : tensor<2x64xf32> into tensor<2x64x1xf32>
  %8 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5, %expanded : tensor<2x64x64xf32>, tensor<2x64x1xf32>) outs(%1 : tensor<2x64x64xf32>) {
  ^bb0(%in: f32, %in_5: f32, %out: f32):
    %17 = arith.subf %in, %in_5 : f32
    linalg.yield %17 : f32
  } -> tensor<2x64x64xf32>
  %9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%8 : tensor<2x64x64xf32>) outs(%1 : tensor<2x64x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %17 = math.exp %in : f32
    linalg.yield %17 : f32
  } -> tensor<2x64x64xf32>
  %10 = linalg.fill ins(%cst_1 : f32) outs(%6 : tensor<2x64xf32>) -> tensor<2x64xf32>
  %reduced_3 = linalg.reduce ins(%9 : tensor<2x64x64xf32>) outs(%10 : tensor<2x64xf32>) dimensions = [2]
    (%in: f32, %init: f32) {
      %17 = arith.addf %in, %init : f32
      linalg.yield %17 : f32
    }
  %expanded_4 = tensor.expand_shape %reduced_3 [[0], [1, 2]] output_shape [2, 64, 1] : tensor<2x64xf32> into tensor<2x64x1xf32>
  %11 = tensor.empty() : tensor<2x64x1xf32>
  %12 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_4 : tensor<2x64x1xf32>) outs(%11 : tensor<2x64x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %17 = arith.divf %cst, %in : f32
    linalg.yield %17 : f32
  } -> tensor<2x64x1xf32>
  %13 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%9, %12 : tensor<2x64x64xf32>, tensor<2x64x1xf32>) outs(%1 : tensor<2x64x64xf32>) {
  ^bb0(%in: f32, %in_5: f32, %out: f32):
    %17 = arith.mulf %in, %in_5 : f32
    linalg.yield %17 : f32
  } -> tensor<2x64x64xf32>
  %14 = tensor.empty() : tensor<2x64x32xf32>
  %15 = linalg.fill ins(%cst_1 : f32) outs(%14 : tensor<2x64x32xf32>) -> tensor<2x64x32xf32>
  %16 = linalg.batch_matmul ins(%13, %arg2 : tensor<2x64x64xf32>, tensor<2x64x32xf32>) outs(%15 : tensor<2x64x32xf32>) -> tensor<2x64x32xf32>
  return %16 : tensor<2x64x32xf32>
}

// -----

// Long sequences: the tile streams the keys and values in chunks of 64
// through an online softmax (Lowering.md, "Streamed attention"), so
// neither the roofline check (both products are compute-bound: over 30
// FLOP/B against a ridge of 14 on the H200) nor the whole-row working set
// applies to the attention rule; the lowering check measures the tile.
// CHECK-LABEL: func @long_attention
// CHECK: fuse.group composite rule "attention"
// CHECK-SAME: tile = [1, 64, 0, 0], threads = 64, instruction = "mma_sync", precision = "fp32", key_chunk = 64>
// CHECK-NOT: fuse.group
// CHECK: return
// MISSED-NOT: Function=long_attention | {{.*}}Remark="attention refused
func.func @long_attention(%arg0: tensor<12x2048x64xf32>, %arg1: tensor<12x2048x64xf32>, %arg2: tensor<12x2048x64xf32>, %arg3: tensor<1x1x2048xf32>) -> tensor<12x2048x64xf32> {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %cst_2 = arith.constant dense<1.250000e-01> : tensor<1x1x1xf32>
  %0 = tensor.empty() : tensor<12x64x2048xf32>
  %transposed = linalg.transpose ins(%arg1 : tensor<12x2048x64xf32>) outs(%0 : tensor<12x64x2048xf32>) permutation = [0, 2, 1]
  %1 = tensor.empty() : tensor<12x2048x2048xf32>
  %2 = linalg.fill ins(%cst_1 : f32) outs(%1 : tensor<12x2048x2048xf32>) -> tensor<12x2048x2048xf32>
  %3 = linalg.batch_matmul ins(%arg0, %transposed : tensor<12x2048x64xf32>, tensor<12x64x2048xf32>) outs(%2 : tensor<12x2048x2048xf32>) -> tensor<12x2048x2048xf32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (0, 0, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3, %cst_2 : tensor<12x2048x2048xf32>, tensor<1x1x1xf32>) outs(%1 : tensor<12x2048x2048xf32>) {
  ^bb0(%in: f32, %in_5: f32, %out: f32):
    %17 = arith.mulf %in, %in_5 : f32
    linalg.yield %17 : f32
  } -> tensor<12x2048x2048xf32>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4, %arg3 : tensor<12x2048x2048xf32>, tensor<1x1x2048xf32>) outs(%1 : tensor<12x2048x2048xf32>) {
  ^bb0(%in: f32, %in_5: f32, %out: f32):
    %17 = arith.addf %in, %in_5 : f32
    linalg.yield %17 : f32
  } -> tensor<12x2048x2048xf32>
  %6 = tensor.empty() : tensor<12x2048xf32>
  %7 = linalg.fill ins(%cst_0 : f32) outs(%6 : tensor<12x2048xf32>) -> tensor<12x2048xf32>
  %reduced = linalg.reduce ins(%5 : tensor<12x2048x2048xf32>) outs(%7 : tensor<12x2048xf32>) dimensions = [2]
    (%in: f32, %init: f32) {
      %17 = arith.maximumf %in, %init : f32
      linalg.yield %17 : f32
    }
  %expanded = tensor.expand_shape %reduced [[0], [1, 2]] output_shape [12, 2048, 1] : tensor<12x2048xf32> into tensor<12x2048x1xf32>
  %8 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5, %expanded : tensor<12x2048x2048xf32>, tensor<12x2048x1xf32>) outs(%1 : tensor<12x2048x2048xf32>) {
  ^bb0(%in: f32, %in_5: f32, %out: f32):
    %17 = arith.subf %in, %in_5 : f32
    linalg.yield %17 : f32
  } -> tensor<12x2048x2048xf32>
  %9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%8 : tensor<12x2048x2048xf32>) outs(%1 : tensor<12x2048x2048xf32>) {
  ^bb0(%in: f32, %out: f32):
    %17 = math.exp %in : f32
    linalg.yield %17 : f32
  } -> tensor<12x2048x2048xf32>
  %10 = linalg.fill ins(%cst_1 : f32) outs(%6 : tensor<12x2048xf32>) -> tensor<12x2048xf32>
  %reduced_3 = linalg.reduce ins(%9 : tensor<12x2048x2048xf32>) outs(%10 : tensor<12x2048xf32>) dimensions = [2]
    (%in: f32, %init: f32) {
      %17 = arith.addf %in, %init : f32
      linalg.yield %17 : f32
    }
  %expanded_4 = tensor.expand_shape %reduced_3 [[0], [1, 2]] output_shape [12, 2048, 1] : tensor<12x2048xf32> into tensor<12x2048x1xf32>
  %11 = tensor.empty() : tensor<12x2048x1xf32>
  %12 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_4 : tensor<12x2048x1xf32>) outs(%11 : tensor<12x2048x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %17 = arith.divf %cst, %in : f32
    linalg.yield %17 : f32
  } -> tensor<12x2048x1xf32>
  %13 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%9, %12 : tensor<12x2048x2048xf32>, tensor<12x2048x1xf32>) outs(%1 : tensor<12x2048x2048xf32>) {
  ^bb0(%in: f32, %in_5: f32, %out: f32):
    %17 = arith.mulf %in, %in_5 : f32
    linalg.yield %17 : f32
  } -> tensor<12x2048x2048xf32>
  %14 = tensor.empty() : tensor<12x2048x64xf32>
  %15 = linalg.fill ins(%cst_1 : f32) outs(%14 : tensor<12x2048x64xf32>) -> tensor<12x2048x64xf32>
  %16 = linalg.batch_matmul ins(%13, %arg2 : tensor<12x2048x2048xf32>, tensor<12x2048x64xf32>) outs(%15 : tensor<12x2048x64xf32>) -> tensor<12x2048x64xf32>
  return %16 : tensor<12x2048x64xf32>
}

// -----

// 2047 keys: no chunk of 32, 64 or 128 divides them, and a head's K and V
// whole (1 MiB) do not fit shared memory: the lowering check refuses the
// group (the softmax joins QK^T; the product with V is its own kernel).
// CHECK-LABEL: func @odd_attention
// CHECK-NOT: rule "attention"
// CHECK: return
// MISSED: Function=odd_attention | {{.*}}Remark="attention refused by lowering"
func.func @odd_attention(%arg0: tensor<12x2047x64xf32>, %arg1: tensor<12x2047x64xf32>, %arg2: tensor<12x2047x64xf32>, %arg3: tensor<1x1x2047xf32>) -> tensor<12x2047x64xf32> {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %cst_2 = arith.constant dense<1.250000e-01> : tensor<1x1x1xf32>
  %0 = tensor.empty() : tensor<12x64x2047xf32>
  %transposed = linalg.transpose ins(%arg1 : tensor<12x2047x64xf32>) outs(%0 : tensor<12x64x2047xf32>) permutation = [0, 2, 1]
  %1 = tensor.empty() : tensor<12x2047x2047xf32>
  %2 = linalg.fill ins(%cst_1 : f32) outs(%1 : tensor<12x2047x2047xf32>) -> tensor<12x2047x2047xf32>
  %3 = linalg.batch_matmul ins(%arg0, %transposed : tensor<12x2047x64xf32>, tensor<12x64x2047xf32>) outs(%2 : tensor<12x2047x2047xf32>) -> tensor<12x2047x2047xf32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (0, 0, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3, %cst_2 : tensor<12x2047x2047xf32>, tensor<1x1x1xf32>) outs(%1 : tensor<12x2047x2047xf32>) {
  ^bb0(%in: f32, %in_5: f32, %out: f32):
    %17 = arith.mulf %in, %in_5 : f32
    linalg.yield %17 : f32
  } -> tensor<12x2047x2047xf32>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4, %arg3 : tensor<12x2047x2047xf32>, tensor<1x1x2047xf32>) outs(%1 : tensor<12x2047x2047xf32>) {
  ^bb0(%in: f32, %in_5: f32, %out: f32):
    %17 = arith.addf %in, %in_5 : f32
    linalg.yield %17 : f32
  } -> tensor<12x2047x2047xf32>
  %6 = tensor.empty() : tensor<12x2047xf32>
  %7 = linalg.fill ins(%cst_0 : f32) outs(%6 : tensor<12x2047xf32>) -> tensor<12x2047xf32>
  %reduced = linalg.reduce ins(%5 : tensor<12x2047x2047xf32>) outs(%7 : tensor<12x2047xf32>) dimensions = [2]
    (%in: f32, %init: f32) {
      %17 = arith.maximumf %in, %init : f32
      linalg.yield %17 : f32
    }
  %expanded = tensor.expand_shape %reduced [[0], [1, 2]] output_shape [12, 2047, 1] : tensor<12x2047xf32> into tensor<12x2047x1xf32>
  %8 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5, %expanded : tensor<12x2047x2047xf32>, tensor<12x2047x1xf32>) outs(%1 : tensor<12x2047x2047xf32>) {
  ^bb0(%in: f32, %in_5: f32, %out: f32):
    %17 = arith.subf %in, %in_5 : f32
    linalg.yield %17 : f32
  } -> tensor<12x2047x2047xf32>
  %9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%8 : tensor<12x2047x2047xf32>) outs(%1 : tensor<12x2047x2047xf32>) {
  ^bb0(%in: f32, %out: f32):
    %17 = math.exp %in : f32
    linalg.yield %17 : f32
  } -> tensor<12x2047x2047xf32>
  %10 = linalg.fill ins(%cst_1 : f32) outs(%6 : tensor<12x2047xf32>) -> tensor<12x2047xf32>
  %reduced_3 = linalg.reduce ins(%9 : tensor<12x2047x2047xf32>) outs(%10 : tensor<12x2047xf32>) dimensions = [2]
    (%in: f32, %init: f32) {
      %17 = arith.addf %in, %init : f32
      linalg.yield %17 : f32
    }
  %expanded_4 = tensor.expand_shape %reduced_3 [[0], [1, 2]] output_shape [12, 2047, 1] : tensor<12x2047xf32> into tensor<12x2047x1xf32>
  %11 = tensor.empty() : tensor<12x2047x1xf32>
  %12 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_4 : tensor<12x2047x1xf32>) outs(%11 : tensor<12x2047x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %17 = arith.divf %cst, %in : f32
    linalg.yield %17 : f32
  } -> tensor<12x2047x1xf32>
  %13 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%9, %12 : tensor<12x2047x2047xf32>, tensor<12x2047x1xf32>) outs(%1 : tensor<12x2047x2047xf32>) {
  ^bb0(%in: f32, %in_5: f32, %out: f32):
    %17 = arith.mulf %in, %in_5 : f32
    linalg.yield %17 : f32
  } -> tensor<12x2047x2047xf32>
  %14 = tensor.empty() : tensor<12x2047x64xf32>
  %15 = linalg.fill ins(%cst_1 : f32) outs(%14 : tensor<12x2047x64xf32>) -> tensor<12x2047x64xf32>
  %16 = linalg.batch_matmul ins(%13, %arg2 : tensor<12x2047x2047xf32>, tensor<12x2047x64xf32>) outs(%15 : tensor<12x2047x64xf32>) -> tensor<12x2047x64xf32>
  return %16 : tensor<12x2047x64xf32>
}
