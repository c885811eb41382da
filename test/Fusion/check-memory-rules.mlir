// The memory check against every rule whose groups keep a working set in
// shared memory: on a target with 256 B of shared memory and of L2, each
// rule's own positive inputs are refused, and the report gives the working
// set, the spill and the L2 share. (elementwise_chain, concat_slices and
// sibling_merge keep nothing per block, so this check cannot refuse them.)
// Only each rule's refusals are kept, so the pair rule/check is exact.
// RUN: fuse-opt %S/attention.mlir -split-input-file --fuse-fusion-pipeline="target={#fuse.target<\"h200\", smem_per_block = 256, smem_per_sm = 256, l2_bytes = 256>} report=-" -o /dev/null | grep -A4 '"rule": "attention"' | FileCheck %s --check-prefix=ATTENTION
// RUN: fuse-opt %S/vertical.mlir -split-input-file --fuse-fusion-pipeline="target={#fuse.target<\"h200\", smem_per_block = 256, smem_per_sm = 256, l2_bytes = 256>} report=-" -o /dev/null | grep -A4 '"rule": "contraction_epilogue"' | FileCheck %s --check-prefix=EPILOGUE
// RUN: fuse-opt %S/vertical.mlir -split-input-file --fuse-fusion-pipeline="target={#fuse.target<\"h200\", smem_per_block = 256, smem_per_sm = 256, l2_bytes = 256>} report=-" -o /dev/null | grep -A4 '"rule": "residual_join"' | FileCheck %s --check-prefix=RESIDUAL
// RUN: fuse-opt %S/check-dependency.mlir -split-input-file --fuse-fusion-pipeline="target={#fuse.target<\"h200\", smem_per_block = 256, smem_per_sm = 256, l2_bytes = 256>} report=-" -o /dev/null | grep -A4 '"rule": "contraction_row_epilogue"' | FileCheck %s --check-prefix=ROWEPI
// RUN: fuse-opt %S/reduction.mlir -split-input-file --fuse-fusion-pipeline="target={#fuse.target<\"h200\", smem_per_block = 256, smem_per_sm = 256, l2_bytes = 256>} report=-" -o /dev/null | grep -A4 '"rule": "row_reduction"' | FileCheck %s --check-prefix=ROW
// RUN: fuse-opt %fuse_src_root/test/Models/inception.mlir --fuse-fusion-pipeline="target={#fuse.target<\"h200\", smem_per_block = 256, smem_per_sm = 256, l2_bytes = 256>} report=-" -o /dev/null | grep -A4 '"rule": "pad_prologue"' | FileCheck %s --check-prefix=PAD
// RUN: fuse-opt %S/transpose-prologue.mlir -split-input-file --fuse-fusion-pipeline="target={#fuse.target<\"h200\", smem_per_block = 256, smem_per_sm = 256, l2_bytes = 256>} report=-" -o /dev/null | grep -A4 '"rule": "transpose_prologue"' | FileCheck %s --check-prefix=TRANSPOSE
// RUN: fuse-opt %S/slice-prologue.mlir -split-input-file --fuse-fusion-pipeline="target={#fuse.target<\"h200\", smem_per_block = 256, smem_per_sm = 256, l2_bytes = 256>} report=-" -o /dev/null | grep -A4 '"rule": "slice_prologue"' | FileCheck %s --check-prefix=SLICE

// ATTENTION: "check": "memory",
// ATTENTION: "reason": "per-block working set {{[0-9]+}} B exceeds shared memory per block 256 B, and the {{[0-9]+}} B that would spill exceed one block's share of L2 (1 B = 256 B / 132 SMs) on target 'h200
// EPILOGUE: "check": "memory",
// EPILOGUE: "reason": "per-block working set {{[0-9]+}} B exceeds shared memory per block 256 B, and the {{[0-9]+}} B that would spill exceed one block's share of L2 (1 B = 256 B / 132 SMs) on target 'h200
// RESIDUAL: "check": "memory",
// RESIDUAL: "reason": "per-block working set {{[0-9]+}} B exceeds shared memory per block 256 B, and the {{[0-9]+}} B that would spill exceed one block's share of L2 (1 B = 256 B / 132 SMs) on target 'h200
// ROWEPI: "check": "memory",
// ROWEPI: "reason": "per-block working set {{[0-9]+}} B exceeds shared memory per block 256 B, and the {{[0-9]+}} B that would spill exceed one block's share of L2 (1 B = 256 B / 132 SMs) on target 'h200
// ROW: "check": "memory",
// ROW: "reason": "per-block working set {{[0-9]+}} B exceeds shared memory per block 256 B, and the {{[0-9]+}} B that would spill exceed one block's share of L2 (1 B = 256 B / 132 SMs) on target 'h200
// PAD: "check": "memory",
// PAD: "reason": "per-block working set {{[0-9]+}} B exceeds shared memory per block 256 B, and the {{[0-9]+}} B that would spill exceed one block's share of L2 (1 B = 256 B / 132 SMs) on target 'h200
// TRANSPOSE: "check": "memory",
// TRANSPOSE: "reason": "per-block working set {{[0-9]+}} B exceeds shared memory per block 256 B, and the {{[0-9]+}} B that would spill exceed one block's share of L2 (1 B = 256 B / 132 SMs) on target 'h200
// SLICE: "check": "memory",
// SLICE: "reason": "per-block working set {{[0-9]+}} B exceeds shared memory per block 256 B, and the {{[0-9]+}} B that would spill exceed one block's share of L2 (1 B = 256 B / 132 SMs) on target 'h200
