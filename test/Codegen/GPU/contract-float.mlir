// fuse-contract-float marks float multiplies, adds and subtracts
// fastmath<contract> (a multiply and the add that uses it may become one
// fma), keeping flags already there; integer arith has no fastmath, and
// conversions keep theirs (an extf's flags would reach the LLVM dialect as
// a stray arith attribute).
// RUN: fuse-opt %s --fuse-contract-float | FileCheck %s
// CHECK-LABEL: func @mac
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<nnan,contract> : f32
// CHECK: arith.subf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK: arith.muli %{{.*}}, %{{.*}} : i32
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK-NOT: fastmath
func.func @mac(%a: f32, %b: f32, %c: f32, %i: i32, %h: f16) -> (f32, i32, f32) {
  %m = arith.mulf %a, %b : f32
  %s = arith.addf %m, %c fastmath<nnan> : f32
  %t = arith.subf %s, %a : f32
  %j = arith.muli %i, %i : i32
  %e = arith.extf %h : f16 to f32
  return %t, %j, %e : f32, i32, f32
}
