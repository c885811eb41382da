//===- ElementTypes.h - element types a compiled model describes -*- C++
//-*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_LIB_EXPORT_ELEMENTTYPES_H
#define FUSE_LIB_EXPORT_ELEMENTTYPES_H

#include "mlir/IR/BuiltinTypes.h"

#include <string>

namespace mlir::fuse::detail {

/// The signature's name of elements of `type` (include/fuse-c/ModelAbi.h:
/// f16 bf16 f32 f64 bool i8 i16 i32 i64), or "" for a type the runtime does
/// not describe.
inline std::string modelElementTypeName(Type type) {
  if (type.isF16())
    return "f16";
  if (type.isBF16())
    return "bf16";
  if (type.isF32())
    return "f32";
  if (type.isF64())
    return "f64";
  auto integer = dyn_cast<IntegerType>(type);
  if (!integer || integer.isUnsigned())
    return "";
  switch (integer.getWidth()) {
  case 1:
    return "bool";
  case 8:
  case 16:
  case 32:
  case 64:
    return "i" + std::to_string(integer.getWidth());
  default:
    return "";
  }
}

} // namespace mlir::fuse::detail

#endif // FUSE_LIB_EXPORT_ELEMENTTYPES_H
