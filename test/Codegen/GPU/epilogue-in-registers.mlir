// fuse-distribute-threads runs a tensor-core contraction's elementwise
// neighbours on its accumulators (epilogue-in-registers, the default): the
// op that initializes the output tile (a fill, a bias broadcast) as each
// lane loads its accumulators, and the chain after it (bias, activation,
// residual add, the copy out) on each accumulator before its one store.
// The values are stored once to each buffer seen after them; the tile
// buffers only those ops used are not allocated (no shared memory, no
// phase, no barrier). One case per condition that stops an op from
// folding.
// Executed fused vs unfused on every model block by
// test/Integration/warp-mma.mlir (emulated tensor-core schedules).
// RUN: fuse-opt %s -split-input-file --fuse-distribute-threads | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#cfg = #fuse.lowering_config<schedule = "contraction", tile = [16, 16], threads = 32, instruction = "mma_sync", precision = "fp32">

// Positive: a bias broadcast initializes the tile, then bias + ReLU through
// an intermediate tile buffer, then out: everything in registers; only the
// operands' block tiles are in shared memory.
// CHECK-LABEL: func.func @chain
// CHECK: gpu.launch
// CHECK-SAME: workgroup(%{{[a-z0-9]+}} : memref<2x16x20xf32, #gpu.address_space<workgroup>>, %{{[a-z0-9]+}} : memref<2x16x40xf32, #gpu.address_space<workgroup>>) {
// CHECK-NOT: memref.alloca
// The accumulators start from the bias (its element loaded per register).
// CHECK: memref.load %arg2[%{{.*}}] : memref<16xf32>
// CHECK: nvgpu.mma.sync
// Each accumulator: + the second bias, max with 0.0, one store.
// CHECK: vector.extract
// CHECK: memref.load %arg4[%{{.*}}] : memref<16xf32>
// CHECK-NEXT: arith.addf
// CHECK-NEXT: arith.maximumf
// CHECK-NEXT: memref.store %{{.*}}, %arg3[%{{.*}}] : memref<16x16xf32>
// CHECK-NOT: gpu.barrier
// CHECK-NOT: linalg.
// CHECK: gpu.terminator
func.func @chain(%a: memref<16x16xf32>, %w: memref<16x16xf32>, %bias: memref<16xf32>, %out: memref<16x16xf32>, %bias2: memref<16xf32>) attributes {fuse.lowering_config = #cfg} {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %tile = memref.alloca() : memref<16x16xf32>
    %mid = memref.alloca() : memref<16x16xf32>
    linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]} ins(%bias : memref<16xf32>) outs(%tile : memref<16x16xf32>) {
    ^bb0(%in: f32, %o: f32):
      linalg.yield %in : f32
    }
    linalg.matmul ins(%a, %w : memref<16x16xf32>, memref<16x16xf32>) outs(%tile : memref<16x16xf32>)
    linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%tile, %bias2 : memref<16x16xf32>, memref<16xf32>) outs(%mid : memref<16x16xf32>) {
    ^bb0(%in: f32, %b: f32, %o: f32):
      %s = arith.addf %in, %b : f32
      linalg.yield %s : f32
    }
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mid : memref<16x16xf32>) outs(%out : memref<16x16xf32>) {
    ^bb0(%in: f32, %o: f32):
      %r = arith.maximumf %in, %zero : f32
      linalg.yield %r : f32
    }
    gpu.terminator
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#cfg = #fuse.lowering_config<schedule = "contraction", tile = [16, 16], threads = 32, instruction = "mma_sync", precision = "fp32">

