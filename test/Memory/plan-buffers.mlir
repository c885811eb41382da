// RUN: fuse-opt %s -split-input-file --fuse-plan-buffers | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-plan-buffers="in-place=false" | FileCheck %s --check-prefix=NOINPLACE
// RUN: fuse-opt %s -split-input-file --fuse-plan-buffers="workspace=argument alignment=64" | FileCheck %s --check-prefix=WS
// RUN: not fuse-opt %s -split-input-file --fuse-plan-buffers="workspace=heap" 2>&1 | FileCheck %s --check-prefix=BADWS
// RUN: not fuse-opt %s -split-input-file --fuse-plan-buffers="alignment=0" 2>&1 | FileCheck %s --check-prefix=BADALIGN
// BADWS: fuse-plan-buffers: workspace must be 'alloc' or 'argument', got 'heap'
// BADALIGN: fuse-plan-buffers: alignment must be at least 1

// A chain of elementwise groups: each one reads its input for the last time,
// so with in-place reuse all three buffers share one slot; without it two
// slots alternate.
#id = affine_map<(d0) -> (d0)>
func.func private @square(%in: memref<64xf32>, %out: memref<64xf32>) attributes {fuse.kind = "vertical"} {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%in : memref<64xf32>) outs(%out : memref<64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.mulf %a, %a : f32
    linalg.yield %c : f32
  }
  return
}
func.func @chain(%x: memref<64xf32>, %y: memref<64xf32>) {
  %a = memref.alloc() : memref<64xf32>
  call @square(%x, %a) : (memref<64xf32>, memref<64xf32>) -> ()
  %b = memref.alloc() : memref<64xf32>
  call @square(%a, %b) : (memref<64xf32>, memref<64xf32>) -> ()
  memref.dealloc %a : memref<64xf32>
  %c = memref.alloc() : memref<64xf32>
  call @square(%b, %c) : (memref<64xf32>, memref<64xf32>) -> ()
  memref.dealloc %b : memref<64xf32>
  call @square(%c, %y) : (memref<64xf32>, memref<64xf32>) -> ()
  memref.dealloc %c : memref<64xf32>
  return
}
// Group functions themselves are not planned.
// CHECK-LABEL: func.func private @square
// CHECK-NOT: fuse.memory
// CHECK-LABEL: func.func @chain
// CHECK-SAME: fuse.memory = {arena = 256 : i64, in_place_bytes = 512 : i64, max_live = 256 : i64, naive = 768 : i64
// CHECK: %[[ARENA:.*]] = memref.alloc() {alignment = 256 : i64} : memref<256xi8>
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[A:.*]] = memref.view %[[ARENA]][%[[C0]]][] : memref<256xi8> to memref<64xf32>
// CHECK: call @square(%{{.*}}, %[[A]])
// CHECK: %[[B:.*]] = memref.view %[[ARENA]][%{{.*}}][]
// CHECK: call @square(%[[A]], %[[B]])
// CHECK-NOT: memref.dealloc %[[A]]
// CHECK: %[[C:.*]] = memref.view %[[ARENA]][%{{.*}}][]
// CHECK: call @square(%[[B]], %[[C]])
// CHECK: call @square(%[[C]], %{{.*}})
// CHECK-NEXT: memref.dealloc %[[ARENA]] : memref<256xi8>
// CHECK-NEXT: return
// NOINPLACE-LABEL: func.func @chain
// NOINPLACE-SAME: fuse.memory = {arena = 512 : i64, in_place_bytes = 0 : i64, max_live = 512 : i64, naive = 768 : i64
// NOINPLACE: arith.constant 0 : index
// NOINPLACE: arith.constant 256 : index
// NOINPLACE: arith.constant 0 : index
// The caller passes the workspace; a query function says how big it is.
// WS-LABEL: func.func @chain
// WS-SAME: (%{{.*}}: memref<64xf32>, %{{.*}}: memref<64xf32>, %[[WS:.*]]: memref<256xi8>)
// WS-NOT: memref.alloc
// WS: memref.view %[[WS]]
// WS-NOT: memref.dealloc
// WS: return
// WS-LABEL: func.func @chain_workspace_bytes() -> index
// WS-NEXT: %[[N:.*]] = arith.constant 256 : index
// WS-NEXT: return %[[N]]

// -----

