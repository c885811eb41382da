//===- Passes.td - the compiled-model ABI ------------------*- tablegen -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_EXPORT_PASSES_TD
#define FUSE_EXPORT_PASSES_TD

include "mlir/Pass/PassBase.td"

def FuseMarkEntry : Pass<"fuse-mark-entry", "::mlir::ModuleOp"> {
  let summary = "Choose the function a compiled model runs and record its "
                "signature";
  let description = [{
    A compiled model (`fuse-compile`) runs one function: the one named by
    `function`, or else the module's only public function with a body. The
    pass checks that every argument and result is a statically shaped
    tensor (or memref) of an element type the runtime knows (`f16`, `bf16`,
    `f32`, `f64`, `i1`, `i8`, `i16`, `i32`, `i64`) and records, in the
    function's `fuse.entry` attribute, each input's and output's name and
    type. Names come from the `onnx.name` argument and result attributes
    the ONNX importer sets, else `input<K>` / `output<K>`; two with one
    name are an error. `fuse-emit-model-abi` builds the library's entry
    point from the record after the LLVM lowering, where the types are
    gone.

    ```mlir
    func.func @net(%x: tensor<1x8xf32> {onnx.name = "x"}) -> tensor<1x4xf32>
    // becomes
    func.func @net(...) -> ... attributes {fuse.entry = {
        inputs = [{name = "x", type = tensor<1x8xf32>} ],
        outputs = [{name = "output0", type = tensor<1x4xf32>} ]}}
    ```
  }];
  let options = [
    Option<"function", "function", "std::string", /*default=*/"\"\"",
           "The function to run; empty: the only public function">,
  ];
}

def FuseEmitModelAbi : Pass<"fuse-emit-model-abi", "::mlir::ModuleOp"> {
  let summary = "The compiled-model library's exported entry point and "
                "signature, in the LLVM dialect";
  let description = [{
    After the LLVM lowering of a module whose entry function carries
    `fuse.entry` (`fuse-mark-entry`), with its results turned into
    caller buffers and its arena into a trailing workspace argument
    (`fuse-to-cpu{entry-abi=true}` does both), adds what the runtime
    (`libfuse_runtime`, `include/fuse-c/Runtime.h`) looks up in a compiled
    model:

    - `fuse_model_abi_version`: an `i32` constant, the ABI version the
      runtime checks before it calls anything;
    - `fuse_model_signature`: a NUL-terminated text naming the target, the
      workspace bytes, whether calls may run concurrently, and each input
      and output (name, element type, shape);
    - `fuse_model_run(ptr inputs, ptr outputs, ptr workspace) -> i32`: the
      entry called with one data pointer per input and per output (arrays
      in signature order) and the workspace, each expanded into the
      memref descriptor the lowered function takes.

    The signature also lists the kernels: each function the entry calls that
    `fuse-outline-groups` made, with its fusion rule and the names in its
    ops' locations (the ONNX nodes it holds). With `profile=true` the entry
    calls a hook around each kernel (`fuse_model_profile_hook`, a pointer
    the runtime sets at load; NULL: nothing is called) and the signature
    says `profile 1` (`fuse-compile --profile`, `fuse-benchmark`).

    Every other function with a body becomes internal, so two models in one
    process share no symbol, and the functions the entry calls (one per
    group) `noinline`: LLVM optimizes and compiles each kernel apart, in
    time linear in the network's size. A module with a global the code writes
    (anything but a constant) is marked not reentrant: the runtime runs
    its calls one at a time.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"cpu\"",
           "The target named in the signature">,
    Option<"profile", "profile", "bool", /*default=*/"false",
           "Call the runtime's profile hook around each kernel">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // FUSE_EXPORT_PASSES_TD
