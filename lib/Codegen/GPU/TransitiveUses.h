//===- TransitiveUses.h - walk a value's uses through its derived values -===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_LIB_CODEGEN_GPU_TRANSITIVEUSES_H
#define FUSE_LIB_CODEGEN_GPU_TRANSITIVEUSES_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::fuse::detail {

/// What one use means to allUsesAccepted.
enum class UseVerdict {
  /// A use that is fine as it is (a read, a launch operand).
  accept,
  /// A use whose user's first result carries the value on (a view, a
  /// descriptor): its uses are walked too.
  follow,
  /// Any other use: the walk fails.
  reject,
};

/// Whether every use of `root`, and of every result a `follow` verdict
/// leads to, is accepted by `verdict`. Iterative; each value is walked once.
inline bool
allUsesAccepted(Value root,
                llvm::function_ref<UseVerdict(OpOperand &)> verdict) {
  llvm::SmallVector<Value> work{root};
  llvm::DenseSet<Value> seen;
  while (!work.empty()) {
    Value value = work.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    for (OpOperand &use : value.getUses()) {
      switch (verdict(use)) {
      case UseVerdict::accept:
        break;
      case UseVerdict::follow:
        work.push_back(use.getOwner()->getResult(0));
        break;
      case UseVerdict::reject:
        return false;
      }
    }
  }
  return true;
}

} // namespace mlir::fuse::detail

#endif // FUSE_LIB_CODEGEN_GPU_TRANSITIVEUSES_H
