// RUN: fuse-opt %s --fuse-prune | FileCheck %s
// RUN: fuse-opt %s --fuse-fusion-pipeline=target=h200 | FileCheck %s --check-prefix=FUSED
// Fused (reshape sunk, one kernel) against unfused, and through the
// emulated GPU schedule (whose tiles sum the 64-term products in another
// order: sums of up to about 10 in magnitude, so an absolute 1e-5).
// RUN: %check_equivalence %s --function bias_after_reshape | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function bias_after_reshape --lower-groups --distribute-threads 128 --atol 1e-5 | FileCheck %s --check-prefix=EXEC
// EXEC: PASS

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#bias = affine_map<(d0, d1, d2) -> (0, 0, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1, 0)>

// A batch matmul's [1, 32, 64] viewed as [2, 16, 64] (ONNX MatMul of a
// [2, 16, 64] activation, imported as one [1, 32, 64] product), then its
// bias, a residual and GELU-like tanh: the elementwise ops run in the
// matmul's shape and the reshape moves below them, so the matmul's
// epilogue reads its result directly.
// CHECK-LABEL: func @bias_after_reshape
// CHECK: %[[MM:.*]] = linalg.batch_matmul
// CHECK: %[[RES:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2]] output_shape [1, 32, 64] : tensor<32x64xf32> into tensor<1x32x64xf32>
// CHECK: %[[B:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #[[BIAS:map[0-9]*]], #{{.*}}, #{{.*}}], {{.*}} ins(%[[MM]], %{{.*}}, %[[RES]] : tensor<1x32x64xf32>, tensor<1x1x64xf32>, tensor<1x32x64xf32>) outs(%{{.*}} : tensor<1x32x64xf32>)
// CHECK: %[[T:.*]] = linalg.generic {{.*}} ins(%[[B]] : tensor<1x32x64xf32>) outs(%{{.*}} : tensor<1x32x64xf32>)
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[T]] {{\[\[}}0, 1], [2]] : tensor<1x32x64xf32> into tensor<32x64xf32>
// CHECK: %[[E:.*]] = tensor.expand_shape %[[C]] {{\[\[}}0, 1], [2]] output_shape [2, 16, 64]
// CHECK: return %[[E]] : tensor<2x16x64xf32>
// Fused: the matmul and its whole epilogue are one group.
// FUSED-LABEL: func @bias_after_reshape
// FUSED: fuse.group vertical rule "contraction_epilogue"
// FUSED-NOT: fuse.group
// FUSED: return
// FUSED-LABEL: func @row_broadcast
func.func @bias_after_reshape(%x: tensor<1x32x64xf32>, %w: tensor<1x64x64xf32>, %r: tensor<2x16x64xf32>) -> tensor<2x16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %bias = arith.constant dense<0.5> : tensor<1x1x64xf32>
  %e = tensor.empty() : tensor<1x32x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x64xf32>) -> tensor<1x32x64xf32>
  %mm = linalg.batch_matmul ins(%x, %w : tensor<1x32x64xf32>, tensor<1x64x64xf32>) outs(%f : tensor<1x32x64xf32>) -> tensor<1x32x64xf32>
  %c = tensor.collapse_shape %mm [[0, 1], [2]] : tensor<1x32x64xf32> into tensor<32x64xf32>
  %v = tensor.expand_shape %c [[0, 1], [2]] output_shape [2, 16, 64] : tensor<32x64xf32> into tensor<2x16x64xf32>
  %o = tensor.empty() : tensor<2x16x64xf32>
  %b = linalg.generic {indexing_maps = [#id3, #bias, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%v, %bias, %r : tensor<2x16x64xf32>, tensor<1x1x64xf32>, tensor<2x16x64xf32>) outs(%o : tensor<2x16x64xf32>) {
  ^bb0(%a: f32, %s: f32, %q: f32, %out: f32):
    %0 = arith.addf %a, %s : f32
    %1 = arith.addf %0, %q : f32
    linalg.yield %1 : f32
  } -> tensor<2x16x64xf32>
  %t = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%b : tensor<2x16x64xf32>) outs(%o : tensor<2x16x64xf32>) {
  ^bb0(%a: f32, %out: f32):
    %0 = math.tanh %a : f32
    linalg.yield %0 : f32
  } -> tensor<2x16x64xf32>
  return %t : tensor<2x16x64xf32>
}

