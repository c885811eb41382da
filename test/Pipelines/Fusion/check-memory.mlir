// The memory check: a group's per-block working set must fit shared memory.
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="target=h200" | FileCheck %s --check-prefix=H200
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="target=t4" | FileCheck %s --check-prefix=T4
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="target=t4 report=-" -o /dev/null | FileCheck %s --check-prefix=T4-REPORT
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline='target={#fuse.target<"h200", smem_per_block = 8192, smem_per_sm = 8192, l2_bytes = 131072>} report=-' -o /dev/null | FileCheck %s --check-prefix=TINY

// Softmax over rows of 65536 floats keeps a whole row (first x, then
// exp(x - max)) on chip: 65536 x 4 B = 256 KiB. An H200 holds 227 KiB per
// block and spills the rest to its share of the 50 MiB L2; a T4 holds 64 KiB
// and its L2 share (4 MiB / 40 SMs) is too small for the rest.
// H200-LABEL: func @long_softmax
// H200: fuse.group vertical rule "row_reduction"
// H200-NOT: fuse.group
// On the T4 the softmax splits where a row would have to stay on chip:
// the max alone, then subtract/exp/sum/reciprocal (exp is also returned to
// the last group), then the final scaling.
// T4-LABEL: func @long_softmax
// T4: fuse.group single
// T4-NEXT: arith.constant
// T4: linalg.reduce
// T4: fuse.group diagonal rule "row_reduction"
// T4: fuse.group single
// T4-REPORT: "name": "long_softmax"
// T4-REPORT: "check": "memory",
// T4-REPORT: "reason": "per-block working set 262144 B exceeds shared memory per block 65536 B, and the 196608 B that would spill exceed one block's share of L2 (104857 B = 4194304 B / 40 SMs) on target 't4': 1 row(s) of 'linalg.reduce@check-memory.mlir:{{[0-9]+:[0-9]+}}' (65536 elements x 4 B x 1 values live across the reduction)"
func.func @long_softmax(%x: tensor<4x65536xf32>) -> tensor<4x65536xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %max = tosa.reduce_max %x {axis = 1 : i32} : (tensor<4x65536xf32>) -> tensor<4x1xf32>
  %d = tosa.sub %x, %max : (tensor<4x65536xf32>, tensor<4x1xf32>) -> tensor<4x65536xf32>
  %e = tosa.exp %d : (tensor<4x65536xf32>) -> tensor<4x65536xf32>
  %sum = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<4x65536xf32>) -> tensor<4x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %y = tosa.mul %e, %inv, %shift : (tensor<4x65536xf32>, tensor<4x1xf32>, tensor<1xi8>) -> tensor<4x65536xf32>
  return %y : tensor<4x65536xf32>
}

// -----

// A contraction needs at least a 32x32x32 double-buffered tile (16 KiB in
// f32): with 8 KiB of shared memory per block and 1 KiB of L2 per SM its
// epilogue cannot join.
// TINY: "name": "matmul_relu"
// TINY: "check": "memory",
// TINY: "reason": "per-block working set 16384 B exceeds shared memory per block 8192 B, and the 8192 B that would spill exceed one block's share of L2 (992 B = 131072 B / 132 SMs) on target 'h200': the smallest tile of 'linalg.batch_matmul@check-memory.mlir:{{[0-9]+}}:8' (32x32x32, double-buffered, with its epilogue operands)"
// H200-LABEL: func @matmul_relu
// H200: fuse.group vertical rule "contraction_epilogue"
func.func @matmul_relu(%x: tensor<1x16x32xf32>, %w: tensor<1x32x64xf32>) -> tensor<1x16x64xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x, %w, %zp, %zp : (tensor<1x16x32xf32>, tensor<1x32x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x64xf32>
  %r = tosa.clamp %m {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x64xf32>) -> tensor<1x16x64xf32>
  return %r : tensor<1x16x64xf32>
}
