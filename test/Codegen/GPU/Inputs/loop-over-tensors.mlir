// A loop over tensors in host code, then an elementwise op: the loop stays
// host code (no kernel can be tiled from it), the exp becomes a group.
func.func @f(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %x) -> tensor<16x32xf32> {
    %e = tensor.empty() : tensor<16x32xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%acc : tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) {
    ^bb0(%a: f32, %o: f32):
      %s = arith.addf %a, %a : f32
      linalg.yield %s : f32
    } -> tensor<16x32xf32>
    scf.yield %g : tensor<16x32xf32>
  }
  %e2 = tensor.empty() : tensor<16x32xf32>
  %z = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<16x32xf32>) outs(%e2 : tensor<16x32xf32>) {
    ^bb0(%a: f32, %o: f32):
      %s = math.exp %a : f32
      linalg.yield %s : f32
    } -> tensor<16x32xf32>
  return %z : tensor<16x32xf32>
}
