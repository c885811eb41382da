// The instruction mix of fuse-to-nvptx's kernels (LLVM's NVPTX backend, no
// ptxas needed): every multiply-accumulate of the ResNet bottleneck's three
// convolutions is an fma, no index is divided in 64 bits (the loop bounds
// and sizes are constants in each kernel, and a reduction over (kh, kw, c)
// is a loop nest, not one linear loop recovering its indices), and the
// kernels take no index parameters besides their buffers.
// RUN: fuse-opt %fuse_src_root/test/Models/resnet-bottleneck.mlir \
// RUN:   --fuse-fusion-pipeline="target=h200" -o %t.fused.mlir
// RUN: fuse-opt %t.fused.mlir --fuse-to-nvptx -o %t.mlir
// RUN: rm -rf %t.ptx && %ptx_stats %t.mlir --out %t.ptx
// RUN: cat %t.ptx/resnet_bottleneck__group0_kernel.ptx | FileCheck %s
// RUN: cat %t.ptx/resnet_bottleneck__group1_kernel.ptx | FileCheck %s
// RUN: cat %t.ptx/resnet_bottleneck__group2_kernel.ptx | FileCheck %s
// RUN: fuse-opt %t.fused.mlir --fuse-to-nvptx \
// RUN:   --mlir-print-ir-after=fuse-contract-float -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ARGS
// ARGS-COUNT-3: gpu.func @resnet_bottleneck__group{{[0-2]}}_kernel({{(%arg[0-9]+: memref<[0-9x]+xf32>(, )?)+}}) workgroup
// CHECK: .entry
// CHECK-NOT: mul.rn.f32
// CHECK-NOT: {{(div|rem)}}.{{[us]}}64
// CHECK: fma.rn.f32
// CHECK-NOT: mul.rn.f32
// CHECK-NOT: {{(div|rem)}}.{{[us]}}64
// CHECK: ret;
//
// contract=false keeps a multiply and its add two rounded instructions.
// RUN: fuse-opt %t.fused.mlir --fuse-to-nvptx="contract=false" -o %t.nofma.mlir
// RUN: rm -rf %t.nofma && %ptx_stats %t.nofma.mlir --out %t.nofma
// RUN: cat %t.nofma/resnet_bottleneck__group1_kernel.ptx | FileCheck %s --check-prefix=NOFMA
// NOFMA-NOT: fma.rn.f32
// NOFMA: mul.rn.f32
// NOFMA-NOT: fma.rn.f32
// NOFMA: add.rn.f32
// NOFMA-NOT: fma.rn.f32
