// Split-K in fuse-distribute-threads' tensor-core schedule (a lowering
// config with split_k = 2): a 32x24 tile of a matmul with K = 128 (4 chunks
// of 32), two tiles along N. The grid's x doubles (block x: tile x + 1 *
// slice, slice = x / 1); each block reduces its slice's 2 chunks (K from
// slice * 64) into accumulators (the first slice from the tile's initial
// values, the other from zero), stores them to the partials, fences
// device-wide and arrives at its tile's counter (thread 0, an atomic add;
// the block learns through a shared flag whether it arrived last). The last
// block resets the counter, fences, sums the two slices' partials in slice
// order into its accumulators and alone runs the epilogue (the bias add),
// under the arrival check: on the accumulators in registers, each sum
// plus its bias element stored once to the output (no tile buffer); with
// epilogue-in-registers=false the sums go to the tile and the bias add
// runs over it as its own phase. The buffers are marked allocs around the
// launch, which fuse-split-k-buffers turns into module globals.
// RUN: fuse-opt %s -split-input-file --fuse-distribute-threads | FileCheck %s --check-prefixes=CHECK,REGS
// RUN: fuse-opt %s -split-input-file --fuse-distribute-threads=epilogue-in-registers=false | FileCheck %s --check-prefixes=CHECK,SEPARATE
// RUN: fuse-opt %s -split-input-file --fuse-distribute-threads --fuse-split-k-buffers | FileCheck %s --check-prefix=GLOBAL

