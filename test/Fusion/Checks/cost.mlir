// The cost check: with free launches, recomputing a broadcast producer per
// element costs more than fusing saves (elementwise_chain refused by cost).
// fuse-form-groups alone, on the linalg that the TOSA of test/Pipelines/Fusion/check-cost.mlir
// becomes before fusion (the cases of that pipeline test, same decisions).
// RUN: fuse-opt %s -split-input-file --fuse-form-groups='target={#fuse.target<"h200", launch_us = 0.0>}' | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-form-groups='target={#fuse.target<"h200", launch_us = 0.0>}' --remarks-filter-missed=fuse --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSED --allow-empty

// With the H200's 3 us launches, fusing pays.
// CHECK-LABEL: func @broadcast_producer
// CHECK: fuse.group single
// CHECK: fuse.group single
// CHECK-NOT: fuse.group
// CHECK: return
// MISSED: Function=broadcast_producer | {{.*}}Remark="elementwise_chain refused by cost"
func.func @broadcast_producer(%arg0: tensor<1x1024xf32>, %arg1: tensor<4096x1024xf32>) -> tensor<4096x1024xf32> {
  %0 = tensor.empty() : tensor<1x1024xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<1x1024xf32>) outs(%0 : tensor<1x1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %4 = math.exp %in : f32
    linalg.yield %4 : f32
  } -> tensor<1x1024xf32>
  %2 = tensor.empty() : tensor<4096x1024xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg1, %1 : tensor<4096x1024xf32>, tensor<1x1024xf32>) outs(%2 : tensor<4096x1024xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %4 = arith.addf %in, %in_0 : f32
    linalg.yield %4 : f32
  } -> tensor<4096x1024xf32>
  return %3 : tensor<4096x1024xf32>
}
