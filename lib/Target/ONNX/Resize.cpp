//===- Resize.cpp - ONNX Resize: nearest, linear and cubic ----------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// Resize with any scales or sizes, on any axes, in each of ONNX's modes
// (nearest with its four roundings, linear, cubic with its coefficient and
// exclude_outside) and coordinate transformations (half_pixel,
// pytorch_half_pixel, align_corners, asymmetric, tf_half_pixel_for_nn).
//
// Each resized axis becomes a table computed here, in double precision:
// for each output index, the input indices its value reads (one for
// nearest, two for linear, four for cubic; clamped to the input, which is
// ONNX's edge extension) and their weights.
// Taps reading the same input index are merged, taps of weight 0 dropped.
// The resize is then one elementwise linalg.generic over the output that
// reads the input at each combination of one tap per resized axis and sums
// the values times the product of their weights (interpolation is
// separable, so the product is the multi-dimensional kernel): no reduction
// loop, so it fuses like any elementwise op. Nearest has one tap and no
// weights: a pure gather; so does a linear upsampling of a size-1 axis (a
// broadcast). Whole-number nearest upsampling of H and W keeps its
// special forms (tosa.resize, or reshape + tile).
//
//===----------------------------------------------------------------------===//

#include "ImporterImpl.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::onnx_import;
using namespace mlir::fuse::onnx_import::detail;

/// The input coordinate output index `o` maps to along an axis of `in`
/// elements resized by `scale` (ONNX's coordinate_transformation_mode;
/// the resized length is in * scale, not rounded, as ONNX defines it).
static double sourceCoordinate(const ResizeMode &m, int64_t o, int64_t in,
                               double scale) {
  double resized = double(in) * scale;
  if (m.coord == "asymmetric")
    return o / scale;
  if (m.coord == "pytorch_half_pixel")
    return resized > 1 ? (o + 0.5) / scale - 0.5 : 0.0;
  if (m.coord == "align_corners")
    return resized > 1 ? o * double(in - 1) / (resized - 1) : 0.0;
  if (m.coord == "tf_half_pixel_for_nn")
    return (o + 0.5) / scale;
  return (o + 0.5) / scale - 0.5; // half_pixel
}

/// The taps of one output index at input coordinate x: input indices
/// (not yet clamped) and weights.
static void taps(const ResizeMode &m, double x, SmallVectorImpl<int64_t> &idx,
                 SmallVectorImpl<double> &w) {
  double fl = std::floor(x);
  int64_t i0 = int64_t(fl);
  double r = x - fl;
  if (m.mode == "nearest") {
    bool up;
    if (r == 0.0)
      up = false;
    else if (m.nearest == "floor")
      up = false;
    else if (m.nearest == "ceil")
      up = true;
    else if (m.nearest == "round_prefer_ceil")
      up = r >= 0.5;
    else // round_prefer_floor
      up = r > 0.5;
    idx.push_back(i0 + (up ? 1 : 0));
    w.push_back(1.0);
    return;
  }
  if (m.mode == "linear") {
    idx.append({i0, i0 + 1});
    w.append({1.0 - r, r});
    return;
  }
  // Cubic convolution with coefficient A over i0 - 1 .. i0 + 2.
  double a = m.cubicA;
  auto far = [&](double t) { // 1 <= t < 2
    return ((a * t - 5 * a) * t + 8 * a) * t - 4 * a;
  };
  auto near = [&](double t) { // 0 <= t < 1
    return ((a + 2) * t - (a + 3)) * t * t + 1;
  };
  idx.append({i0 - 1, i0, i0 + 1, i0 + 2});
  w.append({far(r + 1), near(r), near(1 - r), far(2 - r)});
}

