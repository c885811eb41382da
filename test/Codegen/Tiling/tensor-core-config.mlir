// fuse-configure-groups' tensor-core choice (instruction = "mma_sync"): on
// targets with TF32 tensor cores (sm_80 and newer: h200, a100) a group whose
// contraction the schedule computes takes the tensor-core tile and stage
// count the cost model predicts fastest (Lowering.md: each wave of resident
// blocks runs its K chunks one after the other, the first chunk's load
// latency exposed, each later one's shared by the stages - 1 chunks in
// flight) when it predicts it faster than the SIMT kernel. The
// 128x768x768 GEMM + bias takes 64x32 tiles with 3 stages (48 blocks of 2
// warps, 2x2 accumulator tiles each; 3 stages hide the loads behind 3
// products per K step, a 4th adds nothing and the tie keeps the fewer);
// with stages=2 the loads are not hidden and fewer, larger tiles win
// (128x24, 32 blocks of 4 warps); the 56x56x64 3x3 convolution takes 8x8
// output pixels by 32 channels (49 x 2 blocks of 2 warps); with
// precision=tf32 (a third of the products, so a 4th stage pays) 32x32 and
// 8x8x32 with 4 stages; a 16x64x32 matmul stays SIMT (one K chunk: too
// little work to pay for the staging) unless tensor-cores=always, and its
// one chunk leaves nothing to overlap (2 stages, the field absent); a
// depthwise convolution has no N to put on tensor cores and stays SIMT;
// the T4 (sm_75) has no TF32 tensor cores at all. A tile may hold fewer
// than 16 output pixels (its accumulator tiles' rows past them padded):
// the stride-2 3x3 convolution over 512 channels with a 7x7 output
// (ResNet-50's last stage transition) fits shared memory only with at
// most 7 pixels a tile (7: its padded input rows, 3 x 15 pixels x 512
// channels, twice), and takes tensor cores (7 pixels on the H200, 1 on the
// A100's 164 KB; 16-way split-K by default) instead of SIMT.
// RUN: fuse-opt %s --fuse-configure-groups="target=h200 split-k=1" | FileCheck %s --check-prefix=H200
// RUN: fuse-opt %s --fuse-configure-groups="target=a100 split-k=1" | FileCheck %s --check-prefix=H200
// RUN: fuse-opt %s --fuse-configure-groups=target=t4 | FileCheck %s --check-prefix=SIMT
// RUN: fuse-opt %s --fuse-configure-groups="target=t4 tensor-cores=always" | FileCheck %s --check-prefix=SIMT
// RUN: fuse-opt %s --fuse-configure-groups="target=h200 tensor-cores=never" | FileCheck %s --check-prefix=SIMT
// RUN: fuse-opt %s --fuse-configure-groups="target=h200 precision=tf32 split-k=1" | FileCheck %s --check-prefix=TF32
// RUN: fuse-opt %s --fuse-configure-groups="target=h200 tensor-cores=always split-k=1" | FileCheck %s --check-prefix=ALWAYS
// RUN: fuse-opt %s --fuse-configure-groups="target=h200 stages=2 split-k=1" | FileCheck %s --check-prefix=STAGES2
// RUN: fuse-opt %s --fuse-configure-groups="target=h200 stages=4 split-k=1" | FileCheck %s --check-prefix=STAGES4
// RUN: not fuse-opt %s --fuse-configure-groups="precision=fp8" 2>&1 | FileCheck %s --check-prefix=BADP
// RUN: fuse-opt %s --fuse-configure-groups="target=h200 precision=bf16 split-k=1" | FileCheck %s --check-prefix=BF16
// RUN: fuse-opt %s --fuse-configure-groups="target=h200 precision=fp16 split-k=1" | FileCheck %s --check-prefix=FP16
// RUN: fuse-opt %s --fuse-configure-groups="target=t4 precision=bf16" | FileCheck %s --check-prefix=SIMT
// RUN: not fuse-opt %s --fuse-configure-groups="stages=5" 2>&1 | FileCheck %s --check-prefix=BADS
// RUN: not fuse-opt %s --fuse-fusion-pipeline="stages=1" 2>&1 | FileCheck %s --check-prefix=BADSF
// RUN: not fuse-opt %s --fuse-lower-groups="tensor-cores=maybe" 2>&1 | FileCheck %s --check-prefix=BADTC
// Split-K (the runs above say split-k=1: never). Where a kernel's tiles
// do not fill the 132 SMs the cost model tries every slice count up to 16
// that leaves no slice without a K chunk: the GEMM's 16 tiles of 128x48
// with K = 768 (24 chunks of 32) split 8 ways (128 blocks, 3 chunks each)
// beat the 48 unsplit 64x32 tiles; the convolution's 98 tiles of 8x8x32
// (K = 576, 18 chunks) split 4 ways (392 blocks, 5 chunks each, the last
// 3). A count given is taken wherever the group allows it.
// RUN: fuse-opt %s --fuse-configure-groups=target=h200 | FileCheck %s --check-prefix=SPLIT
// RUN: fuse-opt %s --fuse-configure-groups="target=h200 split-k=3" | FileCheck %s --check-prefix=SPLIT3
// RUN: not fuse-opt %s --fuse-configure-groups="split-k=17" 2>&1 | FileCheck %s --check-prefix=BADK
// RUN: not fuse-opt %s --fuse-fusion-pipeline="split-k=-1" 2>&1 | FileCheck %s --check-prefix=BADKF
// SPLIT-LABEL: func @gemm
// SPLIT: #fuse.lowering_config<schedule = "contraction", tile = [128, 48], threads = 256, instruction = "mma_sync", precision = "fp32", split_k = 8>
// SPLIT-LABEL: func @conv
// SPLIT: #fuse.lowering_config<schedule = "convolution", tile = [1, 8, 8, 32], threads = 64, instruction = "mma_sync", precision = "fp32", split_k = 4>
// SPLIT-LABEL: func @small
// SPLIT: instruction = "simt", precision = "fp32">
// SPLIT-LABEL: func @stride2
// SPLIT: tile = [1, 1, 7, 32], threads = 32, instruction = "mma_sync", precision = "fp32", stages = 3, split_k = 16>
// SPLIT3-LABEL: func @gemm
// SPLIT3: tile = [128, 24], threads = 128, instruction = "mma_sync", precision = "fp32", stages = 3, split_k = 3>
// SPLIT3-LABEL: func @conv
// SPLIT3: tile = [1, 4, 8, 32], threads = 32, instruction = "mma_sync", precision = "fp32", split_k = 3>
// BADK: fuse-configure-groups: option 'split-k' must be in [0, 16] (0: the cost model chooses, 1: never), got 17
// BADKF: fuse-form-groups: option 'split-k' must be in [0, 16] (0: the cost model chooses, 1: never), got -1

