// A ViT encoder layer: bert-layer.mlir's layer (hidden 64, 4 heads of 16,
// FFN 256) over 197 tokens, ViT-B/16's sequence (196 patches and the class
// token). 197 is prime: no tile that divides the rows has the 16 rows a
// tensor-core accumulator tile holds, so every GEMM takes overlapping row
// tiles (Codegen/Tiling/overlapping-tiles.mlir) and runs on tensor cores.
// The same 5 kernels as the 16-token layer.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200" | FileCheck %s
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT

// Fused and tiled by each group's config (tensor-core schedules, each
// block's threads emulated) against unfused, on the CPU:
// RUN: %check_equivalence %s --lower-groups --distribute-threads config | FileCheck %s --check-prefix=EQUIV
// And through the CPU build's micro-kernels, on 2 threads and on 1:
// RUN: env FUSE_NUM_THREADS=2 %check_equivalence %s | FileCheck %s --check-prefix=EQUIV
// RUN: env FUSE_NUM_THREADS=1 %check_equivalence %s | FileCheck %s --check-prefix=EQUIV
// EQUIV: output 0 {{.*}}: PASS
// EQUIV-NEXT: PASS
// And the kernels compile for the H200 (tensor cores in each GEMM group):
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200" | fuse-opt --fuse-to-nvptx="target=h200 format=isa" 2>/dev/null | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: func @vit_layer
// CHECK: fuse.group horizontal rule "shared_input_contractions"
// CHECK-SAME: tile = [1, {{16|32|64|128}}, {{[0-9]+}}]{{.*}}instruction = "mma_sync"
// CHECK: fuse.group composite rule "attention"
// CHECK: fuse.group vertical rule "contraction_epilogue"
// CHECK-SAME: instruction = "mma_sync"
// CHECK: fuse.group vertical rule "contraction_epilogue"
// CHECK-SAME: instruction = "mma_sync"
// CHECK: fuse.group diagonal rule "residual_join"
// CHECK-SAME: instruction = "mma_sync"
// CHECK-NOT: fuse.group
// REPORT: "kernels_after": 5
// REPORT: "left_alone": []
// PTX-COUNT-4: mma.sync.aligned


