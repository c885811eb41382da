// Rules can be switched off by name; multi-output groups are a rule too.
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="disable-rules=contraction_epilogue" | FileCheck %s --check-prefix=NOEPI
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="disable-rules=contraction_epilogue report=-" -o /dev/null | FileCheck %s --check-prefix=NOEPI-REPORT
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="disable-rules=multi_output,elementwise_chain report=-" -o /dev/null | FileCheck %s --check-prefix=NOMULTI

// CHECK-LABEL: func @matmul_relu
// CHECK: fuse.group vertical rule "contraction_epilogue"
// NOEPI-LABEL: func @matmul_relu
// NOEPI: fuse.group single
// NOEPI: fuse.group single
// NOEPI-REPORT: "name": "matmul_relu"
// NOEPI-REPORT: "disabled_rules": [
// NOEPI-REPORT-NEXT: "contraction_epilogue"
// NOEPI-REPORT: "rule": "contraction_epilogue",
// NOEPI-REPORT-NEXT: "check": "rule_disabled",
// NOEPI-REPORT: "reason": "rule 'contraction_epilogue' is disabled"
func.func @matmul_relu(%x: tensor<1x16x32xf32>, %w: tensor<1x32x64xf32>) -> tensor<1x16x64xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x, %w, %zp, %zp : (tensor<1x16x32xf32>, tensor<1x32x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x64xf32>
  %r = tosa.clamp %m {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x64xf32>) -> tensor<1x16x64xf32>
  return %r : tensor<1x16x64xf32>
}

// -----

// multi_output: the matmul result is returned and also feeds the epilogue,
// so the group yields both.
// CHECK-LABEL: func @multi_output
// CHECK: %[[G:.*]]:2 = fuse.group diagonal rule "contraction_epilogue"
// CHECK: return %[[G]]#{{[01]}}, %[[G]]#{{[01]}}
// NOMULTI: "name": "multi_output"
// NOMULTI: "check": "rule_disabled",
// NOMULTI: "reason": "the merge needs a multi-output group (an intermediate has users outside), and rule 'multi_output' is disabled"
func.func @multi_output(%x: tensor<1x16x32xf32>, %w: tensor<1x32x64xf32>) -> (tensor<1x16x64xf32>, tensor<1x16x64xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x, %w, %zp, %zp : (tensor<1x16x32xf32>, tensor<1x32x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x64xf32>
  %r = tosa.clamp %m {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x64xf32>) -> tensor<1x16x64xf32>
  return %m, %r : tensor<1x16x64xf32>, tensor<1x16x64xf32>
}
