// Two copies of test/Random/lowering-dominance.mlir's graph on two inputs:
// their groups are the same kernels, so fuse-form-groups' lowering check
// tiles the first copy's group and the second takes its outcome (the
// refusal, here), naming its own group. Both copies end as the single copy
// does (two refusals each), and the fused graph agrees with the unfused.
// RUN: %check_equivalence %s --lower-groups --distribute-threads 96 | FileCheck %s
// CHECK: PASS
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 report=-" -o /dev/null \
// RUN:   | %python -c "import json, sys; [print(x['candidate'].split('@')[1], '|', x['reason']) for f in json.load(sys.stdin)['functions'] for x in f['rejected'] if x['check'] == 'lowering']" \
// RUN:   | FileCheck %s --check-prefix=REPORT
// REPORT: shared-lowering-check.mlir:[[FIRST:[0-9]+]]:10 | the group would not lower to one loop nest: group 0: the loop of one of its roots
// REPORT-NEXT: shared-lowering-check.mlir:[[FIRST]]:10 | the group would not lower to one loop nest: group 0: the loop
// REPORT-NEXT: shared-lowering-check.mlir:[[SECOND:[0-9]+]]:10 | the group would not lower to one loop nest: group 5: the loop
// REPORT-NEXT: shared-lowering-check.mlir:[[SECOND]]:10 | the group would not lower to one loop nest: group 4: the loop
func.func @twice(%x: tensor<1x7x1x4xf32>, %y: tensor<1x7x1x4xf32>) -> (tensor<1x7x1x4xf32>, tensor<1x7x1x12xf32>, tensor<1x7x1x4xf32>, tensor<1x7x1x12xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %v1 = tosa.erf %x : (tensor<1x7x1x4xf32>) -> tensor<1x7x1x4xf32>
  %v2 = tosa.sub %v1, %x : (tensor<1x7x1x4xf32>, tensor<1x7x1x4xf32>) -> tensor<1x7x1x4xf32>
  %v3 = tosa.erf %x : (tensor<1x7x1x4xf32>) -> tensor<1x7x1x4xf32>
  %v4 = tosa.max_pool2d %x {kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x7x1x4xf32>) -> tensor<1x7x1x4xf32>
  %v5 = tosa.clamp %v4 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x7x1x4xf32>) -> tensor<1x7x1x4xf32>
  %v6 = tosa.sin %v4 : (tensor<1x7x1x4xf32>) -> tensor<1x7x1x4xf32>
  %s7 = tosa.const_shape {values = dense<[1, 7, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v8 = tosa.reshape %v3, %s7 : (tensor<1x7x1x4xf32>, !tosa.shape<3>) -> tensor<1x7x4xf32>
  %w9 = "tosa.const"() <{values = dense<"0x3AEF1B3E46D7DF3D33890FBBC4DDABBD3BA64BBE9F0143BD01D1F73E486868BE941BA53EBC1A8C3EE6668ABD7AE34C3E5B3E32BE8F50E6BEAA5E3C3E1238DBBE"> : tensor<1x4x4xf32>}> : () -> tensor<1x4x4xf32>
  %v10 = tosa.matmul %v8, %w9, %zp, %zp : (tensor<1x7x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x7x4xf32>
  %s11 = tosa.const_shape {values = dense<[1, 7, 1, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %v12 = tosa.reshape %v10, %s11 : (tensor<1x7x4xf32>, !tosa.shape<4>) -> tensor<1x7x1x4xf32>
  %v13 = tosa.reduce_max %v12 {axis = 1 : i32} : (tensor<1x7x1x4xf32>) -> tensor<1x1x1x4xf32>
  %v14 = tosa.sub %v12, %v13 : (tensor<1x7x1x4xf32>, tensor<1x1x1x4xf32>) -> tensor<1x7x1x4xf32>
  %v15 = tosa.concat %v3, %v14, %v1 {axis = 3 : i32} : (tensor<1x7x1x4xf32>, tensor<1x7x1x4xf32>, tensor<1x7x1x4xf32>) -> tensor<1x7x1x12xf32>
  %w16 = "tosa.const"() <{values = dense<"0x7522B4BE9C5CE53D97B00B3EED835DBDFE47E6BE3DF17CBE325AAC3E9C5E84BD57AD3DBE2F83D33EA39678BEB015623EC34BEF3D775FD3BEB14EF23CF1896DBECF80BB3D513A913E0075933E221FF0BDCBE2BABE0F6E9CBEE21AAC3EC9631D3EEB4C8EBEEFBCFFBC5580CCBE1BD49B3E554ECCBE7B5B2F3E7E25D83E1413A5BEA01163BED89BCE3E986BB93D4716A8BE700B86BED113D3BECFBC473D6CC6833E113A8ABD41426B3A265A9DBE2FC3C53D1EBFFA3E323091BE3DF43ABEF780EBBEC485B7BEDCF176BD39D3AC3EA7A7F4BE92CAB9BE02C2683E475586BD57CAA1BD6FD2CABE1688A23DFB7F233DC4FC14BE14054BBD057D8FBED71AD3BD24337B3EC2F6963D1A5A04BA0334E73EAFFBD2BDE703CA3E42A83E3A8343DDBE1FDD793E635587BEE9C8DF3E0CDBE93EBBE23A3EEA535CBEBBAD473ED1A4BABE7A4753BDEC3C7BBE41EEE23E6D5D503E03F091BE"> : tensor<1x7x1x12xf32>}> : () -> tensor<1x7x1x12xf32>
  %v17 = tosa.add %v15, %w16 : (tensor<1x7x1x12xf32>, tensor<1x7x1x12xf32>) -> tensor<1x7x1x12xf32>
  %v18 = tosa.transpose %v3 {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x7x1x4xf32>) -> tensor<1x1x7x4xf32>
  %w19 = "tosa.const"() <{values = dense<"0xCD95FFBE4E81CEBD44D4D9BD0ACFDE3E"> : tensor<1x1x1x4xf32>}> : () -> tensor<1x1x1x4xf32>
  %v20 = tosa.mul %v1, %w19, %shift : (tensor<1x7x1x4xf32>, tensor<1x1x1x4xf32>, tensor<1xi8>) -> tensor<1x7x1x4xf32>
  %u1 = tosa.erf %y : (tensor<1x7x1x4xf32>) -> tensor<1x7x1x4xf32>
  %u2 = tosa.sub %u1, %y : (tensor<1x7x1x4xf32>, tensor<1x7x1x4xf32>) -> tensor<1x7x1x4xf32>
  %u3 = tosa.erf %y : (tensor<1x7x1x4xf32>) -> tensor<1x7x1x4xf32>
  %u4 = tosa.max_pool2d %y {kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x7x1x4xf32>) -> tensor<1x7x1x4xf32>
  %u5 = tosa.clamp %u4 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x7x1x4xf32>) -> tensor<1x7x1x4xf32>
  %u6 = tosa.sin %u4 : (tensor<1x7x1x4xf32>) -> tensor<1x7x1x4xf32>
  %t7 = tosa.const_shape {values = dense<[1, 7, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %u8 = tosa.reshape %u3, %t7 : (tensor<1x7x1x4xf32>, !tosa.shape<3>) -> tensor<1x7x4xf32>
  %k9 = "tosa.const"() <{values = dense<"0x3AEF1B3E46D7DF3D33890FBBC4DDABBD3BA64BBE9F0143BD01D1F73E486868BE941BA53EBC1A8C3EE6668ABD7AE34C3E5B3E32BE8F50E6BEAA5E3C3E1238DBBE"> : tensor<1x4x4xf32>}> : () -> tensor<1x4x4xf32>
  %u10 = tosa.matmul %u8, %k9, %zp, %zp : (tensor<1x7x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x7x4xf32>
  %t11 = tosa.const_shape {values = dense<[1, 7, 1, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %u12 = tosa.reshape %u10, %t11 : (tensor<1x7x4xf32>, !tosa.shape<4>) -> tensor<1x7x1x4xf32>
  %u13 = tosa.reduce_max %u12 {axis = 1 : i32} : (tensor<1x7x1x4xf32>) -> tensor<1x1x1x4xf32>
  %u14 = tosa.sub %u12, %u13 : (tensor<1x7x1x4xf32>, tensor<1x1x1x4xf32>) -> tensor<1x7x1x4xf32>
  %u15 = tosa.concat %u3, %u14, %u1 {axis = 3 : i32} : (tensor<1x7x1x4xf32>, tensor<1x7x1x4xf32>, tensor<1x7x1x4xf32>) -> tensor<1x7x1x12xf32>
  %k16 = "tosa.const"() <{values = dense<"0x7522B4BE9C5CE53D97B00B3EED835DBDFE47E6BE3DF17CBE325AAC3E9C5E84BD57AD3DBE2F83D33EA39678BEB015623EC34BEF3D775FD3BEB14EF23CF1896DBECF80BB3D513A913E0075933E221FF0BDCBE2BABE0F6E9CBEE21AAC3EC9631D3EEB4C8EBEEFBCFFBC5580CCBE1BD49B3E554ECCBE7B5B2F3E7E25D83E1413A5BEA01163BED89BCE3E986BB93D4716A8BE700B86BED113D3BECFBC473D6CC6833E113A8ABD41426B3A265A9DBE2FC3C53D1EBFFA3E323091BE3DF43ABEF780EBBEC485B7BEDCF176BD39D3AC3EA7A7F4BE92CAB9BE02C2683E475586BD57CAA1BD6FD2CABE1688A23DFB7F233DC4FC14BE14054BBD057D8FBED71AD3BD24337B3EC2F6963D1A5A04BA0334E73EAFFBD2BDE703CA3E42A83E3A8343DDBE1FDD793E635587BEE9C8DF3E0CDBE93EBBE23A3EEA535CBEBBAD473ED1A4BABE7A4753BDEC3C7BBE41EEE23E6D5D503E03F091BE"> : tensor<1x7x1x12xf32>}> : () -> tensor<1x7x1x12xf32>
  %u17 = tosa.add %u15, %k16 : (tensor<1x7x1x12xf32>, tensor<1x7x1x12xf32>) -> tensor<1x7x1x12xf32>
  %u18 = tosa.transpose %u3 {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x7x1x4xf32>) -> tensor<1x1x7x4xf32>
  %k19 = "tosa.const"() <{values = dense<"0xCD95FFBE4E81CEBD44D4D9BD0ACFDE3E"> : tensor<1x1x1x4xf32>}> : () -> tensor<1x1x1x4xf32>
  %u20 = tosa.mul %u1, %k19, %shift : (tensor<1x7x1x4xf32>, tensor<1x1x1x4xf32>, tensor<1xi8>) -> tensor<1x7x1x4xf32>
  return %v20, %v15, %u20, %u15 : tensor<1x7x1x4xf32>, tensor<1x7x1x12xf32>, tensor<1x7x1x4xf32>, tensor<1x7x1x12xf32>
}
