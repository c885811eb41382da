//===- ConstantData.h - raw data of weight constants ------------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// The graph rewrites read and write weights given either as dense elements
// or as dense_resource blobs (what the ONNX importer emits for large
// initializers).
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_LIB_DIALECT_FUSE_TRANSFORMS_CONSTANTDATA_H
#define FUSE_LIB_DIALECT_FUSE_TRANSFORMS_CONSTANTDATA_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <vector>

namespace mlir::fuse::detail {

/// The bytes of a constant tensor, splats expanded, elements of whole bytes.
struct ConstantData {
  ShapedType type;
  std::vector<char> bytes;
  /// Whether it came from a dense_resource blob.
  bool fromResource = false;
};

/// The constant behind `value` (dense elements or a dense_resource blob).
std::optional<ConstantData> getConstantData(Value value);

/// The elements of an f32 constant.
std::optional<std::vector<float>> getF32Values(Value value);

/// A constant attribute of `type` holding `bytes`: a dense_resource blob
/// named after `blobName` when `asResource`, dense elements otherwise.
ElementsAttr makeElementsAttr(ShapedType type, ArrayRef<char> bytes,
                              bool asResource, StringRef blobName);

/// The layout of a tensor of `shape` in tiles of `tile` (each dividing its
/// extent), the tiles one after the other: the tile counts, then the tile
/// ([shape[0] / tile[0], ..., tile[0], ...]: linalg.pack's layout with
/// every dimension tiled).
SmallVector<int64_t> tiledShape(ArrayRef<int64_t> shape,
                                ArrayRef<int64_t> tile);

/// The constant behind `value` in the tiled layout of `tile` (a splat stays
/// a splat; a blob named after `blobName` when it was one); null when
/// `value` is no constant or a tile does not divide its extent.
ElementsAttr packConstantTiles(Value value, ArrayRef<int64_t> tile,
                               StringRef blobName);

} // namespace mlir::fuse::detail

#endif // FUSE_LIB_DIALECT_FUSE_TRANSFORMS_CONSTANTDATA_H
