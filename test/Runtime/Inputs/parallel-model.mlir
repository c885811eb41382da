// A model with parallel loops (unittests/RuntimeTests.cpp, ParallelLoops):
// y = relu(x . w + b), large enough that its register tiles and its
// elementwise loops run on the runtime's threads.
func.func @parallel(%x: tensor<64x256xf32> {onnx.name = "x"},
                    %w: tensor<256x128xf32> {onnx.name = "w"},
                    %b: tensor<128xf32> {onnx.name = "b"})
    -> (tensor<64x128xf32> {onnx.name = "y"}) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %m = linalg.matmul ins(%x, %w : tensor<64x256xf32>, tensor<256x128xf32>)
                     outs(%f : tensor<64x128xf32>) -> tensor<64x128xf32>
  %y = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
                       affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%m, %b : tensor<64x128xf32>, tensor<128xf32>) outs(%e : tensor<64x128xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %s = arith.addf %v, %c : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<64x128xf32>
  return %y : tensor<64x128xf32>
}
