//===- TypedOps.cpp - run-time integers and booleans in the ONNX importer -===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// Token ids, attention masks and positions arrive as INT64, INT32 or BOOL
// tensors. They stay in their own element type at run time (i64, i32, i1)
// through the ops that move, convert, compare, select, gather and add them;
// every other op takes FLOAT values (importNode refuses an integer there by
// name). Each op here is one elementwise linalg.generic: broadcasting is in
// its indexing maps, and a gather reads the data at its clamped index.
//
//===----------------------------------------------------------------------===//

#include "ImporterImpl.h"

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::onnx_import;
using namespace mlir::fuse::onnx_import::detail;

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

Type Importer::runtimeType(int32_t dt) {
  switch (dt) {
  case onnx::TensorProto::FLOAT:
    return b.getF32Type();
  case onnx::TensorProto::FLOAT16:
    return b.getF16Type();
  case onnx::TensorProto::BFLOAT16:
    return b.getBF16Type();
  case onnx::TensorProto::INT64:
    return b.getI64Type();
  case onnx::TensorProto::INT32:
    return b.getI32Type();
  case onnx::TensorProto::BOOL:
    return b.getI1Type();
  default:
    return {};
  }
}

Type Importer::typeOf(const Entry &e) {
  if (e.value)
    return cast<RankedTensorType>(e.value.getType()).getElementType();
  Type t = runtimeType(e.onnxType);
  if (e.host->isFloat)
    return t && isa<FloatType>(t) ? t : b.getF32Type();
  return t && !isa<FloatType>(t) ? t : b.getI64Type();
}

Value Importer::constantOf(const HostTensor &t, Type elem) {
  if (auto ft = dyn_cast<FloatType>(elem))
    return floatConstant(t.isFloat ? t : t.converted(true), ft);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(entryBlock);
  auto type = RankedTensorType::get(t.shape, elem);
  unsigned width = elem.getIntOrFloatBitWidth();
  SmallVector<APInt> values;
  values.reserve(t.size());
  for (int64_t k = 0; k < t.size(); ++k) {
    if (width == 1)
      values.push_back(APInt(1, t.at(k) != 0.0));
    else
      values.push_back(APInt(width, uint64_t(t.intAt(k)), /*isSigned=*/true,
                             /*implicitTrunc=*/true));
  }
  return arith::ConstantOp::create(b, loc,
                                   DenseElementsAttr::get(type, values));
}

Value Importer::operandOf(Entry &e, size_t rank, Type elem) {
  Shape padded(rank - e.shape.size(), 1);
  padded.append(e.shape.begin(), e.shape.end());
  if (!e.value)
    return constantOf(e.host->reshaped(padded), elem);
  return reshape(logical(e), padded);
}

FailureOr<Type> Importer::commonType(ArrayRef<int> ks) {
  int first = -1;
  Type common;
  auto disagree = [&](int k) {
    return error() << "input " << k << " ('" << node->input(k) << "') is "
                   << elementKind(*input(k)) << " and input " << first << " ('"
                   << node->input(first) << "') is "
                   << elementKind(*input(first)) << ": " << node->op_type()
                   << " takes one element type for both; insert a Cast";
  };
  // The run-time inputs decide, and must agree exactly.
  for (int k : ks)
    if (Entry *e = input(k); e && e->value) {
      if (first < 0) {
        first = k, common = typeOf(*e);
        continue;
      }
      if (typeOf(*e) != common)
        return disagree(k), failure();
    }
  if (first < 0)
    for (int k : ks)
      if (input(k)) {
        first = k, common = typeOf(*input(k));
        break;
      }
  // Known inputs convert to it, float to float and integer to integer.
  for (int k : ks)
    if (Entry *e = input(k);
        e && !e->value && e->host->isFloat != isa<FloatType>(common))
      return disagree(k), failure();
  return common;
}

FailureOr<Shape> Importer::broadcastAll(ArrayRef<Entry *> operands) {
  std::optional<Shape> out = Shape{};
  for (Entry *e : operands)
    if (out)
      out = broadcastShapes(*out, e->shape);
  if (out)
    return *out;
  InFlightDiagnostic d = error();
  d << "shapes";
  for (auto [k, e] : llvm::enumerate(operands))
    d << (k == 0                     ? " "
          : k + 1 == operands.size() ? " and "
                                     : ", ")
      << shapeStr(e->shape);
  return d << " do not broadcast", failure();
}

Value Importer::mapElements(
    ArrayRef<Value> operands, ArrayRef<int64_t> out, Type elem,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  int64_t rank = out.size();
  SmallVector<Value> ins;
  SmallVector<AffineMap> maps;
  for (Value v : operands) {
    ArrayRef<int64_t> s = shapeOf(v);
    Shape kept;
    SmallVector<AffineExpr> dims;
    for (int64_t d = 0; d < rank; ++d)
      if (s[d] == out[d]) {
        kept.push_back(s[d]);
        dims.push_back(b.getAffineDimExpr(d));
      }
    ins.push_back(reshape(v, kept));
    maps.push_back(AffineMap::get(rank, 0, dims, ctx));
  }
  maps.push_back(b.getMultiDimIdentityMap(rank));
  Value init = tensor::EmptyOp::create(b, loc, out, elem);
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ins, ValueRange{init}, maps, iters,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        linalg::YieldOp::create(nb, l, body(nb, l, args.drop_back()));
      });
  return generic.getResult(0);
}

