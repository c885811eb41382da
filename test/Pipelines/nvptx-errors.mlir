// A wrong option of fuse-to-nvptx is one error line that names it and what
// it accepts: no pass runs and the module is not printed.
// RUN: not fuse-opt %s --fuse-to-nvptx="target=h2000" 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not fuse-opt %s --fuse-to-nvptx="format=elf" 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: fuse-opt %s --fuse-to-nvptx="chip=sm_80" | FileCheck %s --check-prefix=CHIP
// RUN: not fuse-opt %s --fuse-to-nvptx="workspace=heap" 2>&1 | FileCheck %s --check-prefix=WS
// RUN: not fuse-opt %s --fuse-to-nvptx="block-size=2048" 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not fuse-opt %s --fuse-to-nvptx="target=t4 shared-bytes=-1" 2>&1 | FileCheck %s --check-prefix=SMEM
// RUN: not fuse-opt %s --fuse-to-nvptx="target=t4 shared-bytes=100000" 2>&1 | FileCheck %s --check-prefix=SMEMT4
// RUN: not fuse-opt %s --fuse-to-nvptx="opt-level=7" 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not fuse-opt %s --fuse-to-nvptx="chip=80" 2>&1 | FileCheck %s --check-prefix=BADCHIP
// RUN: not fuse-opt %s --fuse-to-nvptx="chip=sm_nope" 2>&1 | FileCheck %s --check-prefix=BADCHIP2
// RUN: not fuse-opt %s --fuse-to-nvptx="chip=sm_10" 2>&1 | FileCheck %s --check-prefix=BADCHIP3
// RUN: not fuse-opt %s --fuse-to-nvptx="formt=isa" 2>&1 | FileCheck %s --check-prefix=TYPO
// Each of them is one line.
// RUN: not fuse-opt %s --fuse-to-nvptx="format=elf" 2>&1 | count 1
// RUN: not fuse-opt %s --fuse-to-nvptx="block-size=2048" 2>&1 | count 1
// RUN: not fuse-opt %s --fuse-to-nvptx="formt=isa" 2>&1 | count 1
// WS: error: fuse-to-nvptx: option 'workspace' must be alloc or argument, got 'heap'
// BLOCK: error: fuse-check-launch-limits: option 'block-size' must be at most 1024 (max_threads_per_block of target 'h200'), got 2048
// SMEM: error: fuse-to-nvptx: options 'block-size', 'shared-bytes' and 'max-tile-bytes' must be non-negative and 'opt-level' in [0, 3], got 0, -1, 1048576 and 3
// SMEMT4: error: fuse-check-launch-limits: option 'shared-bytes' must be at most 65536 (shared memory per block of target 't4'), got 100000
// OPT: error: fuse-to-nvptx: options {{.*}} got 0, 0, 1048576 and 7
// BADCHIP: error: fuse-to-nvptx: option 'chip' must be sm_NN with NN at least 20 (sm_80, sm_90, sm_90a), got '80'
// BADCHIP2: error: fuse-to-nvptx: option 'chip' must be sm_NN with NN at least 20 (sm_80, sm_90, sm_90a), got 'sm_nope'
// BADCHIP3: error: fuse-to-nvptx: option 'chip' must be sm_NN with NN at least 20 (sm_80, sm_90, sm_90a), got 'sm_10'
// TARGET: error: fuse-to-nvptx: option 'target': unknown target 'h2000'; presets are t4, v100, a100, h100, h200, orin, jetson-nano
// FORMAT: error: fuse-to-nvptx: option 'format' must be isa, bin or fatbin, got 'elf'
// TYPO: no such option formt
// CHIP: .target sm_80

// The target is the module's: a module fused for one GPU is compiled for
// its chip, and naming another one is an error that names both.
// RUN: fuse-opt %s --fuse-attach-target=target=a100 | fuse-opt --fuse-to-nvptx | FileCheck %s --check-prefix=FROMIR
// RUN: fuse-opt %s --fuse-attach-target=target=a100 | fuse-opt --fuse-to-nvptx=target=a100 | FileCheck %s --check-prefix=FROMIR
// RUN: fuse-opt %s --fuse-attach-target=target=a100 | not fuse-opt --fuse-to-nvptx=target=h200 2>&1 | FileCheck %s --check-prefix=MISMATCH
// Tile sizes: sizes that tile no parallel loop are named with the group
// and the loop; a size past the loop's extent is the whole loop; a divisor
// compiles, and so does a size that does not divide the loop of a group
// whose tiles may overlap (the last one moved back; where a group's may
// not: Codegen/Tiling/overlapping-tiles.mlir).
// RUN: fuse-opt %s --fuse-to-nvptx="tile-sizes=5" | FileCheck %s --check-prefix=TILE5
// RUN: not fuse-opt %s --fuse-to-nvptx="tile-sizes=0" 2>&1 | FileCheck %s --check-prefix=TILE0
// RUN: fuse-opt %s --fuse-to-nvptx="tile-sizes=1000000" | FileCheck %s --check-prefix=TILEBIG
// RUN: fuse-opt %s --fuse-to-nvptx="tile-sizes=16" | FileCheck %s --check-prefix=TILE16
// TILE5: gpu.binary @f__group0_kernel
// TILE0: error: fuse-lower-groups: a group: option 'tile-sizes' (0) tiles none of the 1 parallel loops of its root 'linalg.generic' (0 leaves a loop whole); give a size for at least one
// TILEBIG: gpu.binary @f__group0_kernel
// TILE16: gpu.binary @f__group0_kernel
// FROMIR: .target sm_80
// FROMIR-NOT: fuse.target
// MISMATCH: error: fuse-attach-target: target=#fuse.target<"h200"> differs from the module's fuse.target = #fuse.target<"a100">
func.func @f(%x: tensor<64xf32>) -> tensor<64xf32> {
  %r = fuse.group single (%a = %x : tensor<64xf32>) -> tensor<64xf32> {
    %e = tensor.empty() : tensor<64xf32>
    %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<64xf32>) outs(%e : tensor<64xf32>) {
    ^bb0(%in: f32, %o: f32):
      %t = math.exp %in : f32
      linalg.yield %t : f32
    } -> tensor<64xf32>
    fuse.yield %0 : tensor<64xf32>
  }
  return %r : tensor<64xf32>
}
