// sibling_merge: independent reductions of one input share a launch; a
// dependent pair does not.
// fuse-form-groups alone, on the linalg that the TOSA of test/Pipelines/Fusion/horizontal.mlir
// becomes before fusion (the cases of that pipeline test, same decisions).
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200" | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200" --remarks-filter-missed=fuse --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSED --allow-empty
// No candidate is refused here.
// MISSED-NOT: [Missed] refused

// sibling_merge: two independent reductions over the same rows of the same
// input share one launch and one read of the input.
// CHECK-LABEL: func @sibling_reductions
// CHECK: fuse.group horizontal rule "sibling_merge"
// CHECK-NOT: fuse.group
// CHECK: return
func.func @sibling_reductions(%arg0: tensor<32x128xf32>) -> (tensor<32x1xf32>, tensor<32x1xf32>) {
  %cst = arith.constant -3.40282347E+38 : f32
  %cst_0 = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<32xf32>
  %1 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<32xf32>) -> tensor<32xf32>
  %reduced = linalg.reduce ins(%arg0 : tensor<32x128xf32>) outs(%1 : tensor<32xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %3 = arith.addf %in, %init : f32
      linalg.yield %3 : f32
    }
  %expanded = tensor.expand_shape %reduced [[0, 1]] output_shape [32, 1] : tensor<32xf32> into tensor<32x1xf32>
  %2 = linalg.fill ins(%cst : f32) outs(%0 : tensor<32xf32>) -> tensor<32xf32>
  %reduced_1 = linalg.reduce ins(%arg0 : tensor<32x128xf32>) outs(%2 : tensor<32xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %3 = arith.maximumf %in, %init : f32
      linalg.yield %3 : f32
    }
  %expanded_2 = tensor.expand_shape %reduced_1 [[0, 1]] output_shape [32, 1] : tensor<32xf32> into tensor<32x1xf32>
  return %expanded, %expanded_2 : tensor<32x1xf32>, tensor<32x1xf32>
}

// -----

// Siblings that depend on each other are not siblings: a reduction of a
// row-scaled input stays in its own row group.
// CHECK-LABEL: func @dependent
// CHECK: fuse.group vertical rule "row_reduction"
// CHECK-NOT: fuse.group
// CHECK: return
func.func @dependent(%arg0: tensor<32x128xf32>) -> tensor<32x1xf32> {
  %cst = arith.constant -3.40282347E+38 : f32
  %cst_0 = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<32xf32>
  %1 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<32xf32>) -> tensor<32xf32>
  %reduced = linalg.reduce ins(%arg0 : tensor<32x128xf32>) outs(%1 : tensor<32xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %5 = arith.addf %in, %init : f32
      linalg.yield %5 : f32
    }
  %expanded = tensor.expand_shape %reduced [[0, 1]] output_shape [32, 1] : tensor<32xf32> into tensor<32x1xf32>
  %2 = tensor.empty() : tensor<32x128xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %expanded : tensor<32x128xf32>, tensor<32x1xf32>) outs(%2 : tensor<32x128xf32>) {
  ^bb0(%in: f32, %in_3: f32, %out: f32):
    %5 = arith.subf %in, %in_3 : f32
    linalg.yield %5 : f32
  } -> tensor<32x128xf32>
  %4 = linalg.fill ins(%cst : f32) outs(%0 : tensor<32xf32>) -> tensor<32xf32>
  %reduced_1 = linalg.reduce ins(%3 : tensor<32x128xf32>) outs(%4 : tensor<32xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %5 = arith.maximumf %in, %init : f32
      linalg.yield %5 : f32
    }
  %expanded_2 = tensor.expand_shape %reduced_1 [[0, 1]] output_shape [32, 1] : tensor<32xf32> into tensor<32x1xf32>
  return %expanded_2 : tensor<32x1xf32>
}
