// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="target=h200" | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="target=h200 report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT
// Fused and unfused give the same results on the CPU.
// RUN: %check_equivalence %s --function matmul_bias_relu | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function residual_join | FileCheck %s --check-prefix=EQUIV
// With every group lowered to one tile loop nest too.
// RUN: %check_equivalence %s --function matmul_bias_relu --lower-groups | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function residual_join --lower-groups | FileCheck %s --check-prefix=EQUIV
// EQUIV-NOT: FAIL
// EQUIV: PASS

// contraction_epilogue: matmul + bias + ReLU is one kernel.
// Its schedule: on the H200's tensor cores, a 1x16x64 output in 1x16x32
// tiles (2 blocks of one warp, 2 accumulator tiles of 16x8 each): the cost
// model predicts one K chunk of 32 on tensor cores faster than the SIMT
// kernel's 32 blocks of a warp.
// CHECK-LABEL: func @matmul_bias_relu
// CHECK: %[[G:.*]] = fuse.group vertical rule "contraction_epilogue"
// CHECK-SAME: fuse.lowering_config = #fuse.lowering_config<schedule = "contraction", tile = [1, 16, 32], threads = 32, instruction = "mma_sync", precision = "fp32">
// CHECK: linalg.batch_matmul
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: fuse.yield
// CHECK-NOT: fuse.group
// CHECK: return %[[G]]
// REPORT: "name": "matmul_bias_relu"
// REPORT: "kernels_before": 3
// REPORT-NEXT: "kernels_after": 1
// REPORT: "kind": "vertical"
// REPORT-NEXT: "rule": "contraction_epilogue"
// REPORT: "contraction_epilogue: linalg.generic@vertical.mlir:[[@LINE+15]]
// REPORT: "contraction_epilogue: linalg.generic@vertical.mlir:[[@LINE+15]]
// REPORT: "lowering_config": {
// REPORT-NEXT: "schedule": "contraction",
// REPORT: "threads": 32,
// REPORT-NEXT: "blocks": 2,
// REPORT-NEXT: "tile_input_bytes": {{[0-9]+}},
// REPORT-NEXT: "tile_shared_bytes": {{[0-9]+}},
// REPORT-NEXT: "instruction": "mma_sync",
// REPORT-NEXT: "precision": "fp32"
// REPORT: "rejected": []
// REPORT: "left_alone": []
func.func @matmul_bias_relu(%x: tensor<1x16x32xf32>, %w: tensor<1x32x64xf32>, %b: tensor<1x1x64xf32>) -> tensor<1x16x64xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x, %w, %zp, %zp : (tensor<1x16x32xf32>, tensor<1x32x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x64xf32>
  %y = tosa.add %m, %b : (tensor<1x16x64xf32>, tensor<1x1x64xf32>) -> tensor<1x16x64xf32>
  %r = tosa.clamp %y {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x64xf32>) -> tensor<1x16x64xf32>
  return %r : tensor<1x16x64xf32>
}

// -----

// residual_join: the add that joins two conv branches, and the ReLU after it,
// go into the epilogue of the later conv; the other branch is an input (the
// first conv's splat bias is its fill, so it is a group of its own op).
// CHECK-LABEL: func @residual_join
// CHECK: %[[A:.*]] = fuse.group single
// CHECK: linalg.conv_2d_nhwc_fhwc
// CHECK: %[[B:.*]] = fuse.group diagonal rule "residual_join" ({{.*}} = %[[A]] : tensor<1x8x8x16xf32>
// CHECK: linalg.conv_2d_nhwc_fhwc
// CHECK: return %[[B]]
// REPORT: "name": "residual_join"
// REPORT: "kernels_after": 2
// REPORT: "kind": "diagonal"
// REPORT-NEXT: "rule": "residual_join"
// REPORT: "residual_join: linalg.generic@vertical.mlir:[[@LINE+8]]
func.func @residual_join(%x: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %w1 = "tosa.const"() <{values = dense<0.01> : tensor<16x1x1x16xf32>}> : () -> tensor<16x1x1x16xf32>
  %w2 = "tosa.const"() <{values = dense<0.02> : tensor<16x1x1x16xf32>}> : () -> tensor<16x1x1x16xf32>
  %b = "tosa.const"() <{values = dense<0.5> : tensor<16xf32>}> : () -> tensor<16xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c1 = tosa.conv2d %x, %w1, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x16xf32>, tensor<16x1x1x16xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x16xf32>
  %c2 = tosa.conv2d %c1, %w2, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x16xf32>, tensor<16x1x1x16xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x16xf32>
  %s = tosa.add %c2, %c1 : (tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %r = tosa.clamp %s {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %r : tensor<1x8x8x16xf32>
}
