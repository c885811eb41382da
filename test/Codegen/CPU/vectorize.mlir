// fuse-cpu-vectorize: contractions as loops over MR x NR register tiles
// whose reduction runs on vector accumulators (hoisted out of the
// reduction loops); what does not qualify keeps its op.
// RUN: fuse-opt %s --split-input-file --fuse-cpu-vectorize --canonicalize --cse | FileCheck %s
// RUN: fuse-opt %s --split-input-file --fuse-cpu-vectorize="mr=4 nr=16 kc=1" --canonicalize --cse | FileCheck %s --check-prefix=SMALL
// RUN: fuse-opt %s --split-input-file --fuse-cpu-vectorize="panel-bytes=0" --canonicalize --cse | FileCheck %s --check-prefix=NOBLOCK
// RUN: not fuse-opt %s --split-input-file --fuse-cpu-vectorize="mr=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPTION

// OPTION: fuse-cpu-vectorize: options 'mr', 'nr' and 'kc' must be at least 1 and 'panel-bytes' at least 0 (-1: from the CPU target), got 0, -1, -1 and -1

// A matrix product with a zero fill: column blocks of 32 outside, row
// blocks of 8 inside, the K loop by 4 on an 8x32 accumulator that starts
// at zero (the fill is computed per tile, in registers).
// CHECK-LABEL: func.func @matmul
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<8x32xf32>
// CHECK: scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step %[[C32]]
// Its column panel (64 x 32 x 4 B = 8 KiB) fits in L1 as it is: not packed.
// CHECK-NOT: tensor.empty
// CHECK: scf.for %[[M:.*]] = %{{.*}} to %{{.*}} step %[[C8]]
// CHECK: scf.for {{.*}} step %[[C4]] iter_args(%[[A:.*]] = %[[ZERO]]) -> (vector<8x32xf32>)
// CHECK: vector.transfer_read {{.*}} vector<8x4xf32>
// CHECK: vector.transfer_read {{.*}} vector<4x32xf32>
// CHECK: vector.contract {{.*}} %[[A]] : vector<8x4xf32>, vector<4x32xf32> into vector<8x32xf32>
// CHECK-NOT: linalg.matmul
// SMALL-LABEL: func.func @matmul
// SMALL: vector.contract {{.*}} : vector<4x1xf32>, vector<1x16xf32> into vector<4x16xf32>
func.func @matmul(%a: tensor<16x64xf32>, %b: tensor<64x64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %m = linalg.matmul ins(%a, %b : tensor<16x64xf32>, tensor<64x64xf32>) outs(%f : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %m : tensor<16x64xf32>
}

// -----

// Extents that 8, 32 and 4 do not divide: rows and the reduction by their
// largest divisors below; the columns (24) by 8, the largest power of two
// that divides them (no multiple of 16 does): a tile 24 wide lowers to
// vectors of odd length, many times slower.
// CHECK-LABEL: func.func @odd_sizes
// CHECK: vector.contract {{.*}} : vector<7x3xf32>, vector<3x8xf32> into vector<7x8xf32>
func.func @odd_sizes(%a: tensor<21x9xf32>, %b: tensor<9x24xf32>, %c: tensor<21x24xf32>) -> tensor<21x24xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<21x9xf32>, tensor<9x24xf32>) outs(%c : tensor<21x24xf32>) -> tensor<21x24xf32>
  return %m : tensor<21x24xf32>
}

// -----

// A convolution (filter [KH, KW, C, F]) with a broadcast bias as its
// initial value: one output row of 8 points by 32 channels a tile, the
// bias broadcast into the accumulators, window and channel loops inside.
// CHECK-LABEL: func.func @conv
// CHECK: scf.for
// CHECK: %[[BIAS:.*]] = vector.transfer_read {{.*}} : tensor<32xf32>, vector<32xf32>
// CHECK: vector.broadcast %[[BIAS]] : vector<32xf32> to vector<8x32xf32>
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<8x32xf32>)
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<8x32xf32>)
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<8x32xf32>)
// CHECK: vector.contract {{.*}} : vector<8x4xf32>, vector<4x32xf32> into vector<8x32xf32>
// CHECK-NOT: linalg.conv
func.func @conv(%x: tensor<1x10x10x16xf32>, %w: tensor<3x3x16x32xf32>, %bias: tensor<32xf32>) -> tensor<1x8x8x32xf32> {
  %e = tensor.empty() : tensor<1x8x8x32xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bias : tensor<32xf32>) outs(%e : tensor<1x8x8x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x8x32xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x10x10x16xf32>, tensor<3x3x16x32xf32>) outs(%b : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  return %c : tensor<1x8x8x32xf32>
}

