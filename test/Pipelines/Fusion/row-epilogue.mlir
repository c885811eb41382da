// contraction_row_epilogue: a GEMM, its bias and residual, then a
// LayerNorm over the GEMM's output rows. The kernel needs 32 whole rows of
// 2048 floats on chip (256 KiB): an H200 (227 KiB per block, the rest in its
// L2 share) fuses it all, a T4 (64 KiB, 100 KiB of L2 per SM) keeps the
// LayerNorm apart.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200" | FileCheck %s --check-prefix=H200
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=t4" | FileCheck %s --check-prefix=T4
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=t4 report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT

// H200-LABEL: func @gemm_residual_layernorm
// H200: fuse.group vertical rule "contraction_epilogue"
// H200: linalg.batch_matmul
// H200-COUNT-2: linalg.reduce
// H200-NOT: fuse.group
// T4-LABEL: func @gemm_residual_layernorm
// T4: fuse.group vertical rule "contraction_epilogue"
// T4: fuse.group vertical rule "row_reduction"
// REPORT: "rule": "contraction_row_epilogue",
// REPORT-NEXT: "check": "memory",
// REPORT: "reason": "per-block working set 262144 B exceeds shared memory per block 65536 B, and the 196608 B that would spill exceed one block's share of L2 (104857 B = 4194304 B / 40 SMs) on target 't4': 32 row(s) of 'linalg.reduce@row-epilogue.mlir:{{[0-9:]+}}' (2048 elements x 4 B x 1 values live across the reduction)"
func.func @gemm_residual_layernorm(%x: tensor<1x64x2048xf32>, %w: tensor<1x2048x2048xf32>, %b: tensor<1x1x2048xf32>, %gamma: tensor<1x1x2048xf32>, %beta: tensor<1x1x2048xf32>) -> tensor<1x64x2048xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %invd = "tosa.const"() <{values = dense<0.00048828125> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %m = tosa.matmul %x, %w, %zp, %zp : (tensor<1x64x2048xf32>, tensor<1x2048x2048xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x64x2048xf32>
  %mb = tosa.add %m, %b : (tensor<1x64x2048xf32>, tensor<1x1x2048xf32>) -> tensor<1x64x2048xf32>
  %r = tosa.add %mb, %x : (tensor<1x64x2048xf32>, tensor<1x64x2048xf32>) -> tensor<1x64x2048xf32>
  %s = tosa.reduce_sum %r {axis = 2 : i32} : (tensor<1x64x2048xf32>) -> tensor<1x64x1xf32>
  %mean = tosa.mul %s, %invd, %shift : (tensor<1x64x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x64x1xf32>
  %xc = tosa.sub %r, %mean : (tensor<1x64x2048xf32>, tensor<1x64x1xf32>) -> tensor<1x64x2048xf32>
  %sq = tosa.mul %xc, %xc, %shift : (tensor<1x64x2048xf32>, tensor<1x64x2048xf32>, tensor<1xi8>) -> tensor<1x64x2048xf32>
  %vs = tosa.reduce_sum %sq {axis = 2 : i32} : (tensor<1x64x2048xf32>) -> tensor<1x64x1xf32>
  %var = tosa.mul %vs, %invd, %shift : (tensor<1x64x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x64x1xf32>
  %ve = tosa.add %var, %eps : (tensor<1x64x1xf32>, tensor<1x1x1xf32>) -> tensor<1x64x1xf32>
  %rstd = tosa.rsqrt %ve : (tensor<1x64x1xf32>) -> tensor<1x64x1xf32>
  %n = tosa.mul %xc, %rstd, %shift : (tensor<1x64x2048xf32>, tensor<1x64x1xf32>, tensor<1xi8>) -> tensor<1x64x2048xf32>
  %g = tosa.mul %n, %gamma, %shift : (tensor<1x64x2048xf32>, tensor<1x1x2048xf32>, tensor<1xi8>) -> tensor<1x64x2048xf32>
  %y = tosa.add %g, %beta : (tensor<1x64x2048xf32>, tensor<1x1x2048xf32>) -> tensor<1x64x2048xf32>
  return %y : tensor<1x64x2048xf32>
}
