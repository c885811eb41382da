//===- Elementwise.cpp - ONNX elementwise ops -----------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// The elementwise family: unary math, binary arithmetic with ONNX's
// broadcasting, the activations, Clip and Relu, comparisons' selections
// (Where) and the variadic Max, Min and Sum.
//
//===----------------------------------------------------------------------===//

#include "ImporterImpl.h"

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::onnx_import;
using namespace mlir::fuse::onnx_import::detail;

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

LogicalResult Importer::importUnary(StringRef kind) {
  Entry &x = *input(0);
  Value v = x.value ? x.value : logical(x);
  return define(0, result(unaryOp(kind, v), x.shape, x.nhwc));
}

Value Importer::clamp(Value v, float lo, float hi) {
  Type elem = like(v, {}).getElementType();
  return op<tosa::ClampOp>(
      v.getType(), {v},
      {b.getNamedAttr("min_val", b.getFloatAttr(elem, lo)),
       b.getNamedAttr("max_val", b.getFloatAttr(elem, hi))});
}

LogicalResult Importer::importActivation(StringRef kind) {
  // Each is spelled with elementwise ops that keep x > 0 and x < 0 apart
  // without a comparison: max(x, 0) and min(x, 0) (exact, NaN kept), so
  // the negative side's formula sees min(x, 0) and gives exactly 0 at
  // x >= 0. The defaults are the ONNX spec's.
  auto param = [&](StringRef name, float dflt) -> FailureOr<float> {
    FailureOr<float> v = floatAttr(name, dflt);
    if (succeeded(v) && !std::isfinite(*v))
      return error() << "attribute '" << name << "' must be finite, got " << *v,
             failure();
    return v;
  };
  Entry &x = *input(0);
  Value v = x.value ? x.value : logical(x);
  int64_t rank = shapeOf(v).size();
  Type t = v.getType();
  auto c = [&](float f) { return scalar(f, rank); };
  auto add = [&](Value a, Value d) { return binaryOp("Add", a, d); };
  auto mul = [&](Value a, Value d) { return binaryOp("Mul", a, d); };
  auto pos = [&] { return binaryOp("Max", v, c(0.0f)); };
  auto neg = [&] { return binaryOp("Min", v, c(0.0f)); };
  auto expm1 = [&](Value a) {
    return binaryOp("Sub", op<tosa::ExpOp>(t, {a}), c(1.0f));
  };
  // log(1 + exp(x)) as max(x, 0) + log(1 + exp(-|x|)): no overflow.
  auto softplus = [&] {
    Value e =
        op<tosa::ExpOp>(t, {binaryOp("Sub", c(0.0f), op<tosa::AbsOp>(t, {v}))});
    return add(pos(), op<tosa::LogOp>(t, {add(e, c(1.0f))}));
  };
  Value y;
  if (kind == "LeakyRelu") {
    FailureOr<float> alpha = param("alpha", 0.01f);
    if (failed(alpha))
      return failure();
    y = add(pos(), mul(neg(), c(*alpha)));
  } else if (kind == "Elu" || kind == "Selu") {
    bool selu = kind == "Selu";
    FailureOr<float> alpha =
        param("alpha", selu ? 1.67326319217681884765625f : 1.0f);
    FailureOr<float> gamma =
        selu ? param("gamma", 1.05070102214813232421875f) : 1.0f;
    if (failed(alpha) || failed(gamma))
      return failure();
    y = add(pos(), mul(expm1(neg()), c(*alpha)));
    if (selu)
      y = mul(y, c(*gamma));
  } else if (kind == "Celu") {
    FailureOr<float> alpha = param("alpha", 1.0f);
    if (failed(alpha))
      return failure();
    if (*alpha == 0.0f)
      return error() << "attribute 'alpha' must not be 0", failure();
    y = add(pos(), mul(expm1(mul(neg(), c(1.0f / *alpha))), c(*alpha)));
  } else if (kind == "Softplus") {
    y = softplus();
  } else if (kind == "Gelu") {
    // 0.5 x (1 + erf(x / sqrt(2))), or with tanh: 0.5 x (1 + tanh(sqrt(2 /
    // pi) (x + 0.044715 x^3))).
    FailureOr<std::string> approximate = stringAttr("approximate", "none");
    if (failed(approximate))
      return failure();
    Value inner;
    if (*approximate == "none") {
      inner = op<tosa::ErfOp>(t, {mul(v, c(float(M_SQRT1_2)))});
    } else if (*approximate == "tanh") {
      Value cube = mul(mul(v, v), v);
      inner = op<tosa::TanhOp>(t, {mul(add(v, mul(cube, c(0.044715f))),
                                       c(float(std::sqrt(2.0 / M_PI))))});
    } else {
      return error() << "approximate '" << *approximate
                     << "' is not one of none, tanh",
             failure();
    }
    y = mul(mul(v, c(0.5f)), add(inner, c(1.0f)));
  } else if (kind == "Mish") {
    // x * tanh(softplus(x)); tanh saturates to 1 where softplus grows.
    y = mul(v, op<tosa::TanhOp>(t, {softplus()}));
  } else if (kind == "Softsign") {
    y = mul(v,
            op<tosa::ReciprocalOp>(t, {add(op<tosa::AbsOp>(t, {v}), c(1.0f))}));
  } else if (kind == "HardSigmoid" || kind == "HardSwish") {
    bool swish = kind == "HardSwish";
    FailureOr<float> alpha = swish ? 1.0f / 6.0f : param("alpha", 0.2f);
    FailureOr<float> beta = swish ? 0.5f : param("beta", 0.5f);
    if (failed(alpha) || failed(beta))
      return failure();
    y = clamp(add(mul(v, c(*alpha)), c(*beta)), 0.0f, 1.0f);
    if (swish)
      y = mul(v, y);
  } else {
    llvm_unreachable("unknown activation");
  }
  return define(0, result(y, x.shape, x.nhwc && x.value));
}

