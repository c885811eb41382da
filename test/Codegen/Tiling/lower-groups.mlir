// The default SIMT tiles on a one-SM target (on a larger one, tiles shrink
// until they cover its SMs, and contractions may take tensor-core tiles:
// lowering-config.mlir).
// RUN: fuse-opt %s -split-input-file --fuse-lower-groups="target={#fuse.target<\"h200\", sms = 1>} tensor-cores=never" -verify-diagnostics -allow-unregistered-dialect | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-lower-groups="tile-sizes=4,16" -verify-diagnostics -allow-unregistered-dialect | FileCheck %s --check-prefix=SIZES

// An elementwise chain: one forall over 8x32 tiles, both ops inside.
// CHECK-LABEL: func @chain
// CHECK: fuse.group vertical
// CHECK: %[[L:.*]] = scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (64, 256) step (8, 32)
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: scf.forall.in_parallel
// CHECK: } {mapping = [#fuse.tile<0>, #fuse.tile<1>]}
// CHECK: fuse.yield %[[L]]
// SIZES-LABEL: func @chain
// SIZES: scf.forall ({{.*}}) = (0, 0) to (64, 256) step (4, 16)
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @chain(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %r = fuse.group vertical (%a = %x : tensor<64x256xf32>) -> tensor<64x256xf32> {
    %e = tensor.empty() : tensor<64x256xf32>
    %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<64x256xf32>) outs(%e : tensor<64x256xf32>) {
    ^bb0(%in: f32, %o: f32):
      %t = math.exp %in : f32
      linalg.yield %t : f32
    } -> tensor<64x256xf32>
    %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<64x256xf32>) outs(%e : tensor<64x256xf32>) {
    ^bb0(%in: f32, %o: f32):
      %t = math.tanh %in : f32
      linalg.yield %t : f32
    } -> tensor<64x256xf32>
    fuse.yield %1 : tensor<64x256xf32>
  }
  return %r : tensor<64x256xf32>
}

// -----

// A matmul and its epilogue: the matmul is computed per output tile, its
// reduction dimension whole.
// CHECK-LABEL: func @matmul_relu
// CHECK: scf.forall ({{.*}}) = (0, 0) to (16, 64) step (8, 32)
// CHECK: linalg.fill
// CHECK: linalg.matmul ins({{.*}} : tensor<8x32xf32>, tensor<32x32xf32>)
// CHECK: linalg.generic
func.func @matmul_relu(%a: tensor<16x32xf32>, %b: tensor<32x64xf32>) -> tensor<16x64xf32> {
  %r = fuse.group vertical (%x = %a : tensor<16x32xf32>, %y = %b : tensor<32x64xf32>) -> tensor<16x64xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<16x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
    %m = linalg.matmul ins(%x, %y : tensor<16x32xf32>, tensor<32x64xf32>) outs(%f : tensor<16x64xf32>) -> tensor<16x64xf32>
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
    ^bb0(%in: f32, %o: f32):
      %t = arith.maximumf %in, %zero : f32
      linalg.yield %t : f32
    } -> tensor<16x64xf32>
    fuse.yield %0 : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

// A group with a row reduction keeps rows whole: tiles are single rows.
// CHECK-LABEL: func @row_sum_scale
// CHECK: scf.forall (%{{.*}}) in (8)
// CHECK: linalg.reduce
// CHECK: linalg.generic
func.func @row_sum_scale(%x: tensor<8x128xf32>) -> tensor<8x128xf32> {
  %r = fuse.group vertical (%a = %x : tensor<8x128xf32>) -> tensor<8x128xf32> {
    %zero = arith.constant 0.0 : f32
    %e1 = tensor.empty() : tensor<8xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
    %s = linalg.reduce ins(%a : tensor<8x128xf32>) outs(%f : tensor<8xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %t = arith.addf %in, %acc : f32
        linalg.yield %t : f32
      }
    %e = tensor.empty() : tensor<8x128xf32>
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %s : tensor<8x128xf32>, tensor<8xf32>) outs(%e : tensor<8x128xf32>) {
    ^bb0(%in: f32, %sum: f32, %o: f32):
      %t = arith.divf %in, %sum : f32
      linalg.yield %t : f32
    } -> tensor<8x128xf32>
    fuse.yield %0 : tensor<8x128xf32>
  }
  return %r : tensor<8x128xf32>
}

// -----

