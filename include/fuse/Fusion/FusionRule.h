//===- FusionRule.h - a fusion rule as one unit ------------------*- C++
//-*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// A fusion rule is one unit: its name (what the report and disable-rules
// say), the kind of fusion it contributes, its priority (the order the
// engine runs rules in, highest first), the pattern it matches and its
// constraints in words, a few traits the engine reads, and its propose step,
// which offers candidate merges to the engine. Every merge goes through the
// feasibility checks (FusionCheck.h) and the cost model; refusals are
// recorded with the check that said no.
//
// Each rule lives in its own file under lib/Fusion/Rules/ and is listed once
// in lib/Fusion/Rules/Rules.def (docs/Fusion.md: "Adding a rule").
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_FUSION_FUSIONRULE_H
#define FUSE_FUSION_FUSIONRULE_H

#include "fuse/Dialect/Fuse/IR/FuseAttrs.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::fuse {
namespace detail {
class FusionState;
} // namespace detail

/// One fusion rule.
struct FusionRule {
  /// What the engine needs to know about a rule beyond its proposals.
  enum Trait : unsigned {
    None = 0,
    /// Puts an input's producer in front of a kernel (a pad, a transposed
    /// or sliced view): it does not name the group when another rule merges
    /// into it too.
    Prologue = 1u << 0,
    /// Names the group it takes part in, whatever merged first (among
    /// several such rules, the highest priority names it).
    NamesGroup = 1u << 1,
    /// Provides the barrier a reduction broadcast back over its rows needs
    /// (a row's statistic before its normalization).
    RowBarrier = 1u << 2,
    /// Its kernel keeps what passes between its contractions on chip and
    /// streams their operands (the attention schedule's online softmax),
    /// so the roofline check of two compute-bound contractions in one
    /// kernel does not apply: the lowering check and the schedule's cost
    /// decide.
    StreamsOperands = 1u << 3,
  };

  /// The rule's name, as reports, remarks and disable-rules use it.
  llvm::StringLiteral name;
  /// The kind of fusion the rule contributes; a group's kind combines its
  /// rules' kinds (docs/Fusion.md).
  FusionKind kind;
  /// Higher runs first.
  int priority;
  /// What the rule matches, and under which constraints, in words.
  llvm::StringLiteral pattern;
  llvm::StringLiteral constraints;
  unsigned traits = None;
  /// Offers this rule's candidate merges to the engine (state.tryMerge).
  /// Null for a rule that forms no groups itself: a graph rewrite run by a
  /// preprocessing pass (`where` names it), a permission other merges ask
  /// for, or a rule whose merges another rule's walk proposes.
  void (*propose)(detail::FusionState &state) = nullptr;
  /// Where the rule acts when not in the engine's proposals: the pass that
  /// applies it, or the rule whose walk proposes its merges.
  llvm::StringLiteral where = "";

  bool has(Trait trait) const { return (traits & trait) != 0; }
};

/// Every rule, highest priority first (the order the engine runs them in;
/// ties keep their order in Rules.def).
ArrayRef<const FusionRule *> getFusionRules();

/// The rule named `name`, or null.
const FusionRule *lookupFusionRule(StringRef name);

/// Prints the rule table (name, kind, priority, pattern, constraints).
void printFusionRules(raw_ostream &os);

} // namespace mlir::fuse

#endif // FUSE_FUSION_FUSIONRULE_H
