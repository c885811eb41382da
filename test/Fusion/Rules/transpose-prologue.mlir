// transpose_prologue: a transpose read only by a contraction joins it.
// fuse-form-groups alone, on the linalg that the TOSA of test/Pipelines/Fusion/transpose-prologue.mlir
// becomes before fusion (the cases of that pipeline test, same decisions).
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200" | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200" --remarks-filter-missed=fuse --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSED --allow-empty
// No candidate is refused here.
// MISSED-NOT: [Missed] refused

// A ResNet stem as imported: transpose, 7x7/2 conv with its pad, ReLU. The
// conv reads the transpose through the pad: the transposed tile would be
// the pad's dynamically sized source slice (a device-side allocation in a
// GPU kernel), so the transpose stays a kernel of its own.
// CHECK-LABEL: func @stem
// CHECK: fuse.group single
// CHECK: fuse.group vertical rule "contraction_epilogue"
// CHECK-NOT: fuse.group
// CHECK: return
func.func @stem(%arg0: tensor<1x3x16x16xf32>) -> tensor<1x8x8x8xf32> {
  %cst = arith.constant 3.400000e+38 : f32
  %cst_0 = arith.constant 0.000000e+00 : f32
  %cst_1 = arith.constant dense<2.000000e-02> : tensor<8x7x7x3xf32>
  %cst_2 = arith.constant dense<1.000000e-01> : tensor<8xf32>
  %0 = tensor.empty() : tensor<1x16x16x3xf32>
  %transposed = linalg.transpose ins(%arg0 : tensor<1x3x16x16xf32>) outs(%0 : tensor<1x16x16x3xf32>) permutation = [0, 2, 3, 1]
  %padded = tensor.pad %transposed low[0, 3, 3, 0] high[0, 2, 2, 0] {
  ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
    tensor.yield %cst_0 : f32
  } : tensor<1x16x16x3xf32> to tensor<1x21x21x3xf32>
  %1 = tensor.empty() : tensor<1x8x8x8xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_2 : tensor<8xf32>) outs(%1 : tensor<1x8x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x8x8xf32>
  %3 = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%padded, %cst_1 : tensor<1x21x21x3xf32>, tensor<8x7x7x3xf32>) outs(%2 : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%3 : tensor<1x8x8x8xf32>) outs(%1 : tensor<1x8x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %5 = arith.minimumf %in, %cst : f32
    %6 = arith.maximumf %5, %cst_0 : f32
    linalg.yield %6 : f32
  } -> tensor<1x8x8x8xf32>
  return %4 : tensor<1x8x8x8xf32>
}

// -----

// A 1x1 conv reads the transpose directly (no pad in between).
// CHECK-LABEL: func @pointwise
// CHECK: fuse.group vertical rule "contraction_epilogue"
// CHECK-NOT: fuse.group
// CHECK: return
func.func @pointwise(%arg0: tensor<1x4x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %cst = arith.constant dense<2.000000e-02> : tensor<8x1x1x4xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<8xf32>
  %0 = tensor.empty() : tensor<1x8x8x4xf32>
  %transposed = linalg.transpose ins(%arg0 : tensor<1x4x8x8xf32>) outs(%0 : tensor<1x8x8x4xf32>) permutation = [0, 2, 3, 1]
  %1 = tensor.empty() : tensor<1x8x8x8xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_0 : tensor<8xf32>) outs(%1 : tensor<1x8x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x8x8xf32>
  %3 = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%transposed, %cst : tensor<1x8x8x4xf32>, tensor<8x1x1x4xf32>) outs(%2 : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %3 : tensor<1x8x8x8xf32>
}

// -----

// Readers in two groups (a pool and a conv): the transpose stays a kernel
// of its own rather than being computed twice.
// CHECK-LABEL: func @two_readers
// CHECK: fuse.group single
// CHECK: fuse.group vertical rule "pad_prologue"
// CHECK: fuse.group vertical rule "contraction_epilogue"
// CHECK-NOT: fuse.group
// CHECK: return
func.func @two_readers(%arg0: tensor<1x4x8x8xf32>) -> (tensor<1x8x8x4xf32>, tensor<1x8x8x8xf32>) {
  %cst = arith.constant -3.40282347E+38 : f32
  %cst_0 = arith.constant dense<2.000000e-02> : tensor<8x1x1x4xf32>
  %cst_1 = arith.constant dense<1.000000e-01> : tensor<8xf32>
  %0 = tensor.empty() : tensor<1x8x8x4xf32>
  %transposed = linalg.transpose ins(%arg0 : tensor<1x4x8x8xf32>) outs(%0 : tensor<1x8x8x4xf32>) permutation = [0, 2, 3, 1]
  %padded = tensor.pad %transposed low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
    tensor.yield %cst : f32
  } : tensor<1x8x8x4xf32> to tensor<1x10x10x4xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %2 = tensor.empty() : tensor<3x3xf32>
  %3 = linalg.pooling_nhwc_max {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %2 : tensor<1x10x10x4xf32>, tensor<3x3xf32>) outs(%1 : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %4 = tensor.empty() : tensor<1x8x8x8xf32>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_1 : tensor<8xf32>) outs(%4 : tensor<1x8x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x8x8xf32>
  %6 = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%transposed, %cst_0 : tensor<1x8x8x4xf32>, tensor<8x1x1x4xf32>) outs(%5 : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %3, %6 : tensor<1x8x8x4xf32>, tensor<1x8x8x8xf32>
}

