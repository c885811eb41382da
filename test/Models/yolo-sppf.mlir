// YOLOv5 SPPF: 1x1 conv + SiLU, three chained 5x5 max pools, concat of
// all four, 1x1 conv + SiLU. Each pool writes its slice of the concat and
// also feeds the next pool (multi-output groups):
//   0 1x1 conv + SiLU, into slice 0 (and returned to the first pool);
//   1-3 pad + pool, into slices 1-3;
//   4 the last 1x1 conv + SiLU.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200" | FileCheck %s
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT

// CHECK-LABEL: func @yolo_sppf
// CHECK: fuse.group diagonal rule "contraction_epilogue"
// CHECK: fuse.group diagonal rule "concat_slices"
// CHECK: tensor.pad
// CHECK: fuse.group diagonal rule "concat_slices"
// CHECK: fuse.group diagonal rule "concat_slices"
// CHECK: fuse.group vertical rule "contraction_epilogue"
// CHECK-NOT: fuse.group
// REPORT: "kernels_after": 5
// REPORT: "left_alone": []

func.func @yolo_sppf(%x: tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c1 = "tosa.const"() <{values = dense<0.0497> : tensor<16x1x1x32xf32>}> : () -> tensor<16x1x1x32xf32>
  %c2 = "tosa.const"() <{values = dense<0.0> : tensor<16xf32>}> : () -> tensor<16xf32>
  %conv3 = tosa.conv2d %x, %c1, %c2, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x32xf32>, tensor<16x1x1x32xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x16xf32>
  %c4 = "tosa.const"() <{values = dense<[[[[0.0505, -0.0335, -0.0715, 0.1590, -0.1613, -0.1735, -0.0633, -0.1397, 0.0509, -0.1602, -0.1578, 0.1273, 0.1497, 0.0218, -0.0057, 0.0378]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c5 = "tosa.const"() <{values = dense<[[[[0.6246, 0.8464, 0.6494, 0.9663, 1.3548, 0.5996, 1.4980, 1.2957, 0.9236, 1.4472, 0.5912, 1.1858, 0.9230, 1.4915, 0.9418, 0.5613]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c6 = "tosa.const"() <{values = dense<[[[[-0.0098, 0.0989, 0.1991, -0.0369, -0.0287, -0.1725, 0.0851, 0.0096, -0.0302, -0.0600, -0.1324, 0.1426, 0.0410, 0.1165, -0.0967, 0.1206]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %bn7 = tosa.sub %conv3, %c4 : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x16x16x16xf32>
  %bn8 = tosa.mul %bn7, %c5, %shift : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>, tensor<1xi8>) -> tensor<1x16x16x16xf32>
  %bn9 = tosa.add %bn8, %c6 : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x16x16x16xf32>
  %sig10 = tosa.sigmoid %bn9 : (tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %silu11 = tosa.mul %bn9, %sig10, %shift : (tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>, tensor<1xi8>) -> tensor<1x16x16x16xf32>
  %pool12 = tosa.max_pool2d %silu11 {kernel = array<i64: 5, 5>, pad = array<i64: 2, 2, 2, 2>, stride = array<i64: 1, 1>} : (tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %pool13 = tosa.max_pool2d %pool12 {kernel = array<i64: 5, 5>, pad = array<i64: 2, 2, 2, 2>, stride = array<i64: 1, 1>} : (tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %pool14 = tosa.max_pool2d %pool13 {kernel = array<i64: 5, 5>, pad = array<i64: 2, 2, 2, 2>, stride = array<i64: 1, 1>} : (tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %cat15 = tosa.concat %silu11, %pool12, %pool13, %pool14 {axis = 3 : i32} : (tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>) -> tensor<1x16x16x64xf32>
  %c16 = "tosa.const"() <{values = dense<0.0414> : tensor<32x1x1x64xf32>}> : () -> tensor<32x1x1x64xf32>
  %c17 = "tosa.const"() <{values = dense<0.0> : tensor<32xf32>}> : () -> tensor<32xf32>
  %conv18 = tosa.conv2d %cat15, %c16, %c17, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x64xf32>, tensor<32x1x1x64xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x32xf32>
  %c19 = "tosa.const"() <{values = dense<[[[[0.0779, -0.0540, 0.1010, -0.0358, 0.0535, 0.0311, 0.0471, -0.0723, 0.1431, 0.1467, -0.0757, 0.0967, 0.0419, -0.1275, -0.0324, -0.1864, 0.0438, 0.0109, -0.0839, 0.0954, 0.1476, -0.1168, 0.1730, 0.0911, -0.0233, -0.0569, 0.0069, 0.1811, -0.0755, 0.1489, -0.1013, 0.1670]]]]> : tensor<1x1x1x32xf32>}> : () -> tensor<1x1x1x32xf32>
  %c20 = "tosa.const"() <{values = dense<[[[[1.1009, 0.8376, 0.8182, 1.4211, 1.1378, 1.1610, 0.9060, 0.9243, 0.9618, 0.8763, 0.6065, 0.8726, 1.3237, 0.9306, 1.1798, 1.0844, 1.0694, 0.8583, 1.2606, 0.8863, 0.8507, 0.7511, 0.9798, 0.8602, 0.9660, 1.1032, 1.3637, 0.7940, 1.4756, 1.2932, 0.6162, 0.8309]]]]> : tensor<1x1x1x32xf32>}> : () -> tensor<1x1x1x32xf32>
  %c21 = "tosa.const"() <{values = dense<[[[[-0.0953, -0.0800, 0.1459, 0.0839, -0.1991, -0.1127, -0.1688, -0.1294, 0.0835, 0.1741, 0.1844, 0.0159, -0.1587, 0.0450, 0.0065, 0.0470, -0.0844, -0.1568, -0.0327, -0.1534, 0.1993, 0.1631, 0.1177, -0.1713, 0.0357, 0.0940, -0.0447, -0.1452, 0.1881, 0.0247, -0.1904, 0.1082]]]]> : tensor<1x1x1x32xf32>}> : () -> tensor<1x1x1x32xf32>
  %bn22 = tosa.sub %conv18, %c19 : (tensor<1x16x16x32xf32>, tensor<1x1x1x32xf32>) -> tensor<1x16x16x32xf32>
  %bn23 = tosa.mul %bn22, %c20, %shift : (tensor<1x16x16x32xf32>, tensor<1x1x1x32xf32>, tensor<1xi8>) -> tensor<1x16x16x32xf32>
  %bn24 = tosa.add %bn23, %c21 : (tensor<1x16x16x32xf32>, tensor<1x1x1x32xf32>) -> tensor<1x16x16x32xf32>
  %sig25 = tosa.sigmoid %bn24 : (tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
  %silu26 = tosa.mul %bn24, %sig25, %shift : (tensor<1x16x16x32xf32>, tensor<1x16x16x32xf32>, tensor<1xi8>) -> tensor<1x16x16x32xf32>
  return %silu26 : tensor<1x16x16x32xf32>
}
