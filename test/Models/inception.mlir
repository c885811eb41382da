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

// Groups print in the kernel order chosen for memory: the branches write
// their slices of the concatenation in any order (disjoint slices), and
// with the pool branch's written last, the pooled tensor is made after the
// 3x3 and 5x5 branches have consumed the reduced 1x1 outputs: max-live
// 49152 -> 32768 B (the largest one kernel's own buffers take).
// CHECK-LABEL: func @inception
// CHECK: fuse.group composite rule "shared_input_contractions"
// CHECK-COUNT-2: fuse.group diagonal rule "contraction_epilogue"
// CHECK: fuse.group vertical rule "pad_prologue"
// CHECK: fuse.group diagonal rule "contraction_epilogue"
// CHECK-NOT: fuse.group
// REPORT: "kernels_after": 5
// REPORT: "kernel_order": {
// REPORT-NEXT: "strategy": "concat-order+branch-first",
// REPORT-NEXT: "max_live_source_order": 49152,
// REPORT-NEXT: "max_live": 32768,
// REPORT-NEXT: "bound": 32768
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

func.func @inception(%x: tensor<1x16x16x32xf32>) -> tensor<1x16x16x48xf32> {
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
  %cat62 = tosa.concat %relu10, %relu30, %relu50, %relu61 {axis = 3 : i32} : (tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>, tensor<1x16x16x8xf32>, tensor<1x16x16x8xf32>) -> tensor<1x16x16x48xf32>
  return %cat62 : tensor<1x16x16x48xf32>
}
