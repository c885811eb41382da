// The CPU target's vector micro-kernels (fuse-to-cpu vectorize, on by
// default): every contraction of the fused build computes with vector FMAs
// on accumulators in registers, and equals the unfused reference, which
// keeps plain loops (fuse.no_vectorize), element by element.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200" | fuse-opt --fuse-to-cpu | FileCheck %s --check-prefix=LLVM
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200" | fuse-opt --fuse-to-cpu="vectorize=false" | FileCheck %s --check-prefix=LOOPS
// RUN: %check_equivalence %s --function gemm_bias_relu | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function conv_bn_relu | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function conv_stride2 | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function depthwise | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function batch_odd | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function one_channel | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function prime_width | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function long_reduction | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function long_conv | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function pad_max_pool | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function avg_pool | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function gemm_residual_tanh | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function conv_two_uses | FileCheck %s --check-prefix=EXEC
// RUN: env FUSE_NUM_THREADS=1 %check_equivalence %s --function packed_panel | FileCheck %s --check-prefix=EXEC
// RUN: env FUSE_NUM_THREADS=2 %check_equivalence %s --function packed_panel | FileCheck %s --check-prefix=EXEC

// LLVM: llvm.intr.fmuladd({{.*}}) : (vector<32xf32>, vector<32xf32>, vector<32xf32>) -> vector<32xf32>
// LOOPS-NOT: llvm.intr.fmuladd({{.*}}vector<32xf32>
// EXEC: PASS
// EXEC-NOT: FAIL

// GEMM + bias + ReLU (a classifier layer, a transformer's projection).
func.func @gemm_bias_relu(%x: tensor<24x96xf32>, %b: tensor<96xf32>) -> tensor<24x64xf32> {
  %w = arith.constant dense<0.03125> : tensor<96x64xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<24x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<24x64xf32>) -> tensor<24x64xf32>
  %s = tensor.extract_slice %b[0] [64] [1] : tensor<96xf32> to tensor<64xf32>
  %m = linalg.matmul ins(%x, %w : tensor<24x96xf32>, tensor<96x64xf32>) outs(%f : tensor<24x64xf32>) -> tensor<24x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m, %s : tensor<24x64xf32>, tensor<64xf32>) outs(%e : tensor<24x64xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %t = arith.addf %a, %c : f32
    %u = arith.maximumf %t, %zero : f32
    linalg.yield %u : f32
  } -> tensor<24x64xf32>
  return %r : tensor<24x64xf32>
}

// A padded 3x3 convolution with a bias, a per-channel scale and ReLU: the
// filter is an argument in [KH, KW, C, F] order.
func.func @conv_bn_relu(%x: tensor<1x12x12x16xf32>, %w: tensor<3x3x16x32xf32>, %bias: tensor<32xf32>, %scale: tensor<32xf32>) -> tensor<1x12x12x32xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x12x12x16xf32> to tensor<1x14x14x16xf32>
  %e = tensor.empty() : tensor<1x12x12x32xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bias : tensor<32xf32>) outs(%e : tensor<1x12x12x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x12x12x32xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x14x14x16xf32>, tensor<3x3x16x32xf32>) outs(%b : tensor<1x12x12x32xf32>) -> tensor<1x12x12x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %scale : tensor<1x12x12x32xf32>, tensor<32xf32>) outs(%e : tensor<1x12x12x32xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %t = arith.mulf %a, %s : f32
    %u = arith.maximumf %t, %zero : f32
    linalg.yield %u : f32
  } -> tensor<1x12x12x32xf32>
  return %r : tensor<1x12x12x32xf32>
}

// Stride 2 and a width (7) that no register tile of 8 divides.
func.func @conv_stride2(%x: tensor<1x15x15x8xf32>, %w: tensor<3x3x8x24xf32>) -> tensor<1x7x7x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x7x7x24xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x24xf32>) -> tensor<1x7x7x24xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x15x15x8xf32>, tensor<3x3x8x24xf32>) outs(%f : tensor<1x7x7x24xf32>) -> tensor<1x7x7x24xf32>
  return %c : tensor<1x7x7x24xf32>
}

