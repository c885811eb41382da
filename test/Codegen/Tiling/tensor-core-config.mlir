// fuse-configure-groups' tensor-core choice (instruction = "mma_sync"): on
// targets with TF32 tensor cores (sm_80 and newer: h200, a100) a group whose
// contraction the schedule computes takes the tensor-core tile the cost
// model predicts fastest (Lowering.md: each wave of resident blocks runs
// its K chunks one after the other, so fewer larger tiles, reusing more of
// each operand, win once every block fits in one wave) when it predicts it
// faster than the SIMT kernel. The 128x768x768 GEMM + bias takes 128x24
// tiles (32 blocks of 4 warps, 2x3 accumulator tiles each), the 56x56x64
// 3x3 convolution 8x8 output pixels by 32 channels (49 x 2 blocks of 2
// warps); with precision=tf32 (a third of the products) larger tiles do as
// well: 128x32 and 8x8x64; a 16x64x32 matmul stays
// SIMT (one K chunk: too little work to pay for the staging) unless
// tensor-cores=always; a depthwise convolution has no N to put on tensor
// cores and stays SIMT; the T4 (sm_75) has no TF32 tensor cores at all.
// RUN: fuse-opt %s --fuse-configure-groups=target=h200 | FileCheck %s --check-prefix=H200
// RUN: fuse-opt %s --fuse-configure-groups=target=a100 | FileCheck %s --check-prefix=H200
// RUN: fuse-opt %s --fuse-configure-groups=target=t4 | FileCheck %s --check-prefix=SIMT
// RUN: fuse-opt %s --fuse-configure-groups="target=t4 tensor-cores=always" | FileCheck %s --check-prefix=SIMT
// RUN: fuse-opt %s --fuse-configure-groups="target=h200 tensor-cores=never" | FileCheck %s --check-prefix=SIMT
// RUN: fuse-opt %s --fuse-configure-groups="target=h200 precision=tf32" | FileCheck %s --check-prefix=TF32
// RUN: fuse-opt %s --fuse-configure-groups="target=h200 tensor-cores=always" | FileCheck %s --check-prefix=ALWAYS
// RUN: not fuse-opt %s --fuse-configure-groups="precision=bf16" 2>&1 | FileCheck %s --check-prefix=BADP
// RUN: not fuse-opt %s --fuse-lower-groups="tensor-cores=maybe" 2>&1 | FileCheck %s --check-prefix=BADTC

// H200-LABEL: func @gemm
// H200: #fuse.lowering_config<schedule = "contraction", tile = [128, 24], threads = 128, instruction = "mma_sync", precision = "fp32">
// H200-LABEL: func @conv
// H200: #fuse.lowering_config<schedule = "convolution", tile = [1, 8, 8, 32], threads = 64, instruction = "mma_sync", precision = "fp32">
// H200-LABEL: func @small
// H200: instruction = "simt", precision = "fp32">
// H200-LABEL: func @depthwise
// H200: #fuse.lowering_config<schedule = "depthwise", {{.*}} instruction = "simt", precision = "fp32">

// SIMT-LABEL: func @gemm
// SIMT: #fuse.lowering_config<schedule = "contraction", tile = [8, 32], {{.*}} instruction = "simt", precision = "fp32">
// SIMT-LABEL: func @conv
// SIMT: #fuse.lowering_config<schedule = "convolution", tile = [1, 1, 8, 32], {{.*}} instruction = "simt", precision = "fp32">
// SIMT-LABEL: func @small
// SIMT: instruction = "simt"
// SIMT-LABEL: func @depthwise
// SIMT: instruction = "simt"

// TF32-LABEL: func @gemm
// TF32: tile = [128, 32], threads = 128, instruction = "mma_sync", precision = "tf32">
// TF32-LABEL: func @conv
// TF32: tile = [1, 8, 8, 64], threads = 128, instruction = "mma_sync", precision = "tf32">
// TF32-LABEL: func @small
// TF32: instruction = "simt", precision = "fp32">

// ALWAYS-LABEL: func @small
// ALWAYS: #fuse.lowering_config<schedule = "contraction", tile = [16, 32, 0], threads = 32, instruction = "mma_sync", precision = "fp32">
// ALWAYS-LABEL: func @depthwise
// ALWAYS: instruction = "simt"

// BADP: fuse-configure-groups: option 'precision' must be 'fp32' or 'tf32', got 'bf16'
// BADTC: fuse-lower-groups: option 'tensor-cores' must be 'auto', 'always' or 'never', got 'maybe'

func.func @gemm(%x: tensor<128x768xf32>, %w: tensor<768x768xf32>, %b: tensor<768xf32>) -> tensor<128x768xf32> {
  %r = fuse.group vertical (%a = %x : tensor<128x768xf32>, %bw = %w : tensor<768x768xf32>, %bb = %b : tensor<768xf32>) -> tensor<128x768xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x768xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x768xf32>) -> tensor<128x768xf32>
    %m = linalg.matmul ins(%a, %bw : tensor<128x768xf32>, tensor<768x768xf32>) outs(%f : tensor<128x768xf32>) -> tensor<128x768xf32>
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m, %bb : tensor<128x768xf32>, tensor<768xf32>) outs(%e : tensor<128x768xf32>) {
    ^bb0(%in: f32, %c: f32, %o: f32):
      %t = arith.addf %in, %c : f32
      linalg.yield %t : f32
    } -> tensor<128x768xf32>
    fuse.yield %0 : tensor<128x768xf32>
  }
  return %r : tensor<128x768xf32>
}

func.func @conv(%x: tensor<1x58x58x64xf32>, %w: tensor<3x3x64x64xf32>) -> tensor<1x56x56x64xf32> {
  %r = fuse.group vertical (%a = %x : tensor<1x58x58x64xf32>, %bw = %w : tensor<3x3x64x64xf32>) -> tensor<1x56x56x64xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x56x56x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
    %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a, %bw : tensor<1x58x58x64xf32>, tensor<3x3x64x64xf32>) outs(%f : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x56x56x64xf32>) outs(%e : tensor<1x56x56x64xf32>) {
    ^bb0(%in: f32, %o: f32):
      %t = arith.maximumf %in, %zero : f32
      linalg.yield %t : f32
    } -> tensor<1x56x56x64xf32>
    fuse.yield %0 : tensor<1x56x56x64xf32>
  }
  return %r : tensor<1x56x56x64xf32>
}

func.func @small(%x: tensor<16x32xf32>, %w: tensor<32x64xf32>) -> tensor<16x64xf32> {
  %r = fuse.group single (%a = %x : tensor<16x32xf32>, %bw = %w : tensor<32x64xf32>) -> tensor<16x64xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<16x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
    %m = linalg.matmul ins(%a, %bw : tensor<16x32xf32>, tensor<32x64xf32>) outs(%f : tensor<16x64xf32>) -> tensor<16x64xf32>
    fuse.yield %m : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

func.func @depthwise(%x: tensor<1x58x58x32xf32>, %w: tensor<3x3x32xf32>) -> tensor<1x56x56x32xf32> {
  %r = fuse.group single (%a = %x : tensor<1x58x58x32xf32>, %bw = %w : tensor<3x3x32xf32>) -> tensor<1x56x56x32xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x56x56x32xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x56x56x32xf32>) -> tensor<1x56x56x32xf32>
    %c = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a, %bw : tensor<1x58x58x32xf32>, tensor<3x3x32xf32>) outs(%f : tensor<1x56x56x32xf32>) -> tensor<1x56x56x32xf32>
    fuse.yield %c : tensor<1x56x56x32xf32>
  }
  return %r : tensor<1x56x56x32xf32>
}
