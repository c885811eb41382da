// RUN: fuse-opt %s -split-input-file --fuse-prune | FileCheck %s

// Dead ops go away.
// CHECK-LABEL: func @dead
// CHECK-NEXT: return %arg0
func.func @dead(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = math.exp %x : tensor<8xf32>
  %1 = tosa.tanh %x : (tensor<8xf32>) -> tensor<8xf32>
  return %x : tensor<8xf32>
}

// -----

// Identity leftovers (ONNX Identity and inference Dropout import as
// tosa.identity) and copy-only generics disappear.
// CHECK-LABEL: func @identity
// CHECK-NEXT: %[[E:.*]] = math.exp %arg0
// CHECK-NEXT: return %[[E]]
func.func @identity(%x: tensor<8xf32>) -> tensor<8xf32> {
  %i = tosa.identity %x : (tensor<8xf32>) -> tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%i : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<8xf32>
  %r = math.exp %c : tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// transpose∘transpose pairs that cancel, in TOSA and in linalg.
// CHECK-LABEL: func @transposes
// CHECK-NEXT: return %arg0, %arg0
func.func @transposes(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %t = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %u = tosa.transpose %t {perms = array<i32: 1, 0>} : (tensor<8x4xf32>) -> tensor<4x8xf32>
  %e = tensor.empty() : tensor<8x4xf32>
  %lt = linalg.transpose ins(%x : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
  %f = tensor.empty() : tensor<4x8xf32>
  %lu = linalg.transpose ins(%lt : tensor<8x4xf32>) outs(%f : tensor<4x8xf32>) permutation = [1, 0]
  return %u, %lu : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// reshape∘reshape pairs that cancel, in TOSA and in tensor.
// CHECK-LABEL: func @reshapes
// CHECK-NEXT: return %arg0, %arg0
func.func @reshapes(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %s32 = tosa.const_shape {values = dense<32> : tensor<1xindex>} : () -> !tosa.shape<1>
  %s48 = tosa.const_shape {values = dense<[4, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %a = tosa.reshape %x, %s32 : (tensor<4x8xf32>, !tosa.shape<1>) -> tensor<32xf32>
  %b = tosa.reshape %a, %s48 : (tensor<32xf32>, !tosa.shape<2>) -> tensor<4x8xf32>
  %c = tensor.collapse_shape %x [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  %d = tensor.expand_shape %c [[0, 1]] output_shape [4, 8] : tensor<32xf32> into tensor<4x8xf32>
  return %b, %d : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Constant subgraphs fold at compile time: TOSA arithmetic on constants and
// a linalg.generic on a constant.
// CHECK-LABEL: func @constants
// CHECK-DAG: %[[A:.*]] = "tosa.const"() <{values = dense<3.000000e+00> : tensor<4xf32>}>
// CHECK-DAG: %[[B:.*]] = arith.constant dense<[2.000000e+00, 4.000000e+00, 6.000000e+00, 8.000000e+00]> : tensor<4xf32>
// CHECK-NOT: linalg.generic
// CHECK-NOT: tosa.add
// CHECK: return %[[A]], %[[B]]
func.func @constants() -> (tensor<4xf32>, tensor<4xf32>) {
  %one = "tosa.const"() <{values = dense<1.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  %two = "tosa.const"() <{values = dense<2.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  %three = tosa.add %one, %two : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %v = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%v : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %three, %d : tensor<4xf32>, tensor<4xf32>
}

// -----

// The payload is evaluated per element, broadcast operands included:
// (v + b[row])^2. The result is no larger than the largest input.
// CHECK-LABEL: func @broadcast_constants
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<{{\[}}[1.210000e+02, 1.440000e+02, 1.690000e+02], [5.760000e+02, 6.250000e+02, 6.760000e+02]]> : tensor<2x3xf32>
// CHECK-NEXT: return %[[C]]
func.func @broadcast_constants() -> tensor<2x3xf32> {
  %v = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = arith.constant dense<[10.0, 20.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<2x3xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v, %b : tensor<2x3xf32>, tensor<2xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %s = arith.addf %in, %in2 : f32
    %u = arith.mulf %s, %s : f32
    linalg.yield %u : f32
  } -> tensor<2x3xf32>
  return %d : tensor<2x3xf32>
}

// -----

// Larger than max-constant-fold-elements: left for the kernel.
// RUN: fuse-opt %s -split-input-file --fuse-prune="max-constant-fold-elements=4" | FileCheck %s --check-prefix=LIMIT
// LIMIT-LABEL: func @over_limit
// LIMIT: linalg.generic
func.func @over_limit() -> tensor<8xf32> {
  %v = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%v : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %d : tensor<8xf32>
}

// -----

// A broadcast of a small constant into a large tensor stays: folding it
// would make the kernel read the large constant instead.
// CHECK-LABEL: func @broadcast_kept
// CHECK: linalg.generic
func.func @broadcast_kept() -> tensor<4x16xf32> {
  %b = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0]> : tensor<16xf32>
  %e = tensor.empty() : tensor<4x16xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x16xf32>
  return %d : tensor<4x16xf32>
}

// -----

// A broadcast of a splat constant (an importer's zero bias as a
// convolution's initial value) is a fill: nothing to read. A broadcast of a
// constant that is not a splat is @broadcast_kept above.
// CHECK-LABEL: func @broadcast_splat
// CHECK-DAG: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[E:.*]] = tensor.empty() : tensor<4x16xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<4x16xf32>)
// CHECK-NEXT: return %[[F]]
func.func @broadcast_splat() -> tensor<4x16xf32> {
  %b = arith.constant dense<0.0> : tensor<16xf32>
  %e = tensor.empty() : tensor<4x16xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x16xf32>
  return %d : tensor<4x16xf32>
}
