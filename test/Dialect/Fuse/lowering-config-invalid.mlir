// #fuse.lowering_config accepts only what the kernels implement; each
// field's error names it and what it accepts.
// RUN: fuse-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{#fuse.lowering_config: 'schedule' must be one of 'elementwise', 'reduction', 'contraction', 'convolution', 'depthwise', 'attention', got 'gemm'}}
func.func @f() attributes {c = #fuse.lowering_config<schedule = "gemm", tile = [8, 32], threads = 128, instruction = "simt", precision = "fp32">}

// -----

// expected-error @+1 {{#fuse.lowering_config: 'instruction' must be one of 'simt', 'mma_sync', got 'wgmma'}}
func.func @f() attributes {c = #fuse.lowering_config<schedule = "contraction", tile = [8, 32], threads = 128, instruction = "wgmma", precision = "fp32">}

// -----

// expected-error @+1 {{#fuse.lowering_config: 'precision' must be one of 'fp32', 'tf32', 'bf16', 'fp16', got 'fp8'}}
func.func @f() attributes {c = #fuse.lowering_config<schedule = "contraction", tile = [8, 32], threads = 128, instruction = "mma_sync", precision = "fp8">}

// -----

// Tensor cores compute a group's contraction: not an elementwise group.
// expected-error @+1 {{#fuse.lowering_config: instruction = "mma_sync" needs schedule "contraction", "convolution" or "attention", got 'elementwise'}}
func.func @f() attributes {c = #fuse.lowering_config<schedule = "elementwise", tile = [8, 32], threads = 128, instruction = "mma_sync", precision = "fp32">}

// -----

// expected-error @+1 {{#fuse.lowering_config: instruction = "mma_sync" needs whole warps (threads a multiple of 32), got 100}}
func.func @f() attributes {c = #fuse.lowering_config<schedule = "convolution", tile = [1, 8, 8, 32], threads = 100, instruction = "mma_sync", precision = "fp32">}

// -----

// expected-error @+1 {{#fuse.lowering_config: precision = "tf32" needs instruction = "mma_sync" (SIMT kernels compute in fp32)}}
func.func @f() attributes {c = #fuse.lowering_config<schedule = "contraction", tile = [8, 32], threads = 128, instruction = "simt", precision = "tf32">}

// -----

// expected-error @+1 {{#fuse.lowering_config: precision = "bf16" needs instruction = "mma_sync" (SIMT kernels compute in fp32)}}
func.func @f() attributes {c = #fuse.lowering_config<schedule = "contraction", tile = [8, 32], threads = 128, instruction = "simt", precision = "bf16">}

// -----

// expected-error @+1 {{#fuse.lowering_config: tile sizes must be non-negative (0: the loop stays whole)}}
func.func @f() attributes {c = #fuse.lowering_config<schedule = "elementwise", tile = [8, -1], threads = 128, instruction = "simt", precision = "fp32">}

// -----

// expected-error @+1 {{#fuse.lowering_config: the tile must tile at least one loop}}
func.func @f() attributes {c = #fuse.lowering_config<schedule = "elementwise", tile = [0, 0], threads = 128, instruction = "simt", precision = "fp32">}

// -----

// expected-error @+1 {{#fuse.lowering_config: 'threads' must be in [1, 1024], got 2048}}
func.func @f() attributes {c = #fuse.lowering_config<schedule = "elementwise", tile = [8, 32], threads = 2048, instruction = "simt", precision = "fp32">}

// -----

// On a fuse.group or a function, nowhere else.
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{attribute 'fuse.lowering_config' belongs on a fuse.group or the function made from one}}
  %y = math.exp %x {fuse.lowering_config = #fuse.lowering_config<schedule = "elementwise", tile = [4], threads = 32, instruction = "simt", precision = "fp32">} : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// expected-error @+1 {{attribute 'fuse.lowering_config' must be a #fuse.lowering_config, got "fast"}}
func.func @f() attributes {fuse.lowering_config = "fast"}

// -----

// expected-error @+1 {{#fuse.lowering_config: 'stages' needs instruction = "mma_sync" (SIMT kernels stage no K chunks)}}
func.func @f() attributes {c = #fuse.lowering_config<schedule = "contraction", tile = [8, 32], threads = 128, instruction = "simt", precision = "fp32", stages = 3>}

// -----

// expected-error @+1 {{#fuse.lowering_config: 'stages' must be in [2, 4], got 5}}
func.func @f() attributes {c = #fuse.lowering_config<schedule = "contraction", tile = [64, 32], threads = 64, instruction = "mma_sync", precision = "fp32", stages = 5>}

// -----

// expected-error @+1 {{#fuse.lowering_config: 'split_k' needs instruction = "mma_sync" (only the tensor-core schedule splits a reduction over blocks)}}
func.func @f() attributes {c = #fuse.lowering_config<schedule = "contraction", tile = [8, 32], threads = 128, instruction = "simt", precision = "fp32", split_k = 2>}

// -----

// expected-error @+1 {{#fuse.lowering_config: 'split_k' must be in [2, 16], got 1}}
func.func @f() attributes {c = #fuse.lowering_config<schedule = "contraction", tile = [64, 32], threads = 64, instruction = "mma_sync", precision = "fp32", split_k = 1>}

// -----

// expected-error @+1 {{#fuse.lowering_config: 'split_k' must be in [2, 16], got 17}}
func.func @f() attributes {c = #fuse.lowering_config<schedule = "contraction", tile = [64, 32], threads = 64, instruction = "mma_sync", precision = "fp32", split_k = 17>}

// -----

// expected-error @+1 {{#fuse.lowering_config field 'split_k' is given twice}}
func.func @f() attributes {c = #fuse.lowering_config<schedule = "contraction", tile = [64, 32], threads = 64, instruction = "mma_sync", precision = "fp32", split_k = 2, stages = 3, split_k = 4>}

// -----

// expected-error @+1 {{unknown #fuse.lowering_config field 'unroll'; the optional fields are 'stages', 'split_k', 'key_chunk' and 'cpu'}}
func.func @f() attributes {c = #fuse.lowering_config<schedule = "contraction", tile = [64, 32], threads = 64, instruction = "mma_sync", precision = "fp32", unroll = 2>}

// -----

// expected-error @+1 {{#fuse.lowering_config: 'key_chunk' needs schedule = "attention" (only the attention tile streams its keys), got 'contraction'}}
func.func @f() attributes {c = #fuse.lowering_config<schedule = "contraction", tile = [64, 32], threads = 64, instruction = "mma_sync", precision = "fp32", key_chunk = 64>}

// -----

// expected-error @+1 {{#fuse.lowering_config: 'key_chunk' must be positive, got -32}}
func.func @f() attributes {c = #fuse.lowering_config<schedule = "attention", tile = [1, 8, 0, 0], threads = 64, instruction = "simt", precision = "fp32", key_chunk = -32>}

// -----

// expected-error @+1 {{expected 'threads'}}
func.func @f() attributes {c = #fuse.lowering_config<schedule = "contraction", tile = [64, 32], instruction = "mma_sync", precision = "fp32">}
