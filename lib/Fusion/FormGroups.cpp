//===- FormGroups.cpp - the fuse-form-groups pass -------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Codegen/Tiling/LowerGroups.h"
#include "fuse/Dialect/Fuse/IR/FuseInterfaces.h"
#include "fuse/Dialect/Fuse/IR/FuseOps.h"
#include "fuse/Dialect/Fuse/Utils/ToolFiles.h"
#include "fuse/Fusion/FusionCheck.h"
#include "fuse/Fusion/FusionEngine.h"
#include "fuse/Fusion/FusionRemarks.h"
#include "fuse/Fusion/Passes.h"
#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Transforms/CSE.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ToolOutputFile.h"

#include <numeric>
#include <unordered_map>

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEFORMGROUPS
#include "fuse/Fusion/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

/// The lowering-config choices of `policy`.
GroupConfigOptions configOptions(const FusionPolicy &policy) {
  GroupConfigOptions options;
  options.tensorCores = policy.tensorCores;
  options.precision = policy.precision;
  options.stages = policy.stages;
  options.splitK = policy.splitK;
  options.cpuTarget = policy.cpuTarget;
  return options;
}

/// Plans the fusion of `block` (of function `fn`) so that every group can be
/// lowered to one loop nest: each planned group is built as a copy beside
/// its ops (copyPlannedGroup; the block itself is unchanged) and a copy of
/// that tiled (fuse-lower-groups' own code). Groups that are the same
/// kernel (a model's repeated layers) lower alike: the first of them is
/// tried, the others take its outcome, and only those first ones are kept
/// while the block is checked, so the check needs memory for the distinct
/// kernels, not for a second copy of the function. A group the lowering
/// refuses loses its last merge, which the engine then refuses with the
/// check "lowering" and the lowering's diagnostic as the reason; planning
/// repeats until every group lowers. The policy's vetoes are local to this
/// block.
FusionPlan planLowerable(FunctionOpInterface fn, Block &block,
                         FusionPolicy policy,
                         llvm::DenseMap<int64_t, GroupSchedule> &schedules) {
  // Each round removes at least one merge; the cap only bounds the work on
  // a graph where the lowering keeps refusing.
  for (unsigned round = 0;; ++round) {
    FusionPlan plan = planFusion(block, policy);
    schedules.clear();
    if (round == 64)
      return plan;
    bool vetoed = false;
    llvm::DenseMap<int64_t, std::string> failures;
    llvm::DenseMap<int64_t, ContractionSplit> splits;
    IRRewriter rewriter(fn.getContext());
    // The distinct kernels tried so far, by hash, with their group ids.
    std::unordered_map<size_t, SmallVector<std::pair<GroupOp, int64_t>, 1>>
        tried;
    // Every planned group decided so far, by hashPlannedKernel, with the id
    // of the group whose outcome it has: one that is the same planned
    // kernel takes that outcome without being built (the groups of a
    // model's repeated layers, of a long chain).
    std::unordered_map<size_t, SmallVector<std::pair<int64_t, int64_t>, 1>>
        decided;
    SmallVector<GroupOp> kept;
    for (const PlannedGroup &planned : plan.groups) {
      if (planned.ops.empty())
        continue;
      int64_t id = planned.id;
      // Group `id` has the outcome of group `firstId`.
      auto takeOutcome = [&](int64_t firstId) {
        // The first group's entry, copied first: inserting may move the
        // map's entries.
        auto copyEntry = [&](auto &map) {
          if (auto it = map.find(firstId); it != map.end()) {
            auto value = it->second;
            map[id] = std::move(value);
          }
        };
        copyEntry(splits);
        copyEntry(schedules);
        if (auto it = failures.find(firstId); it != failures.end()) {
          // Its diagnostic names the group it is about.
          std::string message = it->second;
          std::string from = "group " + std::to_string(firstId);
          if (size_t at = message.find(from); at != std::string::npos)
            message.replace(at, from.size(), "group " + std::to_string(id));
          failures[id] = message;
        }
      };
      auto &alike = decided[static_cast<size_t>(hashPlannedKernel(planned))];
      auto samePlanned = llvm::find_if(alike, [&](auto &entry) {
        return isSamePlannedKernel(block, plan.groups[entry.first], planned);
      });
      if (samePlanned != alike.end()) {
        takeOutcome(samePlanned->second);
        continue;
      }
      GroupOp group = copyPlannedGroup(block, planned);
      auto &candidates = tried[static_cast<size_t>(group.hashKernel())];
      auto same = llvm::find_if(candidates, [&](auto &candidate) {
        return candidate.first.isSameKernel(group);
      });
      if (same != candidates.end()) {
        takeOutcome(same->second);
        alike.push_back({id, same->second});
        rewriter.eraseOp(group);
        continue;
      }
      alike.push_back({id, id});
      candidates.push_back({group, id});
      kept.push_back(group);
      std::string message;
      {
        // The lowering's diagnostic becomes the reason; nothing is printed.
        ScopedDiagnosticHandler capture(fn.getContext(), [&](Diagnostic &diag) {
          if (message.empty())
            message = diag.str();
          return success();
        });
        // What the group would cost as its contraction on tensor cores
        // and the rest apart (GEMM + LayerNorm), before it is tiled.
        std::optional<ContractionSplit> split = predictContractionSplit(
            group, policy.target, configOptions(policy));
        if (split)
          splits[id] = *split;
        // Tiled on a copy: the group stays as planned for the comparisons.
        rewriter.setInsertionPoint(group);
        auto lowered = cast<GroupOp>(rewriter.clone(*group));
        KernelShape shape;
        bool lowers = succeeded(lowerFusionGroup(
            rewriter, lowered, policy.target, configOptions(policy), &shape));
        // A loop nest that does not verify (a value used before the loop
        // that defines it) counts as refused too.
        bool verifies = lowers && succeeded(verify(lowered));
        if (verifies) {
          // The config it was lowered with is the group's.
          if (LoweringConfigAttr config =
                  FuseDialect::LoweringConfigAttrHelper(lowered->getContext())
                      .getAttr(lowered)) {
            // As fuse-lower-groups leaves it (a producer fused into
            // several consumers' tiles computed once).
            shape.blocks = std::max<int64_t>(launchedBlocks(lowered), 1);
            measureTiledGroup(lowered, shape);
            schedules[id] = {config, shape};
          }
        } else if (lowers) {
          message = "group " + std::to_string(id) +
                    ": its tiled loop nest does not verify (" + message + ")";
        }
        rewriter.eraseOp(lowered);
        if (verifies)
          continue;
      }
      failures[id] = message;
    }
    for (GroupOp group : kept)
      rewriter.eraseOp(group);
    for (auto &[id, message] : failures) {
      const PlannedGroup &group = plan.groups[id];
      if (!group.lastCandidate)
        continue; // a single op: nothing to take back
      StringRef reason = message;
      reason.consume_front("fuse-lower-groups: ");
      policy.loweringVetoes[group.lastCandidate].push_back(
          {group.lastRule,
           ("the group would not lower to one loop nest: " + reason).str()});
      vetoed = true;
    }
    // A group whose whole rows keep its contraction off the tensor cores,
    // or leave it tensor-core tiles of a few whole rows, is split where
    // the two kernels are predicted faster: the merge that joined the
    // contraction's side with a side holding a reduction of its rows is
    // taken back (check 'cost'), and the next round plans without it.
    // (Not a merge inside either side: taking back one that formed the
    // row epilogue, a LayerNorm's own, would split the epilogue instead.)
    if (failures.empty() && policy.splitRowEpilogues)
      for (auto &[id, split] : splits) {
        auto it = schedules.find(id);
        if (it == schedules.end())
          continue;
        bool onTensorCores = it->second.config.getInstruction() == "mma_sync";
        double fused = predictKernelCost(it->second.shape, policy.target).us;
        if (split.contractionUs + split.restUs >= fused)
          continue;
        const PlannedGroup &group = plan.groups[id];
        if (group.reductionJoin) {
          auto &[rule, candidate] = group.merges[*group.reductionJoin];
          policy.loweringVetoes[candidate].push_back(
              {rule.str(),
               llvm::formatv(
                   "its rows would {4}: predicted {0:f1} us as one kernel, "
                   "{1:f1} us as the contraction on tensor cores ({2:f1} "
                   "us) and the rest apart ({3:f1} us)",
                   fused, split.contractionUs + split.restUs,
                   split.contractionUs, split.restUs,
                   onTensorCores ? "leave the group's contraction "
                                   "tensor-core tiles of whole rows"
                                 : "keep the group's contraction off the "
                                   "tensor cores")
                   .str(),
               std::string(check::kCost)});
          vetoed = true;
        }
      }
    if (!vetoed)
      return plan;
  }
}

