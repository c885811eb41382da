// A YOLOv5 C3 block: two 1x1 convs on the input, a bottleneck
// (1x1, 3x3, residual) on the first, concat, 1x1 conv; SiLU everywhere.
//   0 the two 1x1 convs on the input (one conv) + SiLUs; the second branch
//     writes its slice of the concat;
//   1 bottleneck 1x1 conv + SiLU;
//   2 pad + 3x3 conv + SiLU + residual add, into its slice of the concat;
//   3 the last 1x1 conv + SiLU.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200" | FileCheck %s
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT

// CHECK-LABEL: func @yolo_c3
// CHECK: fuse.group composite rule "shared_input_contractions"
// CHECK: fuse.group vertical rule "contraction_epilogue"
// CHECK: fuse.group diagonal rule "residual_join"
// CHECK: fuse.group vertical rule "contraction_epilogue"
// CHECK-NOT: fuse.group
// REPORT: "kernels_after": 4
// REPORT: "left_alone": []

func.func @yolo_c3(%x: tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c1 = "tosa.const"() <{values = dense<0.0417> : tensor<16x1x1x32xf32>}> : () -> tensor<16x1x1x32xf32>
  %c2 = "tosa.const"() <{values = dense<0.0> : tensor<16xf32>}> : () -> tensor<16xf32>
  %conv3 = tosa.conv2d %x, %c1, %c2, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x32xf32>, tensor<16x1x1x32xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x16xf32>
  %c4 = "tosa.const"() <{values = dense<[[[[0.0239, 0.1879, -0.0176, 0.0434, 0.0372, 0.1723, 0.0680, -0.0695, -0.0981, 0.0728, -0.0156, -0.0616, 0.1304, 0.0102, 0.0121, -0.1607]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c5 = "tosa.const"() <{values = dense<[[[[0.7761, 0.5372, 1.0902, 0.5703, 1.4226, 1.0644, 0.8862, 1.1455, 1.0750, 0.9570, 0.9786, 0.5220, 1.3982, 0.6343, 0.6052, 0.5919]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c6 = "tosa.const"() <{values = dense<[[[[0.0139, -0.0980, 0.1887, 0.0996, -0.1715, 0.0408, -0.1521, 0.1856, 0.1620, 0.0869, -0.0772, -0.0117, -0.0711, 0.1587, 0.0762, -0.0400]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %bn7 = tosa.sub %conv3, %c4 : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x16x16x16xf32>
  %bn8 = tosa.mul %bn7, %c5, %shift : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>, tensor<1xi8>) -> tensor<1x16x16x16xf32>
  %bn9 = tosa.add %bn8, %c6 : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x16x16x16xf32>
  %sig10 = tosa.sigmoid %bn9 : (tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %silu11 = tosa.mul %bn9, %sig10, %shift : (tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>, tensor<1xi8>) -> tensor<1x16x16x16xf32>
  %c12 = "tosa.const"() <{values = dense<0.0306> : tensor<16x1x1x16xf32>}> : () -> tensor<16x1x1x16xf32>
  %c13 = "tosa.const"() <{values = dense<0.0> : tensor<16xf32>}> : () -> tensor<16xf32>
  %conv14 = tosa.conv2d %silu11, %c12, %c13, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x16xf32>, tensor<16x1x1x16xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x16xf32>
  %c15 = "tosa.const"() <{values = dense<[[[[0.1394, -0.0325, -0.0044, 0.0383, -0.0246, 0.1075, 0.0353, 0.0362, -0.0069, -0.1935, 0.1782, -0.0461, -0.1864, -0.0138, -0.1439, -0.1036]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c16 = "tosa.const"() <{values = dense<[[[[1.0213, 0.7673, 0.9317, 1.2353, 0.5263, 1.1022, 1.0200, 1.4532, 0.6222, 0.8685, 0.7168, 0.5760, 0.6701, 0.9054, 0.6111, 0.6057]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c17 = "tosa.const"() <{values = dense<[[[[0.1960, -0.0396, -0.1977, -0.1213, -0.0949, 0.1202, 0.0099, 0.1649, -0.1662, -0.1329, 0.1646, -0.1126, 0.1369, 0.1212, 0.0249, 0.1598]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %bn18 = tosa.sub %conv14, %c15 : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x16x16x16xf32>
  %bn19 = tosa.mul %bn18, %c16, %shift : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>, tensor<1xi8>) -> tensor<1x16x16x16xf32>
  %bn20 = tosa.add %bn19, %c17 : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x16x16x16xf32>
  %sig21 = tosa.sigmoid %bn20 : (tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %silu22 = tosa.mul %bn20, %sig21, %shift : (tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>, tensor<1xi8>) -> tensor<1x16x16x16xf32>
  %c23 = "tosa.const"() <{values = dense<0.032> : tensor<16x3x3x16xf32>}> : () -> tensor<16x3x3x16xf32>
  %c24 = "tosa.const"() <{values = dense<0.0> : tensor<16xf32>}> : () -> tensor<16xf32>
  %conv25 = tosa.conv2d %silu22, %c23, %c24, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x16x16x16xf32>, tensor<16x3x3x16xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x16xf32>
  %c26 = "tosa.const"() <{values = dense<[[[[-0.1858, 0.1840, 0.1915, 0.0775, 0.1364, 0.0062, 0.1736, 0.1828, 0.1608, 0.1870, 0.0602, 0.1884, -0.1812, -0.1636, 0.0607, -0.0884]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c27 = "tosa.const"() <{values = dense<[[[[0.5073, 1.1177, 0.5436, 1.4248, 0.5713, 1.2007, 1.0465, 1.0475, 1.0167, 1.0402, 0.9953, 0.5532, 0.8520, 1.0368, 0.9640, 0.7423]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c28 = "tosa.const"() <{values = dense<[[[[-0.1939, -0.0457, -0.1643, 0.0699, -0.1286, -0.1052, 0.0237, 0.0019, -0.0652, -0.0884, 0.0585, -0.1324, -0.1630, -0.0623, 0.0991, -0.1479]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %bn29 = tosa.sub %conv25, %c26 : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x16x16x16xf32>
  %bn30 = tosa.mul %bn29, %c27, %shift : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>, tensor<1xi8>) -> tensor<1x16x16x16xf32>
  %bn31 = tosa.add %bn30, %c28 : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x16x16x16xf32>
  %sig32 = tosa.sigmoid %bn31 : (tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %silu33 = tosa.mul %bn31, %sig32, %shift : (tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>, tensor<1xi8>) -> tensor<1x16x16x16xf32>
  %add34 = tosa.add %silu33, %silu11 : (tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %c35 = "tosa.const"() <{values = dense<0.0476> : tensor<16x1x1x32xf32>}> : () -> tensor<16x1x1x32xf32>
  %c36 = "tosa.const"() <{values = dense<0.0> : tensor<16xf32>}> : () -> tensor<16xf32>
  %conv37 = tosa.conv2d %x, %c35, %c36, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x32xf32>, tensor<16x1x1x32xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x16xf32>
  %c38 = "tosa.const"() <{values = dense<[[[[0.1451, 0.1116, 0.1291, -0.0103, 0.0774, 0.0747, -0.0710, -0.0020, -0.1539, -0.1994, -0.0482, 0.1863, -0.0008, -0.0325, 0.0267, 0.0049]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c39 = "tosa.const"() <{values = dense<[[[[0.8560, 1.2426, 1.0913, 1.1503, 0.7380, 0.8772, 0.7448, 0.8037, 1.1755, 1.1802, 1.0664, 0.8069, 1.0313, 1.4724, 0.8426, 1.2362]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c40 = "tosa.const"() <{values = dense<[[[[0.0858, 0.0360, -0.1029, -0.0114, 0.1767, 0.0429, 0.0010, 0.0649, -0.1547, -0.1491, 0.0452, -0.0756, -0.0369, -0.0992, -0.0223, -0.0818]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %bn41 = tosa.sub %conv37, %c38 : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x16x16x16xf32>
  %bn42 = tosa.mul %bn41, %c39, %shift : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>, tensor<1xi8>) -> tensor<1x16x16x16xf32>
  %bn43 = tosa.add %bn42, %c40 : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x16x16x16xf32>
  %sig44 = tosa.sigmoid %bn43 : (tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %silu45 = tosa.mul %bn43, %sig44, %shift : (tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>, tensor<1xi8>) -> tensor<1x16x16x16xf32>
  %cat46 = tosa.concat %add34, %silu45 {axis = 3 : i32} : (tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>) -> tensor<1x16x16x32xf32>
  %c47 = "tosa.const"() <{values = dense<0.016> : tensor<32x1x1x32xf32>}> : () -> tensor<32x1x1x32xf32>
  %c48 = "tosa.const"() <{values = dense<0.0> : tensor<32xf32>}> : () -> tensor<32xf32>
  %conv49 = tosa.conv2d %cat46, %c47, %c48, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x32xf32>, tensor<32x1x1x32xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x32xf32>
  %c50 = "tosa.const"() <{values = dense<[[[[0.0534, -0.1980, 0.0349, -0.1615, 0.1328, -0.0225, -0.1727, -0.0459, -0.0905, 0.1077, 0.0912, 0.1323, -0.0996, 0.0959, -0.0358, -0.0814, -0.0747, -0.1327, 0.0450, -0.1877, -0.1147, 0.0796, 0.0850, 0.1040, -0.0387, 0.1471, 0.0659, -0.1336, -0.1594, -0.0459, 0.0406, 0.0578]]]]> : tensor<1x1x1x32xf32>}> : () -> tensor<1x1x1x32xf32>
  %c51 = "tosa.const"() <{values = dense<[[[[0.8946, 1.1164, 0.8029, 1.0429, 1.4708, 1.1936, 0.8476, 1.4222, 0.7426, 1.0087, 0.5374, 1.1212, 0.6954, 0.6698, 0.9305, 1.0805, 0.9448, 0.8752, 0.9969, 0.5592, 0.8071, 0.5362, 1.0966, 0.8374, 0.7979, 0.9140, 1.4840, 1.1294, 1.0349, 1.3294, 1.4464, 0.7856]]]]> : tensor<1x1x1x32xf32>}> : () -> tensor<1x1x1x32xf32>
  %c52 = "tosa.const"() <{values = dense<[[[[0.0659, 0.1827, 0.0024, 0.1327, -0.0597, -0.0442, -0.1118, -0.0315, -0.0283, 0.0491, 0.1638, 0.1417, 0.1201, 0.0237, -0.0488, 0.1454, 0.1460, -0.1883, -0.1056, -0.1301, 0.0471, -0.0108, 0.1256, -0.0258, -0.1242, -0.1876, -0.1662, -0.1594, -0.1131, -0.1508, 0.0406, 0.0544]]]]> : tensor<1x1x1x32xf32>}> : () -> tensor<1x1x1x32xf32>
  %bn53 = tosa.sub %conv49, %c50 : (tensor<1x16x16x32xf32>, tensor<1x1x1x32xf32>) -> tensor<1x16x16x32xf32>
  %bn54 = tosa.mul %bn53, %c51, %shift : (tensor<1x16x16x32xf32>, tensor<1x1x1x32xf32>, tensor<1xi8>) -> tensor<1x16x16x32xf32>
  %bn55 = tosa.add %bn54, %c52 : (tensor<1x16x16x32xf32>, tensor<1x1x1x32xf32>) -> tensor<1x16x16x32xf32>
  %sig56 = tosa.sigmoid %bn55 : (tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
  %silu57 = tosa.mul %bn55, %sig56, %shift : (tensor<1x16x16x32xf32>, tensor<1x16x16x32xf32>, tensor<1xi8>) -> tensor<1x16x16x32xf32>
  return %silu57 : tensor<1x16x16x32xf32>
}
