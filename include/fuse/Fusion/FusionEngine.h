//===- FusionEngine.h - group formation for fuse ----------------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// The fusion engine decides which compute ops of a block run together as one
// kernel. It works in two steps that embedders can drive separately:
//
//   FusionPlan plan = planFusion(block, policy);    // analysis, IR unchanged
//   materializeFusionPlan(block, plan);             // wraps groups in
//   fuse.group
//
// Rules are applied by priority, compute-heavy anchors first; every candidate
// merge passes the feasibility checks (dependency, memory, arithmetic
// intensity, hardware, resources) and the cost model, or is recorded in the
// plan with the check that said no and its numbers.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_FUSION_FUSIONENGINE_H
#define FUSE_FUSION_FUSIONENGINE_H

#include "fuse/Codegen/CostModel/KernelCost.h"
#include "fuse/Dialect/Fuse/IR/FuseAttrs.h"
#include "fuse/Dialect/Fuse/IR/FuseOps.h"
#include "fuse/Dialect/Fuse/Utils/Describe.h"
#include "fuse/Fusion/FusionCheck.h"
#include "fuse/Fusion/FusionRule.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::fuse {

/// The target and the limits a fusion decision respects.
struct FusionPolicy {
  /// The GPU the decisions are made for.
  TargetAttr target;
  /// Most compute ops in one group.
  int64_t maxOpsPerGroup = 64;
  /// Most bytes of kernel parameters (CUDA allows 4 KB): each input and
  /// result is passed as a memref descriptor of 8 * (3 + 2 * rank) bytes.
  int64_t maxKernelParamBytes = 4096;
  /// Most reductions (not counting contractions) in one group.
  int64_t maxReductionsPerGroup = 2;
  /// Rules switched off by name.
  llvm::StringSet<> disabledRules;
  /// How each group's lowering config is chosen: when contractions run on
  /// tensor cores (auto, always, never) and at what precision (fp32,
  /// tf32); see GroupConfigOptions.
  std::string tensorCores = "auto";
  std::string precision = "fp32";
  /// K chunks a tensor-core kernel stages (2 to 4; 0: the cost model's).
  int64_t stages = 0;
  /// Split-K slices of tensor-core kernels (GroupConfigOptions::splitK).
  int64_t splitK = 0;
  /// The CPU each group's CPU schedule is chosen for (null: none).
  CpuTargetAttr cpuTarget;
  /// Whether fuse-form-groups takes back a row reduction merged into a
  /// contraction's group where the two kernels are predicted faster.
  bool splitRowEpilogues = true;
  /// Merges the lowering cannot turn into one kernel, found by trying it
  /// (fuse-form-groups): the candidate op, the rule, and the lowering's
  /// diagnostic. The engine refuses them with the check "lowering".
  struct LoweringVeto {
    std::string rule;
    std::string reason;
    /// The check the refusal names: lowering, or cost (the lowered groups'
    /// predicted kernel times say the merge makes the program slower).
    std::string check = "lowering";
  };
  llvm::DenseMap<Operation *, SmallVector<LoweringVeto, 1>> loweringVetoes;
};

/// One group the engine formed (possibly a single op).
struct PlannedGroup {
  unsigned id = 0;
  /// Compute ops, in program order.
  SmallVector<Operation *> ops;
  Operation *anchor = nullptr;
  FusionKind kind = FusionKind::single;
  /// The rule that formed the group ("" for single ops).
  std::string rule;
  /// The last merge: its rule and the op it took in (null for single ops).
  std::string lastRule;
  Operation *lastCandidate = nullptr;
  /// Every merge, those of the groups it took in included, in the order
  /// they happened: its rule (a FusionRule's name) and the op it took in.
  /// (Names, not text: a plan of 10^6 merges holds no string per merge;
  /// the report describes the ops.)
  std::vector<std::pair<StringRef, Operation *>> merges;
  /// The index in `merges` of the first merge that joined a group holding
  /// a contraction with one holding a reduction (neither side holding
  /// both): the merge that splitting a contraction from its row epilogue
  /// takes back. None where no merge did.
  std::optional<unsigned> reductionJoin;
  /// Bytes of global memory the group reads and writes as one kernel.
  int64_t bytes = 0;
  /// Bytes its ops would move as separate kernels, minus `bytes`.
  int64_t bytesSaved = 0;
  /// Estimated time saved against running its ops as separate kernels.
  double timeSavedUs = 0;
};

