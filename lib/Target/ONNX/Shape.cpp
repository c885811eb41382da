//===- Shape.cpp - ONNX data movement and shape ops -----------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// The shape family: Reshape, Flatten, Squeeze, Unsqueeze, Transpose,
// Concat, Split, Slice, Gather (known indices), Pad, Tile and Expand
// (Resize is in Resize.cpp).
//
//===----------------------------------------------------------------------===//

#include "ImporterImpl.h"

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::onnx_import;
using namespace mlir::fuse::onnx_import::detail;

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

FailureOr<Shape> Importer::reshapeTarget(const Entry &x) {
  StringRef opType = node->op_type();
  int64_t rank = x.shape.size();
  int64_t total = *numElements(x.shape);
  if (opType == "Flatten") {
    FailureOr<int64_t> axisAttr = intAttr("axis", 1);
    if (failed(axisAttr))
      return failure();
    if (*axisAttr < -rank || *axisAttr > rank)
      return error() << "axis " << *axisAttr << " is out of range for rank "
                     << rank,
             failure();
    int64_t axis = *axisAttr < 0 ? *axisAttr + rank : *axisAttr;
    int64_t rows = *numElements(ArrayRef(x.shape).take_front(axis));
    return Shape{rows, rows ? total / rows : 0};
  }
  if (opType == "Squeeze" || opType == "Unsqueeze") {
    bool unsq = opType == "Unsqueeze";
    int64_t outRank = rank;
    Shape axes;
    if (opset >= 13) {
      if (hasInput(1)) {
        FailureOr<const HostTensor *> t = constInput(1, "axes");
        if (failed(t))
          return failure();
        for (int64_t i = 0; i < (*t)->size(); ++i)
          axes.push_back((*t)->intAt(i));
      }
    } else {
      FailureOr<std::optional<Shape>> a = intsAttr("axes");
      if (failed(a))
        return failure();
      if (*a)
        axes = **a;
    }
    if (unsq)
      outRank += axes.size();
    for (int64_t &a : axes) {
      FailureOr<int64_t> n = normAxis(a, outRank);
      if (failed(n))
        return failure();
      a = *n;
    }
    Shape out;
    if (unsq) {
      if (axes.empty())
        return error() << "needs axes", failure();
      int64_t src = 0;
      for (int64_t d = 0; d < outRank; ++d)
        out.push_back(llvm::is_contained(axes, d) ? 1 : x.shape[src++]);
      if (src != rank)
        return error() << "axes " << shapeStr(axes) << " repeat", failure();
    } else {
      for (int64_t d = 0; d < rank; ++d) {
        bool drop =
            axes.empty() ? x.shape[d] == 1 : llvm::is_contained(axes, d);
        if (drop && x.shape[d] != 1)
          return error() << "cannot squeeze dimension " << d << " of "
                         << shapeStr(x.shape),
                 failure();
        if (!drop)
          out.push_back(x.shape[d]);
      }
    }
    return out;
  }
  // Reshape: the target shape is input 1 from opset 5 on, before that the
  // `shape` attribute.
  std::optional<HostTensor> attrShape;
  const HostTensor *target = nullptr;
  if (opset >= 5) {
    FailureOr<const HostTensor *> t = constInput(1, "shape");
    if (failed(t))
      return failure();
    target = *t;
  } else {
    FailureOr<std::optional<Shape>> a = intsAttr("shape");
    if (failed(a))
      return failure();
    if (!*a)
      return error() << "needs the attribute 'shape' (before opset 5 the "
                        "target shape is an attribute)",
             failure();
    attrShape =
        HostTensor::ints({int64_t((*a)->size())}, {(*a)->begin(), (*a)->end()});
    target = &*attrShape;
  }
  FailureOr<int64_t> allowZero = intAttr("allowzero", 0);
  if (failed(allowZero))
    return failure();
  Shape out;
  int64_t infer = -1, known = 1;
  for (int64_t k = 0; k < target->size(); ++k) {
    int64_t d = target->intAt(k);
    if (d == 0 && !*allowZero) {
      if (k >= rank)
        return error() << "shape has 0 at " << k << " beyond the input's rank",
               failure();
      d = x.shape[k];
    }
    if (d == -1) {
      if (infer >= 0)
        return error() << "shape has more than one -1", failure();
      infer = k;
    } else if (d < 0) {
      return error() << "shape has a negative dimension " << d, failure();
    } else if (llvm::MulOverflow(known, d, known) ||
               known > (int64_t(1) << 40)) {
      return error() << "the target shape has more than 2^40 elements",
             failure();
    }
    out.push_back(d);
  }
  if (infer >= 0) {
    if (known == 0 || total % known)
      return error() << "cannot reshape " << shapeStr(x.shape) << " to "
                     << shapeStr(out),
             failure();
    out[infer] = total / known;
  }
  if (numElements(out) != total)
    return error() << "cannot reshape " << shapeStr(x.shape) << " (" << total
                   << " elements) to " << shapeStr(out),
           failure();
  return out;
}

