// fuse-distribute-threads' mma_sync schedule of a tile's contraction (a
// lowering config with instruction = "mma_sync"): a 32x24 tile of a matmul
// with K = 64 is 2x3 accumulator tiles of 16x8; of the block's 4 warps the
// 3 a 1x3 warp grid uses compute (warp 3 only copies), each warp 2 of them
// (its A fragments reused across them). The operands' block tiles are staged
// 32 K at a time in shared memory by cp.async (16 bytes a copy where
// aligned), two stages: A (K-fastest in
// memory) as [2][32][32 + 4], B (N-fastest) as [2][32][24 + 16], rows
// padded so the fragment loads hit 32 different banks; the first chunk's
// copies go in flight before the K loop (one cp.async group); each
// iteration waits for its chunk (all groups), one barrier (the chunk
// visible to every warp, every warp done with the previous one), then puts
// the next chunk in flight into the other stage before its products. Each
// K step of 8 is 3 TF32 products per accumulator tile
// for fp32 accuracy (a TF32 split of every operand: small x big, big x
// small, big x big), 1 with precision = "tf32".
// The output's fill and the bias add run in the accumulators' registers
// (the accumulators start from the fill's 0.0; each gets its bias element
// and is stored once to the output: no tile buffer, no barrier after);
// with epilogue-in-registers=false the fill and the accumulators go
// through a tile buffer in shared memory and the bias add is a phase of
// its own.
// RUN: fuse-opt %s -split-input-file --fuse-distribute-threads | FileCheck %s --check-prefixes=CHECK,REGS
// RUN: fuse-opt %s -split-input-file --fuse-distribute-threads=epilogue-in-registers=false | FileCheck %s --check-prefixes=CHECK,SEPARATE

