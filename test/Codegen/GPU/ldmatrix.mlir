// fuse-distribute-threads loads the tensor-core fragments of an operand
// staged K-fastest with TF32 elements (precision fp32 or tf32) by ldmatrix:
// one nvgpu.ldmatrix with 4 tiles per A tile of 16 rows and K step (lane l
// gives the address of row l % 8 of matrix l / 8: rows 0-7 and 8-15 of the
// tile at K 0-3, then at K 4-7), one with 2 tiles per B tile of 8 columns
// (its 8 columns at K 0-3 and 4-7), from the stage being computed. An
// operand staged N-fastest (a matmul's [K][N] weights) keeps a shared-memory
// load per register (ldmatrix moves 16-byte rows: K-contiguous here); so
// does every operand at precision bf16/fp16 (staged f32, rounded as the
// fragments load), and every operand with ldmatrix=false.
// The lane layouts are executed on the CPU by test/Integration/warp-mma.mlir
// (emulated, register r of lane l is word l % 4 of the row lane
// l / 4 + 8r addresses).
// RUN: fuse-opt %s -split-input-file --fuse-distribute-threads | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-distribute-threads=ldmatrix=false | FileCheck %s --check-prefix=OFF

// A [32][64] is K-fastest: ldmatrix x4 from its stage; B [64][24] is
// N-fastest: loads. With a 1x3 warp grid of 2x1 accumulator tiles, a chunk
// of 32 K is 4 K steps x 2 A tiles = 8 ldmatrix a warp.
// CHECK-LABEL: func.func @a_k_fastest
// CHECK: workgroup(%[[A:[a-z0-9]+]] : memref<2x32x36xf32, #gpu.address_space<workgroup>>, %[[B:[a-z0-9]+]] : memref<2x32x40xf32, #gpu.address_space<workgroup>>)
// CHECK: scf.for
// CHECK-COUNT-8: nvgpu.ldmatrix %[[A]][%{{.*}}, %{{.*}}, %{{.*}}] {numTiles = 4 : i32, transpose = false} : memref<2x32x36xf32, #gpu.address_space<workgroup>> -> vector<4x1xf32>
// CHECK-NOT: nvgpu.ldmatrix
// CHECK: return
// OFF-LABEL: func.func @a_k_fastest
// OFF-NOT: nvgpu.ldmatrix
// OFF: nvgpu.mma.sync
// OFF-NOT: nvgpu.ldmatrix
// OFF: return
func.func @a_k_fastest(%arg0: memref<32x64xf32>, %arg1: memref<64x24xf32>, %arg3: memref<32x24xf32>) attributes {fuse.lowering_config = #fuse.lowering_config<schedule = "contraction", tile = [32, 24], threads = 128, instruction = "mma_sync", precision = "fp32">} {
  %cst = arith.constant 0.000000e+00 : f32
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    linalg.fill ins(%cst : f32) outs(%arg3 : memref<32x24xf32>)
    linalg.matmul ins(%arg0, %arg1 : memref<32x64xf32>, memref<64x24xf32>) outs(%arg3 : memref<32x24xf32>)
    gpu.terminator
  }
  return
}

// -----

// B as [N][K] (K-fastest): both operands by ldmatrix, B's x2 per 8-column
// tile and K step (1 warp: 1x2 accumulator tiles over 16 x 16, 4 K steps:
// 4 of A, 8 of B), at precision tf32 too.
// CHECK-LABEL: func.func @b_k_fastest
// CHECK: workgroup(%[[A:[a-z0-9]+]] : memref<2x16x36xf32, #gpu.address_space<workgroup>>, %[[B:[a-z0-9]+]] : memref<2x16x36xf32, #gpu.address_space<workgroup>>)
// CHECK: scf.for
// CHECK-DAG: nvgpu.ldmatrix %[[A]][{{.*}}] {numTiles = 4 : i32, transpose = false} : memref<2x16x36xf32, #gpu.address_space<workgroup>> -> vector<4x1xf32>
// CHECK-DAG: nvgpu.ldmatrix %[[B]][{{.*}}] {numTiles = 2 : i32, transpose = false} : memref<2x16x36xf32, #gpu.address_space<workgroup>> -> vector<2x1xf32>
// CHECK: nvgpu.mma.sync
// CHECK: return
// OFF-LABEL: func.func @b_k_fastest
// OFF-NOT: nvgpu.ldmatrix
// OFF: return
func.func @b_k_fastest(%arg0: memref<16x32xf32>, %arg1: memref<16x32xf32>, %arg3: memref<16x16xf32>) attributes {fuse.lowering_config = #fuse.lowering_config<schedule = "contraction", tile = [16, 16], threads = 32, instruction = "mma_sync", precision = "tf32">} {
  %cst = arith.constant 0.000000e+00 : f32
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    linalg.fill ins(%cst : f32) outs(%arg3 : memref<16x16xf32>)
    linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : memref<16x32xf32>, memref<16x32xf32>) outs(%arg3 : memref<16x16xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %p = arith.mulf %a, %b : f32
      %s = arith.addf %o, %p : f32
      linalg.yield %s : f32
    }
    gpu.terminator
  }
  return
}

// -----

// bf16 operands are rounded as the fragments load from the f32 stage:
// no ldmatrix.
// CHECK-LABEL: func.func @bf16
// CHECK-NOT: nvgpu.ldmatrix
// CHECK: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>
// CHECK-NOT: nvgpu.ldmatrix
// CHECK: return
func.func @bf16(%arg0: memref<16x32xf32>, %arg1: memref<16x32xf32>, %arg3: memref<16x16xf32>) attributes {fuse.lowering_config = #fuse.lowering_config<schedule = "contraction", tile = [16, 16], threads = 32, instruction = "mma_sync", precision = "bf16">} {
  %cst = arith.constant 0.000000e+00 : f32
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    linalg.fill ins(%cst : f32) outs(%arg3 : memref<16x16xf32>)
    linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : memref<16x32xf32>, memref<16x32xf32>) outs(%arg3 : memref<16x16xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %p = arith.mulf %a, %b : f32
      %s = arith.addf %o, %p : f32
      linalg.yield %s : f32
    }
    gpu.terminator
  }
  return
}
