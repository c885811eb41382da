// fuse-distribute-threads refuses an mma_sync lowering config on a target
// without TF32 tensor cores (the T4 is sm_75): an error naming the
// requirement, not SIMT code in its place. A contraction of an mma_sync
// config the schedule cannot compute runs on SIMT with a remark naming why.
// RUN: fuse-opt %s -split-input-file --fuse-distribute-threads -verify-diagnostics

module attributes {fuse.target = #fuse.target<"t4">} {
func.func @gemm_t4(%arg0: memref<32x64xf32>, %arg1: memref<64x24xf32>, %arg3: memref<32x24xf32>) attributes {fuse.lowering_config = #fuse.lowering_config<schedule = "contraction", tile = [32, 24], threads = 128, instruction = "mma_sync", precision = "fp32">} {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{fuse-distribute-threads: the lowering config asks for instruction = "mma_sync" (TF32 tensor cores), which needs sm_80 or newer; the target is sm_75}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    linalg.matmul ins(%arg0, %arg1 : memref<32x64xf32>, memref<64x24xf32>) outs(%arg3 : memref<32x24xf32>)
    gpu.terminator
  }
  return
}
}

// -----

// A reduction that is not out + a * b (a max-plus product) in a tile whose
// config asks for tensor cores runs on SIMT, with a remark saying why.
func.func @maxplus(%arg0: memref<32x64xf32>, %arg1: memref<64x32xf32>, %arg3: memref<32x32xf32>) attributes {fuse.lowering_config = #fuse.lowering_config<schedule = "contraction", tile = [32, 32], threads = 128, instruction = "mma_sync", precision = "fp32">} {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-remark @+1 {{fuse-distribute-threads: 'linalg.generic' runs on SIMT, not tensor cores: a payload other than out + a * b}}
    linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : memref<32x64xf32>, memref<64x32xf32>) outs(%arg3 : memref<32x32xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      %m = arith.maximumf %o, %s : f32
      linalg.yield %m : f32
    }
    gpu.terminator
  }
  return
}

// -----

// A 128x128 tile over 4 warps: each would hold 32 of its 128 accumulator
// tiles (128 registers a lane), more than fit: SIMT, and why.
func.func @too_large(%arg0: memref<128x64xf32>, %arg1: memref<64x128xf32>, %arg3: memref<128x128xf32>) attributes {fuse.lowering_config = #fuse.lowering_config<schedule = "contraction", tile = [128, 128], threads = 128, instruction = "mma_sync", precision = "fp32">} {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-remark @+1 {{fuse-distribute-threads: 'linalg.matmul' runs on SIMT, not tensor cores: each of its 4 warps would hold 32 accumulator tiles of 16x8, more than 16}}
    linalg.matmul ins(%arg0, %arg1 : memref<128x64xf32>, memref<64x128xf32>) outs(%arg3 : memref<128x128xf32>)
    gpu.terminator
  }
  return
}

// -----

// Split-K needs exactly one tensor-core contraction in the tile.
func.func @split_two(%arg0: memref<32x64xf32>, %arg1: memref<64x24xf32>, %arg3: memref<32x24xf32>, %arg4: memref<32x24xf32>) attributes {fuse.lowering_config = #fuse.lowering_config<schedule = "contraction", tile = [32, 24], threads = 32, instruction = "mma_sync", precision = "fp32", split_k = 2>} {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{fuse-distribute-threads: the lowering config asks for split_k = 2, but its tile has 2 tensor-core contractions, not one}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    linalg.matmul ins(%arg0, %arg1 : memref<32x64xf32>, memref<64x24xf32>) outs(%arg3 : memref<32x24xf32>)
    linalg.matmul ins(%arg0, %arg1 : memref<32x64xf32>, memref<64x24xf32>) outs(%arg4 : memref<32x24xf32>)
    gpu.terminator
  }
  return
}

// -----

// ... with one batch point per block.
func.func @split_batch(%arg0: memref<2x16x64xf32>, %arg1: memref<2x64x8xf32>, %arg3: memref<2x16x8xf32>) attributes {fuse.lowering_config = #fuse.lowering_config<schedule = "contraction", tile = [2, 16, 8], threads = 32, instruction = "mma_sync", precision = "fp32", split_k = 2>} {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{fuse-distribute-threads: the lowering config asks for split_k = 2, but its contraction has 2 batch points per block, not one}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    linalg.batch_matmul ins(%arg0, %arg1 : memref<2x16x64xf32>, memref<2x64x8xf32>) outs(%arg3 : memref<2x16x8xf32>)
    gpu.terminator
  }
  return
}

// -----

// ... and a static grid.
func.func @split_dynamic_grid(%arg0: memref<32x64xf32>, %arg1: memref<64x24xf32>, %arg3: memref<32x24xf32>, %n: index) attributes {fuse.lowering_config = #fuse.lowering_config<schedule = "contraction", tile = [32, 24], threads = 32, instruction = "mma_sync", precision = "fp32", split_k = 2>} {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{fuse-distribute-threads: the lowering config asks for split_k = 2, but the kernel's grid is not static}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    linalg.matmul ins(%arg0, %arg1 : memref<32x64xf32>, memref<64x24xf32>) outs(%arg3 : memref<32x24xf32>)
    gpu.terminator
  }
  return
}
