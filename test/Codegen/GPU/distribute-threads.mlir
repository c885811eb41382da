// fuse-distribute-threads: the ops of a tile (one block) spread over the
// block's threads, contiguous output dimension fastest, a barrier after
// each op, tile-local buffers in shared memory.
// RUN: fuse-opt %s -split-input-file --fuse-distribute-threads -verify-diagnostics | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-distribute-threads="block-size=64" -verify-diagnostics | FileCheck %s --check-prefix=B64
// Shared memory too small for the tile's buffers: one thread per block.
// RUN: fuse-opt %s -split-input-file --fuse-distribute-threads="shared-bytes=1024" 2>&1 | FileCheck %s --check-prefix=SMEM
// RUN: not fuse-opt %s -split-input-file --fuse-distribute-threads="block-size=2048" 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK-LABEL: func @tile
// CHECK: %[[T:.*]] = arith.constant 128 : index
// The row sums have 8 points for 128 threads: 16 lanes share each row,
// folded by warp shuffles (no shared partials).
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}}) threads(%[[TX:[^,]*]], {{.*}}) in (%{{[^ ]*}} = %[[T]], {{.*}}) workgroup(%[[ACC:[^ ]*]] : memref<8x32xf32, #gpu.address_space<workgroup>>, %[[ROWS:[^ ]*]] : memref<8xf32, #gpu.address_space<workgroup>>)
// CHECK-NOT: memref.alloca
// CHECK: %[[A:.*]] = memref.memory_space_cast %[[ACC]] : memref<8x32xf32, #gpu.address_space<workgroup>> to memref<8x32xf32>
// The fill: 256 points from the thread id in steps of the block size; the
// column (contiguous) index is the fastest.
// CHECK: scf.for %[[P:.*]] = %[[TX]] to %c256 step %c128
// CHECK-NEXT: %[[COL:.*]] = arith.remui %[[P]], %c32
// CHECK-NEXT: %[[R:.*]] = arith.divui %[[P]], %c32
// CHECK-NEXT: arith.remui %[[R]], %c8
// CHECK: memref.store %{{.*}}, %[[A]]
// CHECK: gpu.barrier
// The matmul: each thread runs the reduction for its own points, 256 / 128
// = 2 (t and t + 128) through one K loop, their accumulators in registers
// (each loaded once, stored once).
// CHECK: %[[I0:.*]] = memref.load %[[A]]
// CHECK: arith.addi %[[TX]], %c128
// CHECK: %[[I1:.*]] = memref.load %[[A]]
// CHECK: %[[DOT:.*]]:2 = scf.for %{{.*}} = %c0{{.*}} to %c256{{.*}} step %c1{{.*}} iter_args(%[[ACC0:.*]] = %[[I0]], %[[ACC1:.*]] = %[[I1]]) -> (f32, f32)
// CHECK-NOT: memref.store
// CHECK: arith.mulf
// CHECK: arith.addf %[[ACC0]]
// CHECK: arith.mulf
// CHECK: arith.addf %[[ACC1]]
// CHECK: memref.store %[[DOT]]#0, %[[A]]
// CHECK: memref.store %[[DOT]]#1, %[[A]]
// CHECK: gpu.barrier
// CHECK: %[[R8:.*]] = memref.memory_space_cast %[[ROWS]]
// The rows' fill: 8 points.
// CHECK: scf.for %{{.*}} = %[[TX]] to %c8{{.*}} step %c128
// CHECK: gpu.barrier
// The row sums: lane tx % 16 of row tx / 16 adds columns lane, lane + 16
// in a register from 0 (the neutral element of addf) ...
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[ROW:.*]] = arith.divui %[[TX]], %c16
// CHECK: %[[LANE:.*]] = arith.remui %[[TX]], %c16
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[TX]], %c128
// CHECK: %[[HAS:.*]] = arith.cmpi ult, %[[ROW]], %c8
// CHECK: %[[VALID:.*]] = arith.andi %[[IN]], %[[HAS]]
// CHECK: %[[PART_SUM:.*]] = scf.if %[[VALID]] -> (f32) {
// CHECK: scf.for %{{.*}} = %[[LANE]] to %c32{{.*}} step %c16{{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (f32)
// CHECK: memref.load %[[A]]
// CHECK: arith.addf
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[ZERO]] : f32
// ... the 16 lanes' partials fold by shuffles 8, 4, 2, 1 lanes apart (no
// barrier, no shared memory) ...
// CHECK-NOT: gpu.barrier
// CHECK: %[[S8:.*]], %{{.*}} = gpu.shuffle  xor %[[PART_SUM]], %c8_i32, %c32_i32
// CHECK-NEXT: %[[F8:.*]] = arith.addf %[[PART_SUM]], %[[S8]]
// CHECK: %[[S4:.*]], %{{.*}} = gpu.shuffle  xor %[[F8]], %c4_i32, %c32_i32
// CHECK-NEXT: %[[F4:.*]] = arith.addf %[[F8]], %[[S4]]
// CHECK: %[[S2:.*]], %{{.*}} = gpu.shuffle  xor %[[F4]], %c2_i32, %c32_i32
// CHECK-NEXT: %[[F2:.*]] = arith.addf %[[F4]], %[[S2]]
// CHECK: %[[S1:.*]], %{{.*}} = gpu.shuffle  xor %[[F2]], %c1_i32, %c32_i32
// CHECK-NEXT: %[[F1:.*]] = arith.addf %[[F2]], %[[S1]]
// ... and lane 0 of each row joins the row's initial value.
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[LANE]], %c0
// CHECK: %[[STORES:.*]] = arith.andi %[[VALID]], %[[FIRST]]
// CHECK: scf.if %[[STORES]] {
// CHECK: %[[OLD:.*]] = memref.load %[[R8]]
// CHECK: arith.addf %[[OLD]], %[[F1]]
// CHECK: memref.store %{{.*}}, %[[R8]]
// CHECK: gpu.barrier
// The last op writes the output (elementwise; rows of 32 contiguous
// points): where the output and the tile buffer are 16-byte aligned
// (checked at run time) 64 runs of four points, each one 16-byte load of
// the tile, the row's value once, four subtractions and one 16-byte store;
// else the one-point loop. No barrier before the end of the kernel.
// CHECK: memref.extract_aligned_pointer_as_index %subview
// CHECK: scf.if %{{.*}} {
// CHECK: scf.for %{{.*}} = %[[TX]] to %c64 step %c128
// CHECK: vector.load %[[A]][{{.*}}] {alignment = 16 : i64} : memref<8x32xf32>, vector<4xf32>
// CHECK: memref.load %[[R8]]
// CHECK-COUNT-4: arith.subf
// CHECK: vector.store %{{.*}}, %subview{{.*}} {alignment = 16 : i64}
// CHECK-NOT: gpu.barrier
// CHECK: } else {
// CHECK: scf.for %{{.*}} = %[[TX]] to %c256{{.*}} step %c128
// CHECK: arith.subf
// CHECK: memref.store %{{.*}}, %subview
// CHECK-NOT: gpu.barrier
// CHECK: gpu.terminator
// B64-LABEL: func @tile
// B64: arith.constant 64 : index
// B64: scf.for %{{.*}} = %{{.*}} to %c256 step %c64
// SMEM: remark: fuse-distribute-threads: one thread per block: its tile-local buffers take 1056 B of shared memory, more than shared-bytes = 1024
// BAD: error: fuse-distribute-threads: option 'block-size' must be at most 1024 (max_threads_per_block of target 'h200'), got 2048
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @tile(%x: memref<64x256xf32>, %w: memref<256x32xf32>, %y: memref<64x32xf32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %zero = arith.constant 0.0 : f32
    %off = arith.muli %bx, %c8 : index
    %xs = memref.subview %x[%off, 0] [8, 256] [1, 1] : memref<64x256xf32> to memref<8x256xf32, strided<[256, 1], offset: ?>>
    %ys = memref.subview %y[%off, 0] [8, 32] [1, 1] : memref<64x32xf32> to memref<8x32xf32, strided<[32, 1], offset: ?>>
    %acc = memref.alloca() : memref<8x32xf32>
    linalg.fill ins(%zero : f32) outs(%acc : memref<8x32xf32>)
    linalg.matmul ins(%xs, %w : memref<8x256xf32, strided<[256, 1], offset: ?>>, memref<256x32xf32>) outs(%acc : memref<8x32xf32>)
    %rows = memref.alloca() : memref<8xf32>
    linalg.fill ins(%zero : f32) outs(%rows : memref<8xf32>)
    linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%acc : memref<8x32xf32>) outs(%rows : memref<8xf32>) {
    ^bb0(%a: f32, %r: f32):
      %s = arith.addf %a, %r : f32
      linalg.yield %s : f32
    }
    linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%acc, %rows : memref<8x32xf32>, memref<8xf32>) outs(%ys : memref<8x32xf32, strided<[32, 1], offset: ?>>) {
    ^bb0(%a: f32, %r: f32, %o: f32):
      %d = arith.subf %a, %r : f32
      linalg.yield %d : f32
    }
    gpu.terminator
  }
  return
}

