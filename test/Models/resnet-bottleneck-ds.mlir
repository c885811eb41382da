// The first bottleneck of a ResNet-50 stage (torchvision's v1.5): the 3x3
// conv strides by 2, and so does the 1x1 downsample, while the first 1x1
// conv does not. The two 1x1 convs differ in stride and stay apart: 3
// groups for the block plus 1 for the downsample.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200" | FileCheck %s
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT

// CHECK-LABEL: func @resnet_bottleneck
// CHECK-NOT: shared_input_contractions
// CHECK-COUNT-3: fuse.group vertical rule "contraction_epilogue"
// CHECK: fuse.group diagonal rule "residual_join"
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

func.func @resnet_bottleneck(%x: tensor<1x17x17x64xf32>) -> tensor<1x9x9x64xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c1 = "tosa.const"() <{values = dense<0.0319> : tensor<16x1x1x64xf32>}> : () -> tensor<16x1x1x64xf32>
  %c2 = "tosa.const"() <{values = dense<0.0> : tensor<16xf32>}> : () -> tensor<16xf32>
  %conv3 = tosa.conv2d %x, %c1, %c2, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x17x17x64xf32>, tensor<16x1x1x64xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x17x17x16xf32>
  %c4 = "tosa.const"() <{values = dense<[[[[-0.1160, -0.0591, -0.0678, 0.1692, 0.0898, -0.1958, 0.0236, -0.0991, -0.0664, 0.0577, -0.0342, 0.1113, -0.0096, 0.1557, -0.0645, -0.1850]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c5 = "tosa.const"() <{values = dense<[[[[0.7199, 0.6208, 1.3519, 0.7686, 0.5178, 0.7092, 0.9571, 0.7769, 1.1302, 0.5790, 1.1924, 1.0390, 0.5114, 0.5956, 0.8300, 0.7194]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c6 = "tosa.const"() <{values = dense<[[[[-0.0146, 0.0424, -0.1317, -0.0762, 0.0271, 0.0847, 0.0725, 0.0237, -0.1568, -0.0917, -0.0322, -0.1259, 0.0937, 0.1954, 0.1954, 0.1642]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %bn7 = tosa.sub %conv3, %c4 : (tensor<1x17x17x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x17x17x16xf32>
  %bn8 = tosa.mul %bn7, %c5, %shift : (tensor<1x17x17x16xf32>, tensor<1x1x1x16xf32>, tensor<1xi8>) -> tensor<1x17x17x16xf32>
  %bn9 = tosa.add %bn8, %c6 : (tensor<1x17x17x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x17x17x16xf32>
  %relu10 = tosa.clamp %bn9 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x17x17x16xf32>) -> tensor<1x17x17x16xf32>
  %c11 = "tosa.const"() <{values = dense<0.0363> : tensor<16x3x3x16xf32>}> : () -> tensor<16x3x3x16xf32>
  %c12 = "tosa.const"() <{values = dense<0.0> : tensor<16xf32>}> : () -> tensor<16xf32>
  %conv13 = tosa.conv2d %relu10, %c11, %c12, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x17x17x16xf32>, tensor<16x3x3x16xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x9x9x16xf32>
  %c14 = "tosa.const"() <{values = dense<[[[[-0.0635, -0.0610, 0.0426, -0.0979, 0.1533, 0.1356, -0.1853, -0.0040, -0.1913, 0.1236, -0.0985, 0.1020, -0.1205, -0.0905, 0.1369, -0.0400]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c15 = "tosa.const"() <{values = dense<[[[[0.7183, 0.5542, 0.9109, 0.5646, 1.2221, 1.1612, 1.1821, 1.2658, 0.7986, 0.9826, 0.5907, 1.0096, 1.0224, 0.8251, 0.8179, 0.8396]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c16 = "tosa.const"() <{values = dense<[[[[-0.1275, 0.1955, 0.1454, -0.1303, -0.0970, 0.1790, 0.1486, 0.0082, -0.0469, -0.1575, 0.0437, -0.1141, -0.0145, -0.1161, 0.0032, 0.0106]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %bn17 = tosa.sub %conv13, %c14 : (tensor<1x9x9x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x9x9x16xf32>
  %bn18 = tosa.mul %bn17, %c15, %shift : (tensor<1x9x9x16xf32>, tensor<1x1x1x16xf32>, tensor<1xi8>) -> tensor<1x9x9x16xf32>
  %bn19 = tosa.add %bn18, %c16 : (tensor<1x9x9x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x9x9x16xf32>
  %relu20 = tosa.clamp %bn19 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x9x9x16xf32>) -> tensor<1x9x9x16xf32>
  %c21 = "tosa.const"() <{values = dense<0.0305> : tensor<64x1x1x16xf32>}> : () -> tensor<64x1x1x16xf32>
  %c22 = "tosa.const"() <{values = dense<0.0> : tensor<64xf32>}> : () -> tensor<64xf32>
  %conv23 = tosa.conv2d %relu20, %c21, %c22, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x9x9x16xf32>, tensor<64x1x1x16xf32>, tensor<64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x9x9x64xf32>
  %c24 = "tosa.const"() <{values = dense<[[[[0.1167, -0.0917, 0.1495, -0.0046, 0.0236, 0.1362, -0.0697, 0.1989, -0.0432, 0.0461, 0.0156, -0.1392, 0.0205, 0.1919, 0.0915, -0.1475, 0.1264, 0.0628, -0.1756, 0.0667, -0.1862, 0.1158, 0.1764, -0.1284, -0.0930, 0.0161, -0.0573, -0.0171, -0.1254, -0.1785, -0.1257, -0.1384, 0.0565, -0.0041, 0.0184, -0.1884, -0.1116, -0.0543, 0.0171, -0.0137, 0.0989, -0.1380, -0.0702, 0.0859, -0.1839, -0.1970, -0.1621, 0.0344, 0.0819, 0.1254, -0.0971, 0.1027, -0.1345, -0.1235, 0.1266, -0.0309, -0.0267, 0.1332, -0.1317, -0.1101, 0.1872, -0.1149, -0.1366, 0.1967]]]]> : tensor<1x1x1x64xf32>}> : () -> tensor<1x1x1x64xf32>
  %c25 = "tosa.const"() <{values = dense<[[[[0.9220, 0.9232, 1.3562, 1.2050, 1.4684, 1.1293, 0.9405, 1.4479, 1.1066, 0.5918, 1.3969, 1.2391, 0.6159, 0.5788, 1.2148, 1.1222, 0.6581, 0.6721, 1.1411, 0.6893, 1.4480, 1.4830, 0.5305, 1.4710, 1.1482, 1.4137, 1.2895, 0.7871, 0.8652, 0.5095, 1.0210, 1.3867, 1.3405, 0.9882, 0.6379, 1.2933, 1.0596, 1.4697, 0.9560, 1.1085, 1.0930, 1.4307, 1.1700, 0.8263, 0.7549, 1.1820, 0.9610, 0.8459, 1.3260, 1.0254, 1.0303, 0.5983, 0.7761, 0.5372, 1.0902, 0.5703, 1.4226, 1.0644, 0.8862, 1.1455, 1.0750, 0.9570, 0.9786, 0.5220]]]]> : tensor<1x1x1x64xf32>}> : () -> tensor<1x1x1x64xf32>
  %c26 = "tosa.const"() <{values = dense<[[[[0.1593, -0.1463, -0.1579, -0.1633, 0.0139, -0.0980, 0.1887, 0.0996, -0.1715, 0.0408, -0.1521, 0.1856, 0.1620, 0.0869, -0.0772, -0.0117, -0.0711, 0.1587, 0.0762, -0.0400, 0.0056, 0.1394, -0.0325, -0.0044, 0.0383, -0.0246, 0.1075, 0.0353, 0.0362, -0.0069, -0.1935, 0.1782, -0.0461, -0.1864, -0.0138, -0.1439, -0.1036, 0.0085, -0.0931, -0.0273, 0.0941, -0.1895, 0.0409, 0.0080, 0.1813, -0.1511, -0.0526, -0.1133, -0.1696, -0.1320, -0.0378, -0.1556, -0.1577, 0.1960, -0.0396, -0.1977, -0.1213, -0.0949, 0.1202, 0.0099, 0.1649, -0.1662, -0.1329, 0.1646]]]]> : tensor<1x1x1x64xf32>}> : () -> tensor<1x1x1x64xf32>
  %bn27 = tosa.sub %conv23, %c24 : (tensor<1x9x9x64xf32>, tensor<1x1x1x64xf32>) -> tensor<1x9x9x64xf32>
  %bn28 = tosa.mul %bn27, %c25, %shift : (tensor<1x9x9x64xf32>, tensor<1x1x1x64xf32>, tensor<1xi8>) -> tensor<1x9x9x64xf32>
  %bn29 = tosa.add %bn28, %c26 : (tensor<1x9x9x64xf32>, tensor<1x1x1x64xf32>) -> tensor<1x9x9x64xf32>
  %c30 = "tosa.const"() <{values = dense<0.0187> : tensor<64x1x1x64xf32>}> : () -> tensor<64x1x1x64xf32>
  %c31 = "tosa.const"() <{values = dense<0.0> : tensor<64xf32>}> : () -> tensor<64xf32>
  %conv32 = tosa.conv2d %x, %c30, %c31, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x17x17x64xf32>, tensor<64x1x1x64xf32>, tensor<64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x9x9x64xf32>
  %c33 = "tosa.const"() <{values = dense<[[[[0.1369, 0.1212, 0.0249, 0.1598, 0.0199, -0.1858, 0.1840, 0.1915, 0.0775, 0.1364, 0.0062, 0.1736, 0.1828, 0.1608, 0.1870, 0.0602, 0.1884, -0.1812, -0.1636, 0.0607, -0.0884, -0.1971, 0.0471, -0.1826, 0.1699, -0.1715, 0.0803, 0.0186, 0.0190, 0.0067, 0.0161, -0.0019, -0.1787, -0.0592, 0.0147, -0.0144, -0.1031, -0.1939, -0.0457, -0.1643, 0.0699, -0.1286, -0.1052, 0.0237, 0.0019, -0.0652, -0.0884, 0.0585, -0.1324, -0.1630, -0.0623, 0.0991, -0.1479, 0.1761, 0.1451, 0.1116, 0.1291, -0.0103, 0.0774, 0.0747, -0.0710, -0.0020, -0.1539, -0.1994]]]]> : tensor<1x1x1x64xf32>}> : () -> tensor<1x1x1x64xf32>
  %c34 = "tosa.const"() <{values = dense<[[[[0.8795, 1.4658, 0.9980, 0.9186, 1.0668, 1.0123, 0.8560, 1.2426, 1.0913, 1.1503, 0.7380, 0.8772, 0.7448, 0.8037, 1.1755, 1.1802, 1.0664, 0.8069, 1.0313, 1.4724, 0.8426, 1.2362, 1.2144, 1.0899, 0.7427, 0.9715, 1.4419, 1.1073, 1.0026, 1.1621, 0.6131, 0.6272, 1.1130, 0.8111, 0.9077, 0.7521, 0.9443, 0.7955, 0.6506, 1.1335, 0.5050, 1.0873, 0.5962, 1.3319, 0.9438, 0.5683, 0.8852, 0.7737, 1.2693, 1.2279, 1.3308, 0.7509, 1.2396, 0.9104, 0.7964, 0.8131, 0.6682, 1.1124, 0.5306, 0.7133, 1.1991, 1.2126, 1.2599, 0.9034]]]]> : tensor<1x1x1x64xf32>}> : () -> tensor<1x1x1x64xf32>
  %c35 = "tosa.const"() <{values = dense<[[[[0.1471, 0.0659, -0.1336, -0.1594, -0.0459, 0.0406, 0.0578, -0.0422, 0.0466, -0.0788, 0.0172, 0.1883, 0.0774, -0.0609, 0.1689, -0.1030, 0.0035, -0.1850, 0.0485, -0.1218, -0.1321, -0.0278, 0.0322, -0.0221, -0.0499, -0.0012, -0.1763, -0.0771, -0.1855, 0.0387, -0.0650, -0.0808, -0.0344, 0.1936, 0.0518, 0.0139, 0.1318, 0.1786, -0.0858, 0.0659, 0.1827, 0.0024, 0.1327, -0.0597, -0.0442, -0.1118, -0.0315, -0.0283, 0.0491, 0.1638, 0.1417, 0.1201, 0.0237, -0.0488, 0.1454, 0.1460, -0.1883, -0.1056, -0.1301, 0.0471, -0.0108, 0.1256, -0.0258, -0.1242]]]]> : tensor<1x1x1x64xf32>}> : () -> tensor<1x1x1x64xf32>
  %bn36 = tosa.sub %conv32, %c33 : (tensor<1x9x9x64xf32>, tensor<1x1x1x64xf32>) -> tensor<1x9x9x64xf32>
  %bn37 = tosa.mul %bn36, %c34, %shift : (tensor<1x9x9x64xf32>, tensor<1x1x1x64xf32>, tensor<1xi8>) -> tensor<1x9x9x64xf32>
  %bn38 = tosa.add %bn37, %c35 : (tensor<1x9x9x64xf32>, tensor<1x1x1x64xf32>) -> tensor<1x9x9x64xf32>
  %add39 = tosa.add %bn29, %bn38 : (tensor<1x9x9x64xf32>, tensor<1x9x9x64xf32>) -> tensor<1x9x9x64xf32>
  %relu40 = tosa.clamp %add39 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x9x9x64xf32>) -> tensor<1x9x9x64xf32>
  return %relu40 : tensor<1x9x9x64xf32>
}
