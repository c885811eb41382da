//===- FusionPatterns.cpp - fusion rule families as patterns --------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Fusion/FusionPatterns.h"

#include "fuse/Dialect/Fuse/IR/FuseInterfaces.h"
#include "fuse/Dialect/Fuse/IR/FuseOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::fuse;

bool mlir::fuse::mergeRespectsPolicy(GroupOp a, GroupOp b,
                                     const FusionPolicy &policy,
                                     std::string *reason) {
  auto refuse = [&](std::string why) {
    if (reason)
      *reason = std::move(why);
    return false;
  };
  SmallVector<Operation *> ops = a.getComputeOps();
  llvm::append_range(ops, b.getComputeOps());
  // Hardware.
  for (Operation *op : ops)
    for (Type type :
         llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes())) {
      std::string why;
      if (!policy.target.supportsElementType(type, &why))
        return refuse("hardware: " + why);
    }
  // Resources.
  if (int64_t(ops.size()) > policy.maxOpsPerGroup)
    return refuse(llvm::formatv("resource: {0} ops exceed max-ops-per-group "
                                "{1}",
                                ops.size(), policy.maxOpsPerGroup));
  int64_t reductions = llvm::count_if(ops, [](Operation *op) {
    return classifyOp(op).category == OpCategory::reduction;
  });
  if (reductions > policy.maxReductionsPerGroup)
    return refuse(llvm::formatv("resource: {0} reductions exceed "
                                "max-reductions-per-group {1}",
                                reductions, policy.maxReductionsPerGroup));
  int64_t params = 0;
  auto descriptor = [](Type type) -> int64_t {
    if (auto shaped = dyn_cast<ShapedType>(type))
      return 8 * (3 + 2 * (shaped.hasRank() ? shaped.getRank() : 0));
    return 8;
  };
  for (GroupOp group : {a, b}) {
    for (Value input : group.getInputs())
      if (input.getDefiningOp() != a.getOperation())
        params += descriptor(input.getType());
    for (Type type : group.getResultTypes())
      params += descriptor(type);
  }
  if (params > policy.maxKernelParamBytes)
    return refuse(llvm::formatv("resource: kernel parameters take {0} B, "
                                "more than max-kernel-param-bytes {1}",
                                params, policy.maxKernelParamBytes));
  // Roofline: at most one compute-bound contraction.
  int boundContractions = 0;
  for (Operation *op : ops) {
    OpClassification c = classifyOp(op);
    if (c.category != OpCategory::contraction || !c.flops)
      continue;
    int64_t bytes = c.bytesRead.value_or(0) + c.bytesWritten.value_or(0);
    Type elem = getElementTypeOrSelf(op->getResult(0).getType());
    if (bytes > 0 && double(*c.flops) / double(bytes) >=
                         policy.target.getRidgeFlopsPerByte(elem))
      ++boundContractions;
  }
  if (boundContractions > 1)
    return refuse("arithmetic_intensity: two compute-bound contractions");
  return true;
}