// A depthwise convolution (MobileNet's), then ReLU6.
func.func @depthwise(%x: tensor<1x10x10x48xf32>, %w: tensor<3x3x48xf32>) -> tensor<1x8x8x48xf32> {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %e = tensor.empty() : tensor<1x8x8x48xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x48xf32>) -> tensor<1x8x8x48xf32>
  %c = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x10x10x48xf32>, tensor<3x3x48xf32>) outs(%f : tensor<1x8x8x48xf32>) -> tensor<1x8x8x48xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<1x8x8x48xf32>) outs(%e : tensor<1x8x8x48xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.maximumf %a, %zero : f32
    %u = arith.minimumf %t, %six : f32
    linalg.yield %u : f32
  } -> tensor<1x8x8x48xf32>
  return %r : tensor<1x8x8x48xf32>
}

// A batch of products whose extents 8, 32 and 4 do not divide.
func.func @batch_odd(%a: tensor<3x13x9xf32>, %b: tensor<3x9x20xf32>) -> tensor<3x13x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x13x20xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x13x20xf32>) -> tensor<3x13x20xf32>
  %m = linalg.batch_matmul ins(%a, %b : tensor<3x13x9xf32>, tensor<3x9x20xf32>) outs(%f : tensor<3x13x20xf32>) -> tensor<3x13x20xf32>
  return %m : tensor<3x13x20xf32>
}

// One input channel, and a width of 13 (a register tile of one point):
// the tiles keep their loops (a 2-D slice of them would drop a unit
// dimension ambiguously) and still compute the same.
func.func @one_channel(%x: tensor<1x11x11x1xf32>, %w: tensor<3x3x1x8xf32>, %v: tensor<3x3x8x4xf32>) -> tensor<1x3x3x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x5x5x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x5x8xf32>) -> tensor<1x5x5x8xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x11x11x1xf32>, tensor<3x3x1x8xf32>) outs(%f : tensor<1x5x5x8xf32>) -> tensor<1x5x5x8xf32>
  %e2 = tensor.empty() : tensor<1x3x3x4xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  %d = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%c, %v : tensor<1x5x5x8xf32>, tensor<3x3x8x4xf32>) outs(%f2 : tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  return %d : tensor<1x3x3x4xf32>
}
func.func @prime_width(%x: tensor<1x15x15x8xf32>, %w: tensor<3x3x8x16xf32>) -> tensor<1x13x13x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x13x13x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x13x13x16xf32>) -> tensor<1x13x13x16xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x15x15x8xf32>, tensor<3x3x8x16xf32>) outs(%f : tensor<1x13x13x16xf32>) -> tensor<1x13x13x16xf32>
  return %c : tensor<1x13x13x16xf32>
}

// Long reductions run in cache blocks (their column panels exceed
// fuse-cpu-vectorize's panel-bytes): the bias initialises the output once,
// before the blocks, and each block's register tiles accumulate onto it.
func.func @long_reduction(%x: tensor<8x2304xf32>, %w: tensor<2304x64xf32>, %bias: tensor<64xf32>) -> tensor<8x64xf32> {
  %e = tensor.empty() : tensor<8x64xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%bias : tensor<64xf32>) outs(%e : tensor<8x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<8x64xf32>
  %m = linalg.matmul ins(%x, %w : tensor<8x2304xf32>, tensor<2304x64xf32>) outs(%b : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %m : tensor<8x64xf32>
}
func.func @long_conv(%x: tensor<1x4x4x256xf32>, %w: tensor<3x3x256x32xf32>) -> tensor<1x2x2x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x2x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x2x32xf32>) -> tensor<1x2x2x32xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x4x4x256xf32>, tensor<3x3x256x32xf32>) outs(%f : tensor<1x2x2x32xf32>) -> tensor<1x2x2x32xf32>
  return %c : tensor<1x2x2x32xf32>
}

// A padded 3x3 max pool (an Inception branch's, fused with its pad) and a
// stride-2 average pool: vectors of channels, against plain loops.
func.func @pad_max_pool(%x: tensor<1x14x14x48xf32>) -> tensor<1x14x14x48xf32> {
  %min = arith.constant -3.40282347E+38 : f32
  %padded = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %min : f32
  } : tensor<1x14x14x48xf32> to tensor<1x16x16x48xf32>
  %e = tensor.empty() : tensor<1x14x14x48xf32>
  %f = linalg.fill ins(%min : f32) outs(%e : tensor<1x14x14x48xf32>) -> tensor<1x14x14x48xf32>
  %w = tensor.empty() : tensor<3x3xf32>
  %p = linalg.pooling_nhwc_max {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%padded, %w : tensor<1x16x16x48xf32>, tensor<3x3xf32>) outs(%f : tensor<1x14x14x48xf32>) -> tensor<1x14x14x48xf32>
  return %p : tensor<1x14x14x48xf32>
}

