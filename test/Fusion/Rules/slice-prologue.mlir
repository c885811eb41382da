// slice_prologue: a strided slice read by one convolution joins it.
// fuse-form-groups alone, on the linalg that the TOSA of test/Pipelines/Fusion/slice-prologue.mlir
// becomes before fusion (the cases of that pipeline test, same decisions).
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200" | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200" --remarks-filter-missed=fuse --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSED --allow-empty
// No candidate is refused here.
// MISSED-NOT: [Missed] refused

// CHECK-LABEL: func @downsample
// CHECK: fuse.group vertical rule "contraction_epilogue"
// CHECK: fuse.group vertical rule "contraction_epilogue"
// CHECK-NOT: fuse.group
// CHECK: return
func.func @downsample(%arg0: tensor<1x8x8x16xf32>) -> (tensor<1x8x8x16xf32>, tensor<1x4x4x32xf32>) {
  %cst = arith.constant 3.400000e+38 : f32
  %cst_0 = arith.constant 0.000000e+00 : f32
  %cst_1 = arith.constant dense<3.000000e-02> : tensor<16x1x1x16xf32>
  %cst_2 = arith.constant dense<1.000000e-01> : tensor<16xf32>
  %cst_3 = arith.constant dense<-2.000000e-02> : tensor<32x1x1x16xf32>
  %cst_4 = arith.constant dense<2.000000e-01> : tensor<32xf32>
  %0 = tensor.empty() : tensor<1x8x8x16xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_2 : tensor<16xf32>) outs(%0 : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x8x16xf32>
  %2 = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%arg0, %cst_1 : tensor<1x8x8x16xf32>, tensor<16x1x1x16xf32>) outs(%1 : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%2 : tensor<1x8x8x16xf32>) outs(%0 : tensor<1x8x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %7 = arith.minimumf %in, %cst : f32
    %8 = arith.maximumf %7, %cst_0 : f32
    linalg.yield %8 : f32
  } -> tensor<1x8x8x16xf32>
  %extracted_slice = tensor.extract_slice %3[0, 0, 0, 0] [1, 7, 7, 16] [1, 1, 1, 1] : tensor<1x8x8x16xf32> to tensor<1x7x7x16xf32>
  %4 = tensor.empty() : tensor<1x4x4x32xf32>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_4 : tensor<32xf32>) outs(%4 : tensor<1x4x4x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x4x32xf32>
  %6 = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%extracted_slice, %cst_3 : tensor<1x7x7x16xf32>, tensor<32x1x1x16xf32>) outs(%5 : tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32>
  return %3, %6 : tensor<1x8x8x16xf32>, tensor<1x4x4x32xf32>
}

// -----

// Readers in two groups (a conv and an elementwise op), or the slice
// returned: the slice stays a kernel of its own.
// CHECK-LABEL: func @kept
// CHECK: fuse.group single
// CHECK: fuse.group vertical rule "contraction_epilogue"
// CHECK: fuse.group single
// CHECK-NOT: fuse.group
// CHECK-LABEL: func @returned
// CHECK: fuse.group single
// CHECK: fuse.group vertical rule "contraction_epilogue"
// CHECK-NOT: fuse.group
// CHECK: return
func.func @kept(%arg0: tensor<1x8x8x16xf32>) -> (tensor<1x4x4x32xf32>, tensor<1x7x7x16xf32>) {
  %cst = arith.constant dense<-2.000000e-02> : tensor<32x1x1x16xf32>
  %cst_0 = arith.constant dense<2.000000e-01> : tensor<32xf32>
  %extracted_slice = tensor.extract_slice %arg0[0, 0, 0, 0] [1, 7, 7, 16] [1, 1, 1, 1] : tensor<1x8x8x16xf32> to tensor<1x7x7x16xf32>
  %0 = tensor.empty() : tensor<1x4x4x32xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_0 : tensor<32xf32>) outs(%0 : tensor<1x4x4x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x4x32xf32>
  %2 = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%extracted_slice, %cst : tensor<1x7x7x16xf32>, tensor<32x1x1x16xf32>) outs(%1 : tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32>
  %3 = tensor.empty() : tensor<1x7x7x16xf32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice : tensor<1x7x7x16xf32>) outs(%3 : tensor<1x7x7x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %5 = math.exp %in : f32
    linalg.yield %5 : f32
  } -> tensor<1x7x7x16xf32>
  return %2, %4 : tensor<1x4x4x32xf32>, tensor<1x7x7x16xf32>
}
func.func @returned(%arg0: tensor<1x8x8x16xf32>) -> (tensor<1x4x4x32xf32>, tensor<1x7x7x16xf32>) {
  %cst = arith.constant dense<-2.000000e-02> : tensor<32x1x1x16xf32>
  %cst_0 = arith.constant dense<2.000000e-01> : tensor<32xf32>
  %extracted_slice = tensor.extract_slice %arg0[0, 0, 0, 0] [1, 7, 7, 16] [1, 1, 1, 1] : tensor<1x8x8x16xf32> to tensor<1x7x7x16xf32>
  %0 = tensor.empty() : tensor<1x4x4x32xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_0 : tensor<32xf32>) outs(%0 : tensor<1x4x4x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x4x32xf32>
  %2 = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%extracted_slice, %cst : tensor<1x7x7x16xf32>, tensor<32x1x1x16xf32>) outs(%1 : tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32>
  return %2, %extracted_slice : tensor<1x4x4x32xf32>, tensor<1x7x7x16xf32>
}