FailureOr<Entry> Importer::mapEntries(
    ArrayRef<Entry *> operands, Type operandType, Type resultType,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  FailureOr<Shape> out = broadcastAll(operands);
  if (failed(out))
    return failure();
  SmallVector<Value> values;
  for (Entry *e : operands)
    values.push_back(operandOf(*e, out->size(), operandType));
  return result(mapElements(values, *out, resultType, body), *out, false);
}

//===----------------------------------------------------------------------===//
// Cast
//===----------------------------------------------------------------------===//

/// Element x converted to `to` as ONNX's Cast does: floats to integers
/// toward zero, anything to BOOL as "nonzero" (NaN is nonzero), BOOL to 0
/// or 1, integers sign-extended or truncated. A float outside the target's
/// range has no defined result in ONNX; here it is what the CPU's or GPU's
/// conversion gives.
Value mlir::fuse::onnx_import::detail::convertElement(OpBuilder &b, Location l,
                                                      Value x, Type to) {
  Type from = x.getType();
  if (from == to)
    return x;
  if (isa<FloatType>(from) && isa<FloatType>(to)) {
    unsigned fromWidth = from.getIntOrFloatBitWidth();
    unsigned toWidth = to.getIntOrFloatBitWidth();
    if (fromWidth == toWidth) // f16 <-> bf16: exactly through f32
      return arith::TruncFOp::create(
          b, l, to, arith::ExtFOp::create(b, l, b.getF32Type(), x));
    return fromWidth < toWidth
               ? arith::ExtFOp::create(b, l, to, x).getResult()
               : arith::TruncFOp::create(b, l, to, x).getResult();
  }
  if (to.isInteger(1)) {
    Value zero = arith::ConstantOp::create(b, l, b.getZeroAttr(from));
    if (isa<FloatType>(from))
      return arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNE, x, zero);
    return arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, x, zero);
  }
  if (isa<FloatType>(to))
    return from.isInteger(1) ? arith::UIToFPOp::create(b, l, to, x).getResult()
                             : arith::SIToFPOp::create(b, l, to, x).getResult();
  if (isa<FloatType>(from))
    return arith::FPToSIOp::create(b, l, to, x);
  if (from.isInteger(1))
    return arith::ExtUIOp::create(b, l, to, x);
  if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
    return arith::ExtSIOp::create(b, l, to, x);
  return arith::TruncIOp::create(b, l, to, x);
}

LogicalResult Importer::importCast() {
  FailureOr<int64_t> to = intAttr("to", 0);
  if (failed(to))
    return failure();
  Type target = runtimeType(int32_t(*to));
  if (!target)
    return error() << "casting a run-time value to " << typeName(int32_t(*to))
                   << " is not supported (run-time values are FLOAT, "
                      "FLOAT16, BFLOAT16, INT64, INT32 or BOOL)",
           failure();
  Entry &x = *input(0);
  Type from = typeOf(x);
  if (from == target) {
    Entry same = x;
    same.onnxType = int32_t(*to);
    return define(0, std::move(same));
  }
  size_t rank = x.shape.size();
  Value y = mapElements({operandOf(x, rank, from)}, x.shape, target,
                        [&](OpBuilder &nb, Location l, ValueRange v) {
                          return convertElement(nb, l, v[0], target);
                        });
  Entry e = result(y, x.shape, false);
  e.onnxType = int32_t(*to);
  return define(0, std::move(e));
}

//===----------------------------------------------------------------------===//
// Comparisons, logic and integer arithmetic
//===----------------------------------------------------------------------===//

LogicalResult Importer::importCompare(StringRef kind) {
  FailureOr<Type> elem = commonType({0, 1});
  if (failed(elem))
    return failure();
  if (elem->isInteger(1) && kind != "Equal")
    return error() << kind << " does not take BOOL inputs", failure();
  bool isFloat = isa<FloatType>(*elem);
  // Ordered float comparisons (false on NaN), signed integer ones.
  struct Predicates {
    StringRef kind;
    arith::CmpFPredicate onFloats;
    arith::CmpIPredicate onIntegers;
  };
  static const Predicates table[] = {
      {"Equal", arith::CmpFPredicate::OEQ, arith::CmpIPredicate::eq},
      {"Less", arith::CmpFPredicate::OLT, arith::CmpIPredicate::slt},
      {"Greater", arith::CmpFPredicate::OGT, arith::CmpIPredicate::sgt},
      {"LessOrEqual", arith::CmpFPredicate::OLE, arith::CmpIPredicate::sle},
      {"GreaterOrEqual", arith::CmpFPredicate::OGE, arith::CmpIPredicate::sge}};
  const Predicates &p = *llvm::find_if(
      table, [&](const Predicates &q) { return q.kind == kind; });
  arith::CmpFPredicate fp = p.onFloats;
  arith::CmpIPredicate ip = p.onIntegers;
  FailureOr<Entry> y =
      mapEntries({input(0), input(1)}, *elem, b.getI1Type(),
                 [&](OpBuilder &nb, Location l, ValueRange v) -> Value {
                   if (isFloat)
                     return arith::CmpFOp::create(nb, l, fp, v[0], v[1]);
                   return arith::CmpIOp::create(nb, l, ip, v[0], v[1]);
                 });
  if (failed(y))
    return failure();
  y->onnxType = onnx::TensorProto::BOOL;
  return define(0, std::move(*y));
}

