// fuse-configure-groups: each group class's #fuse.lowering_config on two
// targets. The H200 has 132 SMs, the T4 40: a 64x256 GEMM's 64 default
// 8x32 tiles cover the T4 but not the H200 (2x32: 256 tiles of 64 points);
// the 7x7x512 convolution's 112 tiles of 7x32 likewise (7x16: 224 tiles on
// the H200). A row reduction keeps its row whole (a row cannot be split
// without a split reduction): one row per block on the H200 (128 blocks),
// two on the T4 (64 blocks, still more than its SMs); the 1000-wide ReLU's 40
// tiles of 25 points do not shrink below a warp.
// The block size of a group that multiply-adds is the one the cost model
// predicts fastest (Lowering.md): on the T4 the GEMM's 2 blocks per SM
// hide load latency only with a thread per point (256 threads, 16 warps),
// not with 2 points per thread in 128 (8 warps); the convolution's 224
// points take 224 threads (one each). The attention schedule measures its
// tile candidates (the default 8x32 tile and tiles with more rows or
// columns per block, each lowered on a copy) as phases (Lowering.md,
// "Attention"): its one product's 16x32 tiles in blocks of 64 (2 x 4
// points a thread) on both targets.
// The SIMT schedules (tensor-cores=never; on tensor cores:
// tensor-core-config.mlir).
// RUN: fuse-opt %s --fuse-configure-groups="target=h200 tensor-cores=never" | FileCheck %s --check-prefix=H200
// RUN: fuse-opt %s --fuse-configure-groups=target=t4 | FileCheck %s --check-prefix=T4
// A config already there stays (the depthwise group's hand-written one),
// unless `reconfigure`; `tile-sizes` replaces every group's tile. A size
// that does not divide a group's loop (4 for the conv's 7 rows) gives
// overlapping tiles where the group allows them (its last tile moved back:
// overlapping-tiles.mlir, whose @accumulate is the error naming the root
// and the loop where it does not).
// RUN: fuse-opt %s --fuse-configure-groups="target=h200 reconfigure=true tensor-cores=never" | FileCheck %s --check-prefix=AGAIN
// RUN: fuse-opt %s --fuse-configure-groups="target=t4 tile-sizes=1,1" | FileCheck %s --check-prefix=SIZES
// RUN: fuse-opt %s --fuse-configure-groups="target=t4 tile-sizes=1,4" 2>&1 | FileCheck %s --check-prefix=PARTIAL
// PARTIAL-LABEL: func @conv
// PARTIAL: tile = [1, 4, 0, 0]
// fuse-lower-groups tiles by the configs (the GEMM's 2x32 tiles on the
// H200) and the CPU build computes the same results.
// RUN: fuse-opt %s --fuse-configure-groups="target=h200 tensor-cores=never" --fuse-lower-groups | FileCheck %s --check-prefix=LOWER
// An explicit block size is kept: 128 threads for the T4's GEMM.
// RUN: fuse-opt %s --fuse-configure-groups="target=t4 threads=128" | FileCheck %s --check-prefix=FIXED
// FIXED-LABEL: func @gemm
// FIXED: tile = [8, 32], threads = 128,
// RUN: not fuse-opt %s --fuse-configure-groups="threads=-1" 2>&1 | FileCheck %s --check-prefix=ZERO

// H200-LABEL: func @gemm
// H200: fuse.lowering_config = #fuse.lowering_config<schedule = "contraction", tile = [2, 32], threads = 64, instruction = "simt", precision = "fp32">
// H200-LABEL: func @conv
// H200: #fuse.lowering_config<schedule = "convolution", tile = [1, 1, 7, 16], threads = 128,
// H200-LABEL: func @depthwise
// H200: #fuse.lowering_config<schedule = "depthwise", tile = [1, 1, 4, 32, 0, 0], threads = 128,
// H200-LABEL: func @rowsum
// H200: #fuse.lowering_config<schedule = "reduction", tile = [1, 0], threads = 128,
// H200-LABEL: func @attention
// H200: #fuse.lowering_config<schedule = "attention", tile = [1, 16, 32], threads = 64,
// H200-LABEL: func @relu
// H200: #fuse.lowering_config<schedule = "elementwise", tile = [1, 25], threads = 32,

// T4-LABEL: func @gemm
// T4: #fuse.lowering_config<schedule = "contraction", tile = [8, 32], threads = 256,
// T4-LABEL: func @conv
// T4: #fuse.lowering_config<schedule = "convolution", tile = [1, 1, 7, 32], threads = 224,
// T4-LABEL: func @depthwise
// T4: #fuse.lowering_config<schedule = "depthwise", tile = [1, 1, 4, 32, 0, 0], threads = 128,
// T4-LABEL: func @rowsum
// T4: #fuse.lowering_config<schedule = "reduction", tile = [2, 0], threads = 128,
// T4-LABEL: func @attention
// T4: #fuse.lowering_config<schedule = "attention", tile = [1, 16, 32], threads = 64,
// T4-LABEL: func @relu
// T4: #fuse.lowering_config<schedule = "elementwise", tile = [1, 25], threads = 32,

// AGAIN-LABEL: func @depthwise
// AGAIN: #fuse.lowering_config<schedule = "depthwise", tile = [1, 1, 8, 32, 0, 0], threads = 256,
// SIZES-LABEL: func @gemm
// SIZES: tile = [1, 1], threads = 32
// SIZES-LABEL: func @depthwise
// SIZES: tile = [1, 1, 0, 0, 0, 0], threads = 128

