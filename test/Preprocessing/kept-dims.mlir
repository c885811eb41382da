// fuse-prune: a linalg.generic that writes an output through a constant
// index (a reduction keeping its reduced dimension, as torch-mlir writes
// keepdim=True) writes it without that dimension and expands the result
// back; a tensor put back together from its own slices in place is the
// tensor.
// RUN: fuse-opt %s --fuse-prune | FileCheck %s
// Pruned (fused) against as written (unfused), on the CPU and through the
// emulated GPU schedule:
// RUN: %check_equivalence %s --function sum_kept | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function sum_kept --lower-groups --distribute-threads 32 | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function max_kept_first | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function max_kept_first --lower-groups --distribute-threads 32 | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function sum_all_kept | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function sum_all_kept --lower-groups --distribute-threads 32 | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function reassembled | FileCheck %s --check-prefix=EXEC
// EXEC: PASS
// EXEC-NOT: FAIL

#id = affine_map<(d0, d1) -> (d0, d1)>

// The fill moves to the smaller init with its reduction.
// CHECK-LABEL: func @sum_kept
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<4xf32>)
// CHECK: %[[S:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #[[ROW:.*]]], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<4x8xf32>) outs(%[[F]] : tensor<4xf32>)
// CHECK: %[[X:.*]] = tensor.expand_shape %[[S]] {{\[\[}}0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
// CHECK: return %[[X]]
func.func @sum_kept(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x1xf32>) -> tensor<4x1xf32>
  %s = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%f : tensor<4x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  return %s : tensor<4x1xf32>
}

// A kept leading dimension, and an init that is not a fill: collapsed.
// CHECK-LABEL: func @max_kept_first
// CHECK: %[[C:.*]] = tensor.collapse_shape %arg1 {{\[\[}}0, 1]] : tensor<1x4xf32> into tensor<4xf32>
// CHECK: %[[M:.*]] = linalg.generic {{.*}} outs(%[[C]] : tensor<4xf32>)
// CHECK: arith.maximumf
// CHECK: tensor.expand_shape %[[M]] {{\[\[}}0, 1]] output_shape [1, 4] : tensor<4xf32> into tensor<1x4xf32>
func.func @max_kept_first(%x: tensor<8x4xf32>, %init: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (0, d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<8x4xf32>) outs(%init : tensor<1x4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x4xf32>
  return %s : tensor<1x4xf32>
}

// Every dimension kept: a scalar, which the full-reduction rewrite then
// gives its unit parallel loop.
// CHECK-LABEL: func @sum_all_kept
// CHECK: %[[S:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "reduction"]} ins(%arg0 : tensor<4x8xf32>) outs(%{{.*}} : tensor<1xf32>)
// CHECK: tensor.expand_shape %[[S]] {{\[\[}}0, 1]] output_shape [1, 1] : tensor<1xf32> into tensor<1x1xf32>
func.func @sum_all_kept(%x: tensor<4x8xf32>) -> tensor<1x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1xf32>) -> tensor<1x1xf32>
  %s = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (0, 0)>], iterator_types = ["reduction", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%f : tensor<1x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x1xf32>
  return %s : tensor<1x1xf32>
}

// Left alone: an index other than 0, and an index 0 into a dimension of
// more than one element (the rest of the init passes through).
// CHECK-LABEL: func @left_alone
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[ONE:.*]]], {{.*}} outs(%arg1 : tensor<4x2xf32>)
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[ZERO:.*]]], {{.*}} outs(%arg1 : tensor<4x2xf32>)
// CHECK-NOT: expand_shape
func.func @left_alone(%x: tensor<4x8xf32>, %init: tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>) {
  %s = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0, 1)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%init : tensor<4x2xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x2xf32>
  %t = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%init : tensor<4x2xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x2xf32>
  return %s, %t : tensor<4x2xf32>, tensor<4x2xf32>
}

// Slices of %m inserted back where they were, covering it, in any order:
// %m itself.
// CHECK-LABEL: func @reassembled
// CHECK: %[[M:.*]] = math.exp %arg0
// CHECK-NOT: insert_slice
// CHECK: return %[[M]]
func.func @reassembled(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %m = math.exp %x : tensor<4x6xf32>
  %a = tensor.extract_slice %m[0, 0] [4, 2] [1, 1] : tensor<4x6xf32> to tensor<4x2xf32>
  %b = tensor.extract_slice %m[0, 2] [4, 4] [1, 1] : tensor<4x6xf32> to tensor<4x4xf32>
  %e = tensor.empty() : tensor<4x6xf32>
  %i = tensor.insert_slice %b into %e[0, 2] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<4x6xf32>
  %j = tensor.insert_slice %a into %i[0, 0] [4, 2] [1, 1] : tensor<4x2xf32> into tensor<4x6xf32>
  return %j : tensor<4x6xf32>
}

// Left alone: a slice inserted elsewhere (the halves swapped), a part of
// the tensor left unwritten, and two slices that overlap (their elements
// add up to the whole tensor's). (Two results hold unwritten elements,
// so the function is not run.)
// CHECK-LABEL: func @out_of_place
// CHECK-COUNT-5: tensor.insert_slice
func.func @out_of_place(%x: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>) {
  %m = math.exp %x : tensor<4x6xf32>
  %a = tensor.extract_slice %m[0, 0] [4, 3] [1, 1] : tensor<4x6xf32> to tensor<4x3xf32>
  %b = tensor.extract_slice %m[0, 3] [4, 3] [1, 1] : tensor<4x6xf32> to tensor<4x3xf32>
  %e = tensor.empty() : tensor<4x6xf32>
  %i = tensor.insert_slice %b into %e[0, 0] [4, 3] [1, 1] : tensor<4x3xf32> into tensor<4x6xf32>
  %swapped = tensor.insert_slice %a into %i[0, 3] [4, 3] [1, 1] : tensor<4x3xf32> into tensor<4x6xf32>
  %part = tensor.insert_slice %a into %e[0, 0] [4, 3] [1, 1] : tensor<4x3xf32> into tensor<4x6xf32>
  %c = tensor.extract_slice %m[0, 0] [4, 4] [1, 1] : tensor<4x6xf32> to tensor<4x4xf32>
  %d = tensor.extract_slice %m[0, 2] [4, 2] [1, 1] : tensor<4x6xf32> to tensor<4x2xf32>
  %k = tensor.insert_slice %c into %e[0, 0] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<4x6xf32>
  %overlap = tensor.insert_slice %d into %k[0, 2] [4, 2] [1, 1] : tensor<4x2xf32> into tensor<4x6xf32>
  return %swapped, %part, %overlap : tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>
}