LogicalResult Importer::importLogic(StringRef kind) {
  SmallVector<Entry *> operands;
  for (int k = 0; k < numInputs(); ++k) {
    Entry &e = *input(k);
    if (!typeOf(e).isInteger(1) && (e.value || e.host->isFloat))
      return error() << "input " << k << " ('" << node->input(k)
                     << "') must be BOOL, not " << elementKind(e),
             failure();
    operands.push_back(&e);
  }
  FailureOr<Entry> y =
      mapEntries(operands, b.getI1Type(), b.getI1Type(),
                 [&](OpBuilder &nb, Location l, ValueRange v) -> Value {
                   if (kind == "Not") {
                     Value one =
                         arith::ConstantOp::create(nb, l, nb.getBoolAttr(true));
                     return arith::XOrIOp::create(nb, l, v[0], one);
                   }
                   if (kind == "And")
                     return arith::AndIOp::create(nb, l, v[0], v[1]);
                   if (kind == "Or")
                     return arith::OrIOp::create(nb, l, v[0], v[1]);
                   return arith::XOrIOp::create(nb, l, v[0], v[1]);
                 });
  if (failed(y))
    return failure();
  y->onnxType = onnx::TensorProto::BOOL;
  return define(0, std::move(*y));
}

LogicalResult Importer::importIntegerArith(StringRef kind) {
  SmallVector<int> ks;
  SmallVector<Entry *> operands;
  for (int k = 0; k < numInputs(); ++k) {
    ks.push_back(k);
    operands.push_back(input(k));
  }
  FailureOr<Type> elem = commonType(ks);
  if (failed(elem))
    return failure();
  if (elem->isInteger(1))
    return error() << kind << " does not take BOOL inputs", failure();
  // Quantized values are held in INT32; 8-bit arithmetic would wrap at 8
  // bits.
  for (Entry *e : operands)
    if (e->value && (e->onnxType == onnx::TensorProto::INT8 ||
                     e->onnxType == onnx::TensorProto::UINT8))
      return error() << kind << " of " << typeName(e->onnxType)
                     << " run-time values is not supported (dequantize them "
                        "first)",
             failure();
  // Wrapping arithmetic, as ONNX runtimes compute integers.
  FailureOr<Entry> y = mapEntries(
      operands, *elem, *elem, [&](OpBuilder &nb, Location l, ValueRange v) {
        Value acc = v[0];
        for (Value x : v.drop_front()) {
          if (kind == "Add")
            acc = arith::AddIOp::create(nb, l, acc, x);
          else if (kind == "Sub")
            acc = arith::SubIOp::create(nb, l, acc, x);
          else if (kind == "Mul")
            acc = arith::MulIOp::create(nb, l, acc, x);
          else if (kind == "Max")
            acc = arith::MaxSIOp::create(nb, l, acc, x);
          else
            acc = arith::MinSIOp::create(nb, l, acc, x);
        }
        return acc;
      });
  if (failed(y))
    return failure();
  y->onnxType = typeOf(*operands.front()) == *elem
                    ? operands.front()->onnxType
                    : int32_t(onnx::TensorProto::UNDEFINED);
  return define(0, std::move(*y));
}

//===----------------------------------------------------------------------===//
// Gather
//===----------------------------------------------------------------------===//

/// Index `i` (of an integer type) as an index into a dimension of `dim`:
/// negative counts from the end, and anything outside is clamped into it.
static Value clampedIndex(OpBuilder &b, Location l, Value i, int64_t dim) {
  auto cst = [&](int64_t c) {
    return arith::ConstantIndexOp::create(b, l, c).getResult();
  };
  i = arith::IndexCastOp::create(b, l, b.getIndexType(), i);
  Value negative =
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, i, cst(0));
  Value wrapped = arith::AddIOp::create(b, l, i, cst(dim));
  i = arith::SelectOp::create(b, l, negative, wrapped, i);
  i = arith::MaxSIOp::create(b, l, i, cst(0));
  return arith::MinSIOp::create(b, l, i, cst(dim - 1));
}

LogicalResult Importer::checkIndices(Entry &idx, int64_t dim) {
  Type type = typeOf(idx);
  if (isa<FloatType>(type) || type.isInteger(1))
    return error() << "indices (input 1, '" << node->input(1)
                   << "') must be INT64 or INT32, not " << elementKind(idx),
           failure();
  if (idx.host)
    for (int64_t k = 0; k < idx.host->size(); ++k)
      if (int64_t i = idx.host->intAt(k); i < -dim || i >= dim)
        return error() << "index " << i << " is out of range for dimension "
                       << dim,
               failure();
  return success();
}

