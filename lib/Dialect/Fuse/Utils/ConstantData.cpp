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
