// fuse-hoist-group-scratch: a group function's intermediate buffer becomes
// a trailing argument its callers allocate around the call (and
// fuse-plan-buffers then places in the arena); buffers that leave the
// function, live in a loop, or belong to a function that is public,
// marked fuse.no_plan or used other than by calls stay.
// RUN: fuse-opt %s --split-input-file --fuse-hoist-group-scratch | FileCheck %s
// RUN: fuse-opt %s --split-input-file --fuse-hoist-group-scratch --fuse-plan-buffers | FileCheck %s --check-prefix=PLAN

// CHECK-LABEL: func.func @model
// CHECK: %[[S:.*]] = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
// CHECK: call @model__group0(%{{.*}}, %{{.*}}, %[[S]]) : (memref<64xf32>, memref<64xf32>, memref<64xf32>) -> ()
// CHECK-NEXT: memref.dealloc %[[S]] : memref<64xf32>
// CHECK-LABEL: func.func private @model__group0
// CHECK-SAME: (%[[X:.*]]: memref<64xf32>, %[[Y:.*]]: memref<64xf32>, %[[T:.*]]: memref<64xf32>)
// CHECK-NOT: memref.alloc
// CHECK: linalg.exp ins(%[[X]] : memref<64xf32>) outs(%[[T]] : memref<64xf32>)
// CHECK-NOT: memref.dealloc
// PLAN-LABEL: func.func @model
// PLAN-NOT: memref.alloc() {alignment = 64 : i64} : memref<64xf32>
// PLAN: memref.view
func.func @model(%x: memref<64xf32>, %y: memref<64xf32>) {
  call @model__group0(%x, %y) : (memref<64xf32>, memref<64xf32>) -> ()
  return
}
func.func private @model__group0(%x: memref<64xf32>, %y: memref<64xf32>) attributes {fuse.kind = "vertical"} {
  %t = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
  linalg.exp ins(%x : memref<64xf32>) outs(%t : memref<64xf32>)
  linalg.negf ins(%t : memref<64xf32>) outs(%y : memref<64xf32>)
  memref.dealloc %t : memref<64xf32>
  return
}

// -----

// Left alone: a returned buffer, one made per loop iteration, and
// dynamic shapes.
// CHECK-LABEL: func.func private @stays__group0
// CHECK-SAME: (%{{.*}}: memref<64xf32>, %{{.*}}: index) -> memref<64xf32>
// CHECK: memref.alloc() : memref<64xf32>
// CHECK: scf.for
// CHECK: memref.alloc() : memref<64xf32>
// CHECK: memref.alloc(%{{.*}}) : memref<?xf32>
func.func @stays(%x: memref<64xf32>, %n: index) -> memref<64xf32> {
  %r = call @stays__group0(%x, %n) : (memref<64xf32>, index) -> memref<64xf32>
  return %r : memref<64xf32>
}
func.func private @stays__group0(%x: memref<64xf32>, %n: index) -> memref<64xf32> attributes {fuse.kind = "vertical"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = memref.alloc() : memref<64xf32>
  linalg.exp ins(%x : memref<64xf32>) outs(%r : memref<64xf32>)
  scf.for %i = %c0 to %c2 step %c1 {
    %t = memref.alloc() : memref<64xf32>
    linalg.exp ins(%r : memref<64xf32>) outs(%t : memref<64xf32>)
    memref.dealloc %t : memref<64xf32>
  }
  %d = memref.alloc(%n) : memref<?xf32>
  memref.dealloc %d : memref<?xf32>
  return %r : memref<64xf32>
}

// -----

// Left alone: a public function, one marked fuse.no_plan, one that is not
// a group's, and one whose address is taken.
// CHECK-LABEL: func.func @public_group
// CHECK: memref.alloc
// CHECK-LABEL: func.func private @reference__group0
// CHECK: memref.alloc
// CHECK-LABEL: func.func private @helper
// CHECK: memref.alloc
// CHECK-LABEL: func.func private @taken__group0
// CHECK: memref.alloc
func.func @public_group(%x: memref<64xf32>) attributes {fuse.kind = "vertical"} {
  %t = memref.alloc() : memref<64xf32>
  linalg.exp ins(%x : memref<64xf32>) outs(%t : memref<64xf32>)
  memref.dealloc %t : memref<64xf32>
  return
}
func.func @reference(%x: memref<64xf32>) attributes {fuse.no_plan} {
  call @reference__group0(%x) : (memref<64xf32>) -> ()
  call @helper(%x) : (memref<64xf32>) -> ()
  %f = func.constant @taken__group0 : (memref<64xf32>) -> ()
  call @taken__group0(%x) : (memref<64xf32>) -> ()
  return
}
func.func private @reference__group0(%x: memref<64xf32>) attributes {fuse.kind = "vertical", fuse.no_plan} {
  %t = memref.alloc() : memref<64xf32>
  linalg.exp ins(%x : memref<64xf32>) outs(%t : memref<64xf32>)
  memref.dealloc %t : memref<64xf32>
  return
}
func.func private @helper(%x: memref<64xf32>) {
  %t = memref.alloc() : memref<64xf32>
  linalg.exp ins(%x : memref<64xf32>) outs(%t : memref<64xf32>)
  memref.dealloc %t : memref<64xf32>
  return
}
func.func private @taken__group0(%x: memref<64xf32>) attributes {fuse.kind = "vertical"} {
  %t = memref.alloc() : memref<64xf32>
  linalg.exp ins(%x : memref<64xf32>) outs(%t : memref<64xf32>)
  memref.dealloc %t : memref<64xf32>
  return
}
