// fuse-opt --fuse-list-rules prints every rule with its kind, priority,
// pattern and constraints, highest priority first, without reading input.
// RUN: fuse-opt --fuse-list-rules | FileCheck %s
// CHECK: fuse fusion rules (highest priority first):
// CHECK: affine_fold  [vertical, priority 120]
// CHECK: shared_input_contractions  [horizontal, priority 110]
// CHECK: contraction_epilogue  [vertical, priority 100]
// CHECK-NEXT: pattern: a contraction (matmul, batch_matmul, conv, depthwise conv)
// CHECK-NEXT: constraints:
// CHECK: residual_join  [diagonal, priority 95]
// CHECK: row_reduction  [vertical, priority 80]
// CHECK: elementwise_chain  [vertical, priority 50]
// CHECK: multi_output  [diagonal, priority 40]
// CHECK: sibling_merge  [horizontal, priority 30]
// CHECK: feasibility checks: dependency, memory, arithmetic_intensity, hardware, resource; then cost