// In-place legality. Each call below could reuse its input's memory by size
// and lifetime; each group body breaks one condition, so none does.
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#row = affine_map<(d0, d1) -> (d0)>
// Reads the input transposed: element (i, j) is written before (j, i) is read.
func.func private @transpose(%in: memref<8x8xf32>, %out: memref<8x8xf32>) attributes {fuse.kind = "vertical"} {
  linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%in : memref<8x8xf32>) outs(%out : memref<8x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  return
}
// Reads the input again after it has written the output.
func.func private @reread(%in: memref<8x8xf32>, %out: memref<8x8xf32>) attributes {fuse.kind = "vertical"} {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%in : memref<8x8xf32>) outs(%out : memref<8x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%in : memref<8x8xf32>) outs(%out : memref<8x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %a : f32
    linalg.yield %c : f32
  }
  return
}
// Reads the input through a view.
func.func private @viewed(%in: memref<8x8xf32>, %out: memref<8x8xf32>) attributes {fuse.kind = "vertical"} {
  %v = memref.subview %in[0, 0] [8, 8] [1, 1] : memref<8x8xf32> to memref<8x8xf32, strided<[8, 1]>>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v : memref<8x8xf32, strided<[8, 1]>>) outs(%out : memref<8x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  return
}
// Accumulates into the output (the payload reads the old output).
func.func private @accumulate(%in: memref<8x8xf32>, %out: memref<8x8xf32>) attributes {fuse.kind = "vertical"} {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%in : memref<8x8xf32>) outs(%out : memref<8x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    linalg.yield %c : f32
  }
  return
}
// Fine on its own (used for the caller-side conditions below).
func.func private @copy(%in: memref<8x8xf32>, %out: memref<8x8xf32>) attributes {fuse.kind = "vertical"} {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%in : memref<8x8xf32>) outs(%out : memref<8x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  return
}
func.func private @copy_twice(%in: memref<8x8xf32>, %out0: memref<8x8xf32>, %out1: memref<8x8xf32>) attributes {fuse.kind = "horizontal"} {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%in : memref<8x8xf32>) outs(%out0, %out1 : memref<8x8xf32>, memref<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    linalg.yield %a, %a : f32, f32
  }
  return
}
func.func private @use(%in: memref<8x8xf32>) attributes {fuse.kind = "vertical"}
func.func @legality(%x: memref<8x8xf32>) {
  %t0 = memref.alloc() : memref<8x8xf32>
  call @copy(%x, %t0) : (memref<8x8xf32>, memref<8x8xf32>) -> ()
  %t1 = memref.alloc() : memref<8x8xf32>
  call @transpose(%t0, %t1) : (memref<8x8xf32>, memref<8x8xf32>) -> ()
  %t2 = memref.alloc() : memref<8x8xf32>
  call @reread(%t1, %t2) : (memref<8x8xf32>, memref<8x8xf32>) -> ()
  %t3 = memref.alloc() : memref<8x8xf32>
  call @viewed(%t2, %t3) : (memref<8x8xf32>, memref<8x8xf32>) -> ()
  %t4 = memref.alloc() : memref<8x8xf32>
  call @accumulate(%t3, %t4) : (memref<8x8xf32>, memref<8x8xf32>) -> ()
  // The input is still read after this call.
  %t5 = memref.alloc() : memref<8x8xf32>
  call @copy(%t4, %t5) : (memref<8x8xf32>, memref<8x8xf32>) -> ()
  call @use(%t4) : (memref<8x8xf32>) -> ()
  // One input, two outputs: at most one of them may take its memory.
  %t6 = memref.alloc() : memref<8x8xf32>
  %t7 = memref.alloc() : memref<8x8xf32>
  call @copy_twice(%t5, %t6, %t7) : (memref<8x8xf32>, memref<8x8xf32>, memref<8x8xf32>) -> ()
  call @use(%t6) : (memref<8x8xf32>) -> ()
  call @use(%t7) : (memref<8x8xf32>) -> ()
  return
}
// Only @copy_twice reuses memory: its second output (allocated right before
// the call) takes %t5's; the first cannot as well. 256 bytes in all.
// CHECK-LABEL: func.func @legality
// CHECK-SAME: in_place_bytes = 256 : i64
// CHECK: call @accumulate
// CHECK-NEXT: arith.constant [[O5:[0-9]+]] : index
// CHECK-NEXT: %[[T5:.*]] = memref.view
// CHECK-NEXT: call @copy(%{{.*}}, %[[T5]])
// CHECK-NEXT: call @use
// CHECK-NEXT: arith.constant {{[0-9]+}} : index
// CHECK-NEXT: %[[T6:.*]] = memref.view
// CHECK-NEXT: arith.constant [[O5]] : index
// CHECK-NEXT: %[[T7:.*]] = memref.view
// CHECK-NEXT: call @copy_twice(%[[T5]], %[[T6]], %[[T7]])
// NOINPLACE-LABEL: func.func @legality
// NOINPLACE-SAME: in_place_bytes = 0 : i64

// -----

