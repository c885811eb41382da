// RUN: not fuse-opt %s --fuse-to-nvptx="target=h2000" 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not fuse-opt %s --fuse-to-nvptx="format=elf" 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: fuse-opt %s --fuse-to-nvptx="chip=sm_80" | FileCheck %s --check-prefix=CHIP
// RUN: not fuse-opt %s --fuse-to-nvptx="workspace=heap" 2>&1 | FileCheck %s --check-prefix=WS
// WS: fuse-to-nvptx: workspace must be alloc or argument, got 'heap'
// RUN: not fuse-opt %s --fuse-to-nvptx="block-size=2048" 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not fuse-opt %s --fuse-to-nvptx="target=t4 shared-bytes=-1" 2>&1 | FileCheck %s --check-prefix=SMEM
// BLOCK: fuse-to-nvptx: block-size must be in [1, 1024] (max_threads_per_block of 'h200'), got 2048
// SMEM: fuse-to-nvptx: shared-bytes must be in [0, {{[0-9]+}}] (shared memory per block of 't4'), got -1
// TARGET: fuse-to-nvptx: unknown target 'h2000'
// FORMAT: fuse-to-nvptx: format must be isa, bin or fatbin, got 'elf'
// CHIP: .target sm_80
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
