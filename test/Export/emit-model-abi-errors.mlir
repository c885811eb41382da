// fuse-emit-model-abi on LLVM-dialect modules: a global the code may write
// makes the model not reentrant; what does not fit the ABI is refused with
// the reason.
// RUN: fuse-opt %s --split-input-file --fuse-emit-model-abi --verify-diagnostics | FileCheck %s

// Constant arrays of 256 bytes or more become byte arrays (LLVM writes
// those into the object in one block), keeping their alignment; small and
// splat ones stay as they are.
// CHECK: llvm.mlir.global internal @counter(0 : i32)
// CHECK: llvm.mlir.global private constant @table(dense<1.000000e+00> : tensor<2xf32>)
// CHECK: llvm.mlir.global private constant @weights(dense<"0x00000000000000000000000000000040{{0+}}0000000000000840"> : tensor<512xi8>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<512 x i8>
// CHECK: llvm.mlir.global private constant @blob(dense_resource<blob_weights> : tensor<512xi8>) {addr_space = 0 : i32, alignment = 4 : i64} : !llvm.array<512 x i8>
// CHECK: llvm.mlir.global private constant @splat(dense<2.000000e+00> : tensor<64xf32>)
// CHECK: llvm.func internal @run(
// CHECK: llvm.func @free(!llvm.ptr)
// CHECK: @fuse_model_signature("fuse-model 1\0Atarget cpu\0Aworkspace 0\0Areentrant 0\0Ainput in f16 2\0Aoutput out i64 scalar\0A\00")
module {
  llvm.mlir.global external @counter(0 : i32) : i32
  llvm.mlir.global private constant @table(dense<1.0> : tensor<2xf32>) : !llvm.array<2 x f32>
  llvm.mlir.global private constant @weights(dense<[[0.0, 2.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 3.0]]> : tensor<32x2xf64>) {alignment = 64 : i64} : !llvm.array<32 x array<2 x f64>>
  llvm.mlir.global private constant @blob(dense_resource<blob_weights> : tensor<128xf32>) : !llvm.array<128 x f32>
  llvm.mlir.global private constant @splat(dense<2.0> : tensor<64xf32>) : !llvm.array<64 x f32>
  llvm.func @run(%a: !llvm.ptr, %b: !llvm.ptr, %c: i64, %d: i64, %e: i64,
                 %f: !llvm.ptr, %g: !llvm.ptr, %h: i64) attributes {
      fuse.entry = {inputs = [{name = "in", type = tensor<2xf16>}],
                    outputs = [{name = "out", type = tensor<i64>}]}} {
    llvm.return
  }
  llvm.func @free(!llvm.ptr)
}
{-#
  dialect_resources: {
    builtin: {
      blob_weights: "0x100000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    }
  }
#-}

// -----

// expected-error @+1 {{expected one LLVM function marked fuse.entry (fuse-mark-entry, then the LLVM lowering), found 0}}
module {
  llvm.func @run() {
    llvm.return
  }
}

// -----

module {
  // expected-error @+1 {{the entry takes 2 LLVM arguments; its inputs and outputs as buffers (fuse-to-cpu{entry-abi=true}) take 8 (or 13 with a workspace)}}
  llvm.func @run(%a: !llvm.ptr, %b: !llvm.ptr) attributes {
      fuse.entry = {inputs = [{name = "in", type = tensor<2xf16>}],
                    outputs = [{name = "out", type = tensor<i64>}]}} {
    llvm.return
  }
}

// -----

module {
  // expected-error @+1 {{LLVM argument 2 of the entry is '!llvm.ptr', expected 'i64' (a memref descriptor's field)}}
  llvm.func @run(%a: !llvm.ptr, %b: !llvm.ptr, %c: !llvm.ptr) attributes {
      fuse.entry = {inputs = [], outputs = [{name = "out", type = tensor<i64>}]}} {
    llvm.return
  }
}

// -----

module {
  // expected-error @+1 {{the entry still returns 'i32'; its results must be caller buffers}}
  llvm.func @run(%a: !llvm.ptr, %b: !llvm.ptr, %c: i64) -> i32 attributes {
      fuse.entry = {inputs = [], outputs = [{name = "out", type = tensor<i64>}]}} {
    %0 = llvm.mlir.constant(0 : i32) : i32
    llvm.return %0 : i32
  }
}

// -----

module {
  // expected-error @+1 {{the entry takes a buffer besides its inputs and outputs but records no arena (fuse.memory) for it}}
  llvm.func @run(%a: !llvm.ptr, %b: !llvm.ptr, %c: i64, %d: !llvm.ptr, %e: !llvm.ptr, %f: i64, %g: i64, %h: i64) attributes {
      fuse.entry = {inputs = [], outputs = [{name = "out", type = tensor<i64>}]}} {
    llvm.return
  }
}

// -----

// expected-error @+1 {{the module already defines 'fuse_model_run'}}
module {
  llvm.func @fuse_model_run()
  llvm.func @run(%a: !llvm.ptr, %b: !llvm.ptr, %c: i64) attributes {
      fuse.entry = {inputs = [], outputs = [{name = "out", type = tensor<i64>}]}} {
    llvm.return
  }
}
