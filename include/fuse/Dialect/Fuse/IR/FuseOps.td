//===- FuseOps.td - fuse operations ------------------------*- tablegen -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_DIALECT_FUSE_IR_FUSEOPS_TD
#define FUSE_DIALECT_FUSE_IR_FUSEOPS_TD

include "fuse/Dialect/Fuse/IR/FuseDialect.td"
include "fuse/Dialect/Fuse/IR/FuseAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Fuse_GroupOp : Fuse_Op<"group", [
    IsolatedFromAbove,
    SingleBlock,
    RecursiveMemoryEffects,
    RecursivelySpeculatable]> {
  let summary = "ops that run together as one kernel";
  let description = [{
    A `fuse.group` holds the ops of one fusion group: ONE future kernel. The
    region is isolated from above; each input of the group becomes a block
    argument, named in the custom syntax as `%arg = %value : type`. Results are
    the operands of the `fuse.yield` that ends the body.

    `kind` says how the group was formed (`single` for an unfused op) and the
    optional `rule` names the fusion rule that formed it, so the fusion report
    and the IR agree.

    ```mlir
    %r = fuse.group vertical rule "matmul_bias_relu"
        (%a = %x : tensor<16x32xf32>, %b = %w : tensor<32x64xf32>,
         %c = %bias : tensor<64xf32>) -> tensor<16x64xf32> {
      %e = tensor.empty() : tensor<16x64xf32>
      %m = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x64xf32>)
                         outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
      ...
      fuse.yield %y : tensor<16x64xf32>
    }
    ```

    The verifier checks that block arguments match the inputs, that the yield
    matches the results, and that `kind` agrees with the body: `single` holds
    at most one compute op, every other kind at least two. Constants,
    `tensor.empty` and the terminator are not compute ops.

    Canonicalization only does cost-free cleanups: drop unused results and
    results that just forward an input, deduplicate repeated inputs and
    results, drop unused inputs, inline a group without compute ops, merge a
    directly nested group, and demote a fused kind to `single` when cleanups
    left one compute op. It never merges two groups: that is a decision
    under a target (`fuse-form-groups`, or the pattern sets of
    `fuse/Fusion/FusionPatterns.h`).
  }];

  let arguments = (ins
    Variadic<AnyType>:$inputs,
    Fuse_FusionKindAttr:$kind,
    OptionalAttr<StrAttr>:$rule);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);

  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let hasCanonicalizer = 1;
  let skipDefaultBuilders = 1;

  let builders = [
    OpBuilder<(ins "::mlir::TypeRange":$resultTypes,
                   "::mlir::ValueRange":$inputs,
                   "::mlir::fuse::FusionKind":$kind,
                   CArg<"::llvm::StringRef", "{}">:$rule)>
  ];

  let extraClassDeclaration = [{
    /// The single block of the body.
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    /// The terminator of the body.
    YieldOp getYield();
    /// The ops of the body that do work: everything except constants,
    /// `tensor.empty` and the terminator. A nested group contributes its own
    /// compute ops. With a `limit`, the first `limit` found (the verifier
    /// only counts to two).
    ::llvm::SmallVector<::mlir::Operation *> getComputeOps(unsigned limit = 0);
    /// Whether `other` is the same kernel as this group: the same kind,
    /// rule, result types and attributes (`fuse.id` aside), and a body that
    /// computes the same (the same ops, attributes, types and use-def
    /// structure; locations aside). Two such groups may share one compiled
    /// kernel. Conservative: a difference it cannot see through (a body
    /// whose values are used before they are defined) counts as different.
    bool isSameKernel(GroupOp other);
    /// A hash of what `isSameKernel` compares: equal for groups that are
    /// the same kernel.
    ::llvm::hash_code hashKernel();
  }];
}

def Fuse_YieldOp : Fuse_Op<"yield", [
    Pure, ReturnLike, Terminator, HasParent<"GroupOp">]> {
  let summary = "returns the results of a fuse.group";
  let description = [{
    Ends the body of a `fuse.group`; its operands become the group's results,
    in order and with the same types.

    ```mlir
    fuse.yield %y, %z : tensor<16x64xf32>, tensor<16xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
  let hasVerifier = 1;
  let builders = [OpBuilder<(ins), [{ /* nothing to yield */ }]>];
}

#endif // FUSE_DIALECT_FUSE_IR_FUSEOPS_TD