// CHECK-LABEL: func.func @gemm
// CHECK: gpu.launch
// CHECK-SAME: threads({{[^)]*}}) in (%{{[a-z0-9_]+}} = %c128,
// REGS-SAME: workgroup(%[[A:[a-z0-9]+]] : memref<2x32x36xf32, #gpu.address_space<workgroup>>, %[[B:[a-z0-9]+]] : memref<2x32x40xf32, #gpu.address_space<workgroup>>) {
// REGS-NOT: memref.store
// SEPARATE-SAME: workgroup(%[[A:[a-z0-9]+]] : memref<2x32x36xf32, #gpu.address_space<workgroup>>, %[[B:[a-z0-9]+]] : memref<2x32x40xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<32x24xf32, #gpu.address_space<workgroup>>)
// The fill, then the accumulators from the output's initial values.
// SEPARATE: memref.store %cst, %{{.*}} : memref<32x24xf32>
// SEPARATE: gpu.barrier
// Both operands' block tiles copy 16 bytes at a time where the operand's
// first element is 16-byte aligned (checked once, at run time; A's rows of
// 64 and B's of 48 are whole 16-byte units, known statically).
// CHECK: %[[PA:.*]] = memref.extract_aligned_pointer_as_index %arg0
// CHECK: %[[RA:.*]] = arith.remui %[[PA]], %c16
// CHECK: %[[ALIGNA:.*]] = arith.cmpi eq, %[[RA]], %c0
// CHECK: %{{.*}}, %[[OFFB:.*]], %{{.*}}:2, %{{.*}}:2 = memref.extract_strided_metadata %[[W:.*]] : memref<64x24xf32, strided<[48, 1], offset: ?>>
// CHECK: %[[PB:.*]] = memref.extract_aligned_pointer_as_index %[[W]]
// CHECK: %[[OB:.*]] = arith.muli %[[OFFB]], %c4
// CHECK: %[[AB:.*]] = arith.addi %[[PB]], %[[OB]]
// CHECK: %[[RB:.*]] = arith.remui %[[AB]], %c16
// CHECK: %[[ALIGNB:.*]] = arith.cmpi eq, %[[RB]], %c0
// CHECK: %[[ACTIVE:.*]] = arith.cmpi ult, %{{.*}}, %c3{{.*}} : index
// CHECK: scf.if %[[ACTIVE]] -> (vector<2x2xf32>, vector<2x2xf32>)
// CHECK: vector.from_elements {{.*}} : vector<2x2xf32>
// The first chunk into stage 0; then per chunk the wait for it, one
// barrier, the next chunk into the other stage, the warps' products (no
// second barrier: the next iteration's orders the reads of a stage before
// its next copy).
// A: 32 rows x 32 K = 256 runs of four along K (cp.async.cg, 16 bytes);
// B: 32 K x 24 columns = 192 runs of four along N; else one element each.
// CHECK: scf.if %[[ALIGNA]] {
// CHECK: scf.for %{{.*}} = %{{.*}} to %c256 step %c128
// CHECK: nvgpu.device_async_copy %{{.*}}, %[[A]][%c0{{.*}}, {{.*}}], 4 {bypassL1} : memref<32x64xf32> to memref<2x32x36xf32, #gpu.address_space<workgroup>>
// CHECK: } else {
// CHECK: scf.for %{{.*}} = %{{.*}} to %c1024 step %c128
// CHECK: nvgpu.device_async_copy %{{.*}}, %[[A]][%c0{{.*}}, {{.*}}], 1 : memref<32x64xf32> to memref<2x32x36xf32, #gpu.address_space<workgroup>>
// CHECK: scf.if %[[ALIGNB]] {
// CHECK: scf.for %{{.*}} = %{{.*}} to %c192 step %c128
// CHECK: nvgpu.device_async_copy {{.*}}, %[[B]][%c0{{.*}}, {{.*}}], 4 {bypassL1} : memref<64x24xf32, strided<[48, 1], offset: ?>> to memref<2x32x40xf32, #gpu.address_space<workgroup>>
// CHECK: } else {
// CHECK: nvgpu.device_async_copy {{.*}}, %[[B]][%c0{{.*}}, {{.*}}], 1 : memref<64x24xf32, strided<[48, 1], offset: ?>> to memref<2x32x40xf32, #gpu.address_space<workgroup>>
// CHECK: %[[G:.*]] = nvgpu.device_async_create_group
// CHECK-NOT: nvgpu.device_async_create_group
// CHECK: scf.for %[[K:.*]] = %c0{{.*}} to %c64{{.*}} step %c32{{.*}} iter_args
// CHECK-NEXT: nvgpu.device_async_wait %[[G]] {numGroups = 0 : i32}
// CHECK-NEXT: gpu.barrier
// CHECK: scf.if
// CHECK: nvgpu.device_async_copy {{.*}} to memref<2x32x36xf32, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_copy {{.*}} to memref<2x32x40xf32, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_create_group
// CHECK: scf.if %[[ACTIVE]] -> (vector<2x2xf32>, vector<2x2xf32>)
// CHECK-COUNT-24: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-NOT: nvgpu.mma.sync
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
// CHECK: scf.if %[[ACTIVE]] {
// CHECK: vector.extract
// REGS: memref.load {{.*}} : memref<24xf32, strided<[1], offset: ?>>
// REGS-NEXT: arith.addf
// REGS-NEXT: memref.store {{.*}} : memref<32x24xf32, strided<[48, 1], offset: ?>>
// REGS-NOT: gpu.barrier
// REGS: gpu.terminator
// SEPARATE: memref.store {{.*}} : memref<32x24xf32>
// SEPARATE: gpu.barrier
// SEPARATE: arith.addf
// SEPARATE: memref.store {{.*}} : memref<32x24xf32, strided<[48, 1], offset: ?>>
func.func @gemm(%arg0: memref<32x64xf32>, %arg1: memref<64x48xf32>, %arg2: memref<48xf32>, %arg3: memref<32x48xf32>) attributes {fuse.lowering_config = #fuse.lowering_config<schedule = "contraction", tile = [32, 24], threads = 128, instruction = "mma_sync", precision = "fp32">} {
  %cst = arith.constant 0.000000e+00 : f32
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c24 = arith.constant 24 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c2, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %n = arith.muli %by, %c24 : index
    %w = memref.subview %arg1[0, %n] [64, 24] [1, 1] : memref<64x48xf32> to memref<64x24xf32, strided<[48, 1], offset: ?>>
    %tile = memref.alloca() {alignment = 64 : i64} : memref<32x24xf32>
    linalg.fill ins(%cst : f32) outs(%tile : memref<32x24xf32>)
    linalg.matmul ins(%arg0, %w : memref<32x64xf32>, memref<64x24xf32, strided<[48, 1], offset: ?>>) outs(%tile : memref<32x24xf32>)
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

// -----

// A 32x20 tile with precision = "tf32": one product per accumulator tile
// and K step (8 for the loop body's 2 x 4 steps); its N pads to 24, and a
// copy of a padding column reads nothing (cp.async's source size 0 from an
// index in range) and writes 0.0.
// CHECK-LABEL: func.func @gemm_tf32
// CHECK: %[[SIZE:.*]] = arith.select %{{.*}}, %c1{{.*}}, %c0{{.*}} : index
// CHECK: nvgpu.device_async_copy %{{.*}}[{{.*}}], %{{.*}}[{{.*}}], 1, %[[SIZE]] : memref<64x20xf32, strided<[40, 1], offset: ?>> to memref<2x32x40xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c64{{.*}} step %c32{{.*}} iter_args
// CHECK-COUNT-8: nvgpu.mma.sync
// CHECK-NOT: nvgpu.mma.sync
// CHECK: scf.yield
func.func @gemm_tf32(%arg0: memref<32x64xf32>, %arg1: memref<64x40xf32>, %arg3: memref<32x40xf32>) attributes {fuse.lowering_config = #fuse.lowering_config<schedule = "contraction", tile = [32, 20], threads = 128, instruction = "mma_sync", precision = "tf32">} {
  %cst = arith.constant 0.000000e+00 : f32
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c20 = arith.constant 20 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c2, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %n = arith.muli %by, %c20 : index
    %w = memref.subview %arg1[0, %n] [64, 20] [1, 1] : memref<64x40xf32> to memref<64x20xf32, strided<[40, 1], offset: ?>>
    %out = memref.subview %arg3[0, %n] [32, 20] [1, 1] : memref<32x40xf32> to memref<32x20xf32, strided<[40, 1], offset: ?>>
    linalg.fill ins(%cst : f32) outs(%out : memref<32x20xf32, strided<[40, 1], offset: ?>>)
    linalg.matmul ins(%arg0, %w : memref<32x64xf32>, memref<64x20xf32, strided<[40, 1], offset: ?>>) outs(%out : memref<32x20xf32, strided<[40, 1], offset: ?>>)
    gpu.terminator
  }
  return
}

