// Found by scripts/soak.py (seed 5017). Two roots of one group (a channel
// reduction and an elementwise output) both read an intermediate the group
// also returns; the first root's loop returns it, the second reads it, and
// merging the two loops once produced IR where the value was used before
// its loop defined it. fuse-lower-groups refuses such a group with a
// diagnostic; the fusion pipeline tries the lowering and takes the row
// reduction back out of the matmul's group (check "lowering").
// RUN: %check_equivalence %s | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --lower-groups --distribute-threads 96 | FileCheck %s --check-prefix=EQUIV
// EQUIV: PASS
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 report=-" -o /dev/null \
// RUN:   | %python -c "import json, sys; [print(x['rule'], x['check'], x['candidate'].split('@')[0], '|', x['reason']) for f in json.load(sys.stdin)['functions'] for x in f['rejected'] if x['check'] == 'lowering']" \
// RUN:   | FileCheck %s --check-prefix=REPORT
// REPORT: contraction_row_epilogue lowering {{.*}} | the group would not lower to one loop nest: group 2: the loop of one of its roots ('linalg.generic', 'linalg.generic') reads an output another root's loop computes, so they cannot share one loop nest
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 check-lowering=false" | not fuse-opt --fuse-lower-groups 2>&1 | FileCheck %s
// CHECK: error: fuse-lower-groups: group 2: the loop of one of its roots ('linalg.generic', 'linalg.generic') reads an output another root's loop computes, so they cannot share one loop nest
func.func @random(%x: tensor<1x8x5x3xf32>, %y: tensor<1x8x5x3xf32>) -> (tensor<1x8x5x3xf32>, tensor<1x8x5x3xf32>, tensor<1x8x5x16xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %w1 = "tosa.const"() <{values = dense<"0x6DDF9A3EA872023F21A3903ECB41BABC43940ABF3254E53E908A183E5DD493BE0D0F42BEFD70BEBE31264F3E4EC7E4BE994AF53E66C47B3EB13BFFBE930D023F4328033FD759CABED04406BE182A043FC535ED3E0F5341BCDCA0003F2AB784BEB9CC8FBD690ABFBECECBBFBEBC1507BF4D13083FB857ABBE57FF223DC8593E3E3042ECBE52277ABE2E8BD23E1371ED3D54B1143EBAAF0BBE0EF52F3EA73BBBBA5A7C1CBE69B3FD3E99DDB13E6E86F93E1244823E59B52EBEB12EE7BE5085DCBE"> : tensor<16x1x1x3xf32>}> : () -> tensor<16x1x1x3xf32>
  %w2 = "tosa.const"() <{values = dense<"0x431504BCEE5740BC4312D03AFB07BC3CEE6F8A3AB8D45F3D5E9E8F3DC9977BBD5C3A25BD280DD13C8F1B963D48BF7F3DE9A70A3DB5491BBCCED18ABD8B437D3D"> : tensor<16xf32>}> : () -> tensor<16xf32>
  %v3 = tosa.conv2d %x, %w1, %w2, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x5x3xf32>, tensor<16x1x1x3xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x5x16xf32>
  %v4 = tosa.reduce_max %y {axis = 3 : i32} : (tensor<1x8x5x3xf32>) -> tensor<1x8x5x1xf32>
  %v5 = tosa.sub %y, %v4 : (tensor<1x8x5x3xf32>, tensor<1x8x5x1xf32>) -> tensor<1x8x5x3xf32>
  %v6 = tosa.reduce_sum %v3 {axis = 3 : i32} : (tensor<1x8x5x16xf32>) -> tensor<1x8x5x1xf32>
  %v7 = tosa.sigmoid %v6 : (tensor<1x8x5x1xf32>) -> tensor<1x8x5x1xf32>
  %v8 = tosa.mul %v3, %v7, %shift : (tensor<1x8x5x16xf32>, tensor<1x8x5x1xf32>, tensor<1xi8>) -> tensor<1x8x5x16xf32>
  %v9 = tosa.sigmoid %v8 : (tensor<1x8x5x16xf32>) -> tensor<1x8x5x16xf32>
  %w10 = "tosa.const"() <{values = dense<"0x5935993D685F473D7E844FBEA129A1BDC21C6DBEBA6E5BBEFDD2E1BDC512A2BDCAF40DBDAEC133BE028E15BEC33D7A3C162AE43D58FE3CBEA28D083D06D6A3BD4677593EEAE8EDBD90F2673D259545BE59155B3E5730303E2C02ECBD7F7D3E3E80E4B33DAED1F0BC981A92BCCE7B583E8CA6423EAA011A3EA0D0AA3D7BA9F5BDCAA7473E5E51F0BDCBF5CFBB5B04F6BD2D6C21BE270747BE5C26113EE1B1BE3DC7B7AFBDEC324D3EF59EDDBD66A9EE3D8AB9C33DB9D612BDCEF546BED80BEEBD"> : tensor<3x1x1x16xf32>}> : () -> tensor<3x1x1x16xf32>
  %w11 = "tosa.const"() <{values = dense<"0x31881FBC3C5F23BD5EE4853D"> : tensor<3xf32>}> : () -> tensor<3xf32>
  %v12 = tosa.conv2d %v8, %w10, %w11, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x5x16xf32>, tensor<3x1x1x16xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x5x3xf32>
  %v13 = tosa.sin %v12 : (tensor<1x8x5x3xf32>) -> tensor<1x8x5x3xf32>
  %w14 = "tosa.const"() <{values = dense<"0xA82BFA3E"> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %v15 = tosa.mul %v13, %w14, %shift : (tensor<1x8x5x3xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x8x5x3xf32>
  %v16 = tosa.reduce_sum %v15 {axis = 3 : i32} : (tensor<1x8x5x3xf32>) -> tensor<1x8x5x1xf32>
  %v17 = tosa.sigmoid %v16 : (tensor<1x8x5x1xf32>) -> tensor<1x8x5x1xf32>
  %v18 = tosa.mul %v15, %v17, %shift : (tensor<1x8x5x3xf32>, tensor<1x8x5x1xf32>, tensor<1xi8>) -> tensor<1x8x5x3xf32>
  %v19 = tosa.sub %v18, %v5 : (tensor<1x8x5x3xf32>, tensor<1x8x5x3xf32>) -> tensor<1x8x5x3xf32>
  %v20 = tosa.sub %v19, %v5 : (tensor<1x8x5x3xf32>, tensor<1x8x5x3xf32>) -> tensor<1x8x5x3xf32>
  %v21 = tosa.clamp %v12 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x8x5x3xf32>) -> tensor<1x8x5x3xf32>
  %v22 = tosa.sub %v21, %v15 : (tensor<1x8x5x3xf32>, tensor<1x8x5x3xf32>) -> tensor<1x8x5x3xf32>
  return %v22, %v19, %v8 : tensor<1x8x5x3xf32>, tensor<1x8x5x3xf32>, tensor<1x8x5x16xf32>
}
