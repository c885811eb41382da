// A ResNet-50 bottleneck block with BatchNorm after every conv (as in a
// training-mode export) and a 1x1 downsample branch.
// BN folds into the convs; when the downsample's stride equals the first
// conv's (stride 1 here) the two 1x1 convs on the block input become one
// GEMM, and the block is 3 kernels:
//   0 conv1 + downsample (one conv on concatenated weights), ReLU, slices;
//   1 pad + 3x3 conv + ReLU;
//   2 conv3 + residual add (reads the downsample slice) + ReLU.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200" | FileCheck %s
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT
// With stride 2 on both (the first block of a stage) they still merge; see
// resnet-bottleneck-ds.mlir for strides that differ.

// CHECK-LABEL: func @resnet_bottleneck
// CHECK-NOT: tosa.
// CHECK: fuse.group horizontal rule "shared_input_contractions"
// CHECK: linalg.conv_2d_nhwc_fhwc {{.*}} -> tensor<1x16x16x80xf32>
// CHECK: fuse.group vertical rule "contraction_epilogue"
// CHECK: tensor.pad
// CHECK: fuse.group diagonal rule "residual_join"
// CHECK-NOT: fuse.group
// REPORT: "kernels_after": 3
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

func.func @resnet_bottleneck(%x: tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c1 = "tosa.const"() <{values = dense<0.0148> : tensor<16x1x1x64xf32>}> : () -> tensor<16x1x1x64xf32>
  %c2 = "tosa.const"() <{values = dense<0.0> : tensor<16xf32>}> : () -> tensor<16xf32>
  %conv3 = tosa.conv2d %x, %c1, %c2, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x64xf32>, tensor<16x1x1x64xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x16xf32>
  %c4 = "tosa.const"() <{values = dense<[[[[0.0010, 0.0047, 0.1440, -0.1589, -0.1107, 0.0404, 0.0226, 0.1133, 0.0191, 0.0922, 0.1072, 0.1004, 0.0346, -0.1040, 0.0457, -0.1557]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c5 = "tosa.const"() <{values = dense<[[[[1.3168, 0.9497, 1.3148, 1.1852, 1.1794, 0.7102, 0.7515, 1.4799, 1.4293, 1.3051, 1.4997, 1.0136, 0.5763, 0.8404, 1.0575, 0.7921]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c6 = "tosa.const"() <{values = dense<[[[[-0.0170, 0.1506, 0.0816, 0.0310, -0.1901, 0.0843, -0.0546, -0.0311, -0.0405, 0.0343, -0.0006, -0.1534, 0.0025, 0.1001, 0.0401, -0.0036]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %bn7 = tosa.sub %conv3, %c4 : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x16x16x16xf32>
  %bn8 = tosa.mul %bn7, %c5, %shift : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>, tensor<1xi8>) -> tensor<1x16x16x16xf32>
  %bn9 = tosa.add %bn8, %c6 : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x16x16x16xf32>
  %relu10 = tosa.clamp %bn9 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %c11 = "tosa.const"() <{values = dense<0.0467> : tensor<16x3x3x16xf32>}> : () -> tensor<16x3x3x16xf32>
  %c12 = "tosa.const"() <{values = dense<0.0> : tensor<16xf32>}> : () -> tensor<16xf32>
  %conv13 = tosa.conv2d %relu10, %c11, %c12, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x16x16x16xf32>, tensor<16x3x3x16xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x16xf32>
  %c14 = "tosa.const"() <{values = dense<[[[[-0.0965, -0.0320, 0.1705, -0.0083, 0.0072, -0.1898, -0.1102, -0.1484, -0.1804, 0.0819, 0.1547, -0.1590, 0.0489, -0.0120, -0.0072, -0.1084]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c15 = "tosa.const"() <{values = dense<[[[[1.3859, 1.1267, 0.9568, 0.9694, 1.4295, 1.4872, 1.0456, 1.0598, 1.1698, 0.8076, 1.2998, 1.0019, 0.9789, 1.3845, 0.9331, 0.7944]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c16 = "tosa.const"() <{values = dense<[[[[-0.0924, -0.1868, 0.0623, 0.0389, -0.0167, 0.0092, -0.0042, 0.1686, -0.0960, -0.0058, 0.0045, 0.1305, 0.1232, 0.0231, 0.1629, 0.1326]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %bn17 = tosa.sub %conv13, %c14 : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x16x16x16xf32>
  %bn18 = tosa.mul %bn17, %c15, %shift : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>, tensor<1xi8>) -> tensor<1x16x16x16xf32>
  %bn19 = tosa.add %bn18, %c16 : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x16x16x16xf32>
  %relu20 = tosa.clamp %bn19 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %c21 = "tosa.const"() <{values = dense<0.0227> : tensor<64x1x1x16xf32>}> : () -> tensor<64x1x1x16xf32>
  %c22 = "tosa.const"() <{values = dense<0.0> : tensor<64xf32>}> : () -> tensor<64xf32>
  %conv23 = tosa.conv2d %relu20, %c21, %c22, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x16xf32>, tensor<64x1x1x16xf32>, tensor<64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x64xf32>
  %c24 = "tosa.const"() <{values = dense<[[[[0.1667, -0.1607, 0.0757, 0.1140, 0.0061, -0.0188, 0.1861, 0.1869, 0.1370, -0.0083, -0.1743, -0.0934, -0.0006, -0.1613, 0.0990, -0.0355, -0.0202, -0.1944, -0.1999, 0.0323, 0.1729, -0.1668, 0.1175, -0.1009, 0.0484, 0.1007, 0.1825, 0.0674, 0.0542, -0.1381, -0.0746, 0.0332, 0.1078, 0.1800, -0.0032, 0.0882, -0.1461, -0.1108, 0.0352, 0.1833, 0.1504, 0.0019, -0.1662, 0.0674, 0.1740, 0.1134, 0.1660, -0.0776, -0.0352, 0.1232, 0.0080, -0.1213, -0.1943, -0.1575, 0.1551, -0.1794, -0.0612, -0.0586, 0.1078, -0.1897, 0.0042, -0.0689, -0.0785, -0.0696]]]]> : tensor<1x1x1x64xf32>}> : () -> tensor<1x1x1x64xf32>
  %c25 = "tosa.const"() <{values = dense<[[[[0.6214, 1.4488, 1.0716, 1.3049, 0.6539, 1.0196, 0.9336, 0.8364, 1.0982, 1.1785, 0.5695, 0.8992, 0.6955, 1.4215, 0.5452, 1.0448, 1.3390, 0.9518, 1.2547, 0.6885, 1.2109, 1.3778, 0.6291, 1.0299, 1.2854, 1.0169, 1.4566, 0.6604, 1.3444, 0.8900, 0.9254, 0.9141, 0.5787, 0.8049, 0.8441, 0.7634, 0.9976, 1.2802, 0.9157, 0.9677, 0.8258, 0.9821, 0.6201, 1.2966, 1.2967, 1.3162, 1.3479, 0.7313, 1.4537, 1.3786, 1.1457, 0.9080, 1.2833, 1.3495, 1.1704, 1.4612, 0.8520, 0.6568, 1.0620, 1.0723, 1.0384, 0.6097, 1.2160, 1.0558]]]]> : tensor<1x1x1x64xf32>}> : () -> tensor<1x1x1x64xf32>
  %c26 = "tosa.const"() <{values = dense<[[[[0.0272, -0.1142, -0.0821, -0.0928, 0.0223, -0.1594, -0.0945, 0.1820, -0.1315, 0.0738, 0.1036, 0.0889, -0.1258, 0.0520, 0.0027, -0.0893, 0.1350, -0.0836, -0.0742, -0.0957, -0.1748, -0.0353, 0.1592, 0.1107, -0.0342, -0.1938, -0.1614, -0.1908, -0.1508, 0.0743, 0.0306, 0.1744, -0.0599, 0.1119, 0.0429, 0.0619, 0.0461, 0.1699, -0.0736, -0.1137, -0.0149, 0.1916, 0.1514, 0.0746, 0.1445, 0.0726, 0.1695, -0.0444, 0.1788, -0.0575, 0.0942, -0.0253, -0.1905, 0.0781, -0.0842, 0.1833, 0.1199, -0.1511, 0.1072, -0.0724, 0.1612, 0.0169, -0.0630, 0.0243]]]]> : tensor<1x1x1x64xf32>}> : () -> tensor<1x1x1x64xf32>
  %bn27 = tosa.sub %conv23, %c24 : (tensor<1x16x16x64xf32>, tensor<1x1x1x64xf32>) -> tensor<1x16x16x64xf32>
  %bn28 = tosa.mul %bn27, %c25, %shift : (tensor<1x16x16x64xf32>, tensor<1x1x1x64xf32>, tensor<1xi8>) -> tensor<1x16x16x64xf32>
  %bn29 = tosa.add %bn28, %c26 : (tensor<1x16x16x64xf32>, tensor<1x1x1x64xf32>) -> tensor<1x16x16x64xf32>
  %c30 = "tosa.const"() <{values = dense<0.0389> : tensor<64x1x1x64xf32>}> : () -> tensor<64x1x1x64xf32>
  %c31 = "tosa.const"() <{values = dense<0.0> : tensor<64xf32>}> : () -> tensor<64xf32>
  %conv32 = tosa.conv2d %x, %c30, %c31, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x64xf32>, tensor<64x1x1x64xf32>, tensor<64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x64xf32>
  %c33 = "tosa.const"() <{values = dense<[[[[-0.1550, 0.0476, -0.1527, -0.1497, -0.0584, 0.0592, 0.0623, -0.1885, 0.0313, -0.0576, -0.0464, -0.1043, -0.0316, -0.1122, -0.1499, 0.0172, 0.0646, 0.1739, 0.0735, -0.0413, -0.0980, -0.1409, -0.1907, -0.0893, -0.0085, -0.0945, -0.0741, 0.1777, 0.0375, 0.1358, 0.0212, 0.0601, 0.1845, 0.0056, -0.0939, 0.0532, 0.1018, -0.0730, 0.0631, -0.1954, 0.1913, -0.0118, 0.1881, 0.0717, 0.1448, 0.1709, 0.1624, -0.0404, 0.1905, 0.1804, -0.1070, 0.1316, -0.0625, -0.1196, -0.0564, 0.0548, 0.0195, -0.0104, 0.1155, 0.0322, -0.1248, 0.0512, -0.1385, 0.1575]]]]> : tensor<1x1x1x64xf32>}> : () -> tensor<1x1x1x64xf32>
  %c34 = "tosa.const"() <{values = dense<[[[[1.4504, 1.3138, 1.3351, 1.2023, 1.2954, 1.1391, 0.5842, 0.8728, 1.2310, 0.6380, 1.2395, 1.4988, 0.5184, 0.7171, 1.3487, 1.0824, 1.0726, 1.4555, 0.8806, 1.4631, 1.0166, 1.1440, 0.6580, 1.0088, 0.5855, 1.2326, 0.8336, 0.7614, 0.5416, 1.0927, 1.2872, 0.6622, 0.7929, 1.0412, 0.8572, 1.4728, 0.6887, 1.2470, 0.5094, 1.1060, 0.9800, 0.9227, 1.3121, 1.4021, 1.4790, 1.4968, 0.6709, 1.0162, 0.6796, 1.0391, 0.6639, 1.3872, 1.0150, 1.3823, 1.1434, 0.5020, 0.8746, 0.8680, 0.7162, 0.6542, 1.1100, 0.6265, 1.4850, 0.9846]]]]> : tensor<1x1x1x64xf32>}> : () -> tensor<1x1x1x64xf32>
  %c35 = "tosa.const"() <{values = dense<[[[[0.1496, 0.0906, -0.0475, 0.0468, 0.0590, -0.0609, 0.1638, -0.1516, 0.0076, 0.1315, 0.0734, -0.0176, 0.0341, -0.1670, 0.1116, -0.1649, -0.0021, -0.0752, 0.1013, -0.1096, -0.0700, 0.0025, -0.0673, 0.1628, 0.0895, 0.1429, -0.0388, -0.1293, 0.1226, -0.1119, 0.0757, -0.0606, 0.1149, -0.0361, 0.1213, -0.0473, -0.1382, 0.0972, 0.0627, -0.1490, -0.0929, 0.1343, -0.0720, 0.1365, -0.0222, -0.1419, 0.0508, -0.1063, 0.1889, 0.0245, -0.1507, -0.0826, -0.0168, -0.0395, -0.1913, 0.0866, 0.0696, -0.0653, 0.0717, 0.1692, 0.1634, 0.1389, 0.1811, 0.0671]]]]> : tensor<1x1x1x64xf32>}> : () -> tensor<1x1x1x64xf32>
  %bn36 = tosa.sub %conv32, %c33 : (tensor<1x16x16x64xf32>, tensor<1x1x1x64xf32>) -> tensor<1x16x16x64xf32>
  %bn37 = tosa.mul %bn36, %c34, %shift : (tensor<1x16x16x64xf32>, tensor<1x1x1x64xf32>, tensor<1xi8>) -> tensor<1x16x16x64xf32>
  %bn38 = tosa.add %bn37, %c35 : (tensor<1x16x16x64xf32>, tensor<1x1x1x64xf32>) -> tensor<1x16x16x64xf32>
  %add39 = tosa.add %bn29, %bn38 : (tensor<1x16x16x64xf32>, tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  %relu40 = tosa.clamp %add39 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  return %relu40 : tensor<1x16x16x64xf32>
}