// H200-LABEL: func @gemm
// H200: #fuse.lowering_config<schedule = "contraction", tile = [64, 32], threads = 64, instruction = "mma_sync", precision = "fp32", stages = 3>
// H200-LABEL: func @conv
// H200: #fuse.lowering_config<schedule = "convolution", tile = [1, 8, 8, 32], threads = 64, instruction = "mma_sync", precision = "fp32", stages = 3>
// H200-LABEL: func @small
// H200: instruction = "simt", precision = "fp32">
// H200-LABEL: func @stride2
// H200: #fuse.lowering_config<schedule = "convolution", tile = [1, 1, {{7|1}}, 32], threads = 32, instruction = "mma_sync", precision = "fp32", stages = 3>
// H200-LABEL: func @depthwise
// H200: #fuse.lowering_config<schedule = "depthwise", {{.*}} instruction = "simt", precision = "fp32">

// SIMT-LABEL: func @gemm
// SIMT: #fuse.lowering_config<schedule = "contraction", tile = [8, 32], {{.*}} instruction = "simt", precision = "fp32">
// SIMT-LABEL: func @conv
// SIMT: #fuse.lowering_config<schedule = "convolution", tile = [1, 1, 8, 32], {{.*}} instruction = "simt", precision = "fp32">
// SIMT-LABEL: func @small
// SIMT: instruction = "simt"
// SIMT-LABEL: func @stride2
// SIMT: instruction = "simt"
// SIMT-LABEL: func @depthwise
// SIMT: instruction = "simt"

