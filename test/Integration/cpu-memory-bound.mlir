// Memory-bound groups (elementwise ops, a row reduction, a normalization)
// stay loops on the CPU that LLVM vectorizes along their contiguous
// dimension (-O3 with the host's features): the compiled library's
// optimized IR computes them on vectors, not element by element.
// RUN: fuse-compile -q %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// CHECK-DAG: fadd {{.*}}<{{8|16}} x float>
// CHECK-DAG: fdiv {{.*}}<{{8|16}} x float>
// CHECK-DAG: llvm.maximum.v{{8|16}}f32
func.func @softmax_gelu(%x: tensor<64x256xf32>, %y: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %e = tensor.empty() : tensor<64x256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<64x256xf32>, tensor<64x256xf32>) outs(%e : tensor<64x256xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %h = arith.constant 0.5 : f32
    %m = arith.mulf %s, %h : f32
    %z = arith.constant 0.0 : f32
    %v = arith.maximumf %m, %z : f32
    linalg.yield %v : f32
  } -> tensor<64x256xf32>
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%r : tensor<64x256xf32>) outs(%f : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%r, %sum : tensor<64x256xf32>, tensor<64xf32>) outs(%e : tensor<64x256xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %d = arith.divf %a, %s : f32
    linalg.yield %d : f32
  } -> tensor<64x256xf32>
  return %n : tensor<64x256xf32>
}
