//===- Fold.cpp - ONNX nodes evaluated at import time ---------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// A node whose inputs are all known at import time (shape subgraphs, the
// constants feeding them) is evaluated here on host tensors instead of
// becoming TOSA ops; Constant, ConstantOfShape, Shape and Range are only
// ever evaluated here.
//
//===----------------------------------------------------------------------===//

#include "ImporterImpl.h"

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::onnx_import;
using namespace mlir::fuse::onnx_import::detail;

//===----------------------------------------------------------------------===//
// Import-time evaluation
//===----------------------------------------------------------------------===//

FailureOr<bool> Importer::tryFold() {
  StringRef opType = node->op_type();
  if (opType == "Constant") {
    Entry e;
    e.onnxType = onnx::TensorProto::FLOAT;
    if (const onnx::AttributeProto *a = attr("value")) {
      FailureOr<HostTensor> t = parseTensor(a->t());
      if (failed(t))
        return failure();
      e.host = std::move(*t);
      e.onnxType = a->t().data_type();
    } else if (const onnx::AttributeProto *a = attr("value_float")) {
      e.host = HostTensor::floats({}, {a->f()});
    } else if (const onnx::AttributeProto *a = attr("value_floats")) {
      e.host = HostTensor::floats({int64_t(a->floats_size())},
                                  {a->floats().begin(), a->floats().end()});
    } else if (const onnx::AttributeProto *a = attr("value_int")) {
      e.host = HostTensor::ints({}, {a->i()});
      e.onnxType = onnx::TensorProto::INT64;
    } else if (const onnx::AttributeProto *a = attr("value_ints")) {
      e.host = HostTensor::ints({int64_t(a->ints_size())},
                                {a->ints().begin(), a->ints().end()});
      e.onnxType = onnx::TensorProto::INT64;
    } else {
      return error() << "needs one of the attributes value, value_float(s), "
                        "value_int(s)",
             failure();
    }
    e.shape = e.host->shape;
    return succeeded(define(0, std::move(e)));
  }
  if (opType == "Shape") {
    Entry *x = input(0);
    int64_t rank = x->shape.size();
    int64_t start = 0, end = rank;
    if (opset >= 15) {
      FailureOr<int64_t> s = intAttr("start", 0), en = intAttr("end", rank);
      if (failed(s) || failed(en))
        return failure();
      start = std::clamp<int64_t>(*s < 0 ? *s + rank : *s, 0, rank);
      end = std::clamp<int64_t>(*en < 0 ? *en + rank : *en, 0, rank);
    }
    std::vector<int64_t> dims(x->shape.begin() + start,
                              x->shape.begin() + std::max(start, end));
    Entry e;
    e.host = HostTensor::ints({int64_t(dims.size())}, dims);
    e.shape = e.host->shape;
    e.onnxType = onnx::TensorProto::INT64;
    return succeeded(define(0, std::move(e)));
  }
  // Everything else folds only when all of its inputs are known.
  for (int k = 0; k < numInputs(); ++k)
    if (hasInput(k) && !input(k)->host)
      return false;
  auto defineHost = [&](HostTensor t) -> FailureOr<bool> {
    Entry e;
    e.shape = t.shape;
    e.host = std::move(t);
    return succeeded(define(0, std::move(e)));
  };
  const HostTensor *x = hasInput(0) ? &*input(0)->host : nullptr;
  if (opType == "Identity" || opType == "Dropout")
    return defineHost(*x);
  if (opType == "Cast") {
    FailureOr<int64_t> to = intAttr("to", 0);
    if (failed(to))
      return failure();
    if (*to == onnx::TensorProto::FLOAT)
      return defineHost(x->converted(true));
    if (*to == onnx::TensorProto::INT64 || *to == onnx::TensorProto::INT32 ||
        *to == onnx::TensorProto::BOOL) {
      HostTensor t = x->isFloat ? x->converted(false) : *x;
      if (*to == onnx::TensorProto::BOOL)
        for (int64_t k = 0; k < x->size(); ++k)
          t.i[k] = x->at(k) != 0.0;
      else if (*to == onnx::TensorProto::INT32)
        for (int64_t &v : t.i)
          v = int32_t(uint64_t(v));
      Entry e;
      e.shape = t.shape;
      e.host = std::move(t);
      e.onnxType = int32_t(*to);
      return succeeded(define(0, std::move(e)));
    }
    return false;
  }
  if (opType == "ConstantOfShape") {
    if (x->isFloat)
      return error() << "the shape input must be int64, not float", failure();
    if (x->shape.size() != 1)
      return error() << "the shape input must be 1-D, not of shape "
                     << shapeStr(x->shape),
             failure();
    if (llvm::any_of(x->i, [](int64_t d) { return d < 0; }))
      return error() << "shape " << shapeStr(x->i)
                     << " has a negative dimension",
             failure();
    std::optional<int64_t> n = numElements(x->i);
    if (!n || *n > kMaxFilledElements)
      return error() << "shape " << shapeStr(x->i) << " has "
                     << (n ? std::to_string(*n) : std::string("over 2^63"))
                     << " elements; a tensor filled at import time has at "
                        "most 2^26",
             failure();
    HostTensor t = HostTensor::floats(Shape(x->i.begin(), x->i.end()),
                                      std::vector<float>(*n, 0.0f));
    if (const onnx::AttributeProto *a = attr("value")) {
      FailureOr<HostTensor> v = parseTensor(a->t());
      if (failed(v))
        return failure();
      if (v->size() != 1)
        return error() << "value must have one element", failure();
      t = v->isFloat
              ? HostTensor::floats(t.shape, std::vector<float>(*n, v->f[0]))
              : HostTensor::ints(t.shape, std::vector<int64_t>(*n, v->i[0]));
    }
    return defineHost(std::move(t));
  }
  if (opType == "Unsqueeze" || opType == "Squeeze" || opType == "Reshape" ||
      opType == "Flatten") {
    FailureOr<Shape> s = reshapeTarget(*input(0));
    if (failed(s))
      return failure();
    return defineHost(x->reshaped(*s));
  }
  if (opType == "Transpose") {
    FailureOr<std::optional<Shape>> perm = intsAttr("perm");
    if (failed(perm))
      return failure();
    Shape p;
    if (*perm)
      p = **perm;
    else
      for (int64_t k = x->shape.size() - 1; k >= 0; --k)
        p.push_back(k);
    Shape sorted = p;
    llvm::sort(sorted);
    for (size_t k = 0; k < sorted.size(); ++k)
      if (sorted[k] != int64_t(k) || sorted.size() != x->shape.size())
        return error() << "perm " << shapeStr(p) << " is not a permutation of "
                       << x->shape.size() << " dimensions",
               failure();
    return defineHost(x->transposed(p));
  }
  if (opType == "Concat") {
    FailureOr<int64_t> axis = axisAttr(x->shape.size(), 0);
    if (failed(axis))
      return failure();
    SmallVector<const HostTensor *> parts;
    bool anyFloat = false;
    for (int k = 0; k < numInputs(); ++k)
      anyFloat |= input(k)->host->isFloat;
    std::vector<HostTensor> converted;
    converted.reserve(numInputs());
    for (int k = 0; k < numInputs(); ++k) {
      const HostTensor &p = *input(k)->host;
      if (p.shape.size() != x->shape.size())
        return error() << "inputs have different ranks", failure();
      for (size_t d = 0; d < p.shape.size(); ++d)
        if (int64_t(d) != *axis && p.shape[d] != x->shape[d])
          return error() << "input shapes " << shapeStr(x->shape) << " and "
                         << shapeStr(p.shape) << " differ outside axis "
                         << *axis,
                 failure();
      converted.push_back(p.converted(anyFloat));
    }
    for (const HostTensor &p : converted)
      parts.push_back(&p);
    return defineHost(HostTensor::concat(parts, *axis));
  }
  if (opType == "Gather") {
    FailureOr<int64_t> axis = axisAttr(x->shape.size(), 0);
    if (failed(axis))
      return failure();
    const HostTensor &idx = *input(1)->host;
    for (int64_t k = 0; k < idx.size(); ++k) {
      int64_t v = idx.intAt(k);
      if (v < -x->shape[*axis] || v >= x->shape[*axis])
        return error() << "index " << v << " is out of range for dimension "
                       << x->shape[*axis],
               failure();
    }
    return defineHost(x->gathered(*axis, idx));
  }
  if (opType == "Slice") {
    FailureOr<SliceSpec> spec = sliceSpec(*input(0));
    if (failed(spec))
      return failure();
    return defineHost(x->sliced(spec->starts, spec->sizes, spec->steps));
  }
  static const llvm::StringSet<> arith = {"Add", "Sub", "Mul", "Div",
                                          "Max", "Min", "Pow"};
  if (arith.contains(opType) && numInputs() == 2) {
    const HostTensor &y = *input(1)->host;
    auto fn = [&](double a, double c) -> double {
      if (opType == "Add")
        return float(a) + float(c);
      if (opType == "Sub")
        return float(a) - float(c);
      if (opType == "Mul")
        return float(a) * float(c);
      if (opType == "Div")
        return float(a) / float(c);
      if (opType == "Max")
        return std::max(a, c);
      if (opType == "Min")
        return std::min(a, c);
      return std::pow(float(a), float(c));
    };
    // Integer folding wraps (shape arithmetic on hostile values must not be
    // undefined); whatever comes out is validated where it is used. A
    // division ONNX leaves undefined (by zero, INT64_MIN / -1) is an error.
    const char *undefinedDivision = nullptr;
    auto intFn = [&](int64_t a, int64_t c) -> int64_t {
      uint64_t ua = a, uc = c;
      if (opType == "Add")
        return int64_t(ua + uc);
      if (opType == "Sub")
        return int64_t(ua - uc);
      if (opType == "Mul")
        return int64_t(ua * uc);
      if (opType == "Div") {
        if (c == 0)
          undefinedDivision = "an integer division by zero";
        else if (c == -1 && a == std::numeric_limits<int64_t>::min())
          undefinedDivision = "INT64_MIN / -1, which overflows int64";
        return undefinedDivision ? 0 : a / c;
      }
      if (opType == "Max")
        return std::max(a, c);
      if (opType == "Min")
        return std::min(a, c);
      return saturatingInt(std::pow(double(a), double(c)));
    };
    std::optional<HostTensor> r = HostTensor::binary(*x, y, fn, intFn);
    if (!r)
      return error() << "shapes " << shapeStr(x->shape) << " and "
                     << shapeStr(y.shape) << " do not broadcast",
             failure();
    if (undefinedDivision)
      return error() << "evaluating it at import time meets "
                     << undefinedDivision << " (undefined in ONNX)",
             failure();
    return defineHost(std::move(*r));
  }
  if ((opType == "Neg" || opType == "Sqrt" || opType == "Reciprocal" ||
       opType == "Abs") &&
      x->isFloat) {
    HostTensor r = *x;
    for (float &v : r.f)
      v = opType == "Neg"    ? -v
          : opType == "Sqrt" ? std::sqrt(v)
          : opType == "Abs"  ? std::fabs(v)
                             : 1.0f / v;
    return defineHost(std::move(r));
  }
  // Comparisons and logic (bools as integers 0 and 1), Not, Where, Expand
  // and Range on known values: the mask and shape subgraphs exporters
  // leave in (a vision transformer's class token: Equal, Where, Expand).
  static const llvm::StringSet<> logic = {
      "Equal",          "Less", "Greater", "LessOrEqual",
      "GreaterOrEqual", "And",  "Or",      "Xor"};
  if (logic.contains(opType) && numInputs() == 2) {
    const HostTensor &y = *input(1)->host;
    auto cmp = [&](auto a, auto c) -> bool {
      if (opType == "Equal")
        return a == c;
      if (opType == "Less")
        return a < c;
      if (opType == "Greater")
        return a > c;
      if (opType == "LessOrEqual")
        return a <= c;
      if (opType == "GreaterOrEqual")
        return a >= c;
      bool p = a != 0, q = c != 0;
      return opType == "And" ? (p && q) : opType == "Or" ? (p || q) : p != q;
    };
    std::optional<HostTensor> r = HostTensor::binary(
        *x, y, [&](double a, double c) -> double { return cmp(a, c); },
        [&](int64_t a, int64_t c) -> int64_t { return cmp(a, c); });
    if (!r)
      return error() << "shapes " << shapeStr(x->shape) << " and "
                     << shapeStr(y.shape) << " do not broadcast",
             failure();
    return defineHost(r->converted(false));
  }
  if (opType == "Not") {
    HostTensor r = x->converted(false);
    for (int64_t &v : r.i)
      v = v == 0;
    return defineHost(std::move(r));
  }
  if (opType == "Where" && numInputs() == 3) {
    std::optional<HostTensor> r =
        HostTensor::select(*x, *input(1)->host, *input(2)->host);
    if (!r)
      return error() << "shapes " << shapeStr(x->shape) << ", "
                     << shapeStr(input(1)->shape) << " and "
                     << shapeStr(input(2)->shape) << " do not broadcast",
             failure();
    return defineHost(std::move(*r));
  }
  if (opType == "Expand" && numInputs() == 2) {
    FailureOr<Shape> out = expandedShape();
    if (failed(out))
      return failure();
    if (numElements(*out).value_or(kMaxFilledElements + 1) > kMaxFilledElements)
      return error() << "the expanded shape " << shapeStr(*out)
                     << " is too large to evaluate at import time",
             failure();
    return defineHost(*x->broadcastTo(*out));
  }
  if (opType == "Range" && numInputs() == 3) {
    const HostTensor &limit = *input(1)->host, &delta = *input(2)->host;
    if (x->size() != 1 || limit.size() != 1 || delta.size() != 1)
      return error() << "start, limit and delta must be scalars", failure();
    bool isFloat = x->isFloat || limit.isFloat || delta.isFloat;
    double d = delta.at(0);
    if (d == 0.0 || !std::isfinite(d) || !std::isfinite(x->at(0)) ||
        !std::isfinite(limit.at(0)))
      return error() << "delta must be nonzero and start, limit and delta "
                        "finite",
             failure();
    double count = std::max(std::ceil((limit.at(0) - x->at(0)) / d), 0.0);
    if (count > double(kMaxFilledElements))
      return error() << "the range has " << count
                     << " elements, too many to evaluate at import time",
             failure();
    int64_t n = int64_t(count);
    if (isFloat) {
      std::vector<float> v(n);
      for (int64_t k = 0; k < n; ++k)
        v[k] = float(x->at(0) + double(k) * d);
      return defineHost(HostTensor::floats({n}, std::move(v)));
    }
    std::vector<int64_t> v(n);
    for (int64_t k = 0; k < n; ++k)
      v[k] = x->intAt(0) + k * delta.intAt(0);
    return defineHost(HostTensor::ints({n}, std::move(v)));
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void Importer::registerFoldedOps(OpRegistry &r) {
  // Evaluated by tryFold; one that reaches its importer has an input known
  // only at run time, and cannot be built.
  auto unknownShape = [](Importer &i) -> LogicalResult {
    return i.error() << "the shape must be known at import time", failure();
  };
  r.add("Constant", unknownShape).inputs(0);
  r.add("ConstantOfShape", unknownShape);
  r.add("Shape", unknownShape).takesIntegers();
  r.add("Range", [](Importer &i) -> LogicalResult {
     return i.error() << "is evaluated at import time only: start, limit "
                         "and delta must be known (its output's size "
                         "depends on them)",
            failure();
   }).inputs(3);
}