LogicalResult Importer::importReshapeLike() {
  Entry &x = *input(0);
  FailureOr<Shape> s = reshapeTarget(x);
  if (failed(s))
    return failure();
  // [N, C, H, W] -> [N, C, H*W] (a detection head's Flatten(2)) of an NHWC
  // value: merge H and W where they are (NHWC keeps them adjacent), then
  // one transpose, so the transpose is the last op and writes the result
  // (into its slice of a concat, say).
  const Shape &d = x.shape;
  if (x.nhwc && x.value && d.size() == 4 &&
      *s == Shape{d[0], d[1], d[2] * d[3]}) {
    Value v = reshape(x.value, {d[0], d[2] * d[3], d[1]});
    return define(0, result(transpose(v, {0, 2, 1}), *s, false));
  }
  return define(0, result(reshape(logical(x), *s), *s, false));
}

LogicalResult Importer::importTranspose() {
  Entry &x = *input(0);
  int64_t rank = x.shape.size();
  FailureOr<std::optional<Shape>> permAttr = intsAttr("perm");
  if (failed(permAttr))
    return failure();
  Shape p;
  if (*permAttr)
    p = **permAttr;
  else
    for (int64_t k = rank - 1; k >= 0; --k)
      p.push_back(k);
  Shape sorted = p;
  llvm::sort(sorted);
  if (int64_t(p.size()) != rank ||
      !llvm::equal(sorted, llvm::seq<int64_t>(0, rank)))
    return error() << "perm " << shapeStr(p) << " is not a permutation of "
                   << rank << " dimensions",
           failure();
  Value v = transpose(logical(x), p);
  return define(0, result(v, permuted(x.shape, p), false));
}

LogicalResult Importer::importConcat() {
  FailureOr<int64_t> axisAttr = intAttr("axis", 0);
  if (failed(axisAttr))
    return failure();
  Entry &first = *input(0);
  int64_t rank = first.shape.size();
  FailureOr<int64_t> axis = normAxis(*axisAttr, rank);
  if (failed(axis))
    return failure();
  bool nhwc = false;
  Shape out = first.shape;
  out[*axis] = 0;
  for (int k = 0; k < numInputs(); ++k) {
    Entry &e = *input(k);
    if (int64_t(e.shape.size()) != rank)
      return error() << "inputs have different ranks", failure();
    for (int64_t d = 0; d < rank; ++d)
      if (d != *axis && e.shape[d] != first.shape[d])
        return error() << "input shapes " << shapeStr(first.shape) << " and "
                       << shapeStr(e.shape) << " differ outside axis " << *axis,
               failure();
    out[*axis] += e.shape[*axis];
    nhwc |= rank == 4 && e.nhwc && e.value;
  }
  // Integer and boolean values (run-time shapes, masks, ids) concatenate
  // in their own type, known parts converted to it.
  SmallVector<int> all(numInputs());
  std::iota(all.begin(), all.end(), 0);
  FailureOr<Type> elem = commonType(all);
  if (failed(elem))
    return failure();
  SmallVector<Value> parts;
  for (int k = 0; k < numInputs(); ++k)
    if (input(k)->shape[*axis])
      parts.push_back(isa<FloatType>(*elem)
                          ? operandFor(*input(k), rank, nhwc)
                          : operandOf(*input(k), rank, *elem));
  int64_t physAxis = nhwc ? kAxisInNhwc[*axis] : *axis;
  Shape phys = nhwc ? permuted(out, kToNhwc) : out;
  Value y = parts.size() == 1
                ? parts.front()
                : op<tosa::ConcatOp>(
                      like(parts.front(), phys), parts,
                      {b.getNamedAttr("axis", b.getI32IntegerAttr(physAxis))});
  return define(0, result(y, out, nhwc));
}

