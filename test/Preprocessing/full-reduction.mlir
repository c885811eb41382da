// A reduction of every dimension to a scalar, and arithmetic on scalars,
// gets a leading unit dimension in fuse-prune
// (UnitDimForFullReduction{,Generic}): the GPU tiling needs a
// parallel loop to give a block, and a full reduction had none ("needs a
// split reduction"). The arithmetic and its order are unchanged.
// RUN: fuse-opt %s -split-input-file --fuse-prune | FileCheck %s
// The whole GPU build now takes each function; fused against unfused on
// the CPU through the emulated GPU schedule (one block, 128 threads).
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline=target=h200 \
// RUN:   | fuse-opt -split-input-file --fuse-to-nvptx=target=h200 | FileCheck %s --check-prefix=GPU
// GPU-COUNT-6: gpu.launch_func
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline=target=h200 | FileCheck %s --check-prefix=FUSED
// RUN: %check_equivalence %s --function sum_all --lower-groups --distribute-threads 128 | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function sum_two --lower-groups --distribute-threads 128 | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function arg_max --lower-groups --distribute-threads 128 | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function sum_exp --lower-groups --distribute-threads 128 | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function mean_all --lower-groups --distribute-threads 128 | FileCheck %s --check-prefix=EXEC
// EXEC: PASS{{$}}

// CHECK-LABEL: func @sum_all
// CHECK-DAG: %[[X:.+]] = tensor.expand_shape %arg0 {{\[}}[0, 1], [2]] output_shape [1, 16, 32]
// CHECK-DAG: %[[INIT:.+]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1xf32>)
// CHECK: %[[R:.+]] = linalg.reduce ins(%[[X]] : tensor<1x16x32xf32>) outs(%[[INIT]] : tensor<1xf32>) dimensions = [1, 2]
// CHECK: tensor.collapse_shape %[[R]] [] : tensor<1xf32> into tensor<f32>
func.func @sum_all(%x: tensor<16x32xf32>) -> tensor<f32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%x : tensor<16x32xf32>) outs(%i : tensor<f32>) dimensions = [0, 1]
    (%a: f32, %b: f32) {
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    }
  return %r : tensor<f32>
}

// -----

// An init that is not a fill of an empty tensor is copied into a [1]
// tensor; two inputs and two results.
// CHECK-LABEL: func @sum_two
// CHECK: linalg.generic {{.*}} ins(%arg2 : tensor<f32>) outs(%{{.*}} : tensor<1xf32>)
// CHECK: linalg.reduce ins(%{{.*}}, %{{.*}} : tensor<1x64xf32>, tensor<1x64xf32>) outs(%{{.*}}, %{{.*}} : tensor<1xf32>, tensor<1xf32>) dimensions = [1]
// CHECK-COUNT-2: tensor.collapse_shape
func.func @sum_two(%x: tensor<64xf32>, %y: tensor<64xf32>, %start: tensor<f32>)
    -> (tensor<f32>, tensor<f32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r:2 = linalg.reduce ins(%x, %y : tensor<64xf32>, tensor<64xf32>) outs(%start, %i : tensor<f32>, tensor<f32>) dimensions = [0]
    (%a: f32, %c: f32, %b: f32, %d: f32) {
      %s = arith.addf %a, %b : f32
      %t = arith.maximumf %c, %d : f32
      linalg.yield %s, %t : f32, f32
    }
  return %r#0, %r#1 : tensor<f32>, tensor<f32>
}

// -----

// A generic whose loops all reduce (an ArgMax over a vector, reading its
// position with linalg.index): the unit loop comes first, only the
// outputs read it, and the index moves to loop 1.
// CHECK-DAG: #[[IN:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func @arg_max
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]], #[[OUT]]], iterator_types = ["parallel", "reduction"]}
// CHECK: linalg.index 1 : index
// CHECK-COUNT-2: tensor.collapse_shape
func.func @arg_max(%x: tensor<100xf32>) -> (tensor<f32>, tensor<i64>) {
  %lowest = arith.constant -3.40282347E+38 : f32
  %zero = arith.constant 0 : i64
  %e = tensor.empty() : tensor<f32>
  %v = linalg.fill ins(%lowest : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %ei = tensor.empty() : tensor<i64>
  %k = linalg.fill ins(%zero : i64) outs(%ei : tensor<i64>) -> tensor<i64>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> ()>],
                         iterator_types = ["reduction"]}
      ins(%x : tensor<100xf32>) outs(%v, %k : tensor<f32>, tensor<i64>) {
    ^bb0(%in: f32, %best: f32, %at: i64):
      %i = linalg.index 0 : index
      %ii = arith.index_cast %i : index to i64
      %better = arith.cmpf ogt, %in, %best : f32
      %nv = arith.select %better, %in, %best : f32
      %nk = arith.select %better, %ii, %at : i64
      linalg.yield %nv, %nk : f32, i64
  } -> (tensor<f32>, tensor<i64>)
  return %r#0, %r#1 : tensor<f32>, tensor<i64>
}

// -----

// The reduction's elementwise producer stays in its group (one kernel).
// CHECK-LABEL: func @sum_exp
// CHECK: linalg.reduce ins(%{{.*}} : tensor<1x8x16xf32>)
// FUSED-LABEL: func @sum_exp
// FUSED: fuse.group vertical rule "row_reduction"
// FUSED: math.exp
// FUSED: linalg.reduce
// FUSED-NOT: fuse.group
// FUSED: return
func.func @sum_exp(%x: tensor<8x16xf32>) -> tensor<f32> {
  %z = arith.constant 0.0 : f32
  %ex = tensor.empty() : tensor<8x16xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x16xf32>) outs(%ex : tensor<8x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = math.exp %in : f32
      linalg.yield %v : f32
  } -> tensor<8x16xf32>
  %e = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%p : tensor<8x16xf32>) outs(%i : tensor<f32>) dimensions = [0, 1]
    (%a: f32, %b: f32) {
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    }
  return %r : tensor<f32>
}

// -----

// A mean: the sum, then arithmetic on the scalar (a generic with no loop),
// which gets the unit loop too; its empty init becomes a [1] empty.
// CHECK-LABEL: func @mean_all
// CHECK: linalg.reduce ins(%{{.*}} : tensor<1x64xf32>)
// CHECK: %[[E:.+]] = tensor.empty() : tensor<1xf32>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel"]} ins(%{{.*}} : tensor<f32>) outs(%[[E]] : tensor<1xf32>)
// CHECK: arith.divf
func.func @mean_all(%x: tensor<64xf32>) -> tensor<f32> {
  %z = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %e = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%x : tensor<64xf32>) outs(%i : tensor<f32>) dimensions = [0]
    (%a: f32, %b: f32) {
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    }
  %e2 = tensor.empty() : tensor<f32>
  %m = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%r : tensor<f32>) outs(%e2 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %d = arith.divf %in, %n : f32
      linalg.yield %d : f32
  } -> tensor<f32>
  return %m : tensor<f32>
}

// -----

// Left alone: a reduction that keeps a dimension, and one whose input has
// a dynamic size.
// CHECK-LABEL: func @keeps_a_dim
// CHECK-NOT: expand_shape
// CHECK: linalg.reduce ins(%arg0 : tensor<4x8xf32>) outs(%{{.*}} : tensor<4xf32>) dimensions = [1]
func.func @keeps_a_dim(%x: tensor<4x8xf32>, %i: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.reduce ins(%x : tensor<4x8xf32>) outs(%i : tensor<4xf32>) dimensions = [1]
    (%a: f32, %b: f32) {
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    }
  return %r : tensor<4xf32>
}

