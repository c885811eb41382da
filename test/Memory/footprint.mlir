// The report's footprint: the weights (constants that are not splats and
// have uses), the arena, the inputs and the results, per function and in
// total; fuse-compile adds the compiled library's workspace.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 report=-" -o /dev/null | FileCheck %s
// RUN: fuse-compile %S/../Models/onnx/inception_block.onnx --target=cpu -q --report=%t.json -o %t.so
// RUN: fuse-run %t.so --info > %t.info
// RUN: cat %t.json %t.info | FileCheck %s --check-prefix=MODEL

// x: 4x8 f32 (128 B); w: 8x16 f32, not a splat (512 B); the zero splat and
// the unused constant are not weights; the result: 4x16 f32 (256 B).
func.func @footprint(%x: tensor<4x8xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %splat = arith.constant dense<1.0> : tensor<4x16xf32>
  %unused = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %w = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0],
                             [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0],
                             [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0],
                             [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0],
                             [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0],
                             [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0],
                             [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0],
                             [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 17.0]]> : tensor<8x16xf32>
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = linalg.add ins(%m, %splat : tensor<4x16xf32>, tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}
// CHECK: "name": "footprint"
// CHECK: "footprint": {
// CHECK-NEXT: "weights": 512,
// CHECK-NEXT: "arena": 0,
// CHECK-NEXT: "inputs": 128,
// CHECK-NEXT: "outputs": 256,
// CHECK-NEXT: "model": 512,
// CHECK-NEXT: "total": 896
// The totals add the functions' footprints.
// CHECK: "totals"
// CHECK: "footprint": {
// CHECK-NEXT: "weights": 512,

// The Inception block: 61440 B of weights (its convolutions' filters and
// biases, BatchNorm folded). fuse-compile adds the library's workspace:
// the arena of the buffers between kernels plus, on the CPU, the groups'
// own intermediates (fuse-hoist-group-scratch), which fuse-run --info
// reports too; model and total count the workspace.
// The arena is 702464 B: the pool branch writes its concat slice last, so
// the pooled tensor is made after the 3x3 and 5x5 branches (802816 B with
// the branches in dataflow order).
// MODEL: "footprint": {
// MODEL-NEXT: "arena": 702464,
// MODEL-NEXT: "inputs": 200704,
// MODEL-NEXT: "model": [[#MODEL:]],
// MODEL-NEXT: "outputs": 301056,
// MODEL-NEXT: "total": [[#MODEL+200704+301056]],
// MODEL-NEXT: "weights": 61440,
// MODEL-NEXT: "workspace": [[#MODEL-61440]]
// MODEL: workspace [[#MODEL-61440]] bytes

// The text summary prints it.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 report=%t.fp.json" -o /dev/null
// RUN: /usr/bin/python3 %fuse_src_root/scripts/report-summary.py %t.fp.json | FileCheck %s --check-prefix=TEXT
// TEXT: footprint: weights 512 B + workspace 0 B = 512 B for the model; with inputs 128 B and outputs 256 B, 896 B
