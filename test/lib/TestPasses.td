//===- TestPasses.td - test-only passes --------------------*- tablegen -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_TEST_LIB_TESTPASSES_TD
#define FUSE_TEST_LIB_TESTPASSES_TD

include "mlir/Pass/PassBase.td"

def FuseTestClassify : Pass<"fuse-test-classify"> {
  let summary = "Annotate every op with its fusion category, FLOPs and bytes "
                "(for tests)";
  let description = [{
    Walks the IR and attaches what `FusibleOpInterface` says about each op as
    discardable attributes, so that lit tests can check the classification:
    `fuse.category` (a `#fuse.category`), and, where the shapes are static,
    `fuse.flops`, `fuse.bytes_read` and `fuse.bytes_written` (i64).

    Ops without the interface are annotated `#fuse.category<opaque>`.
    Constants, terminators and the payload of classified ops (e.g. the body of
    a `linalg.generic`) are left alone; ops with regions that are not
    classified themselves (functions, `fuse.group`) are entered.

    Before:
    ```mlir
    %0 = tosa.add %a, %b : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
    ```
    After:
    ```mlir
    %0 = tosa.add %a, %b {fuse.bytes_read = 160 : i64,
                          fuse.bytes_written = 128 : i64,
                          fuse.category = #fuse.category<broadcast>,
                          fuse.flops = 32 : i64}
        : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
    ```
  }];
  let dependentDialects = ["::mlir::fuse::FuseDialect"];
}

def FuseTestFusionPatterns : Pass<"fuse-test-fusion-patterns"> {
  let summary = "Apply one family of fusion patterns greedily (for tests "
                "and as an example for embedders)";
  let description = [{
    Runs `populate<Family>FusionPatterns` with a policy built from the
    options under the greedy driver, on IR that already holds `fuse.group`s
    (single-op groups, say). See `FusionPatterns.h`.
  }];
  let options = [
    Option<"family", "family", "std::string", /*default=*/"\"composite\"",
           "vertical, horizontal, diagonal or composite">,
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "Preset name or #fuse.target attribute; empty: the module's "
           "fuse.target, else h200">,
    Option<"maxOpsPerGroup", "max-ops-per-group", "int64_t",
           /*default=*/"64", "Most compute ops in one group">,
  ];
  let dependentDialects = ["::mlir::fuse::FuseDialect"];
}

def FuseTestWriteGroups : Pass<"fuse-test-write-groups", "::mlir::ModuleOp"> {
  let summary = "Write every outlined group as a module of its own (for "
                "the per-group equivalence check)";
  let description = [{
    Run after `fuse-outline-groups`. Every function outlined from a group
    (one with `fuse.kind`) is written to `<dir>/<name>.mlir` as a module
    holding it alone: public, with its discardable attributes dropped (an
    ordinary function, fused again by whoever compiles it), and with the
    empty tensors that its `tensor.insert_slice`s write into (a concat
    branch, whose other slices the group leaves undefined) replaced by
    zeros, so that a comparison sees defined values only. The written
    names, in the module's order, go to `<dir>/groups.txt`, one per line.
    The module itself is left as it is.

    `scripts/check-equivalence.py --per-group` compiles each file twice
    (fused and unfused) and compares them.
  }];
  let options = [
    Option<"dir", "dir", "std::string", /*default=*/"\"\"",
           "The directory the modules are written to (created)">,
    Option<"function", "function", "std::string", /*default=*/"\"\"",
           "Only the groups outlined from this function (empty: all)">,
  ];
}

#endif // FUSE_TEST_LIB_TESTPASSES_TD
