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

func.func @yolo_sppf(%x: tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c1 = "tosa.const"() <{values = dense<0.0494> : tensor<16x1x1x32xf32>}> : () -> tensor<16x1x1x32xf32>
  %c2 = "tosa.const"() <{values = dense<0.0> : tensor<16xf32>}> : () -> tensor<16xf32>
  %conv3 = tosa.conv2d %x, %c1, %c2, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x32xf32>, tensor<16x1x1x32xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x16xf32>
  %c4 = "tosa.const"() <{values = dense<[[[[0.0735, 0.0725, -0.1356, -0.0938, 0.1257, 0.0997, -0.0373, 0.1231, 0.0068, -0.1320, -0.1901, 0.0637, 0.0447, 0.1924, -0.1941, 0.0923]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c5 = "tosa.const"() <{values = dense<[[[[1.2150, 0.6341, 1.2209, 0.6543, 0.6548, 1.2471, 0.6360, 0.6631, 0.7237, 0.9671, 1.4780, 1.2842, 1.1827, 1.0939, 1.1992, 0.5442]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %c6 = "tosa.const"() <{values = dense<[[[[-0.1759, 0.1996, -0.1520, 0.1943, 0.0352, 0.0219, -0.1956, -0.1511, -0.1518, 0.1640, -0.1782, -0.1579, -0.1076, 0.0501, -0.0628, -0.1288]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %bn7 = tosa.sub %conv3, %c4 : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x16x16x16xf32>
  %bn8 = tosa.mul %bn7, %c5, %shift : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>, tensor<1xi8>) -> tensor<1x16x16x16xf32>
  %bn9 = tosa.add %bn8, %c6 : (tensor<1x16x16x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x16x16x16xf32>
  %sig10 = tosa.sigmoid %bn9 : (tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %silu11 = tosa.mul %bn9, %sig10, %shift : (tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>, tensor<1xi8>) -> tensor<1x16x16x16xf32>
  %pool12 = tosa.max_pool2d %silu11 {kernel = array<i64: 5, 5>, pad = array<i64: 2, 2, 2, 2>, stride = array<i64: 1, 1>} : (tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %pool13 = tosa.max_pool2d %pool12 {kernel = array<i64: 5, 5>, pad = array<i64: 2, 2, 2, 2>, stride = array<i64: 1, 1>} : (tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %pool14 = tosa.max_pool2d %pool13 {kernel = array<i64: 5, 5>, pad = array<i64: 2, 2, 2, 2>, stride = array<i64: 1, 1>} : (tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %cat15 = tosa.concat %silu11, %pool12, %pool13, %pool14 {axis = 3 : i32} : (tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>) -> tensor<1x16x16x64xf32>
  %c16 = "tosa.const"() <{values = dense<0.0337> : tensor<32x1x1x64xf32>}> : () -> tensor<32x1x1x64xf32>
  %c17 = "tosa.const"() <{values = dense<0.0> : tensor<32xf32>}> : () -> tensor<32xf32>
  %conv18 = tosa.conv2d %cat15, %c16, %c17, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x64xf32>, tensor<32x1x1x64xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x32xf32>
  %c19 = "tosa.const"() <{values = dense<[[[[0.1555, -0.0252, 0.1783, 0.1949, -0.0118, 0.1764, 0.1216, 0.1661, -0.0416, -0.1869, 0.0045, -0.1618, 0.1422, -0.0389, -0.1563, -0.1625, 0.0114, -0.0618, -0.1756, -0.1833, -0.1334, -0.1147, -0.0382, 0.1048, 0.0320, 0.0406, -0.0662, -0.0959, -0.1494, -0.0818, -0.0418, -0.0726]]]]> : tensor<1x1x1x32xf32>}> : () -> tensor<1x1x1x32xf32>
  %c20 = "tosa.const"() <{values = dense<[[[[0.8206, 0.5657, 1.3691, 1.2462, 0.6192, 1.2305, 1.4809, 0.5528, 0.6937, 1.3813, 0.9845, 0.5710, 1.2176, 1.3759, 0.9745, 1.4591, 0.6239, 1.2624, 1.3594, 0.7264, 1.1299, 0.5727, 0.8388, 0.8672, 1.0945, 1.0562, 0.9064, 1.0454, 1.2723, 0.8248, 0.7177, 0.8869]]]]> : tensor<1x1x1x32xf32>}> : () -> tensor<1x1x1x32xf32>
  %c21 = "tosa.const"() <{values = dense<[[[[-0.1833, 0.1673, 0.1732, -0.1421, -0.0597, -0.1374, -0.0582, -0.1367, -0.0528, 0.0872, -0.1663, 0.0127, -0.1451, 0.0607, 0.1285, 0.1231, 0.1943, -0.0844, 0.0270, 0.1444, -0.1467, -0.1143, 0.0036, 0.0950, -0.1737, -0.1092, 0.1198, 0.0928, 0.1618, -0.1477, -0.1300, -0.1136]]]]> : tensor<1x1x1x32xf32>}> : () -> tensor<1x1x1x32xf32>
  %bn22 = tosa.sub %conv18, %c19 : (tensor<1x16x16x32xf32>, tensor<1x1x1x32xf32>) -> tensor<1x16x16x32xf32>
  %bn23 = tosa.mul %bn22, %c20, %shift : (tensor<1x16x16x32xf32>, tensor<1x1x1x32xf32>, tensor<1xi8>) -> tensor<1x16x16x32xf32>
  %bn24 = tosa.add %bn23, %c21 : (tensor<1x16x16x32xf32>, tensor<1x1x1x32xf32>) -> tensor<1x16x16x32xf32>
  %sig25 = tosa.sigmoid %bn24 : (tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
  %silu26 = tosa.mul %bn24, %sig25, %shift : (tensor<1x16x16x32xf32>, tensor<1x16x16x32xf32>, tensor<1xi8>) -> tensor<1x16x16x32xf32>
  return %silu26 : tensor<1x16x16x32xf32>
}
