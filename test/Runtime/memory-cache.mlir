// fuseDeviceMalloc reuses a freed buffer of the same size class (sizes
// round up to 512 bytes), never a live one, and fuseDeviceFree refuses a
// pointer it does not know (a second free). On the fake driver's device.
// REQUIRES: cuda-runtime
// RUN: fuse-opt %s --convert-func-to-llvm --convert-arith-to-llvm --reconcile-unrealized-casts \
// RUN:   | not env FUSE_FAKE_CUDA_DEVICE=1 LD_LIBRARY_PATH=%fake_cuda_driver_dir mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%cuda_runtime,%mlir_runner_utils,%mlir_c_runner_utils 2>&1 | FileCheck %s
// A freed 100-byte buffer serves a 200-byte request ...
// CHECK: 1
// ... but not a second one while the first is live ...
// CHECK-NEXT: 0
// ... and a freed 1000-byte buffer (1024 class) does not serve 100 bytes.
// CHECK-NEXT: 0
// CHECK-NEXT: fuse-cuda-runtime: fuseDeviceFree(0x{{[0-9a-f]+}}): not a live buffer of fuseDeviceMalloc (freed twice?)
// CHECK-NOT: done
func.func private @fuseDeviceMalloc(i64) -> !llvm.ptr
func.func private @fuseDeviceFree(!llvm.ptr)
func.func private @printI64(i64)
func.func private @printNewline()
func.func private @puts(!llvm.ptr) -> i32
llvm.mlir.global internal constant @done("done\00")

func.func @print_same(%x: !llvm.ptr, %y: !llvm.ptr) {
  %eq = llvm.icmp "eq" %x, %y : !llvm.ptr
  %v = arith.extui %eq : i1 to i64
  call @printI64(%v) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @main() {
  %c100 = arith.constant 100 : i64
  %c200 = arith.constant 200 : i64
  %c1000 = arith.constant 1000 : i64
  %a = call @fuseDeviceMalloc(%c100) : (i64) -> !llvm.ptr
  call @fuseDeviceFree(%a) : (!llvm.ptr) -> ()
  %b = call @fuseDeviceMalloc(%c200) : (i64) -> !llvm.ptr
  call @print_same(%a, %b) : (!llvm.ptr, !llvm.ptr) -> ()
  %c = call @fuseDeviceMalloc(%c200) : (i64) -> !llvm.ptr
  call @print_same(%b, %c) : (!llvm.ptr, !llvm.ptr) -> ()
  %d = call @fuseDeviceMalloc(%c1000) : (i64) -> !llvm.ptr
  call @fuseDeviceFree(%d) : (!llvm.ptr) -> ()
  %e = call @fuseDeviceMalloc(%c100) : (i64) -> !llvm.ptr
  call @print_same(%d, %e) : (!llvm.ptr, !llvm.ptr) -> ()
  call @fuseDeviceFree(%b) : (!llvm.ptr) -> ()
  call @fuseDeviceFree(%b) : (!llvm.ptr) -> ()
  %m = llvm.mlir.addressof @done : !llvm.ptr
  %r = call @puts(%m) : (!llvm.ptr) -> i32
  return
}
