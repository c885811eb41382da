// The fused graph as Graphviz DOT: a cluster per group, coloured by kind,
// with the edges between ops.
// RUN: fuse-opt %s --fuse-fusion-pipeline="disable-rules=contraction_row_epilogue graph=-" -o /dev/null | FileCheck %s
// RUN: fuse-opt %s --fuse-fusion-pipeline="disable-rules=contraction_row_epilogue graph=%t.dot" -o /dev/null && FileCheck %s < %t.dot

// CHECK: digraph fuse {
// CHECK: subgraph cluster_fn0 {
// CHECK-NEXT: label="@block";
// CHECK: subgraph cluster_g0_0 {
// CHECK-NEXT: style=filled; color="#888888"; fillcolor="#cfe2ff";
// CHECK-NEXT: label="group 0: vertical (contraction_epilogue)";
// CHECK-NEXT: n[[MM:[0-9]+]] [label="linalg.batch_matmul\ntensor<1x16x64xf32>"];
// CHECK-NEXT: n[[RELU:[0-9]+]] [label="linalg.generic\ntensor<1x16x64xf32>"];
// CHECK: subgraph cluster_g0_1 {
// CHECK: label="group 1: vertical (row_reduction)";
// CHECK-NEXT: n[[RED:[0-9]+]] [label="linalg.reduce\ntensor<1x16xf32>"];
// CHECK-DAG: n[[MM]] -> n[[RELU]];
// CHECK-DAG: n[[RELU]] -> n[[RED]];
// CHECK: }
func.func @block(%x: tensor<1x16x32xf32>, %w: tensor<1x32x64xf32>) -> tensor<1x16x1xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x, %w, %zp, %zp : (tensor<1x16x32xf32>, tensor<1x32x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x64xf32>
  %r = tosa.clamp %m {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x64xf32>) -> tensor<1x16x64xf32>
  %s = tosa.reduce_sum %r {axis = 2 : i32} : (tensor<1x16x64xf32>) -> tensor<1x16x1xf32>
  %t = tosa.tanh %s : (tensor<1x16x1xf32>) -> tensor<1x16x1xf32>
  return %t : tensor<1x16x1xf32>
}
