// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="disable-rules=sibling_merge" | FileCheck %s --check-prefix=OFF
// Fused and unfused give the same results on the CPU.
// RUN: %check_equivalence %s --function sibling_reductions | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function dependent | FileCheck %s --check-prefix=EQUIV
// With every group lowered to one tile loop nest too.
// RUN: %check_equivalence %s --function sibling_reductions --lower-groups | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function dependent --lower-groups | FileCheck %s --check-prefix=EQUIV
// EQUIV-NOT: FAIL
// EQUIV: PASS

// sibling_merge: two independent reductions over the same rows of the same
// input share one launch and one read of the input.
// CHECK-LABEL: func @sibling_reductions
// CHECK: %[[G:.*]]:2 = fuse.group horizontal rule "sibling_merge"
// CHECK-COUNT-2: linalg.reduce
// CHECK-NOT: fuse.group
// CHECK-DAG: tensor.expand_shape %[[G]]#0
// CHECK-DAG: tensor.expand_shape %[[G]]#1
// CHECK: return
// OFF-LABEL: func @sibling_reductions
// OFF-COUNT-2: fuse.group single
func.func @sibling_reductions(%x: tensor<32x128xf32>) -> (tensor<32x1xf32>, tensor<32x1xf32>) {
  %s = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<32x128xf32>) -> tensor<32x1xf32>
  %m = tosa.reduce_max %x {axis = 1 : i32} : (tensor<32x128xf32>) -> tensor<32x1xf32>
  return %s, %m : tensor<32x1xf32>, tensor<32x1xf32>
}

// -----

// Siblings that depend on each other are not siblings: a reduction of a
// row-scaled input stays in its own row group.
// CHECK-LABEL: func @dependent
// CHECK: fuse.group vertical rule "row_reduction"
// CHECK-NOT: fuse.group
func.func @dependent(%x: tensor<32x128xf32>) -> tensor<32x1xf32> {
  %s = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<32x128xf32>) -> tensor<32x1xf32>
  %d = tosa.sub %x, %s : (tensor<32x128xf32>, tensor<32x1xf32>) -> tensor<32x128xf32>
  %m = tosa.reduce_max %d {axis = 1 : i32} : (tensor<32x128xf32>) -> tensor<32x1xf32>
  return %m : tensor<32x1xf32>
}
