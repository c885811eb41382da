// A group with a reduction keeps its rows whole only where the reduction's
// result is read along the row (a broadcast: tiling the row would
// recompute the reduction per tile). A global average pool's sum is divided
// per channel, so its channels tile: 2048 / 32 = 64 blocks instead of one.
// A row maximum subtracted along the row keeps the row: 16 rows, 16 blocks.
// RUN: fuse-opt %s --fuse-fusion-pipeline=target=h200 | FileCheck %s
// Tiled either way the groups compute the unfused results.
// RUN: %check_equivalence %s --function global_pool --lower-groups --distribute-threads config | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function row_max --lower-groups --distribute-threads config | FileCheck %s --check-prefix=EQUIV
// EQUIV-NOT: FAIL
// EQUIV: PASS

// CHECK-LABEL: func @global_pool
// CHECK: fuse.group {{.*}}tile = [1, 1, 1, 32]
// CHECK-LABEL: func @row_max
// CHECK: fuse.group {{.*}}tile = [1, 0]
func.func @global_pool(%x: tensor<1x7x7x2048xf32>) -> tensor<1x1x1x2048xf32> {
  %zero = arith.constant 0.0 : f32
  %count = arith.constant 49.0 : f32
  %window = tensor.empty() : tensor<7x7xf32>
  %e = tensor.empty() : tensor<1x1x1x2048xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x1x2048xf32>) -> tensor<1x1x1x2048xf32>
  %s = linalg.pooling_nhwc_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %window : tensor<1x7x7x2048xf32>, tensor<7x7xf32>) outs(%f : tensor<1x1x1x2048xf32>) -> tensor<1x1x1x2048xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x1x1x2048xf32>) outs(%e : tensor<1x1x1x2048xf32>) {
  ^bb0(%in: f32, %o: f32):
    %d = arith.divf %in, %count : f32
    linalg.yield %d : f32
  } -> tensor<1x1x1x2048xf32>
  return %m : tensor<1x1x1x2048xf32>
}
func.func @row_max(%x: tensor<16x256xf32>) -> tensor<16x256xf32> {
  %low = arith.constant -3.4e38 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%low : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<16x256xf32>) outs(%f : tensor<16xf32>) {
  ^bb0(%in: f32, %o: f32):
    %v = arith.maximumf %in, %o : f32
    linalg.yield %v : f32
  } -> tensor<16xf32>
  %e2 = tensor.empty() : tensor<16x256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %mx : tensor<16x256xf32>, tensor<16xf32>) outs(%e2 : tensor<16x256xf32>) {
  ^bb0(%in: f32, %m: f32, %o: f32):
    %d = arith.subf %in, %m : f32
    linalg.yield %d : f32
  } -> tensor<16x256xf32>
  return %r : tensor<16x256xf32>
}
