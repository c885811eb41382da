// The instruction mix of fuse-to-nvptx's kernels (LLVM's NVPTX backend, no
// ptxas needed): on the SIMT schedule (tensor-cores=never) every
// multiply-accumulate of the ResNet bottleneck's three convolutions is an
// fma, no index is divided in 64 bits (the
// loop bounds and sizes are constants in each kernel, and a reduction over
// (kh, kw, c) is a loop nest, not one linear loop recovering its indices),
// and the kernels take no index parameters besides their buffers (a
// split-K kernel's partials and counters among them).
// RUN: fuse-opt %fuse_src_root/test/Models/resnet-bottleneck.mlir \
// RUN:   --fuse-fusion-pipeline="target=h200" -o %t.fused.mlir
// RUN: fuse-opt %t.fused.mlir --fuse-to-nvptx="tensor-cores=never" -o %t.mlir
// RUN: rm -rf %t.ptx && %ptx_stats %t.mlir --out %t.ptx
// RUN: cat %t.ptx/resnet_bottleneck__group0_kernel.ptx | FileCheck %s
// RUN: cat %t.ptx/resnet_bottleneck__group1_kernel.ptx | FileCheck %s
// RUN: cat %t.ptx/resnet_bottleneck__group2_kernel.ptx | FileCheck %s
// RUN: fuse-opt %t.fused.mlir --fuse-to-nvptx \
// RUN:   --mlir-print-ir-after=fuse-contract-float -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ARGS
// ARGS-COUNT-3: gpu.func @resnet_bottleneck__group{{[0-2]}}_kernel({{(%arg[0-9]+: memref<[0-9x]+x[fi]32>(, )?)+}}) {{workgroup|kernel}}
// CHECK: .entry
// CHECK-NOT: mul.rn.f32
// CHECK-NOT: {{(div|rem)}}.{{[us]}}64
// CHECK: fma.rn.f32
// CHECK-NOT: mul.rn.f32
// CHECK-NOT: {{(div|rem)}}.{{[us]}}64
// CHECK: ret;
//
// contract=false keeps a multiply and its add two rounded instructions.
// RUN: fuse-opt %t.fused.mlir --fuse-to-nvptx="contract=false tensor-cores=never" -o %t.nofma.mlir
// RUN: rm -rf %t.nofma && %ptx_stats %t.nofma.mlir --out %t.nofma
// RUN: cat %t.nofma/resnet_bottleneck__group1_kernel.ptx | FileCheck %s --check-prefix=NOFMA
// NOFMA-NOT: fma.rn.f32
// NOFMA: mul.rn.f32
// NOFMA-NOT: fma.rn.f32
// NOFMA: add.rn.f32
// NOFMA-NOT: fma.rn.f32
//
// On tensor cores (tensor-cores=always: every group's config chosen anew
// with mma_sync where the schedule computes its convolution), every
// convolution kernel is TF32 mma.sync m16n8k8, three per K step for fp32
// accuracy (one with precision=tf32), its operands staged through shared
// memory by cp.async (16 bytes a copy along the input channels, .cg; with
// S stages S - 1 chunks in flight while one is
// computed: wait_group S - 2; the loop's blocks may be laid out with the
// products before the wait), still no 64-bit division.
// RUN: fuse-opt %t.fused.mlir --fuse-to-nvptx="tensor-cores=always" -o %t.mma.mlir
// RUN: rm -rf %t.mma && %ptx_stats %t.mma.mlir --out %t.mma
// RUN: cat %t.mma/resnet_bottleneck__group0_kernel.ptx | FileCheck %s --check-prefix=MMA
// RUN: cat %t.mma/resnet_bottleneck__group1_kernel.ptx | FileCheck %s --check-prefix=MMA
// RUN: cat %t.mma/resnet_bottleneck__group2_kernel.ptx | FileCheck %s --check-prefix=MMA
// MMA: .entry
// MMA-NOT: {{(div|rem)}}.{{[us]}}64
// MMA-DAG: cp.async.ca.shared.global
// MMA-DAG: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16
// MMA: cp.async.commit_group
// MMA-DAG: cp.async.wait_group {{[[:space:]]*}}{{[0-2]}};
// MMA-DAG: bar.sync
// MMA-DAG: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// MMA-DAG: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// MMA-DAG: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// MMA-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// MMA-NOT: {{(div|rem)}}.{{[us]}}64
// MMA: ret;
// The input's fragments (K-fastest: channels innermost) load by ldmatrix
// (above); with ldmatrix=false by a shared-memory load per register.
// RUN: fuse-opt %t.fused.mlir --fuse-to-nvptx="tensor-cores=always ldmatrix=false" -o %t.noldm.mlir
// RUN: rm -rf %t.noldm && %ptx_stats %t.noldm.mlir --out %t.noldm
// RUN: cat %t.noldm/resnet_bottleneck__group1_kernel.ptx | FileCheck %s --check-prefix=NOLDM
// NOLDM: .entry
// NOLDM-NOT: ldmatrix
// NOLDM: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// NOLDM-NOT: ldmatrix
// NOLDM: ret;
// RUN: fuse-opt %t.fused.mlir --fuse-to-nvptx="tensor-cores=always precision=tf32" -o %t.tf32.mlir
// RUN: rm -rf %t.tf32 && %ptx_stats %t.tf32.mlir --out %t.tf32
// RUN: cat %t.tf32/resnet_bottleneck__group1_kernel.ptx | FileCheck %s --check-prefix=TF32
// TF32: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// With 16-bit operands every convolution kernel is mma.sync m16n8k16 with
// bf16 (fp16) operands, f32 accumulators, and no m16n8k8.
// RUN: fuse-opt %t.fused.mlir --fuse-to-nvptx="tensor-cores=always precision=bf16" -o %t.bf16.mlir
// RUN: rm -rf %t.bf16 && %ptx_stats %t.bf16.mlir --out %t.bf16
// RUN: cat %t.bf16/resnet_bottleneck__group0_kernel.ptx | FileCheck %s --check-prefix=BF16
// RUN: cat %t.bf16/resnet_bottleneck__group1_kernel.ptx | FileCheck %s --check-prefix=BF16
// RUN: cat %t.bf16/resnet_bottleneck__group2_kernel.ptx | FileCheck %s --check-prefix=BF16
// BF16: .entry
// BF16-NOT: m16n8k8
// BF16: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// BF16-NOT: m16n8k8
// BF16: ret;
// RUN: fuse-opt %t.fused.mlir --fuse-to-nvptx="tensor-cores=always precision=fp16" -o %t.fp16.mlir
// RUN: rm -rf %t.fp16 && %ptx_stats %t.fp16.mlir --out %t.fp16
// RUN: cat %t.fp16/resnet_bottleneck__group1_kernel.ptx | FileCheck %s --check-prefix=FP16
// FP16: .entry
// FP16-NOT: m16n8k8
// FP16: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// FP16: ret;
// RUN: not fuse-opt %t.fused.mlir --fuse-to-nvptx="tensor-cores=sometimes" 2>&1 | FileCheck %s --check-prefix=BADTC
// BADTC: fuse-to-nvptx: option 'tensor-cores' must be 'keep', 'auto', 'always' or 'never', got 'sometimes'
// RUN: not fuse-opt %t.fused.mlir --fuse-to-nvptx="precision=fp8" 2>&1 | FileCheck %s --check-prefix=BADP
// BADP: fuse-to-nvptx: option 'precision' must be 'fp32', 'tf32', 'bf16' or 'fp16', got 'fp8'
//
// Row reductions fold by warp shuffles: the BERT layer's LayerNorm and
// softmax kernels (groups 1, 2 and 4) fold each row statistic's lanes in
// a warp with a butterfly of shfl.sync.bfly (..., 2, 1 lanes apart, no
// barrier between), not a barrier per step through shared memory. The
// GEMM + LayerNorm kernels (2 and 4) hold 8 rows a block on tensor cores,
// 4 lanes a row; the attention kernel's softmax folds 16 lanes a row too
// (8, 4, 2, 1 apart).
// RUN: fuse-opt %fuse_src_root/test/Models/bert-layer.mlir --fuse-fusion-pipeline="target=h200" -o %t.bert.fused.mlir
// RUN: fuse-opt %t.bert.fused.mlir --fuse-to-nvptx -o %t.bert.mlir
// RUN: rm -rf %t.bert && %ptx_stats %t.bert.mlir --out %t.bert
// RUN: cat %t.bert/bert_layer__group1_kernel.ptx | FileCheck %s --check-prefixes=SHFL,SHFL16
// RUN: cat %t.bert/bert_layer__group2_kernel.ptx | FileCheck %s --check-prefix=SHFL
// RUN: cat %t.bert/bert_layer__group4_kernel.ptx | FileCheck %s --check-prefix=SHFL
// SHFL: .entry
// SHFL: shfl.sync.bfly.b32 {{.*}}, 2, 31, -1;
// SHFL-NOT: bar.sync
// SHFL: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// SHFL16: shfl.sync.bfly.b32 {{.*}}, 8, 31, -1;
// SHFL16-NOT: bar.sync
// SHFL16: shfl.sync.bfly.b32 {{.*}}, 4, 31, -1;
// SHFL16-NOT: bar.sync
// SHFL16: shfl.sync.bfly.b32 {{.*}}, 2, 31, -1;
// SHFL16-NOT: bar.sync
// SHFL16: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// SHFL: ret;
//
// Elementwise ops move four points a thread with 16-byte accesses where
// their operands are aligned: the LayerNorm kernels' normalization and
// residual ops load and store .v4.
// RUN: cat %t.bert/bert_layer__group2_kernel.ptx | FileCheck %s --check-prefix=V4
// RUN: cat %t.bert/bert_layer__group4_kernel.ptx | FileCheck %s --check-prefix=V4
// V4: .entry
// V4-DAG: ld.global.nc.v4.b32
// V4-DAG: st.{{global|shared}}.v4.b32
// V4: ret;
//
// Buffers a kernel only reads, and that nothing the kernel writes overlaps
// (fuse-kernel-arg-attrs: the arena's buffers live together lie apart,
// weights are globals, the caller's inputs are never the arena), are read
// through the non-coherent path: every global load of the BERT layer's
// kernels is ld.global.nc (their inputs, weights and the arena buffers
// between them), except the split-K kernel's (group 4, split_k = 8) reads
// of its partials, which its blocks write (see PARTIALS below).
// RUN: cat %t.bert/bert_layer__group0_kernel.ptx | FileCheck %s --check-prefix=NC
// RUN: cat %t.bert/bert_layer__group1_kernel.ptx | FileCheck %s --check-prefix=NC
// RUN: cat %t.bert/bert_layer__group2_kernel.ptx | FileCheck %s --check-prefix=NC
// RUN: cat %t.bert/bert_layer__group3_kernel.ptx | FileCheck %s --check-prefix=NC
// RUN: cat %t.bert/bert_layer__group4_kernel.ptx | FileCheck %s --check-prefix=PARTIALS
// RUN: grep -c "split_k = 8" %t.bert.fused.mlir | FileCheck %s --check-prefix=SPLITCFG
// NC: .entry
// NC-NOT: {{ld\.global\.[^n]}}
// NC: ld.global.nc
// NC-NOT: {{ld\.global\.[^n]}}
// NC: ret;
//
// Split-K (the configs' own: the bottleneck's 3x3 convolution has 32 tiles,
// split 5 ways): the kernel stores its partials, fences device-wide
// (membar.gl), arrives with an atomic add on its tile's counter, the last
// block resets it (an exchange), fences again and sums the partials; on
// tensor cores, with cp.async staging. The unsplit kernels do none of it.
// RUN: fuse-opt %t.fused.mlir --fuse-to-nvptx -o %t.split.mlir
// RUN: rm -rf %t.split && %ptx_stats %t.split.mlir --out %t.split
// RUN: grep -c "split_k = 5" %t.fused.mlir | FileCheck %s --check-prefix=SPLITCFG
// RUN: cat %t.split/resnet_bottleneck__group1_kernel.ptx | FileCheck %s --check-prefix=SPLITK
// RUN: cat %t.split/resnet_bottleneck__group0_kernel.ptx | FileCheck %s --check-prefix=NOSPLIT
// SPLITCFG: 1
// SPLITK: .entry
// SPLITK: cp.async
// SPLITK: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// SPLITK: membar.gl;
// SPLITK: atom.global.add.u32
// SPLITK: atom.global.exch.b32
// SPLITK: membar.gl;
// SPLITK: ret;
// A split-K kernel's partials, which its blocks write and the tile's
// last block reads back, are read with plain loads (never .nc); its
// other inputs through the non-coherent path.
// RUN: cat %t.split/resnet_bottleneck__group1_kernel.ptx | FileCheck %s --check-prefix=PARTIALS
// PARTIALS: .entry
// PARTIALS-DAG: ld.global.nc
// PARTIALS-DAG: ld.global.b32
// PARTIALS: ret;
// NOSPLIT: .entry
// NOSPLIT-NOT: membar.gl
// NOSPLIT-NOT: atom.global
// NOSPLIT: ret;
// split-k=1 on fuse-to-nvptx chooses every config anew without split-K
// (no counters shared between calls); a count out of range is an error.
// RUN: fuse-opt %t.fused.mlir --fuse-to-nvptx="split-k=1" -o %t.nosplit.mlir
// RUN: rm -rf %t.nosplit && %ptx_stats %t.nosplit.mlir --out %t.nosplit
// RUN: cat %t.nosplit/resnet_bottleneck__group1_kernel.ptx | FileCheck %s --check-prefix=NOSPLIT
// RUN: not fuse-opt %t.fused.mlir --fuse-to-nvptx="split-k=17" 2>&1 | FileCheck %s --check-prefix=BADSPLIT
// BADSPLIT: fuse-to-nvptx: option 'split-k' must be in [-1, 16] (-1: each group's config, 0: the cost model's, 1: never), got 17