// A branch of a concat: the loop writes into its slice of the destination
// (the init is a slice of it), then the insertion is in place.
// CHECK-LABEL: func @concat_branch
// CHECK: fuse.group diagonal (%{{.*}} = %{{.*}}, %[[D:.*]] = %{{.*}} : tensor<4x8xf32>)
// CHECK: %[[S:.*]] = tensor.extract_slice %[[D]][0, 4] [4, 4] [1, 1]
// CHECK: %[[L:.*]] = scf.forall {{.*}} shared_outs(%{{.*}} = %[[S]])
// CHECK: tensor.insert_slice %[[L]] into %[[D]][0, 4] [4, 4] [1, 1]
func.func @concat_branch(%x: tensor<4x4xf32>, %dest: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = fuse.group diagonal (%a = %x : tensor<4x4xf32>, %d = %dest : tensor<4x8xf32>) -> tensor<4x8xf32> {
    %e = tensor.empty() : tensor<4x4xf32>
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
    ^bb0(%in: f32, %o: f32):
      %t = math.exp %in : f32
      linalg.yield %t : f32
    } -> tensor<4x4xf32>
    %1 = tensor.insert_slice %0 into %d[0, 4] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<4x8xf32>
    fuse.yield %1 : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}

// -----

// Two independent outputs over the same tiles: one loop with two results.
// CHECK-LABEL: func @two_roots
// CHECK: %[[L:.*]]:2 = scf.forall
// CHECK: math.exp
// CHECK: math.tanh
// CHECK: fuse.yield %[[L]]#0, %[[L]]#1
func.func @two_roots(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %r:2 = fuse.group horizontal (%a = %x : tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
    %e = tensor.empty() : tensor<8xf32>
    %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%in: f32, %o: f32):
      %t = math.exp %in : f32
      linalg.yield %t : f32
    } -> tensor<8xf32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%in: f32, %o: f32):
      %t = math.tanh %in : f32
      linalg.yield %t : f32
    } -> tensor<8xf32>
    fuse.yield %0, %1 : tensor<8xf32>, tensor<8xf32>
  }
  return %r#0, %r#1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// Independent outputs of different sizes: each becomes one tile covering
// it, and the two share one loop of one iteration.
// CHECK-LABEL: func @roots_of_different_sizes
// CHECK: %[[L:.*]]:2 = scf.forall (%{{.*}}) in (1)
// CHECK: math.exp
// CHECK: math.tanh
// CHECK: fuse.yield %[[L]]#0, %[[L]]#1
func.func @roots_of_different_sizes(%x: tensor<8xf32>, %y: tensor<16xf32>) -> (tensor<8xf32>, tensor<16xf32>) {
  %r:2 = fuse.group horizontal (%a = %x : tensor<8xf32>, %b = %y : tensor<16xf32>) -> (tensor<8xf32>, tensor<16xf32>) {
    %e = tensor.empty() : tensor<8xf32>
    %f = tensor.empty() : tensor<16xf32>
    %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%in: f32, %o: f32):
      %t = math.exp %in : f32
      linalg.yield %t : f32
    } -> tensor<8xf32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%b : tensor<16xf32>) outs(%f : tensor<16xf32>) {
    ^bb0(%in: f32, %o: f32):
      %t = math.tanh %in : f32
      linalg.yield %t : f32
    } -> tensor<16xf32>
    fuse.yield %0, %1 : tensor<8xf32>, tensor<16xf32>
  }
  return %r#0, %r#1 : tensor<8xf32>, tensor<16xf32>
}

// -----

// Independent outputs with loop nests of different depths cannot share a
// loop: the group is refused, not split.
func.func @roots_of_different_ranks(%x: tensor<8xf32>, %y: tensor<4x4xf32>) -> (tensor<8xf32>, tensor<4x4xf32>) {
  %r:2 = fuse.group horizontal (%a = %x : tensor<8xf32>, %b = %y : tensor<4x4xf32>) -> (tensor<8xf32>, tensor<4x4xf32>) {
    %e = tensor.empty() : tensor<8xf32>
    %f = tensor.empty() : tensor<4x4xf32>
    // expected-error @+1 {{fuse-lower-groups: a group: its independent outputs (roots 'linalg.generic', 'linalg.generic') have loop nests of different depths, so they cannot share one loop nest}}
    %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%in: f32, %o: f32):
      %t = math.exp %in : f32
      linalg.yield %t : f32
    } -> tensor<8xf32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) {
    ^bb0(%in: f32, %o: f32):
      %t = math.tanh %in : f32
      linalg.yield %t : f32
    } -> tensor<4x4xf32>
    fuse.yield %0, %1 : tensor<8xf32>, tensor<4x4xf32>
  }
  return %r#0, %r#1 : tensor<8xf32>, tensor<4x4xf32>
}

// -----

// A root without TilingInterface.
func.func @opaque_root(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = fuse.group single (%a = %x : tensor<8xf32>) -> tensor<8xf32> {
    // expected-error @+1 {{fuse-lower-groups: a group (single): its root 'test.opaque' cannot be tiled (no TilingInterface)}}
    %0 = "test.opaque"(%a) : (tensor<8xf32>) -> tensor<8xf32>
    fuse.yield %0 : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
