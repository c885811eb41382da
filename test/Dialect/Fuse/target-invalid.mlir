// RUN: fuse-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{unknown #fuse.target preset 'h2000'; presets are t4, v100, a100, h100, h200, orin, jetson-nano (a custom target sets every field)}}
func.func @f() attributes {gpu = #fuse.target<"h2000">}

// -----

// expected-error @+1 {{unknown #fuse.target field 'smem'; expected one of: arch, sms, smem_per_block, smem_per_sm, l2_bytes, regs_per_sm, max_threads_per_block, dram_gbps, launch_us, peak_tflops}}
func.func @f() attributes {gpu = #fuse.target<"h100", smem = 1>}

// -----

// expected-error @+1 {{#fuse.target field 'sms' is given twice}}
func.func @f() attributes {gpu = #fuse.target<"h100", sms = 1, sms = 2>}

// -----

// expected-error @+1 {{custom #fuse.target 'mygpu' must set every field; missing: smem_per_sm, l2_bytes, regs_per_sm, max_threads_per_block, dram_gbps, launch_us, peak_tflops}}
func.func @f() attributes {gpu = #fuse.target<"mygpu", arch = "sm_86", sms = 82, smem_per_block = 1024>}

// -----

// expected-error @+1 {{#fuse.target 'h100': unknown arch 'sm_13'; expected one of sm_50, sm_52, sm_53}}
func.func @f() attributes {gpu = #fuse.target<"h100", arch = "sm_13">}

// -----

// expected-error @+1 {{#fuse.target 'h100': 'sms' must be positive, got -4}}
func.func @f() attributes {gpu = #fuse.target<"h100", sms = -4>}

// -----

// expected-error @+1 {{#fuse.target 'h100': 'l2_bytes' must be positive, got 0}}
func.func @f() attributes {gpu = #fuse.target<"h100", l2_bytes = 0>}

// -----

// expected-error @+1 {{#fuse.target 't4': 'smem_per_block' (131072) exceeds 'smem_per_sm' (65536)}}
func.func @f() attributes {gpu = #fuse.target<"t4", smem_per_block = 131072>}

// -----

// expected-error @+1 {{#fuse.target 't4': 'max_threads_per_block' must be a multiple of 32 and at most 1024, got 2048}}
func.func @f() attributes {gpu = #fuse.target<"t4", max_threads_per_block = 2048>}

// -----

// expected-error @+1 {{#fuse.target 't4': 'dram_gbps' must be a positive finite number}}
func.func @f() attributes {gpu = #fuse.target<"t4", dram_gbps = -320.0>}

// -----

// expected-error @+1 {{#fuse.target 't4': 'launch_us' must be a finite number >= 0}}
func.func @f() attributes {gpu = #fuse.target<"t4", launch_us = -1.0>}

// -----

// expected-error @+1 {{#fuse.target 't4': unknown 'peak_tflops' key 'f12'; expected one of f64, f32, tf32, f16, bf16, f8, i8}}
func.func @f() attributes {gpu = #fuse.target<"t4", peak_tflops = {f12 = 1.0}>}

// -----

// expected-error @+1 {{#fuse.target 't4': 'peak_tflops' f32 must be a positive number, got 0.000000e+00 : f64}}
func.func @f() attributes {gpu = #fuse.target<"t4", peak_tflops = {f32 = 0.0}>}

// -----

// expected-error @+1 {{#fuse.target needs a non-empty name}}
func.func @f() attributes {gpu = #fuse.target<"", arch = "sm_86", sms = 82,
    smem_per_block = 101376, smem_per_sm = 102400, l2_bytes = 6291456,
    regs_per_sm = 65536, max_threads_per_block = 1024, dram_gbps = 936.0,
    launch_us = 3.0, peak_tflops = {f32 = 35.6}>}

// -----

// expected-error @+1 {{expected string}}
func.func @f() attributes {gpu = #fuse.target<h100>}

// -----

// expected-error @+1 {{#fuse.target field 'dram_gbps' expects a number}}
func.func @f() attributes {gpu = #fuse.target<"t4", dram_gbps = "fast">}