LogicalResult Importer::importSplit() {
  Entry &x = *input(0);
  int64_t rank = x.shape.size();
  FailureOr<int64_t> axis = axisAttr(rank);
  if (failed(axis))
    return failure();
  int64_t dim = x.shape[*axis];
  int outputs = node->output_size();
  Shape sizes;
  if (opset >= 13 && hasInput(1)) {
    FailureOr<const HostTensor *> t = constInput(1, "split");
    if (failed(t))
      return failure();
    for (int64_t k = 0; k < (*t)->size(); ++k)
      sizes.push_back((*t)->intAt(k));
  } else if (opset < 13) {
    FailureOr<std::optional<Shape>> s = intsAttr("split");
    if (failed(s))
      return failure();
    if (*s)
      sizes = **s;
  }
  if (!sizes.empty() && attr("num_outputs"))
    return error() << "takes either the input 'split' or the attribute "
                      "'num_outputs', not both",
           failure();
  if (sizes.empty()) {
    FailureOr<int64_t> num = intAttr("num_outputs", outputs);
    if (failed(num))
      return failure();
    if (*num != outputs || outputs <= 0)
      return error() << "num_outputs " << *num << " differs from the "
                     << outputs << " outputs",
             failure();
    int64_t part = (dim + outputs - 1) / outputs;
    for (int k = 0; k < outputs; ++k)
      sizes.push_back(std::max<int64_t>(0, std::min(part, dim - k * part)));
  }
  if (int64_t(sizes.size()) != outputs ||
      llvm::any_of(sizes, [&](int64_t s) { return s < 0 || s > dim; }) ||
      std::accumulate(sizes.begin(), sizes.end(), int64_t(0)) != dim)
    return error() << "split sizes " << shapeStr(sizes) << " do not cover "
                   << dim << " elements in " << outputs << " outputs",
           failure();
  Value v = x.value ? x.value : logical(x);
  bool nhwc = x.nhwc && x.value;
  int64_t ax = nhwc ? kAxisInNhwc[*axis] : *axis;
  int64_t offset = 0;
  for (int k = 0; k < outputs; ++k) {
    Shape starts(rank, 0), size(shapeOf(v));
    starts[ax] = offset;
    size[ax] = sizes[k];
    Shape onnxShape = x.shape;
    onnxShape[*axis] = sizes[k];
    offset += sizes[k];
    if (sizes[k] == 0)
      return error() << "output " << k << " would be empty", failure();
    if (failed(define(k, result(slice(v, starts, size), onnxShape, nhwc))))
      return failure();
  }
  return success();
}

