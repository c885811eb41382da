//===- FusionPatterns.h - fusion rule families as patterns ------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// The rule families as rewrite patterns over `fuse.group` ops, for compilers
// that drive fusion from their own passes: start from single-op groups (or
// any groups), add the families you want, and run a greedy driver. Every
// merge passes the same feasibility checks as the engine's (FusionCheck.h:
// dependency and row barriers inside the pair, memory, roofline, hardware,
// resources, cost).
//
// fuse's own pipeline uses the planning engine (FusionEngine.h) instead:
// it orders rules by priority over the whole graph, checks shared memory,
// and reports refusals. These patterns make local, greedy decisions.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_FUSION_FUSIONPATTERNS_H
#define FUSE_FUSION_FUSIONPATTERNS_H

#include "fuse/Dialect/Fuse/IR/FuseOps.h"
#include "fuse/Fusion/FusionEngine.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::fuse {

/// Producer groups into consumer groups: an elementwise producer group into
/// the group that alone uses its results, or an elementwise consumer group
/// with the producer's result shape into a contraction or reduction group
/// (an epilogue).
void populateVerticalFusionPatterns(RewritePatternSet &patterns,
                                    const FusionPolicy &policy);

/// Sibling groups with the same result shape that read a common input
/// become one multi-result group.
void populateHorizontalFusionPatterns(RewritePatternSet &patterns,
                                      const FusionPolicy &policy);

/// A producer group whose results other ops also use merges into a consumer
/// group, which then also returns them (multi-output), when all those other
/// users come after the consumer.
void populateDiagonalFusionPatterns(RewritePatternSet &patterns,
                                    const FusionPolicy &policy);

/// All of the above.
void populateCompositeFusionPatterns(RewritePatternSet &patterns,
                                     const FusionPolicy &policy);

/// Whether merging `b` into `a` under `rule` passes the engine's
/// feasibility checks (checkGroupMerge in FusionCheck.h) for `policy`;
/// otherwise `reason` says which check refused and why ("check: reason").
bool mergeRespectsPolicy(GroupOp a, GroupOp b, const FusionPolicy &policy,
                         std::string *reason = nullptr, StringRef rule = "");

} // namespace mlir::fuse

#endif // FUSE_FUSION_FUSIONPATTERNS_H
