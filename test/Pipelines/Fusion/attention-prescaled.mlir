// Attention as torch's nn.MultiheadAttention exports it (ViT-B/16's: 197
// tokens, 12 heads of 64, one [197, 1, 2304] in-projection sliced into Q,
// K and V): Q is transposed to heads and scaled by 1/sqrt(64) before QK^T.
// The attention rule takes elementwise ops on a product's operand alone
// after its head transpose (Q's scaling), so the transposes, the scaling,
// both products, the softmax and the transpose after are one kernel. Its
// 197 query rows take 32-row tiles on tensor cores, the last one moved
// back over the one before it (overlapping tiles: 197 is prime).
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200" | FileCheck %s
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT
// Fused against unfused, and through the GPU schedule (tensor-core
// products, each block's threads emulated) on the CPU:
// RUN: %check_equivalence %s --function vit_attention | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function vit_attention --lower-groups --distribute-threads config --atol 1e-5 | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function scaled_escapes | FileCheck %s --check-prefix=EQUIV
// EQUIV-NOT: FAIL
// EQUIV: PASS

// CHECK-LABEL: func @vit_attention
// CHECK: fuse.group horizontal rule "sibling_merge"
// CHECK: fuse.group composite rule "attention"
// CHECK-SAME: schedule = "attention", tile = [32, 1, 0], {{.*}}instruction = "mma_sync"
// CHECK: linalg.transpose
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.mulf
// CHECK: linalg.batch_matmul
// CHECK-COUNT-2: linalg.reduce
// CHECK: linalg.batch_matmul
// CHECK: linalg.transpose
// CHECK: fuse.yield
// CHECK: fuse.group single
// CHECK: math.tanh
// CHECK-NOT: fuse.group
// CHECK: return
// REPORT: "kernels_after": 3

// Negative: the scaled Q is also returned, so the scaling stays outside
// the attention kernel (its result leaves the group anyway); the
// transpose before it does too (it no longer feeds a product directly).
// CHECK-LABEL: func @scaled_escapes
// CHECK: fuse.group single
// CHECK: arith.mulf
// CHECK: fuse.group composite rule "attention"
// CHECK-NOT: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: linalg.batch_matmul
func.func @vit_attention(%qkv: tensor<197x1x2304xf32>) -> tensor<197x12x64xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %s0 = tosa.const_shape {values = dense<[0, 0, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s1 = tosa.const_shape {values = dense<[0, 0, 768]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s2 = tosa.const_shape {values = dense<[0, 0, 1536]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %sz = tosa.const_shape {values = dense<[197, 1, 768]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %heads = tosa.const_shape {values = dense<[197, 12, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %q0 = tosa.slice %qkv, %s0, %sz : (tensor<197x1x2304xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<197x1x768xf32>
  %k0 = tosa.slice %qkv, %s1, %sz : (tensor<197x1x2304xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<197x1x768xf32>
  %v0 = tosa.slice %qkv, %s2, %sz : (tensor<197x1x2304xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<197x1x768xf32>
  %q1 = tosa.reshape %q0, %heads : (tensor<197x1x768xf32>, !tosa.shape<3>) -> tensor<197x12x64xf32>
  %k1 = tosa.reshape %k0, %heads : (tensor<197x1x768xf32>, !tosa.shape<3>) -> tensor<197x12x64xf32>
  %v1 = tosa.reshape %v0, %heads : (tensor<197x1x768xf32>, !tosa.shape<3>) -> tensor<197x12x64xf32>
  %q = tosa.transpose %q1 {perms = array<i32: 1, 0, 2>} : (tensor<197x12x64xf32>) -> tensor<12x197x64xf32>
  %qs = tosa.mul %q, %scale, %shift : (tensor<12x197x64xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<12x197x64xf32>
  %kt = tosa.transpose %k1 {perms = array<i32: 1, 2, 0>} : (tensor<197x12x64xf32>) -> tensor<12x64x197xf32>
  %v = tosa.transpose %v1 {perms = array<i32: 1, 0, 2>} : (tensor<197x12x64xf32>) -> tensor<12x197x64xf32>
  %s = tosa.matmul %qs, %kt, %zp, %zp : (tensor<12x197x64xf32>, tensor<12x64x197xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<12x197x197xf32>
  %mx = tosa.reduce_max %s {axis = 2 : i32} : (tensor<12x197x197xf32>) -> tensor<12x197x1xf32>
  %d = tosa.sub %s, %mx : (tensor<12x197x197xf32>, tensor<12x197x1xf32>) -> tensor<12x197x197xf32>
  %e = tosa.exp %d : (tensor<12x197x197xf32>) -> tensor<12x197x197xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<12x197x197xf32>) -> tensor<12x197x1xf32>
  %r = tosa.reciprocal %sum : (tensor<12x197x1xf32>) -> tensor<12x197x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<12x197x197xf32>, tensor<12x197x1xf32>, tensor<1xi8>) -> tensor<12x197x197xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<12x197x197xf32>, tensor<12x197x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<12x197x64xf32>
  %ot = tosa.transpose %o {perms = array<i32: 1, 0, 2>} : (tensor<12x197x64xf32>) -> tensor<197x12x64xf32>
  %out = tosa.tanh %ot : (tensor<197x12x64xf32>) -> tensor<197x12x64xf32>
  return %out : tensor<197x12x64xf32>
}

func.func @scaled_escapes(%q: tensor<197x12x64xf32>, %k: tensor<12x64x197xf32>, %v: tensor<12x197x64xf32>) -> (tensor<12x197x64xf32>, tensor<12x197x64xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %qt = tosa.transpose %q {perms = array<i32: 1, 0, 2>} : (tensor<197x12x64xf32>) -> tensor<12x197x64xf32>
  %qs = tosa.mul %qt, %scale, %shift : (tensor<12x197x64xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<12x197x64xf32>
  %s = tosa.matmul %qs, %k, %zp, %zp : (tensor<12x197x64xf32>, tensor<12x64x197xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<12x197x197xf32>
  %mx = tosa.reduce_max %s {axis = 2 : i32} : (tensor<12x197x197xf32>) -> tensor<12x197x1xf32>
  %d = tosa.sub %s, %mx : (tensor<12x197x197xf32>, tensor<12x197x1xf32>) -> tensor<12x197x197xf32>
  %e = tosa.exp %d : (tensor<12x197x197xf32>) -> tensor<12x197x197xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<12x197x197xf32>) -> tensor<12x197x1xf32>
  %r = tosa.reciprocal %sum : (tensor<12x197x1xf32>) -> tensor<12x197x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<12x197x197xf32>, tensor<12x197x1xf32>, tensor<1xi8>) -> tensor<12x197x197xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<12x197x197xf32>, tensor<12x197x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<12x197x64xf32>
  return %o, %qs : tensor<12x197x64xf32>, tensor<12x197x64xf32>
}
