// fuse-results-in-place: the entry's last kernels write the caller's output
// buffers directly, instead of a buffer of the function's own copied into
// them at the end (what buffer-results-to-out-params leaves for results
// that calls produce).
// RUN: fuse-opt %s --split-input-file --fuse-results-in-place | FileCheck %s

func.func private @kernel(memref<4x8xf32>, memref<4x8xf32>)

// The call writes %out itself: no buffer, no copy.
// CHECK-LABEL: func.func @entry(
// CHECK-SAME: %[[X:.*]]: memref<4x8xf32>, %[[OUT:.*]]: memref<4x8xf32>)
// CHECK-NEXT: %[[T:.*]] = memref.alloc() : memref<4x8xf32>
// CHECK-NEXT: call @kernel(%[[X]], %[[T]])
// CHECK-NEXT: call @kernel(%[[T]], %[[OUT]])
// CHECK-NEXT: return
func.func @entry(%x: memref<4x8xf32>, %out: memref<4x8xf32>) {
  %t = memref.alloc() : memref<4x8xf32>
  call @kernel(%x, %t) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
  %r = memref.alloc() : memref<4x8xf32>
  call @kernel(%t, %r) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
  memref.copy %r, %out : memref<4x8xf32> to memref<4x8xf32>
  return
}

// -----

func.func private @kernel(memref<4x8xf32>, memref<4x8xf32>)

// The buffer is read after the copy: it stays.
// CHECK-LABEL: func.func @read_after(
// CHECK: memref.copy
func.func @read_after(%x: memref<4x8xf32>, %out: memref<4x8xf32>, %out2: memref<4x8xf32>) {
  %r = memref.alloc() : memref<4x8xf32>
  call @kernel(%x, %r) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
  memref.copy %r, %out : memref<4x8xf32> to memref<4x8xf32>
  call @kernel(%r, %out2) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
  return
}

// -----

func.func private @kernel(memref<4x8xf32>, memref<4x8xf32>)

// The output is also used elsewhere: the copy stays.
// CHECK-LABEL: func.func @out_used(
// CHECK: memref.alloc
// CHECK: memref.copy
func.func @out_used(%x: memref<4x8xf32>, %out: memref<4x8xf32>) {
  call @kernel(%x, %out) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
  %r = memref.alloc() : memref<4x8xf32>
  call @kernel(%out, %r) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
  memref.copy %r, %out : memref<4x8xf32> to memref<4x8xf32>
  return
}

// -----

// A copy from an input (the function returns its argument) and a copy of
// a buffer of another type (a strided view) stay.
// CHECK-LABEL: func.func @not_alloc(
// CHECK-COUNT-2: memref.copy
func.func @not_alloc(%x: memref<4x8xf32>, %out: memref<4x8xf32>, %out2: memref<4x8xf32, strided<[8, 1], offset: ?>>) {
  memref.copy %x, %out : memref<4x8xf32> to memref<4x8xf32>
  %r = memref.alloc() : memref<4x8xf32>
  memref.copy %r, %out2 : memref<4x8xf32> to memref<4x8xf32, strided<[8, 1], offset: ?>>
  return
}

// -----

func.func private @dyn(memref<?x8xf32>)

// A dynamically sized buffer stays (the pass keeps to static shapes).
// CHECK-LABEL: func.func @dynamic(
// CHECK: memref.copy
func.func @dynamic(%n: index, %out: memref<?x8xf32>) {
  %r = memref.alloc(%n) : memref<?x8xf32>
  call @dyn(%r) : (memref<?x8xf32>) -> ()
  memref.copy %r, %out : memref<?x8xf32> to memref<?x8xf32>
  return
}