// Positive: a residual added in place into the tile, then a copy out.
// CHECK-LABEL: func.func @in_place_residual
// CHECK-SAME: (%{{.*}}: memref<16x16xf32>, %{{.*}}: memref<16x16xf32>, %[[RES:.*]]: memref<16x16xf32>, %[[OUT:.*]]: memref<16x16xf32>)
// CHECK: gpu.launch
// CHECK-SAME: workgroup(%{{[a-z0-9]+}} : memref<2x16x20xf32, #gpu.address_space<workgroup>>, %{{[a-z0-9]+}} : memref<2x16x40xf32, #gpu.address_space<workgroup>>) {
// CHECK: nvgpu.mma.sync
// CHECK: vector.extract
// CHECK: memref.load %[[RES]][
// CHECK-NEXT: arith.addf
// CHECK-NEXT: memref.store %{{.*}}, %[[OUT]][
// CHECK-NOT: linalg.
// CHECK: gpu.terminator
func.func @in_place_residual(%a: memref<16x16xf32>, %w: memref<16x16xf32>, %res: memref<16x16xf32>, %out: memref<16x16xf32>) attributes {fuse.lowering_config = #cfg} {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %tile = memref.alloca() : memref<16x16xf32>
    linalg.fill ins(%zero : f32) outs(%tile : memref<16x16xf32>)
    linalg.matmul ins(%a, %w : memref<16x16xf32>, memref<16x16xf32>) outs(%tile : memref<16x16xf32>)
    linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%tile, %res : memref<16x16xf32>, memref<16x16xf32>) outs(%tile : memref<16x16xf32>) {
    ^bb0(%in: f32, %r: f32, %o: f32):
      %s = arith.addf %in, %r : f32
      linalg.yield %s : f32
    }
    linalg.copy ins(%tile : memref<16x16xf32>) outs(%out : memref<16x16xf32>)
    gpu.terminator
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#cfg = #fuse.lowering_config<schedule = "contraction", tile = [16, 16], threads = 32, instruction = "mma_sync", precision = "fp32">

// The tile is read by the epilogue and by a row sum (which does not fold):
// the epilogue still runs in registers, and each accumulator is stored
// both to the tile (in shared memory, for the row sum after a barrier) and,
// doubled, to the output.
// CHECK-LABEL: func.func @read_twice
// CHECK: gpu.launch
// CHECK-SAME: %[[TILE:[a-z0-9]+]] : memref<16x16xf32, #gpu.address_space<workgroup>>
// CHECK: %[[CAST:.*]] = memref.memory_space_cast %[[TILE]]
// CHECK: nvgpu.mma.sync
// CHECK: %[[TWICE:.*]] = arith.addf %[[ACC:.*]], %[[ACC]] : f32
// CHECK-NEXT: memref.store %[[ACC]], %[[CAST]][
// CHECK-NEXT: memref.store %[[TWICE]], %arg3[
// CHECK: gpu.barrier
// CHECK: memref.load %[[CAST]]
// CHECK: memref.store %{{.*}}, %arg2[
func.func @read_twice(%a: memref<16x16xf32>, %w: memref<16x16xf32>, %sums: memref<16xf32>, %out: memref<16x16xf32>) attributes {fuse.lowering_config = #cfg} {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %tile = memref.alloca() : memref<16x16xf32>
    linalg.fill ins(%zero : f32) outs(%tile : memref<16x16xf32>)
    linalg.matmul ins(%a, %w : memref<16x16xf32>, memref<16x16xf32>) outs(%tile : memref<16x16xf32>)
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%tile : memref<16x16xf32>) outs(%out : memref<16x16xf32>) {
    ^bb0(%in: f32, %o: f32):
      %s = arith.addf %in, %in : f32
      linalg.yield %s : f32
    }
    linalg.reduce ins(%tile : memref<16x16xf32>) outs(%sums : memref<16xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %s = arith.addf %in, %acc : f32
        linalg.yield %s : f32
      }
    gpu.terminator
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#cfg = #fuse.lowering_config<schedule = "contraction", tile = [16, 16], threads = 32, instruction = "mma_sync", precision = "fp32">

// Negative: the epilogue reads the tile transposed (element (i, j) needs
// another lane's (j, i)): not folded.
// CHECK-LABEL: func.func @transposed
// CHECK: gpu.launch
// CHECK-SAME: memref<16x16xf32, #gpu.address_space<workgroup>>
// CHECK: nvgpu.mma.sync
// CHECK: memref.store %{{.*}}, %{{.*}} : memref<16x16xf32>
// CHECK: gpu.barrier
// CHECK: arith.negf
func.func @transposed(%a: memref<16x16xf32>, %w: memref<16x16xf32>, %out: memref<16x16xf32>) attributes {fuse.lowering_config = #cfg} {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %tile = memref.alloca() : memref<16x16xf32>
    linalg.fill ins(%zero : f32) outs(%tile : memref<16x16xf32>)
    linalg.matmul ins(%a, %w : memref<16x16xf32>, memref<16x16xf32>) outs(%tile : memref<16x16xf32>)
    linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]} ins(%tile : memref<16x16xf32>) outs(%out : memref<16x16xf32>) {
    ^bb0(%in: f32, %o: f32):
      %s = arith.negf %in : f32
      linalg.yield %s : f32
    }
    gpu.terminator
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#cfg = #fuse.lowering_config<schedule = "contraction", tile = [16, 16], threads = 32, instruction = "mma_sync", precision = "fp32">

