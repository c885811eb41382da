// fuse-opt --fuse-list-rules prints every rule with its kind, priority,
// pattern and constraints, highest priority first (the order the engine runs
// them in), without reading input; rules that form no groups themselves say
// what applies them. Then the feasibility checks in the order they run.
// RUN: fuse-opt --fuse-list-rules | FileCheck %s
// CHECK: fuse fusion rules (highest priority first, the order they run in):
// CHECK: affine_fold  [vertical, priority 120]
// CHECK: applied by:  fuse-fold-affine
// CHECK: shared_input_contractions  [horizontal, priority 110]
// CHECK: applied by:  fuse-merge-sibling-contractions
// CHECK: attention  [composite, priority 105]
// CHECK: pad_prologue  [vertical, priority 102]
// CHECK: transpose_prologue  [vertical, priority 101]
// CHECK: slice_prologue  [vertical, priority 101]
// CHECK: contraction_epilogue  [vertical, priority 100]
// CHECK-NEXT: pattern: a contraction (matmul, batch_matmul, conv, depthwise conv)
// CHECK-NEXT: constraints:
// CHECK: residual_join  [diagonal, priority 95]
// CHECK: applied by:  contraction_epilogue
// CHECK: row_reduction  [vertical, priority 80]
// CHECK: contraction_row_epilogue  [vertical, priority 75]
// CHECK: elementwise_chain  [vertical, priority 50]
// CHECK: concat_slices  [diagonal, priority 45]
// CHECK: multi_output  [diagonal, priority 40]
// CHECK: sibling_merge  [horizontal, priority 30]
// CHECK: feasibility checks, in order: lowering dependency rule_disabled memory arithmetic_intensity hardware resource cost
