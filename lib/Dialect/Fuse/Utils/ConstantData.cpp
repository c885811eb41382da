//===- ConstantData.cpp - raw data of weight constants --------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Dialect/Fuse/Utils/ConstantData.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"

#include <cstring>

using namespace mlir;
using namespace mlir::fuse::detail;

std::optional<ConstantData> mlir::fuse::detail::getConstantData(Value value) {
  Attribute attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  auto type = dyn_cast<ShapedType>(value.getType());
  if (!type || !type.hasStaticShape())
    return std::nullopt;
  Type elem = type.getElementType();
  if (!elem.isIntOrFloat() || elem.getIntOrFloatBitWidth() % 8 != 0)
    return std::nullopt;
  size_t elemBytes = elem.getIntOrFloatBitWidth() / 8;
  size_t total = elemBytes * type.getNumElements();
  ConstantData data;
  data.type = type;
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    ArrayRef<char> raw = dense.getRawData();
    if (dense.isSplat()) {
      data.bytes.reserve(total);
      for (int64_t i = 0; i < type.getNumElements(); ++i)
        data.bytes.insert(data.bytes.end(), raw.begin(), raw.end());
    } else {
      data.bytes.assign(raw.begin(), raw.end());
    }
  } else if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    ArrayRef<char> raw = resource.getData();
    if (raw.size() != total)
      return std::nullopt; // a blob not loaded, or of another layout
    data.bytes.assign(raw.begin(), raw.end());
    data.fromResource = true;
  } else {
    return std::nullopt;
  }
  if (data.bytes.size() != total)
    return std::nullopt;
  return data;
}

std::optional<std::vector<float>>
mlir::fuse::detail::getF32Values(Value value) {
  std::optional<ConstantData> data = getConstantData(value);
  if (!data || !data->type.getElementType().isF32())
    return std::nullopt;
  std::vector<float> values(data->bytes.size() / sizeof(float));
  std::memcpy(values.data(), data->bytes.data(), data->bytes.size());
  return values;
}

ElementsAttr mlir::fuse::detail::makeElementsAttr(ShapedType type,
                                                  ArrayRef<char> bytes,
                                                  bool asResource,
                                                  StringRef blobName) {
  if (asResource)
    return DenseResourceElementsAttr::get(
        type, blobName,
        HeapAsmResourceBlob::allocateAndCopyWithAlign(bytes, alignof(double)));
  return DenseElementsAttr::getFromRawBuffer(type, bytes);
}

SmallVector<int64_t> mlir::fuse::detail::tiledShape(ArrayRef<int64_t> shape,
                                                    ArrayRef<int64_t> tile) {
  SmallVector<int64_t> tiled;
  for (auto [extent, size] : llvm::zip_equal(shape, tile))
    tiled.push_back(extent / size);
  llvm::append_range(tiled, tile);
  return tiled;
}

ElementsAttr mlir::fuse::detail::packConstantTiles(Value value,
                                                   ArrayRef<int64_t> tile,
                                                   StringRef blobName) {
  auto shaped = dyn_cast<ShapedType>(value.getType());
  if (!shaped || !shaped.hasStaticShape() ||
      shaped.getRank() != int64_t(tile.size()) || tile.empty())
    return {};
  ArrayRef<int64_t> shape = shaped.getShape();
  for (auto [extent, size] : llvm::zip_equal(shape, tile))
    if (size <= 0 || extent % size != 0)
      return {};
  auto type =
      RankedTensorType::get(tiledShape(shape, tile), shaped.getElementType());
  Attribute attr;
  if (matchPattern(value, m_Constant(&attr)))
    if (auto dense = dyn_cast<DenseElementsAttr>(attr);
        dense && dense.isSplat())
      return DenseElementsAttr::get(type, dense.getSplatValue<Attribute>());
  std::optional<ConstantData> data = getConstantData(value);
  if (!data)
    return {};
  int64_t rank = shape.size();
  size_t elem =
      data->bytes.size() / std::max<int64_t>(1, shaped.getNumElements());
  SmallVector<int64_t> strides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  int64_t tileElements = 1;
  for (int64_t size : tile)
    tileElements *= size;
  // Each tile, row by row (a row: the tile's innermost extent, contiguous
  // in the source).
  int64_t rows = tileElements / tile.back();
  int64_t tiles = shaped.getNumElements() / tileElements;
  size_t rowBytes = tile.back() * elem;
  std::vector<char> bytes(data->bytes.size());
  SmallVector<int64_t> base(rank);
  for (int64_t t = 0; t < tiles; ++t) {
    int64_t rest = t;
    for (int64_t d = rank - 1; d >= 0; --d) {
      int64_t count = shape[d] / tile[d];
      base[d] = (rest % count) * tile[d];
      rest /= count;
    }
    for (int64_t row = 0; row < rows; ++row) {
      int64_t r = row, from = base[rank - 1] * strides[rank - 1];
      for (int64_t d = rank - 2; d >= 0; --d) {
        from += (base[d] + r % tile[d]) * strides[d];
        r /= tile[d];
      }
      std::memcpy(&bytes[(t * tileElements + row * tile.back()) * elem],
                  &data->bytes[from * elem], rowBytes);
    }
  }
  return makeElementsAttr(type, bytes, data->fromResource, blobName);
}
