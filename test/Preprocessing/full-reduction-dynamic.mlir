// A full reduction whose input has a dynamic size keeps its form in
// fuse-prune (full-reduction.mlir has the rewrite).
// RUN: fuse-opt %s --fuse-prune | FileCheck %s

// CHECK-LABEL: func @dynamic
// CHECK-NOT: expand_shape
// CHECK: linalg.reduce ins(%arg0 : tensor<?xf32>) outs(%arg1 : tensor<f32>) dimensions = [0]
func.func @dynamic(%x: tensor<?xf32>, %i: tensor<f32>) -> tensor<f32> {
  %r = linalg.reduce ins(%x : tensor<?xf32>) outs(%i : tensor<f32>) dimensions = [0]
    (%a: f32, %b: f32) {
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    }
  return %r : tensor<f32>
}
