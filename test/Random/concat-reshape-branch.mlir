// Found by scripts/soak.py (seed 23), minimised. A concat branch that is a
// reshape of a value: copied into its slice as a root of its own.
// RUN: %check_equivalence %s --lower-groups
func.func @random(%x: tensor<1x5x1x1xf32>) -> (tensor<1x5x1x8xf32>, tensor<1x3x1x3xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s1 = tosa.const_shape {values = dense<[1, 5, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v2 = tosa.reshape %x, %s1 : (tensor<1x5x1x1xf32>, !tosa.shape<3>) -> tensor<1x5x1xf32>
  %w3 = "tosa.const"() <{values = dense<"0x6E33EEBE09CB78BFBB16763E"> : tensor<1x1x3xf32>}> : () -> tensor<1x1x3xf32>
  %v4 = tosa.matmul %v2, %w3, %zp, %zp : (tensor<1x5x1xf32>, tensor<1x1x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x3xf32>
  %s5 = tosa.const_shape {values = dense<[1, 5, 1, 3]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %v6 = tosa.reshape %v4, %s5 : (tensor<1x5x3xf32>, !tosa.shape<4>) -> tensor<1x5x1x3xf32>
  %v7 = tosa.erf %x : (tensor<1x5x1x1xf32>) -> tensor<1x5x1x1xf32>
  %s8 = tosa.const_shape {values = dense<[1, 5, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v9 = tosa.reshape %v7, %s8 : (tensor<1x5x1x1xf32>, !tosa.shape<3>) -> tensor<1x5x1xf32>
  %w10 = "tosa.const"() <{values = dense<"0x426390BE368862BFCBF2103F5F86363EDFB3A13E5ECA773E3504713F"> : tensor<1x1x7xf32>}> : () -> tensor<1x1x7xf32>
  %v11 = tosa.matmul %v9, %w10, %zp, %zp : (tensor<1x5x1xf32>, tensor<1x1x7xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x7xf32>
  %s12 = tosa.const_shape {values = dense<[1, 5, 1, 7]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %v13 = tosa.reshape %v11, %s12 : (tensor<1x5x7xf32>, !tosa.shape<4>) -> tensor<1x5x1x7xf32>
  %w14 = "tosa.const"() <{values = dense<"0xA04C473DA28B563EF0115CBE0DC438BCADFD463E16ECEF3DD0A865BE0A1F4C3E966DB73CBFB4EC3DE6305B3C67BA603DD0908EBE2CAE49BD83B6393DFE37963E42CA15BEE7A8753D167285BE7793883EAE3AE63C5EAB863E843EF7BC7A4F40BE81406FBE7F5DA33DE0E981BE"> : tensor<3x3x3x1xf32>}> : () -> tensor<3x3x3x1xf32>
  %w15 = "tosa.const"() <{values = dense<"0xFABA713DB020B7BA0BB00CBD"> : tensor<3xf32>}> : () -> tensor<3xf32>
  %v16 = tosa.conv2d %v7, %w14, %w15, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x5x1x1xf32>, tensor<3x3x3x1xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x1x3xf32>
  %w17 = "tosa.const"() <{values = dense<"0x14F6C83D8AB223BECDA23FBD"> : tensor<1x1x1x3xf32>}> : () -> tensor<1x1x1x3xf32>
  %v18 = tosa.sub %v16, %w17 : (tensor<1x3x1x3xf32>, tensor<1x1x1x3xf32>) -> tensor<1x3x1x3xf32>
  %w19 = "tosa.const"() <{values = dense<"0xC09CCFBD7FB46EBFD6FD853E"> : tensor<1x1x1x3xf32>}> : () -> tensor<1x1x1x3xf32>
  %v20 = tosa.mul %v18, %w19, %shift : (tensor<1x3x1x3xf32>, tensor<1x1x1x3xf32>, tensor<1xi8>) -> tensor<1x3x1x3xf32>
  %w21 = "tosa.const"() <{values = dense<"0xE2AE2EBD22360ABEECC2E0BD"> : tensor<1x1x1x3xf32>}> : () -> tensor<1x1x1x3xf32>
  %v22 = tosa.add %v20, %w21 : (tensor<1x3x1x3xf32>, tensor<1x1x1x3xf32>) -> tensor<1x3x1x3xf32>
  %v29 = tosa.concat %v13, %x {axis = 3 : i32} : (tensor<1x5x1x7xf32>, tensor<1x5x1x1xf32>) -> tensor<1x5x1x8xf32>
  return %v29, %v22 : tensor<1x5x1x8xf32>, tensor<1x3x1x3xf32>
}
