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
// Columns interleave per row: [[1, 3], [2, 4]] (the blob is checked at the
// end of the module, below).
func.func @siblings(%x: tensor<1x3x2xf32>) -> (tensor<1x3x1xf32>, tensor<1x3x1xf32>) {
  %w1 = "tosa.const"() <{values = dense_resource<w12> : tensor<1x2x1xf32>}> : () -> tensor<1x2x1xf32>
  %w2 = "tosa.const"() <{values = dense<[[[3.0], [4.0]]]> : tensor<1x2x1xf32>}> : () -> tensor<1x2x1xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %a = tosa.matmul %x, %w1, %zp, %zp : (tensor<1x3x2xf32>, tensor<1x2x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x1xf32>
  %b = tosa.matmul %x, %w2, %zp, %zp : (tensor<1x3x2xf32>, tensor<1x2x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x1xf32>
  return %a, %b : tensor<1x3x1xf32>, tensor<1x3x1xf32>
}

// The same on linalg: linalg.matmul siblings with one blob and one dense
// weight merge into a blob of the same bytes.
// MERGE-LABEL: func @linalg_siblings
// MERGE: %[[W:.*]] = arith.constant dense_resource<[[NAME:fuse_merged_weights.*]]> : tensor<2x2xf32>
// MERGE: linalg.matmul ins(%arg0, %[[W]] : tensor<3x2xf32>, tensor<2x2xf32>)
func.func @linalg_siblings(%x: tensor<3x2xf32>) -> (tensor<3x1xf32>, tensor<3x1xf32>) {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense_resource<w12> : tensor<2x1xf32>
  %w2 = arith.constant dense<[[3.0], [4.0]]> : tensor<2x1xf32>
  %e = tensor.empty() : tensor<3x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x1xf32>) -> tensor<3x1xf32>
  %a = linalg.matmul ins(%x, %w1 : tensor<3x2xf32>, tensor<2x1xf32>) outs(%f : tensor<3x1xf32>) -> tensor<3x1xf32>
  %b = linalg.matmul ins(%x, %w2 : tensor<3x2xf32>, tensor<2x1xf32>) outs(%f : tensor<3x1xf32>) -> tensor<3x1xf32>
  return %a, %b : tensor<3x1xf32>, tensor<3x1xf32>
}
// MERGE: fuse_merged_weights: "0x080000000000803F000040400000004000008040"
// MERGE: [[NAME]]: "0x080000000000803F000040400000004000008040"

// fuse-nhwc-layout permutes a blob filter from FCHW to FHWC and keeps it a
// blob: [f][c][kh][kw] = 1, 2 (c 0), 3, 4 (c 1) becomes [f][kh][kw][c] =
// 1, 3 (kw 0), 2, 4 (kw 1).
// RUN: fuse-opt %s --fuse-nhwc-layout | FileCheck %s --check-prefix=NHWC
// NHWC-LABEL: func @nchw_blob_filter
// NHWC: %[[W:.*]] = arith.constant dense_resource<nhwc_filter> : tensor<1x1x2x2xf32>
// NHWC: linalg.conv_2d_nhwc_fhwc {{.*}} ins(%{{.*}}, %[[W]] : tensor<1x3x3x2xf32>, tensor<1x1x2x2xf32>)
// NHWC: nhwc_filter: "0x080000000000803F000040400000004000008040"
func.func @nchw_blob_filter(%x: tensor<1x2x3x3xf32>) -> tensor<1x1x3x2xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense_resource<w1234> : tensor<1x2x1x2xf32>
  %e = tensor.empty() : tensor<1x1x3x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x3x2xf32>) -> tensor<1x1x3x2xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x2x3x3xf32>, tensor<1x2x1x2xf32>) outs(%f : tensor<1x1x3x2xf32>) -> tensor<1x1x3x2xf32>
  return %c : tensor<1x1x3x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      w12: "0x040000000000803F00000040",
      w1234: "0x040000000000803F000000400000404000008040"
    }
  }
#-}
