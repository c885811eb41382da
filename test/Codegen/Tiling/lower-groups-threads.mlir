// fuse-lower-groups sizes a group's tiles for the threads of a kernel's
// block and the SMs of the target: a tile with fewer points than `threads`
// (at most the target's max_threads_per_block) takes twice as many
// iterations of its outer tiled loops while that still divides them and
// the tiles still cover the SMs. A 1x64x4 tensor: the default 8x4 tile has
// 32 points; on a one-SM target, for 128 threads it grows to 32x4; on the
// H200 (132 SMs) its 8 tiles are too few already and it stays 8x4, with a
// block of 32 threads.
// RUN: fuse-opt %s --fuse-lower-groups | FileCheck %s --check-prefix=H200
// RUN: fuse-opt %s --fuse-lower-groups="target={#fuse.target<\"h200\", sms = 1>}" | FileCheck %s
// RUN: fuse-opt %s --fuse-lower-groups="threads=32 target={#fuse.target<\"h200\", sms = 1>}" | FileCheck %s --check-prefix=T32
// RUN: fuse-opt %s --fuse-lower-groups="target={#fuse.target<\"h200\", sms = 1, max_threads_per_block = 64>}" | FileCheck %s --check-prefix=T64
// RUN: not fuse-opt %s --fuse-lower-groups="target=h2000" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not fuse-opt %s --fuse-lower-groups="threads=-1" 2>&1 | FileCheck %s --check-prefix=ZERO
// The tiles still execute like the unfused op, spread over threads too.
// RUN: %check_equivalence %s --lower-groups --distribute-threads 128 | FileCheck %s --check-prefix=EQUIV
// H200: tile = [1, 8, 4], threads = 32
// H200: scf.forall ({{.*}}) = (0, 0, 0) to (1, 64, 4) step (1, 8, 4)
// CHECK: tile = [1, 32, 4], threads = 128
// CHECK: scf.forall ({{.*}}) = (0, 0, 0) to (1, 64, 4) step (1, 32, 4)
// T32: scf.forall ({{.*}}) = (0, 0, 0) to (1, 64, 4) step (1, 8, 4)
// T64: scf.forall ({{.*}}) = (0, 0, 0) to (1, 64, 4) step (1, 16, 4)
// BAD: error: fuse-lower-groups: option 'target': unknown target 'h2000'
// ZERO: error: fuse-lower-groups: option 'threads' must be non-negative (0: the cost model chooses), got -1
// EQUIV: PASS
func.func @narrow(%x: tensor<1x64x4xf32>) -> tensor<1x64x4xf32> {
  %r = fuse.group single (%a = %x : tensor<1x64x4xf32>) -> tensor<1x64x4xf32> {
    %e = tensor.empty() : tensor<1x64x4xf32>
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a : tensor<1x64x4xf32>) outs(%e : tensor<1x64x4xf32>) {
    ^bb0(%in: f32, %o: f32):
      %t = math.exp %in : f32
      linalg.yield %t : f32
    } -> tensor<1x64x4xf32>
    fuse.yield %0 : tensor<1x64x4xf32>
  }
  return %r : tensor<1x64x4xf32>
}