/// A candidate merge that a feasibility check or the cost model refused.
struct FusionRejection {
  std::string rule;
  /// One of the check:: names.
  std::string check;
  /// Human-readable reason with the numbers that decided it.
  std::string reason;
  /// The op that anchored the group, and the op it tried to take in.
  Operation *anchor = nullptr;
  Operation *candidate = nullptr;
};

/// What the engine decided for one block.
struct FusionPlan {
  std::vector<PlannedGroup> groups;
  SmallVector<FusionRejection> rejections;
  /// Every compute op its own kernel, and after fusion.
  int64_t kernelsBefore = 0, kernelsAfter = 0;
  /// Global-memory bytes of all kernels, unfused and fused.
  int64_t bytesBefore = 0, bytesAfter = 0;
  /// The order the kernels run in (indices into `groups`), chosen by
  /// orderKernelsForMemory; empty: the source order.
  std::vector<uint32_t> kernelOrder;
  /// Max-live of the buffers between kernels in the source order and in
  /// `kernelOrder` (aligned as the report's estimate), and the heuristic
  /// that chose it ("given" when the source order was kept).
  int64_t maxLiveSourceOrder = 0, maxLiveKernelOrder = 0;
  /// No kernel order has a lower max-live than this (KernelOrder).
  int64_t maxLiveAnyOrderBound = 0;
  std::string kernelOrderStrategy;
};

/// Decides the fusion groups of the top-level ops of `block`. The IR is not
/// changed. Deterministic: the same input and policy give the same plan.
FusionPlan planFusion(Block &block, const FusionPolicy &policy);

/// The groups of a plan as kernels, and every value their ops make: which
/// kernels read it (through ops that are not kernels, such as reshapes),
/// whether it leaves the function, and its bytes. One walk of the IR,
/// shared by the kernel order and the report's memory estimate.
struct PlanKernels {
  struct ValueInfo {
    Value value;
    unsigned producer = 0;
    /// Kernels that read it, once each, in order of first use; the
    /// producer is listed when it reads the value itself (a group's inner
    /// value).
    SmallVector<unsigned> readers;
    bool escapes = false;
    /// Bytes of a statically shaped value; -1 when unknown.
    int64_t bytes = -1;
    /// The value (an index into `values`) whose memory this one is written
    /// into: its op is destination-style and its destination is another
    /// kernel's value (directly, or through a value of its own kernel that
    /// is), as a branch writes into its slice of a concatenation; -1 if
    /// none. Bufferization writes it in place where the kernel reads that
    /// value last.
    int64_t writesInto = -1;
  };
  std::vector<ValueInfo> values;
  /// Kernel k depends on each kernel in `predecessors[k]`.
  std::vector<SmallVector<unsigned>> predecessors;
  /// The source order: topological, ties by each group's last op in the
  /// block; empty if the groups form a cycle.
  std::vector<uint32_t> sourceOrder;
};
PlanKernels analyzePlanKernels(const FusionPlan &plan);

/// The memory section of a function's report: the buffers between its
/// kernels (values one kernel makes and another reads), with their places
/// (in place where a kernel writes into a value it reads last), planned
/// into one arena as fuse-plan-buffers does after bufferization.
struct PlanMemory {
  /// Every intermediate of the unfused graph in its own buffer.
  int64_t unfusedNaive = 0;
  int64_t naive = 0, arena = 0, maxLive = 0, inPlaceBytes = 0;
  int64_t buffers = 0;
  /// The planner's strategy; "" where nothing was planned.
  std::string strategy;
  /// The rest of the memory the function needs while it runs: its
  /// constants that are not splats (weights, after folding; what a compiled
  /// model keeps, in device memory on a GPU), its inputs and its results.
  /// With the arena, the footprint.
  int64_t weights = 0, inputs = 0, outputs = 0;
};
/// The estimate for `plan`'s kernels in plan.kernelOrder (else the source
/// order), with the planner's default budget (fuse-plan-buffers' too).
PlanMemory estimatePlanMemory(const FusionPlan &plan, int64_t alignment);

