// fuse-prune keeps only the kernel taps of a convolution over a zero-padded
// input that read the input for some output point: a dilated convolution
// whose rate exceeds the map (DeepLab's ASPP at rate 36 on a 16x16 map)
// becomes a 1x1 convolution with no padded copy; taps read only partly
// dead keep a trimmed window (padding shrunk, or the source cropped).
// RUN: fuse-opt %s -split-input-file --fuse-prune | FileCheck %s
// The pruned functions compute what the originals do (the unfused build
// keeps every tap), also through the emulated GPU schedule.
// RUN: %check_equivalence %s --function rate36 | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function rate36 --lower-groups --distribute-threads 128 | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function trimmed | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function cropped | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function depthwise | FileCheck %s --check-prefix=EXEC
// EXEC: PASS

// Rate 36 on 16x16: the outer taps never reach the map.
// CHECK-LABEL: func @rate36
// CHECK-NOT: tensor.pad
// CHECK: %[[W:.*]] = tensor.extract_slice %arg1[0, 1, 1, 0] [8, 1, 1, 16] [1, 1, 1, 1] : tensor<8x3x3x16xf32> to tensor<8x1x1x16xf32>
// CHECK: linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%arg0, %[[W]] : tensor<1x16x16x16xf32>, tensor<8x1x1x16xf32>)
func.func @rate36(%arg0: tensor<1x16x16x16xf32>, %w: tensor<8x3x3x16xf32>) -> tensor<1x16x16x8xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %padded = tensor.pad %arg0 low[0, 36, 36, 0] high[0, 36, 36, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst : f32
  } : tensor<1x16x16x16xf32> to tensor<1x88x88x16xf32>
  %0 = tensor.empty() : tensor<1x16x16x8xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x16x16x8xf32>) -> tensor<1x16x16x8xf32>
  %2 = linalg.conv_2d_nhwc_fhwc {dilations = dense<36> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %w : tensor<1x88x88x16xf32>, tensor<8x3x3x16xf32>) outs(%1 : tensor<1x16x16x8xf32>) -> tensor<1x16x16x8xf32>
  return %2 : tensor<1x16x16x8xf32>
}

// -----

// 5x5 at dilation 4 over a 6x6 map padded by 8: the first and last taps
// read only padding; the middle three keep a window padded by 4.
// CHECK-LABEL: func @trimmed
// CHECK: tensor.pad %arg0 low[0, 4, 4, 0] high[0, 4, 4, 0]
// CHECK: tensor.extract_slice %arg1[0, 1, 1, 0] [4, 3, 3, 8]
// CHECK: linalg.conv_2d_nhwc_fhwc {dilations = dense<4> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x14x14x8xf32>, tensor<4x3x3x8xf32>)
func.func @trimmed(%arg0: tensor<1x6x6x8xf32>, %w: tensor<4x5x5x8xf32>) -> tensor<1x6x6x4xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %padded = tensor.pad %arg0 low[0, 8, 8, 0] high[0, 8, 8, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst : f32
  } : tensor<1x6x6x8xf32> to tensor<1x22x22x8xf32>
  %0 = tensor.empty() : tensor<1x6x6x4xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  %2 = linalg.conv_2d_nhwc_fhwc {dilations = dense<4> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %w : tensor<1x22x22x8xf32>, tensor<4x5x5x8xf32>) outs(%1 : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  return %2 : tensor<1x6x6x4xf32>
}

// -----