/// Writes `text` to `path` ("-" is stdout); reports failures on `op`.
LogicalResult writeOutput(Operation *op, StringRef path, StringRef what,
                          llvm::function_ref<void(raw_ostream &)> write) {
  if (path.empty())
    return success();
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &error);
  if (!file)
    return emitError(op->getLoc()) << "cannot write the fusion " << what
                                   << " to '" << path << "': " << error;
  write(file->os());
  // A full disk or a device that refuses writes is reported with the file's
  // name (left unchecked, the stream would end the process when closed).
  if (std::error_code ec = keepToolOutput(*file))
    return emitError(op->getLoc()) << "cannot write the fusion " << what
                                   << " to '" << path << "': " << ec.message();
  return success();
}

/// Gives every structured op its own copy of an elementwise op that
/// initializes its accumulator (a bias broadcast that CSE shared between
/// two convolutions), so that each contraction's group can own it.
void duplicateSharedInitProducers(Block &block) {
  for (Operation &op : block) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(&op);
    if (!linalgOp)
      continue;
    for (OpOperand &init : linalgOp.getDpsInitsMutable()) {
      Operation *def = init.get().getDefiningOp();
      if (!def || def->getBlock() != &block || def->hasOneUse() ||
          !isa<linalg::LinalgOp>(def) || def->getNumResults() != 1)
        continue;
      OpCategory category = classifyOp(def).category;
      if (category != OpCategory::elementwise &&
          category != OpCategory::broadcast)
        continue;
      // The first user in program order keeps the original.
      Operation *first = nullptr;
      for (Operation *user : def->getUsers()) {
        Operation *top = block.findAncestorOpInBlock(*user);
        if (top && (!first || top->isBeforeInBlock(first)))
          first = top;
      }
      if (first == &op)
        continue;
      OpBuilder builder(&op);
      Operation *copy = builder.clone(*def);
      init.set(copy->getResult(0));
    }
  }
}

