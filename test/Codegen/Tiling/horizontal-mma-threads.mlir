// A horizontal group's roots are slices of one contraction's output (two
// 1x1 convolutions on the same input as one of 320 channels: 64 for one
// output, 256 for the other); each root's tile fuses its own part of the
// convolution, so a tile computes 32 x 64 and 32 x 256 outputs. The
// tensor-core configuration lowers its fastest candidates on a copy and
// takes the threads the largest tiled contraction needs (32 x 256 is 2 x 32
// accumulator tiles: 8 warps of 8), not the first root's (2 warps for
// 32 x 64, which left the 256-channel convolution 32 tiles a warp, too
// many: it ran on SIMT), and counts the other one's staged tiles.
// RUN: fuse-opt %s --fuse-configure-groups="target=h200 split-k=1" | FileCheck %s
// CHECK: #fuse.lowering_config<schedule = "convolution", tile = [1, 4, 8, 0], threads = 256, instruction = "mma_sync", precision = "fp32">
// Both convolutions run on tensor cores (no remark that one is SIMT).
// RUN: fuse-opt %s --fuse-configure-groups="target=h200 split-k=1" | fuse-opt --fuse-to-nvptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=GPU --allow-empty
// GPU-NOT: runs on SIMT
#map = affine_map<(d0, d1, d2, d3) -> (d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module attributes {fuse.target = #fuse.target<"h200">} {
func.func @horizontal(%bias: tensor<320xf32>, %x: tensor<1x56x56x64xf32>, %w: tensor<320x1x1x64xf32>) -> (tensor<1x56x56x256xf32>, tensor<1x56x56x64xf32>) {
  %r:2 = fuse.group horizontal rule "shared_input_contractions" (%arg1 = %bias : tensor<320xf32>, %arg2 = %x : tensor<1x56x56x64xf32>, %arg3 = %w : tensor<320x1x1x64xf32>) -> (tensor<1x56x56x256xf32>, tensor<1x56x56x64xf32>) {
    %max = arith.constant 3.40282347E+38 : f32
    %zero = arith.constant 0.000000e+00 : f32
    %e64 = tensor.empty() : tensor<1x56x56x64xf32>
    %e320 = tensor.empty() : tensor<1x56x56x320xf32>
    %b = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg1 : tensor<320xf32>) outs(%e320 : tensor<1x56x56x320xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x56x56x320xf32>
    %c = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%arg2, %arg3 : tensor<1x56x56x64xf32>, tensor<320x1x1x64xf32>) outs(%b : tensor<1x56x56x320xf32>) -> tensor<1x56x56x320xf32>
    %s64 = tensor.extract_slice %c[0, 0, 0, 0] [1, 56, 56, 64] [1, 1, 1, 1] : tensor<1x56x56x320xf32> to tensor<1x56x56x64xf32>
    %s256 = tensor.extract_slice %c[0, 0, 0, 64] [1, 56, 56, 256] [1, 1, 1, 1] : tensor<1x56x56x320xf32> to tensor<1x56x56x256xf32>
    %relu = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s64 : tensor<1x56x56x64xf32>) outs(%e64 : tensor<1x56x56x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %lo = arith.minimumf %in, %max : f32
      %hi = arith.maximumf %lo, %zero : f32
      linalg.yield %hi : f32
    } -> tensor<1x56x56x64xf32>
    fuse.yield %s256, %relu : tensor<1x56x56x256xf32>, tensor<1x56x56x64xf32>
  }
  return %r#0, %r#1 : tensor<1x56x56x256xf32>, tensor<1x56x56x64xf32>
}
}