// -----

// An op whose output does not give each parallel point an element of its
// own (every column writes the same row entry) runs on thread 0.
// CHECK-LABEL: func @broadcast_write
// CHECK: threads({{.*}}) in (%{{[^ ]*}} = %c64,
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %c0
// CHECK-NEXT: scf.if %[[FIRST]]
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c64{{.*}} step %c1
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#first = affine_map<(d0, d1) -> (d0, 0)>
func.func @broadcast_write(%x: memref<2x32xf32>, %y: memref<2x1xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    linalg.generic {indexing_maps = [#id2, #first], iterator_types = ["parallel", "parallel"]} ins(%x : memref<2x32xf32>) outs(%y : memref<2x1xf32>) {
    ^bb0(%a: f32, %o: f32):
      linalg.yield %a : f32
    }
    gpu.terminator
  }
  return
}

// -----

// A store outside any linalg op: the kernel keeps one thread per block.
// CHECK-LABEL: func @raw_store
// CHECK: threads({{.*}}) in (%{{[^ ]*}} = %c1,
// CHECK-NOT: gpu.barrier
func.func @raw_store(%x: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  // expected-remark @below {{fuse-distribute-threads: one thread per block: 'memref.store' writes memory}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %zero = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    memref.store %zero, %x[%c0] : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

// Tile buffers over the 48 KiB of static shared memory: one dynamic shared
// buffer, sized by the launch, each tile buffer a view at its offset.
// CHECK-LABEL: func @large_tile
// CHECK: %[[BYTES:.*]] = arith.constant 81920 : i32
// CHECK: gpu.launch {{.*}} dynamic_shared_memory_size %[[BYTES]]
// CHECK: %[[DYN:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[OFF0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[OFF1:.*]] = arith.constant 65536 : index
// CHECK-DAG: memref.view %[[DYN]][%[[OFF0]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<128x128xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.view %[[DYN]][%[[OFF1]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32x128xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.alloca
// CHECK: gpu.barrier
func.func @large_tile(%x: memref<128x128xf32>, %y: memref<32x128xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %a = memref.alloca() : memref<128x128xf32>
    %b = memref.alloca() : memref<32x128xf32>
    linalg.copy ins(%x : memref<128x128xf32>) outs(%a : memref<128x128xf32>)
    %s = memref.subview %a[0, 0] [32, 128] [1, 1] : memref<128x128xf32> to memref<32x128xf32, strided<[128, 1]>>
    linalg.copy ins(%s : memref<32x128xf32, strided<[128, 1]>>) outs(%b : memref<32x128xf32>)
    linalg.copy ins(%b : memref<32x128xf32>) outs(%y : memref<32x128xf32>)
    gpu.terminator
  }
  return
}