/// The alignment of the buffers between kernels in the report's memory
/// estimate and in the kernel order's max-live (fuse-plan-buffers' default,
/// for GPUs).
inline constexpr int64_t kMemoryAlignment = 256;

/// The decomposed concatenations of `block`: chains of `tensor.insert_slice`
/// ops, the first into a `tensor.empty`, each next one into the previous
/// one's result (its only use), with static, unit-stride, pairwise disjoint
/// slices, two or more long. Their insertions commute: any order of the
/// chain gives the same tensor.
SmallVector<SmallVector<tensor::InsertSliceOp>> findConcatChains(Block &block);

/// Threads `chain`'s destinations in the order `order` (indices into
/// `chain`): the first of them inserts into the chain's first destination,
/// each next into the previous one's result, and the users of the chain's
/// last result use the new last one's. Returns the chain in its new order.
SmallVector<tensor::InsertSliceOp>
rethreadConcatChain(ArrayRef<tensor::InsertSliceOp> chain,
                    ArrayRef<unsigned> order);

/// Sets plan.kernelOrder: with `reorder`, the order of least max-live that
/// orderForMemory finds (never above the source order's), after choosing
/// the order of each concatenation's insertions (findConcatChains: every
/// order of a chain of up to 4, else each member moved to each place) whose
/// kernel order has the least max-live, rethreading the chain in the IR
/// where that is lower; without, the source order. Records both max-lives
/// (the source's before any chain was rethreaded).
void orderKernelsForMemory(FusionPlan &plan, bool reorder, int64_t alignment);

/// Wraps every planned group in a `fuse.group` (kind and rule from the plan)
/// and orders the block topologically, the groups in plan.kernelOrder where
/// it is set. Constants, `tensor.empty`, fills of
/// constants and reshapes are cloned into the groups that use them.
LogicalResult materializeFusionPlan(Block &block, const FusionPlan &plan);

/// The `fuse.group` that materializeFusionPlan would make of `group`, built
/// from copies of its ops before its last op; the block is otherwise left
/// as it was (nothing uses the copy's results). For trying a planned group
/// (lowering it, comparing it with others) without changing the block;
/// erasing the copy restores the block exactly.
GroupOp copyPlannedGroup(Block &block, const PlannedGroup &group);

/// A hash of what isSamePlannedKernel compares: equal for planned groups
/// that are the same kernel.
llvm::hash_code hashPlannedKernel(const PlannedGroup &group);

/// Whether planned groups `a` and `b` of `block` would materialize as the
/// same kernel (GroupOp::isSameKernel of their groups), decided on the
/// planned ops without building either: the same ops in the same order,
/// values from outside paired one to one and from the same kind of source
/// (an input, or an op cloned in that is alike), the same results leaving
/// the group. False where in doubt: a caller then builds the groups.
bool isSamePlannedKernel(Block &block, const PlannedGroup &a,
                         const PlannedGroup &b);

/// How a planned group is lowered: its lowering config and what the cost
/// model reads of its kernel (fuse/Codegen/CostModel/KernelCost.h), with
/// the blocks its tile loop launches and the bytes one tile reads of the
/// inputs and holds in tile-local buffers measured on the tiled group.
struct GroupSchedule {
  LoweringConfigAttr config;
  KernelShape shape;
};

/// The plan of one function, for the remarks and the reports made of them.
struct FunctionPlan {
  std::string name;
  /// The function the plan is for (its location goes on the remarks).
  Operation *function = nullptr;
  FusionPlan plan;
  /// By group id; empty when the plan was not lowered on a copy
  /// (check-lowering off).
  llvm::DenseMap<int64_t, GroupSchedule> schedules;
};

} // namespace mlir::fuse

#endif // FUSE_FUSION_FUSIONENGINE_H