// Negative: a broadcast operand that indexes a dimension the reshape
// splits (a per-row scale over [2, 16]) cannot follow it: unchanged.
// CHECK-LABEL: func @row_broadcast
// CHECK: tensor.expand_shape
// CHECK-NEXT: tensor.empty
// CHECK-NEXT: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x16x64xf32>, tensor<2x16x1xf32>)
func.func @row_broadcast(%x: tensor<1x32x64xf32>, %w: tensor<1x64x64xf32>, %s: tensor<2x16x1xf32>) -> tensor<2x16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x64xf32>) -> tensor<1x32x64xf32>
  %mm = linalg.batch_matmul ins(%x, %w : tensor<1x32x64xf32>, tensor<1x64x64xf32>) outs(%f : tensor<1x32x64xf32>) -> tensor<1x32x64xf32>
  %c = tensor.collapse_shape %mm [[0, 1], [2]] : tensor<1x32x64xf32> into tensor<32x64xf32>
  %v = tensor.expand_shape %c [[0, 1], [2]] output_shape [2, 16, 64] : tensor<32x64xf32> into tensor<2x16x64xf32>
  %o = tensor.empty() : tensor<2x16x64xf32>
  %b = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%v, %s : tensor<2x16x64xf32>, tensor<2x16x1xf32>) outs(%o : tensor<2x16x64xf32>) {
  ^bb0(%a: f32, %q: f32, %out: f32):
    %0 = arith.mulf %a, %q : f32
    linalg.yield %0 : f32
  } -> tensor<2x16x64xf32>
  return %b : tensor<2x16x64xf32>
}

// Negative: an operand read directly from another linalg op keeps its
// adjacency (the reshape of the first product stays where it is).
// CHECK-LABEL: func @other_producer
// CHECK: %[[V:.*]] = tensor.expand_shape
// CHECK: %[[G:.*]] = linalg.generic {{.*}} ins(%[[V]], %{{.*}} : tensor<2x16x64xf32>, tensor<2x16x64xf32>) outs(%{{.*}} : tensor<2x16x64xf32>)
// CHECK: return %[[G]]
func.func @other_producer(%x: tensor<1x32x64xf32>, %w: tensor<1x64x64xf32>, %y: tensor<2x16x64xf32>) -> tensor<2x16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x64xf32>) -> tensor<1x32x64xf32>
  %mm = linalg.batch_matmul ins(%x, %w : tensor<1x32x64xf32>, tensor<1x64x64xf32>) outs(%f : tensor<1x32x64xf32>) -> tensor<1x32x64xf32>
  %c = tensor.collapse_shape %mm [[0, 1], [2]] : tensor<1x32x64xf32> into tensor<32x64xf32>
  %v = tensor.expand_shape %c [[0, 1], [2]] output_shape [2, 16, 64] : tensor<32x64xf32> into tensor<2x16x64xf32>
  %o = tensor.empty() : tensor<2x16x64xf32>
  %n = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%y : tensor<2x16x64xf32>) outs(%o : tensor<2x16x64xf32>) {
  ^bb0(%a: f32, %out: f32):
    %0 = math.exp %a : f32
    linalg.yield %0 : f32
  } -> tensor<2x16x64xf32>
  %b = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%v, %n : tensor<2x16x64xf32>, tensor<2x16x64xf32>) outs(%o : tensor<2x16x64xf32>) {
  ^bb0(%a: f32, %q: f32, %out: f32):
    %0 = arith.addf %a, %q : f32
    linalg.yield %0 : f32
  } -> tensor<2x16x64xf32>
  return %b : tensor<2x16x64xf32>
}

// Negative: a generic that reads its indices (linalg.index) keeps its
// iteration space.
// CHECK-LABEL: func @uses_index
// CHECK: tensor.expand_shape
// CHECK: linalg.index
func.func @uses_index(%x: tensor<1x32x64xf32>, %w: tensor<1x64x64xf32>) -> tensor<2x16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x64xf32>) -> tensor<1x32x64xf32>
  %mm = linalg.batch_matmul ins(%x, %w : tensor<1x32x64xf32>, tensor<1x64x64xf32>) outs(%f : tensor<1x32x64xf32>) -> tensor<1x32x64xf32>
  %c = tensor.collapse_shape %mm [[0, 1], [2]] : tensor<1x32x64xf32> into tensor<32x64xf32>
  %v = tensor.expand_shape %c [[0, 1], [2]] output_shape [2, 16, 64] : tensor<32x64xf32> into tensor<2x16x64xf32>
  %o = tensor.empty() : tensor<2x16x64xf32>
  %b = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%v : tensor<2x16x64xf32>) outs(%o : tensor<2x16x64xf32>) {
  ^bb0(%a: f32, %out: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %0 = arith.addf %a, %fi : f32
    linalg.yield %0 : f32
  } -> tensor<2x16x64xf32>
  return %b : tensor<2x16x64xf32>
}