// -----

// A whole row reduced to one point (a layernorm's or softmax's statistic):
// with 128 threads, 64 lanes (no more than the row's 64 elements) share it,
// starting from the neutral element of maximumf (-inf): two warps, each
// folding its 32 lanes by shuffles (16, 8, ..., 1 apart), lane 0 of each
// writing its warp's result to shared memory (2x1); after a barrier one
// folding step and the output.
// CHECK-LABEL: func @row_max
// CHECK: workgroup(%[[PART:[^ ]*]] : memref<2x1xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[P:.*]] = memref.memory_space_cast %[[PART]]
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: arith.cmpi ult, %{{.*}}, %c64
// CHECK: scf.for %{{.*}} = %{{.*}} to %c64{{.*}} step %c64{{.*}} iter_args
// CHECK: arith.maximumf
// CHECK-NOT: gpu.barrier
// CHECK: gpu.shuffle  xor %{{.*}}, %c16_i32, %c32_i32
// CHECK-NEXT: arith.maximumf
// CHECK-COUNT-4: gpu.shuffle  xor
// CHECK: %[[INWARP:.*]] = arith.remui %{{.*}}, %c32
// CHECK: arith.cmpi eq, %[[INWARP]], %c0
// CHECK: scf.if
// CHECK: %[[WARP:.*]] = arith.divui %{{.*}}, %c32
// CHECK: memref.store %{{.*}}, %[[P]][%[[WARP]], %{{.*}}]
// CHECK: gpu.barrier
// CHECK-NOT: gpu.shuffle
// CHECK: arith.maximumf
// CHECK: gpu.barrier
// CHECK: arith.maximumf
// CHECK-NEXT: memref.store
// CHECK: gpu.barrier
// CHECK-NEXT: gpu.terminator
func.func @row_max(%x: memref<1x64xf32>, %y: memref<1xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<1x64xf32>) outs(%y : memref<1xf32>) {
    ^bb0(%a: f32, %m: f32):
      %r = arith.maximumf %a, %m : f32
      linalg.yield %r : f32
    }
    gpu.terminator
  }
  return
}