// -----

// Stride 2: the tile's input is a slice with every other point.
// CHECK-LABEL: func.func @conv_stride2
// CHECK: tensor.extract_slice {{.*}} [1, 1, 2, 1] : tensor<1x1x7x4xf32> to tensor<4x4xf32>
// CHECK: vector.contract {{.*}} : vector<4x4xf32>, vector<4x16xf32> into vector<4x16xf32>
func.func @conv_stride2(%x: tensor<1x9x9x8xf32>, %w: tensor<3x3x8x16xf32>, %o: tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> {
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x9x9x8xf32>, tensor<3x3x8x16xf32>) outs(%o : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  return %c : tensor<1x4x4x16xf32>
}

// -----

// A depthwise convolution: a fused multiply-add per window element on
// vectors of channels.
// CHECK-LABEL: func.func @depthwise
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<8x32xf32>)
// CHECK: math.fma {{.*}} : vector<8x32xf32>
// CHECK-NOT: linalg.depthwise
func.func @depthwise(%x: tensor<1x10x10x32xf32>, %w: tensor<3x3x32xf32>, %o: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  %c = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x10x10x32xf32>, tensor<3x3x32xf32>) outs(%o : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  return %c : tensor<1x8x8x32xf32>
}

// -----

// 144 channels (MobileNetV2): tiles of 16, whole vector registers, not 24
// (the largest divisor up to 32).
// CHECK-LABEL: func.func @depthwise_144
// CHECK: math.fma {{.*}} : vector<8x16xf32>
func.func @depthwise_144(%x: tensor<1x10x10x144xf32>, %w: tensor<3x3x144xf32>, %o: tensor<1x8x8x144xf32>) -> tensor<1x8x8x144xf32> {
  %c = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x10x10x144xf32>, tensor<3x3x144xf32>) outs(%o : tensor<1x8x8x144xf32>) -> tensor<1x8x8x144xf32>
  return %c : tensor<1x8x8x144xf32>
}

// -----

// Pooling (max, and sum as in an average pool): the pooling's own combiner
// per window element on vectors of channels, the accumulators starting from
// the fill in registers; stride 2 reads a strided slice.
// CHECK-LABEL: func.func @max_pool
// CHECK: arith.constant dense<-3.40282347E+38> : vector<4x32xf32>
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<4x32xf32>)
// CHECK: arith.maximumf {{.*}} : vector<4x32xf32>
// CHECK-NOT: linalg.pooling
func.func @max_pool(%x: tensor<1x9x9x64xf32>) -> tensor<1x4x4x64xf32> {
  %min = arith.constant -3.40282347E+38 : f32
  %e = tensor.empty() : tensor<1x4x4x64xf32>
  %f = linalg.fill ins(%min : f32) outs(%e : tensor<1x4x4x64xf32>) -> tensor<1x4x4x64xf32>
  %w = tensor.empty() : tensor<3x3xf32>
  %p = linalg.pooling_nhwc_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%x, %w : tensor<1x9x9x64xf32>, tensor<3x3xf32>) outs(%f : tensor<1x4x4x64xf32>) -> tensor<1x4x4x64xf32>
  return %p : tensor<1x4x4x64xf32>
}
// CHECK-LABEL: func.func @sum_pool
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<8x32xf32>)
// CHECK: arith.addf {{.*}} : vector<8x32xf32>
// CHECK-NOT: linalg.pooling
func.func @sum_pool(%x: tensor<1x10x10x32xf32>, %o: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  %w = tensor.empty() : tensor<3x3xf32>
  %p = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x10x10x32xf32>, tensor<3x3xf32>) outs(%o : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  return %p : tensor<1x8x8x32xf32>
}

// -----