// -----

// stages = 3 with K = 128 (4 chunks): a ring of three block tiles per
// operand; chunks 0 and 1 in flight before the loop (a group each), each
// iteration waits for all groups but the newest (its chunk arrived), then
// after the barrier puts chunk i + 2 into stage (i + 2) mod 3, the one
// chunk i - 1 was computed from.
// CHECK-LABEL: func.func @gemm_three_stages
// CHECK: gpu.launch
// CHECK-SAME: workgroup(%[[A:[a-z0-9]+]] : memref<3x32x36xf32, #gpu.address_space<workgroup>>, %[[B:[a-z0-9]+]] : memref<3x32x40xf32, #gpu.address_space<workgroup>>)
// CHECK: nvgpu.device_async_copy %{{.*}}, %[[A]][%c0{{.*}}, {{.*}}]
// CHECK: nvgpu.device_async_copy %{{.*}}, %[[B]][%c0{{.*}}, {{.*}}]
// CHECK: nvgpu.device_async_create_group
// CHECK: nvgpu.device_async_copy %{{.*}}, %[[A]][%c1{{.*}}, {{.*}}]
// CHECK: nvgpu.device_async_copy %{{.*}}, %[[B]][%c1{{.*}}, {{.*}}]
// CHECK: %[[G:.*]] = nvgpu.device_async_create_group
// CHECK: scf.for %[[K:.*]] = %c0{{.*}} to %c128{{.*}} step %c32{{.*}} iter_args
// CHECK-NEXT: nvgpu.device_async_wait %[[G]] {numGroups = 1 : i32}
// CHECK-NEXT: gpu.barrier
// CHECK: %[[I:.*]] = arith.divui %[[K]], %c32
// CHECK: %[[STAGE:.*]] = arith.remui %[[I]], %c3
// CHECK: %[[NEXTK:.*]] = arith.addi %[[K]], %c64
// CHECK: %[[J:.*]] = arith.addi %[[I]], %c2
// CHECK: %[[INTO:.*]] = arith.remui %[[J]], %c3
// CHECK: %[[MORE:.*]] = arith.cmpi ult, %[[NEXTK]], %c128
// CHECK: scf.if %[[MORE]]
// CHECK: nvgpu.device_async_copy %{{.*}}, %[[A]][%[[INTO]], {{.*}}]
// CHECK: nvgpu.device_async_create_group
// CHECK-COUNT-6: nvgpu.mma.sync
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
func.func @gemm_three_stages(%arg0: memref<32x128xf32>, %arg1: memref<128x48xf32>, %arg3: memref<32x48xf32>) attributes {fuse.lowering_config = #fuse.lowering_config<schedule = "contraction", tile = [32, 24], threads = 128, instruction = "mma_sync", precision = "fp32", stages = 3>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c24 = arith.constant 24 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c2, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %n = arith.muli %by, %c24 : index
    %w = memref.subview %arg1[0, %n] [128, 24] [1, 1] : memref<128x48xf32> to memref<128x24xf32, strided<[48, 1], offset: ?>>
    %out = memref.subview %arg3[0, %n] [32, 24] [1, 1] : memref<32x48xf32> to memref<32x24xf32, strided<[48, 1], offset: ?>>
    linalg.fill ins(%cst : f32) outs(%out : memref<32x24xf32, strided<[48, 1], offset: ?>>)
    linalg.matmul ins(%arg0, %w : memref<32x128xf32>, memref<128x24xf32, strided<[48, 1], offset: ?>>) outs(%out : memref<32x24xf32, strided<[48, 1], offset: ?>>)
    gpu.terminator
  }
  return
}