// Negative: another op with effects (a fill of another buffer) lies between
// the contraction and the epilogue: the chain stops before it.
// CHECK-LABEL: func.func @effect_between
// CHECK: gpu.launch
// CHECK-SAME: memref<16x16xf32, #gpu.address_space<workgroup>>
// CHECK: nvgpu.mma.sync
// CHECK: memref.store %{{.*}}, %{{.*}} : memref<16x16xf32>
// CHECK: gpu.barrier
// CHECK: memref.store %{{.*}}, %arg2[
// CHECK: arith.negf
// CHECK: memref.store %{{.*}}, %arg3[
func.func @effect_between(%a: memref<16x16xf32>, %w: memref<16x16xf32>, %flags: memref<4xf32>, %out: memref<16x16xf32>) attributes {fuse.lowering_config = #cfg} {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %tile = memref.alloca() : memref<16x16xf32>
    linalg.fill ins(%zero : f32) outs(%tile : memref<16x16xf32>)
    linalg.matmul ins(%a, %w : memref<16x16xf32>, memref<16x16xf32>) outs(%tile : memref<16x16xf32>)
    linalg.fill ins(%zero : f32) outs(%flags : memref<4xf32>)
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%tile : memref<16x16xf32>) outs(%out : memref<16x16xf32>) {
    ^bb0(%in: f32, %o: f32):
      %s = arith.negf %in : f32
      linalg.yield %s : f32
    }
    gpu.terminator
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#cfg = #fuse.lowering_config<schedule = "contraction", tile = [16, 16], threads = 32, instruction = "mma_sync", precision = "fp32">

// Negative: the initializer's input is written between it and the
// contraction: the initializer stays a phase over the tile, which the
// accumulators load (the epilogue still folds).
// CHECK-LABEL: func.func @init_input_written
// CHECK: gpu.launch
// CHECK-SAME: memref<16x16xf32, #gpu.address_space<workgroup>>
// CHECK: memref.load %arg2[
// CHECK: memref.store %{{.*}}, %{{.*}} : memref<16x16xf32>
// CHECK: gpu.barrier
// CHECK: memref.store %{{.*}}, %arg2[
// CHECK: gpu.barrier
// CHECK: memref.load %{{.*}} : memref<16x16xf32>
// CHECK: nvgpu.mma.sync
// CHECK: arith.negf
// CHECK-NEXT: memref.store %{{.*}}, %arg3[
func.func @init_input_written(%a: memref<16x16xf32>, %w: memref<16x16xf32>, %bias: memref<16xf32>, %out: memref<16x16xf32>) attributes {fuse.lowering_config = #cfg} {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %tile = memref.alloca() : memref<16x16xf32>
    linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]} ins(%bias : memref<16xf32>) outs(%tile : memref<16x16xf32>) {
    ^bb0(%in: f32, %o: f32):
      linalg.yield %in : f32
    }
    linalg.fill ins(%zero : f32) outs(%bias : memref<16xf32>)
    linalg.matmul ins(%a, %w : memref<16x16xf32>, memref<16x16xf32>) outs(%tile : memref<16x16xf32>)
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%tile : memref<16x16xf32>) outs(%out : memref<16x16xf32>) {
    ^bb0(%in: f32, %o: f32):
      %s = arith.negf %in : f32
      linalg.yield %s : f32
    }
    gpu.terminator
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#cfg = #fuse.lowering_config<schedule = "contraction", tile = [16, 16], threads = 32, instruction = "mma_sync", precision = "fp32">

