//===- Registry.cpp - every fusion rule, by priority ----------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

#include "fuse/Fusion/FusionCheck.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::detail;

ArrayRef<const FusionRule *> mlir::fuse::getFusionRules() {
  static const SmallVector<const FusionRule *> rules = [] {
    SmallVector<const FusionRule *> list = {
#define FUSE_RULE(Name) &k##Name##Rule,
#include "Rules.def"
    };
    llvm::stable_sort(list, [](const FusionRule *a, const FusionRule *b) {
      return a->priority > b->priority;
    });
    return list;
  }();
  return rules;
}

const FusionRule *mlir::fuse::lookupFusionRule(StringRef name) {
  for (const FusionRule *rule : getFusionRules())
    if (rule->name == name)
      return rule;
  return nullptr;
}

void mlir::fuse::printFusionRules(raw_ostream &os) {
  os << "fuse fusion rules (highest priority first, the order they run "
        "in):\n";
  for (const FusionRule *rule : getFusionRules()) {
    os << "\n  " << rule->name << "  [" << stringifyFusionKind(rule->kind)
       << ", priority " << rule->priority << "]\n";
    os << "    pattern:     " << rule->pattern << "\n";
    os << "    constraints: " << rule->constraints << "\n";
    if (!rule->propose)
      os << "    applied by:  " << rule->where << "\n";
  }
  os << "\nfeasibility checks, in order:";
  for (const FusionCheck &check : getFusionChecks())
    os << " " << check.name;
  os << " (time saved must be positive)\n";
}
