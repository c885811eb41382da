// fuseDeviceConstant copies a constant into device memory (cuMemAlloc),
// fuseSharedConstant into managed memory (the host may read it); each
// copies once per host address, and a second call returns the same copy.
// On the fake driver's device, which traces its allocations.
// REQUIRES: cuda-runtime
// RUN: fuse-opt %s --convert-func-to-llvm --convert-arith-to-llvm --reconcile-unrealized-casts \
// RUN:   | env FUSE_FAKE_CUDA_DEVICE=1 FUSE_FAKE_CUDA_TRACE=1 LD_LIBRARY_PATH=%fake_cuda_driver_dir mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%cuda_runtime,%mlir_runner_utils,%mlir_c_runner_utils > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=ALLOC < %t.err
// The device copy is the same at the second call, and holds the weights;
// the shared copy is another, holding them too.
// CHECK: 1
// CHECK-NEXT: 3
// CHECK-NEXT: 0
// CHECK-NEXT: 3
// One device allocation of the constant's 64 bytes, one managed of the
// memory cache's 512-byte class; the second calls allocate nothing.
// ALLOC: fake-cuda: device 64 bytes
// ALLOC-NEXT: fake-cuda: managed 512 bytes
// ALLOC-NOT: fake-cuda
func.func private @fuseDeviceConstant(!llvm.ptr, i64) -> !llvm.ptr
func.func private @fuseSharedConstant(!llvm.ptr, i64) -> !llvm.ptr
func.func private @printI64(i64)
func.func private @printF32(f32)
func.func private @printNewline()
llvm.mlir.global internal constant @weights(dense<3.0> : tensor<16xf32>) : !llvm.array<16 x f32>

func.func @print_same(%x: !llvm.ptr, %y: !llvm.ptr) {
  %eq = llvm.icmp "eq" %x, %y : !llvm.ptr
  %v = arith.extui %eq : i1 to i64
  call @printI64(%v) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @print_first(%p: !llvm.ptr) {
  %v = llvm.load %p : !llvm.ptr -> f32
  call @printF32(%v) : (f32) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @main() {
  %bytes = arith.constant 64 : i64
  %w = llvm.mlir.addressof @weights : !llvm.ptr
  %a = call @fuseDeviceConstant(%w, %bytes) : (!llvm.ptr, i64) -> !llvm.ptr
  %b = call @fuseDeviceConstant(%w, %bytes) : (!llvm.ptr, i64) -> !llvm.ptr
  call @print_same(%a, %b) : (!llvm.ptr, !llvm.ptr) -> ()
  call @print_first(%a) : (!llvm.ptr) -> ()
  %c = call @fuseSharedConstant(%w, %bytes) : (!llvm.ptr, i64) -> !llvm.ptr
  call @print_same(%a, %c) : (!llvm.ptr, !llvm.ptr) -> ()
  call @print_first(%c) : (!llvm.ptr) -> ()
  %d = call @fuseSharedConstant(%w, %bytes) : (!llvm.ptr, i64) -> !llvm.ptr
  return
}
