// bf16 needs sm_80: on a T4 (sm_75) nothing fuses and the report says why;
// on an A100 the same IR forms one group.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=t4" | FileCheck %s --check-prefix=T4
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=t4 report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=a100" | FileCheck %s --check-prefix=A100

// T4-LABEL: func @bf16_matmul_relu
// T4: fuse.group single
// T4: fuse.group single
// REPORT: "check": "hardware",
// REPORT: "reason": "'linalg.batch_matmul@check-hardware.mlir:{{[0-9]+}}:8': bf16 arithmetic (bf16) needs sm_80 or newer; target 't4' is sm_75"
// A100-LABEL: func @bf16_matmul_relu
// A100: fuse.group vertical rule "contraction_epilogue"
// A100-NOT: fuse.group
func.func @bf16_matmul_relu(%x: tensor<1x16x32xbf16>, %w: tensor<1x32x64xbf16>) -> tensor<1x16x64xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %m = tosa.matmul %x, %w, %zp, %zp : (tensor<1x16x32xbf16>, tensor<1x32x64xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x16x64xf32>
  %r = tosa.clamp %m {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x64xf32>) -> tensor<1x16x64xf32>
  return %r : tensor<1x16x64xf32>
}
