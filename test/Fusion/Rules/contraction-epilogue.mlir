// contraction_epilogue, residual_join and multi_output on hand-written linalg
// (no TOSA): fuse-form-groups alone, decisions checked as remarks.
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200" --remarks-filter-passed=fuse --remarks-filter-missed=fuse --remark-format=emitRemark -verify-diagnostics | FileCheck %s
// Each check says no on its own input (the missed remark names it).
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200 disable-rules=contraction_epilogue" --remarks-filter-missed=fuse --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=DISABLED
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200 max-ops-per-group=2" --remarks-filter-missed=fuse --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=RESOURCE
// Fused and unfused agree on the CPU.
// RUN: %check_equivalence %s --function matmul_bias_relu | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function matmul_bias_relu --lower-groups --distribute-threads config | FileCheck %s --check-prefix=EQUIV
// EQUIV-NOT: FAIL
// EQUIV: PASS

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>

// A matmul, its bias (a broadcast along rows) and a ReLU: one kernel.
// CHECK-LABEL: func @matmul_bias_relu
// CHECK: %[[G:.*]] = fuse.group vertical rule "contraction_epilogue"
// CHECK: linalg.matmul
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: fuse.yield
// CHECK-NOT: fuse.group
// CHECK: return %[[G]]
// DISABLED: [Missed] refused | Category:fuse:rule_disabled | Function=matmul_bias_relu
// RESOURCE: [Missed] refused | Category:fuse:resource | Function=matmul_bias_relu | Reason="3 ops exceed max-ops-per-group 2"
func.func @matmul_bias_relu(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>, %bias: tensor<16xf32>) -> tensor<64x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  // expected-remark @+3 {{[Passed] group | Category:fuse:contraction_epilogue | Function=matmul_bias_relu | Remark="group 0: 3 ops in one kernel"}}
  // expected-remark @+2 {{[Passed] merge | Category:fuse:contraction_epilogue | Function=matmul_bias_relu | Remark="contraction_epilogue took in linalg.generic@contraction-epilogue.mlir:35:8"}}
  // expected-remark @+1 {{[Passed] merge | Category:fuse:contraction_epilogue | Function=matmul_bias_relu | Remark="contraction_epilogue took in linalg.generic@contraction-epilogue.mlir:40:8"}}
  %m = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>) outs(%f : tensor<64x16xf32>) -> tensor<64x16xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%m, %bias : tensor<64x16xf32>, tensor<16xf32>) outs(%e : tensor<64x16xf32>) {
  ^bb0(%x: f32, %c: f32, %o: f32):
    %s = arith.addf %x, %c : f32
    linalg.yield %s : f32
  } -> tensor<64x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%y : tensor<64x16xf32>) outs(%e : tensor<64x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = arith.maximumf %x, %zero : f32
    linalg.yield %t : f32
  } -> tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}
