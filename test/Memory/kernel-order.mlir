// The kernel order for memory (fuse-form-groups order-kernels, on by
// default): independent branches run one after another instead of all
// their first kernels first, the report gives max-live in the source order,
// in the order chosen and the bound no order beats, and the fused,
// reordered program computes what the unfused one does.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200" | FileCheck %s --check-prefix=ORDER
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 order-kernels=false report=-" -o /dev/null | FileCheck %s --check-prefix=OFF
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 order-kernels=false" | FileCheck %s --check-prefix=SOURCE
// RUN: %check_equivalence %s --function branches | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function chain | FileCheck %s --check-prefix=EXEC

// Three branches x_i -> wide (64x1024) -> narrow (64x16), summed. Written
// with the three wide products first, all three are alive at once (3 x
// 256 KiB plus the narrow results); a branch at a time, one is.
func.func @branches(%x1: tensor<64x64xf32>, %x2: tensor<64x64xf32>, %x3: tensor<64x64xf32>,
                    %w1: tensor<64x1024xf32>, %w2: tensor<64x1024xf32>, %w3: tensor<64x1024xf32>,
                    %v1: tensor<1024x16xf32>, %v2: tensor<1024x16xf32>, %v3: tensor<1024x16xf32>) -> tensor<64x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ew = tensor.empty() : tensor<64x1024xf32>
  %fw = linalg.fill ins(%zero : f32) outs(%ew : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %es = tensor.empty() : tensor<64x16xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%es : tensor<64x16xf32>) -> tensor<64x16xf32>
  %a1 = linalg.matmul ins(%x1, %w1 : tensor<64x64xf32>, tensor<64x1024xf32>) outs(%fw : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %a2 = linalg.matmul ins(%x2, %w2 : tensor<64x64xf32>, tensor<64x1024xf32>) outs(%fw : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %a3 = linalg.matmul ins(%x3, %w3 : tensor<64x64xf32>, tensor<64x1024xf32>) outs(%fw : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %b1 = linalg.matmul ins(%a1, %v1 : tensor<64x1024xf32>, tensor<1024x16xf32>) outs(%fs : tensor<64x16xf32>) -> tensor<64x16xf32>
  %b2 = linalg.matmul ins(%a2, %v2 : tensor<64x1024xf32>, tensor<1024x16xf32>) outs(%fs : tensor<64x16xf32>) -> tensor<64x16xf32>
  %b3 = linalg.matmul ins(%a3, %v3 : tensor<64x1024xf32>, tensor<1024x16xf32>) outs(%fs : tensor<64x16xf32>) -> tensor<64x16xf32>
  %s = linalg.add ins(%b1, %b2 : tensor<64x16xf32>, tensor<64x16xf32>) outs(%es : tensor<64x16xf32>) -> tensor<64x16xf32>
  %t = linalg.add ins(%s, %b3 : tensor<64x16xf32>, tensor<64x16xf32>) outs(%es : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %t : tensor<64x16xf32>
}
// REPORT: "name": "branches"
// REPORT: "memory": {
// REPORT: "arena": 270336,
// REPORT: "kernel_order": {
// REPORT-NEXT: "strategy": "branch-first-backwards",
// REPORT-NEXT: "max_live_source_order": 790528,
// REPORT-NEXT: "max_live": 270336,
// REPORT-NEXT: "bound": 270336

// Each wide product is followed by its narrow one; the branch summed
// first by the join runs last, just before it.
// ORDER-LABEL: func.func @branches
// ORDER: %[[A2:.*]] = fuse.group single (%{{.*}} = %arg1
// ORDER: %[[B2:.*]] = fuse.group single (%{{.*}} = %[[A2]]
// ORDER: %[[A3:.*]] = fuse.group single (%{{.*}} = %arg2
// ORDER: %[[B3:.*]] = fuse.group single (%{{.*}} = %[[A3]]
// ORDER: %[[A1:.*]] = fuse.group single (%{{.*}} = %arg0
// ORDER: fuse.group diagonal rule "residual_join" (%{{.*}} = %[[A1]]

// Off: the source order, all three wide products alive together.
// OFF: "name": "branches"
// OFF: "memory": {
// OFF: "arena": 790528,
// OFF: "kernel_order": {
// OFF-NEXT: "strategy": "given",
// OFF-NEXT: "max_live_source_order": 790528,
// OFF-NEXT: "max_live": 790528,
// SOURCE-LABEL: func.func @branches
// SOURCE: fuse.group single (%{{.*}} = %arg0
// SOURCE: fuse.group single (%{{.*}} = %arg1
// SOURCE: fuse.group single (%{{.*}} = %arg2

// A chain has one order: kept, and at the bound.
func.func @chain(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %a = linalg.matmul ins(%x, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %b = linalg.matmul ins(%a, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = linalg.matmul ins(%b, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}
// REPORT: "name": "chain"
// REPORT: "kernel_order": {
// REPORT-NEXT: "strategy": "given",
// REPORT-NEXT: "max_live_source_order": 32768,
// REPORT-NEXT: "max_live": 32768,
// REPORT-NEXT: "bound": 32768

// EXEC: PASS
