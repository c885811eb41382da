// Every fusion decision is an MLIR remark of category "fuse": a merge is a
// passed remark (per group and per merge, with rule, kind and bytes), a
// refusal a missed remark naming the rule, the check and the reason. The
// numbers around them are analysis remarks: each op left alone (with why)
// and each function's totals and memory.
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200" --remarks-filter-passed=fuse --remarks-filter-missed=fuse --remark-format=emitRemark -verify-diagnostics -o /dev/null
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200 disable-rules=contraction_epilogue" --remarks-filter-missed=fuse --remark-format=emitRemark 2>&1 -o /dev/null | FileCheck %s --check-prefix=DISABLED
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200" --remarks-filter-analyse=fuse --remark-format=emitRemark 2>&1 -o /dev/null | FileCheck %s --check-prefix=ANALYSIS
// The remarks carry what the report says, as YAML (the file holds the last
// split's remarks): the numbers, the config, the prediction, the dataflow.
// RUN: sed "/expected-remark/d" %s | fuse-opt -split-input-file --fuse-form-groups="target=h200" --remarks-filter=fuse --remark-format=yaml --remarks-output-file=%t.yaml -o /dev/null
// RUN: FileCheck %s --check-prefix=YAML < %t.yaml
// Without a remark engine, nothing is reported.
// RUN: sed "/expected-remark/d" %s | fuse-opt -split-input-file --fuse-form-groups="target=h200" 2>&1 >/dev/null | count 0

// DISABLED: remark: [Missed] refused | Category:fuse:rule_disabled | Function=matmul_relu | Reason="rule 'contraction_epilogue' is disabled", Remark="contraction_epilogue refused by rule_disabled", anchor=linalg.matmul@remarks.mlir:{{[0-9]+}}:{{[0-9]+}}, candidate=linalg.generic@remarks.mlir:{{[0-9]+}}:{{[0-9]+}}, check=rule_disabled, rule=contraction_epilogue

// ANALYSIS: remark: [Analysis] function | Category:fuse:plan | Function=matmul_relu | Remark="2 kernels fused into 1; 22528 bytes moved unfused, 14336 fused", {{.*}}bytes_after=14336, bytes_before=22528, {{.*}}kernels_after=1, kernels_before=2,
// ANALYSIS: remark: [Analysis] alone | Category:fuse:left_alone | Function=two_bound | Remark="group 0: linalg.matmul@remarks.mlir:[[M:[0-9]+]]:8 runs alone", {{.*}}kind=single, {{.*}}reasons="sibling_merge refused by arithmetic_intensity: {{.*}}", rule=,
// ANALYSIS: remark: [Analysis] alone | Category:fuse:left_alone | Function=two_bound | Remark="group 1: linalg.matmul@remarks.mlir:{{[0-9]+}}:8 runs alone"
// ANALYSIS: remark: [Analysis] function | Category:fuse:plan | Function=two_bound | Remark="2 kernels fused into 2;
// ANALYSIS-NOT: remark: [Passed]
// ANALYSIS-NOT: remark: [Missed]

// YAML-LABEL: --- !Analysis
// YAML: Name: alone
// YAML: Function: two_bound
// YAML: - Remark: 'group 0: linalg.matmul@<stdin>:{{[0-9]+}}:8 runs alone'
// YAML: - bytes: '12582912'
// YAML: - lowering_config: '#fuse.lowering_config<schedule = "contraction"
// YAML: - predicted_us:
// YAML: - dataflow: n0 linalg.matmul
// YAML: - reasons: 'sibling_merge refused by arithmetic_intensity:
// YAML: --- !Analysis
// YAML: Name: alone
// YAML: --- !Missed
// YAML: Name: refused
// YAML: - check: arithmetic_intensity
// YAML: --- !Analysis
// YAML: Name: function
// YAML: - kernels_before: '2'
// YAML: - kernels_after: '2'

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @matmul_relu(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>) -> tensor<64x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  // expected-remark @+2 {{[Passed] group | Category:fuse:contraction_epilogue | Function=matmul_relu | Remark="group 0: 2 ops in one kernel"}}
  // expected-remark @+1 {{[Passed] merge | Category:fuse:contraction_epilogue | Function=matmul_relu | Remark="contraction_epilogue took in linalg.generic}}
  %m = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>) outs(%f : tensor<64x16xf32>) -> tensor<64x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<64x16xf32>) outs(%e : tensor<64x16xf32>) {
  ^bb0(%x: f32, %y: f32):
    %t = arith.maximumf %x, %zero : f32
    linalg.yield %t : f32
  } -> tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}

// -----

// Two matmuls on one input, both compute-bound: sibling_merge is refused by
// the arithmetic intensity check.
func.func @two_bound(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>, %c: tensor<1024x1024xf32>) -> (tensor<1024x1024xf32>, tensor<1024x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1024xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m = linalg.matmul ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  // expected-remark @+1 {{[Missed] refused | Category:fuse:arithmetic_intensity | Function=two_bound | Reason="'linalg.matmul@remarks.mlir:68:8' (128.0 FLOP/B) and 'linalg.matmul@remarks.mlir:70:8' (128.0 FLOP/B) are both compute-bound (ridge 14.0 FLOP/B on 'h200'); one kernel would fight for registers", Remark="sibling_merge refused by arithmetic_intensity", anchor=linalg.matmul@remarks.mlir:68:8, candidate=linalg.matmul@remarks.mlir:70:8, check=arithmetic_intensity, rule=sibling_merge}}
  %n = linalg.matmul ins(%a, %c : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %m, %n : tensor<1024x1024xf32>, tensor<1024x1024xf32>
}
