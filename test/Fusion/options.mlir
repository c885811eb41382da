// Bad options get a clear error, never a crash.
// RUN: not fuse-opt %s --fuse-form-groups="target=h2000" 2>&1 | FileCheck %s --check-prefix=PRESET
// RUN: not fuse-opt %s --fuse-form-groups='target={#fuse.target<"h100", sms = -1>}' 2>&1 | FileCheck %s --check-prefix=ATTR
// RUN: not fuse-opt %s --fuse-form-groups="disable-rules=fuse_everything" 2>&1 | FileCheck %s --check-prefix=RULE
// RUN: not fuse-opt %s --fuse-form-groups="max-ops-per-group=0" 2>&1 | FileCheck %s --check-prefix=CAP
// RUN: not fuse-opt %s --fuse-form-groups="report=/nonexistent-dir/r.json" 2>&1 | FileCheck %s --check-prefix=FILE
// A write that fails (a full device) names the file, in one line.
// RUN: not fuse-opt %s --fuse-form-groups="report=/dev/full" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FULL
// RUN: not fuse-opt %s --fuse-form-groups="graph=/dev/full" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FULLDOT
// RUN: not fuse-opt %s --fuse-form-groups="report=/dev/full" -o /dev/null 2>&1 | count 1
// A preset and a full attribute both work.
// RUN: fuse-opt %s --fuse-form-groups="target=jetson-nano" | FileCheck %s --check-prefix=OK
// RUN: fuse-opt %s --fuse-form-groups='target={#fuse.target<"orin", launch_us = 8.0>}' | FileCheck %s --check-prefix=OK

// Each is one line naming the option (the module is not printed).
// RUN: not fuse-opt %s --fuse-form-groups="target=h2000" 2>&1 | count 1
// RUN: not fuse-opt %s --fuse-form-groups="max-ops-per-group=0" 2>&1 | count 1
// PRESET: error: fuse-form-groups: option 'target': unknown target 'h2000'; presets are t4, v100, a100, h100, h200, orin, jetson-nano, or give a #fuse.target<...> attribute
// ATTR: error: fuse-form-groups: option 'target': cannot parse target '#fuse.target<"h100", sms = -1>': #fuse.target 'h100': 'sms' must be positive, got -1
// RULE: error: fuse-form-groups: option 'disable-rules': unknown rule 'fuse_everything' (fuse-opt --fuse-list-rules lists them)
// CAP: error: fuse-form-groups: options 'max-ops-per-group' and 'max-kernel-param-bytes' must be positive and 'max-reductions-per-group' non-negative, got 0, 4096 and 2
// FILE: error: cannot write the fusion report to '/nonexistent-dir/r.json'
// FULL: error: cannot write the fusion report to '/dev/full': No space left on device
// FULLDOT: error: cannot write the fusion graph to '/dev/full': No space left on device
// OK: fuse.group single

// The module records the target it was fused for; fusing it again reads it,
// and naming another target is an error that names both.
// RUN: fuse-opt %s --fuse-form-groups="target=t4" | FileCheck %s --check-prefix=RECORD
// RUN: fuse-opt %s --fuse-form-groups="target=t4" | fuse-opt --fuse-form-groups | FileCheck %s --check-prefix=RECORD
// RUN: fuse-opt %s --fuse-form-groups="target=t4" | not fuse-opt --fuse-form-groups="target=h200" 2>&1 | FileCheck %s --check-prefix=MISMATCH
// RUN: fuse-opt %s --fuse-form-groups | FileCheck %s --check-prefix=DEFAULT
// RUN: fuse-opt %s --fuse-attach-target="target=t4" --fuse-form-groups="report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT
// RECORD: module attributes {fuse.target = #fuse.target<"t4">}
// DEFAULT: module attributes {fuse.target = #fuse.target<"h200">}
// MISMATCH: error: fuse-form-groups: target=#fuse.target<"h200"> differs from the module's fuse.target = #fuse.target<"t4">
// REPORT: "name": "t4"
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = math.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
