// The resource check against every fusion rule that merges ops: with
// max-ops-per-group=1 each rule's own positive inputs (the rule tests and a
// model block) fuse nothing, and the report names the rule, the check and
// the numbers. (multi_output only permits merges other rules make, and
// shared_input_contractions groups what fuse-merge-sibling-contractions
// rewrote; affine_fold is a rewrite, not a merge.)
// RUN: fuse-opt %S/attention.mlir -split-input-file --fuse-fusion-pipeline="target=h200 max-ops-per-group=1 report=-" -o /dev/null | FileCheck %s --check-prefix=ATTENTION
// RUN: fuse-opt %S/vertical.mlir -split-input-file --fuse-fusion-pipeline="target=h200 max-ops-per-group=1 report=-" -o /dev/null | FileCheck %s --check-prefix=EPILOGUE
// (vertical.mlir also has a residual_join refused by the dependency check:
// the remark names the rule and the check together.)
// RUN: fuse-opt %S/vertical.mlir -split-input-file --fuse-fusion-pipeline="target=h200 max-ops-per-group=1" --remarks-filter=fuse --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=RESIDUAL
// RUN: fuse-opt %S/check-dependency.mlir -split-input-file --fuse-fusion-pipeline="target=h200 max-ops-per-group=1 report=-" -o /dev/null | FileCheck %s --check-prefix=ROWEPI
// RUN: fuse-opt %S/reduction.mlir -split-input-file --fuse-fusion-pipeline="target=h200 max-ops-per-group=1 report=-" -o /dev/null | FileCheck %s --check-prefix=ROW
// RUN: fuse-opt %S/elementwise.mlir -split-input-file --fuse-fusion-pipeline="target=h200 max-ops-per-group=1 report=-" -o /dev/null | FileCheck %s --check-prefix=ELEMENTWISE
// RUN: fuse-opt %S/concat.mlir -split-input-file --fuse-fusion-pipeline="target=h200 max-ops-per-group=1 report=-" -o /dev/null | FileCheck %s --check-prefix=CONCAT
// RUN: fuse-opt %S/horizontal.mlir -split-input-file --fuse-fusion-pipeline="target=h200 max-ops-per-group=1 report=-" -o /dev/null | FileCheck %s --check-prefix=SIBLING
// RUN: fuse-opt %fuse_src_root/test/Models/inception.mlir --fuse-fusion-pipeline="target=h200 max-ops-per-group=1 report=-" -o /dev/null | FileCheck %s --check-prefix=PAD
// And nothing fuses: every group is a single op.
// RUN: fuse-opt %fuse_src_root/test/Models/bert-layer.mlir --fuse-fusion-pipeline="target=h200 max-ops-per-group=1" | FileCheck %s --check-prefix=NONE

// ATTENTION: "rule": "attention",
// ATTENTION-NEXT: "check": "resource",
// ATTENTION: "reason": "{{[0-9]+}} ops exceed max-ops-per-group 1"
// EPILOGUE: "rule": "contraction_epilogue",
// EPILOGUE-NEXT: "check": "resource",
// EPILOGUE: "reason": "2 ops exceed max-ops-per-group 1"
// RESIDUAL: remark: [Missed] refused | Category:fuse:resource | Function={{[A-Za-z0-9_]+}} | Reason="2 ops exceed max-ops-per-group 1"{{.*}}, check=resource, rule=residual_join{{$}}
// ROWEPI: "rule": "contraction_row_epilogue",
// ROWEPI-NEXT: "check": "resource",
// ROWEPI: "reason": "2 ops exceed max-ops-per-group 1"
// ROW: "rule": "row_reduction",
// ROW-NEXT: "check": "resource",
// ROW: "reason": "2 ops exceed max-ops-per-group 1"
// ELEMENTWISE: "rule": "elementwise_chain",
// ELEMENTWISE-NEXT: "check": "resource",
// ELEMENTWISE: "reason": "2 ops exceed max-ops-per-group 1"
// CONCAT: "rule": "concat_slices",
// CONCAT-NEXT: "check": "resource",
// CONCAT: "reason": "{{[0-9]+}} ops exceed max-ops-per-group 1"
// SIBLING: "rule": "sibling_merge",
// SIBLING-NEXT: "check": "resource",
// SIBLING: "reason": "2 ops exceed max-ops-per-group 1"
// PAD: "rule": "pad_prologue",
// PAD-NEXT: "check": "resource",
// PAD: "reason": "2 ops exceed max-ops-per-group 1"
// NONE-NOT: fuse.group {{vertical|horizontal|diagonal|composite}}
// NONE: fuse.group single
// NONE-NOT: fuse.group {{vertical|horizontal|diagonal|composite}}
