// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="target=t4 report=-" -o /dev/null | FileCheck %s --check-prefix=T4
// Fused and unfused give the same results on the CPU.
// RUN: %check_equivalence %s --function silu_add | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function gelu_erf | FileCheck %s --check-prefix=EQUIV
// With every group lowered to one tile loop nest too.
// RUN: %check_equivalence %s --function silu_add --lower-groups | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function gelu_erf --lower-groups | FileCheck %s --check-prefix=EQUIV
// EQUIV-NOT: FAIL
// EQUIV: PASS

// elementwise_chain: SiLU (x * sigmoid(x)) and a following add are one
// kernel.
// CHECK-LABEL: func @silu_add
// CHECK: %[[G:.*]] = fuse.group vertical rule "elementwise_chain"
// CHECK-COUNT-3: linalg.generic
// CHECK-NOT: fuse.group
// CHECK: return %[[G]]
func.func @silu_add(%x: tensor<2x8x8x16xf32>, %y: tensor<2x8x8x16xf32>) -> tensor<2x8x8x16xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = tosa.sigmoid %x : (tensor<2x8x8x16xf32>) -> tensor<2x8x8x16xf32>
  %m = tosa.mul %x, %s, %shift : (tensor<2x8x8x16xf32>, tensor<2x8x8x16xf32>, tensor<1xi8>) -> tensor<2x8x8x16xf32>
  %a = tosa.add %m, %y : (tensor<2x8x8x16xf32>, tensor<2x8x8x16xf32>) -> tensor<2x8x8x16xf32>
  return %a : tensor<2x8x8x16xf32>
}

// -----

// GELU in its erf form, as ONNX exporters write it: one kernel.
// CHECK-LABEL: func @gelu_erf
// CHECK: fuse.group vertical rule "elementwise_chain"
// CHECK-NOT: fuse.group
func.func @gelu_erf(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %rsqrt2 = "tosa.const"() <{values = dense<0.707106769> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %one = "tosa.const"() <{values = dense<1.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %a = tosa.mul %x, %rsqrt2, %shift : (tensor<4x64xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<4x64xf32>
  %e = tosa.erf %a : (tensor<4x64xf32>) -> tensor<4x64xf32>
  %b = tosa.add %e, %one : (tensor<4x64xf32>, tensor<1x1xf32>) -> tensor<4x64xf32>
  %c = tosa.mul %x, %b, %shift : (tensor<4x64xf32>, tensor<4x64xf32>, tensor<1xi8>) -> tensor<4x64xf32>
  %d = tosa.mul %c, %half, %shift : (tensor<4x64xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<4x64xf32>
  return %d : tensor<4x64xf32>
}

// -----

// f16 needs sm_53, so a T4 fuses it; bf16 needs sm_80, so a T4 does not.
// T4: "name": "bf16_chain"
// T4: "rule": "elementwise_chain",
// T4-NEXT: "check": "hardware",
// T4: "reason": "'linalg.generic@elementwise.mlir:{{[0-9:]+}}': bf16 arithmetic (bf16) needs sm_80 or newer; target 't4' is sm_75"
// CHECK-LABEL: func @bf16_chain
// CHECK: fuse.group vertical rule "elementwise_chain"
func.func @bf16_chain(%x: tensor<64xbf16>) -> tensor<64xbf16> {
  %e = tosa.exp %x : (tensor<64xbf16>) -> tensor<64xbf16>
  %n = tosa.tanh %e : (tensor<64xbf16>) -> tensor<64xbf16>
  return %n : tensor<64xbf16>
}
