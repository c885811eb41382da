// The order in which the branches of a concatenation write their slices
// is chosen for memory (fuse-form-groups order-kernels): insertions into
// disjoint static slices of one tensor.empty commute, so the kernel order
// may run them in any order, and the chain of destinations is rethreaded
// to the one whose kernel order has the least max-live. The Inception
// block (test/Models/inception.mlir) drops from 49152 to 32768 B with its
// pool branch written last; without order-kernels its branches keep the
// dataflow order (the pool first).
// RUN: fuse-opt %S/../Models/inception.mlir --fuse-fusion-pipeline="target=h200 order-kernels=false report=-" -o /dev/null | FileCheck %s --check-prefix=OFF
// RUN: fuse-opt %S/../Models/inception.mlir --fuse-fusion-pipeline="target=h200 order-kernels=false" | FileCheck %s --check-prefix=OFF-ORDER
// OFF: "kernel_order": {
// OFF-NEXT: "strategy": "given",
// OFF-NEXT: "max_live_source_order": 49152,
// OFF-NEXT: "max_live": 49152,
// OFF-ORDER: fuse.group vertical rule "pad_prologue"
// OFF-ORDER: fuse.group composite rule "shared_input_contractions"
// OFF-ORDER-COUNT-3: fuse.group diagonal rule "contraction_epilogue"

