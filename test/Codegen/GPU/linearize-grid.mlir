// fuse-linearize-grid: a tile loop with more than three dimensions keeps
// every tile in the grid (its leading dimensions collapse into one), and
// one whose y or z would exceed 65535 tiles collapses into x; a loop that
// fits stays as it is, and so do loops inside a tile.
// RUN: fuse-opt %s --fuse-linearize-grid --canonicalize | FileCheck %s
// RUN: fuse-opt %s --fuse-linearize-grid | FileCheck %s --check-prefix=RAW
// Then gpu-map-parallel-loops and the launch: the NHWC loop launches all
// 2 x 7 x 2 x 16 = 448 tiles, no sequential loop over channel tiles.
// RUN: fuse-opt %s --fuse-linearize-grid --canonicalize --gpu-map-parallel-loops \
// RUN:   --convert-parallel-loops-to-gpu --canonicalize | FileCheck %s --check-prefix=LAUNCH
// Without the pass the fourth dimension stays a loop inside each block.
// RUN: fuse-opt %s --gpu-map-parallel-loops --convert-parallel-loops-to-gpu \
// RUN:   | FileCheck %s --check-prefix=SEQUENTIAL

// CHECK-LABEL: func @nhwc
// CHECK: scf.parallel (%{{.*}}, %{{.*}}, %{{.*}}) = (%c0, %c0, %c0) to (%c14, %c2, %c16)
// CHECK-NOT: scf.parallel
// CHECK: memref.store
// LAUNCH-LABEL: func @nhwc
// LAUNCH: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c14{{.*}}, %{{.*}} = %c2{{.*}}, %{{.*}} = %c16{{.*}})
// LAUNCH-NOT: scf.for
// LAUNCH: memref.store
// SEQUENTIAL-LABEL: func @nhwc
// SEQUENTIAL: gpu.launch
// SEQUENTIAL: scf.for
// SEQUENTIAL: memref.store
func.func @nhwc(%out: memref<2x7x14x512xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c7 = arith.constant 7 : index
  %c14 = arith.constant 14 : index
  %c32 = arith.constant 32 : index
  %c512 = arith.constant 512 : index
  %v = arith.constant 1.0 : f32
  scf.parallel (%n, %h, %w, %c) = (%c0, %c0, %c0, %c0) to (%c2, %c7, %c14, %c512) step (%c1, %c1, %c7, %c32) {
    memref.store %v, %out[%n, %h, %w, %c] : memref<2x7x14x512xf32>
    scf.reduce
  }
  return
}

// A y dimension of 70000 tiles does not fit the grid's y: all into x.
// CHECK-LABEL: func @tall
// CHECK: scf.parallel (%{{.*}}) = (%c0) to (%c140000) step (%c1)
// CHECK-NOT: scf.parallel
func.func @tall(%out: memref<2x70000xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c70000 = arith.constant 70000 : index
  %v = arith.constant 1.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c2, %c70000) step (%c1, %c1) {
    memref.store %v, %out[%i, %j] : memref<2x70000xf32>
    scf.reduce
  }
  return
}

// Three dimensions within the limits: unchanged; the loop inside the tile
// is not a grid.
// CHECK-LABEL: func @fits
// RAW-LABEL: func @fits
// RAW: scf.parallel (%{{.*}}, %{{.*}}, %{{.*}}) = (%c0, %c0, %c0) to (%c4, %c4, %c4)
// RAW: scf.parallel (%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) =
func.func @fits(%out: memref<4x4x4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %v = arith.constant 1.0 : f32
  scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%c4, %c4, %c4) step (%c1, %c1, %c1) {
    scf.parallel (%a, %b, %c, %d) = (%c0, %c0, %c0, %c0) to (%c1, %c1, %c1, %c4) step (%c1, %c1, %c1, %c1) {
      memref.store %v, %out[%i, %j, %k, %d] : memref<4x4x4x4xf32>
      scf.reduce
    }
    scf.reduce
  }
  return
}

// Dynamic extents cannot be checked against the y/z limit: all into x.
// CHECK-LABEL: func @dynamic
// CHECK: scf.parallel (%{{[^,]*}}) =
func.func @dynamic(%out: memref<?x?xf32>, %n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = arith.constant 1.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %m) step (%c1, %c1) {
    memref.store %v, %out[%i, %j] : memref<?x?xf32>
    scf.reduce
  }
  return
}
