// The weights a group's function receives as arguments: marked where
// every call passes a constant (fuse-cpu-mark-constant-arguments), read by
// fuse-cpu-vectorize through a generic that packs their column panels,
// which fuse-cpu-pack-weights replaces by packing the callers' constants
// at compile time.
// RUN: fuse-opt %s --split-input-file --fuse-cpu-mark-constant-arguments | FileCheck %s --check-prefix=MARK
// RUN: fuse-opt %s --split-input-file --fuse-cpu-mark-constant-arguments --fuse-cpu-vectorize | FileCheck %s --check-prefix=VEC
// RUN: fuse-opt %s --split-input-file --fuse-cpu-mark-constant-arguments --fuse-cpu-vectorize --fuse-cpu-pack-weights --canonicalize | FileCheck %s --check-prefix=PACK
// RUN: fuse-opt %s --split-input-file --fuse-cpu-vectorize --fuse-cpu-pack-weights | FileCheck %s --check-prefix=UNMARKED

// A function two groups share, each with its own weights: argument 1 is a
// constant at both calls, argument 0 is not.
// MARK-LABEL: func.func private @shared
// MARK-SAME: fuse.constant_arguments = array<i64: 1>
// Vectorized, its panels (64 x 32, two column blocks) are read from the
// argument packed into [1, 2] tiles by a marked generic at its start.
// VEC-LABEL: func.func private @shared
// VEC: %[[PACKED:.*]] = linalg.generic {{.*}} ins(%arg1 : tensor<64x64xf32>) outs(%{{.*}} : tensor<1x2x64x32xf32>) attrs = {fuse.pack_argument = "linalg.matmul@{{.*}}"}
// VEC: vector.transfer_read %[[PACKED]]{{.*}} : tensor<1x2x64x32xf32>, vector<4x32xf32>
// Packed at compile time: the argument takes the packed type, each caller
// passes its constant packed, the generic is gone, and the function
// records both constants' bytes.
// PACK-LABEL: func.func @caller
// PACK-DAG: %[[A:.*]] = arith.constant dense<2.500000e-01> : tensor<1x2x64x32xf32>
// PACK-DAG: %[[B:.*]] = arith.constant dense<5.000000e-01> : tensor<1x2x64x32xf32>
// PACK: call @shared(%arg0, %[[A]])
// PACK: call @shared(%arg0, %[[B]])
// PACK-LABEL: func.func private @shared
// PACK-SAME: (%arg0: tensor<16x64xf32>, %arg1: tensor<1x2x64x32xf32>)
// PACK-SAME: fuse.relayouts = [{bytes = 32768 : i64, from = "64x64", op = "linalg.matmul@{{.*}}", to = "1x2x64x32"}]
// PACK-NOT: fuse.constant_arguments
// PACK-NOT: linalg.generic
// PACK: vector.transfer_read %arg1{{.*}} : tensor<1x2x64x32xf32>, vector<4x32xf32>
// Without the mark, the argument is read as it is.
// UNMARKED-LABEL: func.func private @shared
// UNMARKED-NOT: fuse.pack_argument
// UNMARKED: vector.transfer_read %arg1{{.*}} : tensor<64x64xf32>, vector<4x32xf32>
func.func @caller(%x: tensor<16x64xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>) {
  %a = arith.constant dense<0.25> : tensor<64x64xf32>
  %b = arith.constant dense<0.5> : tensor<64x64xf32>
  %r = call @shared(%x, %a) : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
  %s = call @shared(%x, %b) : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
  return %r, %s : tensor<16x64xf32>, tensor<16x64xf32>
}
func.func private @shared(%x: tensor<16x64xf32>, %w: tensor<64x64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %r = linalg.matmul ins(%x, %w : tensor<16x64xf32>, tensor<64x64xf32>) outs(%f : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

// The packed layout, element by element: [2, 4] weights in [2, 2] tiles
// are the tile of columns 0-1, then that of columns 2-3.
// PACK-LABEL: func.func @order
// PACK: arith.constant dense<{{\[}}{{\[}}{{\[}}[1.000000e+00, 2.000000e+00], [5.000000e+00, 6.000000e+00]], {{\[}}[3.000000e+00, 4.000000e+00], [7.000000e+00, 8.000000e+00]]]]> : tensor<1x2x2x2xf32>
func.func @order(%x: tensor<2x2xf32>) -> tensor<2x4xf32> {
  %w = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>
  %r = call @narrow(%x, %w) : (tensor<2x2xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}
func.func private @narrow(%x: tensor<2x2xf32>, %w: tensor<2x4xf32>) -> tensor<2x4xf32> attributes {fuse.lowering_config = #fuse.lowering_config<schedule = "contraction", tile = [2, 4], threads = 32, instruction = "simt", precision = "fp32", cpu = #fuse.cpu_schedule<kind = "register_tiles", mr = 2, nr = 2, kc = 1, k_block = 0>>} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %r = linalg.matmul ins(%x, %w : tensor<2x2xf32>, tensor<2x4xf32>) outs(%f : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

// One call passes a value computed at run time: the argument is not
// marked, and its panels are read as they are.
// MARK-LABEL: func.func private @mixed
// MARK-NOT: fuse.constant_arguments
// VEC-LABEL: func.func private @mixed
// VEC-NOT: fuse.pack_argument
func.func @mixed_caller(%x: tensor<16x64xf32>, %v: tensor<64x64xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>) {
  %a = arith.constant dense<0.25> : tensor<64x64xf32>
  %r = call @mixed(%x, %a) : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
  %s = call @mixed(%x, %v) : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
  return %r, %s : tensor<16x64xf32>, tensor<16x64xf32>
}
func.func private @mixed(%x: tensor<16x64xf32>, %w: tensor<64x64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %r = linalg.matmul ins(%x, %w : tensor<16x64xf32>, tensor<64x64xf32>) outs(%f : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

// A public function's callers are not all known: no mark.
// MARK-LABEL: func.func @public_callee
// MARK-NOT: fuse.constant_arguments
func.func @public_caller(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %a = arith.constant dense<0.25> : tensor<64x64xf32>
  %r = call @public_callee(%x, %a) : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}
func.func @public_callee(%x: tensor<16x64xf32>, %w: tensor<64x64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %r = linalg.matmul ins(%x, %w : tensor<16x64xf32>, tensor<64x64xf32>) outs(%f : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

// A mark that no longer holds (a call passes a run-time value, as after a
// rewrite between the passes; here without the marking pass): the generic
// stays and packs the argument at run time, unmarked.
// UNMARKED-LABEL: func.func private @stale
// UNMARKED-SAME: (%arg0: tensor<16x64xf32>, %arg1: tensor<64x64xf32>)
// UNMARKED: linalg.generic {{.*}} ins(%arg1 : tensor<64x64xf32>) outs(%{{.*}} : tensor<1x2x64x32xf32>)
// UNMARKED-NOT: fuse.pack_argument
func.func @stale_caller(%x: tensor<16x64xf32>, %v: tensor<64x64xf32>) -> tensor<16x64xf32> {
  %r = call @stale(%x, %v) : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}
func.func private @stale(%x: tensor<16x64xf32>, %w: tensor<64x64xf32>) -> tensor<16x64xf32> attributes {fuse.constant_arguments = array<i64: 1>} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %r = linalg.matmul ins(%x, %w : tensor<16x64xf32>, tensor<64x64xf32>) outs(%f : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}
