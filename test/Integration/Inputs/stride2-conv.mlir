// A stride-2 3x3 convolution with asymmetric padding (top and left) over
// 64 channels and a 7x7 output (ResNet-50's last stage transitions
// in miniature; there, with 512 channels, only a tile of at most 7 output
// pixels leaves room in shared memory for its padded input rows).
func.func @stride2(%x: tensor<1x14x14x64xf32>, %w: tensor<32x3x3x64xf32>, %b: tensor<32xf32>) -> tensor<1x7x7x32xf32> {
  %z = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %z, %z {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<1x14x14x64xf32>, tensor<32x3x3x64xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x7x7x32xf32>
  %r = tosa.clamp %c {max_val = 3.40282347E+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<1x7x7x32xf32>) -> tensor<1x7x7x32xf32>
  return %r : tensor<1x7x7x32xf32>
}
