// RUN: fuse-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{#fuse.cpu_target: 'vector_bits' must be 128, 256 or 512, got 384}}
func.func @f() attributes {t = #fuse.cpu_target<name = "x", vector_bits = 384, vector_registers = 16, l1_bytes = 32768, l2_bytes = 262144, l3_bytes = 0>}

// -----

// expected-error @+1 {{#fuse.cpu_target: 'vector_registers' must be in [8, 64], got 4}}
func.func @f() attributes {t = #fuse.cpu_target<name = "x", vector_bits = 256, vector_registers = 4, l1_bytes = 32768, l2_bytes = 262144, l3_bytes = 0>}

// -----

// expected-error @+1 {{#fuse.cpu_target: cache sizes must be l1_bytes >= 1024, l2_bytes >= l1_bytes and l3_bytes >= 0, got 32768, 16384 and 0}}
func.func @f() attributes {t = #fuse.cpu_target<name = "x", vector_bits = 256, vector_registers = 16, l1_bytes = 32768, l2_bytes = 16384, l3_bytes = 0>}

// -----

// expected-error @+1 {{#fuse.cpu_target: 'name' must not be empty}}
func.func @f() attributes {t = #fuse.cpu_target<name = "", vector_bits = 256, vector_registers = 16, l1_bytes = 32768, l2_bytes = 262144, l3_bytes = 0>}

// -----

// expected-error @+1 {{#fuse.cpu_schedule: 'kind' must be one of 'register_tiles', 'channel_tiles', 'loops', got 'tiles'}}
func.func @f() attributes {s = #fuse.cpu_schedule<kind = "tiles", mr = 8, nr = 32, kc = 4, k_block = 0>}

// -----

// expected-error @+1 {{#fuse.cpu_schedule: kind "loops" has no register tile (mr, nr, kc and k_block 0)}}
func.func @f() attributes {s = #fuse.cpu_schedule<kind = "loops", mr = 8, nr = 0, kc = 0, k_block = 0>}

// -----

// expected-error @+1 {{#fuse.cpu_schedule: 'mr', 'nr' and 'kc' must be at least 1 and 'k_block' at least 0, got 8, 0, 4 and 0}}
func.func @f() attributes {s = #fuse.cpu_schedule<kind = "register_tiles", mr = 8, nr = 0, kc = 4, k_block = 0>}

// -----

// expected-error @+1 {{#fuse.cpu_schedule: 'k_block' (66) must be a multiple of 'kc' (4)}}
func.func @f() attributes {s = #fuse.cpu_schedule<kind = "register_tiles", mr = 8, nr = 32, kc = 4, k_block = 66>}

// -----

// expected-error @+1 {{#fuse.lowering_config field 'cpu' must be a #fuse.cpu_schedule, got 4 : i64}}
func.func @f() attributes {c = #fuse.lowering_config<schedule = "contraction", tile = [8, 32, 0], threads = 128, instruction = "simt", precision = "fp32", cpu = 4>}

// -----

// expected-error @+1 {{#fuse.lowering_config field 'cpu' is given twice}}
func.func @f() attributes {c = #fuse.lowering_config<schedule = "contraction", tile = [8, 32, 0], threads = 128, instruction = "simt", precision = "fp32", cpu = #fuse.cpu_schedule<kind = "loops", mr = 0, nr = 0, kc = 0, k_block = 0>, cpu = #fuse.cpu_schedule<kind = "loops", mr = 0, nr = 0, kc = 0, k_block = 0>>}

// -----

// expected-error @+1 {{'fuse.cpu_target' belongs on a module}}
func.func @f() attributes {fuse.cpu_target = #fuse.cpu_target<name = "x", vector_bits = 256, vector_registers = 16, l1_bytes = 32768, l2_bytes = 262144, l3_bytes = 0>}

// -----

// expected-error @+1 {{'fuse.cpu_target' must be a #fuse.cpu_target}}
module attributes {fuse.cpu_target = 1 : i64} {}
