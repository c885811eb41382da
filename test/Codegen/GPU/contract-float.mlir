// fuse-contract-float marks float arith fastmath<contract> (a multiply and
// the add that uses it may become one fma), keeping flags already there;
// integer arith has no fastmath and is left alone.
// RUN: fuse-opt %s --fuse-contract-float | FileCheck %s
// CHECK-LABEL: func @mac
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<nnan,contract> : f32
// CHECK: arith.muli %{{.*}}, %{{.*}} : i32
func.func @mac(%a: f32, %b: f32, %c: f32, %i: i32) -> (f32, i32) {
  %m = arith.mulf %a, %b : f32
  %s = arith.addf %m, %c fastmath<nnan> : f32
  %j = arith.muli %i, %i : i32
  return %s, %j : f32, i32
}
