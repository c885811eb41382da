// fuse-to-cpu's deallocation: upstream's pipeline, with every dealloc that
// frees distinct allocations unconditionally and retains nothing split into
// memref.dealloc ops before upstream's simplification (which checks every
// pair of a dealloc's buffers: quadratic in a host function's kernels).
// Anything else stays for upstream's passes.
// RUN: fuse-opt %s --fuse-split-trivial-deallocs | FileCheck %s

// CHECK-LABEL: func.func @trivial(
// CHECK: %[[A:.*]] = memref.alloc()
// CHECK: %[[B:.*]] = memref.alloc()
// CHECK: %[[C:.*]] = memref.alloc()
// CHECK-NOT: bufferization.dealloc
// CHECK: memref.dealloc %[[A]]
// CHECK-NEXT: memref.dealloc %[[B]]
// CHECK-NEXT: memref.dealloc %[[C]]
// CHECK-NEXT: return
func.func @trivial(%x: memref<4xf32>) {
  %true = arith.constant true
  %a = memref.alloc() : memref<4xf32>
  memref.copy %x, %a : memref<4xf32> to memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  memref.copy %a, %b : memref<4xf32> to memref<4xf32>
  %c = memref.alloc() : memref<8xf32>
  bufferization.dealloc (%a, %b, %c : memref<4xf32>, memref<4xf32>, memref<8xf32>) if (%true, %true, %true)
  return
}

// A condition that is not constant true, a retained value, a buffer that
// is no allocation of its own (a view), or a buffer listed twice: left as
// it is.
// CHECK-LABEL: func.func @kept(
// CHECK-COUNT-4: bufferization.dealloc
// CHECK-NOT: memref.dealloc
func.func @kept(%x: memref<4xf32>, %cond: i1) -> memref<4xf32> {
  %true = arith.constant true
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  bufferization.dealloc (%a, %b : memref<4xf32>, memref<4xf32>) if (%true, %cond)
  %c = memref.alloc() : memref<4xf32>
  %r = bufferization.dealloc (%c : memref<4xf32>) if (%true) retain (%x : memref<4xf32>)
  %d = memref.alloc() : memref<8xf32>
  %v = memref.subview %d[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  bufferization.dealloc (%v : memref<4xf32, strided<[1]>>) if (%true)
  %e = memref.alloc() : memref<4xf32>
  bufferization.dealloc (%e, %e : memref<4xf32>, memref<4xf32>) if (%true, %true)
  return %x : memref<4xf32>
}