// A batch of products: one batch point a tile.
// CHECK-LABEL: func.func @batch_matmul
// CHECK: vector.contract {{.*}} : vector<8x4xf32>, vector<4x32xf32> into vector<8x32xf32>
func.func @batch_matmul(%a: tensor<4x16x32xf32>, %b: tensor<4x32x64xf32>, %c: tensor<4x16x64xf32>) -> tensor<4x16x64xf32> {
  %m = linalg.batch_matmul ins(%a, %b : tensor<4x16x32xf32>, tensor<4x32x64xf32>) outs(%c : tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
  return %m : tensor<4x16x64xf32>
}

// -----

// A product written as a linalg.generic (B transposed: its rows are the
// output's columns).
// CHECK-LABEL: func.func @generic_transposed_b
// CHECK: vector.contract {{.*}} into vector<8x32xf32>
// CHECK-NOT: linalg.generic
func.func @generic_transposed_b(%a: tensor<16x64xf32>, %b: tensor<64x64xf32>, %c: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %m = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<16x64xf32>, tensor<64x64xf32>) outs(%c : tensor<16x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<16x64xf32>
  return %m : tensor<16x64xf32>
}

// -----

// Left as they are: dynamic shapes, other element types, a filter in
// [F, KH, KW, C] order, a dilated window beyond 1x1 is still a window
// (tiled by 1: fine), and a function marked fuse.no_vectorize.
// CHECK-LABEL: func.func @dynamic
// CHECK: linalg.matmul
func.func @dynamic(%a: tensor<?x64xf32>, %b: tensor<64x64xf32>, %c: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<?x64xf32>, tensor<64x64xf32>) outs(%c : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %m : tensor<?x64xf32>
}
// CHECK-LABEL: func.func @f16
// CHECK: linalg.matmul
func.func @f16(%a: tensor<16x64xf16>, %b: tensor<64x64xf16>, %c: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %m = linalg.matmul ins(%a, %b : tensor<16x64xf16>, tensor<64x64xf16>) outs(%c : tensor<16x64xf16>) -> tensor<16x64xf16>
  return %m : tensor<16x64xf16>
}
// CHECK-LABEL: func.func @fhwc
// CHECK: linalg.conv_2d_nhwc_fhwc
func.func @fhwc(%x: tensor<1x10x10x16xf32>, %w: tensor<32x3x3x16xf32>, %o: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  %c = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x10x10x16xf32>, tensor<32x3x3x16xf32>) outs(%o : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  return %c : tensor<1x8x8x32xf32>
}
// CHECK-LABEL: func.func @reference
// CHECK: linalg.matmul
func.func @reference(%a: tensor<16x64xf32>, %b: tensor<64x64xf32>, %c: tensor<16x64xf32>) -> tensor<16x64xf32> attributes {fuse.no_vectorize} {
  %m = linalg.matmul ins(%a, %b : tensor<16x64xf32>, tensor<64x64xf32>) outs(%c : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %m : tensor<16x64xf32>
}

// -----

// A long reduction (its column panel 4096 x 32 x 4 B = 512 KiB, over
// panel-bytes): blocks of 256 (32 KiB of panel) are the outermost loop,
// carrying the whole output; the zero fill runs once, before them, and
// each register tile reads its accumulators back.
// CHECK-LABEL: func.func @long_reduction
// CHECK: %[[FILL:.*]] = linalg.fill
// CHECK: scf.for {{.*}} step %c256 iter_args({{.*}} = %[[FILL]]) -> (tensor<16x64xf32>)
// CHECK: scf.for {{.*}} step %c32
// CHECK: scf.for {{.*}} step %c8
// CHECK: vector.transfer_read {{.*}} : tensor<8x32xf32>, vector<8x32xf32>
// CHECK: scf.for {{.*}} step %c4 {{.*}} -> (vector<8x32xf32>)
// NOBLOCK-LABEL: func.func @long_reduction
// NOBLOCK-NOT: step %c256
// NOBLOCK: scf.for {{.*}} step %c4 {{.*}} -> (vector<8x32xf32>)
func.func @long_reduction(%a: tensor<16x4096xf32>, %b: tensor<4096x64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %m = linalg.matmul ins(%a, %b : tensor<16x4096xf32>, tensor<4096x64xf32>) outs(%f : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %m : tensor<16x64xf32>
}

// -----

// A column panel of 256 x 32 x 4 B = 32 KiB whose rows are 256 columns
// apart in the weights is copied once per column block (8 of them) into a
// contiguous 256x32 tensor (a row at a time, one 32-wide vector each),
// which every row tile then reads: consecutive cache lines instead of rows
// a source row apart (in BERT's 3072-wide weights, 12 KiB: all in the same
// cache sets).
// CHECK-LABEL: func.func @packed_panel
// CHECK: scf.for %[[N:.*]] = {{.*}} step %c32 iter_args
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<256x32xf32>
// CHECK: %[[PANEL:.*]] = scf.for %[[K:.*]] = {{.*}} step %c1 iter_args(%{{.*}} = %[[EMPTY]]) -> (tensor<256x32xf32>)
// CHECK: vector.transfer_read %{{.*}}[%[[K]], %[[N]]]{{.*}} : tensor<256x256xf32>, vector<32xf32>
// CHECK: vector.transfer_write {{.*}} : vector<32xf32>, tensor<1x32xf32>
// CHECK: scf.for {{.*}} step %c8
// CHECK: scf.for {{.*}} step %c4
// CHECK: vector.transfer_read %[[PANEL]]{{.*}} : tensor<256x32xf32>, vector<4x32xf32>
// CHECK-NOT: tensor<256x256xf32>, vector<4x32xf32>
func.func @packed_panel(%a: tensor<16x256xf32>, %b: tensor<256x256xf32>) -> tensor<16x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x256xf32>) -> tensor<16x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<16x256xf32>, tensor<256x256xf32>) outs(%f : tensor<16x256xf32>) -> tensor<16x256xf32>
  return %r : tensor<16x256xf32>
}

