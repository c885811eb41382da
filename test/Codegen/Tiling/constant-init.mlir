// A convolution on a 1 x 1 map (a classifier head's conv, or any op whose
// output is [1, 1, 1, C]) gets a constant init: constant folding turns the
// small broadcast of its bias (here zeros) into a dense constant. Its
// LayerNorm over C joins it (contraction_row_epilogue), so the group
// returns the conv's output and the normalised one. fuse-lower-groups
// turns a constant init into a fill (or a copy of the constant) that the
// tile loop fuses: the group once bufferized the constant into a buffer
// with a copy loop in host code, and fuse-to-nvptx refused it ("works on
// the host besides its kernel").
// RUN: fuse-opt %s --fuse-fusion-pipeline=target=h200 -o %t.fused.mlir
// RUN: FileCheck %s --check-prefix=FUSED < %t.fused.mlir
// RUN: fuse-opt %t.fused.mlir --fuse-lower-groups | FileCheck %s --check-prefix=LOWERED
// RUN: fuse-opt %t.fused.mlir --fuse-to-nvptx=target=h200 | FileCheck %s --check-prefix=GPU
// RUN: %check_equivalence %s --lower-groups --distribute-threads 128 | FileCheck %s --check-prefix=EQUIV

// FUSED: fuse.group diagonal rule "contraction_row_epilogue"
// LOWERED: scf.forall
// LOWERED-NOT: scf.forall
// LOWERED: linalg.fill
// LOWERED: linalg.conv_2d_nhwc_fhwc
// GPU-COUNT-2: gpu.launch_func
// GPU-NOT: gpu.launch_func
// EQUIV: PASS

func.func @head(%x: tensor<1x1x1x3xf32>) -> (tensor<1x10xf32>, tensor<1x1x1x16xf32>) {
  %w = "tosa.const"() <{values = dense<0.125> : tensor<16x3x3x3xf32>}> : () -> tensor<16x3x3x3xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<16xf32>}> : () -> tensor<16xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x1x1x3xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x1x16xf32>
  // Global average pool (a 1 x 1 map: the sum) and a Linear.
  %s = tosa.reduce_sum %c {axis = 1 : i32} : (tensor<1x1x1x16xf32>) -> tensor<1x1x1x16xf32>
  %shape = tosa.const_shape {values = dense<[1, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %f = tosa.reshape %s, %shape : (tensor<1x1x1x16xf32>, !tosa.shape<2>) -> tensor<1x16xf32>
  %shape3 = tosa.const_shape {values = dense<[1, 1, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %f3 = tosa.reshape %f, %shape3 : (tensor<1x16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
  %lw = "tosa.const"() <{values = dense<0.25> : tensor<1x16x10xf32>}> : () -> tensor<1x16x10xf32>
  %y3 = tosa.matmul %f3, %lw, %zp, %zp : (tensor<1x1x16xf32>, tensor<1x16x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x10xf32>
  %shape2 = tosa.const_shape {values = dense<[1, 10]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %y = tosa.reshape %y3, %shape2 : (tensor<1x1x10xf32>, !tosa.shape<2>) -> tensor<1x10xf32>
  // LayerNorm over the 16 channels of the 1 x 1 map.
  %sum = tosa.reduce_sum %c {axis = 3 : i32} : (tensor<1x1x1x16xf32>) -> tensor<1x1x1x1xf32>
  %inv = "tosa.const"() <{values = dense<0.0625> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %mean = tosa.mul %sum, %inv, %sh : (tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x1x1x1xf32>
  %xc = tosa.sub %c, %mean : (tensor<1x1x1x16xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x16xf32>
  %sq = tosa.mul %xc, %xc, %sh : (tensor<1x1x1x16xf32>, tensor<1x1x1x16xf32>, tensor<1xi8>) -> tensor<1x1x1x16xf32>
  %vs = tosa.reduce_sum %sq {axis = 3 : i32} : (tensor<1x1x1x16xf32>) -> tensor<1x1x1x1xf32>
  %var = tosa.mul %vs, %inv, %sh : (tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x1x1x1xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-5> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %ve = tosa.add %var, %eps : (tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
  %r = tosa.rsqrt %ve : (tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
  %ln = tosa.mul %xc, %r, %sh : (tensor<1x1x1x16xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x1x1x16xf32>
  return %y, %ln : tensor<1x10xf32>, tensor<1x1x1x16xf32>
}
