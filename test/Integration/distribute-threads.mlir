// The GPU kernels' distribution of each tile over the block's threads
// (fuse-distribute-threads), executed on the CPU with emulated threads: the
// model blocks, every group tiled and spread over 128 threads, and over 100
// (not a multiple of the tile sizes: threads with fewer or no points), give
// the unfused results.
// RUN: %check_equivalence %fuse_src_root/test/Models/bert-layer.mlir --lower-groups --distribute-threads 128 | FileCheck %s
// RUN: %check_equivalence %fuse_src_root/test/Models/bert-layer.mlir --lower-groups --distribute-threads 100 | FileCheck %s
// RUN: %check_equivalence %fuse_src_root/test/Models/resnet-bottleneck.mlir --lower-groups --distribute-threads 128 | FileCheck %s
// RUN: %check_equivalence %fuse_src_root/test/Models/resnet-bottleneck-ds.mlir --lower-groups --distribute-threads 100 | FileCheck %s
// RUN: %check_equivalence %fuse_src_root/test/Models/inception.mlir --lower-groups --distribute-threads 128 | FileCheck %s
// RUN: %check_equivalence %fuse_src_root/test/Models/yolo-c3.mlir --lower-groups --distribute-threads 128 | FileCheck %s
// RUN: %check_equivalence %fuse_src_root/test/Models/yolo-sppf.mlir --lower-groups --distribute-threads 100 | FileCheck %s
// RUN: %check_equivalence %fuse_src_root/test/Pipelines/Fusion/attention.mlir --function attention --lower-groups --distribute-threads 128 | FileCheck %s
// And over each group's own block size (its lowering config's threads, the
// cost model's choice: what the GPU kernels launch).
// RUN: %check_equivalence %fuse_src_root/test/Models/bert-layer.mlir --lower-groups --distribute-threads config | FileCheck %s
// RUN: %check_equivalence %fuse_src_root/test/Models/resnet-bottleneck.mlir --lower-groups --distribute-threads config | FileCheck %s
// RUN: %check_equivalence %fuse_src_root/test/Models/inception.mlir --lower-groups --distribute-threads config | FileCheck %s
// RUN: %check_equivalence %fuse_src_root/test/Models/yolo-c3.mlir --lower-groups --distribute-threads config | FileCheck %s
// RUN: %check_equivalence %fuse_src_root/test/Pipelines/Fusion/attention.mlir --function attention --lower-groups --distribute-threads config | FileCheck %s
// Four points per thread as a 2x2 grid (16 threads over the 2x32 tiles of
// a GEMM; the attention block above takes it with its configured 64).
// RUN: %check_equivalence %fuse_src_root/test/Pipelines/Fusion/predicted-time.mlir --function gemm_bias --lower-groups --distribute-threads 16 | FileCheck %s
// RUN: not %check_equivalence %fuse_src_root/test/Models/yolo-c3.mlir --lower-groups --distribute-threads many 2>&1 | FileCheck %s --check-prefix=BADT
// BADT: expected a thread count or 'config', got 'many'
// Every tile of these blocks is spread: the CPU build says which is not.
// RUN: fuse-opt %fuse_src_root/test/Models/bert-layer.mlir --fuse-fusion-pipeline | fuse-opt --fuse-lower-groups | fuse-opt --fuse-to-cpu=emulate-threads=128 -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPREAD --allow-empty
// SPREAD-NOT: remark
// CHECK: threads per tile
// CHECK-NOT: FAIL
// CHECK: PASS