// -----

// The same panels with 4 column blocks: a packed column block is one task
// for the threads (its copy before all its rows), so few blocks keep their
// rows as tasks and read the weights directly.
// CHECK-LABEL: func.func @few_column_blocks
// CHECK-NOT: tensor.empty() : tensor<256x32xf32>
// CHECK: vector.transfer_read %{{.*}} : tensor<256x128xf32>, vector<4x32xf32>
func.func @few_column_blocks(%a: tensor<16x256xf32>, %b: tensor<256x128xf32>) -> tensor<16x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x128xf32>) -> tensor<16x128xf32>
  %r = linalg.matmul ins(%a, %b : tensor<16x256xf32>, tensor<256x128xf32>) outs(%f : tensor<16x128xf32>) -> tensor<16x128xf32>
  return %r : tensor<16x128xf32>
}

// -----

// Weights given as [N, K] (a transposed operand): a column block's panel,
// 32 rows of 256, is already contiguous; the tiles read it directly.
// CHECK-LABEL: func.func @contiguous_panel
// CHECK-NOT: tensor.empty() : tensor<
// CHECK: vector.transfer_read %{{.*}} : tensor<256x256xf32>, vector<32x4xf32>
func.func @contiguous_panel(%a: tensor<16x256xf32>, %bt: tensor<256x256xf32>, %c: tensor<16x256xf32>) -> tensor<16x256xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %bt : tensor<16x256xf32>, tensor<256x256xf32>) outs(%c : tensor<16x256xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %q = arith.addf %o, %p : f32
    linalg.yield %q : f32
  } -> tensor<16x256xf32>
  return %r : tensor<16x256xf32>
}

// -----

// A long reduction over 8 column blocks: each block's panel (256 x 32 x 4
// B = 32 KiB, rows 256 columns apart) is packed, per column block.
// CHECK-LABEL: func.func @long_reduction_packed
// CHECK: scf.for {{.*}} step %c256 iter_args
// CHECK: scf.for {{.*}} step %c32
// CHECK: %[[BEMPTY:.*]] = tensor.empty() : tensor<256x32xf32>
// CHECK: %[[BPANEL:.*]] = scf.for {{.*}} step %c1 iter_args(%{{.*}} = %[[BEMPTY]]) -> (tensor<256x32xf32>)
// CHECK: vector.transfer_read {{.*}} : tensor<4096x256xf32>, vector<32xf32>
// CHECK: scf.for {{.*}} step %c8
// CHECK: scf.for {{.*}} step %c4 {{.*}} -> (vector<8x32xf32>)
// CHECK: vector.transfer_read %[[BPANEL]]{{.*}} : tensor<256x32xf32>, vector<4x32xf32>
func.func @long_reduction_packed(%a: tensor<16x4096xf32>, %b: tensor<4096x256xf32>) -> tensor<16x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x256xf32>) -> tensor<16x256xf32>
  %m = linalg.matmul ins(%a, %b : tensor<16x4096xf32>, tensor<4096x256xf32>) outs(%f : tensor<16x256xf32>) -> tensor<16x256xf32>
  return %m : tensor<16x256xf32>
}

