// Tensor-core tiles for loops with no usable divisor: ViT's 197 tokens (a
// prime) leave a tile that divides the rows 1 row or all 197, so before
// this every GEMM of such a network ran as SIMT. A row loop (the innermost
// outside N) and N may also take 16, 32, 64 or 128 points where that does
// not divide them: the last tile is moved back to end at the extent
// (min(iv, extent - tile)), overlapping the one before it, so every tile
// is full and static; the rows two tiles share are computed by both and
// written twice with the same values. That is allowed only where no tile
// reads what a tile writes (the roots and returned values computed into
// fresh tensors, the contraction starting from a fill); a matmul that
// accumulates onto its output (@accumulate) keeps dividing tiles, since
// a moved-back tile would add its products to rows the tile before it had
// already finished. Split-K keeps its partial sums per tile, so it splits
// overlapping tiles too (@residual with split-k=4).
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200" | FileCheck %s --check-prefix=CONFIG
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 tensor-cores=always" | FileCheck %s --check-prefix=ALWAYS
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200" | fuse-opt --fuse-lower-groups | FileCheck %s --check-prefix=TILED
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200" | fuse-opt --fuse-to-nvptx="target=h200 format=isa" 2>/dev/null | FileCheck %s --check-prefix=PTX
// A tile size given that does not divide a loop: overlapping tiles where
// the group allows them, else an error naming the root and the loop.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200" | not fuse-opt --fuse-to-nvptx="target=h200 tile-sizes=100" 2>&1 | FileCheck %s --check-prefix=GIVEN
// GIVEN: error: fuse-lower-groups: group 0: option 'tile-sizes' (100) gives 100 for loop 0 of its root 'linalg.matmul', which has 197 iterations: a partial tile would need a buffer of dynamic shape in the kernel, and the group's tiles cannot overlap instead (it reads what it writes); give a divisor of 197 (or 0 to leave the loop whole)

// Fused and tiled (the GPU schedule, each block's threads emulated) against
// unfused, random inputs and weights:
// RUN: %check_equivalence %s --function mlp --lower-groups --distribute-threads config | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function residual --lower-groups --distribute-threads config --atol 5e-5 | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function residual --lower-groups --distribute-threads config --split-k 4 --atol 5e-5 | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function heads --lower-groups --distribute-threads config --atol 5e-5 | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function gemm --lower-groups --distribute-threads config --tensor-cores always --atol 5e-5 | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function accumulate --lower-groups --distribute-threads config --tensor-cores always --atol 5e-5 | FileCheck %s --check-prefix=EQUIV
// EQUIV: PASS
// EQUIV-NOT: FAIL

