// fuse-mark-entry records the entry's inputs and outputs (names from
// onnx.name, else input<K>/output<K>) and refuses what the runtime cannot
// describe.
// RUN: fuse-opt %s --split-input-file --fuse-mark-entry --verify-diagnostics | FileCheck %s

// The caller's inputs are never updated in place.
// CHECK-LABEL: func.func @net
// CHECK-SAME: %{{.*}}: tensor<2x8xf32> {bufferization.writable = false, onnx.name = "x"}, %{{.*}}: tensor<i32> {bufferization.writable = false}
// CHECK-SAME: fuse.entry = {inputs = [{name = "x", type = tensor<2x8xf32>}, {name = "input1", type = tensor<i32>}], outputs = [{name = "output0", type = tensor<2x8xf32>}, {name = "y y", type = tensor<8xbf16>}]}
func.func @net(%x: tensor<2x8xf32> {onnx.name = "x"}, %n: tensor<i32>)
    -> (tensor<2x8xf32>, tensor<8xbf16> {onnx.name = "y y"}) {
  %c = arith.constant dense<1.0> : tensor<8xbf16>
  return %x, %c : tensor<2x8xf32>, tensor<8xbf16>
}
func.func private @helper(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}

// -----

// Several public functions: function=NAME chooses (mark-entry-named.mlir).
// expected-error @+1 {{the module has 2 public functions (first, second); name the one to run (function=NAME)}}
module {
  func.func @first(%x: tensor<2xf32>) -> tensor<2xf32> {
    return %x : tensor<2xf32>
  }
  func.func @second(%x: tensor<2xf32>) -> tensor<2xf32> {
    return %x : tensor<2xf32>
  }
}

// -----

// expected-error @+1 {{the module has no public function with a body to run}}
module {
  func.func private @only(%x: tensor<2xf32>) -> tensor<2xf32> {
    return %x : tensor<2xf32>
  }
}

// -----

// Every argument and result refused is named.
// expected-error @+2 {{input 0 ('x') of 'dynamic' is 'tensor<?x8xf32>'; a compiled model takes and returns statically shaped tensors only}}
// expected-error @+1 {{output 0 of 'dynamic' is 'tensor<?x8xf32>'}}
func.func @dynamic(%x: tensor<?x8xf32> {onnx.name = "x"}) -> tensor<?x8xf32> {
  return %x : tensor<?x8xf32>
}

// -----

// expected-error @+1 {{output 0 of 'complex' has element type 'complex<f32>', which the runtime does not describe (f16, bf16, f32, f64, i1, i8, i16, i32, i64)}}
func.func @complex(%x: tensor<2xf32>) -> tensor<2xcomplex<f32>> {
  %c = complex.constant [1.0 : f32, 0.0 : f32] : complex<f32>
  %t = tensor.splat %c : tensor<2xcomplex<f32>>
  return %t : tensor<2xcomplex<f32>>
}

// -----

// expected-error @+1 {{input 0 of 'unsigned' has element type 'ui8'}}
func.func @unsigned(%x: tensor<2xui8>) -> tensor<2xf32> {
  %c = arith.constant dense<1.0> : tensor<2xf32>
  return %c : tensor<2xf32>
}

// -----

// expected-error @+1 {{output 0 ('a') of 'clash' is named 'a', as another input or output is; a compiled model's names must be unique}}
func.func @clash(%x: tensor<2xf32> {onnx.name = "a"}) -> (tensor<2xf32> {onnx.name = "a"}) {
  return %x : tensor<2xf32>
}

// -----

// expected-error @+1 {{'nothing' returns nothing; a compiled model needs an output}}
func.func @nothing(%x: tensor<2xf32>) {
  return
}

// -----

// expected-error @+1 {{attribute 'fuse.entry' must be a dictionary of 'inputs' and 'outputs', each an array of {name, type} with statically shaped types}}
func.func @bad() attributes {fuse.entry = {inputs = [], outputs = [{name = "y", type = tensor<?xf32>}]}} {
  return
}
