// Emulated split-K (fuse-distribute-threads emulate=true): a tile loop's
// body runs once per slice, in slice order (the GPU's blocks of one tile);
// each run reduces its slice of K, stores its partials and arrives at the
// tile's counter; the last sums the partials and alone runs the epilogue.
// The tile loop must be static.
// RUN: fuse-opt %s -split-input-file --fuse-distribute-threads=emulate=true -verify-diagnostics | FileCheck %s --check-prefixes=CHECK,REGS
// RUN: fuse-opt %s -split-input-file --fuse-distribute-threads="emulate=true epilogue-in-registers=false" -verify-diagnostics | FileCheck %s --check-prefixes=CHECK,SEPARATE

// CHECK-LABEL: func.func @gemm_split
// CHECK: %[[PARTIALS:.*]] = memref.alloc() {fuse.split_k_buffer = "partials"} : memref<[[P:[0-9]+]]xf32>
// CHECK: %[[COUNTERS:.*]] = memref.alloc() {fuse.split_k_buffer = "counters"} : memref<[[T:[0-9]+]]xi32>
// CHECK: scf.forall
// CHECK: scf.for %[[SLICE:.*]] = %c0{{.*}} to %c2{{.*}} step %c1
// CHECK: arith.muli %[[SLICE]], %c32{{.*}} : index
// CHECK: memref.store %{{.*}}, %[[PARTIALS]]
// CHECK: %[[OLD:.*]] = memref.atomic_rmw addi %{{.*}}, %[[COUNTERS]]
// CHECK: %[[LAST:.*]] = arith.cmpi eq, %[[OLD]], %c1_i32
// CHECK: scf.if %[[LAST]] {
// CHECK: memref.atomic_rmw assign
// CHECK: scf.if %[[LAST]] {
// CHECK: memref.load %[[PARTIALS]]
// CHECK: arith.addf
// In registers: the epilogue on each summed accumulator under the check,
// stored once; the tile's buffer is gone.
// REGS: math.exp
// REGS-NEXT: memref.store %{{.*}}, %{{.*}} : memref<16x8xf32, strided<[16, 1], offset: ?>>
// REGS-NOT: memref.dealloc %{{.*}} : memref<16x8xf32>
// REGS: memref.dealloc %[[PARTIALS]]
// Separate: the epilogue and the tile's buffers' deallocation: the
// epilogue under the check, the deallocation after it (every slice frees
// what it made).
// SEPARATE: math.exp
// SEPARATE: memref.store %{{.*}}, %{{.*}} : memref<16x8xf32, strided<[16, 1], offset: ?>>
// SEPARATE-NEXT: }
// SEPARATE-NEXT: }
// SEPARATE-NEXT: }
// SEPARATE-NEXT: }
// SEPARATE-NEXT: memref.dealloc %{{.*}} : memref<16x8xf32>
// SEPARATE-NEXT: }
// SEPARATE: memref.dealloc %[[PARTIALS]]
func.func @gemm_split(%arg0: memref<16x64xf32>, %arg1: memref<64x16xf32>, %arg3: memref<16x16xf32>) attributes {fuse.lowering_config = #fuse.lowering_config<schedule = "contraction", tile = [16, 8], threads = 32, instruction = "mma_sync", precision = "fp32", split_k = 2>} {
  %cst = arith.constant 0.000000e+00 : f32
  scf.forall (%i, %j) = (0, 0) to (16, 16) step (16, 8) {
    %w = memref.subview %arg1[0, %j] [64, 8] [1, 1] : memref<64x16xf32> to memref<64x8xf32, strided<[16, 1], offset: ?>>
    %tile = memref.alloc() : memref<16x8xf32>
    linalg.fill ins(%cst : f32) outs(%tile : memref<16x8xf32>)
    linalg.matmul ins(%arg0, %w : memref<16x64xf32>, memref<64x8xf32, strided<[16, 1], offset: ?>>) outs(%tile : memref<16x8xf32>)
    %out = memref.subview %arg3[0, %j] [16, 8] [1, 1] : memref<16x16xf32> to memref<16x8xf32, strided<[16, 1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%tile : memref<16x8xf32>) outs(%out : memref<16x8xf32, strided<[16, 1], offset: ?>>) {
    ^bb0(%in: f32, %o: f32):
      %e = math.exp %in : f32
      linalg.yield %e : f32
    }
    memref.dealloc %tile : memref<16x8xf32>
  }
  return
}

// -----

func.func @split_dynamic(%arg0: memref<16x64xf32>, %arg1: memref<64x16xf32>, %arg3: memref<16x16xf32>, %n: index) attributes {fuse.lowering_config = #fuse.lowering_config<schedule = "contraction", tile = [16, 8], threads = 32, instruction = "mma_sync", precision = "fp32", split_k = 2>} {
  // expected-error @+1 {{fuse-distribute-threads: the lowering config asks for split_k = 2, but the tile loop is not static}}
  scf.forall (%j) = (0) to (%n) step (8) {
    %w = memref.subview %arg1[0, %j] [64, 8] [1, 1] : memref<64x16xf32> to memref<64x8xf32, strided<[16, 1], offset: ?>>
    %out = memref.subview %arg3[0, %j] [16, 8] [1, 1] : memref<16x16xf32> to memref<16x8xf32, strided<[16, 1], offset: ?>>
    linalg.matmul ins(%arg0, %w : memref<16x64xf32>, memref<64x8xf32, strided<[16, 1], offset: ?>>) outs(%out : memref<16x8xf32, strided<[16, 1], offset: ?>>)
  }
  return
}
