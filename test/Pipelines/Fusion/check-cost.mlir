// The cost model: a merge must save time. Fusing a producer that a
// consumer reads through a broadcast recomputes it for every consumer
// element; with free launches that costs more than the bytes it saves.
// RUN: fuse-opt %s --fuse-fusion-pipeline | FileCheck %s --check-prefix=DEFAULT
// RUN: fuse-opt %s --fuse-fusion-pipeline='target={#fuse.target<"h200", launch_us = 0.0>}' | FileCheck %s --check-prefix=FREE
// RUN: fuse-opt %s --fuse-fusion-pipeline='target={#fuse.target<"h200", launch_us = 0.0>} report=-' -o /dev/null | FileCheck %s --check-prefix=REPORT

// With the H200's 3 us launches, fusing pays.
// DEFAULT-LABEL: func @broadcast_producer
// DEFAULT: fuse.group vertical rule "elementwise_chain"
// DEFAULT-NOT: fuse.group
// FREE-LABEL: func @broadcast_producer
// FREE: fuse.group single
// FREE: math.exp
// FREE: fuse.group single
// REPORT: "rule": "elementwise_chain",
// REPORT-NEXT: "check": "cost",
// REPORT: "reason": "saves 8192 B and one launch (0.002 us) but recomputing broadcast producers costs 0.063 us"
func.func @broadcast_producer(%v: tensor<1x1024xf32>, %x: tensor<4096x1024xf32>) -> tensor<4096x1024xf32> {
  %e = tosa.exp %v : (tensor<1x1024xf32>) -> tensor<1x1024xf32>
  %y = tosa.add %x, %e : (tensor<4096x1024xf32>, tensor<1x1024xf32>) -> tensor<4096x1024xf32>
  return %y : tensor<4096x1024xf32>
}