LogicalResult Importer::importPiecewise(StringRef kind) {
  Entry &x = *input(0);
  Value v = x.value ? x.value : logical(x);
  int64_t rank = shapeOf(v).size();
  auto t = cast<RankedTensorType>(v.getType());
  Type i1 = t.clone(b.getI1Type());
  // Scalars broadcast by the comparison or the select itself.
  auto c = [&](float f) { return scalar(f, rank); };
  // a > bound, with the bound broadcast.
  auto greater = [&](Value a, Value bound) {
    return op<tosa::GreaterOp>(i1, {a, bound});
  };
  auto select = [&](Value cond, Value a, Value other) {
    return op<tosa::SelectOp>(t, {cond, a, other});
  };
  Value y;
  if (kind == "Sign") {
    // 1 above 0, -1 below, x itself at +-0 and NaN.
    y = select(greater(v, c(0.0f)), c(1.0f),
               select(greater(c(0.0f), v), c(-1.0f), v));
  } else if (kind == "ThresholdedRelu") {
    FailureOr<float> alpha = floatAttr("alpha", 1.0f);
    if (failed(alpha))
      return failure();
    y = select(greater(v, c(*alpha)), v, c(0.0f));
  } else {
    FailureOr<float> lambd = floatAttr("lambd", 0.5f);
    FailureOr<float> bias = floatAttr("bias", 0.0f);
    if (failed(lambd) || failed(bias))
      return failure();
    // x - bias above lambd, x + bias below -lambd, 0 between.
    y = select(
        greater(v, c(*lambd)), binaryOp("Sub", v, c(*bias)),
        select(greater(c(-*lambd), v), binaryOp("Add", v, c(*bias)), c(0.0f)));
  }
  return define(0, result(y, x.shape, x.nhwc && x.value));
}

