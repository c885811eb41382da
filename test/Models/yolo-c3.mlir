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
// Fused and unfused give the same results on the CPU (seeded random input,
// 1e-5 relative), the fused build with the buffers between its kernels
// planned into one arena (fuse-plan-buffers).
// RUN: env FUSE_NUM_THREADS=2 %check_equivalence %s | FileCheck %s --check-prefix=EQUIV
// RUN: env FUSE_NUM_THREADS=1 %check_equivalence %s | FileCheck %s --check-prefix=EQUIV
// EQUIV: memory: arena {{[0-9]+}} bytes for buffers of {{[0-9]+}} bytes
// EQUIV: output 0 {{.*}}: PASS
// EQUIV-NEXT: PASS
// Each group lowered to one tile loop nest (fuse-lower-groups) still gives
// the same results, and so does every group on its own (its ops fused and
// tiled against the same ops unfused).
// RUN: %check_equivalence %s --lower-groups | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --per-group --lower-groups | FileCheck %s --check-prefix=GROUPS
// GROUPS-NOT: FAIL
// GROUPS: PASS

func.func @yolo_c3(%x: tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c1 = "tosa.const"() <{values = dense<0.0317> : tensor<16x1x1x32xf32>}> : () -> tensor<16x1x1x32xf32>
  %c2 = "tosa.const"() <{values = dense<0.0> : tensor<16xf32>}> : () -> tensor<16xf32>
  %conv3 = tosa.conv2d %x, %c1, %c2, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x32xf32>, tensor<16x1x1x32xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x16xf32>
  %c4 = "tosa.const"() <{values = dense<[[[[0.0759, -0.0144, -0.0609, 0.1136, -0.1449, -0.1401, 0.0209, 0.0732, -0.0439, 0.0352, -0.0116, -0.1236, 0.1040, 0.1752, -0.0105, 0.1638]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c5 = "tosa.const"() <{values = dense<[[[[1.0952, 1.1232, 0.7870, 1.4814, 1.0343, 1.4891, 0.8451, 1.4355, 1.2188, 0.9737, 1.4218, 1.4172, 0.6518, 0.9543, 1.3894, 1.4488]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c6 = "tosa.const"() <{values = dense<[[[[0.0855, -0.1169, -0.1506, 0.1871, 0.1288, -0.1713, -0.0735, -0.0805, 0.1886, 0.0808, 0.1333, 0.1704, -0.0836, -0.0260, 0.1505, 0.0617]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %bn7 = tosa.sub %conv3, %c4 : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x16x16x16xf32>
  %bn8 = tosa.mul %bn7, %c5, %shift : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>, tensor<1xi8>) -> tensor<1x16x16x16xf32>
  %bn9 = tosa.add %bn8, %c6 : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x16x16x16xf32>
  %sig10 = tosa.sigmoid %bn9 : (tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %silu11 = tosa.mul %bn9, %sig10, %shift : (tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>, tensor<1xi8>) -> tensor<1x16x16x16xf32>
  %c12 = "tosa.const"() <{values = dense<0.0475> : tensor<16x1x1x16xf32>}> : () -> tensor<16x1x1x16xf32>
  %c13 = "tosa.const"() <{values = dense<0.0> : tensor<16xf32>}> : () -> tensor<16xf32>
  %conv14 = tosa.conv2d %silu11, %c12, %c13, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x16xf32>, tensor<16x1x1x16xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x16xf32>
  %c15 = "tosa.const"() <{values = dense<[[[[-0.1955, 0.1938, -0.1192, 0.0504, -0.0726, -0.0988, 0.1915, 0.1353, 0.0732, 0.0162, 0.0462, -0.1829, 0.1368, 0.0303, -0.0031, 0.0741]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c16 = "tosa.const"() <{values = dense<[[[[1.1900, 0.5623, 1.1511, 1.3738, 0.7019, 1.4377, 1.0548, 1.0248, 1.2976, 1.0373, 1.2631, 1.1365, 1.3869, 1.2872, 0.9334, 1.4333]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c17 = "tosa.const"() <{values = dense<[[[[-0.1791, 0.0394, -0.0110, 0.1470, -0.0108, -0.1519, 0.1662, 0.1448, 0.1830, -0.0943, -0.1028, -0.1098, -0.1170, 0.1945, -0.0159, 0.0740]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %bn18 = tosa.sub %conv14, %c15 : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x16x16x16xf32>
  %bn19 = tosa.mul %bn18, %c16, %shift : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>, tensor<1xi8>) -> tensor<1x16x16x16xf32>
  %bn20 = tosa.add %bn19, %c17 : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x16x16x16xf32>
  %sig21 = tosa.sigmoid %bn20 : (tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %silu22 = tosa.mul %bn20, %sig21, %shift : (tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>, tensor<1xi8>) -> tensor<1x16x16x16xf32>
  %c23 = "tosa.const"() <{values = dense<0.0149> : tensor<16x3x3x16xf32>}> : () -> tensor<16x3x3x16xf32>
  %c24 = "tosa.const"() <{values = dense<0.0> : tensor<16xf32>}> : () -> tensor<16xf32>
  %conv25 = tosa.conv2d %silu22, %c23, %c24, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x16x16x16xf32>, tensor<16x3x3x16xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x16xf32>
  %c26 = "tosa.const"() <{values = dense<[[[[0.0960, 0.0110, -0.0596, -0.0425, 0.1210, 0.0571, 0.1258, 0.0805, -0.0794, -0.0769, -0.0277, -0.0310, -0.0256, -0.0270, -0.1642, -0.0496]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c27 = "tosa.const"() <{values = dense<[[[[0.8680, 0.7151, 1.0436, 1.0968, 1.2677, 1.4576, 0.7618, 0.8173, 1.2142, 1.2315, 1.3073, 1.3531, 0.8307, 0.5889, 0.6945, 0.7680]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c28 = "tosa.const"() <{values = dense<[[[[-0.1683, -0.1297, 0.0887, -0.1098, -0.0765, -0.0375, 0.1367, -0.1828, -0.0903, 0.1845, 0.1542, -0.0839, -0.1633, -0.1815, 0.1334, 0.1111]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %bn29 = tosa.sub %conv25, %c26 : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x16x16x16xf32>
  %bn30 = tosa.mul %bn29, %c27, %shift : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>, tensor<1xi8>) -> tensor<1x16x16x16xf32>
  %bn31 = tosa.add %bn30, %c28 : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x16x16x16xf32>
  %sig32 = tosa.sigmoid %bn31 : (tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %silu33 = tosa.mul %bn31, %sig32, %shift : (tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>, tensor<1xi8>) -> tensor<1x16x16x16xf32>
  %add34 = tosa.add %silu33, %silu11 : (tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %c35 = "tosa.const"() <{values = dense<0.0234> : tensor<16x1x1x32xf32>}> : () -> tensor<16x1x1x32xf32>
  %c36 = "tosa.const"() <{values = dense<0.0> : tensor<16xf32>}> : () -> tensor<16xf32>
  %conv37 = tosa.conv2d %x, %c35, %c36, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x32xf32>, tensor<16x1x1x32xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x16xf32>
  %c38 = "tosa.const"() <{values = dense<[[[[0.1238, 0.1043, 0.1555, 0.0044, 0.0979, -0.0324, -0.1521, 0.0743, -0.1523, -0.1779, 0.1463, -0.1011, -0.0697, 0.0308, -0.0730, -0.1097]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c39 = "tosa.const"() <{values = dense<[[[[1.1142, 0.7702, 1.1795, 1.4104, 1.0657, 0.7738, 0.9811, 0.9598, 1.0178, 1.2179, 1.2417, 1.2668, 0.6289, 1.3040, 0.8976, 0.6794]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c40 = "tosa.const"() <{values = dense<[[[[0.1853, 0.0473, -0.0385, 0.0234, -0.1970, 0.0237, -0.1722, 0.1536, 0.1921, -0.1828, -0.0746, -0.1476, -0.1916, -0.1795, -0.1929, 0.1775]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %bn41 = tosa.sub %conv37, %c38 : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x16x16x16xf32>
  %bn42 = tosa.mul %bn41, %c39, %shift : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>, tensor<1xi8>) -> tensor<1x16x16x16xf32>
  %bn43 = tosa.add %bn42, %c40 : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x16x16x16xf32>
  %sig44 = tosa.sigmoid %bn43 : (tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %silu45 = tosa.mul %bn43, %sig44, %shift : (tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>, tensor<1xi8>) -> tensor<1x16x16x16xf32>
  %cat46 = tosa.concat %add34, %silu45 {axis = 3 : i32} : (tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>) -> tensor<1x16x16x32xf32>
  %c47 = "tosa.const"() <{values = dense<0.0277> : tensor<32x1x1x32xf32>}> : () -> tensor<32x1x1x32xf32>
  %c48 = "tosa.const"() <{values = dense<0.0> : tensor<32xf32>}> : () -> tensor<32xf32>
  %conv49 = tosa.conv2d %cat46, %c47, %c48, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x32xf32>, tensor<32x1x1x32xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x32xf32>
  %c50 = "tosa.const"() <{values = dense<[[[[-0.1797, 0.1009, 0.0377, -0.0029, 0.1882, -0.1845, -0.0188, -0.1202, -0.0753, 0.1942, -0.0090, 0.0775, 0.0778, -0.1614, -0.0318, 0.0842, 0.1414, 0.1592, -0.0777, -0.1047, -0.1666, -0.1980, -0.1886, 0.0047, 0.1790, -0.1801, -0.0778, 0.0519, -0.1986, -0.1972, -0.1333, -0.1213]]]]> : tensor<1x1x1x32xf32>}> : () -> tensor<1x1x1x32xf32>
  %c51 = "tosa.const"() <{values = dense<[[[[0.9431, 0.5864, 0.9309, 0.5986, 1.4084, 0.6783, 1.0916, 1.4141, 0.5817, 1.4983, 0.9187, 0.5423, 1.2044, 1.2823, 1.2761, 1.3623, 0.9493, 0.5204, 0.8392, 0.9989, 1.2222, 1.0846, 1.1190, 0.7038, 1.3482, 0.5675, 1.3774, 0.6903, 0.9913, 1.3397, 1.4899, 1.1843]]]]> : tensor<1x1x1x32xf32>}> : () -> tensor<1x1x1x32xf32>
  %c52 = "tosa.const"() <{values = dense<[[[[-0.1597, -0.0322, -0.0529, 0.1498, -0.1459, 0.0336, 0.1508, 0.0396, 0.1660, 0.1941, 0.1700, 0.0661, -0.0117, -0.0637, -0.0961, 0.1616, -0.1774, -0.0419, 0.1867, 0.1263, -0.1614, -0.0007, 0.1145, 0.0073, 0.1950, 0.1254, 0.0327, -0.1216, 0.0195, -0.1636, -0.0935, -0.0179]]]]> : tensor<1x1x1x32xf32>}> : () -> tensor<1x1x1x32xf32>
  %bn53 = tosa.sub %conv49, %c50 : (tensor<1x16x16x32xf32>, tensor<1x1x1x32xf32>) -> tensor<1x16x16x32xf32>
  %bn54 = tosa.mul %bn53, %c51, %shift : (tensor<1x16x16x32xf32>, tensor<1x1x1x32xf32>, tensor<1xi8>) -> tensor<1x16x16x32xf32>
  %bn55 = tosa.add %bn54, %c52 : (tensor<1x16x16x32xf32>, tensor<1x1x1x32xf32>) -> tensor<1x16x16x32xf32>
  %sig56 = tosa.sigmoid %bn55 : (tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
  %silu57 = tosa.mul %bn55, %sig56, %shift : (tensor<1x16x16x32xf32>, tensor<1x16x16x32xf32>, tensor<1xi8>) -> tensor<1x16x16x32xf32>
  return %silu57 : tensor<1x16x16x32xf32>
}
