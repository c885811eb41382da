// The whole GPU library of a model block builds without a GPU: fuse-compile
// puts the fused function's kernels and its host code into one library
// (scripts/gpu-check.py --compile-only). Loaded where the driver finds no
// device, its first call is a status naming the CUDA error.
// REQUIRES: cuda-runtime, ptxas
// RUN: rm -rf %t && %gpu_check %fuse_src_root/test/Models/bert-layer.mlir --compile-only --keep %t | FileCheck %s
// RUN: env LD_LIBRARY_PATH=%fake_cuda_driver_dir not fuse-run %t/gpu.so 2>&1 | FileCheck %s --check-prefix=NODEV
// RUN: rm -rf %t.c3 && %gpu_check %fuse_src_root/test/Models/yolo-c3.mlir --compile-only --block-size 256 --keep %t.c3 | FileCheck %s --check-prefix=C3
// CHECK: bert-layer.mlir @bert_layer: 5 kernel(s), each group's threads per block, library {{.*}}gpu.so
// CHECK: compiled (not run: --compile-only)
// NODEV: cannot load its kernels: cuInit(0) failed: CUDA_ERROR_NO_DEVICE (100): no CUDA-capable device is detected
// C3: yolo-c3.mlir @yolo_c3: 4 kernel(s), 256 threads per block
//
// The whole check on the fake driver's device, which computes nothing: the
// GPU library runs (its outputs are whatever device memory held), so the
// comparison with the CPU reference must fail; the timed calls and the
// kernel profile (fuse-benchmark: one warm-up call and two timed) go
// through.
// RUN: rm -rf %t.fake && env LD_LIBRARY_PATH=%fake_cuda_driver_dir FUSE_FAKE_CUDA_DEVICE=1 \
// RUN:   not %gpu_check %fuse_src_root/test/Models/yolo-c3.mlir --repeat 2 --keep %t.fake --profile %t.fake/profile.tsv \
// RUN:   | FileCheck %s --check-prefix=FAKE
// FAKE: yolo-c3.mlir @yolo_c3: 4 kernel(s)
// FAKE: kernel profile: {{.*}}profile.tsv
// FAKE: output 0 tensor<1x16x16x32xf32>: max abs err {{.*}}: FAIL
// FAKE: gpu ms per run: {{[0-9.]+}} (mean of 2 runs, host arrays: the copies included)
// FAKE: FAIL: 1 of 1 outputs differ
// RUN: FileCheck %s --check-prefix=PROFILE < %t.fake/profile.tsv
// PROFILE: # kernel{{.}}launches
// PROFILE-COUNT-4: {{^yolo_c3__group[0-9]+_kernel.3.}}
// And a check must be able to fail for the right reason: on the CPU-only
// path (no device at all) it names the runtime's error.
// RUN: env LD_LIBRARY_PATH=%fake_cuda_driver_dir not %gpu_check %fuse_src_root/test/Models/yolo-c3.mlir 2>&1 | FileCheck %s --check-prefix=NOGPU
// NOGPU: gpu-check: the runtime failed: {{.*}}CUDA_ERROR_NO_DEVICE
