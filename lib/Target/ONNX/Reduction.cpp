//===- Reduction.cpp - ONNX reductions and row normalizations -------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// The reduction family: ReduceMax/Mean/Min/Sum, Softmax and LogSoftmax,
// LayerNormalization.
//
//===----------------------------------------------------------------------===//

#include "ImporterImpl.h"

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::onnx_import;
using namespace mlir::fuse::onnx_import::detail;

//===----------------------------------------------------------------------===//
// Softmax, LayerNorm, reductions
//===----------------------------------------------------------------------===//

LogicalResult Importer::importSoftmax(bool log) {
  Entry &x = *input(0);
  int64_t rank = x.shape.size();
  FailureOr<int64_t> axisAttr = intAttr("axis", opset < 13 ? 1 : -1);
  if (failed(axisAttr))
    return failure();
  FailureOr<int64_t> axis = normAxis(*axisAttr, rank);
  if (failed(axis))
    return failure();
  Value v;
  int64_t ax;
  bool coerced = opset < 13 && *axis != rank - 1;
  if (coerced) {
    // Before opset 13: softmax over everything from `axis` on.
    int64_t rows = *numElements(ArrayRef(x.shape).take_front(*axis));
    int64_t cols = *numElements(ArrayRef(x.shape).drop_front(*axis));
    v = reshape(logical(x), {rows, cols});
    ax = 1;
  } else {
    v = x.value ? x.value : logical(x);
    ax = physicalAxis(x, *axis);
  }
  Value mx = reduce("max", v, ax);
  Value shifted = binaryOp("Sub", v, mx);
  Value e = op<tosa::ExpOp>(v.getType(), {shifted});
  Value sum = reduce("sum", e, ax);
  // LogSoftmax: (x - max) - log(sum(exp(x - max))), never log of a
  // quotient that can underflow to 0.
  Value y =
      log ? binaryOp("Sub", shifted, op<tosa::LogOp>(sum.getType(), {sum}))
          : binaryOp("Mul", e, op<tosa::ReciprocalOp>(sum.getType(), {sum}));
  if (coerced)
    return define(0, result(reshape(y, x.shape), x.shape, false));
  return define(0, result(y, x.shape, x.nhwc && x.value));
}

LogicalResult Importer::importLayerNorm() {
  Entry &x = *input(0);
  int64_t rank = x.shape.size();
  FailureOr<int64_t> axisAttr = intAttr("axis", -1);
  FailureOr<float> eps = floatAttr("epsilon", 1e-5f);
  FailureOr<int64_t> stash = intAttr("stash_type", 1);
  if (failed(axisAttr) || failed(eps) || failed(stash))
    return failure();
  FailureOr<int64_t> axis = normAxis(*axisAttr, rank);
  if (failed(axis))
    return failure();
  Value v = logical(x);
  SmallVector<int64_t> axes;
  for (int64_t d = *axis; d < rank; ++d)
    axes.push_back(d);
  Normalized norm = normalize(v, axes, *eps);
  Value mean = norm.mean, rstd = norm.rstd;
  Entry y = result(norm.y, x.shape, false);
  Shape normShape(ArrayRef(x.shape).drop_front(*axis));
  for (int k : {1, 2}) {
    if (!hasInput(k))
      continue;
    Entry &p = *input(k);
    if (p.shape.size() > normShape.size() ||
        !llvm::equal(p.shape, ArrayRef(normShape).take_back(p.shape.size())))
      return error() << (k == 1 ? "Scale " : "B ") << shapeStr(p.shape)
                     << " does not match the normalised shape "
                     << shapeStr(normShape),
             failure();
    FailureOr<Entry> r = broadcastBinary(k == 1 ? "Mul" : "Add", y, p);
    if (failed(r))
      return failure();
    y = std::move(*r);
  }
  if (failed(define(0, std::move(y))))
    return failure();
  Shape stat(x.shape.begin(), x.shape.begin() + *axis);
  stat.append(rank - *axis, 1);
  if (failed(define(1, result(mean, stat, false))))
    return failure();
  return define(2, result(rstd, stat, false));
}

FailureOr<Shape> Importer::axesInput(int k, StringRef attrName, int64_t rank) {
  Shape axes;
  if (hasInput(k)) {
    FailureOr<const HostTensor *> t = constInput(k, "axes");
    if (failed(t))
      return failure();
    for (int64_t i = 0; i < (*t)->size(); ++i)
      axes.push_back((*t)->intAt(i));
  } else {
    FailureOr<std::optional<Shape>> a = intsAttr(attrName);
    if (failed(a))
      return failure();
    if (*a)
      axes = **a;
  }
  for (int64_t &a : axes) {
    FailureOr<int64_t> n = normAxis(a, rank);
    if (failed(n))
      return failure();
    a = *n;
  }
  return axes;
}

LogicalResult Importer::importReduce(StringRef kind) {
  Entry &x = *input(0);
  int64_t rank = x.shape.size();
  bool axesAsInput = opset >= 18 || (kind == "ReduceSum" && opset >= 13);
  FailureOr<Shape> axes = axesInput(axesAsInput ? 1 : 99, "axes", rank);
  FailureOr<int64_t> keep = intAttr("keepdims", 1),
                     noop = intAttr("noop_with_empty_axes", 0);
  if (failed(axes) || failed(keep) || failed(noop))
    return failure();
  if (axes->empty()) {
    if (*noop)
      return define(0, x);
    for (int64_t d = 0; d < rank; ++d)
      axes->push_back(d);
  }
  Value v = x.value ? x.value : logical(x);
  bool nhwc = x.nhwc && x.value;
  Shape kept = x.shape;
  int64_t count = 1;
  for (int64_t a : *axes) {
    if (kept[a] == 1)
      continue;
    count *= x.shape[a];
    v = reduce(kind == "ReduceMax"   ? "max"
               : kind == "ReduceMin" ? "min"
                                     : "sum",
               v, nhwc ? kAxisInNhwc[a] : a);
    kept[a] = 1;
  }
  if (kind == "ReduceMean" && count != 1)
    v = binaryOp("Mul", v, scalar(1.0f / float(count), rank));
  Entry r = result(v, kept, nhwc);
  if (*keep)
    return define(0, std::move(r));
  Shape squeezed;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(*axes, d))
      squeezed.push_back(x.shape[d]);
  return define(0, result(reshape(logical(r), squeezed), squeezed, false));
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void Importer::registerReductionOps(OpRegistry &r) {
  for (StringRef op : {"ReduceMax", "ReduceMean", "ReduceMin", "ReduceSum"})
    r.add(op, [](Importer &i) { return i.importReduce(i.node->op_type()); });
  // Opset 18 moved the axes of every reduction but ReduceSum (moved at 13)
  // from an attribute to an input.
  for (StringRef op : {"ReduceMax", "ReduceMean", "ReduceMin"})
    r.add(
         op, [](Importer &i) { return i.importReduce(i.node->op_type()); }, 18)
        .ownSchema(2, {"keepdims", "noop_with_empty_axes"});
  r.add("Softmax", [](Importer &i) { return i.importSoftmax(false); });
  r.add("LogSoftmax", [](Importer &i) { return i.importSoftmax(true); });
  r.add("LayerNormalization", [](Importer &i) {
     return i.importLayerNorm();
   }).inputs(2);
}
