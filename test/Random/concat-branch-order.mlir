// Found by scripts/soak.py (seed 77). A concat whose second branch is
// computed from the first: the first insertion comes after the root that
// would write into the concatenation, so the root keeps its own tensor
// (the lowering once used the destination before it was defined).
// RUN: %check_equivalence %s --lower-groups
// RUN: %check_equivalence %s
func.func @random(%x: tensor<1x5x5x3xf32>, %y: tensor<1x5x5x3xf32>) -> (tensor<1x5x5x8xf32>, tensor<1x5x5x6xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %v1 = tosa.sin %x : (tensor<1x5x5x3xf32>) -> tensor<1x5x5x3xf32>
  %w2 = "tosa.const"() <{values = dense<"0x1A70A03ED0B1EF3B0AE0AB3E565EA2BE5ACD36BED65CD3BE48B48E3E4F220B3D590D97BE14DB9DBEDB8DD6BE4E8899BECE2F763D2D6C7FBDC929513E"> : tensor<1x1x5x3xf32>}> : () -> tensor<1x1x5x3xf32>
  %v3 = tosa.add %v1, %w2 : (tensor<1x5x5x3xf32>, tensor<1x1x5x3xf32>) -> tensor<1x5x5x3xf32>
  %v4 = tosa.clamp %v1 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x5x5x3xf32>) -> tensor<1x5x5x3xf32>
  %v5 = tosa.add %x, %y : (tensor<1x5x5x3xf32>, tensor<1x5x5x3xf32>) -> tensor<1x5x5x3xf32>
  %v6 = tosa.max_pool2d %v1 {kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x5x5x3xf32>) -> tensor<1x5x5x3xf32>
  %v7 = tosa.concat %v4, %v1 {axis = 3 : i32} : (tensor<1x5x5x3xf32>, tensor<1x5x5x3xf32>) -> tensor<1x5x5x6xf32>
  %v8 = tosa.transpose %v6 {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x5x5x3xf32>) -> tensor<1x5x5x3xf32>
  %w9 = "tosa.const"() <{values = dense<"0x621003BDAACB8C3ED1BE9E3EABC508BED034043F486D09BF37739EBB522308BF71D727BE8CA3103FC4E6E1BE928D0F3F3B82EF3EFE9D5E3EC84203BF09B706BD76F8623E5253EFBECE916EBED950F1BE3C15CB3E1C81F53EF678FA3E4940943E"> : tensor<8x1x1x3xf32>}> : () -> tensor<8x1x1x3xf32>
  %w10 = "tosa.const"() <{values = dense<"0xEEAB773CD752B3BD257D73BBC581553D70B1513D41DAC1BD2370C9BDDCAFA8BD"> : tensor<8xf32>}> : () -> tensor<8xf32>
  %v11 = tosa.conv2d %v8, %w9, %w10, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x5x5x3xf32>, tensor<8x1x1x3xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x5x8xf32>
  %v12 = tosa.tanh %v7 : (tensor<1x5x5x6xf32>) -> tensor<1x5x5x6xf32>
  %v13 = tosa.add %v12, %v7 : (tensor<1x5x5x6xf32>, tensor<1x5x5x6xf32>) -> tensor<1x5x5x6xf32>
  %v14 = tosa.clamp %v11 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x5x5x8xf32>) -> tensor<1x5x5x8xf32>
  %v15 = tosa.transpose %v11 {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x5x5x8xf32>) -> tensor<1x5x5x8xf32>
  return %v15, %v13 : tensor<1x5x5x8xf32>, tensor<1x5x5x6xf32>
}