// -----

// K = 30 (not a whole number of 16-byte runs; a run of A would straddle
// the operand's end) and N = 6: one element per copy, no alignment check.
// CHECK-LABEL: func.func @gemm_odd
// CHECK-NOT: memref.extract_aligned_pointer_as_index
// CHECK-NOT: bypassL1
// CHECK: nvgpu.device_async_copy {{.*}}, 1, %{{.*}} : memref<16x30xf32> to
// CHECK-NOT: bypassL1
// CHECK: gpu.terminator
func.func @gemm_odd(%arg0: memref<16x30xf32>, %arg1: memref<30x12xf32>, %arg3: memref<16x12xf32>) attributes {fuse.lowering_config = #fuse.lowering_config<schedule = "contraction", tile = [16, 6], threads = 32, instruction = "mma_sync", precision = "fp32">} {
  %cst = arith.constant 0.000000e+00 : f32
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c2, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %n = arith.muli %by, %c6 : index
    %w = memref.subview %arg1[0, %n] [30, 6] [1, 1] : memref<30x12xf32> to memref<30x6xf32, strided<[12, 1], offset: ?>>
    %out = memref.subview %arg3[0, %n] [16, 6] [1, 1] : memref<16x12xf32> to memref<16x6xf32, strided<[12, 1], offset: ?>>
    linalg.fill ins(%cst : f32) outs(%out : memref<16x6xf32, strided<[12, 1], offset: ?>>)
    linalg.matmul ins(%arg0, %w : memref<16x30xf32>, memref<30x6xf32, strided<[12, 1], offset: ?>>) outs(%out : memref<16x6xf32, strided<[12, 1], offset: ?>>)
    gpu.terminator
  }
  return
}

// -----

// Two batch points per block (a batch matmul tile of 2 x 16 x 8): the
// block runs them one after the other, and before a point's first copies
// a barrier waits for the previous point's products, which may still read
// the stages those copies overwrite.
// CHECK-LABEL: func.func @batch_two
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c2{{.*}} step %c1
// CHECK-NOT: nvgpu.device_async_copy
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: nvgpu.device_async_copy
// CHECK: nvgpu.device_async_create_group
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c64{{.*}} step %c32{{.*}} iter_args
// CHECK: nvgpu.mma.sync
func.func @batch_two(%arg0: memref<2x16x64xf32>, %arg1: memref<2x64x8xf32>, %arg3: memref<2x16x8xf32>) attributes {fuse.lowering_config = #fuse.lowering_config<schedule = "contraction", tile = [2, 16, 8], threads = 32, instruction = "mma_sync", precision = "fp32">} {
  %cst = arith.constant 0.000000e+00 : f32
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c2, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    linalg.fill ins(%cst : f32) outs(%arg3 : memref<2x16x8xf32>)
    linalg.batch_matmul ins(%arg0, %arg1 : memref<2x16x64xf32>, memref<2x64x8xf32>) outs(%arg3 : memref<2x16x8xf32>)
    gpu.terminator
  }
  return
}