LogicalResult Importer::importGatherByIndex() {
  Entry &x = *input(0), &idx = *input(1);
  int64_t rank = x.shape.size();
  FailureOr<int64_t> axis = axisAttr(rank);
  if (failed(axis))
    return failure();
  int64_t dim = x.shape[*axis];
  if (failed(checkIndices(idx, dim)))
    return failure();
  Type idxType = typeOf(idx);
  Shape out(x.shape.begin(), x.shape.begin() + *axis);
  out.append(idx.shape.begin(), idx.shape.end());
  out.append(x.shape.begin() + *axis + 1, x.shape.end());
  Type elem = typeOf(x);
  if (out.size() > kMaxRank)
    return error() << "the output has rank " << out.size() << "; at most "
                   << kMaxRank << " dimensions are supported (TOSA's limit)",
           failure();
  if (tooManyBytes(out, elementBytes(elem)))
    return error() << "the output " << shapeStr(out) << " is too large",
           failure();
  Value data = operandOf(x, rank, elem);
  Value indices = operandOf(idx, idx.shape.size(), idxType);
  int64_t r = idx.shape.size(), outRank = out.size();
  SmallVector<AffineExpr> idxDims;
  for (int64_t d = 0; d < r; ++d)
    idxDims.push_back(b.getAffineDimExpr(*axis + d));
  SmallVector<AffineMap> maps = {AffineMap::get(outRank, 0, idxDims, ctx),
                                 b.getMultiDimIdentityMap(outRank)};
  Value init = tensor::EmptyOp::create(b, loc, out, elem);
  SmallVector<utils::IteratorType> iters(outRank,
                                         utils::IteratorType::parallel);
  // A negative index counts from the end; one outside [-dim, dim) (which
  // ONNX leaves undefined) is clamped into the data, never read past it.
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ValueRange{indices}, ValueRange{init},
      maps, iters, [&](OpBuilder &nb, Location l, ValueRange args) {
        Value i = clampedIndex(nb, l, args[0], dim);
        SmallVector<Value> at;
        for (int64_t d = 0; d < *axis; ++d)
          at.push_back(linalg::IndexOp::create(nb, l, d));
        at.push_back(i);
        for (int64_t d = *axis + 1; d < rank; ++d)
          at.push_back(linalg::IndexOp::create(nb, l, d - 1 + r));
        linalg::YieldOp::create(
            nb, l, tensor::ExtractOp::create(nb, l, data, at).getResult());
      });
  Entry e = result(generic.getResult(0), out, false);
  e.onnxType = x.onnxType;
  return define(0, std::move(e));
}

FailureOr<int64_t> Importer::axisAttr(int64_t rank, int64_t dflt) {
  FailureOr<int64_t> axis = intAttr("axis", dflt);
  if (failed(axis))
    return failure();
  return normAxis(*axis, rank);
}

LogicalResult Importer::importGatherElements() {
  Entry &x = *input(0), &idx = *input(1);
  int64_t rank = x.shape.size();
  FailureOr<int64_t> axis = axisAttr(rank);
  if (failed(axis))
    return failure();
  if (failed(checkIndices(idx, x.shape[*axis])))
    return failure();
  Type idxType = typeOf(idx);
  if (int64_t(idx.shape.size()) != rank)
    return error() << "indices " << shapeStr(idx.shape)
                   << " must have the data's rank (" << rank << ")",
           failure();
  for (int64_t d = 0; d < rank; ++d)
    if (d != *axis && idx.shape[d] > x.shape[d])
      return error() << "indices " << shapeStr(idx.shape)
                     << " are larger than the data " << shapeStr(x.shape)
                     << " in dimension " << d,
             failure();
  int64_t dim = x.shape[*axis];
  Type elem = typeOf(x);
  Value data = operandOf(x, rank, elem);
  Value indices = operandOf(idx, rank, idxType);
  Value init = tensor::EmptyOp::create(b, loc, idx.shape, elem);
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  SmallVector<AffineMap> maps(2, b.getMultiDimIdentityMap(rank));
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ValueRange{indices}, ValueRange{init},
      maps, iters, [&](OpBuilder &nb, Location l, ValueRange args) {
        SmallVector<Value> at;
        for (int64_t d = 0; d < rank; ++d)
          at.push_back(d == *axis ? clampedIndex(nb, l, args[0], dim)
                                  : linalg::IndexOp::create(nb, l, d));
        linalg::YieldOp::create(
            nb, l, tensor::ExtractOp::create(nb, l, data, at).getResult());
      });
  Entry e = result(generic.getResult(0), idx.shape, false);
  e.onnxType = x.onnxType;
  return define(0, std::move(e));
}

/// The map of a `loops`-dimensional iteration space onto its first `n`
/// dimensions (for n = 0 a map with no results: the identity's major
/// submap would be a null map).
static AffineMap leadingDims(int64_t loops, int64_t n, MLIRContext *ctx) {
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < n; ++d)
    exprs.push_back(getAffineDimExpr(d, ctx));
  return AffineMap::get(loops, 0, exprs, ctx);
}

