// On a machine with a GPU: every model block runs on the GPU (fused, one
// kernel per group, each with its own block size; one run with 64 threads
// for every kernel) as a compiled library, and matches the unfused CPU
// library on the same inputs, output by output (scripts/gpu-check.py).
// Elsewhere lit reports this test as unsupported.
// REQUIRES: cuda-device
// RUN: %gpu_check %fuse_src_root/test/Models/bert-layer.mlir | FileCheck %s
// RUN: %gpu_check %fuse_src_root/test/Models/resnet-bottleneck.mlir | FileCheck %s
// RUN: %gpu_check %fuse_src_root/test/Models/resnet-bottleneck-ds.mlir | FileCheck %s
// RUN: %gpu_check %fuse_src_root/test/Models/inception.mlir | FileCheck %s
// RUN: %gpu_check %fuse_src_root/test/Models/yolo-c3.mlir | FileCheck %s
// RUN: %gpu_check %fuse_src_root/test/Models/yolo-sppf.mlir | FileCheck %s
// RUN: %gpu_check %fuse_src_root/test/Pipelines/Fusion/attention.mlir --function attention | FileCheck %s
// RUN: %gpu_check %fuse_src_root/test/Models/bert-layer.mlir --block-size 64 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS
