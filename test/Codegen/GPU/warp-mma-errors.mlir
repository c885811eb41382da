// fuse-distribute-threads refuses an mma_sync lowering config on a target
// without TF32 tensor cores (the T4 is sm_75): an error naming the
// requirement, not SIMT code in its place.
// RUN: fuse-opt %s --fuse-distribute-threads -verify-diagnostics

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
