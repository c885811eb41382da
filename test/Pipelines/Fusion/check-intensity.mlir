// Roofline: two contractions that are both compute-bound never share a
// kernel; memory-bound ones may.
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT

// Two 256x512x512 matmuls on the same input: 51 FLOP/B each, above the
// H200's ridge of about 14 FLOP/B. They stay apart.
// CHECK-LABEL: func @compute_bound_siblings
// CHECK: fuse.group single
// CHECK: fuse.group single
// REPORT: "name": "compute_bound_siblings"
// Each group's place on the roofline: 2*256*512*512 FLOPs over its 2 MiB of
// inputs and outputs.
// REPORT: "bytes": 2097152,
// REPORT: "flops": 134217728,
// REPORT-NEXT: "intensity": 64,
// REPORT-NEXT: "bound": "compute"
// REPORT: "flops": 134217728,
// REPORT-NEXT: "intensity": 64,
// REPORT-NEXT: "bound": "compute"
// REPORT: "rule": "sibling_merge",
// REPORT-NEXT: "check": "arithmetic_intensity",
// REPORT: "reason": "'linalg.batch_matmul@check-intensity.mlir:{{[0-9:]+}}' ({{[0-9.]+}} FLOP/B) and 'linalg.batch_matmul@check-intensity.mlir:{{[0-9:]+}}' ({{[0-9.]+}} FLOP/B) are both compute-bound (ridge 14.0 FLOP/B on 'h200'); one kernel would fight for registers"
func.func @compute_bound_siblings(%x: tensor<1x256x512xf32>, %w1: tensor<1x512x512xf32>, %w2: tensor<1x512x512xf32>) -> (tensor<1x256x512xf32>, tensor<1x256x512xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %a = tosa.matmul %x, %w1, %zp, %zp : (tensor<1x256x512xf32>, tensor<1x512x512xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x256x512xf32>
  %b = tosa.matmul %x, %w2, %zp, %zp : (tensor<1x256x512xf32>, tensor<1x512x512xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x256x512xf32>
  return %a, %b : tensor<1x256x512xf32>, tensor<1x256x512xf32>
}

// -----

// Matrix-vector products (one row) are memory-bound: the two siblings share
// one launch and read the input once.
// CHECK-LABEL: func @memory_bound_siblings
// REPORT: "name": "memory_bound_siblings"
// REPORT: "rule": "sibling_merge",
// REPORT: "flops": 1048576,
// REPORT-NEXT: "intensity": 0.4985
// REPORT-NEXT: "bound": "memory"
// CHECK: %[[G:.*]]:2 = fuse.group horizontal rule "sibling_merge"
// CHECK-COUNT-2: linalg.batch_matmul
// CHECK: return %[[G]]#0, %[[G]]#1
func.func @memory_bound_siblings(%x: tensor<1x1x512xf32>, %w1: tensor<1x512x512xf32>, %w2: tensor<1x512x512xf32>) -> (tensor<1x1x512xf32>, tensor<1x1x512xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %a = tosa.matmul %x, %w1, %zp, %zp : (tensor<1x1x512xf32>, tensor<1x512x512xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x512xf32>
  %b = tosa.matmul %x, %w2, %zp, %zp : (tensor<1x1x512xf32>, tensor<1x512x512xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x512xf32>
  return %a, %b : tensor<1x1x512xf32>, tensor<1x1x512xf32>
}
