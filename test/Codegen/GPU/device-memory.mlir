// fuse-device-memory: host allocations become CUDA managed memory; a
// constant global whose address reaches only kernel launches (through
// address arithmetic and memref descriptors; the descriptor's integer
// fields are not followed) becomes a copy in device memory
// (fuseDeviceConstant), one the host may see too (handed to a function,
// returned) a managed copy (fuseSharedConstant); a gpu.module's own
// functions and globals stay as they are.
// RUN: fuse-opt %s --fuse-device-memory | FileCheck %s
// In fuse-to-nvptx (default on; device-memory=false keeps malloc).
// RUN: fuse-opt %fuse_src_root/test/Models/yolo-sppf.mlir --fuse-fusion-pipeline -o %t.fused.mlir
// RUN: fuse-opt %t.fused.mlir --fuse-to-nvptx | FileCheck %s --check-prefix=PIPE
// RUN: fuse-opt %t.fused.mlir --fuse-to-nvptx="device-memory=false" | FileCheck %s --check-prefix=OFF

// CHECK-DAG: llvm.func @fuseDeviceMalloc(i64) -> !llvm.ptr
// CHECK-DAG: llvm.func @fuseDeviceFree(!llvm.ptr)
// CHECK-DAG: llvm.func @fuseDeviceConstant(!llvm.ptr, i64) -> !llvm.ptr
// CHECK-DAG: llvm.func @fuseSharedConstant(!llvm.ptr, i64) -> !llvm.ptr
// CHECK-LABEL: llvm.func @host
// CHECK: %[[W:.*]] = llvm.mlir.addressof @weights : !llvm.ptr
// CHECK-NEXT: %[[BYTES:.*]] = llvm.mlir.constant(64 : i64) : i64
// CHECK-NEXT: %[[COPY:.*]] = llvm.call @fuseSharedConstant(%[[W]], %[[BYTES]])
// CHECK: %[[NAME:.*]] = llvm.mlir.addressof @name : !llvm.ptr
// CHECK-NOT: fuseDeviceConstant
// CHECK: %[[BUF:.*]] = llvm.call @fuseDeviceMalloc(%{{.*}}) : (i64) -> !llvm.ptr
// CHECK: llvm.call @use(%[[COPY]], %[[BUF]], %[[NAME]])
// CHECK: llvm.call @fuseDeviceFree(%[[BUF]]) : (!llvm.ptr) -> ()
// CHECK-LABEL: llvm.func @launches
// CHECK: %[[KW:.*]] = llvm.mlir.addressof @kernel_weights : !llvm.ptr
// CHECK-NEXT: %[[KBYTES:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK-NEXT: %[[KCOPY:.*]] = llvm.call @fuseDeviceConstant(%[[KW]], %[[KBYTES]])
// CHECK: llvm.getelementptr %[[KCOPY]]
// CHECK: gpu.launch_func
// CHECK-LABEL: llvm.func @returns
// CHECK: llvm.call @fuseSharedConstant
// CHECK: llvm.return
// CHECK-LABEL: gpu.module @kernels
// CHECK: llvm.call @malloc
// Every constant of the YOLO block only feeds kernels: device copies.
// PIPE-NOT: llvm.call @malloc
// PIPE-NOT: fuseSharedConstant
// PIPE-DAG: llvm.call @fuseDeviceConstant
// PIPE-DAG: llvm.call @fuseDeviceMalloc
// OFF-NOT: fuseDevice
// OFF: llvm.call @malloc
module attributes {gpu.container_module} {
  llvm.func @malloc(i64) -> !llvm.ptr
  llvm.func @free(!llvm.ptr)
  llvm.func @use(!llvm.ptr, !llvm.ptr, !llvm.ptr)
  llvm.mlir.global private constant @weights(dense<1.0> : tensor<16xf32>) : !llvm.array<16 x f32>
  llvm.mlir.global private @name("mutable\00") : !llvm.array<8 x i8>
  llvm.func @host() {
    %w = llvm.mlir.addressof @weights : !llvm.ptr
    %n = llvm.mlir.addressof @name : !llvm.ptr
    %size = llvm.mlir.constant(256 : i64) : i64
    %buf = llvm.call @malloc(%size) : (i64) -> !llvm.ptr
    llvm.call @use(%w, %buf, %n) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
    llvm.call @free(%buf) : (!llvm.ptr) -> ()
    llvm.return
  }
  llvm.mlir.global private constant @kernel_weights(dense<2.0> : tensor<8xf32>) : !llvm.array<8 x f32>
  llvm.func @launches() {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %w = llvm.mlir.addressof @kernel_weights : !llvm.ptr
    %p = llvm.getelementptr %w[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<8 x f32>
    %u = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64)>
    %d0 = llvm.insertvalue %p, %u[0] : !llvm.struct<(ptr, ptr, i64)>
    %d1 = llvm.insertvalue %p, %d0[1] : !llvm.struct<(ptr, ptr, i64)>
    %d2 = llvm.insertvalue %c1, %d1[2] : !llvm.struct<(ptr, ptr, i64)>
    %a = llvm.extractvalue %d2[0] : !llvm.struct<(ptr, ptr, i64)>
    %b = llvm.extractvalue %d2[1] : !llvm.struct<(ptr, ptr, i64)>
    %o = llvm.extractvalue %d2[2] : !llvm.struct<(ptr, ptr, i64)>
    %s = llvm.add %o, %c1 : i64
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64 args(%a : !llvm.ptr, %b : !llvm.ptr, %s : i64)
    llvm.return
  }
  llvm.mlir.global private constant @result_weights(dense<4.0> : tensor<8xf32>) : !llvm.array<8 x f32>
  llvm.func @returns() -> !llvm.struct<(ptr, ptr, i64)> {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %w = llvm.mlir.addressof @result_weights : !llvm.ptr
    %u = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64)>
    %d0 = llvm.insertvalue %w, %u[0] : !llvm.struct<(ptr, ptr, i64)>
    %d1 = llvm.insertvalue %w, %d0[1] : !llvm.struct<(ptr, ptr, i64)>
    %d2 = llvm.insertvalue %c0, %d1[2] : !llvm.struct<(ptr, ptr, i64)>
    llvm.return %d2 : !llvm.struct<(ptr, ptr, i64)>
  }
  gpu.module @kernels {
    llvm.func @k(%a: !llvm.ptr, %b: !llvm.ptr, %o: i64) attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
    llvm.func @malloc(i64) -> !llvm.ptr
    llvm.func @device_side() {
      %size = llvm.mlir.constant(4 : i64) : i64
      %p = llvm.call @malloc(%size) : (i64) -> !llvm.ptr
      llvm.return
    }
  }
}