FailureOr<Importer::SliceSpec> Importer::sliceSpec(const Entry &x) {
  int64_t rank = x.shape.size();
  Shape starts, ends, axes, steps;
  auto get = [&](int k, const char *name, Shape &out) -> LogicalResult {
    if (opset < 10) {
      FailureOr<std::optional<Shape>> a = intsAttr(name);
      if (failed(a))
        return failure();
      if (*a)
        out = **a;
      return success();
    }
    if (!hasInput(k))
      return success();
    FailureOr<const HostTensor *> t = constInput(k, name);
    if (failed(t))
      return failure();
    for (int64_t i = 0; i < (*t)->size(); ++i)
      out.push_back((*t)->intAt(i));
    return success();
  };
  if (failed(get(1, "starts", starts)) || failed(get(2, "ends", ends)) ||
      failed(get(3, "axes", axes)) || failed(get(4, "steps", steps)))
    return failure();
  if (axes.empty())
    for (size_t k = 0; k < starts.size(); ++k)
      axes.push_back(k);
  if (steps.empty())
    steps.assign(starts.size(), 1);
  if (starts.size() != ends.size() || axes.size() != starts.size() ||
      steps.size() != starts.size())
    return error() << "starts, ends, axes and steps differ in length",
           failure();
  SliceSpec spec;
  spec.starts.assign(rank, 0);
  spec.sizes = x.shape;
  spec.steps.assign(rank, 1);
  for (size_t k = 0; k < axes.size(); ++k) {
    FailureOr<int64_t> a = normAxis(axes[k], rank);
    if (failed(a))
      return failure();
    int64_t d = x.shape[*a], st = steps[k];
    if (st == 0)
      return error() << "step 0 on axis " << *a, failure();
    auto clampIdx = [&](int64_t v, int64_t lo, int64_t hi) {
      if (v < 0)
        v += d;
      return std::clamp(v, lo, hi);
    };
    int64_t s, e;
    if (st > 0) {
      s = clampIdx(starts[k], 0, d);
      e = clampIdx(ends[k], 0, d);
      spec.sizes[*a] = e > s ? (e - s - 1) / st + 1 : 0;
    } else {
      s = clampIdx(starts[k], 0, d - 1);
      e = ends[k] < -d ? -1 : clampIdx(ends[k], -1, d - 1);
      if (st == std::numeric_limits<int64_t>::min())
        st = -d - 1; // one element, as any step of at least d
      spec.sizes[*a] = s > e ? (s - e - 1) / -st + 1 : 0;
    }
    spec.starts[*a] = s;
    spec.steps[*a] = st;
  }
  if (llvm::any_of(spec.sizes, [](int64_t s) { return s == 0; }))
    return error() << "the slice of " << shapeStr(x.shape) << " is empty",
           failure();
  return spec;
}

LogicalResult Importer::importSlice() {
  Entry &x = *input(0);
  FailureOr<SliceSpec> spec = sliceSpec(x);
  if (failed(spec))
    return failure();
  Value v = x.value ? x.value : logical(x);
  bool nhwc = x.nhwc && x.value;
  int64_t rank = x.shape.size();
  // Strided axes one at a time: reverse for negative steps, then take
  // `size * step` elements (padding a short tail), view them as
  // [size, step] and keep column 0.
  for (int64_t a = 0; a < rank; ++a) {
    int64_t st = spec->steps[a];
    if (st == 1)
      continue;
    int64_t ax = nhwc ? kAxisInNhwc[a] : a;
    int64_t d = x.shape[a], start = spec->starts[a], size = spec->sizes[a];
    if (st < 0) {
      v = op<tosa::ReverseOp>(
          v.getType(), {v}, {b.getNamedAttr("axis", b.getI32IntegerAttr(ax))});
      start = d - 1 - start;
      st = -st;
    }
    Shape s(shapeOf(v));
    int64_t span = size * st, avail = d - start;
    Shape starts(rank, 0), sizes = s;
    starts[ax] = start;
    sizes[ax] = std::min(span, avail);
    v = slice(v, starts, sizes);
    if (span > avail) {
      Shape low(rank, 0), high(rank, 0);
      high[ax] = span - avail;
      v = pad(v, low, high, 0.0f);
    }
    Shape split(sizes.begin(), sizes.begin() + ax);
    split.append({size, st});
    split.append(sizes.begin() + ax + 1, sizes.end());
    v = reshape(v, split);
    Shape colStarts(rank + 1, 0), colSizes = split;
    colSizes[ax + 1] = 1;
    v = slice(v, colStarts, colSizes);
    Shape merged = s;
    merged[ax] = size;
    v = reshape(v, merged);
    spec->starts[a] = 0;
  }
  Shape starts = nhwc ? permuted(spec->starts, kToNhwc) : spec->starts;
  Shape sizes = nhwc ? permuted(spec->sizes, kToNhwc) : spec->sizes;
  return define(0, result(slice(v, starts, sizes), spec->sizes, nhwc));
}

