//===- HostTensor.h - tensors the ONNX importer evaluates itself -*- C++
//-*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// Initializers, Constant nodes and shape subgraphs are known at import time.
// The importer keeps them as host tensors (float or 64-bit integer elements),
// folds the ops whose inputs are all known, and materialises a tensor as a
// tosa.const only where a run-time op needs it.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_LIB_TARGET_ONNX_HOSTTENSOR_H
#define FUSE_LIB_TARGET_ONNX_HOSTTENSOR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::fuse::onnx_import {

using Shape = llvm::SmallVector<int64_t, 6>;

/// `v` as an integer, saturated to +-2^62 (NaN: 0): float data from a
/// model may hold anything, and an out-of-range conversion is undefined.
int64_t saturatingInt(double v);

/// Number of elements of `shape`, or nullopt when it overflows 2^62 or a
/// dimension is negative.
std::optional<int64_t> numElements(llvm::ArrayRef<int64_t> shape);

/// Row-major strides of `shape`.
Shape stridesOf(llvm::ArrayRef<int64_t> shape);

/// numpy broadcasting of two shapes; nullopt when they do not broadcast.
std::optional<Shape> broadcastShapes(llvm::ArrayRef<int64_t> a,
                                     llvm::ArrayRef<int64_t> b);

struct HostTensor {
  /// Floats are kept as float, every integer and bool type as int64.
  bool isFloat = true;
  Shape shape;
  std::vector<float> f;
  std::vector<int64_t> i;

  int64_t size() const { return isFloat ? f.size() : i.size(); }
  double at(int64_t k) const { return isFloat ? f[k] : double(i[k]); }
  int64_t intAt(int64_t k) const {
    return isFloat ? saturatingInt(f[k]) : i[k];
  }

  static HostTensor floats(Shape shape, std::vector<float> values);
  static HostTensor ints(Shape shape, std::vector<int64_t> values);

  /// The same elements under another shape of equal size.
  HostTensor reshaped(llvm::ArrayRef<int64_t> newShape) const;
  /// Dimension k of the result is dimension perm[k] of this tensor.
  HostTensor transposed(llvm::ArrayRef<int64_t> perm) const;
  /// Elements [starts, starts + steps * (sizes - 1)] along every dimension.
  HostTensor sliced(llvm::ArrayRef<int64_t> starts,
                    llvm::ArrayRef<int64_t> sizes,
                    llvm::ArrayRef<int64_t> steps) const;
  /// Elements at `indices` along `axis` (numpy take).
  HostTensor gathered(int64_t axis, const HostTensor &indices) const;
  /// This tensor broadcast (numpy rules) to exactly `out`; nullopt when it
  /// does not broadcast to that shape.
  std::optional<HostTensor> broadcastTo(llvm::ArrayRef<int64_t> out) const;
  /// `cond ? a : b` elementwise with numpy broadcasting of all three;
  /// nullopt when they do not broadcast. A float result when a or b is.
  static std::optional<HostTensor>
  select(const HostTensor &cond, const HostTensor &a, const HostTensor &b);
  /// This tensor converted to floats or integers.
  HostTensor converted(bool toFloat) const;

  static HostTensor concat(llvm::ArrayRef<const HostTensor *> parts,
                           int64_t axis);
  /// Elementwise `fn` with numpy broadcasting; nullopt when the shapes do
  /// not broadcast. Integer tensors use `intFn` when given.
  static std::optional<HostTensor>
  binary(const HostTensor &a, const HostTensor &b,
         llvm::function_ref<double(double, double)> fn,
         llvm::function_ref<int64_t(int64_t, int64_t)> intFn = nullptr);
};

} // namespace mlir::fuse::onnx_import

#endif // FUSE_LIB_TARGET_ONNX_HOSTTENSOR_H