// A value that lands in a buffer that is not the tile's own (a function
// argument the next op reads) is stored there as well as used on.
// CHECK-LABEL: func.func @visible_intermediate
// CHECK: gpu.launch
// CHECK-SAME: workgroup(%{{[a-z0-9]+}} : memref<2x16x20xf32, #gpu.address_space<workgroup>>, %{{[a-z0-9]+}} : memref<2x16x40xf32, #gpu.address_space<workgroup>>) {
// CHECK: nvgpu.mma.sync
// CHECK: %[[NEG:.*]] = arith.negf
// CHECK-NEXT: %[[EXP:.*]] = math.exp %[[NEG]]
// CHECK-NEXT: memref.store %[[NEG]], %arg2[
// CHECK-NEXT: memref.store %[[EXP]], %arg3[
// CHECK-NOT: gpu.barrier
// CHECK: gpu.terminator
func.func @visible_intermediate(%a: memref<16x16xf32>, %w: memref<16x16xf32>, %mid: memref<16x16xf32>, %out: memref<16x16xf32>) attributes {fuse.lowering_config = #cfg} {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %tile = memref.alloca() : memref<16x16xf32>
    linalg.fill ins(%zero : f32) outs(%tile : memref<16x16xf32>)
    linalg.matmul ins(%a, %w : memref<16x16xf32>, memref<16x16xf32>) outs(%tile : memref<16x16xf32>)
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%tile : memref<16x16xf32>) outs(%mid : memref<16x16xf32>) {
    ^bb0(%in: f32, %o: f32):
      %s = arith.negf %in : f32
      linalg.yield %s : f32
    }
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mid : memref<16x16xf32>) outs(%out : memref<16x16xf32>) {
    ^bb0(%in: f32, %o: f32):
      %s = math.exp %in : f32
      linalg.yield %s : f32
    }
    gpu.terminator
  }
  return
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#cfg = #fuse.lowering_config<schedule = "contraction", tile = [16, 16], threads = 32, instruction = "mma_sync", precision = "fp32">

