// fuse-cpu-outline-parallel: each outermost parallel loop becomes a private
// function over a range of its linearized iterations (fuse.parallel_body),
// called once over all of them; loops that do too little, yield values or
// use values of other types stay where they are.
// RUN: fuse-opt %s --split-input-file --fuse-cpu-outline-parallel | FileCheck %s
// RUN: fuse-opt %s --split-input-file --fuse-cpu-outline-parallel="min-work=0" | FileCheck %s --check-prefix=ALL
// RUN: not fuse-opt %s --fuse-cpu-outline-parallel="min-work=-1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPTION

// OPTION: fuse-cpu-outline-parallel: option 'min-work' must be at least 0, got -1

// A 3-D scf.parallel over 4x128x64 elements: its first two dimensions (512
// iterations, enough for the threads) become one range, the last stays a
// loop inside each iteration (it still vectorizes).
// CHECK-LABEL: func.func @elementwise
// CHECK-SAME: (%[[A:.*]]: memref<4x128x64xf32>, %[[B:.*]]: memref<4x128x64xf32>)
// CHECK-NOT: scf.parallel
// CHECK: call @elementwise_parallel0(%{{.*}}, %{{.*}}, %[[A]], %[[B]]) : (index, index, memref<4x128x64xf32>, memref<4x128x64xf32>) -> ()
// CHECK: func.func private @elementwise_parallel0(%[[LO:.*]]: index, %[[HI:.*]]: index, %[[X:.*]]: memref<4x128x64xf32>, %[[Y:.*]]: memref<4x128x64xf32>) attributes {fuse.parallel_body}
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK: scf.for %[[L:.*]] = %[[LO]] to %[[HI]]
// CHECK: %[[J:.*]] = arith.remui %[[L]], %[[C128]]
// CHECK: %[[I:.*]] = arith.divui %[[L]], %[[C128]]
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[C64]]
// CHECK: memref.load %[[X]][%{{.*}}, %{{.*}}, %[[K]]]
// CHECK: math.exp
// CHECK: memref.store %{{.*}}, %[[Y]][%{{.*}}, %{{.*}}, %[[K]]]
func.func @elementwise(%a: memref<4x128x64xf32>, %b: memref<4x128x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%c4, %c128, %c64) step (%c1, %c1, %c1) {
    %v = memref.load %a[%i, %j, %k] : memref<4x128x64xf32>
    %e = math.exp %v : f32
    memref.store %e, %b[%i, %j, %k] : memref<4x128x64xf32>
    scf.reduce
  }
  return
}

// -----

// Register-tile loops (fuse-cpu-vectorize marks them fuse.parallel_tiles)
// collapse into one range: 4 column blocks x 8 row blocks = 32 tiles, the
// reduction loop inside each; step and lower bound are applied. The loop
// over K blocks around them stays a loop of the caller, whose induction
// variable the body takes as an argument.
// CHECK-LABEL: func.func @tiles
// CHECK-SAME: (%[[A:.*]]: memref<64x512xf32>, %[[B:.*]]: memref<512x128xf32>, %[[C:.*]]: memref<64x128xf32>)
// CHECK: scf.for %[[KB:.*]] =
// CHECK-NOT: scf.for
// CHECK: call @tiles_parallel0(%{{.*}}, %{{.*}}, %[[C]], %[[KB]], %[[A]], %[[B]])
// CHECK: func.func private @tiles_parallel0(%{{.*}}: index, %{{.*}}: index, %{{.*}}: memref<64x128xf32>, %{{.*}}: index, %{{.*}}: memref<64x512xf32>, %{{.*}}: memref<512x128xf32>) attributes {fuse.parallel_body}
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: scf.for %[[L:.*]] =
// CHECK: %[[R:.*]] = arith.remui %[[L]], %[[C8]]
// CHECK: %[[Q:.*]] = arith.divui %[[L]], %[[C8]]
// CHECK: arith.muli %[[R]], %[[C8]]
// CHECK: arith.muli %[[Q]], %[[C32:.*]] :
// CHECK: scf.for
// CHECK: vector.fma
// ALL-LABEL: func.func @tiles
// ALL: call @tiles_parallel0
func.func @tiles(%a: memref<64x512xf32>, %b: memref<512x128xf32>, %c: memref<64x128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %c512 = arith.constant 512 : index
  %zero = arith.constant 0.0 : f32
  scf.for %kb = %c0 to %c512 step %c256 {
    scf.for %n = %c0 to %c128 step %c32 {
      scf.for %m = %c0 to %c64 step %c8 {
        %acc0 = vector.transfer_read %c[%m, %n], %zero : memref<64x128xf32>, vector<32xf32>
        %acc = scf.for %kk = %c0 to %c256 step %c1 iter_args(%acc1 = %acc0) -> (vector<32xf32>) {
          %k = arith.addi %kb, %kk : index
          %x = memref.load %a[%m, %k] : memref<64x512xf32>
          %xv = vector.broadcast %x : f32 to vector<32xf32>
          %y = vector.transfer_read %b[%k, %n], %zero : memref<512x128xf32>, vector<32xf32>
          %r = vector.fma %xv, %y, %acc1 : vector<32xf32>
          scf.yield %r : vector<32xf32>
        }
        vector.transfer_write %acc, %c[%m, %n] : vector<32xf32>, memref<64x128xf32>
      } {fuse.parallel_tiles}
    } {fuse.parallel_tiles}
  }
  return
}

