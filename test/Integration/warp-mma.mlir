// The tensor-core (mma_sync) schedule executed on the CPU: every group whose
// contraction the schedule computes configured with tensor-cores=always and
// run by emulated threads (each lane's fragments in memory, mma.sync
// computed from the PTX ISA's fragment layouts), against the unfused
// build. fp32 (three TF32 products per multiply-add) is within the usual
// 1e-5; tf32 (one product) is not (about 1e-4 here: the check can tell
// the precisions apart) and passes at its own tolerance (5e-3 relative,
// 1e-3 absolute: outputs near zero keep the products' absolute error).
// RUN: %check_equivalence %fuse_src_root/test/Models/resnet-bottleneck.mlir --lower-groups --distribute-threads config --tensor-cores always | FileCheck %s
// RUN: %check_equivalence %fuse_src_root/test/Models/resnet-bottleneck-ds.mlir --lower-groups --distribute-threads config --tensor-cores always | FileCheck %s
// RUN: %check_equivalence %fuse_src_root/test/Models/bert-layer.mlir --lower-groups --distribute-threads config --tensor-cores always | FileCheck %s
// RUN: %check_equivalence %fuse_src_root/test/Models/inception.mlir --lower-groups --distribute-threads config --tensor-cores always | FileCheck %s
// RUN: %check_equivalence %fuse_src_root/test/Models/yolo-c3.mlir --lower-groups --distribute-threads config --tensor-cores always | FileCheck %s
// RUN: %check_equivalence %fuse_src_root/test/Models/yolo-sppf.mlir --lower-groups --distribute-threads config --tensor-cores always | FileCheck %s
// RUN: %check_equivalence %fuse_src_root/test/Pipelines/Fusion/attention.mlir --function attention --lower-groups --distribute-threads config --tensor-cores always | FileCheck %s
// Small ONNX networks of the corpus (strided and padded convolutions, the
// stem's 7x7, pooling, a classifier; a detector's heads; a transformer
// encoder).
// RUN: fuse-translate --import-onnx %fuse_src_root/test/Models/onnx/resnet_tiny.onnx -o %t.resnet.mlir
// RUN: %check_equivalence %t.resnet.mlir --lower-groups --distribute-threads config --tensor-cores always | FileCheck %s
// RUN: fuse-translate --import-onnx %fuse_src_root/test/Models/onnx/yolo_tiny.onnx -o %t.yolo.mlir
// RUN: %check_equivalence %t.yolo.mlir --lower-groups --distribute-threads config --tensor-cores always | FileCheck %s
// RUN: fuse-translate --import-onnx %fuse_src_root/test/Models/onnx/bert_tiny.onnx -o %t.bert.mlir
// RUN: %check_equivalence %t.bert.mlir --lower-groups --distribute-threads config --tensor-cores always | FileCheck %s
// Over 100 threads (3 warps compute, 4 threads only copy).
// RUN: %check_equivalence %fuse_src_root/test/Models/resnet-bottleneck.mlir --lower-groups --distribute-threads 100 --tensor-cores always | FileCheck %s
// Every stage count of the cp.async ring (the configs' own are the cost
// model's choice, mostly 3): 2 and 4 stages, K chunks wrapping the ring
// (the bottleneck's 3x3 convolution has 9 x 16 = 144 K points, 5 chunks;
// a chunk copied into the stage being computed fails both).
// RUN: %check_equivalence %fuse_src_root/test/Models/bert-layer.mlir --lower-groups --distribute-threads config --tensor-cores always --stages 2 | FileCheck %s --check-prefix=STAGES2
// RUN: %check_equivalence %fuse_src_root/test/Models/resnet-bottleneck.mlir --lower-groups --distribute-threads config --tensor-cores always --stages 4 | FileCheck %s --check-prefix=STAGES4
// Split-K (each tile's reduction over 2, 3 or 4 blocks, the last to arrive
// summing the partials and running the epilogue), wherever a group allows it
// (one tensor-core contraction, one root, K chunks for every slice); the
// configs' own choose it where the tiles do not fill the SMs. Random
// weights: a model whose weights are splats (bert-layer.mlir) cannot tell
// a lost slice from a right one once LayerNorm removes the row's constant.
// RUN: %check_equivalence %fuse_src_root/test/Models/resnet-bottleneck.mlir --lower-groups --distribute-threads config --tensor-cores always --split-k 2 | FileCheck %s --check-prefix=SPLIT2
// RUN: %check_equivalence %fuse_src_root/test/Models/inception.mlir --lower-groups --distribute-threads config --tensor-cores always --split-k 4 | FileCheck %s --check-prefix=SPLIT4
// RUN: %check_equivalence %t.resnet.mlir --lower-groups --distribute-threads config --tensor-cores always --split-k 3 | FileCheck %s --check-prefix=SPLIT3
// RUN: %check_equivalence %t.bert.mlir --lower-groups --distribute-threads config --tensor-cores always --split-k 2 | FileCheck %s --check-prefix=SPLIT2
// RUN: not %check_equivalence %fuse_src_root/test/Models/resnet-bottleneck.mlir --lower-groups --distribute-threads config --tensor-cores always --precision tf32 | FileCheck %s --check-prefix=TF32
// RUN: %check_equivalence %fuse_src_root/test/Models/resnet-bottleneck.mlir --lower-groups --distribute-threads config --tensor-cores always --precision tf32 --rtol 5e-3 --atol 1e-3 | FileCheck %s
// RUN: not %check_equivalence %fuse_src_root/test/Models/resnet-bottleneck.mlir --tensor-cores always 2>&1 | FileCheck %s --check-prefix=NEEDS
// 16-bit operands (mma.sync.m16n8k16 emulated with its fragment layouts:
// two elements a register, K steps of 16), at their own default
// tolerances, which the check states; at fp32's they fail (about 2e-3
// absolute for bf16 and 4e-4 for fp16 on the bottleneck: the rounding is
// there). Random weights (resnet_tiny, inception) and splats.
// RUN: %check_equivalence %fuse_src_root/test/Models/resnet-bottleneck.mlir --lower-groups --distribute-threads config --tensor-cores always --precision bf16 | FileCheck %s --check-prefix=BF16
// RUN: %check_equivalence %fuse_src_root/test/Models/inception.mlir --lower-groups --distribute-threads config --tensor-cores always --precision bf16 | FileCheck %s --check-prefix=BF16
// RUN: %check_equivalence %t.resnet.mlir --lower-groups --distribute-threads config --tensor-cores always --precision bf16 | FileCheck %s --check-prefix=BF16
// RUN: %check_equivalence %t.bert.mlir --lower-groups --distribute-threads config --tensor-cores always --precision fp16 | FileCheck %s --check-prefix=FP16
// bf16 on the other model blocks and small models too (attention's products
// included): errors of 1e-3 to 2.5e-3 of the largest output.
// RUN: %check_equivalence %fuse_src_root/test/Models/resnet-bottleneck-ds.mlir --lower-groups --distribute-threads config --tensor-cores always --precision bf16 | FileCheck %s --check-prefix=BF16
// RUN: %check_equivalence %fuse_src_root/test/Models/bert-layer.mlir --lower-groups --distribute-threads config --tensor-cores always --precision bf16 | FileCheck %s --check-prefix=BF16
// RUN: %check_equivalence %fuse_src_root/test/Models/yolo-c3.mlir --lower-groups --distribute-threads config --tensor-cores always --precision bf16 | FileCheck %s --check-prefix=BF16
// RUN: %check_equivalence %fuse_src_root/test/Models/yolo-sppf.mlir --lower-groups --distribute-threads config --tensor-cores always --precision bf16 | FileCheck %s --check-prefix=BF16
// RUN: %check_equivalence %fuse_src_root/test/Pipelines/Fusion/attention.mlir --function attention --lower-groups --distribute-threads config --tensor-cores always --precision bf16 | FileCheck %s --check-prefix=BF16
// RUN: %check_equivalence %t.yolo.mlir --lower-groups --distribute-threads config --tensor-cores always --precision bf16 | FileCheck %s --check-prefix=BF16
// RUN: %check_equivalence %t.bert.mlir --lower-groups --distribute-threads config --tensor-cores always --precision bf16 | FileCheck %s --check-prefix=BF16
// RUN: %check_equivalence %fuse_src_root/test/Models/resnet-bottleneck.mlir --lower-groups --distribute-threads config --tensor-cores always --precision fp16 | FileCheck %s --check-prefix=FP16
// RUN: %check_equivalence %S/Inputs/stride2-conv.mlir --lower-groups --distribute-threads config --tensor-cores always --precision fp16 --tile-sizes 1,1,7,16 --atol 1e-2 | FileCheck %s --check-prefix=FP16
// RUN: not %check_equivalence %fuse_src_root/test/Models/resnet-bottleneck.mlir --lower-groups --distribute-threads config --tensor-cores always --precision bf16 --rtol 1e-5 --atol 1e-6 | FileCheck %s --check-prefix=TIGHT
// RUN: not %check_equivalence %fuse_src_root/test/Models/resnet-bottleneck.mlir --lower-groups --distribute-threads config --tensor-cores always --precision fp16 --rtol 1e-5 --atol 1e-6 | FileCheck %s --check-prefix=TIGHT
// BF16: precision bf16
// BF16-SAME: (bf16 tensor-core products: bf16 tolerances)
// BF16-NOT: FAIL
// BF16: PASS
// FP16: precision fp16
// FP16-NOT: FAIL
// FP16: PASS
// TIGHT: precision {{bf16|fp16}}, {{.*}} rtol 1e-05, atol 1e-06
// TIGHT: max abs err {{[0-9.e-]+}}, {{.*}}: FAIL
// Tiles of fewer than 16 output pixels (a 16-row accumulator tile with
// rows past the tile's points): the stride-2 3x3 convolution with
// asymmetric padding of Inputs/stride2-conv.mlir, by its config's own
// choice (the 7x7 pixels and 16 channels a tile, 9-way split-K) and by 7
// pixels a tile (one image row, as the 512-channel ResNet-50 layers take
// it) and by 1 pixel. Random weights as arguments: outputs up to about 26
// from 576-term sums, so 1e-4 absolute (4e-6 of the largest output) bounds
// the three-product TF32 rounding and the order of the sums, and a lane
// reading a wrong element (errors of order 1) fails.
// RUN: %check_equivalence %S/Inputs/stride2-conv.mlir --lower-groups --distribute-threads config --atol 1e-4 | FileCheck %s --check-prefix=OWN
// RUN: %check_equivalence %S/Inputs/stride2-conv.mlir --lower-groups --distribute-threads config --tensor-cores always --tile-sizes 1,1,7,16 --atol 1e-4 | FileCheck %s
// RUN: %check_equivalence %S/Inputs/stride2-conv.mlir --lower-groups --distribute-threads config --tensor-cores always --tile-sizes 1,1,1,8 --split-k 1 --atol 1e-4 | FileCheck %s
// OWN-NOT: FAIL
// OWN: PASS
// CHECK: tensor cores always, precision {{fp32|tf32}}
// CHECK-NOT: FAIL
// CHECK: PASS
// SPLIT2: precision fp32, split-k 2
// SPLIT2-NOT: FAIL
// SPLIT2: PASS
// SPLIT3: precision fp32, split-k 3
// SPLIT3-NOT: FAIL
// SPLIT3: PASS
// SPLIT4: precision fp32, split-k 4
// SPLIT4-NOT: FAIL
// SPLIT4: PASS
// TF32: tensor cores always, precision tf32
// TF32: max rel err 0.000{{[1-9][0-9]*}} {{.*}}: FAIL
// NEEDS: --tensor-cores, --precision, --stages, --split-k, --key-chunk and --tile-sizes need --lower-groups
// STAGES2: tensor cores always, precision fp32, 2 stages
// STAGES2-NOT: FAIL
// STAGES2: PASS
// STAGES4: tensor cores always, precision fp32, 4 stages
// STAGES4-NOT: FAIL
// STAGES4: PASS