// CHECK-LABEL: func.func @gemm_split
// Partials: 2 tiles x 2 slices x 8 registers (2 accumulator tiles of 4) x
// 96 computing lanes (3 warps); a counter per tile.
// CHECK: %[[PARTIALS:.*]] = memref.alloc() {fuse.split_k_buffer = "partials"} : memref<[[P:3072]]xf32>
// CHECK: %[[COUNTERS:.*]] = memref.alloc() {fuse.split_k_buffer = "counters"} : memref<[[T:2]]xi32>
// CHECK: linalg.fill ins(%{{.*}} : i32) outs(%[[COUNTERS]] : memref<[[T]]xi32>)
// CHECK: gpu.launch blocks(%[[BX:.*]], %[[BY:.*]], %{{.*}}) in (%{{.*}} = %c2{{.*}}, %{{.*}} = %c2{{.*}}, %{{.*}} = %c1{{.*}})
// CHECK: %[[X:.*]] = arith.remui %[[BX]], %[[W:.*]] : index
// CHECK: %[[SLICE:.*]] = arith.divui %[[BX]], %[[W]] : index
// The tile's own coordinates use x, not the block id.
// CHECK: %[[KSTART:.*]] = arith.muli %[[SLICE]], %c64{{.*}} : index
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[SLICE]], %c0
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c64{{.*}} step %c32
// CHECK: nvgpu.mma.sync
// The partials, the fence, the arrival.
// CHECK: memref.store %{{.*}}, %[[PARTIALS]][%{{.*}}] : memref<[[P]]xf32>
// CHECK: nvvm.memory.barrier <gpu>
// CHECK-NEXT: gpu.barrier
// CHECK: memref.atomic_rmw addi %{{.*}}, %[[COUNTERS]][%{{.*}}] : (i32, memref<[[T]]xi32>) -> i32
// CHECK: memref.atomic_rmw assign %{{.*}}, %[[COUNTERS]][%{{.*}}] : (i32, memref<[[T]]xi32>) -> i32
// CHECK: memref.store %{{.*}}, %[[FLAG:.*]][%{{.*}}] : memref<1xi32, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK: %[[ARRIVED:.*]] = memref.load %[[FLAG]]
// CHECK: %[[LAST:.*]] = arith.cmpi ne, %[[ARRIVED]]
// CHECK: scf.if %[[LAST]] {
// CHECK-NEXT: nvvm.memory.barrier <gpu>
// CHECK: memref.load %[[PARTIALS]]
// CHECK: scf.for %{{.*}} = %c1{{.*}} to %c2{{.*}} step %c1
// CHECK: memref.load %[[PARTIALS]]
// CHECK: arith.addf
// In registers: the bias element added to each sum, one store each.
// REGS: memref.load %{{.*}} : memref<24xf32, strided<[1], offset: ?>>
// REGS-NEXT: arith.addf
// REGS-NEXT: memref.store %{{.*}}, %{{.*}} : memref<32x24xf32, strided<[48, 1], offset: ?>>
// REGS-NOT: gpu.barrier
// REGS-NOT: vector.store
// REGS: gpu.terminator
// Separate: the sums to the tile, then the epilogue (by four where aligned,
// else one at a time) in the last block only: inside the arrival check.
// SEPARATE: memref.store %{{.*}}, %memspacecast{{.*}} : memref<32x24xf32>
// SEPARATE: gpu.barrier
// SEPARATE: vector.store
// SEPARATE: } else {
// SEPARATE: arith.addf
// SEPARATE: memref.store %{{.*}}, %{{.*}} : memref<32x24xf32, strided<[48, 1], offset: ?>>
// SEPARATE-NEXT: }
// SEPARATE-NEXT: }
// SEPARATE-NEXT: }
// SEPARATE-NEXT: gpu.terminator
// CHECK: memref.dealloc %[[PARTIALS]]
// CHECK: memref.dealloc %[[COUNTERS]]
// GLOBAL: memref.global "private" @__fuse_split_k_counters : memref<2xi32> = dense<0> {alignment = 256 : i64}
// GLOBAL: memref.global "private" @__fuse_split_k_partials : memref<3072xf32> = uninitialized {alignment = 256 : i64}
// GLOBAL-LABEL: func.func @gemm_split
// GLOBAL: %[[P:.*]] = memref.get_global @__fuse_split_k_partials : memref<3072xf32>
// GLOBAL: memref.reinterpret_cast %[[P]] to offset: [0], sizes: [3072], strides: [1] : memref<3072xf32> to memref<3072xf32>
// GLOBAL: %[[C:.*]] = memref.get_global @__fuse_split_k_counters : memref<2xi32>
// GLOBAL: memref.reinterpret_cast %[[C]] to offset: [0], sizes: [2], strides: [1] : memref<2xi32> to memref<2xi32>
// GLOBAL-NOT: linalg.fill
// GLOBAL-NOT: memref.alloc(
// GLOBAL-NOT: memref.dealloc
// GLOBAL: return
func.func @gemm_split(%arg0: memref<32x128xf32>, %arg1: memref<128x48xf32>, %arg2: memref<48xf32>, %arg3: memref<32x48xf32>) attributes {fuse.lowering_config = #fuse.lowering_config<schedule = "contraction", tile = [32, 24], threads = 128, instruction = "mma_sync", precision = "fp32", split_k = 2>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c24 = arith.constant 24 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c2, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %n = arith.muli %by, %c24 : index
    %w = memref.subview %arg1[0, %n] [128, 24] [1, 1] : memref<128x48xf32> to memref<128x24xf32, strided<[48, 1], offset: ?>>
    %tile = memref.alloca() {alignment = 64 : i64} : memref<32x24xf32>
    linalg.fill ins(%cst : f32) outs(%tile : memref<32x24xf32>)
    linalg.matmul ins(%arg0, %w : memref<32x128xf32>, memref<128x24xf32, strided<[48, 1], offset: ?>>) outs(%tile : memref<32x24xf32>)
    %b = memref.subview %arg2[%n] [24] [1] : memref<48xf32> to memref<24xf32, strided<[1], offset: ?>>
    %out = memref.subview %arg3[0, %n] [32, 24] [1, 1] : memref<32x48xf32> to memref<32x24xf32, strided<[48, 1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%tile, %b : memref<32x24xf32>, memref<24xf32, strided<[1], offset: ?>>) outs(%out : memref<32x24xf32, strided<[48, 1], offset: ?>>) {
    ^bb0(%in: f32, %in_4: f32, %o: f32):
      %4 = arith.addf %in, %in_4 : f32
      linalg.yield %4 : f32
    }
    gpu.terminator
  }
  return
}
