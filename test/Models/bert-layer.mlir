// A BERT encoder layer (hidden 64, 4 heads of 16, sequence 16, FFN 256),
// written in TOSA as an ONNX importer produces it: separate Q/K/V
// projections, head split by reshape + transpose, attention with a mask,
// decomposed softmax, LayerNorm and erf-GELU.
//
// 56 kernels unfused (after lowering to linalg); fused for an H200, 5:
//   0 Q/K/V: one GEMM on concatenated weights, its slices and biases;
//   1 attention: head transposes, QK^T, scale, mask, softmax, x V, transpose;
//   2 output projection + bias + residual + LayerNorm;
//   3 FFN up-projection + bias + GELU;
//   4 FFN down-projection + bias + residual + LayerNorm.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200" | FileCheck %s
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT

// Fused and unfused give the same results on the CPU (seeded random input,
// 1e-5 relative).
// RUN: env FUSE_NUM_THREADS=2 %check_equivalence %s | FileCheck %s --check-prefix=EQUIV
// RUN: env FUSE_NUM_THREADS=1 %check_equivalence %s | FileCheck %s --check-prefix=EQUIV
// EQUIV: memory: arena {{[0-9]+}} bytes for buffers of {{[0-9]+}} bytes
// EQUIV: output 0 {{.*}}: PASS
// EQUIV-NEXT: PASS
// Each group lowered to one tile loop nest (fuse-lower-groups) still gives
// the same results.
// RUN: %check_equivalence %s --lower-groups | FileCheck %s --check-prefix=EQUIV
// And every group on its own:
// RUN: %check_equivalence %s --per-group --lower-groups | FileCheck %s --check-prefix=GROUPS
// GROUPS-COUNT-5: group bert_layer__group{{[0-4]}}: PASS
// GROUPS-NEXT: PASS

