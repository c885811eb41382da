// elementwise_chain with gathers and transposes: a gather (an embedding
// lookup, a resize: a parallel generic whose payload reads another tensor
// at computed indices) joins its elementwise consumer, and an elementwise
// op or gather joins the transpose that reads it (an NCHW graph output),
// point for point. A gather read through a broadcast stays its own kernel.
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200" | FileCheck %s
// Fused = unfused, also through the emulated GPU schedule; GPU kernels.
// RUN: %check_equivalence %s --function embed_add | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function embed_add --lower-groups --distribute-threads config | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function upsample_to_nchw --lower-groups --distribute-threads config | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function relu_to_nchw --lower-groups --distribute-threads config | FileCheck %s --check-prefix=EQUIV
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline=target=h200 | fuse-opt -split-input-file --fuse-to-nvptx=target=h200 -o /dev/null
// EQUIV: PASS

// Token embeddings plus position embeddings: one kernel.
// CHECK-LABEL: func @embed_add
// CHECK: fuse.group vertical rule "elementwise_chain"
// CHECK: tensor.extract
// CHECK: arith.addf
// CHECK-NOT: fuse.group
// CHECK: return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @embed_add(%ids: tensor<16xi64>, %table: tensor<100x32xf32>, %pos: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %0 = tensor.empty() : tensor<16x32xf32>
  %1 = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<16xi64>) outs(%0 : tensor<16x32xf32>) {
  ^bb0(%id: i64, %out: f32):
    %c0 = arith.constant 0 : index
    %c99 = arith.constant 99 : index
    %r = arith.index_cast %id : i64 to index
    %lo = arith.maxsi %r, %c0 : index
    %i = arith.minsi %lo, %c99 : index
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%i, %j] : tensor<100x32xf32>
    linalg.yield %v : f32
  } -> tensor<16x32xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%1, %pos : tensor<16x32xf32>, tensor<16x32xf32>) outs(%0 : tensor<16x32xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<16x32xf32>
  return %2 : tensor<16x32xf32>
}

// -----

// A nearest upsampling (a gather of an NHWC map) and the transpose of its
// result to NCHW: one kernel.
// CHECK-LABEL: func @upsample_to_nchw
// CHECK: fuse.group vertical rule "elementwise_chain"
// CHECK: tensor.extract
// CHECK: linalg.transpose
// CHECK-NOT: fuse.group
// CHECK: return
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @upsample_to_nchw(%x: tensor<1x4x4x8xf32>) -> tensor<1x8x8x8xf32> {
  %0 = tensor.empty() : tensor<1x8x8x8xf32>
  %c2 = arith.constant 2 : index
  %1 = linalg.generic {indexing_maps = [#map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%0 : tensor<1x8x8x8xf32>) {
  ^bb0(%out: f32):
    %n = linalg.index 0 : index
    %h = linalg.index 1 : index
    %w = linalg.index 2 : index
    %c = linalg.index 3 : index
    %hs = arith.divui %h, %c2 : index
    %ws = arith.divui %w, %c2 : index
    %v = tensor.extract %x[%n, %hs, %ws, %c] : tensor<1x4x4x8xf32>
    linalg.yield %v : f32
  } -> tensor<1x8x8x8xf32>
  %2 = tensor.empty() : tensor<1x8x8x8xf32>
  %3 = linalg.transpose ins(%1 : tensor<1x8x8x8xf32>) outs(%2 : tensor<1x8x8x8xf32>) permutation = [0, 3, 1, 2]
  return %3 : tensor<1x8x8x8xf32>
}

// -----

// A ReLU and the transpose of its result to NCHW: one kernel.
// CHECK-LABEL: func @relu_to_nchw
// CHECK: fuse.group vertical rule "elementwise_chain"
// CHECK: arith.maximumf
// CHECK: linalg.transpose
// CHECK-NOT: fuse.group
// CHECK: return
#m4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @relu_to_nchw(%x: tensor<1x6x6x8xf32>) -> tensor<1x8x6x6xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<1x6x6x8xf32>
  %1 = linalg.generic {indexing_maps = [#m4, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x6x6x8xf32>) outs(%0 : tensor<1x6x6x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %cst : f32
    linalg.yield %r : f32
  } -> tensor<1x6x6x8xf32>
  %2 = tensor.empty() : tensor<1x8x6x6xf32>
  %3 = linalg.transpose ins(%1 : tensor<1x6x6x8xf32>) outs(%2 : tensor<1x8x6x6xf32>) permutation = [0, 3, 1, 2]
  return %3 : tensor<1x8x6x6xf32>
}

// -----

// A gather that a larger op reads through a broadcast would be recomputed
// per element: it stays a kernel of its own.
// CHECK-LABEL: func @gather_broadcast
// CHECK: fuse.group single
// CHECK: tensor.extract
// CHECK: fuse.group single
// CHECK: arith.mulf
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @gather_broadcast(%ids: tensor<32xi64>, %table: tensor<100xf32>, %x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %0 = tensor.empty() : tensor<32xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%ids : tensor<32xi64>) outs(%0 : tensor<32xf32>) {
  ^bb0(%id: i64, %out: f32):
    %c0 = arith.constant 0 : index
    %c99 = arith.constant 99 : index
    %r = arith.index_cast %id : i64 to index
    %lo = arith.maxsi %r, %c0 : index
    %i = arith.minsi %lo, %c99 : index
    %v = tensor.extract %table[%i] : tensor<100xf32>
    linalg.yield %v : f32
  } -> tensor<32xf32>
  %2 = tensor.empty() : tensor<16x32xf32>
  %3 = linalg.generic {indexing_maps = [#col, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%1, %x : tensor<32xf32>, tensor<16x32xf32>) outs(%2 : tensor<16x32xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.mulf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<16x32xf32>
  return %3 : tensor<16x32xf32>
}
