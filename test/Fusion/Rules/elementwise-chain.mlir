// elementwise_chain: chains of elementwise ops (SiLU, GELU, bf16) fuse.
// fuse-form-groups alone, on the linalg that the TOSA of test/Pipelines/Fusion/elementwise.mlir
// becomes before fusion (the cases of that pipeline test, same decisions).
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200" | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200" --remarks-filter-missed=fuse --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSED --allow-empty
// No candidate is refused here.
// MISSED-NOT: [Missed] refused

// elementwise_chain: SiLU (x * sigmoid(x)) and a following add are one
// kernel.
// CHECK-LABEL: func @silu_add
// CHECK: fuse.group vertical rule "elementwise_chain"
// CHECK-NOT: fuse.group
// CHECK: return
func.func @silu_add(%arg0: tensor<2x8x8x16xf32>, %arg1: tensor<2x8x8x16xf32>) -> tensor<2x8x8x16xf32> {
  %cst = arith.constant 1.000000e+00 : f32
  %0 = tensor.empty() : tensor<2x8x8x16xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x8x8x16xf32>) outs(%0 : tensor<2x8x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %4 = arith.negf %in : f32
    %5 = math.exp %4 : f32
    %6 = arith.addf %5, %cst : f32
    %7 = arith.divf %cst, %6 : f32
    linalg.yield %7 : f32
  } -> tensor<2x8x8x16xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0, %1 : tensor<2x8x8x16xf32>, tensor<2x8x8x16xf32>) outs(%0 : tensor<2x8x8x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %4 = arith.mulf %in, %in_0 : f32
    linalg.yield %4 : f32
  } -> tensor<2x8x8x16xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%2, %arg1 : tensor<2x8x8x16xf32>, tensor<2x8x8x16xf32>) outs(%0 : tensor<2x8x8x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %4 = arith.addf %in, %in_0 : f32
    linalg.yield %4 : f32
  } -> tensor<2x8x8x16xf32>
  return %3 : tensor<2x8x8x16xf32>
}

// -----

// GELU in its erf form, as ONNX exporters write it: one kernel.
// CHECK-LABEL: func @gelu_erf
// CHECK: fuse.group vertical rule "elementwise_chain"
// CHECK-NOT: fuse.group
// CHECK: return
func.func @gelu_erf(%arg0: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %cst = arith.constant dense<0.707106769> : tensor<1x1xf32>
  %cst_0 = arith.constant dense<1.000000e+00> : tensor<1x1xf32>
  %cst_1 = arith.constant dense<5.000000e-01> : tensor<1x1xf32>
  %0 = tensor.empty() : tensor<4x64xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %cst : tensor<4x64xf32>, tensor<1x1xf32>) outs(%0 : tensor<4x64xf32>) {
  ^bb0(%in: f32, %in_2: f32, %out: f32):
    %6 = arith.mulf %in, %in_2 : f32
    linalg.yield %6 : f32
  } -> tensor<4x64xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<4x64xf32>) outs(%0 : tensor<4x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %6 = math.erf %in : f32
    linalg.yield %6 : f32
  } -> tensor<4x64xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%2, %cst_0 : tensor<4x64xf32>, tensor<1x1xf32>) outs(%0 : tensor<4x64xf32>) {
  ^bb0(%in: f32, %in_2: f32, %out: f32):
    %6 = arith.addf %in, %in_2 : f32
    linalg.yield %6 : f32
  } -> tensor<4x64xf32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %3 : tensor<4x64xf32>, tensor<4x64xf32>) outs(%0 : tensor<4x64xf32>) {
  ^bb0(%in: f32, %in_2: f32, %out: f32):
    %6 = arith.mulf %in, %in_2 : f32
    linalg.yield %6 : f32
  } -> tensor<4x64xf32>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%4, %cst_1 : tensor<4x64xf32>, tensor<1x1xf32>) outs(%0 : tensor<4x64xf32>) {
  ^bb0(%in: f32, %in_2: f32, %out: f32):
    %6 = arith.mulf %in, %in_2 : f32
    linalg.yield %6 : f32
  } -> tensor<4x64xf32>
  return %5 : tensor<4x64xf32>
}

// -----

// f16 needs sm_53, so a T4 fuses it; bf16 needs sm_80, so a T4 does not.
// CHECK-LABEL: func @bf16_chain
// CHECK: fuse.group vertical rule "elementwise_chain"
// CHECK-NOT: fuse.group
// CHECK: return
func.func @bf16_chain(%arg0: tensor<64xbf16>) -> tensor<64xbf16> {
  %0 = tensor.empty() : tensor<64xbf16>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg0 : tensor<64xbf16>) outs(%0 : tensor<64xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %3 = math.exp %in : bf16
    linalg.yield %3 : bf16
  } -> tensor<64xbf16>
  %2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%1 : tensor<64xbf16>) outs(%0 : tensor<64xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %3 = math.tanh %in : bf16
    linalg.yield %3 : bf16
  } -> tensor<64xbf16>
  return %2 : tensor<64xbf16>
}
