// A group's CPU schedule that does not fit its primary contraction is an
// error naming the schedule, the op and what does not fit.
// RUN: fuse-opt %s --split-input-file --fuse-cpu-vectorize -verify-diagnostics -o /dev/null

func.func @rows(%a: tensor<8x64xf32>, %b: tensor<64x64xf32>, %f: tensor<8x64xf32>) -> tensor<8x64xf32> attributes {
    fuse.lowering_config = #fuse.lowering_config<schedule = "contraction", tile = [8, 32, 0], threads = 128, instruction = "simt", precision = "fp32",
                                                 cpu = #fuse.cpu_schedule<kind = "register_tiles", mr = 3, nr = 16, kc = 4, k_block = 0>>} {
  // expected-error @+1 {{fuse-cpu-vectorize: the group's CPU schedule #fuse.cpu_schedule<kind = "register_tiles", mr = 3, nr = 16, kc = 4, k_block = 0> does not fit this op: 'mr' = 3 does not divide the loop's 8 iterations}}
  %m = linalg.matmul ins(%a, %b : tensor<8x64xf32>, tensor<64x64xf32>) outs(%f : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %m : tensor<8x64xf32>
}

// -----

func.func @kind(%a: tensor<8x64xf32>, %b: tensor<64x64xf32>, %f: tensor<8x64xf32>) -> tensor<8x64xf32> attributes {
    fuse.lowering_config = #fuse.lowering_config<schedule = "contraction", tile = [8, 32, 0], threads = 128, instruction = "simt", precision = "fp32",
                                                 cpu = #fuse.cpu_schedule<kind = "channel_tiles", mr = 8, nr = 16, kc = 1, k_block = 0>>} {
  // expected-error @+1 {{does not fit this op: kind "channel_tiles" does not fit the op ("register_tiles")}}
  %m = linalg.matmul ins(%a, %b : tensor<8x64xf32>, tensor<64x64xf32>) outs(%f : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %m : tensor<8x64xf32>
}

// -----

func.func @block(%a: tensor<8x64xf32>, %b: tensor<64x64xf32>, %f: tensor<8x64xf32>) -> tensor<8x64xf32> attributes {
    fuse.lowering_config = #fuse.lowering_config<schedule = "contraction", tile = [8, 32, 0], threads = 128, instruction = "simt", precision = "fp32",
                                                 cpu = #fuse.cpu_schedule<kind = "register_tiles", mr = 8, nr = 16, kc = 4, k_block = 24>>} {
  // expected-error @+1 {{'k_block' = 24 does not divide the loop's 64 iterations}}
  %m = linalg.matmul ins(%a, %b : tensor<8x64xf32>, tensor<64x64xf32>) outs(%f : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %m : tensor<8x64xf32>
}

// -----

func.func @depthwise(%x: tensor<1x10x10x32xf32>, %w: tensor<3x3x32xf32>, %f: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> attributes {
    fuse.lowering_config = #fuse.lowering_config<schedule = "depthwise", tile = [1, 1, 8, 32, 0, 0], threads = 128, instruction = "simt", precision = "fp32",
                                                 cpu = #fuse.cpu_schedule<kind = "channel_tiles", mr = 8, nr = 32, kc = 3, k_block = 0>>} {
  // expected-error @+1 {{a per-channel window runs one position at a time ('kc' 1, 'k_block' 0)}}
  %d = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x10x10x32xf32>, tensor<3x3x32xf32>) outs(%f : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  return %d : tensor<1x8x8x32xf32>
}
