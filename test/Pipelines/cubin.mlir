// With ptxas, format=bin compiles every kernel to a cubin.
// REQUIRES: ptxas
// RUN: fuse-opt %fuse_src_root/test/Models/yolo-c3.mlir --fuse-fusion-pipeline \
// RUN:   | fuse-opt --fuse-to-nvptx="format=bin" | FileCheck %s
// CHECK-COUNT-4: gpu.binary @yolo_c3__group{{[0-3]}}_kernel  [#gpu.object<#nvvm.target<{{.*}}>, properties = {ISAToBinaryTimeInMs = {{[0-9]+}} : i64{{.*}}}, bin = "
// CHECK-NOT: gpu.binary