/// Rewrites each chain of insertions into a fresh tensor (a decomposed
/// concat) so that the insertions come in the dataflow order of the values
/// they insert. The slices are disjoint, so the order does not change the
/// result; it lets every branch write its slice inside its own kernel
/// without waiting for branches computed later.
void reorderConcatChains(Block &block) {
  SmallVector<SmallVector<tensor::InsertSliceOp>> chains =
      findConcatChains(block);
  if (chains.empty())
    return;
  // Dataflow depth of every op (longest path from the block's inputs), then
  // program order: a value that needs fewer steps is usually computed by an
  // earlier kernel.
  llvm::DenseMap<Operation *, std::pair<int64_t, int64_t>> rank;
  int64_t index = 0;
  for (Operation &op : block) {
    int64_t depth = 0;
    for (Value operand : op.getOperands())
      if (Operation *def = operand.getDefiningOp())
        if (auto it = rank.find(def); it != rank.end())
          depth = std::max(depth, it->second.first + 1);
    rank[&op] = {depth, index++};
  }
  auto position = [&](Value v) -> std::pair<int64_t, int64_t> {
    Operation *def = v.getDefiningOp();
    Operation *top = def ? block.findAncestorOpInBlock(*def) : nullptr;
    return top ? rank.lookup(top) : std::pair<int64_t, int64_t>(-1, -1);
  };
  for (SmallVector<tensor::InsertSliceOp> &chain : chains) {
    SmallVector<unsigned> order(chain.size());
    std::iota(order.begin(), order.end(), 0);
    llvm::stable_sort(order, [&](unsigned a, unsigned b) {
      return position(chain[a].getSource()) < position(chain[b].getSource());
    });
    if (llvm::is_sorted(order))
      continue;
    SmallVector<tensor::InsertSliceOp> sorted =
        rethreadConcatChain(chain, order);
    // The block's order follows the new chain: each insertion after the
    // value it inserts and the one before it.
    for (size_t i = 1; i < sorted.size(); ++i)
      if (sorted[i]->isBeforeInBlock(sorted[i - 1]))
        sorted[i]->moveAfter(sorted[i - 1]);
  }
  sortTopologically(&block);
}