// Slices that overlap do not commute (the later insertion wins where they
// meet): the Inception block again, its branches inserted in the dataflow
// order above (the pool branch second) into 44 channels, the 5x5 branch's
// slice over half of the pool branch's. The chain is not a concatenation and keeps
// its order, max-live 49152 B (taking the pool branch's insertion last
// would lower it, and give other values where the slices meet), and fused
// computes what unfused does.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 report=-" -o /dev/null | FileCheck %s --check-prefix=OVERLAP
// RUN: %check_equivalence %s --function overlapping | FileCheck %s --check-prefix=EXEC
// OVERLAP: "name": "overlapping"
// OVERLAP: "kernel_order": {
// OVERLAP-NEXT: "strategy": "given",
// OVERLAP-NEXT: "max_live_source_order": 49152,
// OVERLAP-NEXT: "max_live": 49152,
// EXEC-NOT: FAIL
// EXEC: PASS
func.func @overlapping(%x: tensor<1x16x16x32xf32>) -> tensor<1x16x16x44xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c1 = "tosa.const"() <{values = dense<0.0112> : tensor<16x1x1x32xf32>}> : () -> tensor<16x1x1x32xf32>
  %c2 = "tosa.const"() <{values = dense<0.0> : tensor<16xf32>}> : () -> tensor<16xf32>
  %conv3 = tosa.conv2d %x, %c1, %c2, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x32xf32>, tensor<16x1x1x32xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x16xf32>
  %c4 = "tosa.const"() <{values = dense<[[[[-0.1662, -0.1594, -0.1131, -0.1508, 0.0406, 0.0544, 0.1974, 0.0505, -0.0335, -0.0715, 0.1590, -0.1613, -0.1735, -0.0633, -0.1397, 0.0509]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c5 = "tosa.const"() <{values = dense<[[[[0.5995, 0.6055, 1.3184, 1.3742, 1.0545, 0.9857, 1.0944, 0.6246, 0.8464, 0.6494, 0.9663, 1.3548, 0.5996, 1.4980, 1.2957, 0.9236]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c6 = "tosa.const"() <{values = dense<[[[[0.1789, -0.1635, 0.0743, -0.0308, 0.1966, -0.0233, -0.1755, -0.0098, 0.0989, 0.1991, -0.0369, -0.0287, -0.1725, 0.0851, 0.0096, -0.0302]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %bn7 = tosa.sub %conv3, %c4 : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x16x16x16xf32>
  %bn8 = tosa.mul %bn7, %c5, %shift : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>, tensor<1xi8>) -> tensor<1x16x16x16xf32>
  %bn9 = tosa.add %bn8, %c6 : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x16x16x16xf32>
  %relu10 = tosa.clamp %bn9 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %c11 = "tosa.const"() <{values = dense<0.024> : tensor<8x1x1x32xf32>}> : () -> tensor<8x1x1x32xf32>
  %c12 = "tosa.const"() <{values = dense<0.0> : tensor<8xf32>}> : () -> tensor<8xf32>
  %conv13 = tosa.conv2d %x, %c11, %c12, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x32xf32>, tensor<8x1x1x32xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x8xf32>
  %c14 = "tosa.const"() <{values = dense<[[[[-0.1324, 0.1426, 0.0410, 0.1165, -0.0967, 0.1206, 0.1144, 0.0779]]]]> : tensor<1x1x1x8xf32>}> : () -> tensor<1x1x1x8xf32>
  %c15 = "tosa.const"() <{values = dense<[[[[0.8649, 1.2524, 0.9105, 1.1337, 1.0779, 1.1178, 0.8192, 1.3578]]]]> : tensor<1x1x1x8xf32>}> : () -> tensor<1x1x1x8xf32>
  %c16 = "tosa.const"() <{values = dense<[[[[0.1467, -0.0757, 0.0967, 0.0419, -0.1275, -0.0324, -0.1864, 0.0438]]]]> : tensor<1x1x1x8xf32>}> : () -> tensor<1x1x1x8xf32>
  %bn17 = tosa.sub %conv13, %c14 : (tensor<1x16x16x8xf32>, tensor<1x1x1x8xf32>) -> tensor<1x16x16x8xf32>
  %bn18 = tosa.mul %bn17, %c15, %shift : (tensor<1x16x16x8xf32>, tensor<1x1x1x8xf32>, tensor<1xi8>) -> tensor<1x16x16x8xf32>
  %bn19 = tosa.add %bn18, %c16 : (tensor<1x16x16x8xf32>, tensor<1x1x1x8xf32>) -> tensor<1x16x16x8xf32>
  %relu20 = tosa.clamp %bn19 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x16x8xf32>) -> tensor<1x16x16x8xf32>
  %c21 = "tosa.const"() <{values = dense<0.0311> : tensor<16x3x3x8xf32>}> : () -> tensor<16x3x3x8xf32>
  %c22 = "tosa.const"() <{values = dense<0.0> : tensor<16xf32>}> : () -> tensor<16xf32>
  %conv23 = tosa.conv2d %relu20, %c21, %c22, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x16x16x8xf32>, tensor<16x3x3x8xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x16xf32>
  %c24 = "tosa.const"() <{values = dense<[[[[-0.0839, 0.0954, 0.1476, -0.1168, 0.1730, 0.0911, -0.0233, -0.0569, 0.0069, 0.1811, -0.0755, 0.1489, -0.1013, 0.1670, 0.0403, -0.0649]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c25 = "tosa.const"() <{values = dense<[[[[0.8182, 1.4211, 1.1378, 1.1610, 0.9060, 0.9243, 0.9618, 0.8763, 0.6065, 0.8726, 1.3237, 0.9306, 1.1798, 1.0844, 1.0694, 0.8583]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c26 = "tosa.const"() <{values = dense<[[[[0.1043, -0.0455, -0.0597, -0.0996, -0.0081, -0.0559, -0.0136, 0.0413, 0.1455, -0.0824, 0.1903, 0.1173, -0.1535, -0.0677, -0.0953, -0.0800]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %bn27 = tosa.sub %conv23, %c24 : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x16x16x16xf32>
  %bn28 = tosa.mul %bn27, %c25, %shift : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>, tensor<1xi8>) -> tensor<1x16x16x16xf32>
  %bn29 = tosa.add %bn28, %c26 : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x16x16x16xf32>
  %relu30 = tosa.clamp %bn29 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %c31 = "tosa.const"() <{values = dense<0.0446> : tensor<8x1x1x32xf32>}> : () -> tensor<8x1x1x32xf32>
  %c32 = "tosa.const"() <{values = dense<0.0> : tensor<8xf32>}> : () -> tensor<8xf32>
  %conv33 = tosa.conv2d %x, %c31, %c32, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x32xf32>, tensor<8x1x1x32xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x8xf32>
  %c34 = "tosa.const"() <{values = dense<[[[[0.0839, -0.1991, -0.1127, -0.1688, -0.1294, 0.0835, 0.1741, 0.1844]]]]> : tensor<1x1x1x8xf32>}> : () -> tensor<1x1x1x8xf32>
  %c35 = "tosa.const"() <{values = dense<[[[[1.0397, 0.6031, 1.1125, 1.0162, 1.1174, 0.7891, 0.6081, 0.9184]]]]> : tensor<1x1x1x8xf32>}> : () -> tensor<1x1x1x8xf32>
  %c36 = "tosa.const"() <{values = dense<[[[[-0.1534, 0.1993, 0.1631, 0.1177, -0.1713, 0.0357, 0.0940, -0.0447]]]]> : tensor<1x1x1x8xf32>}> : () -> tensor<1x1x1x8xf32>
  %bn37 = tosa.sub %conv33, %c34 : (tensor<1x16x16x8xf32>, tensor<1x1x1x8xf32>) -> tensor<1x16x16x8xf32>
  %bn38 = tosa.mul %bn37, %c35, %shift : (tensor<1x16x16x8xf32>, tensor<1x1x1x8xf32>, tensor<1xi8>) -> tensor<1x16x16x8xf32>
  %bn39 = tosa.add %bn38, %c36 : (tensor<1x16x16x8xf32>, tensor<1x1x1x8xf32>) -> tensor<1x16x16x8xf32>
  %relu40 = tosa.clamp %bn39 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x16x8xf32>) -> tensor<1x16x16x8xf32>
  %c41 = "tosa.const"() <{values = dense<0.0155> : tensor<8x5x5x8xf32>}> : () -> tensor<8x5x5x8xf32>
  %c42 = "tosa.const"() <{values = dense<0.0> : tensor<8xf32>}> : () -> tensor<8xf32>
  %conv43 = tosa.conv2d %relu40, %c41, %c42, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 2, 2, 2, 2>, stride = array<i64: 1, 1>} : (tensor<1x16x16x8xf32>, tensor<8x5x5x8xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x8xf32>
  %c44 = "tosa.const"() <{values = dense<[[[[0.1881, 0.0247, -0.1904, 0.1082, -0.0852, 0.1689, 0.0227, 0.1339]]]]> : tensor<1x1x1x8xf32>}> : () -> tensor<1x1x1x8xf32>
  %c45 = "tosa.const"() <{values = dense<[[[[0.9412, 1.4308, 0.9147, 0.6496, 1.1396, 1.4851, 0.6650, 0.8972]]]]> : tensor<1x1x1x8xf32>}> : () -> tensor<1x1x1x8xf32>
  %c46 = "tosa.const"() <{values = dense<[[[[-0.1805, -0.0186, 0.0297, 0.1285, -0.0236, 0.0544, 0.1138, -0.0850]]]]> : tensor<1x1x1x8xf32>}> : () -> tensor<1x1x1x8xf32>
  %bn47 = tosa.sub %conv43, %c44 : (tensor<1x16x16x8xf32>, tensor<1x1x1x8xf32>) -> tensor<1x16x16x8xf32>
  %bn48 = tosa.mul %bn47, %c45, %shift : (tensor<1x16x16x8xf32>, tensor<1x1x1x8xf32>, tensor<1xi8>) -> tensor<1x16x16x8xf32>
  %bn49 = tosa.add %bn48, %c46 : (tensor<1x16x16x8xf32>, tensor<1x1x1x8xf32>) -> tensor<1x16x16x8xf32>
  %relu50 = tosa.clamp %bn49 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x16x8xf32>) -> tensor<1x16x16x8xf32>
  %pool51 = tosa.max_pool2d %x {kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
  %c52 = "tosa.const"() <{values = dense<0.0412> : tensor<8x1x1x32xf32>}> : () -> tensor<8x1x1x32xf32>
  %c53 = "tosa.const"() <{values = dense<0.0> : tensor<8xf32>}> : () -> tensor<8xf32>
  %conv54 = tosa.conv2d %pool51, %c52, %c53, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x32xf32>, tensor<8x1x1x32xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x8xf32>
  %c55 = "tosa.const"() <{values = dense<[[[[0.1185, -0.0281, -0.0921, 0.0961, 0.0095, -0.1397, -0.0715, 0.1052]]]]> : tensor<1x1x1x8xf32>}> : () -> tensor<1x1x1x8xf32>
  %c56 = "tosa.const"() <{values = dense<[[[[1.1897, 0.5310, 0.6031, 0.9663, 0.5771, 0.8909, 0.5747, 1.4944]]]]> : tensor<1x1x1x8xf32>}> : () -> tensor<1x1x1x8xf32>
  %c57 = "tosa.const"() <{values = dense<[[[[-0.0532, 0.0680, -0.0894, -0.1125, -0.0639, -0.1629, 0.0156, -0.1555]]]]> : tensor<1x1x1x8xf32>}> : () -> tensor<1x1x1x8xf32>
  %bn58 = tosa.sub %conv54, %c55 : (tensor<1x16x16x8xf32>, tensor<1x1x1x8xf32>) -> tensor<1x16x16x8xf32>
  %bn59 = tosa.mul %bn58, %c56, %shift : (tensor<1x16x16x8xf32>, tensor<1x1x1x8xf32>, tensor<1xi8>) -> tensor<1x16x16x8xf32>
  %bn60 = tosa.add %bn59, %c57 : (tensor<1x16x16x8xf32>, tensor<1x1x1x8xf32>) -> tensor<1x16x16x8xf32>
  %relu61 = tosa.clamp %bn60 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x16x8xf32>) -> tensor<1x16x16x8xf32>
  %e = tensor.empty() : tensor<1x16x16x44xf32>
  %s1 = tensor.insert_slice %relu10 into %e[0, 0, 0, 0] [1, 16, 16, 16] [1, 1, 1, 1] : tensor<1x16x16x16xf32> into tensor<1x16x16x44xf32>
  %s2 = tensor.insert_slice %relu61 into %s1[0, 0, 0, 36] [1, 16, 16, 8] [1, 1, 1, 1] : tensor<1x16x16x8xf32> into tensor<1x16x16x44xf32>
  %s3 = tensor.insert_slice %relu30 into %s2[0, 0, 0, 16] [1, 16, 16, 16] [1, 1, 1, 1] : tensor<1x16x16x16xf32> into tensor<1x16x16x44xf32>
  %cat62 = tensor.insert_slice %relu50 into %s3[0, 0, 0, 32] [1, 16, 16, 8] [1, 1, 1, 1] : tensor<1x16x16x8xf32> into tensor<1x16x16x44xf32>
  return %cat62 : tensor<1x16x16x44xf32>
}