// TF32-LABEL: func @gemm
// TF32: tile = [32, 32], threads = 32, instruction = "mma_sync", precision = "tf32", stages = 4>
// TF32-LABEL: func @conv
// TF32: tile = [1, 8, 8, 32], threads = 64, instruction = "mma_sync", precision = "tf32", stages = 4>
// TF32-LABEL: func @small
// TF32: instruction = "simt", precision = "fp32">

// With 16-bit operands (precision=bf16 or fp16: one mma.sync.m16n8k16 a
// K step of 16, twice TF32's multiply-adds per instruction and a third of
// fp32's products) the GEMM and the convolution take 4 stages, the GEMM
// 32x32 tiles; the T4 has no sm_80 tensor cores and stays SIMT (above).
// BF16-LABEL: func @gemm
// BF16: tile = [32, 32], threads = 32, instruction = "mma_sync", precision = "bf16", stages = 4>
// BF16-LABEL: func @conv
// BF16: tile = [1, 8, 8, 32], threads = 64, instruction = "mma_sync", precision = "bf16", stages = 4>
// BF16-LABEL: func @small
// BF16: instruction = "simt", precision = "fp32">
// BF16-LABEL: func @depthwise
// BF16: instruction = "simt", precision = "fp32">
// FP16-LABEL: func @gemm
// FP16: tile = [32, 32], threads = 32, instruction = "mma_sync", precision = "fp16", stages = 4>

// ALWAYS-LABEL: func @small
// ALWAYS: #fuse.lowering_config<schedule = "contraction", tile = [16, 32, 0], threads = 32, instruction = "mma_sync", precision = "fp32">
// ALWAYS-LABEL: func @depthwise
// ALWAYS: instruction = "simt"

// STAGES2-LABEL: func @gemm
// STAGES2: #fuse.lowering_config<schedule = "contraction", tile = [128, 24], threads = 128, instruction = "mma_sync", precision = "fp32">
// STAGES4-LABEL: func @gemm
// STAGES4: tile = [64, 32], threads = 64, instruction = "mma_sync", precision = "fp32", stages = 4>
// STAGES4-LABEL: func @small
// STAGES4: instruction = "simt", precision = "fp32">

// BADS: fuse-configure-groups: option 'stages' must be 2, 3 or 4 (0: the cost model chooses), got 5
// BADSF: fuse-form-groups: option 'stages' must be 2, 3 or 4 (0: the cost model chooses), got 1
// BADP: fuse-configure-groups: option 'precision' must be 'fp32', 'tf32', 'bf16' or 'fp16', got 'fp8'
// BADTC: fuse-lower-groups: option 'tensor-cores' must be 'auto', 'always' or 'never', got 'maybe'

func.func @gemm(%x: tensor<128x768xf32>, %w: tensor<768x768xf32>, %b: tensor<768xf32>) -> tensor<128x768xf32> {
  %r = fuse.group vertical (%a = %x : tensor<128x768xf32>, %bw = %w : tensor<768x768xf32>, %bb = %b : tensor<768xf32>) -> tensor<128x768xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x768xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x768xf32>) -> tensor<128x768xf32>
    %m = linalg.matmul ins(%a, %bw : tensor<128x768xf32>, tensor<768x768xf32>) outs(%f : tensor<128x768xf32>) -> tensor<128x768xf32>
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m, %bb : tensor<128x768xf32>, tensor<768xf32>) outs(%e : tensor<128x768xf32>) {
    ^bb0(%in: f32, %c: f32, %o: f32):
      %t = arith.addf %in, %c : f32
      linalg.yield %t : f32
    } -> tensor<128x768xf32>
    fuse.yield %0 : tensor<128x768xf32>
  }
  return %r : tensor<128x768xf32>
}