// -----

// The transposed value is also returned: it must be written anyway.
// CHECK-LABEL: func @returned
// CHECK: fuse.group single
// CHECK: fuse.group vertical rule "contraction_epilogue"
// CHECK-NOT: fuse.group
// CHECK: return
func.func @returned(%arg0: tensor<1x4x8x8xf32>) -> (tensor<1x8x8x4xf32>, tensor<1x8x8x8xf32>) {
  %cst = arith.constant dense<2.000000e-02> : tensor<8x1x1x4xf32>
  %cst_0 = arith.constant dense<1.000000e-01> : tensor<8xf32>
  %0 = tensor.empty() : tensor<1x8x8x4xf32>
  %transposed = linalg.transpose ins(%arg0 : tensor<1x4x8x8xf32>) outs(%0 : tensor<1x8x8x4xf32>) permutation = [0, 2, 3, 1]
  %1 = tensor.empty() : tensor<1x8x8x8xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_0 : tensor<8xf32>) outs(%1 : tensor<1x8x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x8x8xf32>
  %3 = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%transposed, %cst : tensor<1x8x8x4xf32>, tensor<8x1x1x4xf32>) outs(%2 : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %transposed, %3 : tensor<1x8x8x4xf32>, tensor<1x8x8x8xf32>
}

// -----

// Only elementwise readers: no contraction or pooling to read through it.
// CHECK-LABEL: func @elementwise_reader
// CHECK: fuse.group single
// CHECK: fuse.group single
// CHECK-NOT: fuse.group
// CHECK: return
func.func @elementwise_reader(%arg0: tensor<1x4x8x8xf32>) -> tensor<1x8x8x4xf32> {
  %0 = tensor.empty() : tensor<1x8x8x4xf32>
  %transposed = linalg.transpose ins(%arg0 : tensor<1x4x8x8xf32>) outs(%0 : tensor<1x8x8x4xf32>) permutation = [0, 2, 3, 1]
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed : tensor<1x8x8x4xf32>) outs(%0 : tensor<1x8x8x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %2 = math.exp %in : f32
    linalg.yield %2 : f32
  } -> tensor<1x8x8x4xf32>
  return %1 : tensor<1x8x8x4xf32>
}

// -----

// Read through a reshape (a Flatten after the transpose back to NCHW): the
// matmul's tile loop cannot take the transpose in across the reshape.
// CHECK-LABEL: func @through_reshape
// CHECK: fuse.group single
// CHECK: fuse.group single
// CHECK-NOT: fuse.group
// CHECK: return
func.func @through_reshape(%arg0: tensor<1x4x4x4xf32>) -> tensor<1x1x10xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant dense<2.000000e-02> : tensor<1x64x10xf32>
  %0 = tensor.empty() : tensor<1x4x4x4xf32>
  %transposed = linalg.transpose ins(%arg0 : tensor<1x4x4x4xf32>) outs(%0 : tensor<1x4x4x4xf32>) permutation = [0, 3, 1, 2]
  %collapsed = tensor.collapse_shape %transposed [[0], [1, 2, 3]] : tensor<1x4x4x4xf32> into tensor<1x64xf32>
  %expanded = tensor.expand_shape %collapsed [[0, 1], [2]] output_shape [1, 1, 64] : tensor<1x64xf32> into tensor<1x1x64xf32>
  %1 = tensor.empty() : tensor<1x1x10xf32>
  %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<1x1x10xf32>) -> tensor<1x1x10xf32>
  %3 = linalg.batch_matmul ins(%expanded, %cst_0 : tensor<1x1x64xf32>, tensor<1x64x10xf32>) outs(%2 : tensor<1x1x10xf32>) -> tensor<1x1x10xf32>
  return %3 : tensor<1x1x10xf32>
}
