// A sum in f16 of 512 exponentials: the tiled kernel adds in another order
// than the unfused one, so the results differ in f16's last places.
func.func @f(%x: tensor<4x512xf32>) -> tensor<4x1xf32> {
  %h = tosa.cast %x : (tensor<4x512xf32>) -> tensor<4x512xf16>
  %e = tosa.exp %h : (tensor<4x512xf16>) -> tensor<4x512xf16>
  %s = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<4x512xf16>) -> tensor<4x1xf16>
  %o = tosa.cast %s : (tensor<4x1xf16>) -> tensor<4x1xf32>
  return %o : tensor<4x1xf32>
}