struct FormGroupsPass : public fuse::impl::FuseFormGroupsBase<FormGroupsPass> {
  // The lowering check tiles each planned group.
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    fuse::registerTilingDependencies(registry);
  }

  using FuseFormGroupsBase::FuseFormGroupsBase;

  TargetAttr requestedTarget;
  CpuTargetAttr requestedCpuTarget;

  /// Options are checked once, before any IR is read: a wrong one is one
  /// error line naming it, not a diagnostic on the module.
  LogicalResult initialize(MLIRContext *context) override {
    FailureOr<TargetAttr> parsed =
        parseTargetOption(context, target, getArgument());
    if (failed(parsed))
      return failure();
    requestedTarget = *parsed;
    FailureOr<CpuTargetAttr> cpu =
        parseCpuTargetOption(context, cpuTarget, getArgument());
    if (failed(cpu))
      return failure();
    requestedCpuTarget = *cpu;
    for (const std::string &rule : disabledRules)
      if (!lookupFusionRule(rule))
        return emitOptionError(context, getArgument())
               << "option 'disable-rules': unknown rule '" << rule
               << "' (fuse-opt --fuse-list-rules lists them)";
    if (maxOpsPerGroup < 1 || maxKernelParamBytes < 1 ||
        maxReductionsPerGroup < 0)
      return emitOptionError(context, getArgument())
             << "options 'max-ops-per-group' and 'max-kernel-param-bytes' "
                "must be positive and 'max-reductions-per-group' "
                "non-negative, got "
             << int64_t(maxOpsPerGroup) << ", " << int64_t(maxKernelParamBytes)
             << " and " << int64_t(maxReductionsPerGroup);
    return checkGroupConfigOptions(context, getArgument(), precision,
                                   tensorCores, stages, splitK);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FusionPolicy policy;
    FailureOr<TargetAttr> resolved =
        resolveTarget(module, requestedTarget, getArgument());
    if (failed(resolved))
      return signalPassFailure();
    policy.target = *resolved;
    policy.tensorCores = tensorCores;
    policy.precision = precision;
    policy.stages = stages;
    policy.splitK = splitK;
    policy.cpuTarget = requestedCpuTarget;
    policy.splitRowEpilogues = splitRowEpilogues;
    // The fused IR records what it was fused for; later passes read it.
    FuseDialect::TargetAttrHelper(&getContext()).setAttr(module, policy.target);
    if (policy.cpuTarget)
      FuseDialect::CpuTargetAttrHelper(&getContext())
          .setAttr(module, policy.cpuTarget);
    for (const std::string &rule : disabledRules)
      policy.disabledRules.insert(rule);
    policy.maxOpsPerGroup = maxOpsPerGroup;
    policy.maxKernelParamBytes = maxKernelParamBytes;
    policy.maxReductionsPerGroup = maxReductionsPerGroup;

    // Plan every block of every function, then report, then rewrite.
    std::vector<FunctionPlan> plans;
    SmallVector<Block *> blocks;
    module.walk([&](FunctionOpInterface fn) {
      if (fn.isExternal())
        return;
      for (Block &block : fn.getFunctionBody()) {
        duplicateSharedInitProducers(block);
        reorderConcatChains(block);
        FunctionPlan plan;
        plan.name = fn.getName().str();
        plan.function = fn;
        plan.plan = checkLowering
                        ? planLowerable(fn, block, policy, plan.schedules)
                        : planFusion(block, policy);
        orderKernelsForMemory(plan.plan, orderKernels, kMemoryAlignment);
        plans.push_back(std::move(plan));
        blocks.push_back(&block);
      }
    });
    // Every decision is a remark, for the context's remark engine and for
    // the report and the picture, which are made from the remarks alone.
    if (fusionRemarksEnabled(&getContext()) || !reportFile.empty() ||
        !graphFile.empty()) {
      std::vector<FusionRemark> remarks;
      for (const FunctionPlan &plan : plans)
        buildFusionRemarks(plan, policy.target, remarks);
      streamFusionRemarks(&getContext(), remarks);
      FusionReportBuilder report;
      for (const FusionRemark &remark : remarks)
        report.consume(remark);
      if (failed(writeOutput(
              module, reportFile, "report",
              [&](raw_ostream &os) { report.writeJSON(os, policy); })) ||
          failed(writeOutput(module, graphFile, "graph",
                             [&](raw_ostream &os) { report.writeDOT(os); })))
        return signalPassFailure();
    }
    for (auto [block, plan] : llvm::zip(blocks, plans)) {
      llvm::DenseSet<Operation *> earlier;
      for (GroupOp group : block->getOps<GroupOp>())
        earlier.insert(group);
      if (failed(materializeFusionPlan(*block, plan.plan))) {
        block->getParentOp()->emitError()
            << "fuse-form-groups: the fusion groups could not be ordered "
               "(internal error: a cycle between groups)";
        return signalPassFailure();
      }
      // Every new group carries the config its lowering check used (or, with
      // check-lowering off, the one chosen now; a group that cannot be
      // configured gets none, and its lowering reports why).
      for (GroupOp group : block->getOps<GroupOp>()) {
        auto id = FuseDialect::IdAttrHelper(&getContext()).getAttr(group);
        if (earlier.contains(group) || !id)
          continue;
        LoweringConfigAttr config;
        if (auto it = plan.schedules.find(id.getInt());
            it != plan.schedules.end()) {
          config = it->second.config;
        } else if (!checkLowering) {
          ScopedDiagnosticHandler quiet(&getContext(),
                                        [](Diagnostic &) { return success(); });
          FailureOr<LoweringConfigAttr> chosen =
              configureFusionGroup(group, policy.target, configOptions(policy));
          if (succeeded(chosen))
            config = *chosen;
        }
        if (config)
          FuseDialect::LoweringConfigAttrHelper(&getContext())
              .setAttr(group, config);
      }
    }
  }
};

} // namespace