FailureOr<ResizeAxis> Importer::resizeAxis(const ResizeMode &m, int64_t in,
                                           int64_t out, double scale) {
  // Each output index's taps, those reading the same (clamped) input index
  // merged and those of weight 0 dropped.
  std::vector<SmallVector<std::pair<int64_t, double>, 4>> rows(out);
  for (int64_t o = 0; o < out; ++o) {
    double x = sourceCoordinate(m, o, in, scale);
    if (!std::isfinite(x) || std::abs(x) > double(kMaxElements))
      return error() << "the input coordinate of output index " << o
                     << " is out of range (scale " << scale << ")",
             failure();
    SmallVector<int64_t, 4> idx;
    SmallVector<double, 4> w;
    taps(m, x, idx, w);
    if (m.excludeOutside && idx.size() > 1) {
      double sum = 0;
      for (size_t t = 0; t < idx.size(); ++t) {
        if (idx[t] < 0 || idx[t] >= in)
          w[t] = 0;
        sum += w[t];
      }
      for (double &v : w)
        v = sum != 0 ? v / sum : 0;
    }
    auto &row = rows[o];
    for (size_t t = 0; t < idx.size(); ++t) {
      int64_t i = std::clamp<int64_t>(idx[t], 0, in - 1);
      auto *same =
          llvm::find_if(row, [&](auto &tap) { return tap.first == i; });
      if (same != row.end())
        same->second += w[t];
      else
        row.push_back({i, w[t]});
    }
    llvm::erase_if(row, [](auto &tap) { return tap.second == 0.0; });
    if (row.empty())
      row.push_back({std::clamp<int64_t>(idx[0], 0, in - 1), 0.0});
  }
  ResizeAxis axis;
  for (auto &row : rows) {
    axis.taps = std::max<int64_t>(axis.taps, row.size());
    // A weight within rounding of 1 is 1 (merged taps of one index).
    axis.weighted |= row.size() > 1 || std::abs(row[0].second - 1.0) > 1e-9;
  }
  for (auto &row : rows)
    for (int64_t t = 0; t < axis.taps; ++t) {
      // Rows with fewer taps repeat their first index with weight 0.
      bool real = t < int64_t(row.size());
      axis.index.push_back(row[real ? t : 0].first);
      axis.weight.push_back(real ? float(row[t].second) : 0.0f);
    }
  return axis;
}

Value Importer::resample(Value v, ArrayRef<std::optional<ResizeAxis>> axes,
                         ArrayRef<int64_t> outShape) {
  unsigned rank = outShape.size();
  Type elem = cast<RankedTensorType>(v.getType()).getElementType();
  // Operands: per resized axis and tap, its column of input indices and,
  // where the axis is weighted, of weights; each indexed by the axis.
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  // Per axis, the operand number of each tap's index (and weight: next).
  SmallVector<SmallVector<unsigned>> tapArgs(rank);
  for (unsigned d = 0; d < rank; ++d) {
    if (!axes[d])
      continue;
    const ResizeAxis &ax = *axes[d];
    AffineMap map = AffineMap::get(rank, 0, {getAffineDimExpr(d, ctx)}, ctx);
    for (int64_t t = 0; t < ax.taps; ++t) {
      std::vector<int64_t> index;
      std::vector<float> weight;
      for (int64_t o = 0; o < outShape[d]; ++o) {
        index.push_back(ax.index[o * ax.taps + t]);
        weight.push_back(ax.weight[o * ax.taps + t]);
      }
      tapArgs[d].push_back(inputs.size());
      inputs.push_back(constantOf(HostTensor::ints({outShape[d]}, index),
                                  b.getIntegerType(64)));
      maps.push_back(map);
      if (ax.weighted) {
        inputs.push_back(
            constantOf(HostTensor::floats({outShape[d]}, weight), elem));
        maps.push_back(map);
      }
    }
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(rank, ctx));
  Value init = tensor::EmptyOp::create(b, loc, outShape, elem);
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, inputs, ValueRange{init}, maps,
             iters,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               // Per axis, the index (and weight) each tap reads; an axis
               // not resized reads at the output's index.
               SmallVector<SmallVector<Value>> index(rank), weight(rank);
               for (unsigned d = 0; d < rank; ++d) {
                 if (!axes[d]) {
                   index[d].push_back(linalg::IndexOp::create(nb, l, d));
                   continue;
                 }
                 for (unsigned arg : tapArgs[d]) {
                   index[d].push_back(arith::IndexCastOp::create(
                       nb, l, nb.getIndexType(), args[arg]));
                   if (axes[d]->weighted)
                     weight[d].push_back(args[arg + 1]);
                 }
               }
               // Each combination of one tap per resized axis: the input
               // element there times the product of the taps' weights.
               SmallVector<unsigned> tap(rank, 0);
               Value sum;
               while (true) {
                 SmallVector<Value> idx;
                 Value w;
                 for (unsigned d = 0; d < rank; ++d) {
                   idx.push_back(index[d][tap[d]]);
                   if (!weight[d].empty())
                     w = w ? arith::MulFOp::create(nb, l, w, weight[d][tap[d]])
                                 .getResult()
                           : weight[d][tap[d]];
                 }
                 Value x = tensor::ExtractOp::create(nb, l, v, idx);
                 if (w)
                   x = arith::MulFOp::create(nb, l, w, x);
                 sum =
                     sum ? arith::AddFOp::create(nb, l, sum, x).getResult() : x;
                 // The next combination (the last axis fastest).
                 int d = rank - 1;
                 for (; d >= 0; --d) {
                   if (++tap[d] < index[d].size())
                     break;
                   tap[d] = 0;
                 }
                 if (d < 0)
                   break;
               }
               linalg::YieldOp::create(nb, l, sum);
             })
      .getResult(0);
}

