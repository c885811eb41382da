// Streamed attention (Lowering.md, "Streamed attention"): with a
// `key_chunk` in its config, the attention tile streams K and V in chunks through one loop with a running maximum (the online
// softmax): per chunk, QK^T of the chunk, its scale and mask, the chunk's
// maximum c, a = exp(m - max(m, c)), m = max(m, c), the sum rescaled by a
// plus the chunk's exp(x - m), the accumulators rescaled by a plus the
// chunk's weights times V; after the loop, the accumulators normalized as
// the model normalized the weights. Two heads of 64, 256 tokens, in the
// TOSA form (head-split transposes fused: K and V copied in a chunk at a
// time), and the same in hand-written linalg with a division instead of a
// reciprocal, maxnumf, the exp of the difference in one op, no mask.

// The T4's 64 KiB a block cannot hold a head's K and V (128 KiB): the
// configuration streams them in chunks of 64 keys, 20.5 KB of tile
// buffers.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=t4" | FileCheck %s --check-prefix=T4
// T4-LABEL: func @attention(
// T4: fuse.group composite rule "attention"
// T4-SAME: schedule = "attention", tile = [1, 8, 0, 0], threads = 64, instruction = "simt", precision = "fp32", key_chunk = 64>
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=t4 report=-" -o /dev/null | FileCheck %s --check-prefix=T4REPORT
// T4REPORT: "rule": "attention"
// T4REPORT: "tile_shared_bytes": 20544,
// T4REPORT: "key_chunk": 64

// The loop: one scf.for over the 256 keys in chunks of 32 carrying the
// running maximum, the sum and the accumulators; K's chunk copied in it;
// the three reductions' loops are gone.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200" | fuse-opt --fuse-lower-groups="tile-sizes=1,8,0,0 key-chunk=32" | FileCheck %s --check-prefix=LOOP
// LOOP-LABEL: func @attention(
// LOOP: scf.forall
// LOOP: scf.for %{{.*}} = %{{.*}} to %c256 step %c32 iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<1x1x8xf32>, tensor<1x1x8xf32>, tensor<1x8x64xf32>)
// LOOP: linalg.transpose ins(%{{.*}} : tensor<1x32x1x64xf32>)
// LOOP: linalg.batch_matmul ins(%{{.*}} : tensor<1x8x64xf32>, tensor<1x64x32xf32>)
// The chunk's maximum c, then a = exp(m - max(m, c)), then m = max(m, c).
// LOOP: arith.maximumf %in, %init
// LOOP: arith.maximumf
// LOOP-NEXT: arith.subf
// LOOP-NEXT: math.exp
// LOOP: arith.maximumf %out, %in
// LOOP: linalg.batch_matmul ins(%{{.*}} : tensor<1x8x32xf32>, tensor<1x32x64xf32>)
// LOOP: scf.yield
// LOOP-NOT: scf.for %
// LOOP: arith.mulf
// LOOP: tensor.parallel_insert_slice
// LOOP-LABEL: func @attention_divided(
// LOOP: scf.for %{{.*}} = %{{.*}} to %c256 step %c32 iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) ->
// LOOP: arith.maxnumf %in, %out
// LOOP: arith.maxnumf
// LOOP-NEXT: arith.subf
// LOOP-NEXT: math.exp
// LOOP: linalg.batch_matmul
// LOOP: scf.yield
// LOOP-NOT: scf.for %
// LOOP: arith.divf
// LOOP: tensor.parallel_insert_slice

// A softmax without its maximum (exp(x) / sum): no online form to merge
// into; the sum's and the product's loops stay apart, each computing its
// chunk of QK^T, and give the same values.
// LOOP-LABEL: func @attention_plain_exp(
// LOOP: scf.for %{{.*}} iter_args(%{{[a-z0-9_]+}} = %{{[a-z0-9_]+}}) -> (tensor<1x8xf32>)
// LOOP: linalg.batch_matmul
// LOOP: scf.for %{{.*}} iter_args(%{{[a-z0-9_]+}} = %{{[a-z0-9_]+}}) -> (tensor<1x8x64xf32>)
// LOOP: linalg.batch_matmul
// LOOP: linalg.batch_matmul
// LOOP-NOT: scf.for %
// LOOP: tensor.parallel_insert_slice

