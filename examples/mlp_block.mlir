// A small MLP block in TOSA, as an ONNX importer or a TOSA frontend emits it:
// matmul + bias + GELU (tanh form) + residual + layer-norm style reduction.
func.func @mlp_block(%x: tensor<1x128x256xf32>, %w: tensor<1x256x256xf32>,
                     %bias: tensor<1x1x256xf32>) -> tensor<1x128x256xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %mm = tosa.matmul %x, %w, %zp, %zp : (tensor<1x128x256xf32>, tensor<1x256x256xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x128x256xf32>
  %b = tosa.add %mm, %bias : (tensor<1x128x256xf32>, tensor<1x1x256xf32>) -> tensor<1x128x256xf32>
  %t = tosa.tanh %b : (tensor<1x128x256xf32>) -> tensor<1x128x256xf32>
  %g = tosa.mul %b, %t, %shift : (tensor<1x128x256xf32>, tensor<1x128x256xf32>, tensor<1xi8>) -> tensor<1x128x256xf32>
  %r = tosa.add %g, %x : (tensor<1x128x256xf32>, tensor<1x128x256xf32>) -> tensor<1x128x256xf32>
  %s = tosa.reduce_sum %r {axis = 2 : i32} : (tensor<1x128x256xf32>) -> tensor<1x128x1xf32>
  %n = tosa.sub %r, %s : (tensor<1x128x256xf32>, tensor<1x128x1xf32>) -> tensor<1x128x256xf32>
  return %n : tensor<1x128x256xf32>
}
