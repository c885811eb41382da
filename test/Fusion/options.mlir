// Bad options get a clear error, never a crash.
// RUN: not fuse-opt %s --fuse-form-groups="target=h2000" 2>&1 | FileCheck %s --check-prefix=PRESET
// RUN: not fuse-opt %s --fuse-form-groups='target={#fuse.target<"h100", sms = -1>}' 2>&1 | FileCheck %s --check-prefix=ATTR
// RUN: not fuse-opt %s --fuse-form-groups="disable-rules=fuse_everything" 2>&1 | FileCheck %s --check-prefix=RULE
// RUN: not fuse-opt %s --fuse-form-groups="max-ops-per-group=0" 2>&1 | FileCheck %s --check-prefix=CAP
// RUN: not fuse-opt %s --fuse-form-groups="report=/nonexistent-dir/r.json" 2>&1 | FileCheck %s --check-prefix=FILE
// A preset and a full attribute both work.
// RUN: fuse-opt %s --fuse-form-groups="target=jetson-nano" | FileCheck %s --check-prefix=OK
// RUN: fuse-opt %s --fuse-form-groups='target={#fuse.target<"orin", launch_us = 8.0>}' | FileCheck %s --check-prefix=OK

// PRESET: error: fuse-form-groups: unknown target 'h2000'; presets are t4, v100, a100, h100, h200, orin, jetson-nano, or give a #fuse.target<...> attribute
// ATTR: error: fuse-form-groups: cannot parse target '#fuse.target<"h100", sms = -1>': #fuse.target 'h100': 'sms' must be positive, got -1
// RULE: error: fuse-form-groups: unknown rule 'fuse_everything' in disable-rules (see fuse-opt --fuse-list-rules)
// CAP: error: fuse-form-groups: max-ops-per-group and max-kernel-param-bytes must be positive and max-reductions-per-group non-negative
// FILE: error: cannot write the fusion report to '/nonexistent-dir/r.json'
// OK: fuse.group single
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = math.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