/// A generic over `out`'s dimensions plus one innermost reduction
/// dimension that walks `axis` of `in` (of `out`'s rank, or one more when
/// `dropAxis`): `in` is read with the walked index at `axis`, the output
/// keeps `init`'s value where `body` says so. Returns the generic's result.
static Value reduceAlong(
    OpBuilder &b, Location loc, Value in, Value init, int64_t axis,
    bool dropAxis, ArrayRef<Value> broadcastAlongAxis,
    function_ref<Value(OpBuilder &, Location, ValueRange, Value, Value)> body) {
  auto outType = cast<RankedTensorType>(init.getType());
  int64_t outRank = outType.getRank(), loops = outRank + 1;
  MLIRContext *ctx = b.getContext();
  // `in` reads the output position with the reduction dimension at `axis`.
  SmallVector<AffineExpr> inExprs;
  for (int64_t d = 0, o = 0; d < outRank + (dropAxis ? 1 : 0); ++d) {
    if (d == axis) {
      inExprs.push_back(b.getAffineDimExpr(outRank));
      if (!dropAxis)
        ++o;
      continue;
    }
    inExprs.push_back(b.getAffineDimExpr(o++));
  }
  SmallVector<AffineMap> maps = {AffineMap::get(loops, 0, inExprs, ctx)};
  SmallVector<Value> ins = {in};
  AffineMap outMap = leadingDims(loops, outRank, ctx);
  for (Value v : broadcastAlongAxis) {
    ins.push_back(v);
    maps.push_back(outMap);
  }
  maps.push_back(outMap);
  SmallVector<utils::IteratorType> iters(outRank,
                                         utils::IteratorType::parallel);
  iters.push_back(utils::IteratorType::reduction);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{outType}, ins, ValueRange{init}, maps, iters,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value walked = linalg::IndexOp::create(nb, l, outRank);
        Value position =
            dropAxis ? Value() : linalg::IndexOp::create(nb, l, axis);
        linalg::YieldOp::create(nb, l, body(nb, l, args, walked, position));
      });
  return generic.getResult(0);
}

LogicalResult Importer::importCumSum() {
  Entry &x = *input(0);
  int64_t rank = x.shape.size();
  if (rank == 0)
    return error() << "the input must have at least one dimension", failure();
  FailureOr<const HostTensor *> axisValue = constInput(1, "axis");
  if (failed(axisValue))
    return failure();
  if ((*axisValue)->size() != 1 || (*axisValue)->isFloat)
    return error() << "axis (input 1) must be one integer", failure();
  FailureOr<int64_t> axis = normAxis((*axisValue)->intAt(0), rank);
  FailureOr<int64_t> exclusive = intAttr("exclusive", 0);
  FailureOr<int64_t> reverse = intAttr("reverse", 0);
  if (failed(axis) || failed(exclusive) || failed(reverse))
    return failure();
  Type elem = typeOf(x);
  if (elem.isInteger(1))
    return error() << "CumSum does not take BOOL inputs", failure();
  Value in = operandOf(x, rank, elem);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(elem));
  Value empty = tensor::EmptyOp::create(b, loc, x.shape, elem);
  Value init = linalg::FillOp::create(b, loc, zero, empty).getResult(0);
  // y[i] = sum of x[j] over j <= i (j < i exclusive; j >= i, j > i
  // reversed): each output element sums its prefix.
  arith::CmpIPredicate keep =
      *reverse
          ? (*exclusive ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::sge)
          : (*exclusive ? arith::CmpIPredicate::slt
                        : arith::CmpIPredicate::sle);
  bool isFloat = isa<FloatType>(elem);
  Value y = reduceAlong(
      b, loc, in, init, *axis, /*dropAxis=*/false, {},
      [&](OpBuilder &nb, Location l, ValueRange args, Value j, Value i) {
        Value take = arith::CmpIOp::create(nb, l, keep, j, i);
        Value z = arith::ConstantOp::create(nb, l, nb.getZeroAttr(elem));
        Value term = arith::SelectOp::create(nb, l, take, args[0], z);
        return isFloat
                   ? arith::AddFOp::create(nb, l, args[1], term).getResult()
                   : arith::AddIOp::create(nb, l, args[1], term).getResult();
      });
  Entry e = result(y, x.shape, false);
  e.onnxType = x.onnxType;
  return define(0, std::move(e));
}

LogicalResult Importer::importArgExtreme(bool isMax) {
  Entry &x = *input(0);
  int64_t rank = x.shape.size();
  if (rank == 0)
    return error() << "the input must have at least one dimension", failure();
  FailureOr<int64_t> axis = axisAttr(rank);
  FailureOr<int64_t> keepdims = intAttr("keepdims", 1);
  FailureOr<int64_t> last = intAttr("select_last_index", 0);
  if (failed(axis) || failed(keepdims) || failed(last))
    return failure();
  Type elem = typeOf(x);
  if (elem.isInteger(1))
    return error() << node->op_type() << " does not take BOOL inputs",
           failure();
  bool isFloat = isa<FloatType>(elem);
  Value in = operandOf(x, rank, elem);
  Shape reduced(x.shape);
  reduced.erase(reduced.begin() + *axis);
  // The extreme first: -inf (+inf) or the integer type's limit to start.
  TypedAttr start;
  if (isFloat)
    start = b.getFloatAttr(elem, isMax ? -INFINITY : INFINITY);
  else {
    unsigned width = elem.getIntOrFloatBitWidth();
    start = b.getIntegerAttr(elem, isMax ? APInt::getSignedMinValue(width)
                                         : APInt::getSignedMaxValue(width));
  }
  Value startValue = arith::ConstantOp::create(b, loc, start);
  Value extremeInit =
      linalg::FillOp::create(
          b, loc, startValue,
          tensor::EmptyOp::create(b, loc, reduced, elem).getResult())
          .getResult(0);
  Value extreme = reduceAlong(
      b, loc, in, extremeInit, *axis, /*dropAxis=*/true, {},
      [&](OpBuilder &nb, Location l, ValueRange args, Value, Value) -> Value {
        if (isFloat)
          return isMax ? arith::MaxNumFOp::create(nb, l, args[0], args[1])
                             .getResult()
                       : arith::MinNumFOp::create(nb, l, args[0], args[1])
                             .getResult();
        return isMax
                   ? arith::MaxSIOp::create(nb, l, args[0], args[1]).getResult()
                   : arith::MinSIOp::create(nb, l, args[0], args[1])
                         .getResult();
      });
  // Then the first (smallest) or last (largest) index that holds it.
  Type i64 = b.getI64Type();
  Value none = arith::ConstantOp::create(
      b, loc,
      b.getI64IntegerAttr(*last ? -1 : std::numeric_limits<int64_t>::max()));
  Value indexInit =
      linalg::FillOp::create(
          b, loc, none,
          tensor::EmptyOp::create(b, loc, reduced, i64).getResult())
          .getResult(0);
  Value index = reduceAlong(
      b, loc, in, indexInit, *axis, /*dropAxis=*/true, {extreme},
      [&](OpBuilder &nb, Location l, ValueRange args, Value j, Value) -> Value {
        Value hit =
            isFloat ? arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OEQ,
                                            args[0], args[1])
                          .getResult()
                    : arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq,
                                            args[0], args[1])
                          .getResult();
        Value jv = arith::IndexCastOp::create(nb, l, nb.getI64Type(), j);
        Value noHit = arith::ConstantOp::create(
            nb, l,
            nb.getI64IntegerAttr(*last ? -1
                                       : std::numeric_limits<int64_t>::max()));
        Value candidate = arith::SelectOp::create(nb, l, hit, jv, noHit);
        return *last ? arith::MaxSIOp::create(nb, l, args[2], candidate)
                           .getResult()
                     : arith::MinSIOp::create(nb, l, args[2], candidate)
                           .getResult();
      });
  Shape out = reduced;
  if (*keepdims) {
    out = x.shape;
    out[*axis] = 1;
    index = reshape(index, out);
  }
  Entry e = result(index, out, false);
  e.onnxType = onnx::TensorProto::INT64;
  return define(0, std::move(e));
}

