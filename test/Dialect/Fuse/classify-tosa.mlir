// RUN: fuse-opt %s -fuse-test-classify -split-input-file | FileCheck %s

// Same shapes: elementwise. A size-1 dimension that stretches: broadcast.
// CHECK-LABEL: func @add
// CHECK: tosa.add %{{.*}}, %{{.*}} {fuse.bytes_read = 256 : i64, fuse.bytes_written = 128 : i64, fuse.category = #fuse.category<elementwise>, fuse.flops = 32 : i64}
// CHECK: tosa.add %{{.*}}, %{{.*}} {fuse.bytes_read = 160 : i64, fuse.bytes_written = 128 : i64, fuse.category = #fuse.category<broadcast>, fuse.flops = 32 : i64}
func.func @add(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>, %b: tensor<1x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = tosa.add %x, %y : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = tosa.add %x, %b : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// The shift operand of tosa.mul is not data: still elementwise.
// CHECK-LABEL: func @mul_with_shift
// CHECK: tosa.mul
// CHECK-SAME: fuse.category = #fuse.category<elementwise>
// CHECK: tosa.mul
// CHECK-SAME: fuse.category = #fuse.category<broadcast>
func.func @mul_with_shift(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>, %c: tensor<4x1xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.mul %x, %y, %shift : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<1xi8>) -> tensor<4x8xf32>
  %1 = tosa.mul %x, %c, %shift : (tensor<4x8xf32>, tensor<4x1xf32>, tensor<1xi8>) -> tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Unary ops and activations are elementwise.
// CHECK-LABEL: func @unary
// CHECK: tosa.sigmoid {{.*}}fuse.category = #fuse.category<elementwise>
// CHECK: tosa.tanh {{.*}}fuse.category = #fuse.category<elementwise>
// CHECK: tosa.erf {{.*}}fuse.category = #fuse.category<elementwise>
// CHECK: tosa.clamp {{.*}}fuse.category = #fuse.category<elementwise>
// CHECK: tosa.cast {{.*}}fuse.category = #fuse.category<elementwise>, fuse.flops = 0 : i64
func.func @unary(%x: tensor<4x8xf32>) -> tensor<4x8xf16> {
  %0 = tosa.sigmoid %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = tosa.tanh %0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = tosa.erf %1 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = tosa.clamp %2 {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %4 = tosa.cast %3 : (tensor<4x8xf32>) -> tensor<4x8xf16>
  return %4 : tensor<4x8xf16>
}

// -----

// 2 x (1x8x8x16 outputs) x (3x3x4 per output).
// CHECK-LABEL: func @conv2d
// CHECK: tosa.conv2d
// CHECK-SAME: fuse.category = #fuse.category<contraction>
// CHECK-SAME: fuse.flops = 73728 : i64
func.func @conv2d(%in: tensor<1x10x10x4xf32>, %w: tensor<16x3x3x4xf32>, %b: tensor<16xf32>) -> tensor<1x8x8x16xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %in, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}
      : (tensor<1x10x10x4xf32>, tensor<16x3x3x4xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x16xf32>
  return %0 : tensor<1x8x8x16xf32>
}

// -----

// CHECK-LABEL: func @depthwise
// CHECK: tosa.depthwise_conv2d
// CHECK-SAME: fuse.category = #fuse.category<contraction>
// CHECK-SAME: fuse.flops = 9216 : i64
func.func @depthwise(%in: tensor<1x10x10x8xf32>, %w: tensor<3x3x8x1xf32>, %b: tensor<8xf32>) -> tensor<1x8x8x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.depthwise_conv2d %in, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}
      : (tensor<1x10x10x8xf32>, tensor<3x3x8x1xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}

// -----

// CHECK-LABEL: func @matmul
// CHECK: tosa.matmul
// CHECK-SAME: fuse.category = #fuse.category<contraction>
// CHECK-SAME: fuse.flops = 131072 : i64
func.func @matmul(%a: tensor<2x16x32xf32>, %b: tensor<2x32x64xf32>) -> tensor<2x16x64xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<2x16x32xf32>, tensor<2x32x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x16x64xf32>
  return %0 : tensor<2x16x64xf32>
}

// -----

// CHECK-LABEL: func @reductions
// CHECK: tosa.reduce_sum {{.*}}fuse.category = #fuse.category<reduction>, fuse.flops = 32 : i64
// CHECK: tosa.reduce_max {{.*}}fuse.category = #fuse.category<reduction>
// CHECK: tosa.argmax {{.*}}fuse.category = #fuse.category<reduction>
// CHECK: tosa.max_pool2d {{.*}}fuse.category = #fuse.category<reduction>, fuse.flops = 64 : i64
func.func @reductions(%x: tensor<4x8xf32>, %img: tensor<1x8x8x1xf32>) -> (tensor<4x1xf32>, tensor<1x8xf32>, tensor<4xi32>, tensor<1x4x4x1xf32>) {
  %0 = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %1 = tosa.reduce_max %x {axis = 0 : i32} : (tensor<4x8xf32>) -> tensor<1x8xf32>
  %2 = tosa.argmax %x {axis = 1 : i32} : (tensor<4x8xf32>) -> tensor<4xi32>
  %3 = tosa.max_pool2d %img {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x1xf32>) -> tensor<1x4x4x1xf32>
  return %0, %1, %2, %3 : tensor<4x1xf32>, tensor<1x8xf32>, tensor<4xi32>, tensor<1x4x4x1xf32>
}

// -----

// Data movement is injective; a reshape is a view and moves no bytes.
// CHECK-LABEL: func @movement
// CHECK: tosa.transpose {{.*}}fuse.bytes_read = 128 : i64, fuse.bytes_written = 128 : i64, fuse.category = #fuse.category<injective>
// CHECK: tosa.reshape {{.*}}fuse.bytes_read = 0 : i64, fuse.bytes_written = 0 : i64, fuse.category = #fuse.category<injective>
// CHECK: tosa.concat {{.*}}fuse.category = #fuse.category<injective>
// CHECK: tosa.slice {{.*}}fuse.bytes_read = 32 : i64, fuse.bytes_written = 32 : i64, fuse.category = #fuse.category<injective>
func.func @movement(%x: tensor<4x8xf32>) -> (tensor<32xf32>, tensor<16x4xf32>, tensor<2x4xf32>) {
  %0 = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %shape = tosa.const_shape {values = dense<32> : tensor<1xindex>} : () -> !tosa.shape<1>
  %1 = tosa.reshape %x, %shape : (tensor<4x8xf32>, !tosa.shape<1>) -> tensor<32xf32>
  %2 = tosa.concat %0, %0 {axis = 0 : i32} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
  %start = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[2, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %3 = tosa.slice %x, %start, %size : (tensor<4x8xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x4xf32>
  return %1, %2, %3 : tensor<32xf32>, tensor<16x4xf32>, tensor<2x4xf32>
}

// -----

// Constants are not classified; ops fuse cannot see into are opaque.
// CHECK-LABEL: func @opaque
// CHECK: "tosa.const"() <{values = {{.*}}}> : () -> tensor<4xf32>
// CHECK: tosa.custom {{.*}}fuse.category = #fuse.category<opaque>
func.func @opaque() -> tensor<4xf32> {
  %c = "tosa.const"() <{values = dense<1.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  %0 = tosa.custom %c {domain_name = "acme", implementation_attrs = "", operator_name = "magic"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
