// RUN: fuse-opt %s | FileCheck %s
// RUN: fuse-opt %s | fuse-opt | FileCheck %s

// Every preset parses and prints back as its name alone.
// CHECK-LABEL: func @presets
// CHECK-SAME: a100 = #fuse.target<"a100">
// CHECK-SAME: h100 = #fuse.target<"h100">
// CHECK-SAME: h200 = #fuse.target<"h200">
// CHECK-SAME: nano = #fuse.target<"jetson-nano">
// CHECK-SAME: orin = #fuse.target<"orin">
// CHECK-SAME: t4 = #fuse.target<"t4">
// CHECK-SAME: v100 = #fuse.target<"v100">
func.func @presets() attributes {
    t4 = #fuse.target<"t4">, v100 = #fuse.target<"v100">,
    a100 = #fuse.target<"a100">, h100 = #fuse.target<"h100">,
    h200 = #fuse.target<"h200">, orin = #fuse.target<"orin">,
    nano = #fuse.target<"jetson-nano">} {
  return
}

// Overrides print only what differs from the preset; giving a preset's own
// value is no override.
// CHECK-LABEL: func @overrides
// CHECK-SAME: same = #fuse.target<"h100">
// CHECK-SAME: small = #fuse.target<"h100", smem_per_block = 49152, dram_gbps = 1000.5>
func.func @overrides() attributes {
    small = #fuse.target<"h100", dram_gbps = 1000.5, smem_per_block = 49152>,
    same = #fuse.target<"h100", sms = 132>} {
  return
}

// A custom target names itself and sets every field; it prints them all.
// CHECK-LABEL: func @custom
// CHECK-SAME: #fuse.target<"rtx3090", arch = "sm_86", sms = 82, smem_per_block = 101376, smem_per_sm = 102400, l2_bytes = 6291456, regs_per_sm = 65536, max_threads_per_block = 1024, dram_gbps = 936.0, launch_us = 3.0, peak_tflops = {f16 = 71.0, f32 = 35.6}>
func.func @custom() attributes {gpu = #fuse.target<"rtx3090", arch = "sm_86",
    sms = 82, smem_per_block = 101376, smem_per_sm = 102400,
    l2_bytes = 6291456, regs_per_sm = 65536, max_threads_per_block = 1024,
    dram_gbps = 936, launch_us = 3.0, peak_tflops = {f32 = 35.6, f16 = 71.0}>} {
  return
}

// The preset's values are what the cost model reads.
// CHECK-LABEL: func @preset_fields
// CHECK-SAME: #fuse.target<"h200", arch = "sm_80">
func.func @preset_fields() attributes {gpu = #fuse.target<"h200", arch = "sm_80", l2_bytes = 52428800>} {
  return
}
