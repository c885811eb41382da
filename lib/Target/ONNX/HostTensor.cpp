//===- HostTensor.cpp - tensors the ONNX importer evaluates itself --------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "HostTensor.h"

#include <cassert>
#include <cmath>

using namespace mlir::fuse::onnx_import;

int64_t mlir::fuse::onnx_import::saturatingInt(double v) {
  constexpr double limit = double(int64_t(1) << 62);
  if (std::isnan(v))
    return 0;
  if (v >= limit)
    return int64_t(1) << 62;
  if (v <= -limit)
    return -(int64_t(1) << 62);
  return int64_t(v);
}

std::optional<int64_t>
mlir::fuse::onnx_import::numElements(llvm::ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0)
      return std::nullopt;
    if (d != 0 && n > (int64_t(1) << 62) / d)
      return std::nullopt;
    n *= d;
  }
  return n;
}

Shape mlir::fuse::onnx_import::stridesOf(llvm::ArrayRef<int64_t> shape) {
  Shape strides(shape.size(), 1);
  for (int64_t k = int64_t(shape.size()) - 2; k >= 0; --k)
    strides[k] = strides[k + 1] * shape[k + 1];
  return strides;
}

std::optional<Shape>
mlir::fuse::onnx_import::broadcastShapes(llvm::ArrayRef<int64_t> a,
                                         llvm::ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  Shape out(rank, 1);
  for (size_t k = 0; k < rank; ++k) {
    int64_t da = k < rank - a.size() ? 1 : a[k - (rank - a.size())];
    int64_t db = k < rank - b.size() ? 1 : b[k - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      return std::nullopt;
    out[k] = da == 1 ? db : da;
  }
  return out;
}

HostTensor HostTensor::floats(Shape shape, std::vector<float> values) {
  HostTensor t;
  t.isFloat = true;
  t.shape = std::move(shape);
  t.f = std::move(values);
  return t;
}

HostTensor HostTensor::ints(Shape shape, std::vector<int64_t> values) {
  HostTensor t;
  t.isFloat = false;
  t.shape = std::move(shape);
  t.i = std::move(values);
  return t;
}

HostTensor HostTensor::reshaped(llvm::ArrayRef<int64_t> newShape) const {
  HostTensor t = *this;
  t.shape.assign(newShape.begin(), newShape.end());
  return t;
}

/// Calls fn(outIndex, inIndex) for every element of an output of `outShape`
/// whose element at coordinate c comes from input offset
/// base + sum_k c[k] * inStrides[k].
static void walk(llvm::ArrayRef<int64_t> outShape,
                 llvm::ArrayRef<int64_t> inStrides, int64_t base,
                 llvm::function_ref<void(int64_t, int64_t)> fn) {
  int64_t total = numElements(outShape).value_or(0);
  size_t rank = outShape.size();
  Shape coord(rank, 0);
  int64_t in = base;
  for (int64_t out = 0; out < total; ++out) {
    fn(out, in);
    for (int64_t k = int64_t(rank) - 1; k >= 0; --k) {
      if (++coord[k] < outShape[k]) {
        in += inStrides[k];
        break;
      }
      in -= inStrides[k] * (outShape[k] - 1);
      coord[k] = 0;
    }
  }
}

/// An empty tensor of `shape` with this tensor's element kind.
static HostTensor like(const HostTensor &t, llvm::ArrayRef<int64_t> shape) {
  int64_t n = numElements(shape).value_or(0);
  HostTensor r;
  r.isFloat = t.isFloat;
  r.shape.assign(shape.begin(), shape.end());
  if (t.isFloat)
    r.f.resize(n);
  else
    r.i.resize(n);
  return r;
}

static void copyElement(HostTensor &dst, int64_t d, const HostTensor &src,
                        int64_t s) {
  if (dst.isFloat)
    dst.f[d] = src.f[s];
  else
    dst.i[d] = src.i[s];
}

HostTensor HostTensor::transposed(llvm::ArrayRef<int64_t> perm) const {
  Shape outShape, inStrides;
  Shape strides = stridesOf(shape);
  for (int64_t p : perm) {
    outShape.push_back(shape[p]);
    inStrides.push_back(strides[p]);
  }
  HostTensor r = like(*this, outShape);
  walk(outShape, inStrides, 0,
       [&](int64_t o, int64_t i) { copyElement(r, o, *this, i); });
  return r;
}

HostTensor HostTensor::sliced(llvm::ArrayRef<int64_t> starts,
                              llvm::ArrayRef<int64_t> sizes,
                              llvm::ArrayRef<int64_t> steps) const {
  Shape strides = stridesOf(shape);
  Shape inStrides;
  int64_t base = 0;
  for (size_t k = 0; k < shape.size(); ++k) {
    base += starts[k] * strides[k];
    inStrides.push_back(strides[k] * steps[k]);
  }
  HostTensor r = like(*this, sizes);
  walk(sizes, inStrides, base,
       [&](int64_t o, int64_t i) { copyElement(r, o, *this, i); });
  return r;
}

HostTensor HostTensor::gathered(int64_t axis, const HostTensor &indices) const {
  Shape outShape(shape.begin(), shape.begin() + axis);
  outShape.append(indices.shape.begin(), indices.shape.end());
  outShape.append(shape.begin() + axis + 1, shape.end());
  HostTensor r = like(*this, outShape);
  int64_t outer = numElements(llvm::ArrayRef(shape).take_front(axis)).value();
  int64_t inner =
      numElements(llvm::ArrayRef(shape).drop_front(axis + 1)).value();
  int64_t count = indices.size();
  int64_t o = 0;
  for (int64_t a = 0; a < outer; ++a)
    for (int64_t n = 0; n < count; ++n) {
      int64_t idx = indices.intAt(n);
      if (idx < 0)
        idx += shape[axis];
      for (int64_t c = 0; c < inner; ++c)
        copyElement(r, o++, *this, (a * shape[axis] + idx) * inner + c);
    }
  return r;
}

HostTensor HostTensor::converted(bool toFloat) const {
  if (toFloat == isFloat)
    return *this;
  HostTensor r;
  r.isFloat = toFloat;
  r.shape = shape;
  if (toFloat)
    for (int64_t v : i)
      r.f.push_back(float(v));
  else
    for (float v : f)
      r.i.push_back(saturatingInt(v));
  return r;
}

HostTensor HostTensor::concat(llvm::ArrayRef<const HostTensor *> parts,
                              int64_t axis) {
  Shape outShape = parts.front()->shape;
  outShape[axis] = 0;
  for (const HostTensor *p : parts)
    outShape[axis] += p->shape[axis];
  HostTensor r = like(*parts.front(), outShape);
  int64_t outer =
      numElements(llvm::ArrayRef(outShape).take_front(axis)).value();
  int64_t o = 0;
  for (int64_t a = 0; a < outer; ++a)
    for (const HostTensor *p : parts) {
      int64_t chunk =
          numElements(llvm::ArrayRef(p->shape).drop_front(axis)).value();
      for (int64_t c = 0; c < chunk; ++c)
        copyElement(r, o++, *p, a * chunk + c);
    }
  return r;
}

std::optional<HostTensor>
HostTensor::binary(const HostTensor &a, const HostTensor &b,
                   llvm::function_ref<double(double, double)> fn,
                   llvm::function_ref<int64_t(int64_t, int64_t)> intFn) {
  std::optional<Shape> out = broadcastShapes(a.shape, b.shape);
  if (!out)
    return std::nullopt;
  size_t rank = out->size();
  auto stridesIn = [&](const HostTensor &t) {
    Shape s = stridesOf(t.shape), r(rank, 0);
    for (size_t k = 0; k < t.shape.size(); ++k)
      if (t.shape[k] != 1)
        r[rank - t.shape.size() + k] = s[k];
    return r;
  };
  Shape sa = stridesIn(a), sb = stridesIn(b);
  bool isFloat = a.isFloat || b.isFloat;
  HostTensor r;
  r.isFloat = isFloat;
  r.shape = *out;
  int64_t n = numElements(*out).value_or(0);
  std::vector<int64_t> ia(n), ib(n);
  walk(*out, sa, 0, [&](int64_t o, int64_t i) { ia[o] = i; });
  walk(*out, sb, 0, [&](int64_t o, int64_t i) { ib[o] = i; });
  if (isFloat) {
    r.f.resize(n);
    for (int64_t k = 0; k < n; ++k)
      r.f[k] = float(fn(a.at(ia[k]), b.at(ib[k])));
  } else {
    r.i.resize(n);
    for (int64_t k = 0; k < n; ++k)
      r.i[k] = intFn
                   ? intFn(a.i[ia[k]], b.i[ib[k]])
                   : saturatingInt(fn(double(a.i[ia[k]]), double(b.i[ib[k]])));
  }
  return r;
}

std::optional<HostTensor>
HostTensor::broadcastTo(llvm::ArrayRef<int64_t> out) const {
  std::optional<Shape> common = broadcastShapes(shape, out);
  if (!common || *common != Shape(out.begin(), out.end()))
    return std::nullopt;
  size_t rank = out.size();
  Shape s = stridesOf(shape), strides(rank, 0);
  for (size_t k = 0; k < shape.size(); ++k)
    if (shape[k] != 1)
      strides[rank - shape.size() + k] = s[k];
  HostTensor r = like(*this, out);
  walk(out, strides, 0,
       [&](int64_t o, int64_t i) { copyElement(r, o, *this, i); });
  return r;
}

std::optional<HostTensor> HostTensor::select(const HostTensor &cond,
                                             const HostTensor &a,
                                             const HostTensor &b) {
  std::optional<Shape> ab = broadcastShapes(a.shape, b.shape);
  std::optional<Shape> out = ab ? broadcastShapes(cond.shape, *ab) : ab;
  if (!out)
    return std::nullopt;
  std::optional<HostTensor> c = cond.broadcastTo(*out), x = a.broadcastTo(*out),
                            y = b.broadcastTo(*out);
  bool isFloat = a.isFloat || b.isFloat;
  x = x->converted(isFloat);
  y = y->converted(isFloat);
  HostTensor r = *x;
  for (int64_t k = 0; k < r.size(); ++k)
    if (c->at(k) == 0.0) {
      if (isFloat)
        r.f[k] = y->f[k];
      else
        r.i[k] = y->i[k];
    }
  return r;
}
