//===- Passes.td - fuse.group transforms: cleanups and outlining *- tablegen -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_DIALECT_FUSE_TRANSFORMS_PASSES_TD
#define FUSE_DIALECT_FUSE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def FuseAttachTarget : Pass<"fuse-attach-target", "::mlir::ModuleOp"> {
  let summary = "Record on the module the GPU it is fused and compiled for";
  let description = [{
    Attaches `fuse.target = #fuse.target<...>` to the module, once: every
    later pass that needs a target (`fuse-form-groups`, `fuse-lower-groups`,
    `fuse-distribute-threads`, the NVVM target of `fuse-to-nvptx`) reads it
    from there, so fused IR records what it was fused for. A module that
    already carries the same target is left as it is; one that carries a
    different target is an error naming both (fuse for the other target
    from the unfused IR instead).

    Before (`--fuse-attach-target=target=t4`):
    ```mlir
    module {
      func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> { ... }
    }
    ```
    After:
    ```mlir
    module attributes {fuse.target = #fuse.target<"t4">} {
      func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> { ... }
    }
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"h200\"",
           "The GPU: a preset name (t4, v100, a100, h100, h200, orin, "
           "jetson-nano) or a #fuse.target<...> attribute">,
  ];
  let dependentDialects = ["::mlir::fuse::FuseDialect"];
}

def FuseStripTarget : Pass<"fuse-strip-target", "::mlir::ModuleOp"> {
  let summary = "Drop the module's fuse.target and the functions' "
                "fuse.lowering_config once nothing reads them";
  let description = [{
    The last step of `fuse-to-cpu` and `fuse-to-nvptx`: the lowered module
    (LLVM dialect, GPU binaries) goes to tools that do not know the fuse
    dialect (`mlir-translate`, `mlir-runner`), and its `#fuse.target` (and
    each group function's `#fuse.lowering_config`) is an attribute of that
    dialect. They have been used by then: the kernels are compiled for the
    target's chip, by the groups' configs.

    ```mlir
    module attributes {fuse.target = #fuse.target<"h200">} { ... }
    // becomes
    module { ... }
    ```
  }];
}

def FuseOutlineGroups : Pass<"fuse-outline-groups", "::mlir::ModuleOp"> {
  let summary = "Turn every fuse.group into a function of its own and a call";
  let description = [{
    The CPU build keeps the kernel structure visible: each `fuse.group` of a
    function `@f` becomes a private function `@f__group<id>` (the group's
    `fuse.id`, else its position), taking the group's inputs and returning
    its results, and the group is replaced by a `func.call`. The kind and
    rule stay on the function as `fuse.kind` and `fuse.rule` string
    attributes (plain strings, so the lowered module needs no fuse dialect);
    a `fuse.no_plan` or `fuse.no_vectorize` marker on the parent carries
    over to its groups.

    Before:
    ```mlir
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = fuse.group vertical rule "elementwise_chain" (%a = %x : tensor<4xf32>) -> tensor<4xf32>
          attributes {fuse.id = 0 : i64} { ... fuse.yield %r : tensor<4xf32> }
      return %0 : tensor<4xf32>
    }
    ```
    After:
    ```mlir
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = call @f__group0(%x) : (tensor<4xf32>) -> tensor<4xf32>
      return %0 : tensor<4xf32>
    }
    func.func private @f__group0(%a: tensor<4xf32>) -> tensor<4xf32>
        attributes {fuse.kind = "vertical", fuse.rule = "elementwise_chain"} {
      ...
      return %r : tensor<4xf32>
    }
    ```

    Groups of one function that are the same kernel (the same body, types,
    kind, rule and schedule; `GroupOp::isSameKernel`: the repeated layers of
    a transformer, the blocks of a ResNet stage) share one function, named
    after the first of them, which lists their ids in `fuse.groups`; each
    group is a call of it. Everything after outlining (bufferization,
    vectorization, LLVM, `ptxas`) then works on each distinct kernel once,
    and a compiled model holds it once. `share-kernels=false` outlines every
    group on its own (a profile that times each group apart).
  }];
  let options = [
    Option<"shareKernels", "share-kernels", "bool", /*default=*/"true",
           "Groups that are the same kernel call one function">
  ];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

#endif // FUSE_DIALECT_FUSE_TRANSFORMS_PASSES_TD