// 197 rows by 128 (2 tiles, the last over rows 69-196) and N by 96, with
// split-K (each tile's partial sums its own).
// CONFIG-LABEL: func.func @mlp
// CONFIG: tile = [1, 128, 96], {{.*}}instruction = "mma_sync"{{.*}}split_k =
// TILED-DAG: #[[ROWS:.+]] = affine_map<(d0) -> (69, d0)>
// TILED-LABEL: func.func @mlp
// TILED: scf.forall (%{{.*}}, %[[M:.+]], %{{.*}}) = (0, 0, 0) to (1, 197, 384) step (1, 128, 96)
// TILED: %[[AT:.+]] = affine.min #[[ROWS]](%[[M]])
// TILED: tensor.extract_slice %{{.*}}[%{{.*}}, %[[AT]], 0] [1, 128, 256] [1, 1, 1] : tensor<1x197x256xf32> to tensor<1x128x256xf32>
// TILED: tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%{{.*}}, %[[AT]], %{{.*}}] [1, 128, 96]
// PTX-LABEL: gpu.binary @mlp__group0
// PTX: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
func.func @mlp(%x: tensor<1x197x256xf32>) -> tensor<1x197x384xf32> {
  %w = "tosa.const"() {values = dense<0.01> : tensor<1x256x384xf32>} : () -> tensor<1x256x384xf32>
  %b = "tosa.const"() {values = dense<0.5> : tensor<1x1x384xf32>} : () -> tensor<1x1x384xf32>
  %z = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %m = tosa.matmul %x, %w, %z, %z : (tensor<1x197x256xf32>, tensor<1x256x384xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x197x384xf32>
  %a = tosa.add %m, %b : (tensor<1x197x384xf32>, tensor<1x1x384xf32>) -> tensor<1x197x384xf32>
  %t = tosa.tanh %a : (tensor<1x197x384xf32>) -> tensor<1x197x384xf32>
  return %t : tensor<1x197x384xf32>
}

// The contraction is the root, from its fill: 131 rows (a prime over
// 128; 77 = 7 x 11 has a divisor from 16 to 128, 77, and keeps it).
// CONFIG-LABEL: func.func @gemm
// ALWAYS-LABEL: func.func @gemm
// ALWAYS: tile = [1, {{16|32|64|128}}, {{[0-9]+}}, 0], {{.*}}instruction = "mma_sync"
// ALWAYS-LABEL: func.func @gemm77
// ALWAYS: tile = [1, 77, {{[0-9]+}}, 0], {{.*}}instruction = "mma_sync"
func.func @gemm(%x: tensor<1x131x128xf32>, %w: tensor<1x128x96xf32>) -> tensor<1x131x96xf32> {
  %z = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %m = tosa.matmul %x, %w, %z, %z : (tensor<1x131x128xf32>, tensor<1x128x96xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x131x96xf32>
  return %m : tensor<1x131x96xf32>
}
func.func @gemm77(%x: tensor<1x77x128xf32>, %w: tensor<1x128x96xf32>) -> tensor<1x77x96xf32> {
  %z = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %m = tosa.matmul %x, %w, %z, %z : (tensor<1x77x128xf32>, tensor<1x128x96xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x77x96xf32>
  return %m : tensor<1x77x96xf32>
}

// A residual read by every tile (an input: tiles may overlap).
// CONFIG-LABEL: func.func @residual
// CONFIG: tile = [1, {{16|32|64|128}}, {{[0-9]+}}], {{.*}}instruction = "mma_sync"
func.func @residual(%x: tensor<1x197x256xf32>, %w: tensor<1x256x128xf32>, %r: tensor<1x197x128xf32>) -> tensor<1x197x128xf32> {
  %z = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %m = tosa.matmul %x, %w, %z, %z : (tensor<1x197x256xf32>, tensor<1x256x128xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x197x128xf32>
  %a = tosa.add %m, %r : (tensor<1x197x128xf32>, tensor<1x197x128xf32>) -> tensor<1x197x128xf32>
  return %a : tensor<1x197x128xf32>
}

// Attention scores per head: rows and N (197 keys) both overlap.
// CONFIG-LABEL: func.func @heads
// CONFIG: tile = [3, 32, 64, 0], {{.*}}instruction = "mma_sync"
// TILED-LABEL: func.func @heads
// TILED: scf.forall {{.*}} to (12, 197, 197) step (3, 32, 64)
// TILED-COUNT-2: affine.min
func.func @heads(%q: tensor<12x197x64xf32>, %k: tensor<12x64x197xf32>) -> tensor<12x197x197xf32> {
  %z = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %m = tosa.matmul %q, %k, %z, %z : (tensor<12x197x64xf32>, tensor<12x64x197xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<12x197x197xf32>
  return %m : tensor<12x197x197xf32>
}

// Accumulates onto %c: tiles divide the loops (1 row), none overlap.
// CONFIG-LABEL: func.func @accumulate
// ALWAYS-LABEL: func.func @accumulate
// ALWAYS: tile = [1, 64, 0], {{.*}}instruction = "mma_sync"
// TILED-LABEL: func.func @accumulate
// TILED-NOT: affine.min
// TILED: return
func.func @accumulate(%x: tensor<197x256xf32>, %w: tensor<256x128xf32>, %c: tensor<197x128xf32>) -> tensor<197x128xf32> {
  %m = linalg.matmul ins(%x, %w : tensor<197x256xf32>, tensor<256x128xf32>) outs(%c : tensor<197x128xf32>) -> tensor<197x128xf32>
  return %m : tensor<197x128xf32>
}
