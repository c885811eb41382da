//===- Passes.td - fuse.group transforms: cleanups and outlining *- tablegen -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_DIALECT_FUSE_TRANSFORMS_PASSES_TD
#define FUSE_DIALECT_FUSE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def FuseOutlineGroups : Pass<"fuse-outline-groups", "::mlir::ModuleOp"> {
  let summary = "Turn every fuse.group into a function of its own and a call";
  let description = [{
    The CPU build keeps the kernel structure visible: each `fuse.group` of a
    function `@f` becomes a private function `@f__group<id>` (the group's
    `fuse.id`, else its position), taking the group's inputs and returning
    its results, and the group is replaced by a `func.call`. The kind and
    rule stay on the function as `fuse.kind` and `fuse.rule` string
    attributes (plain strings, so the lowered module needs no fuse dialect);
    a `fuse.no_plan` marker on the parent carries over to its groups.

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
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

#endif // FUSE_DIALECT_FUSE_TRANSFORMS_PASSES_TD