LogicalResult Importer::importAs2D(LogicalResult (Importer::*import2d)(bool,
                                                                       bool),
                                   bool isMax, bool global) {
  const onnx::NodeProto *orig = node;
  onnx::NodeProto node2d = *orig;
  // Names no ONNX value has (a NUL byte), removed again below.
  auto tmp = [](const std::string &name) { return name + '\0' + "2d"; };
  SmallVector<std::string> temps;
  bool isConv = orig->op_type() == "Conv" || orig->op_type() == "ConvTranspose";
  for (int k = 0; k < (isConv ? 2 : 1); ++k) {
    Entry e = *input(k);
    if (e.shape.size() != 3)
      return error() << "input " << k << " " << shapeStr(e.shape)
                     << " must have 3 dimensions like input 0 "
                     << shapeStr(input(0)->shape),
             failure();
    Shape s4{e.shape[0], e.shape[1], 1, e.shape[2]};
    if (e.host)
      e.host = e.host->reshaped(s4);
    if (e.value)
      e.value = reshape(logical(e), s4);
    e.nhwc = false;
    e.otherLayout = nullptr;
    e.shape = s4;
    temps.push_back(tmp(orig->input(k)));
    env[temps.back()] = std::move(e);
    node2d.set_input(k, temps.back());
  }
  for (onnx::AttributeProto &a : *node2d.mutable_attribute()) {
    if (a.type() != onnx::AttributeProto::INTS)
      continue;
    if (a.name() == "pads" && a.ints_size() == 2) {
      int64_t begin = a.ints(0), end = a.ints(1);
      a.clear_ints();
      for (int64_t v : {int64_t(0), begin, int64_t(0), end})
        a.add_ints(v);
    } else if ((a.name() == "kernel_shape" || a.name() == "strides" ||
                a.name() == "dilations" || a.name() == "output_shape" ||
                a.name() == "output_padding") &&
               a.ints_size() == 1) {
      int64_t v = a.ints(0);
      a.clear_ints();
      a.add_ints(a.name() == "output_padding" ? 0 : 1);
      a.add_ints(v);
    }
  }
  std::string out = tmp(orig->output(0));
  node2d.set_output(0, out);
  node = &node2d;
  LogicalResult r = (this->*import2d)(isMax, global);
  node = orig;
  for (const std::string &t : temps)
    env.erase(t);
  auto it = env.find(out);
  if (failed(r) || it == env.end())
    return failure();
  Entry y = std::move(it->second);
  env.erase(it);
  Shape s3{y.shape[0], y.shape[1], y.shape[3]};
  return define(0, result(reshape(logical(y), s3), s3, false));
}

LogicalResult Importer::importPRelu() {
  // max(x, 0) + slope * min(x, 0), slope broadcast to x's shape.
  Entry &x = *input(0);
  Entry slope = *input(1);
  if (opset < 7 && slope.shape.size() == 1 && x.shape.size() >= 2 &&
      slope.shape[0] != 1) {
    // Before opset 7 a 1-D slope is one value per channel (axis 1).
    if (slope.shape[0] != x.shape[1])
      return error() << "slope " << shapeStr(slope.shape)
                     << " must have one value per channel of input "
                     << shapeStr(x.shape),
             failure();
    Shape perChannel(x.shape.size() - 1, 1);
    perChannel[0] = x.shape[1];
    if (slope.value)
      slope = result(reshape(logical(slope), perChannel), perChannel, false);
    else
      slope.shape = perChannel, slope.host = slope.host->reshaped(perChannel);
  }
  std::optional<Shape> out = broadcastShapes(x.shape, slope.shape);
  if (!out || *out != x.shape)
    return error() << "slope " << shapeStr(slope.shape)
                   << " does not broadcast to input " << shapeStr(x.shape),
           failure();
  Entry zero;
  zero.shape = Shape(x.shape.size(), 1);
  zero.host = HostTensor::floats(zero.shape, {0.0f});
  FailureOr<Entry> p = broadcastBinary("Max", x, zero);
  FailureOr<Entry> n = broadcastBinary("Min", x, zero);
  if (failed(p) || failed(n))
    return failure();
  FailureOr<Entry> s = broadcastBinary("Mul", *n, slope);
  if (failed(s))
    return failure();
  FailureOr<Entry> y = broadcastBinary("Add", *p, *s);
  return failed(y) ? failure() : define(0, std::move(*y));
}

FailureOr<Entry> Importer::broadcastBinary(StringRef kind, Entry &a, Entry &c) {
  std::optional<Shape> out = broadcastShapes(a.shape, c.shape);
  if (!out)
    return error() << "shapes " << shapeStr(a.shape) << " and "
                   << shapeStr(c.shape) << " do not broadcast",
           failure();
  bool nhwc = out->size() == 4 && ((a.nhwc && a.value) || (c.nhwc && c.value));
  Value va = operandFor(a, out->size(), nhwc);
  Value vc;
  if (kind == "Div" && !c.value) {
    // x / const: multiply by the reciprocal computed here.
    Entry inv = c;
    inv.host = inv.host->converted(true);
    for (float &v : inv.host->f)
      v = 1.0f / v;
    vc = operandFor(inv, out->size(), nhwc);
    return result(binaryOp("Mul", va, vc), *out, nhwc);
  }
  if (kind == "Pow" && !c.value && c.host->size() == 1 && c.host->at(0) == 2.0)
    // x^2 as x * x: what LayerNorm's variance uses, exact and cheap.
    return result(binaryOp("Mul", va, va), *out, nhwc);
  vc = operandFor(c, out->size(), nhwc);
  return result(binaryOp(kind, va, vc), *out, nhwc);
}

