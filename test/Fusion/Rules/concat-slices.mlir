// concat_slices: each branch writes into its slice of the concat.
// fuse-form-groups alone, on the linalg that the TOSA of test/Pipelines/Fusion/concat.mlir
// becomes before fusion (the cases of that pipeline test, same decisions).
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200" | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200" --remarks-filter-missed=fuse --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSED --allow-empty
// No candidate is refused here.
// MISSED-NOT: [Missed] refused

// concat_slices: each branch writes straight into its slice of the
// concatenated tensor; no copy kernel remains.
// CHECK-LABEL: func @tosa_concat
// CHECK: fuse.group diagonal rule "concat_slices"
// CHECK: fuse.group diagonal rule "concat_slices"
// CHECK-NOT: fuse.group
// CHECK: return
func.func @tosa_concat(%arg0: tensor<1x8x8x4xf32>, %arg1: tensor<1x8x8x4xf32>) -> tensor<1x8x8x8xf32> {
  %0 = tensor.empty() : tensor<1x8x8x4xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<1x8x8x4xf32>) outs(%0 : tensor<1x8x8x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %4 = math.tanh %in : f32
    linalg.yield %4 : f32
  } -> tensor<1x8x8x4xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg1 : tensor<1x8x8x4xf32>) outs(%0 : tensor<1x8x8x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %4 = math.exp %in : f32
    linalg.yield %4 : f32
  } -> tensor<1x8x8x4xf32>
  %3 = tensor.empty() : tensor<1x8x8x8xf32>
  %inserted_slice = tensor.insert_slice %1 into %3[0, 0, 0, 0] [1, 8, 8, 4] [1, 1, 1, 1] : tensor<1x8x8x4xf32> into tensor<1x8x8x8xf32>
  %inserted_slice_0 = tensor.insert_slice %2 into %inserted_slice[0, 0, 0, 4] [1, 8, 8, 4] [1, 1, 1, 1] : tensor<1x8x8x4xf32> into tensor<1x8x8x8xf32>
  return %inserted_slice_0 : tensor<1x8x8x8xf32>
}

// -----

// tensor.concat in linalg input is decomposed by fuse-prune the same way.
// CHECK-LABEL: func @tensor_concat
// CHECK: fuse.group diagonal rule "concat_slices"
// CHECK: fuse.group diagonal rule "concat_slices"
// CHECK-NOT: fuse.group
// CHECK: return
func.func @tensor_concat(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>) -> tensor<8x8xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x8xf32>) outs(%arg0 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %3 = math.tanh %in : f32
    linalg.yield %3 : f32
  } -> tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg1 : tensor<4x8xf32>) outs(%arg1 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %3 = math.exp %in : f32
    linalg.yield %3 : f32
  } -> tensor<4x8xf32>
  %2 = tensor.empty() : tensor<8x8xf32>
  %inserted_slice = tensor.insert_slice %0 into %2[0, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<8x8xf32>
  %inserted_slice_0 = tensor.insert_slice %1 into %inserted_slice[4, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<8x8xf32>
  return %inserted_slice_0 : tensor<8x8xf32>
}

// -----

// The branch computed later in program order but earlier in the dataflow
// (absf) writes its slice first, so neither kernel waits on the other's
// output. (Its group also takes in tanh, a sibling on the same input.)
// CHECK-LABEL: func @reordered
// CHECK: fuse.group composite rule "sibling_merge"
// CHECK: fuse.group single
// CHECK: fuse.group diagonal rule "concat_slices"
// CHECK-NOT: fuse.group
// CHECK: return
func.func @reordered(%arg0: tensor<4x4xf32>) -> tensor<4x8xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x4xf32>) outs(%arg0 : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %5 = math.tanh %in : f32
    linalg.yield %5 : f32
  } -> tensor<4x4xf32>
  %1 = tensor.empty() : tensor<4x4xf32>
  %transposed = linalg.transpose ins(%0 : tensor<4x4xf32>) outs(%1 : tensor<4x4xf32>) permutation = [1, 0]
  %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%transposed : tensor<4x4xf32>) outs(%transposed : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %5 = math.exp %in : f32
    linalg.yield %5 : f32
  } -> tensor<4x4xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x4xf32>) outs(%arg0 : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %5 = math.absf %in : f32
    linalg.yield %5 : f32
  } -> tensor<4x4xf32>
  %4 = tensor.empty() : tensor<4x8xf32>
  %inserted_slice = tensor.insert_slice %2 into %4[0, 0] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<4x8xf32>
  %inserted_slice_0 = tensor.insert_slice %3 into %inserted_slice[0, 4] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<4x8xf32>
  return %inserted_slice_0 : tensor<4x8xf32>
}