// Fused and unfused agree through the emulated GPU schedule on the CPU:
// tensor cores at fp32 (1e-5) and SIMT, chunks of 32 and the T4's own
// config; the divided form likewise.
// RUN: %check_equivalence %s --function attention --lower-groups --tile-sizes 1,8,0,0 --key-chunk 32 --distribute-threads config --tensor-cores always | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function attention --lower-groups --tile-sizes 1,8,0,0 --key-chunk 32 --distribute-threads config --tensor-cores never | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function attention --target t4 --lower-groups --distribute-threads config | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function attention_divided --lower-groups --tile-sizes 1,16,0,0 --key-chunk 64 --distribute-threads config --tensor-cores always | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function attention_divided --lower-groups --tile-sizes 1,16,0,0 --key-chunk 64 | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function attention_plain_exp --lower-groups --tile-sizes 1,8,0,0 --key-chunk 32 --distribute-threads config | FileCheck %s --check-prefix=EQUIV
// EQUIV-NOT: FAIL
// EQUIV: PASS

// The streamed kernel on tensor cores: mma.sync, no spill, 19.6 KB of
// shared memory (the whole-K/V tile of BERT-base's attention takes 71.7).
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200" | fuse-opt --fuse-configure-groups="tile-sizes=1,8,0,0 key-chunk=32 tensor-cores=always" | fuse-opt --fuse-to-nvptx -o %t.mlir
// RUN: rm -rf %t.ptx && %ptx_stats %t.mlir --out %t.ptx | FileCheck %s --check-prefix=STATS
// STATS: attention__group0_kernel sm_90 {{[0-9]+}} 0/0 0 19648
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx/attention__group0_kernel.ptx
// PTX: .entry attention__group0_kernel
// PTX: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// PTX: ret;

