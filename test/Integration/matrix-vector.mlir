// A matrix-vector product behind an elementwise root (a classifier's GEMV
// + bias at batch 1, Inputs/classifier.mlir) is configured like a root
// that reduces: tiles shrink to fill the SMs (here one output point a
// block: 100 blocks) and the block's lanes share each point's dot product
// (128 threads, not one thread per point). Before, it kept an elementwise
// root's tile of 25 points on one warp, each thread a 512-long loop
// (ResNet-50's classifier: 40 blocks, predicted 28.8 us; now 200 blocks,
// 4.7 us, DRAM-bound). The same product with 4 rows is no matrix-vector
// product and keeps its tile. Fused vs unfused on the emulated threads,
// with the configured block and with 100 threads.
// RUN: fuse-opt %S/Inputs/classifier.mlir --fuse-fusion-pipeline=target=h200 | FileCheck %s --check-prefix=CONFIG
// CONFIG: #fuse.lowering_config<schedule = "contraction", tile = [1, 1, 1], threads = 128, instruction = "simt", precision = "fp32">
// RUN: sed 's/1x1x512/1x4x512/g; s/1x1x100/1x4x100/g' %S/Inputs/classifier.mlir > %t.rows.mlir
// RUN: fuse-opt %t.rows.mlir --fuse-fusion-pipeline="target=h200 tensor-cores=never" | FileCheck %s --check-prefix=ROWS
// ROWS: #fuse.lowering_config<schedule = "contraction", tile = [1, 2, 20], threads = 64, instruction = "simt", precision = "fp32">
// RUN: %check_equivalence %S/Inputs/classifier.mlir --lower-groups --distribute-threads config | FileCheck %s
// RUN: %check_equivalence %S/Inputs/classifier.mlir --lower-groups --distribute-threads 100 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS
