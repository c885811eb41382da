// Found by scripts/soak.py (seed 12), minimised. A concat branch that is a
// slice of another value (no op of the group computes it): the lowering
// gives it a copy into its slice as its root, so the group is one loop nest.
// RUN: %check_equivalence %s --lower-groups
func.func @random(%x: tensor<1x7x5x13xf32>) -> (tensor<1x7x5x18xf32>, tensor<1x7x5x13xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %w1 = "tosa.const"() <{values = dense<"0xB5C8CF3DB0586E3D5B31253EDF9AB5BE1B8975BD4CEBACBEB1DBCF3EC7E1E1BE643CA33EC4CCD9BEA46E3F3E94E926BE9659C3BD"> : tensor<1x1x1x13xf32>}> : () -> tensor<1x1x1x13xf32>
  %v2 = tosa.maximum %x, %w1 : (tensor<1x7x5x13xf32>, tensor<1x1x1x13xf32>) -> tensor<1x7x5x13xf32>
  %v3 = tosa.clamp %v2 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x7x5x13xf32>) -> tensor<1x7x5x13xf32>
  %v4 = tosa.transpose %x {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x7x5x13xf32>) -> tensor<1x5x7x13xf32>
  %s5 = tosa.const_shape {values = dense<[1, 35, 13]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v6 = tosa.reshape %x, %s5 : (tensor<1x7x5x13xf32>, !tosa.shape<3>) -> tensor<1x35x13xf32>
  %w7 = "tosa.const"() <{values = dense<"0xBCDB853E1A73B33C5AFF583E8027043D1A3B873EF9025B3EE19BFA3C96BC833BDF846CBE641B743D8505BF3D882F8ABCBD53783D6FFCBA3CE0DE9F3D670D6DBE1E062FBE7831233E556F07BE2B8B7A3EB7F74F3ECDF781BDA0F4D7BD17A70CBE142EBBBDC13E92BDBF61263DED91163EA41936BE894887BDCEF64B3E48B684BE52B186BE448CC73D56A781BED3E627BEC8C3733D11E00F3E02AE1EBE58B66FBEF07D00BEA42117BDDC3C77BA43E7673DFB4C003EE8CBFE3BBA9B95BD9D26B6BD499EC9BCE0BCDF3D84F3493EB0BB13BEC9BE8A3E4448A0BC6C02DE3C27AF34BE1A57173E021C1FBEBEE9723D614C7E3E8DFB6B3E1A2F2B3E830636BE7B88273E538A4C3A42640FBE72155ABE42F69DBD7B95D33C061344BE5FD4723E27F6583E1285BF3DB88FFABD83EB58BE436A213E7C14A03A1A5ABABBA528A6BDCCA1D13DA0B1FABC74A6073EEAABE8BC7CC8843DA3F080BE841FC1BDABB64D3E834E9F3D667AF9BCA8EB253E5BEB043E"> : tensor<1x13x7xf32>}> : () -> tensor<1x13x7xf32>
  %v8 = tosa.matmul %v6, %w7, %zp, %zp : (tensor<1x35x13xf32>, tensor<1x13x7xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x35x7xf32>
  %s9 = tosa.const_shape {values = dense<[1, 7, 5, 7]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %v10 = tosa.reshape %v8, %s9 : (tensor<1x35x7xf32>, !tosa.shape<4>) -> tensor<1x7x5x7xf32>
  %v11 = tosa.transpose %v4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x5x7x13xf32>) -> tensor<1x7x5x13xf32>
  %v12 = tosa.erf %v8 : (tensor<1x35x7xf32>) -> tensor<1x35x7xf32>
  %s17 = tosa.const_shape {values = dense<[0, 0, 0, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s18 = tosa.const_shape {values = dense<[1, 7, 5, 5]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %v19 = tosa.slice %v11, %s17, %s18 : (tensor<1x7x5x13xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x7x5x5xf32>
  %v20 = tosa.concat %v19, %v2 {axis = 3 : i32} : (tensor<1x7x5x5xf32>, tensor<1x7x5x13xf32>) -> tensor<1x7x5x18xf32>
  return %v20, %v11 : tensor<1x7x5x18xf32>, tensor<1x7x5x13xf32>
}