// A chunk that divides no reduction of the tile is an error naming it.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200" | not fuse-opt --fuse-lower-groups="reconfigure=true key-chunk=48" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHUNK
// CHUNK: error: fuse-lower-groups: group 0 (attention): key-chunk 48 must divide its 256 keys and be fewer
// RUN: not fuse-opt %s --fuse-lower-groups="key-chunk=-2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADCHUNK
// BADCHUNK: option 'key-chunk' must be a positive chunk, 0 (the cost model chooses) or -1 (never streamed), got -2
#qkmap = affine_map<(h, i, j) -> (h, i, j)>
#rowmap = affine_map<(h, i, j) -> (h, i)>
func.func @attention(%q: tensor<1x256x128xf32>, %k: tensor<1x256x128xf32>, %v: tensor<1x256x128xf32>, %mask: tensor<1x1x1x256xf32>) -> tensor<1x256x2x64xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %s4 = tosa.const_shape {values = dense<[1, 256, 2, 64]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s3 = tosa.const_shape {values = dense<[2, 256, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s3t = tosa.const_shape {values = dense<[2, 64, 256]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s3s = tosa.const_shape {values = dense<[2, 256, 256]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4s = tosa.const_shape {values = dense<[1, 2, 256, 256]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s4o = tosa.const_shape {values = dense<[1, 2, 256, 64]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %q4 = tosa.reshape %q, %s4 : (tensor<1x256x128xf32>, !tosa.shape<4>) -> tensor<1x256x2x64xf32>
  %k4 = tosa.reshape %k, %s4 : (tensor<1x256x128xf32>, !tosa.shape<4>) -> tensor<1x256x2x64xf32>
  %v4 = tosa.reshape %v, %s4 : (tensor<1x256x128xf32>, !tosa.shape<4>) -> tensor<1x256x2x64xf32>
  %qt = tosa.transpose %q4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x256x2x64xf32>) -> tensor<1x2x256x64xf32>
  %kt = tosa.transpose %k4 {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x256x2x64xf32>) -> tensor<1x2x64x256xf32>
  %vt = tosa.transpose %v4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x256x2x64xf32>) -> tensor<1x2x256x64xf32>
  %q3 = tosa.reshape %qt, %s3 : (tensor<1x2x256x64xf32>, !tosa.shape<3>) -> tensor<2x256x64xf32>
  %k3 = tosa.reshape %kt, %s3t : (tensor<1x2x64x256xf32>, !tosa.shape<3>) -> tensor<2x64x256xf32>
  %v3 = tosa.reshape %vt, %s3 : (tensor<1x2x256x64xf32>, !tosa.shape<3>) -> tensor<2x256x64xf32>
  %s = tosa.matmul %q3, %k3, %zp, %zp : (tensor<2x256x64xf32>, tensor<2x64x256xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x256x256xf32>
  %sr = tosa.reshape %s, %s4s : (tensor<2x256x256xf32>, !tosa.shape<4>) -> tensor<1x2x256x256xf32>
  %sc = tosa.mul %sr, %scale, %shift : (tensor<1x2x256x256xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x256x256xf32>
  %sm = tosa.add %sc, %mask : (tensor<1x2x256x256xf32>, tensor<1x1x1x256xf32>) -> tensor<1x2x256x256xf32>
  %mx = tosa.reduce_max %sm {axis = 3 : i32} : (tensor<1x2x256x256xf32>) -> tensor<1x2x256x1xf32>
  %d = tosa.sub %sm, %mx : (tensor<1x2x256x256xf32>, tensor<1x2x256x1xf32>) -> tensor<1x2x256x256xf32>
  %e = tosa.exp %d : (tensor<1x2x256x256xf32>) -> tensor<1x2x256x256xf32>
  %sum = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x2x256x256xf32>) -> tensor<1x2x256x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<1x2x256x1xf32>) -> tensor<1x2x256x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<1x2x256x256xf32>, tensor<1x2x256x1xf32>, tensor<1xi8>) -> tensor<1x2x256x256xf32>
  %p3 = tosa.reshape %p, %s3s : (tensor<1x2x256x256xf32>, !tosa.shape<3>) -> tensor<2x256x256xf32>
  %o = tosa.matmul %p3, %v3, %zp, %zp : (tensor<2x256x256xf32>, tensor<2x256x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x256x64xf32>
  %o4 = tosa.reshape %o, %s4o : (tensor<2x256x64xf32>, !tosa.shape<4>) -> tensor<1x2x256x64xf32>
  %ot = tosa.transpose %o4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x2x256x64xf32>) -> tensor<1x256x2x64xf32>
  return %ot : tensor<1x256x2x64xf32>
}

func.func @attention_divided(%q: tensor<2x256x64xf32>, %kt: tensor<2x64x256xf32>, %v: tensor<2x256x64xf32>) -> tensor<2x256x64xf32> {
  %zero = arith.constant 0.0 : f32
  %low = arith.constant 0xFF800000 : f32
  %scores0 = tensor.empty() : tensor<2x256x256xf32>
  %scoresz = linalg.fill ins(%zero : f32) outs(%scores0 : tensor<2x256x256xf32>) -> tensor<2x256x256xf32>
  %s0 = linalg.batch_matmul ins(%q, %kt : tensor<2x256x64xf32>, tensor<2x64x256xf32>) outs(%scoresz : tensor<2x256x256xf32>) -> tensor<2x256x256xf32>
  %eighth = arith.constant 0.125 : f32
  %s = linalg.generic {indexing_maps = [#qkmap, #qkmap], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s0 : tensor<2x256x256xf32>) outs(%scores0 : tensor<2x256x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %eighth : f32
    linalg.yield %y : f32
  } -> tensor<2x256x256xf32>
  %rows0 = tensor.empty() : tensor<2x256xf32>
  %lowrows = linalg.fill ins(%low : f32) outs(%rows0 : tensor<2x256xf32>) -> tensor<2x256xf32>
  %mx = linalg.generic {indexing_maps = [#qkmap, #rowmap], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<2x256x256xf32>) outs(%lowrows : tensor<2x256xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maxnumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<2x256xf32>
  %e = linalg.generic {indexing_maps = [#qkmap, #rowmap, #qkmap], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %mx : tensor<2x256x256xf32>, tensor<2x256xf32>) outs(%scores0 : tensor<2x256x256xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    %ex = math.exp %d : f32
    linalg.yield %ex : f32
  } -> tensor<2x256x256xf32>
  %zrows = linalg.fill ins(%zero : f32) outs(%rows0 : tensor<2x256xf32>) -> tensor<2x256xf32>
  %sum = linalg.generic {indexing_maps = [#qkmap, #rowmap], iterator_types = ["parallel", "parallel", "reduction"]} ins(%e : tensor<2x256x256xf32>) outs(%zrows : tensor<2x256xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %a = arith.addf %x, %acc : f32
    linalg.yield %a : f32
  } -> tensor<2x256xf32>
  %p = linalg.generic {indexing_maps = [#qkmap, #rowmap, #qkmap], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %sum : tensor<2x256x256xf32>, tensor<2x256xf32>) outs(%scores0 : tensor<2x256x256xf32>) {
  ^bb0(%x: f32, %l: f32, %o: f32):
    %w = arith.divf %x, %l : f32
    linalg.yield %w : f32
  } -> tensor<2x256x256xf32>
  %out0 = tensor.empty() : tensor<2x256x64xf32>
  %outz = linalg.fill ins(%zero : f32) outs(%out0 : tensor<2x256x64xf32>) -> tensor<2x256x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x256x256xf32>, tensor<2x256x64xf32>) outs(%outz : tensor<2x256x64xf32>) -> tensor<2x256x64xf32>
  return %o : tensor<2x256x64xf32>
}

func.func @attention_plain_exp(%q: tensor<2x256x64xf32>, %kt: tensor<2x64x256xf32>, %v: tensor<2x256x64xf32>) -> tensor<2x256x64xf32> {
  %zero = arith.constant 0.0 : f32
  %low = arith.constant 0xFF800000 : f32
  %scores0 = tensor.empty() : tensor<2x256x256xf32>
  %scoresz = linalg.fill ins(%zero : f32) outs(%scores0 : tensor<2x256x256xf32>) -> tensor<2x256x256xf32>
  %s0 = linalg.batch_matmul ins(%q, %kt : tensor<2x256x64xf32>, tensor<2x64x256xf32>) outs(%scoresz : tensor<2x256x256xf32>) -> tensor<2x256x256xf32>
  %eighth = arith.constant 0.125 : f32
  %s = linalg.generic {indexing_maps = [#qkmap, #qkmap], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s0 : tensor<2x256x256xf32>) outs(%scores0 : tensor<2x256x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %eighth : f32
    linalg.yield %y : f32
  } -> tensor<2x256x256xf32>
  %rows0 = tensor.empty() : tensor<2x256xf32>
  %e = linalg.generic {indexing_maps = [#qkmap, #qkmap], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x256x256xf32>) outs(%scores0 : tensor<2x256x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %ex = math.exp %x : f32
    linalg.yield %ex : f32
  } -> tensor<2x256x256xf32>
  %zrows = linalg.fill ins(%zero : f32) outs(%rows0 : tensor<2x256xf32>) -> tensor<2x256xf32>
  %sum = linalg.generic {indexing_maps = [#qkmap, #rowmap], iterator_types = ["parallel", "parallel", "reduction"]} ins(%e : tensor<2x256x256xf32>) outs(%zrows : tensor<2x256xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %a = arith.addf %x, %acc : f32
    linalg.yield %a : f32
  } -> tensor<2x256xf32>
  %p = linalg.generic {indexing_maps = [#qkmap, #rowmap, #qkmap], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %sum : tensor<2x256x256xf32>, tensor<2x256xf32>) outs(%scores0 : tensor<2x256x256xf32>) {
  ^bb0(%x: f32, %l: f32, %o: f32):
    %w = arith.divf %x, %l : f32
    linalg.yield %w : f32
  } -> tensor<2x256x256xf32>
  %out0 = tensor.empty() : tensor<2x256x64xf32>
  %outz = linalg.fill ins(%zero : f32) outs(%out0 : tensor<2x256x64xf32>) -> tensor<2x256x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x256x256xf32>, tensor<2x256x64xf32>) outs(%outz : tensor<2x256x64xf32>) -> tensor<2x256x64xf32>
  return %o : tensor<2x256x64xf32>
}

