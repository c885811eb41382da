// The attention schedule (Lowering.md, "Attention"): BERT-base's
// self-attention (12 heads of 64, 128 tokens, in its TOSA form with the
// head-split reshapes and transposes) is one kernel whose blocks each take
// a tile of query rows of one head: its Q rows, the head's K and V (the
// transposes fused: copied once per block, not once per row), QK^T and the
// product with V on tensor cores (mma.sync, fp32 from three TF32
// products), the operands read in place from the tile buffers (no cp.async
// staging), the scale, mask and softmax in between. The configuration
// lowers each candidate tile (more rows per block) on a copy and predicts
// its phases: on the H200, 8 rows a block (192 blocks of 2 warps).
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200" | FileCheck %s --check-prefix=H200
// H200: fuse.group composite rule "attention"
// H200-SAME: #fuse.lowering_config<schedule = "attention", tile = [1, 8, 0, 0], threads = 64, instruction = "mma_sync", precision = "fp32">
// SIMT (tensor-cores=never): 4 rows a block; tf32 keeps the tile.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 tensor-cores=never" | FileCheck %s --check-prefix=SIMT
// SIMT: #fuse.lowering_config<schedule = "attention", tile = [1, 4, 0, 0], threads = 64, instruction = "simt", precision = "fp32">
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 precision=tf32" | FileCheck %s --check-prefix=TF32
// TF32: #fuse.lowering_config<schedule = "attention", tile = [1, 8, 0, 0], threads = 64, instruction = "mma_sync", precision = "tf32">
// The report gives the measured tile (its inputs through L2, its buffers)
// and the predicted time, by the phase model (Lowering.md, "Predicted
// kernel time"), worked out: per block, issue cycles: a load and a store
// per element the 3 transposes copy in (16896) and per point of the 18
// other ops but the 4 that run on the products' accumulators on tensor
// cores (QK^T's fill, scale and mask, P.V's fill: 3584 of the 9240
// points): 2 x (16896 + 5656) / 32 = 1409.5; QK^T's tensor issue (16 x
// 128 padded outputs x K 64 x 3 products / 512) 768, P.V's (16 x 64 x 128
// x 3 / 512) 768 (both above their fragment loads and splitting): 2945.5.
// Latency: 3 copies x 600 + 14 phases x 64 + the products' chains (8 and
// 16 K steps x 3 products x 32 cycles): 5000. 192 blocks: 2 on the busiest
// SM, both resident (one wave):
// max(2 x 2945.5, 2945.5 + 5000) = 7945.5 cycles at 2.006 GHz = 3.96 us,
// plus the 3 us launch.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT
// REPORT: "rule": "attention"
// REPORT: "schedule": "attention"
// REPORT: "blocks": 192,
// REPORT-NEXT: "tile_input_bytes": 68096,
// REPORT-NEXT: "tile_shared_bytes": 75840,
// REPORT-NEXT: "instruction": "mma_sync",
// REPORT: "predicted": {
// REPORT-NEXT: "us": 6.95{{[0-9]*}},
// REPORT-NEXT: "bound": "latency",
// REPORT-NEXT: "blocks_per_sm": 2,
// The T4's 64 KiB of shared memory per block cannot hold a head's K and V
// (64 KiB alone): its tiles stream them in chunks of 64 keys through an
// online softmax (Lowering.md, "Streamed attention"), SIMT (the T4 has
// no TF32 tensor cores), 18.9 us predicted.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=t4" | FileCheck %s --check-prefix=T4
// T4: fuse.group composite rule "attention"
// T4-SAME: #fuse.lowering_config<schedule = "attention", tile = [1, 8, 0, 0], threads = 64, instruction = "simt", precision = "fp32", key_chunk = 64>
// Fused and unfused agree through the emulated GPU schedule on the CPU:
// tensor cores at fp32 (1e-5), SIMT, and tf32 (its one product per
// multiply-add: about 1e-3 of the largest output).
// RUN: %check_equivalence %s --lower-groups --distribute-threads config | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --lower-groups --distribute-threads config --tensor-cores never | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --lower-groups --distribute-threads config --precision tf32 --rtol 2e-2 --atol 1e-3 | FileCheck %s --check-prefix=EQUIV
// EQUIV-NOT: FAIL
// EQUIV: PASS
// In the kernel's PTX both products are on tensor cores (8 rows padded to
// one 16-row tile), and nothing is staged by cp.async (every operand is a
// tile buffer).
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200" | fuse-opt --fuse-to-nvptx -o %t.mlir
// RUN: rm -rf %t.ptx && %ptx_stats %t.mlir --out %t.ptx > /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx/attention__group0_kernel.ptx
// PTX: .entry attention__group0_kernel
// PTX-NOT: cp.async
// PTX: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// PTX-NOT: cp.async
// PTX: ret;
func.func @attention(%q: tensor<1x128x768xf32>, %k: tensor<1x128x768xf32>, %v: tensor<1x128x768xf32>, %mask: tensor<1x1x1x128xf32>) -> tensor<1x128x12x64xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %s4 = tosa.const_shape {values = dense<[1, 128, 12, 64]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s3 = tosa.const_shape {values = dense<[12, 128, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s3t = tosa.const_shape {values = dense<[12, 64, 128]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s3s = tosa.const_shape {values = dense<[12, 128, 128]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4s = tosa.const_shape {values = dense<[1, 12, 128, 128]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s4o = tosa.const_shape {values = dense<[1, 12, 128, 64]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %q4 = tosa.reshape %q, %s4 : (tensor<1x128x768xf32>, !tosa.shape<4>) -> tensor<1x128x12x64xf32>
  %k4 = tosa.reshape %k, %s4 : (tensor<1x128x768xf32>, !tosa.shape<4>) -> tensor<1x128x12x64xf32>
  %v4 = tosa.reshape %v, %s4 : (tensor<1x128x768xf32>, !tosa.shape<4>) -> tensor<1x128x12x64xf32>
  %qt = tosa.transpose %q4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x128x12x64xf32>) -> tensor<1x12x128x64xf32>
  %kt = tosa.transpose %k4 {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x128x12x64xf32>) -> tensor<1x12x64x128xf32>
  %vt = tosa.transpose %v4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x128x12x64xf32>) -> tensor<1x12x128x64xf32>
  %q3 = tosa.reshape %qt, %s3 : (tensor<1x12x128x64xf32>, !tosa.shape<3>) -> tensor<12x128x64xf32>
  %k3 = tosa.reshape %kt, %s3t : (tensor<1x12x64x128xf32>, !tosa.shape<3>) -> tensor<12x64x128xf32>
  %v3 = tosa.reshape %vt, %s3 : (tensor<1x12x128x64xf32>, !tosa.shape<3>) -> tensor<12x128x64xf32>
  %s = tosa.matmul %q3, %k3, %zp, %zp : (tensor<12x128x64xf32>, tensor<12x64x128xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<12x128x128xf32>
  %sr = tosa.reshape %s, %s4s : (tensor<12x128x128xf32>, !tosa.shape<4>) -> tensor<1x12x128x128xf32>
  %sc = tosa.mul %sr, %scale, %shift : (tensor<1x12x128x128xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x12x128x128xf32>
  %sm = tosa.add %sc, %mask : (tensor<1x12x128x128xf32>, tensor<1x1x1x128xf32>) -> tensor<1x12x128x128xf32>
  %mx = tosa.reduce_max %sm {axis = 3 : i32} : (tensor<1x12x128x128xf32>) -> tensor<1x12x128x1xf32>
  %d = tosa.sub %sm, %mx : (tensor<1x12x128x128xf32>, tensor<1x12x128x1xf32>) -> tensor<1x12x128x128xf32>
  %e = tosa.exp %d : (tensor<1x12x128x128xf32>) -> tensor<1x12x128x128xf32>
  %sum = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x12x128x128xf32>) -> tensor<1x12x128x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<1x12x128x1xf32>) -> tensor<1x12x128x1xf32>
  %p = tosa.mul %e, %inv, %shift : (tensor<1x12x128x128xf32>, tensor<1x12x128x1xf32>, tensor<1xi8>) -> tensor<1x12x128x128xf32>
  %p3 = tosa.reshape %p, %s3s : (tensor<1x12x128x128xf32>, !tosa.shape<3>) -> tensor<12x128x128xf32>
  %o = tosa.matmul %p3, %v3, %zp, %zp : (tensor<12x128x128xf32>, tensor<12x128x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<12x128x64xf32>
  %o4 = tosa.reshape %o, %s4o : (tensor<12x128x64xf32>, !tosa.shape<4>) -> tensor<1x12x128x64xf32>
  %ot = tosa.transpose %o4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x12x128x64xf32>) -> tensor<1x128x12x64xf32>
  return %ot : tensor<1x128x12x64xf32>
}