func.func @conv(%x: tensor<1x58x58x64xf32>, %w: tensor<3x3x64x64xf32>) -> tensor<1x56x56x64xf32> {
  %r = fuse.group vertical (%a = %x : tensor<1x58x58x64xf32>, %bw = %w : tensor<3x3x64x64xf32>) -> tensor<1x56x56x64xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x56x56x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
    %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a, %bw : tensor<1x58x58x64xf32>, tensor<3x3x64x64xf32>) outs(%f : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x56x56x64xf32>) outs(%e : tensor<1x56x56x64xf32>) {
    ^bb0(%in: f32, %o: f32):
      %t = arith.maximumf %in, %zero : f32
      linalg.yield %t : f32
    } -> tensor<1x56x56x64xf32>
    fuse.yield %0 : tensor<1x56x56x64xf32>
  }
  return %r : tensor<1x56x56x64xf32>
}

func.func @small(%x: tensor<16x32xf32>, %w: tensor<32x64xf32>) -> tensor<16x64xf32> {
  %r = fuse.group single (%a = %x : tensor<16x32xf32>, %bw = %w : tensor<32x64xf32>) -> tensor<16x64xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<16x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
    %m = linalg.matmul ins(%a, %bw : tensor<16x32xf32>, tensor<32x64xf32>) outs(%f : tensor<16x64xf32>) -> tensor<16x64xf32>
    fuse.yield %m : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

func.func @stride2(%x: tensor<1x14x14x512xf32>, %w: tensor<3x3x512x32xf32>) -> tensor<1x7x7x32xf32> {
  %r = fuse.group vertical (%a = %x : tensor<1x14x14x512xf32>, %bw = %w : tensor<3x3x512x32xf32>) -> tensor<1x7x7x32xf32> {
    %zero = arith.constant 0.0 : f32
    %p = tensor.pad %a low[0, 1, 1, 0] high[0, 0, 0, 0] {
    ^bb0(%i: index, %j: index, %k: index, %l: index):
      tensor.yield %zero : f32
    } : tensor<1x14x14x512xf32> to tensor<1x15x15x512xf32>
    %e = tensor.empty() : tensor<1x7x7x32xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x32xf32>) -> tensor<1x7x7x32xf32>
    %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%p, %bw : tensor<1x15x15x512xf32>, tensor<3x3x512x32xf32>) outs(%f : tensor<1x7x7x32xf32>) -> tensor<1x7x7x32xf32>
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x7x7x32xf32>) outs(%e : tensor<1x7x7x32xf32>) {
    ^bb0(%in: f32, %o: f32):
      %t = arith.maximumf %in, %zero : f32
      linalg.yield %t : f32
    } -> tensor<1x7x7x32xf32>
    fuse.yield %0 : tensor<1x7x7x32xf32>
  }
  return %r : tensor<1x7x7x32xf32>
}

func.func @depthwise(%x: tensor<1x58x58x32xf32>, %w: tensor<3x3x32xf32>) -> tensor<1x56x56x32xf32> {
  %r = fuse.group single (%a = %x : tensor<1x58x58x32xf32>, %bw = %w : tensor<3x3x32xf32>) -> tensor<1x56x56x32xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x56x56x32xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x56x56x32xf32>) -> tensor<1x56x56x32xf32>
    %c = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a, %bw : tensor<1x58x58x32xf32>, tensor<3x3x32xf32>) outs(%f : tensor<1x56x56x32xf32>) -> tensor<1x56x56x32xf32>
    fuse.yield %c : tensor<1x56x56x32xf32>
  }
  return %r : tensor<1x56x56x32xf32>
}
