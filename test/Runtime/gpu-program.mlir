// The whole GPU program of a model block builds without a GPU: the fused
// function's kernels and host code (fuse-to-nvptx), a host main with the
// inputs and workspace in managed memory, linked with fuse's CUDA runtime
// library (scripts/gpu-check.py --compile-only). Run where the driver finds
// no device, it stops at the first driver call with the CUDA error instead
// of printing results.
// REQUIRES: cuda-runtime, ptxas
// RUN: rm -rf %t && %gpu_check %fuse_src_root/test/Models/bert-layer.mlir --compile-only --keep %t | FileCheck %s
// RUN: not env LD_LIBRARY_PATH=%fake_cuda_driver_dir %t/run 2>&1 | FileCheck %s --check-prefix=NODEV
// RUN: rm -rf %t.c3 && %gpu_check %fuse_src_root/test/Models/yolo-c3.mlir --compile-only --repeat 5 --block-size 256 --keep %t.c3 | FileCheck %s --check-prefix=C3
// CHECK: bert-layer.mlir @bert_layer: 5 kernel launch(es), 128 threads per block, executable
// CHECK: compiled (not run: --compile-only)
// NODEV: fuse-cuda-runtime: cuInit(0) failed: CUDA_ERROR_NO_DEVICE (100): no CUDA-capable device is detected
// NODEV-NOT: Unranked Memref
// C3: yolo-c3.mlir @yolo_c3: 4 kernel launch(es), 256 threads per block