LogicalResult Importer::importPowIntegerExponent() {
  Entry &x = *input(0), &y = *input(1);
  if (!isa<FloatType>(typeOf(x)))
    return error() << "Pow of integer run-time values is not supported "
                      "(the base must be a float type)",
           failure();
  if (typeOf(y).isInteger(1))
    return error() << "the exponent must not be BOOL", failure();
  size_t rank = y.shape.size();
  Value exponent =
      mapElements({operandOf(y, rank, typeOf(y))}, y.shape, typeOf(x),
                  [&](OpBuilder &nb, Location l, ValueRange v) {
                    return convertElement(nb, l, v[0], typeOf(x));
                  });
  Entry e = result(exponent, y.shape, false);
  FailureOr<Entry> r = broadcastBinary("Pow", x, e);
  return failed(r) ? failure() : define(0, std::move(*r));
}

LogicalResult Importer::importTopK() {
  Entry &x = *input(0);
  int64_t rank = x.shape.size();
  if (rank == 0)
    return error() << "the input must have at least one dimension", failure();
  FailureOr<int64_t> axis = axisAttr(rank, -1);
  FailureOr<int64_t> largest = intAttr("largest", 1);
  FailureOr<int64_t> sorted = intAttr("sorted", 1);
  if (failed(axis) || failed(largest) || failed(sorted))
    return failure();
  // K: an attribute before opset 10, then input 1 (known at import time).
  int64_t k;
  if (opset < 10) {
    FailureOr<int64_t> kAttr = intAttr("k", -1);
    if (failed(kAttr))
      return failure();
    k = *kAttr;
  } else {
    FailureOr<const HostTensor *> kValue = constInput(1, "K");
    if (failed(kValue))
      return failure();
    if ((*kValue)->size() != 1 || (*kValue)->isFloat)
      return error() << "K (input 1) must be one integer", failure();
    k = (*kValue)->intAt(0);
  }
  int64_t n = x.shape[*axis];
  if (k < 1 || k > n)
    return error() << "K = " << k << " must be in [1, " << n
                   << "] (the size of axis " << *axis << ")",
           failure();
  if (n > kMaxTopKAxis)
    return error() << "axis " << *axis << " has " << n
                   << " elements; TopK ranks each element against the whole "
                      "axis and takes at most "
                   << kMaxTopKAxis,
           failure();
  Type elem = typeOf(x);
  if (elem.isInteger(1))
    return error() << "TopK does not take BOOL inputs", failure();
  bool isFloat = isa<FloatType>(elem);
  Value in = operandOf(x, rank, elem);
  Type i64 = b.getI64Type();
  // Each element's place in the order: how many elements of its axis come
  // before it (larger, or smaller, or equal at a smaller index: ties keep
  // the lower index first, as ONNX asks).
  Value zero = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(0));
  Value placeInit =
      linalg::FillOp::create(
          b, loc, zero,
          tensor::EmptyOp::create(b, loc, x.shape, i64).getResult())
          .getResult(0);
  Value place = reduceAlong(
      b, loc, in, placeInit, *axis, /*dropAxis=*/false, {in},
      [&](OpBuilder &nb, Location l, ValueRange args, Value j,
          Value i) -> Value {
        Value other = args[0], self = args[1];
        Value before, equal;
        if (isFloat) {
          before = arith::CmpFOp::create(nb, l,
                                         *largest ? arith::CmpFPredicate::OGT
                                                  : arith::CmpFPredicate::OLT,
                                         other, self);
          equal = arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OEQ, other,
                                        self);
        } else {
          before = arith::CmpIOp::create(nb, l,
                                         *largest ? arith::CmpIPredicate::sgt
                                                  : arith::CmpIPredicate::slt,
                                         other, self);
          equal = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, other,
                                        self);
        }
        Value lower =
            arith::CmpIOp::create(nb, l, arith::CmpIPredicate::ult, j, i);
        Value counts = arith::OrIOp::create(
            nb, l, before, arith::AndIOp::create(nb, l, equal, lower));
        return arith::AddIOp::create(
            nb, l, args[2],
            arith::ExtUIOp::create(nb, l, nb.getI64Type(), counts));
      });
  // Output place p holds the element whose place is p: one reduction over
  // the axis selecting it, for the value and for its index.
  Shape outShape(x.shape);
  outShape[*axis] = k;
  unsigned loops = rank + 1;
  SmallVector<AffineExpr> walked;
  for (int64_t d = 0; d < rank; ++d)
    walked.push_back(b.getAffineDimExpr(d == *axis ? rank : d));
  AffineMap inMap = AffineMap::get(loops, 0, walked, ctx);
  AffineMap outMap = leadingDims(loops, rank, ctx);
  // (Every place below K has exactly one element unless the axis holds
  // NaN, which no comparison orders: such places read 0 at index -1.)
  Value valueInit =
      linalg::FillOp::create(
          b, loc,
          arith::ConstantOp::create(b, loc, b.getZeroAttr(elem)).getResult(),
          tensor::EmptyOp::create(b, loc, outShape, elem).getResult())
          .getResult(0);
  Value indexInit =
      linalg::FillOp::create(
          b, loc,
          arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(-1))
              .getResult(),
          tensor::EmptyOp::create(b, loc, outShape, i64).getResult())
          .getResult(0);
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  iters.push_back(utils::IteratorType::reduction);
  auto select = linalg::GenericOp::create(
      b, loc, TypeRange{valueInit.getType(), indexInit.getType()},
      ValueRange{in, place}, ValueRange{valueInit, indexInit},
      {inMap, inMap, outMap, outMap}, iters,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value p = arith::IndexCastOp::create(
            nb, l, nb.getI64Type(), linalg::IndexOp::create(nb, l, *axis));
        Value i = arith::IndexCastOp::create(
            nb, l, nb.getI64Type(), linalg::IndexOp::create(nb, l, rank));
        Value hit =
            arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, args[1], p);
        linalg::YieldOp::create(
            nb, l,
            ValueRange{arith::SelectOp::create(nb, l, hit, args[0], args[2]),
                       arith::SelectOp::create(nb, l, hit, i, args[3])});
      });
  if (failed(define(0, result(select.getResult(0), outShape, false))))
    return failure();
  Entry indices = result(select.getResult(1), outShape, false);
  indices.onnxType = onnx::TensorProto::INT64;
  return define(1, std::move(indices));
}

