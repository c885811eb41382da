// fuse-device-memory: host allocations become CUDA managed memory, constant
// globals the host passes on become device copies; a gpu.module's own
// functions and globals stay as they are.
// RUN: fuse-opt %s --fuse-device-memory | FileCheck %s
// In fuse-to-nvptx (default on; device-memory=false keeps malloc).
// RUN: fuse-opt %fuse_src_root/test/Models/yolo-sppf.mlir --fuse-fusion-pipeline -o %t.fused.mlir
// RUN: fuse-opt %t.fused.mlir --fuse-to-nvptx | FileCheck %s --check-prefix=PIPE
// RUN: fuse-opt %t.fused.mlir --fuse-to-nvptx="device-memory=false" | FileCheck %s --check-prefix=OFF

// CHECK-DAG: llvm.func @fuseDeviceMalloc(i64) -> !llvm.ptr
// CHECK-DAG: llvm.func @fuseDeviceFree(!llvm.ptr)
// CHECK-DAG: llvm.func @fuseDeviceConstant(!llvm.ptr, i64) -> !llvm.ptr
// CHECK-LABEL: llvm.func @host
// CHECK: %[[W:.*]] = llvm.mlir.addressof @weights : !llvm.ptr
// CHECK-NEXT: %[[BYTES:.*]] = llvm.mlir.constant(64 : i64) : i64
// CHECK-NEXT: %[[COPY:.*]] = llvm.call @fuseDeviceConstant(%[[W]], %[[BYTES]])
// CHECK: %[[NAME:.*]] = llvm.mlir.addressof @name : !llvm.ptr
// CHECK-NOT: fuseDeviceConstant
// CHECK: %[[BUF:.*]] = llvm.call @fuseDeviceMalloc(%{{.*}}) : (i64) -> !llvm.ptr
// CHECK: llvm.call @use(%[[COPY]], %[[BUF]], %[[NAME]])
// CHECK: llvm.call @fuseDeviceFree(%[[BUF]]) : (!llvm.ptr) -> ()
// CHECK-LABEL: gpu.module @kernels
// CHECK: llvm.call @malloc
// PIPE-NOT: llvm.call @malloc
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
  gpu.module @kernels {
    llvm.func @malloc(i64) -> !llvm.ptr
    llvm.func @device_side() {
      %size = llvm.mlir.constant(4 : i64) : i64
      %p = llvm.call @malloc(%size) : (i64) -> !llvm.ptr
      llvm.return
    }
  }
}
