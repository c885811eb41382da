// Every mgpu* function that fuse-to-nvptx's host code calls (PTX loaded by
// the driver's JIT with format=isa, a cubin with format=bin), and the
// fuseDevice*/fuseShared* functions of its host buffers
// (fuse-device-memory), are defined by fuse's CUDA runtime library. With
// async-launches=false the group functions stay, and constants handed to
// them get managed copies (fuseSharedConstant).
// REQUIRES: cuda-runtime, ptxas
// RUN: fuse-opt %fuse_src_root/test/Models/yolo-c3.mlir --fuse-fusion-pipeline -o %t.fused.mlir
// RUN: fuse-opt %t.fused.mlir --fuse-to-nvptx | mlir-translate --mlir-to-llvmir -o %t.isa.ll
// RUN: fuse-opt %t.fused.mlir --fuse-to-nvptx="format=bin" | mlir-translate --mlir-to-llvmir -o %t.bin.ll
// RUN: fuse-opt %t.fused.mlir --fuse-to-nvptx="async-launches=false" | mlir-translate --mlir-to-llvmir -o %t.sync.ll
// RUN: cat %t.isa.ll %t.bin.ll %t.sync.ll | grep -o "declare [^@]*@\(mgpu\|fuseDevice\|fuseShared\)[A-Za-z0-9]*" | sed 's/.*@//' | sort -u > %t.used
// RUN: FileCheck %s < %t.used
// RUN: llvm-nm -D --defined-only %cuda_runtime | awk '{print $3}' | sort -u > %t.defined
// RUN: comm -23 %t.used %t.defined | count 0
// CHECK-DAG: mgpuLaunchKernel
// CHECK-DAG: mgpuModuleLoad
// CHECK-DAG: mgpuModuleLoadJIT
// CHECK-DAG: mgpuModuleGetFunction
// CHECK-DAG: mgpuStreamSynchronize
// CHECK-DAG: fuseDeviceMalloc
// CHECK-DAG: fuseDeviceConstant
// CHECK-DAG: fuseSharedConstant
