// A classifier at batch 1: a matrix-vector product (1x512 by 512x100) and
// its bias, the group's root the bias add. Its configuration spreads the
// 100 outputs over many small tiles whose points' lanes share each dot
// product (a warp-shuffle reduction), as for a root that reduces.
func.func @classifier(%x: tensor<1x1x512xf32>, %w: tensor<1x512x100xf32>, %b: tensor<1x1x100xf32>) -> tensor<1x1x100xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x100xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x100xf32>) -> tensor<1x1x100xf32>
  %m = linalg.batch_matmul ins(%x, %w : tensor<1x1x512xf32>, tensor<1x512x100xf32>) outs(%f : tensor<1x1x100xf32>) -> tensor<1x1x100xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%m, %b : tensor<1x1x100xf32>, tensor<1x1x100xf32>) outs(%e : tensor<1x1x100xf32>) {
  ^bb0(%in: f32, %c: f32, %o: f32):
    %t = arith.addf %in, %c : f32
    linalg.yield %t : f32
  } -> tensor<1x1x100xf32>
  return %r : tensor<1x1x100xf32>
}
