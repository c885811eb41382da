// An Inception block: a 1x1 branch, 1x1 -> 3x3, 1x1 -> 5x5, and
// 3x3 max pool -> 1x1, concatenated along channels. BN folds into the convs.
// The three 1x1 convs on the block input become one GEMM; every branch
// writes straight into its slice of the concat, so no copy kernel remains:
//   0 the three 1x1 convs (one conv) + ReLUs, branch 1 into its slice;
//   1 pad + 3x3 conv + ReLU into its slice;
//   2 pad + 5x5 conv + ReLU into its slice;
//   3 pad + max pool;
//   4 pool projection 1x1 conv + ReLU into its slice.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200" | FileCheck %s
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT

// Groups print in dataflow order: the pool first.
// CHECK-LABEL: func @inception
// CHECK: fuse.group vertical rule "pad_prologue"
// CHECK: fuse.group composite rule "shared_input_contractions"
// CHECK-COUNT-3: fuse.group diagonal rule "contraction_epilogue"
// CHECK-NOT: fuse.group
// REPORT: "kernels_after": 5
// REPORT: "left_alone": []

func.func @inception(%x: tensor<1x16x16x32xf32>) -> tensor<1x16x16x48xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c1 = "tosa.const"() <{values = dense<0.0319> : tensor<16x1x1x32xf32>}> : () -> tensor<16x1x1x32xf32>
  %c2 = "tosa.const"() <{values = dense<0.0> : tensor<16xf32>}> : () -> tensor<16xf32>
  %conv3 = tosa.conv2d %x, %c1, %c2, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x32xf32>, tensor<16x1x1x32xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x16xf32>
  %c4 = "tosa.const"() <{values = dense<[[[[-0.1160, -0.0591, -0.0678, 0.1692, 0.0898, -0.1958, 0.0236, -0.0991, -0.0664, 0.0577, -0.0342, 0.1113, -0.0096, 0.1557, -0.0645, -0.1850]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c5 = "tosa.const"() <{values = dense<[[[[0.7199, 0.6208, 1.3519, 0.7686, 0.5178, 0.7092, 0.9571, 0.7769, 1.1302, 0.5790, 1.1924, 1.0390, 0.5114, 0.5956, 0.8300, 0.7194]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c6 = "tosa.const"() <{values = dense<[[[[-0.0146, 0.0424, -0.1317, -0.0762, 0.0271, 0.0847, 0.0725, 0.0237, -0.1568, -0.0917, -0.0322, -0.1259, 0.0937, 0.1954, 0.1954, 0.1642]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %bn7 = tosa.sub %conv3, %c4 : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x16x16x16xf32>
  %bn8 = tosa.mul %bn7, %c5, %shift : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>, tensor<1xi8>) -> tensor<1x16x16x16xf32>
  %bn9 = tosa.add %bn8, %c6 : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x16x16x16xf32>
  %relu10 = tosa.clamp %bn9 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %c11 = "tosa.const"() <{values = dense<0.0363> : tensor<8x1x1x32xf32>}> : () -> tensor<8x1x1x32xf32>
  %c12 = "tosa.const"() <{values = dense<0.0> : tensor<8xf32>}> : () -> tensor<8xf32>
  %conv13 = tosa.conv2d %x, %c11, %c12, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x32xf32>, tensor<8x1x1x32xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x8xf32>
  %c14 = "tosa.const"() <{values = dense<[[[[-0.0635, -0.0610, 0.0426, -0.0979, 0.1533, 0.1356, -0.1853, -0.0040]]]]> : tensor<1x1x1x8xf32>}> : () -> tensor<1x1x1x8xf32>
  %c15 = "tosa.const"() <{values = dense<[[[[0.5218, 1.3090, 0.7539, 1.2550, 0.6987, 0.7736, 1.3422, 0.8999]]]]> : tensor<1x1x1x8xf32>}> : () -> tensor<1x1x1x8xf32>
  %c16 = "tosa.const"() <{values = dense<[[[[-0.1127, -0.1783, -0.0357, -0.1742, 0.0888, 0.0645, 0.0728, 0.1063]]]]> : tensor<1x1x1x8xf32>}> : () -> tensor<1x1x1x8xf32>
  %bn17 = tosa.sub %conv13, %c14 : (tensor<1x16x16x8xf32>, tensor<1x1x1x8xf32>) -> tensor<1x16x16x8xf32>
  %bn18 = tosa.mul %bn17, %c15, %shift : (tensor<1x16x16x8xf32>, tensor<1x1x1x8xf32>, tensor<1xi8>) -> tensor<1x16x16x8xf32>
  %bn19 = tosa.add %bn18, %c16 : (tensor<1x16x16x8xf32>, tensor<1x1x1x8xf32>) -> tensor<1x16x16x8xf32>
  %relu20 = tosa.clamp %bn19 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x16x8xf32>) -> tensor<1x16x16x8xf32>
  %c21 = "tosa.const"() <{values = dense<0.0219> : tensor<16x3x3x8xf32>}> : () -> tensor<16x3x3x8xf32>
  %c22 = "tosa.const"() <{values = dense<0.0> : tensor<16xf32>}> : () -> tensor<16xf32>
  %conv23 = tosa.conv2d %relu20, %c21, %c22, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x16x16x8xf32>, tensor<16x3x3x8xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x16xf32>
  %c24 = "tosa.const"() <{values = dense<[[[[-0.0070, -0.1637, 0.0039, 0.0090, -0.0700, -0.0728, -0.0642, -0.1275, 0.1955, 0.1454, -0.1303, -0.0970, 0.1790, 0.1486, 0.0082, -0.0469]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c25 = "tosa.const"() <{values = dense<[[[[0.6064, 1.1094, 0.7148, 0.9638, 0.7097, 1.0080, 1.0266, 1.0137, 1.2917, 0.7707, 1.3738, 0.9886, 1.0589, 1.3406, 0.8258, 1.4972]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c26 = "tosa.const"() <{values = dense<[[[[-0.0432, 0.0461, 0.0156, -0.1392, 0.0205, 0.1919, 0.0915, -0.1475, 0.1264, 0.0628, -0.1756, 0.0667, -0.1862, 0.1158, 0.1764, -0.1284]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %bn27 = tosa.sub %conv23, %c24 : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x16x16x16xf32>
  %bn28 = tosa.mul %bn27, %c25, %shift : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>, tensor<1xi8>) -> tensor<1x16x16x16xf32>
  %bn29 = tosa.add %bn28, %c26 : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x16x16x16xf32>
  %relu30 = tosa.clamp %bn29 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %c31 = "tosa.const"() <{values = dense<0.0207> : tensor<8x1x1x32xf32>}> : () -> tensor<8x1x1x32xf32>
  %c32 = "tosa.const"() <{values = dense<0.0> : tensor<8xf32>}> : () -> tensor<8xf32>
  %conv33 = tosa.conv2d %x, %c31, %c32, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x32xf32>, tensor<8x1x1x32xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x8xf32>
  %c34 = "tosa.const"() <{values = dense<[[[[0.0161, -0.0573, -0.0171, -0.1254, -0.1785, -0.1257, -0.1384, 0.0565]]]]> : tensor<1x1x1x8xf32>}> : () -> tensor<1x1x1x8xf32>
  %c35 = "tosa.const"() <{values = dense<[[[[0.9897, 1.0461, 0.5290, 0.7209, 0.8642, 1.0427, 0.9656, 1.2471]]]]> : tensor<1x1x1x8xf32>}> : () -> tensor<1x1x1x8xf32>
  %c36 = "tosa.const"() <{values = dense<[[[[-0.1380, -0.0702, 0.0859, -0.1839, -0.1970, -0.1621, 0.0344, 0.0819]]]]> : tensor<1x1x1x8xf32>}> : () -> tensor<1x1x1x8xf32>
  %bn37 = tosa.sub %conv33, %c34 : (tensor<1x16x16x8xf32>, tensor<1x1x1x8xf32>) -> tensor<1x16x16x8xf32>
  %bn38 = tosa.mul %bn37, %c35, %shift : (tensor<1x16x16x8xf32>, tensor<1x1x1x8xf32>, tensor<1xi8>) -> tensor<1x16x16x8xf32>
  %bn39 = tosa.add %bn38, %c36 : (tensor<1x16x16x8xf32>, tensor<1x1x1x8xf32>) -> tensor<1x16x16x8xf32>
  %relu40 = tosa.clamp %bn39 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x16x8xf32>) -> tensor<1x16x16x8xf32>
  %c41 = "tosa.const"() <{values = dense<0.0425> : tensor<8x5x5x8xf32>}> : () -> tensor<8x5x5x8xf32>
  %c42 = "tosa.const"() <{values = dense<0.0> : tensor<8xf32>}> : () -> tensor<8xf32>
  %conv43 = tosa.conv2d %relu40, %c41, %c42, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 2, 2, 2, 2>, stride = array<i64: 1, 1>} : (tensor<1x16x16x8xf32>, tensor<8x5x5x8xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x8xf32>
  %c44 = "tosa.const"() <{values = dense<[[[[-0.0971, 0.1027, -0.1345, -0.1235, 0.1266, -0.0309, -0.0267, 0.1332]]]]> : tensor<1x1x1x8xf32>}> : () -> tensor<1x1x1x8xf32>
  %c45 = "tosa.const"() <{values = dense<[[[[0.6707, 0.7247, 1.4679, 0.7127, 0.6585, 1.4919, 0.9220, 0.9232]]]]> : tensor<1x1x1x8xf32>}> : () -> tensor<1x1x1x8xf32>
  %c46 = "tosa.const"() <{values = dense<[[[[0.1425, 0.0820, 0.1874, 0.0517, -0.0238, 0.1792, 0.0426, -0.1633]]]]> : tensor<1x1x1x8xf32>}> : () -> tensor<1x1x1x8xf32>
  %bn47 = tosa.sub %conv43, %c44 : (tensor<1x16x16x8xf32>, tensor<1x1x1x8xf32>) -> tensor<1x16x16x8xf32>
  %bn48 = tosa.mul %bn47, %c45, %shift : (tensor<1x16x16x8xf32>, tensor<1x1x1x8xf32>, tensor<1xi8>) -> tensor<1x16x16x8xf32>
  %bn49 = tosa.add %bn48, %c46 : (tensor<1x16x16x8xf32>, tensor<1x1x1x8xf32>) -> tensor<1x16x16x8xf32>
  %relu50 = tosa.clamp %bn49 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x16x8xf32>) -> tensor<1x16x16x8xf32>
  %pool51 = tosa.max_pool2d %x {kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
  %c52 = "tosa.const"() <{values = dense<0.0459> : tensor<8x1x1x32xf32>}> : () -> tensor<8x1x1x32xf32>
  %c53 = "tosa.const"() <{values = dense<0.0> : tensor<8xf32>}> : () -> tensor<8xf32>
  %conv54 = tosa.conv2d %pool51, %c52, %c53, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x32xf32>, tensor<8x1x1x32xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x8xf32>
  %c55 = "tosa.const"() <{values = dense<[[[[0.0956, -0.1537, -0.1685, 0.0859, 0.0489, -0.1368, -0.1312, 0.0564]]]]> : tensor<1x1x1x8xf32>}> : () -> tensor<1x1x1x8xf32>
  %c56 = "tosa.const"() <{values = dense<[[[[0.6893, 1.4480, 1.4830, 0.5305, 1.4710, 1.1482, 1.4137, 1.2895]]]]> : tensor<1x1x1x8xf32>}> : () -> tensor<1x1x1x8xf32>
  %c57 = "tosa.const"() <{values = dense<[[[[-0.0852, -0.0539, -0.1962, 0.0084, 0.1547, 0.1362, -0.0047, -0.1448]]]]> : tensor<1x1x1x8xf32>}> : () -> tensor<1x1x1x8xf32>
  %bn58 = tosa.sub %conv54, %c55 : (tensor<1x16x16x8xf32>, tensor<1x1x1x8xf32>) -> tensor<1x16x16x8xf32>
  %bn59 = tosa.mul %bn58, %c56, %shift : (tensor<1x16x16x8xf32>, tensor<1x1x1x8xf32>, tensor<1xi8>) -> tensor<1x16x16x8xf32>
  %bn60 = tosa.add %bn59, %c57 : (tensor<1x16x16x8xf32>, tensor<1x1x1x8xf32>) -> tensor<1x16x16x8xf32>
  %relu61 = tosa.clamp %bn60 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x16x8xf32>) -> tensor<1x16x16x8xf32>
  %cat62 = tosa.concat %relu10, %relu30, %relu50, %relu61 {axis = 3 : i32} : (tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>, tensor<1x16x16x8xf32>, tensor<1x16x16x8xf32>) -> tensor<1x16x16x48xf32>
  return %cat62 : tensor<1x16x16x48xf32>
}