// CHECK-LABEL: func @bert_layer
// CHECK: fuse.group horizontal rule "shared_input_contractions"
// CHECK: fuse.group composite rule "attention"
// CHECK: fuse.group vertical rule "contraction_epilogue"
// CHECK: fuse.group vertical rule "contraction_epilogue"
// CHECK: fuse.group diagonal rule "residual_join"
// CHECK-NOT: fuse.group
// REPORT: "kernels_before": {{[0-9]+}}
// REPORT-NEXT: "kernels_after": 5
// REPORT: "left_alone": []
func.func @bert_layer(%x: tensor<1x16x64xf32>, %mask: tensor<1x1x16xf32>, %bq: tensor<1x1x64xf32>, %bk: tensor<1x1x64xf32>, %bv: tensor<1x1x64xf32>, %bo: tensor<1x1x64xf32>, %b1: tensor<1x1x256xf32>, %b2: tensor<1x1x64xf32>, %g1: tensor<1x1x64xf32>, %be1: tensor<1x1x64xf32>, %g2: tensor<1x1x64xf32>, %be2: tensor<1x1x64xf32>) -> tensor<1x16x64xf32> {
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
  %s_heads = tosa.const_shape {values = dense<[16, 4, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_model = tosa.const_shape {values = dense<[1, 16, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  // Q, K, V projections: three GEMMs on the same input.
  %q0 = tosa.matmul %x, %wq, %zp, %zp : (tensor<1x16x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x64xf32>
  %q = tosa.add %q0, %bq : (tensor<1x16x64xf32>, tensor<1x1x64xf32>) -> tensor<1x16x64xf32>
  %qr = tosa.reshape %q, %s_heads : (tensor<1x16x64xf32>, !tosa.shape<3>) -> tensor<16x4x16xf32>
  %k0 = tosa.matmul %x, %wk, %zp, %zp : (tensor<1x16x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x64xf32>
  %k = tosa.add %k0, %bk : (tensor<1x16x64xf32>, tensor<1x1x64xf32>) -> tensor<1x16x64xf32>
  %kr = tosa.reshape %k, %s_heads : (tensor<1x16x64xf32>, !tosa.shape<3>) -> tensor<16x4x16xf32>
  %v0 = tosa.matmul %x, %wv, %zp, %zp : (tensor<1x16x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x64xf32>
  %v = tosa.add %v0, %bv : (tensor<1x16x64xf32>, tensor<1x1x64xf32>) -> tensor<1x16x64xf32>
  %vr = tosa.reshape %v, %s_heads : (tensor<1x16x64xf32>, !tosa.shape<3>) -> tensor<16x4x16xf32>
  // Split heads: Q and V to [H, S, dh], K to [H, dh, S].
  %qh = tosa.transpose %qr {perms = array<i32: 1, 0, 2>} : (tensor<16x4x16xf32>) -> tensor<4x16x16xf32>
  %kh = tosa.transpose %kr {perms = array<i32: 1, 2, 0>} : (tensor<16x4x16xf32>) -> tensor<4x16x16xf32>
  %vh = tosa.transpose %vr {perms = array<i32: 1, 0, 2>} : (tensor<16x4x16xf32>) -> tensor<4x16x16xf32>
  // Attention: scores, scale, mask, softmax, times V.
  %scores = tosa.matmul %qh, %kh, %zp, %zp : (tensor<4x16x16xf32>, tensor<4x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16x16xf32>
  %scaled = tosa.mul %scores, %scale, %shift : (tensor<4x16x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x16x16xf32>
  %masked = tosa.add %scaled, %mask : (tensor<4x16x16xf32>, tensor<1x1x16xf32>) -> tensor<4x16x16xf32>
  %smax = tosa.reduce_max %masked {axis = 2 : i32} : (tensor<4x16x16xf32>) -> tensor<4x16x1xf32>
  %sd = tosa.sub %masked, %smax : (tensor<4x16x16xf32>, tensor<4x16x1xf32>) -> tensor<4x16x16xf32>
  %se = tosa.exp %sd : (tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %ssum = tosa.reduce_sum %se {axis = 2 : i32} : (tensor<4x16x16xf32>) -> tensor<4x16x1xf32>
  %sinv = tosa.reciprocal %ssum : (tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %probs = tosa.mul %se, %sinv, %shift : (tensor<4x16x16xf32>, tensor<4x16x1xf32>, tensor<1xi8>) -> tensor<4x16x16xf32>
  %ctx = tosa.matmul %probs, %vh, %zp, %zp : (tensor<4x16x16xf32>, tensor<4x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16x16xf32>
  %ctxt = tosa.transpose %ctx {perms = array<i32: 1, 0, 2>} : (tensor<4x16x16xf32>) -> tensor<16x4x16xf32>
  %ctxm = tosa.reshape %ctxt, %s_model : (tensor<16x4x16xf32>, !tosa.shape<3>) -> tensor<1x16x64xf32>
  // Output projection, bias, residual, LayerNorm.
  %o0 = tosa.matmul %ctxm, %wo, %zp, %zp : (tensor<1x16x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x64xf32>
  %o1 = tosa.add %o0, %bo : (tensor<1x16x64xf32>, tensor<1x1x64xf32>) -> tensor<1x16x64xf32>
  %o2 = tosa.add %o1, %x : (tensor<1x16x64xf32>, tensor<1x16x64xf32>) -> tensor<1x16x64xf32>
  %h_s = tosa.reduce_sum %o2 {axis = 2 : i32} : (tensor<1x16x64xf32>) -> tensor<1x16x1xf32>
  %h_mean = tosa.mul %h_s, %invd, %shift : (tensor<1x16x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x16x1xf32>
  %h_xc = tosa.sub %o2, %h_mean : (tensor<1x16x64xf32>, tensor<1x16x1xf32>) -> tensor<1x16x64xf32>
  %h_sq = tosa.mul %h_xc, %h_xc, %shift : (tensor<1x16x64xf32>, tensor<1x16x64xf32>, tensor<1xi8>) -> tensor<1x16x64xf32>
  %h_vs = tosa.reduce_sum %h_sq {axis = 2 : i32} : (tensor<1x16x64xf32>) -> tensor<1x16x1xf32>
  %h_var = tosa.mul %h_vs, %invd, %shift : (tensor<1x16x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x16x1xf32>
  %h_ve = tosa.add %h_var, %eps : (tensor<1x16x1xf32>, tensor<1x1x1xf32>) -> tensor<1x16x1xf32>
  %h_rstd = tosa.rsqrt %h_ve : (tensor<1x16x1xf32>) -> tensor<1x16x1xf32>
  %h_n = tosa.mul %h_xc, %h_rstd, %shift : (tensor<1x16x64xf32>, tensor<1x16x1xf32>, tensor<1xi8>) -> tensor<1x16x64xf32>
  %h_g = tosa.mul %h_n, %g1, %shift : (tensor<1x16x64xf32>, tensor<1x1x64xf32>, tensor<1xi8>) -> tensor<1x16x64xf32>
  %h = tosa.add %h_g, %be1 : (tensor<1x16x64xf32>, tensor<1x1x64xf32>) -> tensor<1x16x64xf32>
  // Feed-forward: GEMM, bias, GELU (erf), GEMM, bias, residual, LayerNorm.
  %f0 = tosa.matmul %h, %w1, %zp, %zp : (tensor<1x16x64xf32>, tensor<1x64x256xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x256xf32>
  %f1 = tosa.add %f0, %b1 : (tensor<1x16x256xf32>, tensor<1x1x256xf32>) -> tensor<1x16x256xf32>
  %ga = tosa.mul %f1, %rsqrt2, %shift : (tensor<1x16x256xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x16x256xf32>
  %gb = tosa.erf %ga : (tensor<1x16x256xf32>) -> tensor<1x16x256xf32>
  %gc = tosa.add %gb, %one : (tensor<1x16x256xf32>, tensor<1x1x1xf32>) -> tensor<1x16x256xf32>
  %gd = tosa.mul %f1, %gc, %shift : (tensor<1x16x256xf32>, tensor<1x16x256xf32>, tensor<1xi8>) -> tensor<1x16x256xf32>
  %gelu = tosa.mul %gd, %half, %shift : (tensor<1x16x256xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x16x256xf32>
  %f2 = tosa.matmul %gelu, %w2, %zp, %zp : (tensor<1x16x256xf32>, tensor<1x256x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x64xf32>
  %f3 = tosa.add %f2, %b2 : (tensor<1x16x64xf32>, tensor<1x1x64xf32>) -> tensor<1x16x64xf32>
  %f4 = tosa.add %f3, %h : (tensor<1x16x64xf32>, tensor<1x16x64xf32>) -> tensor<1x16x64xf32>
  %out_s = tosa.reduce_sum %f4 {axis = 2 : i32} : (tensor<1x16x64xf32>) -> tensor<1x16x1xf32>
  %out_mean = tosa.mul %out_s, %invd, %shift : (tensor<1x16x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x16x1xf32>
  %out_xc = tosa.sub %f4, %out_mean : (tensor<1x16x64xf32>, tensor<1x16x1xf32>) -> tensor<1x16x64xf32>
  %out_sq = tosa.mul %out_xc, %out_xc, %shift : (tensor<1x16x64xf32>, tensor<1x16x64xf32>, tensor<1xi8>) -> tensor<1x16x64xf32>
  %out_vs = tosa.reduce_sum %out_sq {axis = 2 : i32} : (tensor<1x16x64xf32>) -> tensor<1x16x1xf32>
  %out_var = tosa.mul %out_vs, %invd, %shift : (tensor<1x16x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x16x1xf32>
  %out_ve = tosa.add %out_var, %eps : (tensor<1x16x1xf32>, tensor<1x1x1xf32>) -> tensor<1x16x1xf32>
  %out_rstd = tosa.rsqrt %out_ve : (tensor<1x16x1xf32>) -> tensor<1x16x1xf32>
  %out_n = tosa.mul %out_xc, %out_rstd, %shift : (tensor<1x16x64xf32>, tensor<1x16x1xf32>, tensor<1xi8>) -> tensor<1x16x64xf32>
  %out_g = tosa.mul %out_n, %g2, %shift : (tensor<1x16x64xf32>, tensor<1x1x64xf32>, tensor<1xi8>) -> tensor<1x16x64xf32>
  %out = tosa.add %out_g, %be2 : (tensor<1x16x64xf32>, tensor<1x1x64xf32>) -> tensor<1x16x64xf32>
  return %out : tensor<1x16x64xf32>
}
