// fuse-cpu-vectorize on a 16-bit model's ops: a product of two f16 (or
// bf16) inputs into f32 accumulators, each input extended in the payload,
// gets the f32 register tiles (a vector.contract of the 16-bit vectors into
// f32 accumulators, extended as fuse-cpu-lower-vectors lowers it); a
// 3x3 convolution over f16 channels (HWCF) becomes products of its slices
// the same way; a max pooling in f16 is vectorized in f16 (exact). Left as
// they are: a product into an f16 output (summed in 16 bits), operands of
// two types, a depthwise convolution on f16.
// RUN: fuse-opt %s --split-input-file --fuse-cpu-vectorize --canonicalize --cse | FileCheck %s

// CHECK-LABEL: func.func @matmul_f16
// CHECK: scf.for
// CHECK: vector.transfer_read {{.*}} vector<8x4xf16>
// CHECK: vector.transfer_read {{.*}} vector<4x32xf16>
// CHECK: vector.contract {{.*}} : vector<8x4xf16>, vector<4x32xf16> into vector<8x32xf32>
// CHECK-NOT: linalg.matmul
func.func @matmul_f16(%a: tensor<16x64xf16>, %b: tensor<64x64xf16>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %m = linalg.matmul ins(%a, %b : tensor<16x64xf16>, tensor<64x64xf16>) outs(%f : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %m : tensor<16x64xf32>
}

// -----

// CHECK-LABEL: func.func @matmul_bf16
// CHECK: vector.contract {{.*}} : vector<8x4xbf16>, vector<4x32xbf16> into vector<8x32xf32>
// CHECK-NOT: linalg.matmul
func.func @matmul_bf16(%a: tensor<16x64xbf16>, %b: tensor<64x64xbf16>, %c: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<16x64xbf16>, tensor<64x64xbf16>) outs(%c : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %m : tensor<16x64xf32>
}

// -----

// CHECK-LABEL: func.func @conv_f16
// CHECK: vector.contract {{.*}} : vector<8x4xf16>, vector<4x32xf16> into vector<8x32xf32>
// CHECK-NOT: linalg.conv_2d_nhwc_hwcf
func.func @conv_f16(%x: tensor<1x10x10x16xf16>, %w: tensor<3x3x16x32xf16>, %o: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x10x10x16xf16>, tensor<3x3x16x32xf16>) outs(%o : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  return %c : tensor<1x8x8x32xf32>
}

// -----

// CHECK-LABEL: func.func @maxpool_f16
// CHECK: arith.maximumf {{.*}} : vector<{{.*}}xf16>
// CHECK-NOT: linalg.pooling_nhwc_max
func.func @maxpool_f16(%x: tensor<1x10x10x32xf16>, %o: tensor<1x8x8x32xf16>) -> tensor<1x8x8x32xf16> {
  %k = tensor.empty() : tensor<3x3xf16>
  %p = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %k : tensor<1x10x10x32xf16>, tensor<3x3xf16>) outs(%o : tensor<1x8x8x32xf16>) -> tensor<1x8x8x32xf16>
  return %p : tensor<1x8x8x32xf16>
}

// -----

// CHECK-LABEL: func.func @sum_in_f16
// CHECK: linalg.matmul
func.func @sum_in_f16(%a: tensor<16x64xf16>, %b: tensor<64x64xf16>, %c: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %m = linalg.matmul ins(%a, %b : tensor<16x64xf16>, tensor<64x64xf16>) outs(%c : tensor<16x64xf16>) -> tensor<16x64xf16>
  return %m : tensor<16x64xf16>
}

// -----

// CHECK-LABEL: func.func @two_types
// CHECK: linalg.matmul
func.func @two_types(%a: tensor<16x64xf16>, %b: tensor<64x64xf32>, %c: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<16x64xf16>, tensor<64x64xf32>) outs(%c : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %m : tensor<16x64xf32>
}

// -----

// CHECK-LABEL: func.func @depthwise_f16
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc
func.func @depthwise_f16(%x: tensor<1x10x10x32xf16>, %w: tensor<3x3x32xf16>, %o: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  %c = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x10x10x32xf16>, tensor<3x3x32xf16>) outs(%o : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  return %c : tensor<1x8x8x32xf32>
}

// Executed: the fused f16 model's micro-kernels against the unfused loops
// (fuse.no_vectorize), and its library against PyTorch (half.test).
// RUN: %float16 %fuse_src_root/test/Models/onnx/resnet_tiny.onnx %t.resnet16.onnx
// RUN: fuse-translate --import-onnx %t.resnet16.onnx -o %t.resnet16.mlir
// RUN: %check_equivalence %t.resnet16.mlir | FileCheck %s --check-prefix=EXEC
// RUN: %float16 --bfloat16 %fuse_src_root/test/Models/onnx/bert_tiny.onnx %t.bert16.onnx
// RUN: fuse-translate --import-onnx %t.bert16.onnx -o %t.bert16.mlir
// RUN: %check_equivalence %t.bert16.mlir | FileCheck %s --check-prefix=EXEC
// EXEC: PASS
// The lowered CPU code converts whole rows of halves at a time.
// RUN: fuse-opt %t.resnet16.mlir --fuse-fusion-pipeline=target=h200 | fuse-opt --fuse-to-cpu | FileCheck %s --check-prefix=LLVM
// LLVM: llvm.fpext {{.*}} : vector<32xf16> to vector<32xf32>