LogicalResult Importer::importBinary(StringRef kind) {
  if (opset < 7 && attr("broadcast")) {
    // Before opset 7, B aligned at `axis` of A instead of at the end.
    FailureOr<int64_t> axis = intAttr(
        "axis", int64_t(input(0)->shape.size() - input(1)->shape.size()));
    if (failed(axis))
      return failure();
    if (*axis != int64_t(input(0)->shape.size() - input(1)->shape.size()))
      return error() << "legacy broadcasting at axis " << *axis
                     << " is not supported",
             failure();
  }
  FailureOr<Entry> r = broadcastBinary(kind, *input(0), *input(1));
  return failed(r) ? failure() : define(0, std::move(*r));
}

LogicalResult Importer::importVariadic(StringRef kind) {
  Entry acc = *input(0);
  for (int k = 1; k < numInputs(); ++k) {
    FailureOr<Entry> r = broadcastBinary(kind, acc, *input(k));
    if (failed(r))
      return failure();
    acc = std::move(*r);
  }
  if (!acc.value)
    acc.value = logical(acc);
  return define(0, std::move(acc));
}

LogicalResult Importer::importClip() {
  float lo = -std::numeric_limits<float>::max();
  float hi = std::numeric_limits<float>::max();
  if (node->op_type() == "Relu") {
    lo = 0.0f;
  } else if (opset < 11) {
    FailureOr<float> mn = floatAttr("min", lo), mx = floatAttr("max", hi);
    if (failed(mn) || failed(mx))
      return failure();
    lo = *mn;
    hi = *mx;
  } else {
    // Bounds given as run-time values: max(x, min) then min(., max).
    if ((hasInput(1) && input(1)->value) || (hasInput(2) && input(2)->value)) {
      Entry acc = *input(0);
      for (int k : {1, 2}) {
        if (!hasInput(k))
          continue;
        if (input(k)->shape.size() != 0 && *numElements(input(k)->shape) != 1)
          return error() << (k == 1 ? "min" : "max") << " must be a scalar",
                 failure();
        FailureOr<Entry> r =
            broadcastBinary(k == 1 ? "Max" : "Min", acc, *input(k));
        if (failed(r))
          return failure();
        acc = std::move(*r);
      }
      return define(0, std::move(acc));
    }
    for (int k : {1, 2}) {
      if (!hasInput(k))
        continue;
      FailureOr<const HostTensor *> t = constInput(k, k == 1 ? "min" : "max");
      if (failed(t))
        return failure();
      if ((*t)->size() != 1)
        return error() << (k == 1 ? "min" : "max") << " must be a scalar",
               failure();
      (k == 1 ? lo : hi) = float((*t)->at(0));
    }
  }
  // ONNX (and numpy's clip): with min above max every element becomes max.
  // TOSA's clamp requires min <= max, so that is clamp(max, max).
  if (lo > hi)
    lo = hi;
  Entry &x = *input(0);
  Value v = x.value ? x.value : logical(x);
  return define(0, result(clamp(v, lo, hi), x.shape, x.nhwc));
}