// Read through a reshape (attention's QK^T tile expanded to the head's
// 4-D shape): the op runs over the reshape's shape, each accumulator at
// the same linear position; the tile and the reshape are gone.
// CHECK-LABEL: func.func @through_reshape
// CHECK: gpu.launch
// CHECK-SAME: workgroup(%{{[a-z0-9]+}} : memref<2x16x20xf32, #gpu.address_space<workgroup>>, %{{[a-z0-9]+}} : memref<2x16x40xf32, #gpu.address_space<workgroup>>) {
// CHECK-NOT: memref.expand_shape
// CHECK: nvgpu.mma.sync
// CHECK: %[[L:.*]] = affine.linearize_index disjoint [%{{.*}}, %{{.*}}] by (16, 16)
// CHECK: %[[P:.*]]:3 = affine.delinearize_index %[[L]] into (2, 8, 16)
// CHECK: memref.load %arg2[
// CHECK: arith.mulf
// CHECK-NEXT: memref.store %{{.*}}, %arg3[%[[P]]#0, %[[P]]#1, %[[P]]#2]
// CHECK-NOT: gpu.barrier
// CHECK: gpu.terminator
func.func @through_reshape(%a: memref<16x16xf32>, %w: memref<16x16xf32>, %scale: memref<16xf32>, %out: memref<2x8x16xf32>) attributes {fuse.lowering_config = #cfg} {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %tile = memref.alloca() : memref<16x16xf32>
    linalg.fill ins(%zero : f32) outs(%tile : memref<16x16xf32>)
    linalg.matmul ins(%a, %w : memref<16x16xf32>, memref<16x16xf32>) outs(%tile : memref<16x16xf32>)
    %e = memref.expand_shape %tile [[0, 1], [2]] output_shape [2, 8, 16] : memref<16x16xf32> into memref<2x8x16xf32>
    linalg.generic {indexing_maps = [#id3, affine_map<(d0, d1, d2) -> (d2)>, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %scale : memref<2x8x16xf32>, memref<16xf32>) outs(%out : memref<2x8x16xf32>) {
    ^bb0(%in: f32, %s: f32, %o: f32):
      %r = arith.mulf %in, %s : f32
      linalg.yield %r : f32
    }
    gpu.terminator
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#cfg = #fuse.lowering_config<schedule = "contraction", tile = [16, 16], threads = 32, instruction = "mma_sync", precision = "fp32">

// Negative: the epilogue reads a subview of the tile (not the same
// elements in the same order): not folded.
// CHECK-LABEL: func.func @through_subview
// CHECK: gpu.launch
// CHECK-SAME: memref<16x16xf32, #gpu.address_space<workgroup>>
// CHECK: nvgpu.mma.sync
// CHECK: memref.store %{{.*}}, %{{.*}} : memref<16x16xf32>
// CHECK: gpu.barrier
// CHECK: arith.negf
func.func @through_subview(%a: memref<16x16xf32>, %w: memref<16x16xf32>, %out: memref<8x16xf32>) attributes {fuse.lowering_config = #cfg} {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %tile = memref.alloca() : memref<16x16xf32>
    linalg.fill ins(%zero : f32) outs(%tile : memref<16x16xf32>)
    linalg.matmul ins(%a, %w : memref<16x16xf32>, memref<16x16xf32>) outs(%tile : memref<16x16xf32>)
    %half = memref.subview %tile[8, 0] [8, 16] [1, 1] : memref<16x16xf32> to memref<8x16xf32, strided<[16, 1], offset: 128>>
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%half : memref<8x16xf32, strided<[16, 1], offset: 128>>) outs(%out : memref<8x16xf32>) {
    ^bb0(%in: f32, %o: f32):
      %r = arith.negf %in : f32
      linalg.yield %r : f32
    }
    gpu.terminator
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#cfg = #fuse.lowering_config<schedule = "contraction", tile = [16, 16], threads = 32, instruction = "mma_sync", precision = "fp32">

// Negative: the epilogue writes into a buffer the contraction reads (its
// A operand): a lane storing early could race with warps still reading
// it, so the epilogue stays a phase after the barrier.
// CHECK-LABEL: func.func @writes_an_input
// CHECK: gpu.launch
// CHECK-SAME: memref<16x16xf32, #gpu.address_space<workgroup>>
// CHECK: nvgpu.mma.sync
// CHECK: memref.store %{{.*}}, %{{.*}} : memref<16x16xf32>
// CHECK: gpu.barrier
// CHECK: arith.negf
// CHECK: memref.store %{{.*}}, %arg0[
func.func @writes_an_input(%a: memref<16x16xf32>, %w: memref<16x16xf32>) attributes {fuse.lowering_config = #cfg} {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %tile = memref.alloca() : memref<16x16xf32>
    linalg.fill ins(%zero : f32) outs(%tile : memref<16x16xf32>)
    linalg.matmul ins(%a, %w : memref<16x16xf32>, memref<16x16xf32>) outs(%tile : memref<16x16xf32>)
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%tile : memref<16x16xf32>) outs(%a : memref<16x16xf32>) {
    ^bb0(%in: f32, %o: f32):
      %r = arith.negf %in : f32
      linalg.yield %r : f32
    }
    gpu.terminator
  }
  return
}

// -----

#cfg = #fuse.lowering_config<schedule = "contraction", tile = [16, 16], threads = 32, instruction = "mma_sync", precision = "fp32">

