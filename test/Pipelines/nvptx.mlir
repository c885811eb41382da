// fuse-to-nvptx: every fuse.group becomes ONE kernel. The invariant: one
// gpu.launch_func per group, and one .entry per kernel in the PTX.
// RUN: fuse-opt %fuse_src_root/test/Models/bert-layer.mlir --fuse-fusion-pipeline \
// RUN:   | fuse-opt --fuse-to-nvptx -o %t.bert.mlir
// RUN: FileCheck %s --check-prefix=BERT < %t.bert.mlir
// RUN: FileCheck %s --check-prefix=LAUNCH < %t.bert.mlir
// RUN: FileCheck %s --check-prefix=ARENA < %t.bert.mlir
// RUN: fuse-opt %fuse_src_root/test/Models/bert-layer.mlir --fuse-fusion-pipeline \
// RUN:   | fuse-opt --fuse-to-nvptx="workspace=argument" | FileCheck %s --check-prefix=WSARG
// The target the module was fused for is the one compiled for.
// RUN: fuse-opt %fuse_src_root/test/Models/inception.mlir --fuse-fusion-pipeline="target=a100" \
// RUN:   | fuse-opt --fuse-to-nvptx | FileCheck %s --check-prefix=INCEPTION
// RUN: fuse-opt %fuse_src_root/test/Models/resnet-bottleneck-ds.mlir --fuse-fusion-pipeline \
// RUN:   | fuse-opt --fuse-to-nvptx | FileCheck %s --check-prefix=RESNET
// RUN: fuse-opt %fuse_src_root/test/Models/yolo-sppf.mlir --fuse-fusion-pipeline \
// RUN:   | fuse-opt --fuse-to-nvptx | FileCheck %s --check-prefix=SPPF

// BERT layer: 5 groups, 5 kernels in the PTX for sm_90 (libdevice linked),
// 5 launches.
// BERT-COUNT-5: gpu.binary @bert_layer__group{{[0-4]}}_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80", link = [{{.*}}libdevice.10.bc"]>, {{.*}}.target sm_90{{.*}}.visible .entry bert_layer__group{{[0-4]}}_kernel(
// BERT-NOT: gpu.binary
// The launches queue on one stream (async-launches): created once, waited
// for once, after the last launch.
// LAUNCH: %[[STREAM:.*]] = llvm.call @mgpuStreamCreate()
// LAUNCH-NOT: mgpuStreamSynchronize
// LAUNCH-COUNT-5: gpu.launch_func <%[[STREAM]] : !llvm.ptr> @bert_layer__group{{[0-4]}}_kernel
// LAUNCH-NOT: gpu.launch_func
// LAUNCH: llvm.call @mgpuStreamSynchronize(%[[STREAM]])
// LAUNCH-NEXT: llvm.call @mgpuStreamDestroy(%[[STREAM]])
// LAUNCH-NOT: llvm.call @mgpuStream
// Without it, each launch is synchronous (gpu-to-llvm's translation gives
// it its own stream and waits for it), one per group function.
// RUN: fuse-opt %fuse_src_root/test/Models/bert-layer.mlir --fuse-fusion-pipeline \
// RUN:   | fuse-opt --fuse-to-nvptx="async-launches=false" | FileCheck %s --check-prefix=SYNC
// SYNC-NOT: llvm.call @mgpuStream
// SYNC-COUNT-5: gpu.launch_func @bert_layer__group{{[0-4]}}_kernel
// SYNC-NOT: llvm.call @mgpuStream

// The kernels write into buffers the host function owns, all in one arena
// (fuse-plan-buffers): two allocations on the host, the arena and the
// returned result (1x16x64 floats), the rest views of the arena. Both in
// CUDA managed memory (fuse-device-memory), which the kernels reach.
// ARENA: llvm.func @bert_layer({{.*}}fuse.memory = {arena = [[SIZE:[0-9]+]] : i64
// ARENA: llvm.mlir.constant([[SIZE]] : index)
// ARENA: llvm.call @fuseDeviceMalloc
// ARENA: llvm.mlir.constant(1024 : index)
// ARENA: llvm.call @fuseDeviceMalloc
// ARENA-NOT: llvm.call @{{malloc|fuseDeviceMalloc}}
// Both before the first launch (the result's allocation moved up), so the
// host never waits for queued kernels to allocate.
// ARENA: gpu.launch_func
// ARENA-NOT: llvm.call @{{malloc|fuseDeviceMalloc}}
// ARENA: llvm.call @mgpuStreamSynchronize
// With workspace=argument the caller passes the arena and asks its size.
// WSARG: llvm.func @bert_layer({{.*}}fuse.memory = {arena = [[SIZE:[0-9]+]] : i64
// WSARG-NOT: llvm.call @{{malloc|fuseDeviceMalloc}}
// WSARG: llvm.call @fuseDeviceMalloc
// WSARG-NOT: llvm.call @{{malloc|fuseDeviceMalloc}}
// WSARG: llvm.func @bert_layer_workspace_bytes() -> i64
// WSARG-NEXT: llvm.mlir.constant([[SIZE]] : index) : i64

// Both pipelines in one run: fuse-to-nvptx's passes go after the fusion
// pipeline's (they used to replace them, and bufferization then met the
// unlowered TOSA).
// RUN: fuse-opt %fuse_src_root/test/Models/inception.mlir --fuse-fusion-pipeline="target=a100" \
// RUN:   --fuse-to-nvptx="target=a100" | FileCheck %s --check-prefix=INCEPTION

// The target's arch is the chip: an A100 is sm_80.
// INCEPTION-COUNT-5: gpu.launch_func
// INCEPTION-NOT: gpu.launch_func
// INCEPTION: .target sm_80

// RESNET-COUNT-4: gpu.launch_func
// RESNET-NOT: gpu.launch_func
// SPPF-COUNT-5: gpu.launch_func
// SPPF-NOT: gpu.launch_func
