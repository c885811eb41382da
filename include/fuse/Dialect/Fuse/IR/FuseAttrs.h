//===- FuseAttrs.h - fuse attributes and enums ------------------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_DIALECT_FUSE_IR_FUSEATTRS_H
#define FUSE_DIALECT_FUSE_IR_FUSEATTRS_H

#include "mlir/Dialect/SCF/IR/DeviceMappingInterface.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>

#include "fuse/Dialect/Fuse/IR/FuseEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "fuse/Dialect/Fuse/IR/FuseAttrs.h.inc"

namespace mlir {
class Operation;
namespace fuse {

/// The target preset passes use when neither their options nor the IR name
/// one.
inline constexpr llvm::StringLiteral kDefaultTargetPreset = "h200";

/// The CPU preset a CPU pass works for when neither an option nor the
/// module names one (fixed, so that output does not depend on the machine;
/// fuse-compile asks for `host`).
inline constexpr llvm::StringLiteral kDefaultCpuTargetPreset = "avx512";

/// Most blocks a lowering config splits one tile's reduction over
/// (`split_k`).
inline constexpr int64_t kMaxSplitK = 16;

/// Whether `name` is a target preset, else why not: "unknown target 'x';
/// presets are ..., or give a #fuse.target<...> attribute".
bool isTargetPreset(llvm::StringRef name, std::string *why = nullptr);

/// The #fuse.target the module of `op` (or `op` itself, if it is a module)
/// carries as `fuse.target`, or null.
TargetAttr getModuleTarget(Operation *op);

/// An error about an option of pass (or pipeline) `pass`, reported as one
/// line that names the pass, without a location in the input.
InFlightDiagnostic emitOptionError(MLIRContext *context, llvm::StringRef pass);

/// Parses the `target` option of pass `pass`: empty gives null (no target
/// requested); a preset or #fuse.target<...> gives the attribute; anything
/// else emits one error line naming the pass, the option and the presets
/// (not the module) and fails.
FailureOr<TargetAttr> parseTargetOption(MLIRContext *context,
                                        llvm::StringRef option,
                                        llvm::StringRef pass);

/// Parses the `cpu-target` option of pass `pass`: empty gives null; a
/// preset or #fuse.cpu_target<...> gives the attribute; anything else
/// emits one error line naming the pass, the option and the presets.
FailureOr<CpuTargetAttr> parseCpuTargetOption(MLIRContext *context,
                                              llvm::StringRef option,
                                              llvm::StringRef pass);

/// The target pass `pass` works for on `op`'s module: the module's
/// #fuse.target when it has one (an error naming both when `requested` is
/// given and differs), else `requested`, else the default preset.
FailureOr<TargetAttr> resolveTarget(Operation *op, TargetAttr requested,
                                    llvm::StringRef pass);

} // namespace fuse
} // namespace mlir

#endif // FUSE_DIALECT_FUSE_IR_FUSEATTRS_H
