// The hardware check against the rules: each rule's own positive inputs,
// rewritten from f32 to bf16 (accumulators stay f32), on a T4 (sm_75, no
// bf16 arithmetic): every merge is refused, and its missed remark names the
// rule and the check together and says why. On an
// A100 the same bf16 inputs fuse (check-hardware.mlir). residual_join is not
// listed: with its contraction refused first, it is never attempted.
// RUN: sed 's/f32/bf16/g; s/acc_type = bf16/acc_type = f32/g' %S/attention.mlir > %t.ATTENTION.mlir
// RUN: fuse-opt %t.ATTENTION.mlir -split-input-file --fuse-fusion-pipeline="target=t4" --remarks-filter=fuse --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=ATTENTION
// RUN: sed 's/f32/bf16/g; s/acc_type = bf16/acc_type = f32/g' %S/vertical.mlir > %t.EPILOGUE.mlir
// RUN: fuse-opt %t.EPILOGUE.mlir -split-input-file --fuse-fusion-pipeline="target=t4" --remarks-filter=fuse --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=EPILOGUE
// RUN: sed 's/f32/bf16/g; s/acc_type = bf16/acc_type = f32/g' %S/check-dependency.mlir > %t.ROWEPI.mlir
// RUN: fuse-opt %t.ROWEPI.mlir -split-input-file --fuse-fusion-pipeline="target=t4" --remarks-filter=fuse --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=ROWEPI
// RUN: sed 's/f32/bf16/g; s/acc_type = bf16/acc_type = f32/g' %S/reduction.mlir > %t.ROW.mlir
// RUN: fuse-opt %t.ROW.mlir -split-input-file --fuse-fusion-pipeline="target=t4" --remarks-filter=fuse --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=ROW
// RUN: sed 's/f32/bf16/g; s/acc_type = bf16/acc_type = f32/g' %S/elementwise.mlir > %t.ELEMENTWISE.mlir
// RUN: fuse-opt %t.ELEMENTWISE.mlir -split-input-file --fuse-fusion-pipeline="target=t4" --remarks-filter=fuse --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=ELEMENTWISE
// RUN: sed 's/f32/bf16/g; s/acc_type = bf16/acc_type = f32/g' %S/slice-prologue.mlir > %t.SLICE.mlir
// RUN: fuse-opt %t.SLICE.mlir -split-input-file --fuse-fusion-pipeline="target=t4" --remarks-filter=fuse --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=SLICE
// RUN: sed 's/f32/bf16/g; s/acc_type = bf16/acc_type = f32/g' %S/transpose-prologue.mlir > %t.TRANSPOSE.mlir
// RUN: fuse-opt %t.TRANSPOSE.mlir -split-input-file --fuse-fusion-pipeline="target=t4" --remarks-filter=fuse --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=TRANSPOSE
// RUN: sed 's/f32/bf16/g; s/acc_type = bf16/acc_type = f32/g' %S/concat.mlir > %t.CONCAT.mlir
// RUN: fuse-opt %t.CONCAT.mlir -split-input-file --fuse-fusion-pipeline="target=t4" --remarks-filter=fuse --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=CONCAT
// RUN: sed 's/f32/bf16/g; s/acc_type = bf16/acc_type = f32/g' %S/horizontal.mlir > %t.SIBLING.mlir
// RUN: fuse-opt %t.SIBLING.mlir -split-input-file --fuse-fusion-pipeline="target=t4" --remarks-filter=fuse --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=SIBLING
// RUN: sed 's/f32/bf16/g; s/acc_type = bf16/acc_type = f32/g' %fuse_src_root/test/Models/inception.mlir > %t.PAD.mlir
// RUN: fuse-opt %t.PAD.mlir -split-input-file --fuse-fusion-pipeline="target=t4" --remarks-filter=fuse --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=PAD

// ATTENTION: remark: [Missed] refused | Category:fuse:hardware | Function={{[A-Za-z0-9_]+}} | Reason="{{.*}}bf16 arithmetic (bf16) needs sm_80 or newer; target 't4' is sm_75"{{.*}}, check=hardware, rule=attention{{$}}
// EPILOGUE: remark: [Missed] refused | Category:fuse:hardware | Function={{[A-Za-z0-9_]+}} | Reason="{{.*}}bf16 arithmetic (bf16) needs sm_80 or newer; target 't4' is sm_75"{{.*}}, check=hardware, rule=contraction_epilogue{{$}}
// ROWEPI: remark: [Missed] refused | Category:fuse:hardware | Function={{[A-Za-z0-9_]+}} | Reason="{{.*}}bf16 arithmetic (bf16) needs sm_80 or newer; target 't4' is sm_75"{{.*}}, check=hardware, rule=contraction_row_epilogue{{$}}
// ROW: remark: [Missed] refused | Category:fuse:hardware | Function={{[A-Za-z0-9_]+}} | Reason="{{.*}}bf16 arithmetic (bf16) needs sm_80 or newer; target 't4' is sm_75"{{.*}}, check=hardware, rule=row_reduction{{$}}
// ELEMENTWISE: remark: [Missed] refused | Category:fuse:hardware | Function={{[A-Za-z0-9_]+}} | Reason="{{.*}}bf16 arithmetic (bf16) needs sm_80 or newer; target 't4' is sm_75"{{.*}}, check=hardware, rule=elementwise_chain{{$}}
// CONCAT: remark: [Missed] refused | Category:fuse:hardware | Function={{[A-Za-z0-9_]+}} | Reason="{{.*}}bf16 arithmetic (bf16) needs sm_80 or newer; target 't4' is sm_75"{{.*}}, check=hardware, rule=concat_slices{{$}}
// SIBLING: remark: [Missed] refused | Category:fuse:hardware | Function={{[A-Za-z0-9_]+}} | Reason="{{.*}}bf16 arithmetic (bf16) needs sm_80 or newer; target 't4' is sm_75"{{.*}}, check=hardware, rule=sibling_merge{{$}}
// PAD: remark: [Missed] refused | Category:fuse:hardware | Function={{[A-Za-z0-9_]+}} | Reason="{{.*}}bf16 arithmetic (bf16) needs sm_80 or newer; target 't4' is sm_75"{{.*}}, check=hardware, rule=pad_prologue{{$}}
// TRANSPOSE: remark: [Missed] refused | Category:fuse:hardware | Function={{[A-Za-z0-9_]+}} | Reason="{{.*}}bf16 arithmetic (bf16) needs sm_80 or newer; target 't4' is sm_75"{{.*}}, check=hardware, rule=transpose_prologue{{$}}
// SLICE: remark: [Missed] refused | Category:fuse:hardware | Function={{[A-Za-z0-9_]+}} | Reason="{{.*}}bf16 arithmetic (bf16) needs sm_80 or newer; target 't4' is sm_75"{{.*}}, check=hardware, rule=slice_prologue{{$}}