// -----

// Too little work: 16 additions stay a loop (min-work=0 outlines them).
// CHECK-LABEL: func.func @small
// CHECK: scf.parallel
// CHECK-NOT: call
// ALL-LABEL: func.func @small
// ALL: call @small_parallel0
func.func @small(%a: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%i) = (%c0) to (%c16) step (%c1) {
    %v = memref.load %a[%i] : memref<16xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %a[%i] : memref<16xf32>
    scf.reduce
  }
  return
}

// -----

// Not parallel: a reduction (results), an unmarked scf.for, a marked loop
// carrying a value, one iteration, and a use of a value of another type.
// ALL-LABEL: func.func @stays
// ALL-NOT: call
// ALL: scf.parallel
// ALL: scf.for
// ALL: scf.for
// ALL: scf.parallel
// ALL: scf.parallel
// ALL-NOT: call
func.func @stays(%a: memref<4096xf32>, %t: tensor<4xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4096 = arith.constant 4096 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.parallel (%i) = (%c0) to (%c4096) step (%c1) init (%zero) -> f32 {
    %v = memref.load %a[%i] : memref<4096xf32>
    scf.reduce(%v : f32) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      scf.reduce.return %s : f32
    }
  }
  scf.for %i = %c0 to %c4096 step %c1 {
    %v = memref.load %a[%i] : memref<4096xf32>
    %w = arith.addf %v, %sum : f32
    memref.store %w, %a[%i] : memref<4096xf32>
  }
  %carried = scf.for %i = %c0 to %c4096 step %c1 iter_args(%acc = %zero) -> (f32) {
    %v = memref.load %a[%i] : memref<4096xf32>
    %w = arith.addf %v, %acc : f32
    scf.yield %w : f32
  } {fuse.parallel_tiles}
  scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
    memref.store %carried, %a[%i] : memref<4096xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c4096) step (%c1) {
    %v = tensor.extract %t[%c0] : tensor<4xf32>
    memref.store %v, %a[%i] : memref<4096xf32>
    scf.reduce
  }
  return %carried : f32
}

// -----

// Dynamic bounds: the count is max(0, ceil((ub - lb) / step)), computed in
// the caller and in the body; the bound is an argument.
// ALL-LABEL: func.func @dynamic
// ALL: arith.ceildivsi
// ALL: arith.maxsi
// ALL: call @dynamic_parallel0(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (index, index, index, memref<?xf32>) -> ()
func.func @dynamic(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c2) {
    %v = memref.load %a[%i] : memref<?xf32>
    %w = arith.mulf %v, %v : f32
    memref.store %w, %a[%i] : memref<?xf32>
    scf.reduce
  }
  return
}