// -----

// An A operand computed in the tile (a prologue: here a ReLU of the input)
// is a shared-memory tile buffer already: a plain matmul operand (each of
// its dimensions one loop's), the fragments load from it in place (no
// block tile, no copy of it); B, in global memory, is staged by cp.async.
// CHECK-LABEL: func.func @prologue_gemm
// CHECK: gpu.launch
// CHECK-SAME: workgroup(%[[B:[a-z0-9]+]] : memref<2x32x40xf32, #gpu.address_space<workgroup>>, %[[T:[a-z0-9]+]] : memref<32x64xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[TG:.*]] = memref.memory_space_cast %[[T]]
// CHECK: arith.maximumf
// CHECK-NOT: nvgpu.device_async_copy %[[TG]]
// CHECK: nvgpu.device_async_copy %{{.*}}, %[[B]]
// CHECK-NOT: nvgpu.device_async_copy %[[TG]]
// CHECK: scf.for %[[K:.*]] = %c0{{.*}} to %c64{{.*}} step %c32{{.*}} iter_args
// CHECK: nvgpu.device_async_wait
// CHECK: nvgpu.device_async_create_group
// A's fragment loaded from the tile buffer at its K point: the chunk's
// start plus the lane's (every point in range here: no guard).
// CHECK: %[[KA:.*]] = arith.addi %[[K]], %{{.*}} : index
// CHECK: %[[KR:.*]] = arith.remui %[[KA]], %c64
// CHECK: %[[KI:.*]] = affine.apply #{{.*}}(%[[KR]])
// CHECK: memref.load %[[TG]][%{{.*}}, %[[KI]]] : memref<32x64xf32>
// CHECK: nvgpu.mma.sync
func.func @prologue_gemm(%arg0: memref<32x64xf32>, %arg1: memref<64x48xf32>, %arg3: memref<32x48xf32>) attributes {fuse.lowering_config = #fuse.lowering_config<schedule = "contraction", tile = [32, 24], threads = 128, instruction = "mma_sync", precision = "fp32">} {
  %cst = arith.constant 0.000000e+00 : f32
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c24 = arith.constant 24 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c2, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %n = arith.muli %by, %c24 : index
    %w = memref.subview %arg1[0, %n] [64, 24] [1, 1] : memref<64x48xf32> to memref<64x24xf32, strided<[48, 1], offset: ?>>
    %a = memref.alloca() {alignment = 64 : i64} : memref<32x64xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0 : memref<32x64xf32>) outs(%a : memref<32x64xf32>) {
    ^bb0(%in: f32, %o: f32):
      %r = arith.maximumf %in, %cst : f32
      linalg.yield %r : f32
    }
    %out = memref.subview %arg3[0, %n] [32, 24] [1, 1] : memref<32x48xf32> to memref<32x24xf32, strided<[48, 1], offset: ?>>
    linalg.fill ins(%cst : f32) outs(%out : memref<32x24xf32, strided<[48, 1], offset: ?>>)
    linalg.matmul ins(%a, %w : memref<32x64xf32>, memref<64x24xf32, strided<[48, 1], offset: ?>>) outs(%out : memref<32x24xf32, strided<[48, 1], offset: ?>>)
    gpu.terminator
  }
  return
}

// -----