// -----

// A row reduction (a softmax's sum) is no product: it keeps its op and
// lowers to a loop LLVM vectorizes along the contiguous dimension.
// CHECK-LABEL: func.func @row_sum
// CHECK: linalg.reduce
// CHECK-NOT: vector.
func.func @row_sum(%x: tensor<12x128x128xf32>, %o: tensor<12x128xf32>) -> tensor<12x128xf32> {
  %r = linalg.reduce ins(%x : tensor<12x128x128xf32>) outs(%o : tensor<12x128xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<12x128xf32>
}

// -----

// Constant weights: each column panel is packed at compile time, whatever
// its size or the number of column blocks. The constant becomes its two
// 64 x 32 panels one after the other ([1, 2] tiles of [64, 32]), the tiles read their column block's
// panel (no copy at run time), and the function records the re-layout.
// CHECK-LABEL: func.func @constant_panels
// CHECK-SAME: fuse.relayouts = [{bytes = 16384 : i64, from = "64x64", op = "linalg.matmul@{{.*}}", to = "1x2x64x32"}, {bytes = 12288 : i64, from = "64x48", op = "linalg.matmul@{{.*}}", to = "1x3x64x16"}]
// CHECK-DAG: %[[PANELS:.*]] = arith.constant dense<{{.*}}> : tensor<1x2x64x32xf32>
// CHECK-DAG: %[[NARROW:.*]] = arith.constant dense<{{.*}}> : tensor<1x3x64x16xf32>
// CHECK-NOT: tensor<64x64xf32>
// CHECK: scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step %c32
// CHECK-NOT: tensor.empty
// CHECK: scf.for {{.*}} step %c8
// CHECK: scf.for %[[K:.*]] = {{.*}} step %c4
// CHECK: %[[BLOCK:.*]] = affine.apply #{{.*}}()[%[[N]]]
// CHECK: vector.transfer_read %[[PANELS]][%c0, %[[BLOCK]], %[[K]], %c0]{{.*}} : tensor<1x2x64x32xf32>, vector<4x32xf32>
// The second product's panels: 16 columns (its extent's divisor).
// CHECK: vector.transfer_read %[[NARROW]]{{.*}} : tensor<1x3x64x16xf32>, vector<4x16xf32>
// SMALL-LABEL: func.func @constant_panels
// SMALL: arith.constant dense<{{.*}}> : tensor<1x4x64x16xf32>
// NOBLOCK-LABEL: func.func @constant_panels
// NOBLOCK: arith.constant dense<{{.*}}> : tensor<1x2x64x32xf32>
func.func @constant_panels(%a: tensor<16x64xf32>) -> (tensor<16x64xf32>, tensor<16x48xf32>) {
  %w = arith.constant dense<0.25> : tensor<64x64xf32>
  %v = arith.constant dense<0.125> : tensor<64x48xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %r = linalg.matmul ins(%a, %w : tensor<16x64xf32>, tensor<64x64xf32>) outs(%f : tensor<16x64xf32>) -> tensor<16x64xf32>
  %e2 = tensor.empty() : tensor<16x48xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x48xf32>) -> tensor<16x48xf32>
  %s = linalg.matmul ins(%a, %v : tensor<16x64xf32>, tensor<64x48xf32>) outs(%f2 : tensor<16x48xf32>) -> tensor<16x48xf32>
  return %r, %s : tensor<16x64xf32>, tensor<16x48xf32>
}

// -----