// Lifetimes follow views; a returned buffer escapes and keeps its own
// allocation; deallocations of views go with the buffer.
func.func private @produce(%out: memref<4x16xf32>) attributes {fuse.kind = "vertical"}
func.func private @consume(%in: memref<64xf32>, %out: memref<4x16xf32>) attributes {fuse.kind = "vertical"}
func.func @views() -> memref<4x16xf32> {
  %a = memref.alloc() : memref<4x16xf32>
  call @produce(%a) : (memref<4x16xf32>) -> ()
  %flat = memref.collapse_shape %a [[0, 1]] : memref<4x16xf32> into memref<64xf32>
  %b = memref.alloc() : memref<4x16xf32>
  call @produce(%b) : (memref<4x16xf32>) -> ()
  %r = memref.alloc() : memref<4x16xf32>
  // %a is read here through its view, so it is live together with %b.
  call @consume(%flat, %r) : (memref<64xf32>, memref<4x16xf32>) -> ()
  %bflat = memref.collapse_shape %b [[0, 1]] : memref<4x16xf32> into memref<64xf32>
  call @consume(%bflat, %r) : (memref<64xf32>, memref<4x16xf32>) -> ()
  %base, %off, %sizes:2, %strides:2 = memref.extract_strided_metadata %b : memref<4x16xf32> -> memref<f32>, index, index, index, index, index
  memref.dealloc %base : memref<f32>
  memref.dealloc %a : memref<4x16xf32>
  return %r : memref<4x16xf32>
}
// CHECK-LABEL: func.func @views
// CHECK-SAME: fuse.memory = {arena = 512 : i64, in_place_bytes = 0 : i64, max_live = 512 : i64, naive = 512 : i64
// CHECK: %[[ARENA:.*]] = memref.alloc() {alignment = 256 : i64} : memref<512xi8>
// CHECK: %[[R:.*]] = memref.alloc() : memref<4x16xf32>
// CHECK-NOT: memref.dealloc %{{.*}} : memref<f32>
// CHECK-NOT: memref.dealloc %{{.*}} : memref<4x16xf32>
// CHECK: memref.dealloc %[[ARENA]]
// CHECK-NEXT: return %[[R]]

// -----

// Functions marked fuse.no_plan and functions with nothing to plan stay as
// they are.
func.func private @produce(%out: memref<16xf32>)
func.func @reference() attributes {fuse.no_plan} {
  %a = memref.alloc() : memref<16xf32>
  call @produce(%a) : (memref<16xf32>) -> ()
  memref.dealloc %a : memref<16xf32>
  return
}
func.func @dynamic(%n: index) {
  %a = memref.alloc(%n) : memref<?xf32>
  memref.dealloc %a : memref<?xf32>
  return
}
// CHECK-LABEL: func.func @reference
// CHECK-NOT: fuse.memory
// CHECK: memref.alloc() : memref<16xf32>
// CHECK-LABEL: func.func @dynamic
// CHECK-NOT: fuse.memory
// CHECK: memref.alloc(%{{.*}}) : memref<?xf32>

// -----

// Concat slices: two kernels write straight into their halves of %cat
// (subviews), a third reads it whole. %cat lives from its allocation to
// that read, so %t, used meanwhile, gets its own slot; %u, made after the
// read, can take %cat's.
func.func private @half(%out: memref<8x4xf32, strided<[8, 1], offset: ?>>) attributes {fuse.kind = "vertical"}
func.func private @temp(%out: memref<8x8xf32>) attributes {fuse.kind = "vertical"}
func.func private @read2(%a: memref<8x8xf32>, %b: memref<8x8xf32>) attributes {fuse.kind = "vertical"}
func.func @concat() {
  %cat = memref.alloc() : memref<8x8xf32>
  %lo = memref.subview %cat[0, 0] [8, 4] [1, 1] : memref<8x8xf32> to memref<8x4xf32, strided<[8, 1]>>
  %lo2 = memref.cast %lo : memref<8x4xf32, strided<[8, 1]>> to memref<8x4xf32, strided<[8, 1], offset: ?>>
  call @half(%lo2) : (memref<8x4xf32, strided<[8, 1], offset: ?>>) -> ()
  %t = memref.alloc() : memref<8x8xf32>
  call @temp(%t) : (memref<8x8xf32>) -> ()
  %hi = memref.subview %cat[0, 4] [8, 4] [1, 1] : memref<8x8xf32> to memref<8x4xf32, strided<[8, 1], offset: 4>>
  %hi2 = memref.cast %hi : memref<8x4xf32, strided<[8, 1], offset: 4>> to memref<8x4xf32, strided<[8, 1], offset: ?>>
  call @half(%hi2) : (memref<8x4xf32, strided<[8, 1], offset: ?>>) -> ()
  call @read2(%t, %cat) : (memref<8x8xf32>, memref<8x8xf32>) -> ()
  %u = memref.alloc() : memref<8x8xf32>
  call @temp(%u) : (memref<8x8xf32>) -> ()
  call @read2(%u, %u) : (memref<8x8xf32>, memref<8x8xf32>) -> ()
  return
}
// CHECK-LABEL: func.func @concat
// CHECK-SAME: fuse.memory = {arena = 512 : i64, in_place_bytes = 0 : i64, max_live = 512 : i64, naive = 768 : i64
// CHECK: arith.constant [[OCAT:[0-9]+]] : index
// CHECK-NEXT: %[[CAT:.*]] = memref.view
// CHECK-NEXT: memref.subview %[[CAT]][0, 0] [8, 4]
// CHECK: arith.constant [[OT:[0-9]+]] : index
// CHECK-NEXT: %[[T:.*]] = memref.view
// CHECK: memref.subview %[[CAT]][0, 4] [8, 4]
// CHECK: call @read2(%[[T]], %[[CAT]])
// CHECK-NEXT: arith.constant [[OCAT]] : index
// CHECK-NEXT: %[[U:.*]] = memref.view
// CHECK-NEXT: call @temp(%[[U]])