// -----

// Elementwise ops that stay one point a thread: rows of 30 (not whole runs
// of four), and an input read across the contiguous loop (a transpose).
// CHECK-LABEL: func @not_by_four
// CHECK-NOT: vector.load
// CHECK-NOT: vector.store
// CHECK: gpu.terminator
func.func @not_by_four(%x: memref<8x30xf32>, %y: memref<8x30xf32>, %t: memref<32x8xf32>, %z: memref<8x32xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<8x30xf32>) outs(%y : memref<8x30xf32>) {
    ^bb0(%a: f32, %o: f32):
      %e = math.exp %a : f32
      linalg.yield %e : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t : memref<32x8xf32>) outs(%z : memref<8x32xf32>) {
    ^bb0(%a: f32, %o: f32):
      linalg.yield %a : f32
    }
    gpu.terminator
  }
  return
}

// -----

// A 64-bit row sum: warp shuffles move 32 bits, so its 64 lanes' partials
// fold pairwise in shared memory (64x1 f64, six steps), no shuffle.
// CHECK-LABEL: func @row_sum_f64
// CHECK: workgroup(%{{[^ ]*}} : memref<64x1xf64, #gpu.address_space<workgroup>>)
// CHECK-NOT: gpu.shuffle
// CHECK-COUNT-6: gpu.barrier
// CHECK-NOT: gpu.shuffle
// CHECK: gpu.terminator
func.func @row_sum_f64(%x: memref<1x64xf64>, %y: memref<1xf64>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<1x64xf64>) outs(%y : memref<1xf64>) {
    ^bb0(%a: f64, %m: f64):
      %r = arith.addf %a, %m : f64
      linalg.yield %r : f64
    }
    gpu.terminator
  }
  return
}

// -----

