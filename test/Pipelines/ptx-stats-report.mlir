// ptxas statistics go into the fusion report, keyed by group id: every group
// of the BERT layer gets its kernel's registers and spills (0: a spill fails
// the script), and the report lists the kernels.
// REQUIRES: ptxas
// RUN: fuse-opt %fuse_src_root/test/Models/bert-layer.mlir --fuse-fusion-pipeline="report=%t.json" -o %t.fused.mlir
// RUN: fuse-opt %t.fused.mlir --fuse-to-nvptx -o %t.kernels.mlir
// RUN: %ptx_stats %t.kernels.mlir --out %t.ptx --report %t.json | FileCheck %s
// RUN: %python -c "import json; r = json.load(open('%t.json')); \
// RUN:   print('\n'.join('group %%d %%s regs %%d spills %%d/%%d' %% (g['id'], g['ptxas']['kernel'], g['ptxas']['registers'], g['ptxas']['spill_stores'], g['ptxas']['spill_loads']) for g in r['functions'][0]['groups'])); \
// RUN:   print('kernels', len(r['kernels']))" | FileCheck %s --check-prefix=REPORT
// A report of another module is refused.
// RUN: fuse-opt %fuse_src_root/test/Models/yolo-c3.mlir --fuse-fusion-pipeline="report=%t.other.json" -o /dev/null
// RUN: not %ptx_stats %t.kernels.mlir --out %t.ptx --report %t.other.json 2>&1 | FileCheck %s --check-prefix=OTHER
// CHECK: statistics of 5 kernel(s) added to
// REPORT: group 0 bert_layer__group0_kernel regs {{[0-9]+}} spills 0/0
// REPORT: group 1 bert_layer__group1_kernel regs {{[0-9]+}} spills 0/0
// REPORT: group 2 bert_layer__group2_kernel regs {{[0-9]+}} spills 0/0
// REPORT: group 3 bert_layer__group3_kernel regs {{[0-9]+}} spills 0/0
// REPORT: group 4 bert_layer__group4_kernel regs {{[0-9]+}} spills 0/0
// REPORT: kernels 5
// OTHER: ptx-stats: kernel bert_layer__group{{[0-9]}}_kernel has no group in
//
// The same from fuse-compile's own outputs, no IR read: the kernels it
// writes (--kernels, one .ptx each, the chip from the PTX) and its report
// (which already lists the weight re-layouts).
// RUN: rm -rf %t.kdir && fuse-compile -q %fuse_src_root/test/Models/bert-layer.mlir --target=h200 --gpu-format=isa --share-kernels=false --kernels %t.kdir --report %t.compile.json -o %t.compile.mlir
// RUN: %ptx_stats %t.kdir --report %t.compile.json | FileCheck %s --check-prefix=DIR
// DIR: 5 kernel(s), PTX in {{.*}}kdir/
// DIR: bert_layer__group0_kernel sm_90
// DIR: statistics of 5 kernel(s) added to
// RUN: %python -c "import json; r = json.load(open('%t.compile.json')); \
// RUN:   print('\n'.join('group %%d %%s regs %%d spills %%d/%%d' %% (g['id'], g['ptxas']['kernel'], g['ptxas']['registers'], g['ptxas']['spill_stores'], g['ptxas']['spill_loads']) for g in r['functions'][0]['groups'])); \
// RUN:   print('kernels', len(r['kernels']))" | FileCheck %s --check-prefix=REPORT
// A directory without PTX is an error.
// RUN: rm -rf %t.empty && mkdir -p %t.empty && not %ptx_stats %t.empty 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: ptx-stats: no kernels with PTX (format=isa) in