// LOWER-LABEL: func @gemm
// LOWER: scf.forall ({{.*}}) = (0, 0) to (64, 256) step (2, 32)
// LOWER-LABEL: func @depthwise
// LOWER: scf.forall ({{.*}}) = (0, 0, 0, 0) to (1, 56, 56, 32) step (1, 1, 4, 32)
// ZERO: error: fuse-configure-groups: option 'threads' must be non-negative (0: the cost model chooses), got -1

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @gemm(%x: tensor<64x256xf32>, %w: tensor<256x256xf32>, %b: tensor<256xf32>) -> tensor<64x256xf32> {
  %r = fuse.group vertical rule "contraction_epilogue" (%a = %x : tensor<64x256xf32>, %ww = %w : tensor<256x256xf32>, %bb = %b : tensor<256xf32>) -> tensor<64x256xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<64x256xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
    %m = linalg.matmul ins(%a, %ww : tensor<64x256xf32>, tensor<256x256xf32>) outs(%f : tensor<64x256xf32>) -> tensor<64x256xf32>
    %0 = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]} ins(%m, %bb : tensor<64x256xf32>, tensor<256xf32>) outs(%e : tensor<64x256xf32>) {
    ^bb0(%in: f32, %c: f32, %o: f32):
      %t = arith.addf %in, %c : f32
      linalg.yield %t : f32
    } -> tensor<64x256xf32>
    fuse.yield %0 : tensor<64x256xf32>
  }
  return %r : tensor<64x256xf32>
}
func.func @conv(%x: tensor<1x9x9x512xf32>, %w: tensor<3x3x512x512xf32>) -> tensor<1x7x7x512xf32> {
  %r = fuse.group vertical rule "contraction_epilogue" (%a = %x : tensor<1x9x9x512xf32>, %ww = %w : tensor<3x3x512x512xf32>) -> tensor<1x7x7x512xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x7x7x512xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x512xf32>) -> tensor<1x7x7x512xf32>
    %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a, %ww : tensor<1x9x9x512xf32>, tensor<3x3x512x512xf32>) outs(%f : tensor<1x7x7x512xf32>) -> tensor<1x7x7x512xf32>
    %0 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x7x7x512xf32>) outs(%e : tensor<1x7x7x512xf32>) {
    ^bb0(%in: f32, %o: f32):
      %t = arith.maximumf %in, %zero : f32
      linalg.yield %t : f32
    } -> tensor<1x7x7x512xf32>
    fuse.yield %0 : tensor<1x7x7x512xf32>
  }
  return %r : tensor<1x7x7x512xf32>
}
func.func @depthwise(%x: tensor<1x58x58x32xf32>, %w: tensor<3x3x32xf32>) -> tensor<1x56x56x32xf32> {
  %r = fuse.group single (%a = %x : tensor<1x58x58x32xf32>, %ww = %w : tensor<3x3x32xf32>) -> tensor<1x56x56x32xf32> attributes {fuse.lowering_config = #fuse.lowering_config<schedule = "depthwise", tile = [1, 1, 4, 32, 0, 0], threads = 128, instruction = "simt", precision = "fp32">} {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x56x56x32xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x56x56x32xf32>) -> tensor<1x56x56x32xf32>
    %c = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a, %ww : tensor<1x58x58x32xf32>, tensor<3x3x32xf32>) outs(%f : tensor<1x56x56x32xf32>) -> tensor<1x56x56x32xf32>
    fuse.yield %c : tensor<1x56x56x32xf32>
  }
  return %r : tensor<1x56x56x32xf32>
}
func.func @rowsum(%x: tensor<128x768xf32>) -> tensor<128xf32> {
  %r = fuse.group single (%a = %x : tensor<128x768xf32>) -> tensor<128xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128xf32>) -> tensor<128xf32>
    %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<128x768xf32>) outs(%f : tensor<128xf32>) {
    ^bb0(%in: f32, %o: f32):
      %t = arith.addf %in, %o : f32
      linalg.yield %t : f32
    } -> tensor<128xf32>
    fuse.yield %s : tensor<128xf32>
  }
  return %r : tensor<128xf32>
}
func.func @attention(%q: tensor<12x128x64xf32>, %k: tensor<12x64x128xf32>) -> tensor<12x128x128xf32> {
  %r = fuse.group composite rule "attention" (%a = %q : tensor<12x128x64xf32>, %b = %k : tensor<12x64x128xf32>) -> tensor<12x128x128xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<12x128x128xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<12x128x128xf32>) -> tensor<12x128x128xf32>
    %s = linalg.batch_matmul ins(%a, %b : tensor<12x128x64xf32>, tensor<12x64x128xf32>) outs(%f : tensor<12x128x128xf32>) -> tensor<12x128x128xf32>
    %eighth = arith.constant 0.125 : f32
    %0 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<12x128x128xf32>) outs(%e : tensor<12x128x128xf32>) {
    ^bb0(%in: f32, %o: f32):
      %t = arith.mulf %in, %eighth : f32
      linalg.yield %t : f32
    } -> tensor<12x128x128xf32>
    fuse.yield %0 : tensor<12x128x128xf32>
  }
  return %r : tensor<12x128x128xf32>
}
func.func @relu(%x: tensor<1x1000xf32>) -> tensor<1x1000xf32> {
  %r = fuse.group single (%a = %x : tensor<1x1000xf32>) -> tensor<1x1000xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x1000xf32>
    %0 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<1x1000xf32>) outs(%e : tensor<1x1000xf32>) {
    ^bb0(%in: f32, %o: f32):
      %t = arith.maximumf %in, %zero : f32
      linalg.yield %t : f32
    } -> tensor<1x1000xf32>
    fuse.yield %0 : tensor<1x1000xf32>
  }
  return %r : tensor<1x1000xf32>
}
