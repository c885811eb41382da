// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="disable-rules=concat_slices" | FileCheck %s --check-prefix=OFF
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT
// Fused and unfused give the same results on the CPU.
// RUN: %check_equivalence %s --function tosa_concat | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function tensor_concat | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function reordered | FileCheck %s --check-prefix=EQUIV
// With every group lowered to one tile loop nest too.
// RUN: %check_equivalence %s --function tosa_concat --lower-groups | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function tensor_concat --lower-groups | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function reordered --lower-groups | FileCheck %s --check-prefix=EQUIV
// EQUIV-NOT: FAIL
// EQUIV: PASS

// concat_slices: each branch writes straight into its slice of the
// concatenated tensor; no copy kernel remains.
// CHECK-LABEL: func @tosa_concat
// CHECK: %[[A:.*]] = fuse.group diagonal rule "concat_slices"
// CHECK: math.tanh
// CHECK: tensor.insert_slice {{.*}}[0, 0, 0, 0] [1, 8, 8, 4]
// CHECK: %[[B:.*]] = fuse.group diagonal rule "concat_slices" ({{.*}}, %{{.*}} = %[[A]] : tensor<1x8x8x8xf32>)
// CHECK: math.exp
// CHECK: tensor.insert_slice {{.*}}[0, 0, 0, 4] [1, 8, 8, 4]
// CHECK-NOT: fuse.group
// CHECK: return %[[B]]
// OFF-LABEL: func @tosa_concat
// OFF-COUNT-4: fuse.group single
// REPORT: "name": "tosa_concat"
// REPORT: "kernels_before": 4
// REPORT-NEXT: "kernels_after": 2
// REPORT-NEXT: "bytes_before": 8192
// REPORT-NEXT: "bytes_after": 4096
func.func @tosa_concat(%x: tensor<1x8x8x4xf32>, %y: tensor<1x8x8x4xf32>) -> tensor<1x8x8x8xf32> {
  %a = tosa.tanh %x : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %b = tosa.exp %y : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %c = tosa.concat %a, %b {axis = 3 : i32} : (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x8xf32>
  return %c : tensor<1x8x8x8xf32>
}

// -----

// tensor.concat in linalg input is decomposed by fuse-prune the same way.
// CHECK-LABEL: func @tensor_concat
// CHECK-COUNT-2: fuse.group diagonal rule "concat_slices"
// CHECK-NOT: fuse.group
func.func @tensor_concat(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<8x8xf32> {
  %a = math.tanh %x : tensor<4x8xf32>
  %b = math.exp %y : tensor<4x8xf32>
  %c = tensor.concat dim(0) %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  return %c : tensor<8x8xf32>
}

// -----

// The branch computed later in program order but earlier in the dataflow
// (absf) writes its slice first, so neither kernel waits on the other's
// output. (Its group also takes in tanh, a sibling on the same input.)
// CHECK-LABEL: func @reordered
// CHECK: fuse.group composite rule "sibling_merge"
// CHECK: math.absf
// CHECK: tensor.insert_slice {{.*}}[0, 4] [4, 4]
// CHECK: linalg.transpose
// CHECK: fuse.group diagonal rule "concat_slices"
// CHECK: math.exp
// CHECK: tensor.insert_slice {{.*}}[0, 0] [4, 4]
func.func @reordered(%x: tensor<4x4xf32>) -> tensor<4x8xf32> {
  %a1 = math.tanh %x : tensor<4x4xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %a2 = linalg.transpose ins(%a1 : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) permutation = [1, 0]
  %a3 = math.exp %a2 : tensor<4x4xf32>
  %b = math.absf %x : tensor<4x4xf32>
  %c = tensor.concat dim(1) %a3, %b : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}