LogicalResult Importer::importWhere() {
  FailureOr<Type> elem = commonType({1, 2});
  if (failed(elem))
    return failure();
  Entry &a = *input(1), &c = *input(2);
  if (input(0)->value || !isa<FloatType>(*elem)) {
    // A run-time condition, or integer values: one elementwise select.
    if (input(0)->value && !typeOf(*input(0)).isInteger(1))
      return error() << "the condition (input 0, '" << node->input(0)
                     << "') must be BOOL, not "
                     << runtimeTypeName(typeOf(*input(0))),
             failure();
    SmallVector<Entry *> all = {input(0), &a, &c};
    FailureOr<Shape> out = broadcastAll(all);
    if (failed(out))
      return failure();
    size_t rank = out->size();
    Value y = mapElements(
        {operandOf(*input(0), rank, b.getI1Type()), operandOf(a, rank, *elem),
         operandOf(c, rank, *elem)},
        *out, *elem, [](OpBuilder &nb, Location l, ValueRange v) -> Value {
          return arith::SelectOp::create(nb, l, v[0], v[1], v[2]);
        });
    return define(0, result(y, *out, false));
  }
  // A known condition choosing between float run-time values: tosa.select
  // on a constant mask.
  FailureOr<const HostTensor *> cond = constInput(0, "condition");
  if (failed(cond))
    return failure();
  std::optional<Shape> ac = broadcastShapes(a.shape, c.shape);
  std::optional<Shape> out = ac ? broadcastShapes((*cond)->shape, *ac) : ac;
  if (!out)
    return error() << "shapes " << shapeStr((*cond)->shape) << ", "
                   << shapeStr(a.shape) << " and " << shapeStr(c.shape)
                   << " do not broadcast",
           failure();
  size_t rank = out->size();
  HostTensor mask = (*cond)->converted(false);
  Shape maskShape(rank - mask.shape.size(), 1);
  maskShape.append(mask.shape.begin(), mask.shape.end());
  SmallVector<bool> bits;
  for (int64_t v : mask.i)
    bits.push_back(v != 0);
  auto maskType = RankedTensorType::get(maskShape, b.getI1Type());
  Value m = tosa::ConstOp::create(b, loc, maskType,
                                  DenseElementsAttr::get(maskType, bits));
  Value y =
      op<tosa::SelectOp>(floatTensor(*out), {m, operandFor(a, rank, false),
                                             operandFor(c, rank, false)});
  return define(0, result(y, *out, false));
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void Importer::registerElementwiseOps(OpRegistry &r) {
  for (StringRef op : {"Sigmoid", "Tanh", "Erf", "Exp", "Log", "Reciprocal",
                       "Floor", "Ceil", "Sqrt"})
    r.add(op, [](Importer &i) { return i.importUnary(i.node->op_type()); });
  // Exactly rounded: 16-bit values stay 16-bit.
  for (StringRef op : {"Abs", "Neg"})
    r.add(op, [](Importer &i) {
       return i.importUnary(i.node->op_type());
     }).in16Bit();
  // Run-time integer operands take the integer path.
  for (StringRef op : {"Add", "Sub", "Mul"})
    r.add(op,
          [](Importer &i) {
            return i.integerInputs() ? i.importIntegerArith(i.node->op_type())
                                     : i.importBinary(i.node->op_type());
          })
        .inputs(2)
        .takesIntegers();
  // Integer Div is refused before it gets here (not a typed op).
  r.add("Div", [](Importer &i) { return i.importBinary("Div"); })
      .inputs(2)
      .in16Bit();
  // A 16-bit base is raised in f32.
  r.add("Pow",
        [](Importer &i) {
          return i.integerInputs() ? i.importPowIntegerExponent()
                                   : i.importBinary("Pow");
        })
      .inputs(2)
      .takesIntegers()
      .in16Bit(false);
  for (StringRef op : {"Max", "Min"})
    r.add(op,
          [](Importer &i) {
            return i.integerInputs() ? i.importIntegerArith(i.node->op_type())
                                     : i.importVariadic(i.node->op_type());
          })
        .inputs(OpSpec::kEveryInput)
        .takesIntegers();
  r.add("Sum",
        [](Importer &i) {
          return i.integerInputs() ? i.importIntegerArith("Add")
                                   : i.importVariadic("Add");
        })
      .inputs(OpSpec::kEveryInput)
      .takesIntegers();
  for (StringRef op : {"Relu", "Clip"})
    r.add(op, [](Importer &i) { return i.importClip(); }).in16Bit();
  r.add("Identity", [](Importer &i) {
     return i.define(0, *i.input(0));
   }).takesIntegers();
  r.add("Dropout", [](Importer &i) -> LogicalResult {
     if (i.outputUsed(1))
       return i.error() << "the mask output is not supported", failure();
     return i.define(0, *i.input(0));
   }).in16Bit();
  for (StringRef op : {"LeakyRelu", "Elu", "Selu", "Celu", "Softplus",
                       "Softsign", "HardSigmoid", "HardSwish"})
    r.add(op,
          [](Importer &i) { return i.importActivation(i.node->op_type()); });
  r.add(
       "Mish", [](Importer &i) { return i.importActivation("Mish"); }, 18)
      .ownSchema(1, {});
  r.add(
       "Gelu", [](Importer &i) { return i.importActivation("Gelu"); }, 20)
      .ownSchema(1, {"approximate"});
  r.add("PRelu", [](Importer &i) { return i.importPRelu(); }).inputs(2);
  for (StringRef op : {"Sign", "Shrink", "ThresholdedRelu"})
    r.add(op, [](Importer &i) { return i.importPiecewise(i.node->op_type()); });
  r.add("Where", [](Importer &i) { return i.importWhere(); })
      .inputs(3)
      .takesIntegers();
}
