// fuse's CUDA runtime library names the failing driver call and the CUDA
// error. Here the driver is a stand-in whose cuInit finds no device (the
// state of a machine without a GPU); the first call that needs the device
// stops the program with the report instead of running on.
// REQUIRES: cuda-runtime
// RUN: fuse-opt %s --convert-func-to-llvm --reconcile-unrealized-casts \
// RUN:   | not env LD_LIBRARY_PATH=%fake_cuda_driver_dir mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%cuda_runtime 2>&1 | FileCheck %s
// CHECK: fuse-cuda-runtime: cuInit(0) failed: CUDA_ERROR_NO_DEVICE (100): no CUDA-capable device is detected
// CHECK-NOT: stream created
func.func private @mgpuStreamCreate() -> !llvm.ptr
func.func private @puts(!llvm.ptr) -> i32
llvm.mlir.global internal constant @done("stream created\00")
func.func @main() {
  %s = func.call @mgpuStreamCreate() : () -> !llvm.ptr
  %m = llvm.mlir.addressof @done : !llvm.ptr
  %r = func.call @puts(%m) : (!llvm.ptr) -> i32
  return
}