LogicalResult Importer::importGather() {
  Entry &x = *input(0);
  // Run-time indices (an embedding lookup), integer data, or more known
  // indices than are worth a slice each: one op reading the data at each
  // index.
  if (input(1)->value || !isa<FloatType>(typeOf(x)) ||
      input(1)->host->size() > 64)
    return importGatherByIndex();
  int64_t rank = x.shape.size();
  FailureOr<int64_t> axis = axisAttr(rank);
  if (failed(axis))
    return failure();
  FailureOr<const HostTensor *> idx = constInput(1, "indices");
  if (failed(idx))
    return failure();
  int64_t count = (*idx)->size(), dim = x.shape[*axis];
  Value v = logical(x);
  SmallVector<Value> parts;
  for (int64_t k = 0; k < count; ++k) {
    int64_t i = (*idx)->intAt(k);
    if (i < -dim || i >= dim)
      return error() << "index " << i << " is out of range for dimension "
                     << dim,
             failure();
    Shape starts(rank, 0), sizes = x.shape;
    starts[*axis] = i < 0 ? i + dim : i;
    sizes[*axis] = 1;
    parts.push_back(slice(v, starts, sizes));
  }
  Shape cat = x.shape;
  cat[*axis] = count;
  Value y = parts.size() == 1
                ? parts.front()
                : op<tosa::ConcatOp>(
                      floatTensor(cat), parts,
                      {b.getNamedAttr("axis", b.getI32IntegerAttr(*axis))});
  Shape out(x.shape.begin(), x.shape.begin() + *axis);
  out.append((*idx)->shape.begin(), (*idx)->shape.end());
  out.append(x.shape.begin() + *axis + 1, x.shape.end());
  return define(0, result(reshape(y, out), out, false));
}

LogicalResult Importer::importPad() {
  Entry &x = *input(0);
  int64_t rank = x.shape.size();
  FailureOr<std::string> mode = stringAttr("mode", "constant");
  if (failed(mode))
    return failure();
  if (*mode != "constant" && *mode != "edge" && *mode != "reflect")
    return error() << "mode '" << *mode
                   << "' is not supported (constant, edge or reflect)",
           failure();
  Shape pads;
  double value = 0.0;
  if (opset < 11) {
    FailureOr<std::optional<Shape>> p = intsAttr("pads");
    FailureOr<float> v = floatAttr("value", 0.0f);
    if (failed(p) || failed(v) || !*p)
      return error() << "needs pads", failure();
    pads = **p;
    value = *v;
  } else {
    FailureOr<const HostTensor *> p = constInput(1, "pads");
    if (failed(p))
      return failure();
    for (int64_t k = 0; k < (*p)->size(); ++k)
      pads.push_back((*p)->intAt(k));
    if (hasInput(2)) {
      FailureOr<const HostTensor *> v = constInput(2, "constant_value");
      if (failed(v))
        return failure();
      value = (*v)->at(0);
    }
    if (hasInput(3)) {
      // Opset 18: pads for the listed axes only (begins, then ends), the
      // others unpadded.
      FailureOr<const HostTensor *> given = constInput(3, "axes");
      if (failed(given))
        return failure();
      Shape written;
      for (int64_t i = 0; i < (*given)->size(); ++i)
        written.push_back((*given)->intAt(i));
      FailureOr<Shape> axes = distinctAxes(written, rank);
      if (failed(axes))
        return failure();
      int64_t n = axes->size();
      if (int64_t(pads.size()) != 2 * n)
        return error() << "pads " << shapeStr(pads) << " must be " << 2 * n
                       << " values, a begin and an end for each of the " << n
                       << " axes " << shapeStr(*axes),
               failure();
      Shape full(2 * rank, 0);
      for (int64_t k = 0; k < n; ++k) {
        int64_t a = (*axes)[k];
        full[a] = pads[k];
        full[a + rank] = pads[k + n];
      }
      pads = std::move(full);
    }
  }
  if (int64_t(pads.size()) != 2 * rank ||
      llvm::any_of(pads, [](int64_t p) { return p < 0 || p > kMaxWindowAttr; }))
    return error() << "pads " << shapeStr(pads) << " must be " << 2 * rank
                   << " non-negative values",
           failure();
  Shape out;
  for (int64_t d = 0; d < rank; ++d)
    out.push_back(x.shape[d] + pads[d] + pads[d + rank]);
  if (numElements(out).value_or(kMaxElements + 1) > kMaxElements)
    return error() << "the padded shape " << shapeStr(out) << " is too large",
           failure();
  if (*mode == "constant") {
    Value y = pad(logical(x), ArrayRef(pads).take_front(rank),
                  ArrayRef(pads).drop_front(rank), value);
    return define(0, result(y, out, false));
  }
  bool reflect = *mode == "reflect";
  for (int64_t d = 0; d < rank; ++d)
    if (reflect ? (pads[d] >= x.shape[d] || pads[d + rank] >= x.shape[d])
                : x.shape[d] == 0)
      return error() << "pads " << shapeStr(pads) << " of mode '" << *mode
                     << "' need "
                     << (reflect ? "each pad smaller than" : "a non-empty")
                     << " dimension " << d << " of input " << shapeStr(x.shape),
             failure();
  Value y = padFromInput(logical(x), ArrayRef(pads).take_front(rank),
                         ArrayRef(pads).drop_front(rank), reflect);
  return define(0, result(y, out, false));
}

