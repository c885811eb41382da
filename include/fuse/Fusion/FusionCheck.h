//===- FusionCheck.h - feasibility checks as units --------------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// A feasibility check is one unit: a name (what reports and remarks say),
// what it checks in words, and a function that says no, with the numbers
// that decided it, or lets the merge through. The engine runs every check
// on every candidate merge, in the order getFusionChecks() gives; the
// pattern API (FusionPatterns.h) runs the same checks through
// checkGroupMerge.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_FUSION_FUSIONCHECK_H
#define FUSE_FUSION_FUSIONCHECK_H

#include "fuse/Dialect/Fuse/IR/FuseOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::fuse {
struct FusionPolicy;
struct FusionRule;
namespace detail {
struct FusionCheckInput;
} // namespace detail

/// The names of the feasibility checks, as reports use them.
namespace check {
inline constexpr llvm::StringLiteral kDependency = "dependency";
inline constexpr llvm::StringLiteral kMemory = "memory";
inline constexpr llvm::StringLiteral kIntensity = "arithmetic_intensity";
inline constexpr llvm::StringLiteral kHardware = "hardware";
inline constexpr llvm::StringLiteral kResource = "resource";
inline constexpr llvm::StringLiteral kCost = "cost";
inline constexpr llvm::StringLiteral kRuleDisabled = "rule_disabled";
inline constexpr llvm::StringLiteral kLowering = "lowering";
} // namespace check

/// Why a check refused a merge: its name and the reason with the numbers.
struct FusionRefusal {
  llvm::StringRef check;
  std::string reason;
};

/// One feasibility check.
struct FusionCheck {
  llvm::StringLiteral name;
  /// What the check refuses, in words.
  llvm::StringLiteral summary;
  std::optional<FusionRefusal> (*run)(const detail::FusionCheckInput &input);
};

/// Every check, in the order they run.
ArrayRef<FusionCheck> getFusionChecks();

/// Runs every check on merging group `b` into group `a` under `rule` (a
/// rule name, or "" for none) the way the engine would, on the body the
/// merged group would have: the dependency check sees only the two groups,
/// so callers must not merge groups joined by a path through other ops.
std::optional<FusionRefusal> checkGroupMerge(GroupOp a, GroupOp b,
                                             llvm::StringRef rule,
                                             const FusionPolicy &policy);

} // namespace mlir::fuse

#endif // FUSE_FUSION_FUSIONCHECK_H
