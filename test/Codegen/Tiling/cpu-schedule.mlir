// The CPU schedule of each group class (the `cpu` field of its
// #fuse.lowering_config, docs/Lowering.md "The CPU schedule"), chosen by
// the configuration step for two CPU targets:
// - AVX-512 (16 lanes, 32 registers): NR = 32 (two vectors), MR up to 8
//   rows dividing the output's (a 7-wide convolution: 7); the 3072-long
//   reduction's 384 KiB panel (over a quarter of the 1 MiB L2) runs in
//   blocks of 256 (32 KiB, an L1); the depthwise convolution's 144
//   channels take 16 (the widest multiple of the lanes dividing them).
// - AVX2 (8 lanes, 16 registers, 12 for accumulators): 16 wide with up to
//   6 rows, or 8 wide with up to 8: the 7-wide convolution takes 7x8 (the
//   16-wide tile would have 1 row); the GEMM 4x16; the 256 KiB L2 blocks
//   the long reduction's 192 KiB panel at 512 (an L1).
// Groups without a product (a row sum, elementwise ops) are loops.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 cpu-target=avx512" | FileCheck %s --check-prefix=AVX512
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 cpu-target=avx2" | FileCheck %s --check-prefix=AVX2
// Without a cpu-target the configs have no cpu field.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200" | FileCheck %s --check-prefix=NONE
// NONE-NOT: cpu_
// fuse-configure-groups gives configured groups a CPU schedule and keeps
// their GPU one.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200" | fuse-opt --fuse-configure-groups="cpu-target=avx2" | FileCheck %s --check-prefix=AVX2
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200" | fuse-opt --fuse-configure-groups="cpu-target=avx2" | FileCheck %s --check-prefix=KEEP
// KEEP-LABEL: func.func @conv
// KEEP: #fuse.lowering_config<schedule = "convolution", tile = [1, 7, 7, 64], threads = 128, instruction = "mma_sync", precision = "fp32", stages = 3, split_k = 9, cpu = #fuse.cpu_schedule<kind = "register_tiles", mr = 7, nr = 8, kc = 4, k_block = 0>>
// `host` is this machine: a name and numbers LLVM and the system give.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 cpu-target=host" | FileCheck %s --check-prefix=HOST
// HOST: fuse.cpu_target = #fuse.cpu_target<name = "host", vector_bits = {{128|256|512}}, vector_registers = {{16|32}}, l1_bytes = {{[1-9][0-9]*}}, l2_bytes = {{[1-9][0-9]*}}
// A custom target, and wrong ones.
// RUN: fuse-opt %s --fuse-fusion-pipeline='target=h200 cpu-target={#fuse.cpu_target<name = "mine", vector_bits = 128, vector_registers = 32, l1_bytes = 65536, l2_bytes = 4194304, l3_bytes = 0>}' | FileCheck %s --check-prefix=MINE
// MINE: fuse.cpu_target = #fuse.cpu_target<name = "mine"
// MINE-LABEL: func.func @gemm
// MINE: cpu = #fuse.cpu_schedule<kind = "register_tiles", mr = 8, nr = 8, kc = 4, k_block = 0>
// RUN: not fuse-opt %s --fuse-fusion-pipeline="target=h200 cpu-target=avx3" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: fuse-form-groups: option 'cpu-target': unknown CPU target 'avx3'; presets are host, avx512, avx2, neon, or give a #fuse.cpu_target<...> attribute
// RUN: not fuse-opt %s --fuse-configure-groups='cpu-target={#fuse.cpu_target<name = "x", vector_bits = 384>}' 2>&1 | FileCheck %s --check-prefix=PARTIAL
// PARTIAL: error: fuse-configure-groups: option 'cpu-target': '#fuse.cpu_target<name = "x", vector_bits = 384>' is not a #fuse.cpu_target (expected ','); one sets name, vector_bits, vector_registers, l1_bytes, l2_bytes and l3_bytes
// The schedules run: fused with them vs the unfused loops.
// RUN: %check_equivalence %s --function conv --fused-options "cpu-target=avx2" | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function max_pool --fused-options "cpu-target=avx2" | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function gemm --fused-options "cpu-target=neon" | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function long_k --fused-options "cpu-target=avx512" | FileCheck %s --check-prefix=EXEC
// EXEC: PASS
// EXEC-NOT: FAIL

// AVX512: module attributes {fuse.cpu_target = #fuse.cpu_target<name = "avx512", vector_bits = 512, vector_registers = 32, l1_bytes = 32768, l2_bytes = 1048576, l3_bytes = 33554432>
// AVX512-LABEL: func.func @gemm
// AVX512: cpu = #fuse.cpu_schedule<kind = "register_tiles", mr = 8, nr = 32, kc = 4, k_block = 0>
// AVX512-LABEL: func.func @long_k
// AVX512: cpu = #fuse.cpu_schedule<kind = "register_tiles", mr = 8, nr = 32, kc = 4, k_block = 256>
// AVX512-LABEL: func.func @conv
// AVX512: cpu = #fuse.cpu_schedule<kind = "register_tiles", mr = 7, nr = 32, kc = 4, k_block = 0>
// AVX512-LABEL: func.func @depthwise
// AVX512: cpu = #fuse.cpu_schedule<kind = "channel_tiles", mr = 8, nr = 16, kc = 1, k_block = 0>
// AVX512-LABEL: func.func @max_pool
// AVX512: cpu = #fuse.cpu_schedule<kind = "channel_tiles", mr = 7, nr = 32, kc = 1, k_block = 0>
// AVX512-LABEL: func.func @rowsum
// AVX512: cpu = #fuse.cpu_schedule<kind = "loops", mr = 0, nr = 0, kc = 0, k_block = 0>
// AVX512-LABEL: func.func @relu_add
// AVX512: cpu = #fuse.cpu_schedule<kind = "loops", mr = 0, nr = 0, kc = 0, k_block = 0>

