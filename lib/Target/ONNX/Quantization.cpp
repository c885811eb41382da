//===- Quantization.cpp - ONNX QuantizeLinear and DequantizeLinear --------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// The quantization family. DequantizeLinear of known data is evaluated at
// import time (the contractions take f32 constants); QuantizeLinear of a
// run-time value is one elementwise op (rounded half to even, saturated),
// its integers held in INT32; DequantizeLinear of it one elementwise op in
// the scale's float type. The kernels compute in float.
//
//===----------------------------------------------------------------------===//

#include "ImporterImpl.h"

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::onnx_import;
using namespace mlir::fuse::onnx_import::detail;

//===----------------------------------------------------------------------===//
// Quantization: QuantizeLinear, DequantizeLinear
//===----------------------------------------------------------------------===//

FailureOr<Importer::QuantParams> Importer::quantParams(ArrayRef<int64_t> shape,
                                                       bool quantize) {
  QuantParams q;
  int64_t rank = shape.size();
  if (const onnx::AttributeProto *a = attr("block_size"); a && a->i() != 0)
    return error() << "blocked quantization (block_size " << a->i()
                   << ") is not supported",
           failure();
  FailureOr<const HostTensor *> scale = constInput(1, "the scale");
  if (failed(scale))
    return failure();
  if (!(*scale)->isFloat)
    return error() << "the scale (input 1) must be a float tensor", failure();
  int64_t count = (*scale)->size();
  if ((*scale)->shape.size() > 1)
    return error() << "the scale (input 1) must be a scalar or 1-D, not "
                   << shapeStr((*scale)->shape),
           failure();
  if ((*scale)->shape.size() == 1 && count != 1) {
    // Per axis: one scale (and zero point) for each index along it.
    if (rank == 0)
      return error() << "a per-axis scale needs an input with an axis",
             failure();
    FailureOr<int64_t> axis = axisAttr(rank, 1);
    if (failed(axis))
      return failure();
    q.axis = *axis;
    if (count != shape[q.axis])
      return error() << "the scale has " << count
                     << " elements; per-axis quantization along axis " << q.axis
                     << " needs " << shape[q.axis],
             failure();
  }
  q.scale.assign((*scale)->f.begin(), (*scale)->f.end());
  for (float s : q.scale)
    if (quantize && !(std::isfinite(s) && s > 0))
      return error() << "a quantization scale must be positive and finite, "
                        "got "
                     << s,
             failure();
  q.scaleType = input(1)->onnxType ? input(1)->onnxType
                                   : int32_t(onnx::TensorProto::FLOAT);
  q.zeroPoint.assign(count, 0);
  q.type = onnx::TensorProto::UINT8;
  if (hasInput(2)) {
    FailureOr<const HostTensor *> zp = constInput(2, "the zero point");
    if (failed(zp))
      return failure();
    int32_t t = input(2)->onnxType;
    if ((*zp)->isFloat ||
        !(t == onnx::TensorProto::INT8 || t == onnx::TensorProto::UINT8 ||
          (!quantize && t == onnx::TensorProto::INT32)))
      return error() << "the zero point (input 2) must be INT8 or UINT8"
                     << (quantize ? "" : " (or INT32)") << ", not "
                     << elementKind(*input(2)),
             failure();
    if ((*zp)->size() != count)
      return error() << "the zero point has " << (*zp)->size()
                     << " elements, the scale " << count,
             failure();
    q.zeroPoint.assign((*zp)->i.begin(), (*zp)->i.end());
    q.type = t;
  }
  if (const onnx::AttributeProto *a = attr("output_dtype"); a && a->i() != 0) {
    if (hasInput(2) && a->i() != q.type)
      return error() << "output_dtype " << typeName(a->i())
                     << " differs from the zero point's type",
             failure();
    q.type = int32_t(a->i());
  }
  if (q.type == onnx::TensorProto::INT8)
    q.lo = -128, q.hi = 127;
  else if (q.type == onnx::TensorProto::UINT8)
    q.lo = 0, q.hi = 255;
  else if (quantize)
    return error() << "quantizing to " << typeName(q.type)
                   << " is not supported (INT8 or UINT8)",
           failure();
  return q;
}