// A convolution's padded input tile is in shared memory too, but read
// through the window (row and column sums of loops): its block tiles are
// staged, the window indices computed once per copied element, with loads
// and stores (cp.async reads only global memory); the filter, in global
// memory, with cp.async.
// CHECK-LABEL: func.func @padded_conv
// CHECK: gpu.launch
// CHECK-SAME: workgroup(%[[A:[a-z0-9]+]] : memref<2x64x36xf32, #gpu.address_space<workgroup>>, %[[B:[a-z0-9]+]] : memref<2x16x36xf32, #gpu.address_space<workgroup>>, %[[T:[a-z0-9]+]] : memref<1x10x10x16xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[TG:.*]] = memref.memory_space_cast %[[T]]
// CHECK-NOT: nvgpu.device_async_copy %[[TG]]
// CHECK: memref.load %[[TG]]
// CHECK: memref.store %{{.*}}, %[[A]]
// CHECK-NOT: nvgpu.device_async_copy %[[TG]]
// CHECK: nvgpu.device_async_copy %{{.*}}, %[[B]]
// CHECK-NOT: nvgpu.device_async_copy %[[TG]]
// CHECK: nvgpu.mma.sync
func.func @padded_conv(%arg0: memref<1x8x8x16xf32>, %arg1: memref<16x3x3x16xf32>, %arg3: memref<1x8x8x16xf32>) attributes {fuse.lowering_config = #fuse.lowering_config<schedule = "convolution", tile = [1, 8, 8, 16], threads = 128, instruction = "mma_sync", precision = "fp32">} {
  %cst = arith.constant 0.000000e+00 : f32
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %p = memref.alloca() {alignment = 64 : i64} : memref<1x10x10x16xf32>
    linalg.fill ins(%cst : f32) outs(%p : memref<1x10x10x16xf32>)
    %inner = memref.subview %p[0, 1, 1, 0] [1, 8, 8, 16] [1, 1, 1, 1] : memref<1x10x10x16xf32> to memref<1x8x8x16xf32, strided<[1600, 160, 16, 1], offset: 176>>
    linalg.copy ins(%arg0 : memref<1x8x8x16xf32>) outs(%inner : memref<1x8x8x16xf32, strided<[1600, 160, 16, 1], offset: 176>>)
    linalg.fill ins(%cst : f32) outs(%arg3 : memref<1x8x8x16xf32>)
    linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %arg1 : memref<1x10x10x16xf32>, memref<16x3x3x16xf32>) outs(%arg3 : memref<1x8x8x16xf32>)
    gpu.terminator
  }
  return
}

// -----

// precision = "bf16": each K step of 16 one mma.sync.m16n8k16 per
// accumulator tile (the K chunk of 32 is 2 steps: 2 x 2 instructions for a
// warp's 2 tiles), the fragments' elements rounded to bfloat16 (to
// nearest even by integer code, as emulated), converted, packed two to a
// register (bf16 pairs as i32), the f32 accumulators in and out of the
// instruction's struct.
// CHECK-LABEL: func.func @gemm_bf16
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c64{{.*}} step %c32{{.*}} iter_args
// CHECK: arith.shrui %{{.*}}, %c16_i32 : i32
// CHECK: arith.andi %{{.*}}, %c-65536_i32 : i32
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: vector.from_elements %{{.*}}, %{{.*}} : vector<2xbf16>
// CHECK: llvm.bitcast %{{.*}} : vector<2xbf16> to i32
// CHECK-COUNT-4: nvvm.mma.sync A[{{.*}}]  B[{{.*}}]  C[{{.*}}]  {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT: nvvm.mma.sync
// CHECK-NOT: nvgpu.mma.sync
// CHECK: scf.yield

func.func @gemm_bf16(%arg0: memref<32x64xf32>, %arg1: memref<64x48xf32>, %arg2: memref<48xf32>, %arg3: memref<32x48xf32>) attributes {fuse.lowering_config = #fuse.lowering_config<schedule = "contraction", tile = [32, 24], threads = 128, instruction = "mma_sync", precision = "bf16">} {
  %cst = arith.constant 0.000000e+00 : f32
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c24 = arith.constant 24 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c2, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %n = arith.muli %by, %c24 : index
    %w = memref.subview %arg1[0, %n] [64, 24] [1, 1] : memref<64x48xf32> to memref<64x24xf32, strided<[48, 1], offset: ?>>
    %tile = memref.alloca() {alignment = 64 : i64} : memref<32x24xf32>
    linalg.fill ins(%cst : f32) outs(%tile : memref<32x24xf32>)
    linalg.matmul ins(%arg0, %w : memref<32x64xf32>, memref<64x24xf32, strided<[48, 1], offset: ?>>) outs(%tile : memref<32x24xf32>)
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

