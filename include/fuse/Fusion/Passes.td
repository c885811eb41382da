//===- Passes.td - fusion: the groups and their report -----*- tablegen -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_FUSION_PASSES_TD
#define FUSE_FUSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def FuseFormGroups : Pass<"fuse-form-groups", "::mlir::ModuleOp"> {
  let summary = "Decide the fusion groups and wrap each in a fuse.group";
  let description = [{
    The fusion engine. For every function it builds the dataflow graph of
    the compute ops, applies the fusion rules by priority (contraction
    epilogues and residual joins first, then row reductions, elementwise
    chains and sibling merges), checks every candidate against the target
    (dependency/cycles, shared memory, arithmetic intensity, hardware
    capability, resource caps) and the cost model, and wraps each resulting
    group, one future kernel, in a `fuse.group` with its `kind` and `rule`.
    Every compute op ends up in exactly one group; constants, `tensor.empty`,
    fills and reshapes are cloned into the groups that use them.

    `fuse-opt --fuse-list-rules` prints the rules. The JSON report
    (`report=`) lists every group, every refused candidate with the check
    that refused it and its numbers, every op left alone with the reasons,
    and kernel and byte totals; `graph=` writes a Graphviz picture.

    The groups are then ordered (`order-kernels`, on by default): among the
    topological orders of the kernels, greedy schedules that run next the
    ready kernel adding the least memory alive (one finishing a branch
    before starting the next) are tried, and one is kept only when it lowers
    the max-live of the buffers between kernels below the source order's.

    Before:
    ```mlir
    %m = linalg.matmul ins(%a, %b : ...) outs(%fill : ...) -> tensor<16x64xf32>
    %y = linalg.generic {...} ins(%m, %bias : ...) outs(%e : ...) {  // + bias, relu
      ...
    } -> tensor<16x64xf32>
    ```
    After:
    ```mlir
    %y = fuse.group vertical rule "contraction_epilogue"
        (%arg0 = %a : ..., %arg1 = %b : ..., %arg2 = %bias : ...) -> tensor<16x64xf32>
        attributes {fuse.id = 0 : i64} {
      %fill = linalg.fill ...
      %m = linalg.matmul ...
      %y = linalg.generic ...
      fuse.yield %y : tensor<16x64xf32>
    }
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "The GPU to fuse for: a preset name (t4, v100, a100, h100, h200, "
           "orin, jetson-nano) or a #fuse.target<...> attribute; empty: "
           "the module's fuse.target, else h200. The module records it">,
    Option<"reportFile", "report", "std::string", /*default=*/"\"\"",
           "Write the fusion report as JSON to this file ('-' for stdout)">,
    Option<"graphFile", "graph", "std::string", /*default=*/"\"\"",
           "Write the fused graph as Graphviz DOT to this file ('-' for "
           "stdout)">,
    ListOption<"disabledRules", "disable-rules", "std::string",
               "Fusion rules to switch off, by name">,
    Option<"maxOpsPerGroup", "max-ops-per-group", "int64_t",
           /*default=*/"64", "Most compute ops in one group">,
    Option<"maxKernelParamBytes", "max-kernel-param-bytes", "int64_t",
           /*default=*/"4096",
           "Most bytes of kernel parameters (memref descriptors) per group">,
    Option<"maxReductionsPerGroup", "max-reductions-per-group", "int64_t",
           /*default=*/"2", "Most reductions (not contractions) per group">,
    Option<"checkLowering", "check-lowering", "bool", /*default=*/"true",
           "Try fuse-lower-groups on each planned group (on a copy) and take "
           "back the last merge of a group it refuses (check 'lowering')">,
    Option<"tensorCores", "tensor-cores", "std::string",
           /*default=*/"\"auto\"",
           "Each group's lowering config: contractions on tensor cores where "
           "the cost model predicts them faster (auto), wherever the "
           "schedule computes them (always) or never">,
    Option<"precision", "precision", "std::string", /*default=*/"\"fp32\"",
           "Precision of tensor-core products in the lowering configs: fp32 "
           "(three TF32 products, fp32 accuracy), tf32, bf16 or fp16">,
    Option<"stages", "stages", "int64_t", /*default=*/"0",
           "K chunks a tensor-core kernel stages in shared memory at once "
           "(2 to 4); 0: the cost model's choice">,
    Option<"cpuTarget", "cpu-target", "std::string", /*default=*/"\"\"",
           "Also choose each group's CPU schedule (the config's cpu field) "
           "for this CPU: a preset (host, avx512, avx2, neon) or a "
           "#fuse.cpu_target<...>; empty: none">,
    Option<"splitK", "split-k", "int64_t", /*default=*/"0",
           "Blocks per tile a tensor-core kernel splits its reduction over "
           "(split-K, 2 to 16, where the group allows it); 0: the cost "
           "model's choice where the tiles do not fill the SMs; 1: never">,
    Option<"splitRowEpilogues", "split-row-epilogues", "bool",
           /*default=*/"true",
           "Take back the merge of a row reduction (a LayerNorm) into a "
           "contraction's group when the cost model predicts the contraction "
           "alone on tensor cores and the rest as its own kernel faster "
           "(check 'cost')">,
    Option<"orderKernels", "order-kernels", "bool", /*default=*/"true",
           "Run independent kernels (branches, heads, independent "
           "subgraphs) in the order that keeps the least memory alive "
           "between them, where one lowers max-live; the report gives "
           "max-live in the source order and in the chosen one. The "
           "predicted time does not depend on the order">,
  ];
  // The trial lowering of each planned group (check-lowering) tiles it.
  let dependentDialects = ["::mlir::fuse::FuseDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect"];
}

#endif // FUSE_FUSION_PASSES_TD
