// The report's predicted kernel time (Lowering.md, "Predicted kernel
// time"), by hand for the H200 (132 SMs, 128 FP32 lanes each at
// 67 TFLOP/s / (132 x 256) = 1.98 GHz, 4800 GB/s, 3 us per launch):
//
// A 64x256 GEMM (K = 256) + bias: 2x32 tiles, 256 blocks of 64 threads, 2
// on the busiest SM (4 warps resident). 4202496 multiply-adds, 32832 on
// that SM, one point per thread: 2 loads per multiply-add, 1.03 us of load
// issue, 4x that (4 of the 16 warps that hide a load's latency): 4.14 us,
// plus the launch: 7.1 us, bound by latency. Each tile reads 2x256 of A,
// 256x32 of B and 32 of the bias: 34944 bytes, 8945664 through L2.
// The SIMT schedule (tensor-cores=never; the tensor-core one is at the end).
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="target=h200 tensor-cores=never report=-" -o /dev/null | FileCheck %s
// The report as text (make demo prints it) says the same.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 tensor-cores=never report=%t.json" -o /dev/null
// RUN: /usr/bin/python3 %fuse_src_root/scripts/report-summary.py %t.json | FileCheck %s --check-prefix=TEXT
// TEXT: @gemm_bias
// TEXT: schedule contraction: tile 2x32, 256 blocks of 64 threads (simt, fp32); predicted 7.1 us, latency-bound
// TEXT: total: {{.*}}kernels predicted 0.0{{[0-9]+}} ms
// CHECK-LABEL: "name": "gemm_bias"
// CHECK: "lowering_config": {
// CHECK: "blocks": 256,
// CHECK: "predicted": {
// CHECK-NEXT: "us": 7.1{{[0-9]*}},
// CHECK-NEXT: "bound": "latency",
// CHECK-NEXT: "blocks_per_sm": 2,
// CHECK-NEXT: "warps_per_sm": 4,
// CHECK-NEXT: "loads_per_mac": 2,
// CHECK-NEXT: "l2_bytes": 8945664
// CHECK: "predicted_us": 7.1
func.func @gemm_bias(%x: tensor<64x256xf32>, %w: tensor<256x256xf32>, %b: tensor<256xf32>) -> tensor<64x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  %m = linalg.matmul ins(%x, %w : tensor<64x256xf32>, tensor<256x256xf32>) outs(%f : tensor<64x256xf32>) -> tensor<64x256xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m, %b : tensor<64x256xf32>, tensor<256xf32>) outs(%e : tensor<64x256xf32>) {
  ^bb0(%in: f32, %c: f32, %o: f32):
    %t = arith.addf %in, %c : f32
    linalg.yield %t : f32
  } -> tensor<64x256xf32>
  return %0 : tensor<64x256xf32>
}

// -----

// A 1024x1024 ReLU moves 8 MiB: 1.75 us at 4800 GB/s plus the launch,
// bound by DRAM.
// CHECK-LABEL: "name": "relu"
// CHECK: "predicted": {
// CHECK-NEXT: "us": 4.74{{[0-9]*}},
// CHECK-NEXT: "bound": "dram",
func.func @relu(%x: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1024xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<1024x1024xf32>) outs(%e : tensor<1024x1024xf32>) {
  ^bb0(%in: f32, %o: f32):
    %t = arith.maximumf %in, %zero : f32
    linalg.yield %t : f32
  } -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}

// -----

