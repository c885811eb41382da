// The tensor-core configuration counts the tile-local buffers the kernel
// will hold besides the staged operand tiles and the output tile: the
// padded input tile of a pad prologue (twice where the tile is a part of
// the padded input: the lowering copies the edge tiles into a static
// buffer) and every epilogue op's intermediate tile. A candidate whose
// buffers do not fit the block's shared memory is not taken, so
// fuse-distribute-threads never falls back (to SIMT, or to one thread per
// block) for want of shared memory. A strided 3x3 convolution with its
// input padded (256 -> 512 channels), and a GEMM with a 5-op epilogue
// (a GELU written out), each split-K. Without the counts both fall back
// (the convolution to one thread per block: 304128 B).
// RUN: fuse-opt %s --fuse-configure-groups=target=h200 | FileCheck %s --check-prefix=CONFIG
// RUN: fuse-opt %s --fuse-configure-groups=target=h200 | fuse-opt --fuse-to-nvptx 2>&1 | FileCheck %s --check-prefix=FIT
// The convolution's tensor-core tiles that fit are predicted slower than
// SIMT; the GEMM keeps tensor cores with a tile whose buffers fit.
// CONFIG-LABEL: func @padded_conv
// CONFIG: schedule = "convolution"
// CONFIG-LABEL: func @gemm_gelu
// CONFIG: instruction = "mma_sync"
// FIT-NOT: remark
// FIT-NOT: does not fit
// FIT: gpu.binary @padded_conv
// FIT-NOT: remark
// FIT: gpu.binary @gemm_gelu
// FIT-NOT: remark

func.func @padded_conv(%x: tensor<1x28x28x256xf32>, %w: tensor<3x3x256x512xf32>) -> tensor<1x14x14x512xf32> {
  %r = fuse.group vertical (%a = %x : tensor<1x28x28x256xf32>, %bw = %w : tensor<3x3x256x512xf32>) -> tensor<1x14x14x512xf32> {
    %zero = arith.constant 0.0 : f32
    %p = tensor.pad %a low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      tensor.yield %zero : f32
    } : tensor<1x28x28x256xf32> to tensor<1x30x30x256xf32>
    %e = tensor.empty() : tensor<1x14x14x512xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x14x14x512xf32>) -> tensor<1x14x14x512xf32>
    %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%p, %bw : tensor<1x30x30x256xf32>, tensor<3x3x256x512xf32>) outs(%f : tensor<1x14x14x512xf32>) -> tensor<1x14x14x512xf32>
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x14x14x512xf32>) outs(%e : tensor<1x14x14x512xf32>) {
    ^bb0(%in: f32, %o: f32):
      %t = arith.maximumf %in, %zero : f32
      linalg.yield %t : f32
    } -> tensor<1x14x14x512xf32>
    fuse.yield %0 : tensor<1x14x14x512xf32>
  }
  return %r : tensor<1x14x14x512xf32>
}

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @gemm_gelu(%x: tensor<128x768xf32>, %w: tensor<768x3072xf32>, %b: tensor<3072xf32>) -> tensor<128x3072xf32> {
  %r = fuse.group vertical (%a = %x : tensor<128x768xf32>, %bw = %w : tensor<768x3072xf32>, %bb = %b : tensor<3072xf32>) -> tensor<128x3072xf32> {
    %zero = arith.constant 0.0 : f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %rs = arith.constant 0.707106769 : f32
    %e = tensor.empty() : tensor<128x3072xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x3072xf32>) -> tensor<128x3072xf32>
    %m = linalg.matmul ins(%a, %bw : tensor<128x768xf32>, tensor<768x3072xf32>) outs(%f : tensor<128x3072xf32>) -> tensor<128x3072xf32>
    %0 = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d1)>, #id], iterator_types = ["parallel", "parallel"]} ins(%m, %bb : tensor<128x3072xf32>, tensor<3072xf32>) outs(%e : tensor<128x3072xf32>) {
    ^bb0(%in: f32, %c: f32, %o: f32):
      %t = arith.addf %in, %c : f32
      linalg.yield %t : f32
    } -> tensor<128x3072xf32>
    %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<128x3072xf32>) outs(%e : tensor<128x3072xf32>) {
    ^bb0(%in: f32, %o: f32):
      %t = arith.mulf %in, %rs : f32
      linalg.yield %t : f32
    } -> tensor<128x3072xf32>
    %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<128x3072xf32>) outs(%e : tensor<128x3072xf32>) {
    ^bb0(%in: f32, %o: f32):
      %t = math.erf %in : f32
      linalg.yield %t : f32
    } -> tensor<128x3072xf32>
    %3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<128x3072xf32>) outs(%e : tensor<128x3072xf32>) {
    ^bb0(%in: f32, %o: f32):
      %t = arith.addf %in, %one : f32
      linalg.yield %t : f32
    } -> tensor<128x3072xf32>
    %4 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%0, %3 : tensor<128x3072xf32>, tensor<128x3072xf32>) outs(%e : tensor<128x3072xf32>) {
    ^bb0(%in: f32, %g: f32, %o: f32):
      %t = arith.mulf %in, %g : f32
      %u = arith.mulf %t, %half : f32
      linalg.yield %u : f32
    } -> tensor<128x3072xf32>
    fuse.yield %4 : tensor<128x3072xf32>
  }
  return %r : tensor<128x3072xf32>
}