func.func @avg_pool(%x: tensor<1x12x12x40xf32>) -> tensor<1x6x6x40xf32> {
  %zero = arith.constant 0.0 : f32
  %ninth = arith.constant 0.25 : f32
  %e = tensor.empty() : tensor<1x6x6x40xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x6x40xf32>) -> tensor<1x6x6x40xf32>
  %w = tensor.empty() : tensor<2x2xf32>
  %s = linalg.pooling_nhwc_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%x, %w : tensor<1x12x12x40xf32>, tensor<2x2xf32>) outs(%f : tensor<1x6x6x40xf32>) -> tensor<1x6x6x40xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x6x6x40xf32>) outs(%e : tensor<1x6x6x40xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %ninth : f32
    linalg.yield %m : f32
  } -> tensor<1x6x6x40xf32>
  return %a : tensor<1x6x6x40xf32>
}

// GEMM + bias + residual + tanh: a three-op epilogue with other inputs,
// computed on the accumulators of each register tile.
func.func @gemm_residual_tanh(%x: tensor<32x64xf32>, %w: tensor<64x48xf32>, %b: tensor<48xf32>, %res: tensor<32x48xf32>) -> tensor<32x48xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x48xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<32x48xf32>) -> tensor<32x48xf32>
  %m = linalg.matmul ins(%x, %w : tensor<32x64xf32>, tensor<64x48xf32>) outs(%f : tensor<32x48xf32>) -> tensor<32x48xf32>
  %biased = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%m, %b : tensor<32x48xf32>, tensor<48xf32>) outs(%e : tensor<32x48xf32>) {
  ^bb0(%v: f32, %bv: f32, %o: f32):
    %s = arith.addf %v, %bv : f32
    linalg.yield %s : f32
  } -> tensor<32x48xf32>
  %added = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%biased, %res : tensor<32x48xf32>, tensor<32x48xf32>) outs(%e : tensor<32x48xf32>) {
  ^bb0(%v: f32, %r: f32, %o: f32):
    %s = arith.addf %v, %r : f32
    linalg.yield %s : f32
  } -> tensor<32x48xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%added : tensor<32x48xf32>) outs(%e : tensor<32x48xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = math.tanh %v : f32
    linalg.yield %y : f32
  } -> tensor<32x48xf32>
  return %t : tensor<32x48xf32>
}

// A convolution whose result is returned and also feeds a ReLU: stored,
// then read by the ReLU's own pass.
func.func @conv_two_uses(%x: tensor<1x10x10x16xf32>, %w: tensor<3x3x16x32xf32>) -> (tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x10x10x16xf32>, tensor<3x3x16x32xf32>) outs(%f : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x8x8x32xf32>) outs(%e : tensor<1x8x8x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x8x32xf32>
  return %c, %r : tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>
}

// A product whose weights' column panels (256 x 32 x 4 B = 32 KiB, rows 256
// columns apart, 8 column blocks) are packed into contiguous copies, with a
// bias and tanh (of an eighth of the sum) on the accumulators; with one
// thread and with its column blocks over two threads (each packs its own
// panels).
func.func @packed_panel(%x: tensor<40x256xf32>, %w: tensor<256x256xf32>, %bias: tensor<256xf32>) -> tensor<40x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<40x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<40x256xf32>) -> tensor<40x256xf32>
  %m = linalg.matmul ins(%x, %w : tensor<40x256xf32>, tensor<256x256xf32>) outs(%f : tensor<40x256xf32>) -> tensor<40x256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<40x256xf32>, tensor<256xf32>) outs(%e : tensor<40x256xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %eighth = arith.constant 0.125 : f32
    %t = arith.addf %a, %c : f32
    %v = arith.mulf %t, %eighth : f32
    %u = math.tanh %v : f32
    linalg.yield %u : f32
  } -> tensor<40x256xf32>
  return %r : tensor<40x256xf32>
}
