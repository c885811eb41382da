// fuse-drop-tile-mapping drops the #fuse.tile mapping of a group's tile
// loop (the GPU build maps the loop to blocks itself) and leaves other
// mappings alone.
// RUN: fuse-opt %s --fuse-drop-tile-mapping | FileCheck %s
// CHECK-LABEL: func @tile
// CHECK: scf.forall
// CHECK-NOT: mapping
// CHECK-LABEL: func @threads
// CHECK: mapping = [#gpu.thread<x>]
func.func @tile(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = scf.forall (%i) in (2) shared_outs(%o = %x) -> (tensor<8xf32>) {
    scf.forall.in_parallel {
    }
  } {mapping = [#fuse.tile<0>]}
  return %r : tensor<8xf32>
}
func.func @threads(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = scf.forall (%i) in (2) shared_outs(%o = %x) -> (tensor<8xf32>) {
    scf.forall.in_parallel {
    }
  } {mapping = [#gpu.thread<x>]}
  return %r : tensor<8xf32>
}
