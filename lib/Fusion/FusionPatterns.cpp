//===- FusionPatterns.cpp - fusion rule families as patterns --------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Fusion/FusionPatterns.h"

#include "fuse/Fusion/FusionCheck.h"

#include "fuse/Dialect/Fuse/IR/FuseInterfaces.h"
#include "fuse/Dialect/Fuse/IR/FuseOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::fuse;

bool mlir::fuse::mergeRespectsPolicy(GroupOp a, GroupOp b,
                                     const FusionPolicy &policy,
                                     std::string *reason, StringRef rule) {
  std::optional<FusionRefusal> refusal = checkGroupMerge(a, b, rule, policy);
  if (refusal && reason)
    *reason = (refusal->check + ": " + refusal->reason).str();
  return !refusal;
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
      bool epilogue =
          isElementwiseGroup(consumer) && hasAnchor(producer) &&
          getCommonResultShape(producer) &&
          getCommonResultShape(producer) == getCommonResultShape(consumer);
      StringRef rule =
          epilogue && !prologue ? "contraction_epilogue" : "elementwise_chain";
      if ((!prologue && !epilogue) ||
          !mergeRespectsPolicy(producer, consumer, policy, nullptr, rule))
        continue;
      FusionKind kind =
          combine(producer.getKind(), consumer.getKind(), FusionKind::vertical);
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
          !mergeRespectsPolicy(producer, consumer, policy, nullptr,
                               "multi_output"))
        continue;
      FusionKind kind =
          combine(producer.getKind(), consumer.getKind(), FusionKind::diagonal);
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
      return mergeRespectsPolicy(first, candidate, policy, nullptr,
                                 "sibling_merge");
    });
    if (!second)
      return failure();
    FusionKind kind =
        combine(first.getKind(), second.getKind(), FusionKind::horizontal);
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