// A root contraction writing the group's output (not a tile buffer): its
// fill still folds (the accumulators start from 0.0 instead of reading the
// zeros back), and the accumulators are stored to the output once.
// CHECK-LABEL: func.func @root_output
// CHECK: gpu.launch
// CHECK: %[[O:.*]] = memref.subview %arg2
// CHECK-NOT: memref.store
// CHECK-NOT: vector.store
// CHECK: scf.for
// CHECK: nvgpu.mma.sync
// CHECK: vector.extract
// CHECK: memref.store %{{.*}}, %[[O]][
// CHECK-NOT: gpu.barrier
// CHECK: gpu.terminator
func.func @root_output(%a: memref<16x16xf32>, %w: memref<16x16xf32>, %out: memref<16x16xf32>) attributes {fuse.lowering_config = #cfg} {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %o = memref.subview %out[0, 0] [16, 16] [1, 1] : memref<16x16xf32> to memref<16x16xf32, strided<[16, 1]>>
    linalg.fill ins(%zero : f32) outs(%o : memref<16x16xf32, strided<[16, 1]>>)
    linalg.matmul ins(%a, %w : memref<16x16xf32>, memref<16x16xf32>) outs(%o : memref<16x16xf32, strided<[16, 1]>>)
    gpu.terminator
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#cfg = #fuse.lowering_config<schedule = "contraction", tile = [16, 16], threads = 32, instruction = "mma_sync", precision = "fp32">

// A tile buffer the epilogue writes that ops before the contraction use
// too (shared by the block's threads there) stays in shared memory and is
// stored; only the contraction's own tile is dropped.
// CHECK-LABEL: func.func @buffer_used_before
// CHECK: gpu.launch
// CHECK-SAME: workgroup(%{{[a-z0-9]+}} : memref<2x16x20xf32, #gpu.address_space<workgroup>>, %{{[a-z0-9]+}} : memref<2x16x40xf32, #gpu.address_space<workgroup>>, %{{[a-z0-9]+}} : memref<16x16xf32, #gpu.address_space<workgroup>>) {
// CHECK-NOT: memref.alloca
// CHECK: nvgpu.mma.sync
// CHECK: %[[NEG:.*]] = arith.negf
// CHECK-NEXT: %[[EXP:.*]] = math.exp %[[NEG]]
// CHECK-NEXT: memref.store %[[NEG]], %{{.*}} : memref<16x16xf32>
// CHECK-NEXT: memref.store %[[EXP]], %arg2[
func.func @buffer_used_before(%a: memref<16x16xf32>, %w: memref<16x16xf32>, %out: memref<16x16xf32>, %early: memref<16x16xf32>) attributes {fuse.lowering_config = #cfg} {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %scratch = memref.alloca() : memref<16x16xf32>
    linalg.fill ins(%one : f32) outs(%scratch : memref<16x16xf32>)
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%scratch : memref<16x16xf32>) outs(%early : memref<16x16xf32>) {
    ^bb0(%in: f32, %o: f32):
      linalg.yield %in : f32
    }
    %tile = memref.alloca() : memref<16x16xf32>
    linalg.fill ins(%zero : f32) outs(%tile : memref<16x16xf32>)
    linalg.matmul ins(%a, %w : memref<16x16xf32>, memref<16x16xf32>) outs(%tile : memref<16x16xf32>)
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%tile : memref<16x16xf32>) outs(%scratch : memref<16x16xf32>) {
    ^bb0(%in: f32, %o: f32):
      %r = arith.negf %in : f32
      linalg.yield %r : f32
    }
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%scratch : memref<16x16xf32>) outs(%out : memref<16x16xf32>) {
    ^bb0(%in: f32, %o: f32):
      %r = math.exp %in : f32
      linalg.yield %r : f32
    }
    gpu.terminator
  }
  return
}

// -----

#cfg = #fuse.lowering_config<schedule = "contraction", tile = [16, 16], threads = 32, instruction = "mma_sync", precision = "fp32">

// Negative: an op between the fill and the contraction reads what the
// fill writes (through another view of the output): the fill stays a
// phase, and the accumulators load the output.
// CHECK-LABEL: func.func @init_read_between
// CHECK: gpu.launch
// CHECK: memref.store %cst{{.*}}, %{{.*}} : memref<16x16xf32, strided<[16, 1]>>
// CHECK: gpu.barrier
// CHECK: memref.store %{{.*}}, %arg3[
// CHECK: gpu.barrier
// CHECK: memref.load %{{.*}} : memref<16x16xf32, strided<[16, 1]>>
// CHECK: nvgpu.mma.sync
func.func @init_read_between(%a: memref<16x16xf32>, %w: memref<16x16xf32>, %out: memref<16x16xf32>, %copy: memref<16x16xf32>) attributes {fuse.lowering_config = #cfg} {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %o = memref.subview %out[0, 0] [16, 16] [1, 1] : memref<16x16xf32> to memref<16x16xf32, strided<[16, 1]>>
    linalg.fill ins(%zero : f32) outs(%o : memref<16x16xf32, strided<[16, 1]>>)
    linalg.copy ins(%out : memref<16x16xf32>) outs(%copy : memref<16x16xf32>)
    linalg.matmul ins(%a, %w : memref<16x16xf32>, memref<16x16xf32>) outs(%o : memref<16x16xf32, strided<[16, 1]>>)
    gpu.terminator
  }
  return
}
