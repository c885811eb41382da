// The model of the runtime's API tests (unittests/RuntimeTests.cpp):
// y = relu(x + bias), row_sum = the sum of each row of y. The elementwise
// op may update its input in place; the caller's x must stay as it was.
// The sums come from a product with a 3x3 matrix of ones (each row's sum
// in every column) and a max over its columns: a second kernel, whose
// buffers make the model ask for a workspace (the outputs are the
// caller's).
func.func @api(%x: tensor<2x3xf32> {onnx.name = "x"},
               %bias: tensor<3xf32> {onnx.name = "bias"})
    -> (tensor<2x3xf32> {onnx.name = "y"}, tensor<2xf32> {onnx.name = "row_sum"}) {
  %zero = arith.constant 0.0 : f32
  %y = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%bias : tensor<3xf32>) outs(%x : tensor<2x3xf32>) {
  ^bb0(%b: f32, %v: f32):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x3xf32>
  %ones = arith.constant dense<1.0> : tensor<3x3xf32>
  %init23 = tensor.empty() : tensor<2x3xf32>
  %fill23 = linalg.fill ins(%zero : f32) outs(%init23 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %sums = linalg.matmul ins(%y, %ones : tensor<2x3xf32>, tensor<3x3xf32>) outs(%fill23 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %init = tensor.empty() : tensor<2xf32>
  %fill = linalg.fill ins(%ninf : f32) outs(%init : tensor<2xf32>) -> tensor<2xf32>
  %sum = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
      iterator_types = ["parallel", "reduction"]}
      ins(%sums : tensor<2x3xf32>) outs(%fill : tensor<2xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.maximumf %acc, %v : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  return %y, %sum : tensor<2x3xf32>, tensor<2xf32>
}
