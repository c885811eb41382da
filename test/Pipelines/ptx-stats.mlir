// The PTX of each kernel goes to a file; ptxas reports registers and
// spills per kernel (a spill is a failure: the script exits 1).
// REQUIRES: ptxas
// RUN: fuse-opt %fuse_src_root/test/Models/yolo-c3.mlir --fuse-fusion-pipeline \
// RUN:   | fuse-opt --fuse-to-nvptx -o %t.mlir
// RUN: %ptx_stats %t.mlir --out %t.ptx --json %t.json | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// CHECK: 4 kernel(s), PTX in
// CHECK: kernel{{ +}}chip{{ +}}regs{{ +}}spill st/ld
// CHECK-COUNT-4: yolo_c3__group{{[0-3]}}_kernel{{ +}}sm_90{{ +}}{{[0-9]+}}{{ +}}0/0
// JSON: "kernel": "yolo_c3__group
// JSON: "registers": {{[0-9]+}}
// JSON: "spill_stores": 0