LogicalResult Importer::importTile() {
  Entry &x = *input(0);
  if (opset < 6)
    return error() << "Tile before opset 6 (tiles and axis inputs) is not "
                      "supported",
           failure();
  FailureOr<const HostTensor *> r = constInput(1, "repeats");
  if (failed(r))
    return failure();
  int64_t rank = x.shape.size();
  if ((*r)->size() != rank)
    return error() << "repeats has " << (*r)->size() << " values, the input "
                   << shapeStr(x.shape) << " " << rank << " dimensions",
           failure();
  Shape mult, out;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t m = (*r)->intAt(d);
    if (m < 1 || m > kMaxWindowAttr)
      return error() << "repeats must be positive, got " << m
                     << " for dimension " << d,
             failure();
    int64_t size;
    if (llvm::MulOverflow(x.shape[d], m, size))
      return error() << "repeats " << m << " overflow dimension " << d
                     << " of input " << shapeStr(x.shape),
             failure();
    mult.push_back(m);
    out.push_back(size);
  }
  if (numElements(out).value_or(kMaxElements + 1) > kMaxElements ||
      tooManyBytes(out))
    return error() << "the tiled shape " << shapeStr(out) << " is too large",
           failure();
  Value v = logical(x);
  Value y = op<tosa::TileOp>(like(v, out), {v, shapeValue(mult)});
  return define(0, result(y, out, false));
}

FailureOr<Shape> Importer::expandedShape() {
  FailureOr<const HostTensor *> shape = constInput(1, "shape");
  if (failed(shape))
    return failure();
  if ((*shape)->shape.size() != 1 || (*shape)->size() > int64_t(kMaxRank))
    return error() << "shape must be a 1-D tensor of at most " << kMaxRank
                   << " values",
           failure();
  Shape want;
  for (int64_t k = 0; k < (*shape)->size(); ++k) {
    int64_t v = (*shape)->intAt(k);
    if (v < 1 || v > kMaxWindowAttr)
      return error() << "shape " << shapeStr(want)
                     << " must hold positive sizes, got " << v,
             failure();
    want.push_back(v);
  }
  std::optional<Shape> out = broadcastShapes(input(0)->shape, want);
  if (!out)
    return error() << "input " << shapeStr(input(0)->shape)
                   << " does not broadcast to shape " << shapeStr(want),
           failure();
  return *out;
}