// A reshape that only moves a unit dimension, keeping the rank (a torch
// export's [1, 197, 96] product viewed as [197, 1, 96] before its bias, as
// nn.MultiheadAttention's in-projection is): the bias runs in the matmul's
// shape, its operand's index of the moved unit dimension becomes 0, and the
// reshape moves below it.
// CHECK-LABEL: func @unit_move
// CHECK: %[[MM:.*]] = linalg.batch_matmul
// CHECK: %[[B:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[MM]] : tensor<1x1x96xf32>, tensor<1x197x96xf32>) outs(%{{.*}} : tensor<1x197x96xf32>)
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[B]] {{\[\[}}0, 1], [2]] : tensor<1x197x96xf32> into tensor<197x96xf32>
// CHECK: %[[E:.*]] = tensor.expand_shape %[[C]] {{\[\[}}0], [1, 2]] output_shape [197, 1, 96]
// CHECK: return %[[E]] : tensor<197x1x96xf32>
// FUSED-LABEL: func @unit_move
// FUSED: fuse.group vertical rule "contraction_epilogue"
// FUSED-NOT: fuse.group
// FUSED: return
// RUN: %check_equivalence %s --function unit_move --lower-groups --distribute-threads config --atol 1e-5 | FileCheck %s --check-prefix=EXEC
#unit = affine_map<(d0, d1, d2) -> (0, d1, d2)>
func.func @unit_move(%x: tensor<1x197x64xf32>, %w: tensor<1x64x96xf32>, %bias: tensor<1x1x96xf32>) -> tensor<197x1x96xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x197x96xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x197x96xf32>) -> tensor<1x197x96xf32>
  %mm = linalg.batch_matmul ins(%x, %w : tensor<1x197x64xf32>, tensor<1x64x96xf32>) outs(%f : tensor<1x197x96xf32>) -> tensor<1x197x96xf32>
  %c = tensor.collapse_shape %mm [[0, 1], [2]] : tensor<1x197x96xf32> into tensor<197x96xf32>
  %v = tensor.expand_shape %c [[0, 1], [2]] output_shape [197, 1, 96] : tensor<197x96xf32> into tensor<197x1x96xf32>
  %o = tensor.empty() : tensor<197x1x96xf32>
  %b = linalg.generic {indexing_maps = [#unit, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%bias, %v : tensor<1x1x96xf32>, tensor<197x1x96xf32>) outs(%o : tensor<197x1x96xf32>) {
  ^bb0(%s: f32, %a: f32, %out: f32):
    %0 = arith.addf %s, %a : f32
    linalg.yield %0 : f32
  } -> tensor<197x1x96xf32>
  return %b : tensor<197x1x96xf32>
}

// Negative: a reshape that drops a unit dimension (rank 3 to 2) stays.
// CHECK-LABEL: func @unit_drop
// CHECK: tensor.collapse_shape
// CHECK-NEXT: tensor.empty
// CHECK-NEXT: linalg.generic {{.*}} ins(%{{.*}} : tensor<32x64xf32>)
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @unit_drop(%x: tensor<1x32x64xf32>, %w: tensor<1x64x64xf32>) -> tensor<32x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x64xf32>) -> tensor<1x32x64xf32>
  %mm = linalg.batch_matmul ins(%x, %w : tensor<1x32x64xf32>, tensor<1x64x64xf32>) outs(%f : tensor<1x32x64xf32>) -> tensor<1x32x64xf32>
  %c = tensor.collapse_shape %mm [[0, 1], [2]] : tensor<1x32x64xf32> into tensor<32x64xf32>
  %o = tensor.empty() : tensor<32x64xf32>
  %b = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<32x64xf32>) outs(%o : tensor<32x64xf32>) {
  ^bb0(%a: f32, %out: f32):
    %0 = math.tanh %a : f32
    linalg.yield %0 : f32
  } -> tensor<32x64xf32>
  return %b : tensor<32x64xf32>
}