// On tensor cores (tensor-cores=always) the same GEMM + bias takes 64x32
// tiles (the cost model's fastest candidate): 8 blocks of 2 warps, a 2x1
// warp grid over the tile's 4x4 accumulator tiles of 16x8, 3 stages. K =
// 256 is 8 chunks of 32: the first chunk's 600 cycles of global load
// latency exposed and its 4 K steps x 3 products x 32 cycles = 384 of
// dependent mma.sync, then 7 chunks each the longer of 384 and 600 / 2
// (two chunks in flight): 3672 cycles = 1.85 us (one block per SM, one
// wave), plus the launch: 4.85 us, bound by latency (the tensor cores'
// 524288 x 3 products of a block at 512 per cycle take 1.55 us, its 81920
// lanes of loads 1.29 us). Staged: 3 x (A's 64 x (32 + 4) + B's 32 x
// (32 + 8)) floats = 43008 B. With 2 stages each later chunk waits 600:
// 5184 cycles, 5.61 us; a 4th stage hides no more than the 3rd.
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="target=h200 tensor-cores=always split-k=1 report=-" -o /dev/null | FileCheck %s --check-prefix=MMA
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="target=h200 tensor-cores=always stages=2 split-k=1 report=-" -o /dev/null | FileCheck %s --check-prefix=MMA2
// With split-K (the runs above say split-k=1) the cost model splits the
// reduction of 2 tiles of 64x128 over 8 blocks each: 16 blocks of 8 warps,
// one chunk each (2 stages: nothing to overlap): 600 + 384 cycles, plus two
// round trips to L2 for the partials and the arrival (2 x 600): 2184 cycles
// = 1.10 us, 4.10 us with the launch; the partials add 2 x 8 x 2 x 64 x 128
// x 4 B = 1 MiB of L2 traffic.
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="target=h200 tensor-cores=always report=-" -o /dev/null | FileCheck %s --check-prefix=SPLIT
// SPLIT-LABEL: "name": "gemm_bias_mma"
// SPLIT: "tile": [
// SPLIT-NEXT: 64,
// SPLIT-NEXT: 128
// SPLIT-NEXT: ],
// SPLIT-NEXT: "threads": 256,
// SPLIT-NEXT: "blocks": 2,
// SPLIT: "stages": 2,
// SPLIT-NEXT: "staging_bytes": 53248,
// SPLIT-NEXT: "split_k": 8
// SPLIT: "predicted": {
// SPLIT-NEXT: "us": 4.10{{[0-9]*}},
// SPLIT-NEXT: "bound": "latency",
// SPLIT-NEXT: "blocks_per_sm": 1,
// MMA2-LABEL: "name": "gemm_bias_mma"
// MMA2: "instruction": "mma_sync",
// MMA2-NEXT: "precision": "fp32",
// MMA2-NEXT: "stages": 2,
// MMA2-NEXT: "staging_bytes": 28672
// MMA2-NEXT: },
// MMA2-NEXT: "predicted": {
// MMA2-NEXT: "us": 5.61{{[0-9]*}},
// MMA-LABEL: "name": "gemm_bias_mma"
// MMA: "tile": [
// MMA-NEXT: 64,
// MMA-NEXT: 32
// MMA-NEXT: ],
// MMA-NEXT: "threads": 64,
// MMA-NEXT: "blocks": 8,
// MMA: "instruction": "mma_sync",
// MMA-NEXT: "precision": "fp32",
// MMA-NEXT: "stages": 3,
// MMA-NEXT: "staging_bytes": 43008
// MMA: "predicted": {
// MMA-NEXT: "us": 4.85{{[0-9]*}},
// MMA-NEXT: "bound": "latency",
// MMA-NEXT: "blocks_per_sm": 1,
// MMA-NEXT: "warps_per_sm": 2,
func.func @gemm_bias_mma(%x: tensor<64x256xf32>, %w: tensor<256x256xf32>, %b: tensor<256xf32>) -> tensor<64x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  %m = linalg.matmul ins(%x, %w : tensor<64x256xf32>, tensor<256x256xf32>) outs(%f : tensor<64x256xf32>) -> tensor<64x256xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m, %b : tensor<64x256xf32>, tensor<256xf32>) outs(%e : tensor<64x256xf32>) {
  ^bb0(%in: f32, %c: f32, %o: f32):
    %t = arith.addf %in, %c : f32
    linalg.yield %t : f32
  } -> tensor<64x256xf32>
  return %0 : tensor<64x256xf32>
}