LogicalResult Importer::importExpand() {
  // A run-time value broadcast to the shape: leading 1s, then each
  // size-1 dimension tiled.
  Entry &x = *input(0);
  FailureOr<Shape> out = expandedShape();
  if (failed(out))
    return failure();
  if (numElements(*out).value_or(kMaxElements + 1) > kMaxElements ||
      tooManyBytes(*out))
    return error() << "the expanded shape " << shapeStr(*out)
                   << " is too large",
           failure();
  Shape in(out->size() - x.shape.size(), 1);
  in.append(x.shape.begin(), x.shape.end());
  Value v = reshape(logical(x), in);
  Shape mult;
  for (size_t d = 0; d < out->size(); ++d)
    mult.push_back((*out)[d] / in[d]);
  if (llvm::any_of(mult, [](int64_t m) { return m != 1; }))
    v = op<tosa::TileOp>(like(v, *out), {v, shapeValue(mult)});
  return define(0, result(v, *out, false));
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void Importer::registerShapeOps(OpRegistry &r) {
  // Every op here moves values: run-time integers and 16-bit floats pass
  // through unchanged.
  // Opset 5 moved the target shape from an attribute to an input.
  r.add("Reshape", [](Importer &i) {
     return i.importReshapeLike();
   }).takesIntegers();
  r.add(
       "Reshape", [](Importer &i) { return i.importReshapeLike(); }, 5)
      .inputs(2)
      .takesIntegers();
  for (StringRef op : {"Flatten", "Squeeze", "Unsqueeze"})
    r.add(op, [](Importer &i) {
       return i.importReshapeLike();
     }).takesIntegers();
  r.add("Transpose", [](Importer &i) {
     return i.importTranspose();
   }).takesIntegers();
  r.add("Concat", [](Importer &i) { return i.importConcat(); })
      .inputs(OpSpec::kEveryInput)
      .takesIntegers();
  r.add("Split", [](Importer &i) { return i.importSplit(); }).takesIntegers();
  // Opset 18: the attribute num_outputs (uneven parts: the last smaller).
  r.add(
       "Split", [](Importer &i) { return i.importSplit(); }, 18)
      .takesIntegers()
      .ownSchema(2, {"axis", "num_outputs"}, 1, OpSpec::kAnyCount);
  // Opset 10 moved starts, ends (and axes, steps) from attributes to inputs.
  r.add("Slice", [](Importer &i) { return i.importSlice(); }).takesIntegers();
  r.add(
       "Slice", [](Importer &i) { return i.importSlice(); }, 10)
      .inputs(3)
      .takesIntegers();
  r.add("Gather", [](Importer &i) { return i.importGather(); })
      .inputs(2)
      .takesIntegers();
  // Opset 11 moved pads (and the constant value) from attributes to inputs.
  r.add("Pad", [](Importer &i) { return i.importPad(); }).takesIntegers();
  r.add(
       "Pad", [](Importer &i) { return i.importPad(); }, 11)
      .inputs(2)
      .takesIntegers();
  // Opset 18: the input axes (the pads of some axes only).
  r.add(
       "Pad", [](Importer &i) { return i.importPad(); }, 18)
      .inputs(2)
      .takesIntegers()
      .ownSchema(4, {"mode"});
  r.add("Tile", [](Importer &i) { return i.importTile(); })
      .inputs(2)
      .takesIntegers();
  r.add("Expand", [](Importer &i) { return i.importExpand(); })
      .inputs(2)
      .takesIntegers();
  r.add("Resize", [](Importer &i) { return i.importResize(); });
  // Opset 18: antialias, axes and keep_aspect_ratio_policy.
  r.add(
       "Resize", [](Importer &i) { return i.importResize(); }, 18)
      .ownSchema(4, {"antialias", "axes", "coordinate_transformation_mode",
                     "cubic_coeff_a", "exclude_outside", "extrapolation_value",
                     "keep_aspect_ratio_policy", "mode", "nearest_mode"});
}
