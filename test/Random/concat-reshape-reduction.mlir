// Found by scripts/soak.py (seed 33), minimised. A reduction whose result,
// transposed, is both a concat branch and the input of other ops.
// RUN: %check_equivalence %s --lower-groups
func.func @random(%x: tensor<1x8x2x3xf32>) -> (tensor<1x2x1x6xf32>, tensor<1x2x1x3xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %v1 = tosa.reduce_max %x {axis = 1 : i32} : (tensor<1x8x2x3xf32>) -> tensor<1x1x2x3xf32>
  %v2 = tosa.transpose %v1 {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x1x2x3xf32>) -> tensor<1x2x1x3xf32>
  %v3 = tosa.erf %v2 : (tensor<1x2x1x3xf32>) -> tensor<1x2x1x3xf32>
  %w4 = "tosa.const"() <{values = dense<"0xF773B13E"> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %v5 = tosa.mul %v3, %w4, %shift : (tensor<1x2x1x3xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x1x3xf32>
  %w6 = "tosa.const"() <{values = dense<"0x6FE50D3F82E17EBE3E76A9BE4382EA3EDBB1933EDDC6DEBEC2DB52BE5F2198BEB66086BE"> : tensor<3x1x1x3xf32>}> : () -> tensor<3x1x1x3xf32>
  %w7 = "tosa.const"() <{values = dense<"0x8E30CABD45C4A13B554820BD"> : tensor<3xf32>}> : () -> tensor<3xf32>
  %v8 = tosa.conv2d %v3, %w6, %w7, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x1x3xf32>, tensor<3x1x1x3xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x1x3xf32>
  %w9 = "tosa.const"() <{values = dense<"0x69D800BE90B51FBE73513FBE"> : tensor<1x1x1x3xf32>}> : () -> tensor<1x1x1x3xf32>
  %v10 = tosa.sub %v8, %w9 : (tensor<1x2x1x3xf32>, tensor<1x1x1x3xf32>) -> tensor<1x2x1x3xf32>
  %w11 = "tosa.const"() <{values = dense<"0xCDD93E3F784EFD3E9855F43D"> : tensor<1x1x1x3xf32>}> : () -> tensor<1x1x1x3xf32>
  %v12 = tosa.mul %v10, %w11, %shift : (tensor<1x2x1x3xf32>, tensor<1x1x1x3xf32>, tensor<1xi8>) -> tensor<1x2x1x3xf32>
  %w13 = "tosa.const"() <{values = dense<"0x0A131ABE4DCA0FBE4CCA1BBE"> : tensor<1x1x1x3xf32>}> : () -> tensor<1x1x1x3xf32>
  %v14 = tosa.add %v12, %w13 : (tensor<1x2x1x3xf32>, tensor<1x1x1x3xf32>) -> tensor<1x2x1x3xf32>
  %w15 = "tosa.const"() <{values = dense<"0x9498B5BE64C5353E049847BDB8DBFABC92D427BEC485383DD796A83EFE0363BEB915FEBEBE1BB2BC4BDF0EBE47D6A53EF7FBE5BEF95BDC3E356B0FBFBEC3473DE36185BDDE5A5ABEB7EBE53E7FF76E3E981CC7BE5678BFBBADBD043ED0E509BF79E4F3BE5C97F03D8DAF873ECF7730BD174FB8BDBE65033C038B8DBEA395DE3EDC7E083F4C28ABBC72BB0DBF9E51F3BD282AB33EEAF94EBE4331E9BE2913BABE8B497A3ED046103E3CD77CBEC21D123EB11A9A3E64C8093FB7DDC33EB8269CBD"> : tensor<16x1x1x3xf32>}> : () -> tensor<16x1x1x3xf32>
  %w16 = "tosa.const"() <{values = dense<"0x79997D3D7B3FAE3DD81E973D2C334D3D0CF58D3C0D0A163BD6778F3D5AE8CC3CEC3A353D15E45EBD890AA7BD12203CBDAA98883C7B2D6F3C1CE276BD92187FBD"> : tensor<16xf32>}> : () -> tensor<16xf32>
  %v17 = tosa.conv2d %v14, %w15, %w16, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x1x3xf32>, tensor<16x1x1x3xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x1x16xf32>
  %v18 = tosa.tanh %v14 : (tensor<1x2x1x3xf32>) -> tensor<1x2x1x3xf32>
  %s19 = tosa.const_shape {values = dense<[1, 2, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v20 = tosa.reshape %v18, %s19 : (tensor<1x2x1x3xf32>, !tosa.shape<3>) -> tensor<1x2x3xf32>
  %w21 = "tosa.const"() <{values = dense<"0x1FCC11BF4ECD013F1DC2CCBD764DF63EA189B93EF2F4D5BE0E1208BF63A50DBF01EAA53EA54CAC3ED6CBA0BEAFF3E4BE"> : tensor<1x3x4xf32>}> : () -> tensor<1x3x4xf32>
  %v22 = tosa.matmul %v20, %w21, %zp, %zp : (tensor<1x2x3xf32>, tensor<1x3x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x4xf32>
  %s23 = tosa.const_shape {values = dense<[1, 2, 1, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %v24 = tosa.reshape %v22, %s23 : (tensor<1x2x4xf32>, !tosa.shape<4>) -> tensor<1x2x1x4xf32>
  %v34 = tosa.concat %v18, %v2 {axis = 3 : i32} : (tensor<1x2x1x3xf32>, tensor<1x2x1x3xf32>) -> tensor<1x2x1x6xf32>
  return %v34, %v18 : tensor<1x2x1x6xf32>, tensor<1x2x1x3xf32>
}