// A reduction whose combining op has no neutral element (arith.subf) is not
// shared: its one point stays on one thread (the block keeps one thread).
// CHECK-LABEL: func @row_difference
// CHECK: threads(%{{.*}}) in (%{{[^ ]*}} = %c1{{.*}}, %{{[^ ]*}} = %c1{{.*}}, %{{[^ ]*}} = %c1{{.*}})
// CHECK-NOT: workgroup
// CHECK: linalg.generic
func.func @row_difference(%x: memref<1x64xf32>, %y: memref<1xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<1x64xf32>) outs(%y : memref<1xf32>) {
    ^bb0(%a: f32, %m: f32):
      %r = arith.subf %m, %a : f32
      linalg.yield %r : f32
    }
    gpu.terminator
  }
  return
}

// -----

// A convolution's reduction over (kh, kw, c) is a loop nest carrying the
// accumulator, in the op's order: no index recovered by div/rem per
// iteration. Each of the 128 threads has two of the 256 points, both
// carried through the one nest.
// CHECK-LABEL: func @conv_reduction
// CHECK: %[[KH:.*]]:2 = scf.for %{{.*}} = %c0{{.*}} to %c3{{.*}} step %c1{{.*}} iter_args
// CHECK-NEXT: %[[KW:.*]]:2 = scf.for %{{.*}} = %c0{{.*}} to %c3{{.*}} step %c1{{.*}} iter_args
// CHECK-NEXT: %[[C:.*]]:2 = scf.for %{{.*}} = %c0{{.*}} to %c8{{.*}} step %c1{{.*}} iter_args
// CHECK-NOT: arith.divui
// CHECK-NOT: arith.remui
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: scf.yield
func.func @conv_reduction(%x: memref<1x10x10x8xf32>, %w: memref<3x3x8x16xf32>, %y: memref<1x2x8x16xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %xs = memref.subview %x[0, 0, 0, 0] [1, 4, 10, 8] [1, 1, 1, 1] : memref<1x10x10x8xf32> to memref<1x4x10x8xf32, strided<[800, 80, 8, 1]>>
    linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%xs, %w : memref<1x4x10x8xf32, strided<[800, 80, 8, 1]>>, memref<3x3x8x16xf32>) outs(%y : memref<1x2x8x16xf32>)
    gpu.terminator
  }
  return
}

// -----

// Without block-size, the block size is the threads of the function's
// lowering config (the group it was made from): 64 here, not 128.
// CHECK-LABEL: func @from_config
// CHECK: threads({{.*}}) in (%{{[^ ]*}} = %c64,
// B64-LABEL: func @from_config
// B64: threads({{.*}}) in (%{{[^ ]*}} = %c64,
func.func @from_config(%x: memref<4x64xf32>, %y: memref<4x64xf32>) attributes {fuse.lowering_config = #fuse.lowering_config<schedule = "elementwise", tile = [4, 64], threads = 64, instruction = "simt", precision = "fp32">} {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<4x64xf32>) outs(%y : memref<4x64xf32>) {
    ^bb0(%a: f32, %o: f32):
      %e = math.exp %a : f32
      linalg.yield %e : f32
    }
    gpu.terminator
  }
  return
}

// -----

// Four points per thread lie as a 2x2 grid: 64 threads over an 8x32 matmul
// tile, thread t's columns t % 16 and t % 16 + 16, its rows t / 16 and
// t / 16 + 4. The two points of a row share the load of A, the two of a
// column the load of B: 4 loads per step for 4 multiply-adds (2 x 1
// columns would be 5).
// B64-LABEL: func @point_grid
// B64: %[[TC:.*]] = arith.remui %[[T:.*]], %c16
// B64: %[[TR:.*]] = arith.divui %[[T]], %c16
// B64: %[[R1:.*]] = arith.addi %[[TR]], %c4
// B64: %[[C1:.*]] = arith.addi %[[TC]], %c16
// B64: scf.for {{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32)
// B64-COUNT-4: arith.mulf
// B64: scf.yield
func.func @point_grid(%a: memref<8x64xf32>, %b: memref<64x32xf32>, %c: memref<8x32xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    linalg.matmul ins(%a, %b : memref<8x64xf32>, memref<64x32xf32>) outs(%c : memref<8x32xf32>)
    gpu.terminator
  }
  return
}