func.func @vit_layer(%x: tensor<1x197x64xf32>, %mask: tensor<1x1x197xf32>, %bq: tensor<1x1x64xf32>, %bk: tensor<1x1x64xf32>, %bv: tensor<1x1x64xf32>, %bo: tensor<1x1x64xf32>, %b1: tensor<1x1x256xf32>, %b2: tensor<1x1x64xf32>, %g1: tensor<1x1x64xf32>, %be1: tensor<1x1x64xf32>, %g2: tensor<1x1x64xf32>, %be2: tensor<1x1x64xf32>) -> tensor<1x197x64xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %wq = "tosa.const"() <{values = dense<0.01> : tensor<1x64x64xf32>}> : () -> tensor<1x64x64xf32>
  %wk = "tosa.const"() <{values = dense<0.02> : tensor<1x64x64xf32>}> : () -> tensor<1x64x64xf32>
  %wv = "tosa.const"() <{values = dense<0.03> : tensor<1x64x64xf32>}> : () -> tensor<1x64x64xf32>
  %wo = "tosa.const"() <{values = dense<0.04> : tensor<1x64x64xf32>}> : () -> tensor<1x64x64xf32>
  %w1 = "tosa.const"() <{values = dense<0.05> : tensor<1x64x256xf32>}> : () -> tensor<1x64x256xf32>
  %w2 = "tosa.const"() <{values = dense<0.06> : tensor<1x256x64xf32>}> : () -> tensor<1x256x64xf32>
  %scale = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %invd = "tosa.const"() <{values = dense<0.015625> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %rsqrt2 = "tosa.const"() <{values = dense<0.707106769> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %one = "tosa.const"() <{values = dense<1.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %s_heads = tosa.const_shape {values = dense<[197, 4, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_model = tosa.const_shape {values = dense<[1, 197, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  // Q, K, V projections: three GEMMs on the same input.
  %q0 = tosa.matmul %x, %wq, %zp, %zp : (tensor<1x197x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x197x64xf32>
  %q = tosa.add %q0, %bq : (tensor<1x197x64xf32>, tensor<1x1x64xf32>) -> tensor<1x197x64xf32>
  %qr = tosa.reshape %q, %s_heads : (tensor<1x197x64xf32>, !tosa.shape<3>) -> tensor<197x4x16xf32>
  %k0 = tosa.matmul %x, %wk, %zp, %zp : (tensor<1x197x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x197x64xf32>
  %k = tosa.add %k0, %bk : (tensor<1x197x64xf32>, tensor<1x1x64xf32>) -> tensor<1x197x64xf32>
  %kr = tosa.reshape %k, %s_heads : (tensor<1x197x64xf32>, !tosa.shape<3>) -> tensor<197x4x16xf32>
  %v0 = tosa.matmul %x, %wv, %zp, %zp : (tensor<1x197x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x197x64xf32>
  %v = tosa.add %v0, %bv : (tensor<1x197x64xf32>, tensor<1x1x64xf32>) -> tensor<1x197x64xf32>
  %vr = tosa.reshape %v, %s_heads : (tensor<1x197x64xf32>, !tosa.shape<3>) -> tensor<197x4x16xf32>
  // Split heads: Q and V to [H, S, dh], K to [H, dh, S].
  %qh = tosa.transpose %qr {perms = array<i32: 1, 0, 2>} : (tensor<197x4x16xf32>) -> tensor<4x197x16xf32>
  %kh = tosa.transpose %kr {perms = array<i32: 1, 2, 0>} : (tensor<197x4x16xf32>) -> tensor<4x16x197xf32>
  %vh = tosa.transpose %vr {perms = array<i32: 1, 0, 2>} : (tensor<197x4x16xf32>) -> tensor<4x197x16xf32>
  // Attention: scores, scale, mask, softmax, times V.
  %scores = tosa.matmul %qh, %kh, %zp, %zp : (tensor<4x197x16xf32>, tensor<4x16x197xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x197x197xf32>
  %scaled = tosa.mul %scores, %scale, %shift : (tensor<4x197x197xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x197x197xf32>
  %masked = tosa.add %scaled, %mask : (tensor<4x197x197xf32>, tensor<1x1x197xf32>) -> tensor<4x197x197xf32>
  %smax = tosa.reduce_max %masked {axis = 2 : i32} : (tensor<4x197x197xf32>) -> tensor<4x197x1xf32>
  %sd = tosa.sub %masked, %smax : (tensor<4x197x197xf32>, tensor<4x197x1xf32>) -> tensor<4x197x197xf32>
  %se = tosa.exp %sd : (tensor<4x197x197xf32>) -> tensor<4x197x197xf32>
  %ssum = tosa.reduce_sum %se {axis = 2 : i32} : (tensor<4x197x197xf32>) -> tensor<4x197x1xf32>
  %sinv = tosa.reciprocal %ssum : (tensor<4x197x1xf32>) -> tensor<4x197x1xf32>
  %probs = tosa.mul %se, %sinv, %shift : (tensor<4x197x197xf32>, tensor<4x197x1xf32>, tensor<1xi8>) -> tensor<4x197x197xf32>
  %ctx = tosa.matmul %probs, %vh, %zp, %zp : (tensor<4x197x197xf32>, tensor<4x197x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x197x16xf32>
  %ctxt = tosa.transpose %ctx {perms = array<i32: 1, 0, 2>} : (tensor<4x197x16xf32>) -> tensor<197x4x16xf32>
  %ctxm = tosa.reshape %ctxt, %s_model : (tensor<197x4x16xf32>, !tosa.shape<3>) -> tensor<1x197x64xf32>
  // Output projection, bias, residual, LayerNorm.
  %o0 = tosa.matmul %ctxm, %wo, %zp, %zp : (tensor<1x197x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x197x64xf32>
  %o1 = tosa.add %o0, %bo : (tensor<1x197x64xf32>, tensor<1x1x64xf32>) -> tensor<1x197x64xf32>
  %o2 = tosa.add %o1, %x : (tensor<1x197x64xf32>, tensor<1x197x64xf32>) -> tensor<1x197x64xf32>
  %h_s = tosa.reduce_sum %o2 {axis = 2 : i32} : (tensor<1x197x64xf32>) -> tensor<1x197x1xf32>
  %h_mean = tosa.mul %h_s, %invd, %shift : (tensor<1x197x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x197x1xf32>
  %h_xc = tosa.sub %o2, %h_mean : (tensor<1x197x64xf32>, tensor<1x197x1xf32>) -> tensor<1x197x64xf32>
  %h_sq = tosa.mul %h_xc, %h_xc, %shift : (tensor<1x197x64xf32>, tensor<1x197x64xf32>, tensor<1xi8>) -> tensor<1x197x64xf32>
  %h_vs = tosa.reduce_sum %h_sq {axis = 2 : i32} : (tensor<1x197x64xf32>) -> tensor<1x197x1xf32>
  %h_var = tosa.mul %h_vs, %invd, %shift : (tensor<1x197x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x197x1xf32>
  %h_ve = tosa.add %h_var, %eps : (tensor<1x197x1xf32>, tensor<1x1x1xf32>) -> tensor<1x197x1xf32>
  %h_rstd = tosa.rsqrt %h_ve : (tensor<1x197x1xf32>) -> tensor<1x197x1xf32>
  %h_n = tosa.mul %h_xc, %h_rstd, %shift : (tensor<1x197x64xf32>, tensor<1x197x1xf32>, tensor<1xi8>) -> tensor<1x197x64xf32>
  %h_g = tosa.mul %h_n, %g1, %shift : (tensor<1x197x64xf32>, tensor<1x1x64xf32>, tensor<1xi8>) -> tensor<1x197x64xf32>
  %h = tosa.add %h_g, %be1 : (tensor<1x197x64xf32>, tensor<1x1x64xf32>) -> tensor<1x197x64xf32>
  // Feed-forward: GEMM, bias, GELU (erf), GEMM, bias, residual, LayerNorm.
  %f0 = tosa.matmul %h, %w1, %zp, %zp : (tensor<1x197x64xf32>, tensor<1x64x256xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x197x256xf32>
  %f1 = tosa.add %f0, %b1 : (tensor<1x197x256xf32>, tensor<1x1x256xf32>) -> tensor<1x197x256xf32>
  %ga = tosa.mul %f1, %rsqrt2, %shift : (tensor<1x197x256xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x197x256xf32>
  %gb = tosa.erf %ga : (tensor<1x197x256xf32>) -> tensor<1x197x256xf32>
  %gc = tosa.add %gb, %one : (tensor<1x197x256xf32>, tensor<1x1x1xf32>) -> tensor<1x197x256xf32>
  %gd = tosa.mul %f1, %gc, %shift : (tensor<1x197x256xf32>, tensor<1x197x256xf32>, tensor<1xi8>) -> tensor<1x197x256xf32>
  %gelu = tosa.mul %gd, %half, %shift : (tensor<1x197x256xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x197x256xf32>
  %f2 = tosa.matmul %gelu, %w2, %zp, %zp : (tensor<1x197x256xf32>, tensor<1x256x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x197x64xf32>
  %f3 = tosa.add %f2, %b2 : (tensor<1x197x64xf32>, tensor<1x1x64xf32>) -> tensor<1x197x64xf32>
  %f4 = tosa.add %f3, %h : (tensor<1x197x64xf32>, tensor<1x197x64xf32>) -> tensor<1x197x64xf32>
  %out_s = tosa.reduce_sum %f4 {axis = 2 : i32} : (tensor<1x197x64xf32>) -> tensor<1x197x1xf32>
  %out_mean = tosa.mul %out_s, %invd, %shift : (tensor<1x197x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x197x1xf32>
  %out_xc = tosa.sub %f4, %out_mean : (tensor<1x197x64xf32>, tensor<1x197x1xf32>) -> tensor<1x197x64xf32>
  %out_sq = tosa.mul %out_xc, %out_xc, %shift : (tensor<1x197x64xf32>, tensor<1x197x64xf32>, tensor<1xi8>) -> tensor<1x197x64xf32>
  %out_vs = tosa.reduce_sum %out_sq {axis = 2 : i32} : (tensor<1x197x64xf32>) -> tensor<1x197x1xf32>
  %out_var = tosa.mul %out_vs, %invd, %shift : (tensor<1x197x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x197x1xf32>
  %out_ve = tosa.add %out_var, %eps : (tensor<1x197x1xf32>, tensor<1x1x1xf32>) -> tensor<1x197x1xf32>
  %out_rstd = tosa.rsqrt %out_ve : (tensor<1x197x1xf32>) -> tensor<1x197x1xf32>
  %out_n = tosa.mul %out_xc, %out_rstd, %shift : (tensor<1x197x64xf32>, tensor<1x197x1xf32>, tensor<1xi8>) -> tensor<1x197x64xf32>
  %out_g = tosa.mul %out_n, %g2, %shift : (tensor<1x197x64xf32>, tensor<1x1x64xf32>, tensor<1xi8>) -> tensor<1x197x64xf32>
  %out = tosa.add %out_g, %be2 : (tensor<1x197x64xf32>, tensor<1x1x64xf32>) -> tensor<1x197x64xf32>
  return %out : tensor<1x197x64xf32>
}
