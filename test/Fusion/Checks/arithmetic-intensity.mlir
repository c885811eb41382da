// The arithmetic intensity check: two compute-bound contractions stay apart.
// fuse-form-groups alone, on the linalg that the TOSA of test/Pipelines/Fusion/check-intensity.mlir
// becomes before fusion (the cases of that pipeline test, same decisions).
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200" | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200" --remarks-filter-missed=fuse --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSED --allow-empty

// Two 256x512x512 matmuls on the same input: 51 FLOP/B each, above the
// H200's ridge of about 14 FLOP/B. They stay apart.
// Each group's place on the roofline: 2*256*512*512 FLOPs over its 2 MiB of
// inputs and outputs.
// CHECK-LABEL: func @compute_bound_siblings
// CHECK: fuse.group single
// CHECK: fuse.group single
// CHECK-NOT: fuse.group
// CHECK: return
// MISSED: Function=compute_bound_siblings | {{.*}}Remark="sibling_merge refused by arithmetic_intensity"
func.func @compute_bound_siblings(%arg0: tensor<1x256x512xf32>, %arg1: tensor<1x512x512xf32>, %arg2: tensor<1x512x512xf32>) -> (tensor<1x256x512xf32>, tensor<1x256x512xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<1x256x512xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x256x512xf32>) -> tensor<1x256x512xf32>
  %2 = linalg.batch_matmul ins(%arg0, %arg1 : tensor<1x256x512xf32>, tensor<1x512x512xf32>) outs(%1 : tensor<1x256x512xf32>) -> tensor<1x256x512xf32>
  %3 = linalg.batch_matmul ins(%arg0, %arg2 : tensor<1x256x512xf32>, tensor<1x512x512xf32>) outs(%1 : tensor<1x256x512xf32>) -> tensor<1x256x512xf32>
  return %2, %3 : tensor<1x256x512xf32>, tensor<1x256x512xf32>
}

// -----

// Matrix-vector products (one row) are memory-bound: the two siblings share
// one launch and read the input once.
// CHECK-LABEL: func @memory_bound_siblings
// CHECK: fuse.group horizontal rule "sibling_merge"
// CHECK-NOT: fuse.group
// CHECK: return
func.func @memory_bound_siblings(%arg0: tensor<1x1x512xf32>, %arg1: tensor<1x512x512xf32>, %arg2: tensor<1x512x512xf32>) -> (tensor<1x1x512xf32>, tensor<1x1x512xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<1x1x512xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x1x512xf32>) -> tensor<1x1x512xf32>
  %2 = linalg.batch_matmul ins(%arg0, %arg1 : tensor<1x1x512xf32>, tensor<1x512x512xf32>) outs(%1 : tensor<1x1x512xf32>) -> tensor<1x1x512xf32>
  %3 = linalg.batch_matmul ins(%arg0, %arg2 : tensor<1x1x512xf32>, tensor<1x512x512xf32>) outs(%1 : tensor<1x1x512xf32>) -> tensor<1x1x512xf32>
  return %2, %3 : tensor<1x1x512xf32>, tensor<1x1x512xf32>
}
