// function=NAME chooses the entry among several public functions; the
// others are left alone. A name without a function body is an error.
// RUN: fuse-opt %s --fuse-mark-entry=function=second | FileCheck %s
// RUN: not fuse-opt %s --fuse-mark-entry=function=third 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not fuse-opt %s --fuse-mark-entry=function=decl 2>&1 | FileCheck %s --check-prefix=MISSING-DECL

// CHECK: func.func @first
// CHECK-NOT: fuse.entry
// CHECK: func.func @second
// CHECK-SAME: fuse.entry = {inputs = [{name = "input0", type = tensor<2xf32>}], outputs = [{name = "output0", type = tensor<2xf32>}]}
// MISSING: error: fuse-mark-entry: no function 'third' with a body in the module
// MISSING-DECL: error: fuse-mark-entry: no function 'decl' with a body in the module
func.func @first(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}
func.func @second(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}
func.func private @decl(%x: tensor<2xf32>) -> tensor<2xf32>
