// fuse-cpu-vectorize runs a contraction's elementwise epilogue (the chain
// of all-parallel generics its result feeds alone, element for element)
// on the accumulators of each register tile: one store per output element,
// no second pass over the output. What stays a second pass: a result read
// twice, an epilogue that is not element for element (a transpose), one
// that writes into the contraction's result, and a reduction run in cache
// blocks (its accumulators are not final inside a tile).
// RUN: fuse-opt %s --split-input-file --fuse-cpu-vectorize --canonicalize --cse | FileCheck %s

// CHECK-LABEL: func.func @bias_relu
// CHECK-NOT: linalg.generic
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[ACC:.*]] = scf.for {{.*}} -> (vector<8x32xf32>)
// CHECK: vector.contract
// CHECK: %[[B:.*]] = arith.addf %[[ACC]], {{.*}} : vector<8x32xf32>
// CHECK: %[[R:.*]] = arith.maximumf %[[B]], {{.*}} : vector<8x32xf32>
// CHECK: vector.transfer_write %[[R]]
// CHECK-NOT: linalg.generic
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @bias_relu(%a: tensor<16x64xf32>, %b: tensor<64x64xf32>, %bias: tensor<64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %m = linalg.matmul ins(%a, %b : tensor<16x64xf32>, tensor<64x64xf32>) outs(%f : tensor<16x64xf32>) -> tensor<16x64xf32>
  %biased = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%m, %bias : tensor<16x64xf32>, tensor<64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%biased : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %v = arith.maximumf %x, %zero : f32
    linalg.yield %v : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

// The product is also returned: its tiles are stored, the ReLU reads them.
// CHECK-LABEL: func.func @read_twice
// CHECK: vector.contract
// CHECK: linalg.generic
// CHECK: arith.maximumf
#id = affine_map<(i, j) -> (i, j)>
func.func @read_twice(%a: tensor<16x64xf32>, %b: tensor<64x64xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %m = linalg.matmul ins(%a, %b : tensor<16x64xf32>, tensor<64x64xf32>) outs(%f : tensor<16x64xf32>) -> tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %v = arith.maximumf %x, %zero : f32
    linalg.yield %v : f32
  } -> tensor<16x64xf32>
  return %m, %r : tensor<16x64xf32>, tensor<16x64xf32>
}

// -----

// A transposing epilogue reads other elements than the tile holds.
// CHECK-LABEL: func.func @transposed
// CHECK: vector.contract
// CHECK: linalg.generic
#id = affine_map<(i, j) -> (i, j)>
#t = affine_map<(i, j) -> (j, i)>
func.func @transposed(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %v = arith.maximumf %x, %zero : f32
    linalg.yield %v : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// -----

// An epilogue that updates the product in place (its output operand).
// CHECK-LABEL: func.func @in_place
// CHECK: vector.contract
// CHECK: linalg.generic
#id = affine_map<(i, j) -> (i, j)>
func.func @in_place(%a: tensor<16x64xf32>, %b: tensor<64x64xf32>, %c: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %m = linalg.matmul ins(%a, %b : tensor<16x64xf32>, tensor<64x64xf32>) outs(%f : tensor<16x64xf32>) -> tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<16x64xf32>) outs(%m : tensor<16x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %v = arith.addf %x, %o : f32
    linalg.yield %v : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

// A 3072-long reduction runs in cache blocks: the ReLU is a second pass.
// CHECK-LABEL: func.func @blocked
// CHECK: vector.contract
// CHECK: linalg.generic
#id = affine_map<(i, j) -> (i, j)>
func.func @blocked(%a: tensor<8x3072xf32>, %b: tensor<3072x64xf32>) -> tensor<8x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
  %m = linalg.matmul ins(%a, %b : tensor<8x3072xf32>, tensor<3072x64xf32>) outs(%f : tensor<8x64xf32>) -> tensor<8x64xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<8x64xf32>) outs(%e : tensor<8x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %v = arith.maximumf %x, %zero : f32
    linalg.yield %v : f32
  } -> tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}
