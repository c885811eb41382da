//===- FuseDialect.td - the fuse dialect -------------------*- tablegen -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_DIALECT_FUSE_IR_FUSEDIALECT_TD
#define FUSE_DIALECT_FUSE_IR_FUSEDIALECT_TD

include "mlir/IR/OpBase.td"

def Fuse_Dialect : Dialect {
  let name = "fuse";
  let cppNamespace = "::mlir::fuse";
  let summary = "Fusion groups, op classification and GPU target descriptions";
  let description = [{
    The `fuse` dialect holds what an operator-fusion compiler decides:

    * `fuse.group` wraps the ops that will run as ONE kernel. Its region is
      isolated from above: every value it reads comes in as an operand and
      every value it produces leaves through `fuse.yield`.
    * `#fuse.target<...>` describes the GPU the fusion decisions are made for
      (architecture, SMs, shared memory, L2, registers, DRAM bandwidth, peak
      FLOP/s), with named presets such as `#fuse.target<"h200">`.
    * The `FusibleOpInterface` classifies any op as elementwise, broadcast,
      injective, reduction, contraction or opaque, with its FLOPs and bytes.
      fuse attaches it to linalg, tensor, tosa, arith and math ops; other
      dialects implement it to make their ops fusible.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;

  // Every discardable attribute fuse sets; the dialect verifies each one's
  // type and where it may appear (docs/generated/FuseDialect.md lists them
  // with their meaning, in Overview.md).
  let discardableAttrs = (ins
    // On the module: the target the IR is fused and compiled for.
    "::mlir::fuse::TargetAttr":$target,
    // On the module: the CPU its groups' CPU schedules are chosen for.
    "::mlir::fuse::CpuTargetAttr":$cpu_target,
    // On a fuse.group: its id in the fusion report.
    "::mlir::IntegerAttr":$id,
    // On a fuse.group, and on the function made from it: its schedule.
    "::mlir::fuse::LoweringConfigAttr":$lowering_config,
    // On a function made from a group (fuse-outline-groups): the group's
    // kind and rule.
    "::mlir::StringAttr":$kind,
    "::mlir::StringAttr":$rule,
    // On a function made from several groups that are the same kernel
    // (fuse-outline-groups): their ids.
    "::mlir::DenseI64ArrayAttr":$groups,
    // On a function: keep its buffers out of fuse-plan-buffers' arena.
    "::mlir::UnitAttr":$no_plan,
    // On a function: its contractions (and its groups') lower to loops on
    // the CPU, not to vector micro-kernels (a reference build).
    "::mlir::UnitAttr":$no_vectorize,
    // On an scf.for (fuse-cpu-vectorize): a loop over register tiles whose
    // iterations are independent, which fuse-cpu-outline-parallel may
    // spread over threads.
    "::mlir::UnitAttr":$parallel_tiles,
    // On a function (fuse-cpu-outline-parallel): the body of a parallel
    // loop, called with a range of its linearized iterations, which
    // fuse-cpu-dispatch-parallel hands to the runtime's threads.
    "::mlir::UnitAttr":$parallel_body,
    // On a function: what fuse-plan-buffers decided (bytes, strategy).
    "::mlir::DictionaryAttr":$memory,
    // On a function: the weight re-layouts of fuse-relayout-weights, and
    // the weights' panels packed for the CPU micro-kernels
    // (fuse-cpu-vectorize, fuse-cpu-pack-weights).
    "::mlir::ArrayAttr":$relayouts,
    // On a private function (fuse-cpu-mark-constant-arguments): the
    // arguments every call passes a constant for.
    "::mlir::DenseI64ArrayAttr":$constant_arguments,
    // On a linalg.generic (fuse-cpu-vectorize): it packs a constant
    // argument into the tiles the named contraction reads, which
    // fuse-cpu-pack-weights does at compile time instead.
    "::mlir::StringAttr":$pack_argument,
    // On a memref.alloc (fuse-distribute-threads): a split-K kernel's
    // "partials" or arrival "counters", which fuse-split-k-buffers places
    // in module globals.
    "::mlir::StringAttr":$split_k_buffer,
    // On a kernel (fuse-kernel-arg-attrs, until fuse-kernel-noalias after
    // the NVVM lowering): the LLVM arguments to mark noalias (the aligned
    // pointers of buffers no launch aliases) and the LLVM argument count
    // that assumes.
    "::mlir::DenseI64ArrayAttr":$noalias_args,
    "::mlir::IntegerAttr":$llvm_arg_count,
    // On the function a compiled model runs (fuse-mark-entry): its inputs'
    // and outputs' names and types.
    "::mlir::DictionaryAttr":$entry,
    // On any op (fuse-test-classify): its classification.
    "::mlir::fuse::OpCategoryAttr":$category,
    "::mlir::IntegerAttr":$flops,
    "::mlir::IntegerAttr":$bytes_read,
    "::mlir::IntegerAttr":$bytes_written
  );

  let extraClassDeclaration = [{
    void registerAttributes();
  }];
}

class Fuse_Op<string mnemonic, list<Trait> traits = []>
    : Op<Fuse_Dialect, mnemonic, traits>;

#endif // FUSE_DIALECT_FUSE_IR_FUSEDIALECT_TD
