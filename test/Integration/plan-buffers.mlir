// Buffers between kernels in one arena, with in-place reuse: the fusion
// report's memory section (planned before bufferization) and the arena that
// fuse-plan-buffers builds agree, and the planned fused build computes what
// the unplanned unfused one does. Fusion rules are switched off so that
// every op is a kernel of its own and there are buffers to plan.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 report=- disable-rules=elementwise_chain,multi_output,sibling_merge" -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: %check_equivalence %s --function chain --fused-options "disable-rules=elementwise_chain,multi_output,sibling_merge" | FileCheck %s --check-prefix=CHAIN
// RUN: %check_equivalence %s --function diamond --fused-options "disable-rules=elementwise_chain,multi_output,sibling_merge" | FileCheck %s --check-prefix=DIAMOND

// A chain: exp takes tanh's buffer, so one 16 KiB slot holds both
// intermediates (the last result is returned and is not planned).
func.func @chain(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %a = tosa.tanh %x : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %b = tosa.exp %a : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = tosa.tanh %b : (tensor<64x64xf32>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}
// REPORT: "name": "chain"
// REPORT: "memory": {
// REPORT-NEXT: "buffers": 2,
// REPORT-NEXT: "unfused_naive": 32768,
// REPORT-NEXT: "naive": 32768,
// REPORT-NEXT: "arena": 16384,
// REPORT-NEXT: "max_live": 16384,
// REPORT-NEXT: "ratio": 1,
// REPORT-NEXT: "in_place_bytes": 16384,
// CHAIN: memory: arena 16384 bytes for buffers of 32768 bytes one by one (16384 bytes written in place
// CHAIN: PASS

// A diamond: %a is read by exp and by sin. exp may not overwrite it (sin
// still reads it); sin, its last reader, may. Three buffers, two slots.
func.func @diamond(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %a = tosa.tanh %x : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %b = tosa.exp %a : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = tosa.sin %a : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %d = tosa.add %b, %c : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}
// REPORT: "name": "diamond"
// REPORT: "memory": {
// REPORT-NEXT: "buffers": 3,
// REPORT-NEXT: "unfused_naive": 49152,
// REPORT-NEXT: "naive": 49152,
// REPORT-NEXT: "arena": 32768,
// REPORT-NEXT: "max_live": 32768,
// REPORT-NEXT: "ratio": 1,
// REPORT-NEXT: "in_place_bytes": 16384,
// DIAMOND: memory: arena 32768 bytes for buffers of 49152 bytes one by one (16384 bytes written in place
// DIAMOND: PASS

// Totals over both functions (each runs with its own arena).
// REPORT: "totals"
// REPORT: "memory": {
// REPORT-NEXT: "buffers": 5,
// REPORT-NEXT: "unfused_naive": 81920,
// REPORT-NEXT: "naive": 81920,
// REPORT-NEXT: "arena": 49152,