LogicalResult Importer::importScatterND() {
  Entry &data = *input(0), &indices = *input(1), &updates = *input(2);
  int64_t r = data.shape.size(), q = indices.shape.size();
  FailureOr<std::string> reduction = stringAttr("reduction", "none");
  if (failed(reduction))
    return failure();
  bool extreme = *reduction == "max" || *reduction == "min";
  if (!llvm::is_contained({"none", "add", "mul"}, *reduction) &&
      !(extreme && opset >= 18))
    return error() << "reduction '" << *reduction << "' is not supported ("
                   << (opset >= 18 ? "none, add, mul, max, min"
                                   : "none, add, mul; max and min from "
                                     "opset 18")
                   << ")",
           failure();
  if (r == 0 || q == 0)
    return error() << "data and indices must have at least one dimension",
           failure();
  int64_t k = indices.shape.back();
  if (k < 1 || k > r)
    return error() << "the last dimension of indices (" << k
                   << ") must be in [1, " << r << "] (the rank of data)",
           failure();
  Shape expected(indices.shape.begin(), indices.shape.end() - 1);
  expected.append(data.shape.begin() + k, data.shape.end());
  if (updates.shape != expected)
    return error() << "updates are " << shapeStr(updates.shape) << "; indices "
                   << shapeStr(indices.shape) << " into data "
                   << shapeStr(data.shape) << " take " << shapeStr(expected),
           failure();
  Type idxType = typeOf(indices);
  if (!idxType.isInteger(64) && !idxType.isInteger(32))
    return error() << "indices must be INT64 or INT32, not "
                   << elementKind(indices),
           failure();
  FailureOr<Type> elem = commonType({0, 2});
  if (failed(elem))
    return failure();
  if (elem->isInteger(1) && *reduction != "none")
    return error() << "reduction '" << *reduction
                   << "' does not take BOOL data",
           failure();
  // One output point compared with every update entry: the work is their
  // product.
  int64_t entries = 1;
  for (int64_t d = 0; d + 1 < q; ++d)
    entries *= indices.shape[d];
  std::optional<int64_t> points = numElements(data.shape);
  if (!points || entries > kMaxScatterWork / std::max<int64_t>(1, *points))
    return error() << "each of the " << points.value_or(0)
                   << " output elements would be compared with each of the "
                   << entries << " update entries (more than "
                   << kMaxScatterWork << " comparisons)",
           failure();
  Value dataValue = operandOf(data, r, *elem);
  Value updateValue = operandOf(updates, expected.size(), *elem);
  Value indexValue = operandOf(indices, q, idxType);
  // Loops: the output's r dimensions, then the q - 1 dimensions of the
  // update entries (reductions, in order: the last duplicate wins).
  int64_t u = q - 1, loops = r + u;
  SmallVector<AffineExpr> updateExprs;
  for (int64_t d = 0; d < u; ++d)
    updateExprs.push_back(b.getAffineDimExpr(r + d));
  for (int64_t d = k; d < r; ++d)
    updateExprs.push_back(b.getAffineDimExpr(d));
  AffineMap updateMap = AffineMap::get(loops, 0, updateExprs, ctx);
  AffineMap outMap = leadingDims(loops, r, ctx);
  SmallVector<utils::IteratorType> iters(r, utils::IteratorType::parallel);
  iters.append(u, utils::IteratorType::reduction);
  bool isFloat = isa<FloatType>(*elem);
  StringRef kind = *reduction;
  auto scatter = linalg::GenericOp::create(
      b, loc, TypeRange{dataValue.getType()}, ValueRange{updateValue},
      ValueRange{dataValue}, {updateMap, outMap}, iters,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        // The entry's index (negative: from the end) against the point.
        SmallVector<Value> at;
        for (int64_t d = 0; d < u; ++d)
          at.push_back(linalg::IndexOp::create(nb, l, r + d));
        at.push_back(Value());
        Value match;
        for (int64_t c = 0; c < k; ++c) {
          at.back() = arith::ConstantIndexOp::create(nb, l, c);
          Value i = arith::IndexCastOp::create(
              nb, l, nb.getIndexType(),
              tensor::ExtractOp::create(nb, l, indexValue, at));
          Value dim = arith::ConstantIndexOp::create(nb, l, data.shape[c]);
          Value negative =
              arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt, i,
                                    arith::ConstantIndexOp::create(nb, l, 0));
          i = arith::SelectOp::create(nb, l, negative,
                                      arith::AddIOp::create(nb, l, i, dim), i);
          Value same = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, i,
                                             linalg::IndexOp::create(nb, l, c));
          match = match ? arith::AndIOp::create(nb, l, match, same) : same;
        }
        Value acc = args[1], upd = args[0], combined = upd;
        if (kind == "add")
          combined = isFloat
                         ? arith::AddFOp::create(nb, l, acc, upd).getResult()
                         : arith::AddIOp::create(nb, l, acc, upd).getResult();
        else if (kind == "mul")
          combined = isFloat
                         ? arith::MulFOp::create(nb, l, acc, upd).getResult()
                         : arith::MulIOp::create(nb, l, acc, upd).getResult();
        else if (kind == "max")
          combined =
              isFloat ? arith::MaximumFOp::create(nb, l, acc, upd).getResult()
                      : arith::MaxSIOp::create(nb, l, acc, upd).getResult();
        else if (kind == "min")
          combined =
              isFloat ? arith::MinimumFOp::create(nb, l, acc, upd).getResult()
                      : arith::MinSIOp::create(nb, l, acc, upd).getResult();
        linalg::YieldOp::create(
            nb, l,
            ValueRange{arith::SelectOp::create(nb, l, match, combined, acc)});
      });
  return define(0, result(scatter.getResult(0), data.shape, false));
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void Importer::registerTensorOps(OpRegistry &r) {
  r.add("Cast", [](Importer &i) { return i.importCast(); }).takesIntegers();
  // Opset 19: saturate, for conversions to float 8 types (not taken).
  r.add(
       "Cast", [](Importer &i) { return i.importCast(); }, 19)
      .takesIntegers()
      .ownSchema(1, {"saturate", "to"});
  for (StringRef op :
       {"Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual"})
    r.add(op, [](Importer &i) { return i.importCompare(i.node->op_type()); })
        .inputs(2)
        .takesIntegers();
  for (StringRef op : {"And", "Or", "Xor"})
    r.add(op, [](Importer &i) { return i.importLogic(i.node->op_type()); })
        .inputs(2)
        .takesIntegers();
  r.add("Not", [](Importer &i) {
     return i.importLogic("Not");
   }).takesIntegers();
  r.add("GatherElements", [](Importer &i) { return i.importGatherElements(); })
      .inputs(2)
      .takesIntegers();
  r.add("ArgMax", [](Importer &i) {
     return i.importArgExtreme(true);
   }).takesIntegers();
  r.add("ArgMin", [](Importer &i) {
     return i.importArgExtreme(false);
   }).takesIntegers();
  r.add("TopK", [](Importer &i) { return i.importTopK(); }).takesIntegers();
  // CumSum and ScatterND's sums of 16-bit values are computed in f32.
  r.add("CumSum", [](Importer &i) { return i.importCumSum(); })
      .inputs(2)
      .takesIntegers()
      .in16Bit(false);
  r.add("ScatterND", [](Importer &i) { return i.importScatterND(); })
      .inputs(3)
      .takesIntegers()
      .in16Bit(false);
  // Opset 18: the reductions max and min.
  r.add(
       "ScatterND", [](Importer &i) { return i.importScatterND(); }, 18)
      .inputs(3)
      .takesIntegers()
      .in16Bit(false)
      .ownSchema(3, {"reduction"});
}
