// RUN: fuse-opt %s -fuse-test-classify -split-input-file | FileCheck %s

// CHECK-LABEL: func @matmul
// 2 x 16 x 64 x 32 multiply-accumulates; reads A, B and the accumulator.
// CHECK: linalg.matmul
// CHECK-SAME: fuse.bytes_read = 14336 : i64
// CHECK-SAME: fuse.bytes_written = 4096 : i64
// CHECK-SAME: fuse.category = #fuse.category<contraction>
// CHECK-SAME: fuse.flops = 65536 : i64
func.func @matmul(%a: tensor<16x32xf32>, %b: tensor<32x64xf32>, %c: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x64xf32>) outs(%c : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %0 : tensor<16x64xf32>
}

// -----

// CHECK-LABEL: func @batch_matmul
// CHECK: linalg.batch_matmul
// CHECK-SAME: fuse.category = #fuse.category<contraction>
// CHECK-SAME: fuse.flops = 32768 : i64
func.func @batch_matmul(%a: tensor<2x8x16xf32>, %b: tensor<2x16x64xf32>, %c: tensor<2x8x64xf32>) -> tensor<2x8x64xf32> {
  %0 = linalg.batch_matmul ins(%a, %b : tensor<2x8x16xf32>, tensor<2x16x64xf32>) outs(%c : tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
  return %0 : tensor<2x8x64xf32>
}

// -----

// N=1, 8x8 output, 16 output channels, 3x3 window over 4 input channels.
// CHECK-LABEL: func @conv
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK-SAME: fuse.category = #fuse.category<contraction>
// CHECK-SAME: fuse.flops = 73728 : i64
func.func @conv(%in: tensor<1x10x10x4xf32>, %f: tensor<3x3x4x16xf32>, %out: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%in, %f : tensor<1x10x10x4xf32>, tensor<3x3x4x16xf32>) outs(%out : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %0 : tensor<1x8x8x16xf32>
}

// -----

// CHECK-LABEL: func @depthwise_conv
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc
// CHECK-SAME: fuse.category = #fuse.category<contraction>
func.func @depthwise_conv(%in: tensor<1x10x10x8xf32>, %f: tensor<3x3x8xf32>, %out: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %0 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%in, %f : tensor<1x10x10x8xf32>, tensor<3x3x8xf32>) outs(%out : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}

// -----

// Pooling has a reduction window but no multiply-accumulate: a reduction.
// CHECK-LABEL: func @max_pool
// CHECK: linalg.pooling_nhwc_max
// CHECK-SAME: fuse.category = #fuse.category<reduction>
func.func @max_pool(%in: tensor<1x8x8x4xf32>, %w: tensor<2x2xf32>, %out: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%in, %w : tensor<1x8x8x4xf32>, tensor<2x2xf32>) outs(%out : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// A generic with a reduction iterator and a plain sum is a reduction.
// CHECK-LABEL: func @generic_row_sum
// CHECK: linalg.generic
// CHECK-SAME: fuse.bytes_read = 2112 : i64
// CHECK-SAME: fuse.bytes_written = 64 : i64
// CHECK-SAME: fuse.category = #fuse.category<reduction>
// CHECK-SAME: fuse.flops = 512 : i64
func.func @generic_row_sum(%x: tensor<16x32xf32>, %init: tensor<16xf32>) -> tensor<16xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x32xf32>) outs(%init : tensor<16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// A generic whose payload multiplies two inputs into the accumulator is a
// contraction, with casts of mixed precision allowed.
// CHECK-LABEL: func @generic_contraction
// CHECK: linalg.generic
// CHECK-SAME: fuse.category = #fuse.category<contraction>
// CHECK-SAME: fuse.flops = 1024 : i64
func.func @generic_contraction(%a: tensor<8x16xf16>, %b: tensor<16x4xf16>, %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x16xf16>, tensor<16x4xf16>) outs(%c : tensor<8x4xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %m = arith.mulf %xe, %ye : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// CHECK-LABEL: func @generic_elementwise
// CHECK: linalg.generic
// CHECK-SAME: fuse.bytes_read = 256 : i64
// CHECK-SAME: fuse.bytes_written = 128 : i64
// CHECK-SAME: fuse.category = #fuse.category<elementwise>
// CHECK-SAME: fuse.flops = 64 : i64
func.func @generic_elementwise(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %m = arith.maximumf %s, %a : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A bias read along one dimension is a broadcast.
// CHECK-LABEL: func @generic_broadcast
// CHECK: linalg.generic
// CHECK-SAME: fuse.category = #fuse.category<broadcast>
func.func @generic_broadcast(%x: tensor<4x8xf32>, %bias: tensor<8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %bias : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A transposed read is injective, as are linalg.transpose and a strided read.
// CHECK-LABEL: func @injective
// CHECK: linalg.generic
// CHECK-SAME: fuse.category = #fuse.category<injective>
// CHECK: linalg.transpose
// CHECK-SAME: fuse.category = #fuse.category<injective>
// CHECK: linalg.generic
// CHECK-SAME: fuse.category = #fuse.category<injective>
func.func @injective(%x: tensor<8x4xf32>, %y: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<4x8xf32>
  %1 = linalg.transpose ins(%x : tensor<8x4xf32>) outs(%e : tensor<4x8xf32>) permutation = [1, 0]
  %e4 = tensor.empty() : tensor<4xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 * 2)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%y : tensor<8xf32>) outs(%e4 : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<4xf32>
  return %0, %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>
}

// -----

// Named broadcast is a broadcast; fill writes a scalar into every element.
// CHECK-LABEL: func @broadcast_and_fill
// CHECK: linalg.broadcast
// CHECK-SAME: fuse.category = #fuse.category<broadcast>
// CHECK: linalg.fill
// CHECK-SAME: fuse.bytes_written = 128 : i64
// CHECK-SAME: fuse.category = #fuse.category<elementwise>
func.func @broadcast_and_fill(%x: tensor<8xf32>, %v: f32) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.broadcast ins(%x : tensor<8xf32>) outs(%e : tensor<4x8xf32>) dimensions = [0]
  %1 = linalg.fill ins(%v : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func @softmax
// CHECK: linalg.softmax
// CHECK-SAME: fuse.category = #fuse.category<reduction>
// CHECK-SAME: fuse.flops = 640 : i64
func.func @softmax(%x: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %e = tensor.empty() : tensor<4x32xf32>
  %0 = linalg.softmax dimension(1) ins(%x : tensor<4x32xf32>) outs(%e : tensor<4x32xf32>) -> tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
}

// -----

// Dynamic shapes: the category is known, the costs are not.
// CHECK-LABEL: func @dynamic
// CHECK: linalg.matmul
// CHECK-SAME: {fuse.category = #fuse.category<contraction>}
func.func @dynamic(%a: tensor<?x32xf32>, %b: tensor<32x64xf32>, %c: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<?x32xf32>, tensor<32x64xf32>) outs(%c : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %0 : tensor<?x64xf32>
}