// 3x3 at dilation 6 over a 6x6 map padded by 5: only the middle tap reads
// the map, at rows 1..4: the source is cropped, no padding is left.
// CHECK-LABEL: func @cropped
// CHECK-NOT: tensor.pad
// CHECK: tensor.extract_slice %arg0[0, 1, 1, 0] [1, 4, 4, 8]
// CHECK: linalg.conv_2d_nhwc_fhwc {{.*}} -> tensor<1x4x4x4xf32>
func.func @cropped(%arg0: tensor<1x6x6x8xf32>, %w: tensor<4x3x3x8xf32>) -> tensor<1x4x4x4xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %padded = tensor.pad %arg0 low[0, 5, 5, 0] high[0, 5, 5, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst : f32
  } : tensor<1x6x6x8xf32> to tensor<1x16x16x8xf32>
  %0 = tensor.empty() : tensor<1x4x4x4xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %2 = linalg.conv_2d_nhwc_fhwc {dilations = dense<6> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %w : tensor<1x16x16x8xf32>, tensor<4x3x3x8xf32>) outs(%1 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %2 : tensor<1x4x4x4xf32>
}

// -----

// A depthwise convolution at rate 12 on an 8x8 map: one tap left.
// CHECK-LABEL: func @depthwise
// CHECK-NOT: tensor.pad
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%arg0, %{{.*}} : tensor<1x8x8x16xf32>, tensor<1x1x16xf32>)
func.func @depthwise(%arg0: tensor<1x8x8x16xf32>, %w: tensor<3x3x16xf32>) -> tensor<1x8x8x16xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %padded = tensor.pad %arg0 low[0, 12, 12, 0] high[0, 12, 12, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst : f32
  } : tensor<1x8x8x16xf32> to tensor<1x32x32x16xf32>
  %0 = tensor.empty() : tensor<1x8x8x16xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %2 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<12> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %w : tensor<1x32x32x16xf32>, tensor<3x3x16xf32>) outs(%1 : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %2 : tensor<1x8x8x16xf32>
}

// -----

// Negatives: every tap reads the map somewhere (rate 12 on 16x16), and a
// padding value that is not zero (a max pool's -inf, say).
// CHECK-LABEL: func @all_live
// CHECK: tensor.pad %arg0 low[0, 12, 12, 0] high[0, 12, 12, 0]
// CHECK: linalg.conv_2d_nhwc_fhwc {dilations = dense<12> : tensor<2xi64>
// CHECK-LABEL: func @nonzero_pad
// CHECK: tensor.pad %arg0 low[0, 36, 36, 0]
// CHECK: linalg.conv_2d_nhwc_fhwc {dilations = dense<36> : tensor<2xi64>
func.func @all_live(%arg0: tensor<1x16x16x16xf32>, %w: tensor<8x3x3x16xf32>) -> tensor<1x16x16x8xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %padded = tensor.pad %arg0 low[0, 12, 12, 0] high[0, 12, 12, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst : f32
  } : tensor<1x16x16x16xf32> to tensor<1x40x40x16xf32>
  %0 = tensor.empty() : tensor<1x16x16x8xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x16x16x8xf32>) -> tensor<1x16x16x8xf32>
  %2 = linalg.conv_2d_nhwc_fhwc {dilations = dense<12> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %w : tensor<1x40x40x16xf32>, tensor<8x3x3x16xf32>) outs(%1 : tensor<1x16x16x8xf32>) -> tensor<1x16x16x8xf32>
  return %2 : tensor<1x16x16x8xf32>
}
func.func @nonzero_pad(%arg0: tensor<1x16x16x16xf32>, %w: tensor<8x3x3x16xf32>) -> tensor<1x16x16x8xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %one = arith.constant 1.000000e+00 : f32
  %padded = tensor.pad %arg0 low[0, 36, 36, 0] high[0, 36, 36, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %one : f32
  } : tensor<1x16x16x16xf32> to tensor<1x88x88x16xf32>
  %0 = tensor.empty() : tensor<1x16x16x8xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x16x16x8xf32>) -> tensor<1x16x16x8xf32>
  %2 = linalg.conv_2d_nhwc_fhwc {dilations = dense<36> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %w : tensor<1x88x88x16xf32>, tensor<8x3x3x16xf32>) outs(%1 : tensor<1x16x16x8xf32>) -> tensor<1x16x16x8xf32>
  return %2 : tensor<1x16x16x8xf32>
}