// AVX2: module attributes {fuse.cpu_target = #fuse.cpu_target<name = "avx2", vector_bits = 256, vector_registers = 16
// AVX2-LABEL: func.func @gemm
// AVX2: cpu = #fuse.cpu_schedule<kind = "register_tiles", mr = 4, nr = 16, kc = 4, k_block = 0>
// AVX2-LABEL: func.func @long_k
// AVX2: cpu = #fuse.cpu_schedule<kind = "register_tiles", mr = 4, nr = 16, kc = 4, k_block = 512>
// AVX2-LABEL: func.func @conv
// AVX2: cpu = #fuse.cpu_schedule<kind = "register_tiles", mr = 7, nr = 8, kc = 4, k_block = 0>
// AVX2-LABEL: func.func @depthwise
// AVX2: cpu = #fuse.cpu_schedule<kind = "channel_tiles", mr = 4, nr = 16, kc = 1, k_block = 0>
// AVX2-LABEL: func.func @max_pool
// AVX2: cpu = #fuse.cpu_schedule<kind = "channel_tiles", mr = 7, nr = 8, kc = 1, k_block = 0>
// AVX2-LABEL: func.func @rowsum
// AVX2: cpu = #fuse.cpu_schedule<kind = "loops", mr = 0, nr = 0, kc = 0, k_block = 0>

// GEMM + bias: 64 rows, 256 columns, K 128 (a 64 KiB panel: no blocks).
func.func @gemm(%a: tensor<64x128xf32>, %b: tensor<128x256xf32>, %bias: tensor<256xf32>) -> tensor<64x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  %m = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x256xf32>) outs(%f : tensor<64x256xf32>) -> tensor<64x256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%m, %bias : tensor<64x256xf32>, tensor<256xf32>) outs(%e : tensor<64x256xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<64x256xf32>
  return %r : tensor<64x256xf32>
}

// A BERT FFN down-projection: K 3072 (a 384 KiB panel of 32 columns:
// blocks of an L1 on AVX-512; 192 KiB of 16 on AVX2, over its 64 KiB).
func.func @long_k(%a: tensor<128x3072xf32>, %b: tensor<3072x768xf32>) -> tensor<128x768xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x768xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x768xf32>) -> tensor<128x768xf32>
  %m = linalg.matmul ins(%a, %b : tensor<128x3072xf32>, tensor<3072x768xf32>) outs(%f : tensor<128x768xf32>) -> tensor<128x768xf32>
  return %m : tensor<128x768xf32>
}

// A 3x3 convolution over 7x7x512 (+ ReLU): rows of the output width 7.
func.func @conv(%x: tensor<1x9x9x64xf32>, %w: tensor<3x3x64x512xf32>) -> tensor<1x7x7x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x7x7x512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x512xf32>) -> tensor<1x7x7x512xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x9x9x64xf32>, tensor<3x3x64x512xf32>) outs(%f : tensor<1x7x7x512xf32>) -> tensor<1x7x7x512xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x7x7x512xf32>) outs(%e : tensor<1x7x7x512xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x7x7x512xf32>
  return %r : tensor<1x7x7x512xf32>
}

// A 3x3 depthwise convolution over 56x56x144.
func.func @depthwise(%x: tensor<1x58x58x144xf32>, %w: tensor<3x3x144xf32>) -> tensor<1x56x56x144xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x56x56x144xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x56x56x144xf32>) -> tensor<1x56x56x144xf32>
  %d = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x58x58x144xf32>, tensor<3x3x144xf32>) outs(%f : tensor<1x56x56x144xf32>) -> tensor<1x56x56x144xf32>
  return %d : tensor<1x56x56x144xf32>
}

// A 3x3 max pool, stride 2, over 14x14x96.
func.func @max_pool(%x: tensor<1x29x29x96xf32>) -> tensor<1x14x14x96xf32> {
  %lowest = arith.constant -3.40282347E+38 : f32
  %e = tensor.empty() : tensor<1x14x14x96xf32>
  %f = linalg.fill ins(%lowest : f32) outs(%e : tensor<1x14x14x96xf32>) -> tensor<1x14x14x96xf32>
  %window = tensor.empty() : tensor<3x3xf32>
  %p = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %window : tensor<1x29x29x96xf32>, tensor<3x3xf32>) outs(%f : tensor<1x14x14x96xf32>) -> tensor<1x14x14x96xf32>
  return %p : tensor<1x14x14x96xf32>
}

// A row sum (a softmax's denominator): no product, loops.
func.func @rowsum(%x: tensor<128x768xf32>) -> tensor<128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128xf32>) -> tensor<128xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<128x768xf32>) outs(%f : tensor<128xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %a = arith.addf %v, %acc : f32
    linalg.yield %a : f32
  } -> tensor<128xf32>
  return %s : tensor<128xf32>
}

// An elementwise group: loops.
func.func @relu_add(%x: tensor<8x1000xf32>, %y: tensor<8x1000xf32>) -> tensor<8x1000xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x1000xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<8x1000xf32>, tensor<8x1000xf32>) outs(%e : tensor<8x1000xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<8x1000xf32>
  return %r : tensor<8x1000xf32>
}