LogicalResult Importer::importQuantize(bool quantize) {
  Entry &x = *input(0);
  int64_t rank = x.shape.size();
  FailureOr<QuantParams> params = quantParams(x.shape, quantize);
  if (failed(params))
    return failure();
  QuantParams &q = *params;
  Type xType = typeOf(x);
  if (quantize != isa<FloatType>(xType))
    return error() << "input 0 ('" << node->input(0) << "') is "
                   << elementKind(x) << "; "
                   << (quantize ? "QuantizeLinear takes a float tensor"
                                : "DequantizeLinear takes INT8, UINT8 or "
                                  "INT32 values"),
           failure();
  // Each element's scale and zero point: one of them, or its place along
  // the axis.
  int64_t n = *numElements(x.shape);
  Shape strides = stridesOf(x.shape);
  auto paramAt = [&](int64_t k) -> int64_t {
    return q.scale.size() == 1 ? 0 : (k / strides[q.axis]) % x.shape[q.axis];
  };
  Type outType = quantize                   ? Type(b.getI32Type())
                 : runtimeType(q.scaleType) ? runtimeType(q.scaleType)
                                            : Type(b.getF32Type());
  if (x.host) {
    // Known values (a weight's int8 data): the result is known too.
    const HostTensor &h = *x.host;
    Entry e;
    e.shape = x.shape;
    if (quantize) {
      std::vector<int64_t> values(n);
      for (int64_t k = 0; k < n; ++k) {
        int64_t p = paramAt(k);
        double r = std::nearbyint(double(float(h.at(k)) / q.scale[p]));
        r = std::clamp<double>(r + double(q.zeroPoint[p]), q.lo, q.hi);
        values[k] = int64_t(r);
      }
      e.host = HostTensor::ints(x.shape, std::move(values));
      e.onnxType = q.type;
    } else {
      std::vector<float> values(n);
      for (int64_t k = 0; k < n; ++k) {
        int64_t p = paramAt(k);
        values[k] = float(h.intAt(k) - q.zeroPoint[p]) * q.scale[p];
      }
      e.host = HostTensor::floats(x.shape, std::move(values));
      e.onnxType = q.scaleType;
    }
    return define(0, std::move(e));
  }
  // Run-time values: one elementwise op, in the layout the value has (a
  // convolution's NHWC output stays NHWC between convolutions). The
  // quantized integers are held in INT32 (the type records INT8 or UINT8);
  // each is read back exactly.
  bool nhwc = x.nhwc;
  Shape phys = nhwc ? permuted(x.shape, kToNhwc) : x.shape;
  Shape paramShape(rank, 1);
  if (q.scale.size() > 1)
    paramShape[nhwc ? kAxisInNhwc[q.axis] : q.axis] = x.shape[q.axis];
  std::vector<float> zeroPoints(q.zeroPoint.begin(), q.zeroPoint.end());
  Value scaleValue =
      constantOf(HostTensor::floats(paramShape, q.scale), b.getF32Type());
  Value zpValue =
      constantOf(HostTensor::floats(paramShape, zeroPoints), b.getF32Type());
  Type f32 = b.getF32Type();
  double lo = q.lo, hi = q.hi;
  Value y = mapElements(
      {nhwc ? x.value : operandOf(x, rank, xType), scaleValue, zpValue}, phys,
      outType, [&](OpBuilder &nb, Location l, ValueRange v) -> Value {
        Value s = v[1], zp = v[2];
        if (quantize) {
          Value wide = convertElement(nb, l, v[0], f32);
          Value r = math::RoundEvenOp::create(
              nb, l, arith::DivFOp::create(nb, l, wide, s));
          r = arith::AddFOp::create(nb, l, r, zp);
          auto bound = [&](double c) {
            return arith::ConstantOp::create(nb, l, nb.getF32FloatAttr(c));
          };
          r = arith::MaximumFOp::create(nb, l, r, bound(lo));
          r = arith::MinimumFOp::create(nb, l, r, bound(hi));
          return arith::FPToSIOp::create(nb, l, nb.getI32Type(), r);
        }
        Value f = arith::SIToFPOp::create(nb, l, f32, v[0]);
        Value d = arith::MulFOp::create(nb, l,
                                        arith::SubFOp::create(nb, l, f, zp), s);
        return d.getType() == outType
                   ? d
                   : arith::TruncFOp::create(nb, l, outType, d).getResult();
      });
  Entry e = result(y, x.shape, nhwc);
  e.onnxType = quantize ? q.type : q.scaleType;
  return define(0, std::move(e));
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void Importer::registerQuantizationOps(OpRegistry &r) {
  r.add("QuantizeLinear", [](Importer &i) { return i.importQuantize(true); })
      .inputs(2)
      .takesIntegers();
  r.add("DequantizeLinear", [](Importer &i) { return i.importQuantize(false); })
      .inputs(2)
      .takesIntegers();
  // Opset 19: saturate (float 8 outputs, which fuse does not take); opset
  // 21: blocked quantization and output_dtype.
  r.add(
       "QuantizeLinear", [](Importer &i) { return i.importQuantize(true); }, 19)
      .inputs(2)
      .takesIntegers()
      .ownSchema(3, {"axis", "saturate"});
  r.add(
       "QuantizeLinear", [](Importer &i) { return i.importQuantize(true); }, 21)
      .inputs(2)
      .takesIntegers()
      .ownSchema(3, {"axis", "block_size", "output_dtype", "saturate"});
  r.add(
       "DequantizeLinear", [](Importer &i) { return i.importQuantize(false); },
       19)
      .inputs(2)
      .takesIntegers()
      .ownSchema(3, {"axis"});
  r.add(
       "DequantizeLinear", [](Importer &i) { return i.importQuantize(false); },
       21)
      .inputs(2)
      .takesIntegers()
      .ownSchema(3, {"axis", "block_size"});
}