// Constant weights under cache blocks: a block's panel is a tile of the
// reduction and the column dimensions, so the constant becomes
// [K blocks][column blocks][256][32], and the tiles of one block read one
// contiguous panel.
// CHECK-LABEL: func.func @constant_blocked_panels
// CHECK-SAME: fuse.relayouts = [{bytes = 1048576 : i64, from = "4096x64", op = "linalg.matmul@{{.*}}", to = "16x2x256x32"}]
// CHECK: %[[PANELS:.*]] = arith.constant dense<{{.*}}> : tensor<16x2x256x32xf32>
// CHECK: scf.for %[[KB:.*]] = {{.*}} step %c256 iter_args
// CHECK: scf.for %[[N:.*]] = {{.*}} step %c32
// CHECK-NOT: tensor.empty
// CHECK: scf.for {{.*}} step %c8
// CHECK: scf.for %[[K:.*]] = {{.*}} step %c4 {{.*}} -> (vector<8x32xf32>)
// CHECK-DAG: %[[KI:.*]] = affine.apply #{{.*}}()[%[[KB]]]
// CHECK-DAG: %[[NI:.*]] = affine.apply #{{.*}}()[%[[N]]]
// CHECK: vector.transfer_read %[[PANELS]][%[[KI]], %[[NI]], %[[K]], %c0]{{.*}} : tensor<16x2x256x32xf32>, vector<4x32xf32>
func.func @constant_blocked_panels(%a: tensor<16x4096xf32>) -> tensor<16x64xf32> {
  %w = arith.constant dense<0.25> : tensor<4096x64xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %m = linalg.matmul ins(%a, %w : tensor<16x4096xf32>, tensor<4096x64xf32>) outs(%f : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %m : tensor<16x64xf32>
}

// -----

// A constant filter ([KH, KW, C, F]): its panels, 3x3x16 x 32 output
// channels each, are packed the same way.
// CHECK-LABEL: func.func @constant_filter
// CHECK-SAME: fuse.relayouts = [{bytes = 36864 : i64, from = "3x3x16x64", op = "linalg.conv_2d_nhwc_hwcf@{{.*}}", to = "1x1x1x2x3x3x16x32"}]
// CHECK: arith.constant dense<{{.*}}> : tensor<1x1x1x2x3x3x16x32xf32>
// CHECK-NOT: tensor<3x3x16x64xf32>
func.func @constant_filter(%x: tensor<1x10x10x16xf32>) -> tensor<1x8x8x64xf32> {
  %w = arith.constant dense<0.5> : tensor<3x3x16x64xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x64xf32>) -> tensor<1x8x8x64xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x10x10x16xf32>, tensor<3x3x16x64xf32>) outs(%f : tensor<1x8x8x64xf32>) -> tensor<1x8x8x64xf32>
  return %c : tensor<1x8x8x64xf32>
}

// -----

// Weights read elsewhere too (here, returned) stay as they are: packing
// them would keep two copies. Their panels are small, so the tiles read
// the constant directly.
// CHECK-LABEL: func.func @constant_read_twice
// CHECK-NOT: fuse.relayouts
// CHECK-NOT: tensor.empty() : tensor<64x32xf32>
// CHECK: vector.transfer_read %{{.*}} : tensor<64x64xf32>, vector<4x32xf32>
func.func @constant_read_twice(%a: tensor<16x64xf32>) -> (tensor<16x64xf32>, tensor<64x64xf32>) {
  %w = arith.constant dense<0.25> : tensor<64x64xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %r = linalg.matmul ins(%a, %w : tensor<16x64xf32>, tensor<64x64xf32>) outs(%f : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %r, %w : tensor<16x64xf32>, tensor<64x64xf32>
}

// -----

// Constant weights given as [N, K]: each panel is already contiguous, so
// the constant stays as it is.
// CHECK-LABEL: func.func @constant_contiguous_panel
// CHECK-NOT: fuse.relayouts
// CHECK: vector.transfer_read %{{.*}} : tensor<64x64xf32>, vector<32x4xf32>
func.func @constant_contiguous_panel(%a: tensor<16x64xf32>, %c: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %bt = arith.constant dense<0.25> : tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %bt : tensor<16x64xf32>, tensor<64x64xf32>) outs(%c : tensor<16x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %q = arith.addf %o, %p : f32
    linalg.yield %q : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}