namespace {

bool hasAnchor(GroupOp group) {
  return llvm::any_of(group.getComputeOps(), [](Operation *op) {
    OpCategory c = classifyOp(op).category;
    return c == OpCategory::contraction || c == OpCategory::reduction;
  });
}

FusionKind combine(FusionKind a, FusionKind b, FusionKind merge) {
  for (FusionKind k : {a, b})
    if (k != FusionKind::single && k != merge)
      return FusionKind::composite;
  return merge;
}

/// Base for the patterns: the policy and a group root.
struct GroupPattern : OpRewritePattern<GroupOp> {
  GroupPattern(MLIRContext *context, const FusionPolicy &policy)
      : OpRewritePattern(context), policy(policy) {}
  const FusionPolicy &policy;
};

struct FuseProducerGroup : GroupPattern {
  using GroupPattern::GroupPattern;
  LogicalResult matchAndRewrite(GroupOp consumer,
                                PatternRewriter &rewriter) const override {
    for (Value input : consumer.getInputs()) {
      auto producer = input.getDefiningOp<GroupOp>();
      if (!producer || producer->getBlock() != consumer->getBlock() ||
          llvm::any_of(producer->getUsers(), [&](Operation *user) {
            return user != consumer.getOperation();
          }))
        continue;
      // A prologue (elementwise producer) or an epilogue (elementwise
      // consumer over the producer's output shape).
      bool prologue = isElementwiseGroup(producer);
      bool epilogue = isElementwiseGroup(consumer) && hasAnchor(producer) &&
                      getCommonResultShape(producer) &&
                      getCommonResultShape(producer) == getCommonResultShape(consumer);
      if ((!prologue && !epilogue) ||
          !mergeRespectsPolicy(producer, consumer, policy))
        continue;
      FusionKind kind = combine(producer.getKind(), consumer.getKind(),
                                FusionKind::vertical);
      StringRef rule = epilogue && !prologue ? "contraction_epilogue"
                                             : "elementwise_chain";
      mergeFuseGroups(rewriter, producer, consumer, kind, rule, consumer);
      return success();
    }
    return failure();
  }
};

struct FuseMultiOutputProducer : GroupPattern {
  using GroupPattern::GroupPattern;
  LogicalResult matchAndRewrite(GroupOp consumer,
                                PatternRewriter &rewriter) const override {
    for (Value input : consumer.getInputs()) {
      auto producer = input.getDefiningOp<GroupOp>();
      if (!producer || producer->getBlock() != consumer->getBlock())
        continue;
      // Other users exist, and all come after the consumer: no path from
      // the producer to the consumer goes around it, and the merged group
      // in the consumer's place dominates them.
      bool others = false, after = true;
      for (Operation *user : producer->getUsers()) {
        if (user == consumer.getOperation())
          continue;
        others = true;
        Operation *top = consumer->getBlock()->findAncestorOpInBlock(*user);
        after &= top && consumer->isBeforeInBlock(top);
      }
      if (!others || !after || !isElementwiseGroup(consumer) ||
          !mergeRespectsPolicy(producer, consumer, policy))
        continue;
      FusionKind kind = combine(producer.getKind(), consumer.getKind(),
                                FusionKind::diagonal);
      mergeFuseGroups(rewriter, producer, consumer, kind, "multi_output",
                      consumer);
      return success();
    }
    return failure();
  }
};

struct FuseSiblingGroups : GroupPattern {
  using GroupPattern::GroupPattern;
  LogicalResult matchAndRewrite(GroupOp first,
                                PatternRewriter &rewriter) const override {
    GroupOp second = findMergeableSibling(first, [&](GroupOp candidate) {
      return mergeRespectsPolicy(first, candidate, policy);
    });
    if (!second)
      return failure();
    FusionKind kind = combine(first.getKind(), second.getKind(),
                              FusionKind::horizontal);
    mergeFuseGroups(rewriter, first, second, kind, "sibling_merge", first);
    return success();
  }
};

} // namespace

void mlir::fuse::populateVerticalFusionPatterns(RewritePatternSet &patterns,
                                                const FusionPolicy &policy) {
  patterns.add<FuseProducerGroup>(patterns.getContext(), policy);
}

void mlir::fuse::populateHorizontalFusionPatterns(RewritePatternSet &patterns,
                                                  const FusionPolicy &policy) {
  patterns.add<FuseSiblingGroups>(patterns.getContext(), policy);
}

void mlir::fuse::populateDiagonalFusionPatterns(RewritePatternSet &patterns,
                                                const FusionPolicy &policy) {
  patterns.add<FuseMultiOutputProducer>(patterns.getContext(), policy);
}

void mlir::fuse::populateCompositeFusionPatterns(RewritePatternSet &patterns,
                                                 const FusionPolicy &policy) {
  populateVerticalFusionPatterns(patterns, policy);
  populateHorizontalFusionPatterns(patterns, policy);
  populateDiagonalFusionPatterns(patterns, policy);
}