LogicalResult Importer::importResize() {
  Entry &x = *input(0);
  int64_t rank = x.shape.size();
  ResizeMode m;
  {
    FailureOr<std::string> mode = stringAttr("mode", "nearest"),
                           coord = stringAttr("coordinate_transformation_mode",
                                              opset < 11 ? "asymmetric"
                                                         : "half_pixel"),
                           nearest = stringAttr(
                               "nearest_mode",
                               opset < 11 ? "floor" : "round_prefer_floor");
    FailureOr<float> cubicA = floatAttr("cubic_coeff_a", -0.75f);
    FailureOr<int64_t> exclude = intAttr("exclude_outside", 0);
    if (failed(mode) || failed(coord) || failed(nearest) || failed(cubicA) ||
        failed(exclude))
      return failure();
    m = {*mode, *coord, *nearest, *cubicA, *exclude != 0};
  }
  if (m.mode != "nearest" && m.mode != "linear" && m.mode != "cubic")
    return error() << "mode '" << m.mode
                   << "' is not one of nearest, linear, cubic",
           failure();
  if (!llvm::is_contained({"half_pixel", "pytorch_half_pixel", "align_corners",
                           "asymmetric", "tf_half_pixel_for_nn"},
                          m.coord))
    return error() << "coordinate_transformation_mode '" << m.coord
                   << "' is not supported (half_pixel, pytorch_half_pixel, "
                      "align_corners, asymmetric, tf_half_pixel_for_nn)",
           failure();
  if (m.coord == "tf_half_pixel_for_nn" && m.mode != "nearest")
    return error() << "coordinate_transformation_mode 'tf_half_pixel_for_nn' "
                      "is only defined for mode 'nearest'",
           failure();
  if (m.mode == "nearest" &&
      !llvm::is_contained(
          {"floor", "ceil", "round_prefer_floor", "round_prefer_ceil"},
          m.nearest))
    return error() << "nearest_mode '" << m.nearest << "' is not supported",
           failure();
  if (m.mode != "nearest" && !holdsFloats(x))
    return error() << m.mode << " Resize of " << elementKind(x)
                   << " data is not supported (FLOAT)",
           failure();
  // Opset 18: the axes the scales or sizes are for (the others keep their
  // size), and how sizes are read: as given ("stretch"), or as bounds on
  // one scale common to the axes that keeps the aspect ratio ("not_larger":
  // the largest scale no axis exceeds its size at; "not_smaller": the
  // smallest no axis falls short at).
  Shape axesList;
  std::string policy;
  {
    FailureOr<std::optional<Shape>> a = intsAttr("axes");
    FailureOr<std::string> p =
        stringAttr("keep_aspect_ratio_policy", "stretch");
    if (failed(a) || failed(p))
      return failure();
    if (!llvm::is_contained({"stretch", "not_larger", "not_smaller"}, *p))
      return error() << "keep_aspect_ratio_policy '" << *p
                     << "' is not one of stretch, not_larger, not_smaller",
             failure();
    policy = *p;
    if (*a) {
      FailureOr<Shape> axes = distinctAxes(**a, rank);
      if (failed(axes))
        return failure();
      axesList = std::move(*axes);
    } else {
      for (int64_t d = 0; d < rank; ++d)
        axesList.push_back(d);
    }
  }
  int64_t given = axesList.size();
  // Scales or sizes need one value per resized axis.
  auto countError = [&](StringRef what, int64_t count) {
    return error() << what << " has " << count << " values for "
                   << (given == rank
                           ? "a rank-" + std::to_string(rank) + " input"
                           : std::to_string(given) + " axes"),
           failure();
  };
  // Output size from scales (input 1 before opset 11, 2 after) or sizes (3);
  // the scale of each axis is the given one, or out / in for sizes.
  Shape outShape(x.shape);
  std::vector<double> scales(rank, 1.0);
  int scalesIdx = opset < 11 ? 1 : 2;
  if (hasInput(3) && opset >= 11) {
    FailureOr<const HostTensor *> s = constInput(3, "sizes");
    if (failed(s))
      return failure();
    if ((*s)->size() != given)
      return countError("sizes", (*s)->size());
    for (int64_t i = 0; i < given; ++i) {
      int64_t k = axesList[i];
      outShape[k] = (*s)->intAt(i);
      if (outShape[k] < 1 || outShape[k] > kMaxElements)
        return error() << "output size " << outShape[k] << " of axis " << k
                       << " must be positive",
               failure();
      scales[k] = double(outShape[k]) / double(x.shape[k]);
    }
    if (policy != "stretch" && given > 0) {
      // One scale for every given axis, each size that scale times the
      // input's, rounded half up.
      double common = scales[axesList[0]];
      for (int64_t k : axesList)
        common = policy == "not_larger" ? std::min(common, scales[k])
                                        : std::max(common, scales[k]);
      for (int64_t k : axesList) {
        double size = std::floor(common * double(x.shape[k]) + 0.5);
        if (size < 1 || size > double(kMaxElements))
          return error() << "keep_aspect_ratio_policy '" << policy
                         << "' makes axis " << k << " (size " << x.shape[k]
                         << ") " << (size < 1 ? "empty" : "too large"),
                 failure();
        outShape[k] = int64_t(size);
        scales[k] = common;
      }
    }
  } else {
    FailureOr<const HostTensor *> s = constInput(scalesIdx, "scales");
    if (failed(s))
      return failure();
    if ((*s)->size() != given)
      return countError("scales", (*s)->size());
    for (int64_t i = 0; i < given; ++i) {
      int64_t k = axesList[i];
      double sc = (*s)->at(i);
      if (!(sc > 0) || !std::isfinite(sc) ||
          double(x.shape[k]) * sc >= double(kMaxElements))
        return error() << "scale " << sc << " of axis " << k
                       << " must be positive and keep the output size under "
                       << kMaxElements,
               failure();
      outShape[k] = int64_t(std::floor(double(x.shape[k]) * sc));
      if (outShape[k] < 1)
        return error() << "scale " << sc << " makes axis " << k << " (size "
                       << x.shape[k] << ") empty",
               failure();
      scales[k] = sc;
    }
  }
  // Antialiasing filters linear and cubic downscaling only.
  {
    FailureOr<int64_t> antialias = intAttr("antialias", 0);
    if (failed(antialias))
      return failure();
    if (*antialias != 0 && m.mode != "nearest")
      for (int64_t k = 0; k < rank; ++k)
        if (scales[k] < 1.0)
          return error() << "antialias of " << m.mode << " downscaling (axis "
                         << k << ", scale "
                         << llvm::formatv("{0}", scales[k]).str()
                         << ") is not supported",
                 failure();
  }
  if (numElements(outShape).value_or(kMaxElements + 1) > kMaxElements ||
      tooManyBytes(outShape, elementBytes(typeOf(x))))
    return error() << "output " << shapeStr(outShape) << " is too large",
           failure();

  // Each axis's taps; an axis whose output reads input o at o is left out.
  SmallVector<std::optional<ResizeAxis>> axes(rank);
  for (int64_t d = 0; d < rank; ++d) {
    FailureOr<ResizeAxis> ax =
        resizeAxis(m, x.shape[d], outShape[d], scales[d]);
    if (failed(ax))
      return failure();
    bool identity = outShape[d] == x.shape[d] && ax->taps == 1 && !ax->weighted;
    for (int64_t o = 0; identity && o < outShape[d]; ++o)
      identity = ax->index[o] == o;
    if (!identity)
      axes[d] = std::move(*ax);
  }

  // At most kMaxTapCombinations input reads per output element.
  int64_t combinations = 1;
  for (auto &ax : axes)
    if (ax)
      combinations *= ax->taps;
  if (combinations > kMaxTapCombinations)
    return error() << "each output element would read " << combinations
                   << " input elements (more than " << kMaxTapCombinations
                   << "): resize fewer axes at once",
           failure();

  // Whole-number nearest upsampling of H and W only: each input element
  // repeated f times (the special forms below).
  Shape factor(rank, 1);
  bool repeats = rank == 4 && m.mode == "nearest" && !axes[0] && !axes[1];
  for (int64_t d = 2; repeats && d < 4; ++d) {
    int64_t in = x.shape[d], out = outShape[d];
    repeats = out >= in && out % in == 0;
    if (!repeats)
      break;
    factor[d] = out / in;
    for (int64_t o = 0; repeats && axes[d] && o < out; ++o)
      repeats = axes[d]->index[o] == o / factor[d];
  }
  if (!repeats) {
    bool nhwc = x.nhwc && x.value;
    Value v = nhwc ? x.value : logical(x);
    if (nhwc) {
      SmallVector<std::optional<ResizeAxis>> phys;
      for (int64_t p = 0; p < 4; ++p)
        phys.push_back(axes[kToNhwc[p]]);
      axes = std::move(phys);
    }
    Shape physOut = nhwc ? permuted(outShape, kToNhwc) : outShape;
    return define(0, result(resample(v, axes, physOut), outShape, nhwc));
  }
  // Even factors: one NHWC tosa.resize (nearest) whose rounding, with the
  // offset -f/2, picks input o / f for output o; it lowers to one op over
  // the output, which fuses like any elementwise op (into a concat slice,
  // say). Otherwise each element is repeated by reshape + tile.
  if (factor[2] % 2 == 0 && factor[3] % 2 == 0 && holdsFloats(x)) {
    Value in = inNhwc(x);
    int64_t fy = factor[2], fx = factor[3];
    Value y = op<tosa::ResizeOp>(
        floatTensor(permuted(outShape, kToNhwc)),
        {in, shapeValue({fy, 1, fx, 1}), shapeValue({-fy / 2, -fx / 2}),
         shapeValue({fy - 1 - fy / 2, fx - 1 - fx / 2})},
        {b.getNamedAttr("mode", tosa::ResizeModeAttr::get(
                                    ctx, tosa::ResizeMode::NEAREST_NEIGHBOR))});
    return define(0, result(y, outShape, true));
  }
  // Repeat each element: [.., H, 1, W, 1, ..] tiled, then merged.
  bool nhwc = x.nhwc && x.value;
  Value v = nhwc ? x.value : logical(x);
  ArrayRef<int64_t> s = shapeOf(v);
  Shape six, mult, tiled;
  int hAxis = nhwc ? 1 : 2;
  for (int64_t d = 0; d < 4; ++d) {
    six.push_back(s[d]);
    mult.push_back(1);
    if (d == hAxis || d == hAxis + 1) {
      int64_t f = factor[d == hAxis ? 2 : 3];
      six.push_back(1);
      mult.push_back(f);
    }
  }
  for (size_t d = 0; d < six.size(); ++d)
    tiled.push_back(six[d] * mult[d]);
  Value y =
      op<tosa::TileOp>(like(v, tiled), {reshape(v, six), shapeValue(mult)});
  Shape phys = nhwc ? permuted(outShape, kToNhwc) : outShape;
  return define(0, result(reshape(y, phys), outShape, nhwc));
}
