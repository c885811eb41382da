// Weights held as dense_resource blobs (as the ONNX importer emits large
// initializers) are folded and concatenated like dense ones, and stay blobs.
// RUN: fuse-opt %s --fuse-fold-affine | FileCheck %s --check-prefix=FOLD
// RUN: fuse-opt %s --fuse-merge-sibling-contractions | FileCheck %s --check-prefix=MERGE

// FOLD-LABEL: func @conv_scale
// FOLD: %[[W:.*]] = "tosa.const"() <{values = dense_resource<fuse_folded> : tensor<2x1x1x1xf32>}>
// FOLD: tosa.conv2d %arg0, %[[W]]
// FOLD-NOT: tosa.mul
// w * [2, 3] = [2, 6], after the 8-byte alignment word.
// FOLD: fuse_folded: "0x08000000000000400000C040"
func.func @conv_scale(%x: tensor<1x4x4x1xf32>) -> tensor<1x4x4x2xf32> {
  %w = "tosa.const"() <{values = dense_resource<w12> : tensor<2x1x1x1xf32>}> : () -> tensor<2x1x1x1xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %s = "tosa.const"() <{values = dense<[[[[2.0, 3.0]]]]> : tensor<1x1x1x2xf32>}> : () -> tensor<1x1x1x2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x1xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  %y = tosa.mul %c, %s, %shift : (tensor<1x4x4x2xf32>, tensor<1x1x1x2xf32>, tensor<1xi8>) -> tensor<1x4x4x2xf32>
  return %y : tensor<1x4x4x2xf32>
}

// MERGE-LABEL: func @siblings
// MERGE: %[[W:.*]] = "tosa.const"() <{values = dense_resource<fuse_merged_weights> : tensor<1x2x2xf32>}>
// MERGE: tosa.matmul %arg0, %[[W]]
// Columns interleave per row: [[1, 3], [2, 4]].
// MERGE: fuse_merged_weights: "0x080000000000803F000040400000004000008040"
func.func @siblings(%x: tensor<1x3x2xf32>) -> (tensor<1x3x1xf32>, tensor<1x3x1xf32>) {
  %w1 = "tosa.const"() <{values = dense_resource<w12> : tensor<1x2x1xf32>}> : () -> tensor<1x2x1xf32>
  %w2 = "tosa.const"() <{values = dense<[[[3.0], [4.0]]]> : tensor<1x2x1xf32>}> : () -> tensor<1x2x1xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %a = tosa.matmul %x, %w1, %zp, %zp : (tensor<1x3x2xf32>, tensor<1x2x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x1xf32>
  %b = tosa.matmul %x, %w2, %zp, %zp : (tensor<1x3x2xf32>, tensor<1x2x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x1xf32>
  return %a, %b : tensor<1x3x1xf32>, tensor<1x3x1xf32>
}

{-#
  dialect_resources: {
    builtin: {
      w12: "0x040000000000803F00000040"
    }
  }
#-}
