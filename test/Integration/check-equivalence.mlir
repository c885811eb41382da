// The equivalence check itself: it must fail when the fused result is off
// (here by 1e-3 on one output), and say where.
// RUN: not %check_equivalence %s --perturb 1e-3 | FileCheck %s
// CHECK: output 0 tensor<4x8xf32>: max abs err 0.001{{.*}}: FAIL
// CHECK-NEXT: output 1 tensor<4x8xf32>: {{.*}}: PASS
// CHECK-NEXT: FAIL: 1 of 2 outputs differ
// Multi-output functions: every output is compared.
// RUN: %check_equivalence %s | FileCheck %s --check-prefix=OK
// OK: output 0 tensor<4x8xf32>: {{.*}}: PASS
// OK-NEXT: output 1 tensor<4x8xf32>: {{.*}}: PASS
// OK-NEXT: PASS
func.func @two_outputs(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %a = tosa.tanh %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %b = tosa.add %a, %y : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = tosa.exp %b : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %b, %c : tensor<4x8xf32>, tensor<4x8xf32>
}

// Per group: each group checked on its own.
// RUN: %check_equivalence %s --per-group | FileCheck %s --check-prefix=GROUPS
// GROUPS: group two_outputs__group0: PASS
// GROUPS-NEXT: PASS
