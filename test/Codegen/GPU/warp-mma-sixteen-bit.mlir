// fuse-distribute-threads' mma_sync schedule of a 16-bit model's product
// (f16 operands extended in the payload, f32 accumulators): the block tiles
// are staged in f16 as they are, half the bytes of f32 ones: A (K-fastest)
// as [2][32][32 + 8] (16 bytes of padding keep every row 16-byte aligned
// for cp.async), B (N-fastest) as [2][32][24 + 16]; the copies move 8
// halves (16 bytes) at a time where aligned (the alignment check counts
// 2-byte elements), one element at a time by a load and a store otherwise
// (cp.async copies 4, 8 or 16 bytes); each fragment element is extended as
// it loads, and the products are mma.sync.m16n8k16 of f16 (no ldmatrix:
// it moves 32-bit words of f32 tiles).
// RUN: fuse-opt %s --fuse-distribute-threads | FileCheck %s

// CHECK-LABEL: func.func @gemm_f16
// CHECK: gpu.launch
// CHECK-SAME: workgroup(%[[A:[a-z0-9]+]] : memref<2x32x40xf16, #gpu.address_space<workgroup>>, %[[B:[a-z0-9]+]] : memref<2x32x40xf16, #gpu.address_space<workgroup>>)
// CHECK: %{{.*}}, %[[OFFB:.*]], %{{.*}}:2, %{{.*}}:2 = memref.extract_strided_metadata %[[W:.*]] : memref<64x24xf16, strided<[48, 1], offset: ?>>
// CHECK: %[[PB:.*]] = memref.extract_aligned_pointer_as_index %[[W]]
// CHECK: %[[OB:.*]] = arith.muli %[[OFFB]], %c2
// A: 32 rows x 32 K = 128 runs of eight along K; B: 32 K x 24 columns = 96.
// CHECK: scf.for %{{.*}} = %{{.*}} to %c128{{(_[0-9]+)?}} step %c128
// CHECK: nvgpu.device_async_copy %{{.*}}, %[[A]][%c0{{.*}}, {{.*}}], 8 {bypassL1} : memref<32x64xf16> to memref<2x32x40xf16, #gpu.address_space<workgroup>>
// CHECK: } else {
// CHECK: memref.load %arg0{{.*}} : memref<32x64xf16>
// CHECK: memref.store %{{.*}}, %[[A]]{{.*}} : memref<2x32x40xf16, #gpu.address_space<workgroup>>
// CHECK: scf.for %{{.*}} = %{{.*}} to %c96 step %c128
// CHECK: nvgpu.device_async_copy {{.*}}, %[[B]][%c0{{.*}}, {{.*}}], 8 {bypassL1} : memref<64x24xf16, strided<[48, 1], offset: ?>> to memref<2x32x40xf16, #gpu.address_space<workgroup>>
// CHECK: memref.load %[[A]]{{.*}} : memref<2x32x40xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: arith.extf {{.*}} : f16 to f32
// CHECK: nvvm.mma.sync
// CHECK-SAME: shape = #nvvm.shape<m = 16, n = 8, k = 16>
// CHECK-NOT: nvgpu.ldmatrix
func.func @gemm_f16(%arg0: memref<32x64xf16>, %arg1: memref<64x48xf16>, %arg3: memref<32x48xf32>) attributes {fuse.lowering_config = #fuse.lowering_config<schedule = "contraction", tile = [32, 24], threads = 128, instruction = "mma_sync", precision = "fp16">} {
  %cst = arith.constant 0.000000e+00 : f32
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c24 = arith.constant 24 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c2, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %n = arith.muli %by, %c24 : index
    %w = memref.subview %arg1[0, %n] [64, 24] [1, 1] : memref<64x48xf16> to memref<64x24xf16, strided<[48, 1], offset: ?>>
    %out = memref.subview %arg3[0, %n] [32, 24] [1, 1] : memref<32x48xf32> to memref<32x24xf32, strided<[48, 1], offset: ?>>
    linalg.fill ins(%cst : f32) outs(%out : memref<32x24xf32, strided<[48, 1], offset: ?>>)
    linalg.matmul ins(%arg0, %w : memref<32x64xf16>, memref<64x24xf16, strided<[48, 1], offset: ?>>) outs(%out : memref<32x24xf32, strided<[48, 1], offset: ?>>)
    gpu.terminator
  }
  return
}
