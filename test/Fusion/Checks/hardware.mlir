// The hardware check: the T4 (sm_75) lacks what the merged kernel needs.
// fuse-form-groups alone, on the linalg that the TOSA of test/Pipelines/Fusion/check-hardware.mlir
// becomes before fusion (the cases of that pipeline test, same decisions).
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=t4" | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=t4" --remarks-filter-missed=fuse --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSED --allow-empty

// CHECK-LABEL: func @bf16_matmul_relu
// CHECK: fuse.group single
// CHECK: fuse.group single
// CHECK-NOT: fuse.group
// CHECK: return
// MISSED: Function=bf16_matmul_relu | {{.*}}Remark="contraction_epilogue refused by hardware"
func.func @bf16_matmul_relu(%arg0: tensor<1x16x32xbf16>, %arg1: tensor<1x32x64xbf16>) -> tensor<1x16x64xf32> {
  %cst = arith.constant 3.400000e+38 : f32
  %cst_0 = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<1x16x64xf32>
  %1 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<1x16x64xf32>) -> tensor<1x16x64xf32>
  %2 = linalg.batch_matmul ins(%arg0, %arg1 : tensor<1x16x32xbf16>, tensor<1x32x64xbf16>) outs(%1 : tensor<1x16x64xf32>) -> tensor<1x16x64xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%2 : tensor<1x16x64xf32>) outs(%0 : tensor<1x16x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %4 = arith.minimumf %in, %cst : f32
    %5 = arith.maximumf %4, %cst_0 : f32
    linalg.yield %5 : f32
  } -> tensor<1x16x64xf32>
  return %3 : tensor<1x16x64xf32>
}
