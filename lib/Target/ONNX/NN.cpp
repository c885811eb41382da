//===- NN.cpp - ONNX convolutions, pooling, normalizations ----------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// The neural-network family: Conv and ConvTranspose (1-D, 2-D, 3-D,
// grouped), pooling, BatchNormalization and InstanceNormalization, and
// the contractions MatMul and Gemm (Einsum is in Einsum.cpp).
//
//===----------------------------------------------------------------------===//

#include "ImporterImpl.h"

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::onnx_import;
using namespace mlir::fuse::onnx_import::detail;

//===----------------------------------------------------------------------===//
// Convolution, normalisation, pooling
//===----------------------------------------------------------------------===//

/// Output size floor((in + pb + pe - dil*(k-1) - 1) / s) + 1, or with
/// ceil_mode the ceil, dropping a last window that would start in the end
/// padding (PyTorch's and ONNX's rule).
static std::optional<Window> window(int64_t in, int64_t k, int64_t s,
                                    int64_t dil, int64_t pb, int64_t pe,
                                    bool ceilMode) {
  int64_t span = in + pb + pe - dil * (k - 1) - 1;
  if (span < 0 || s <= 0)
    return std::nullopt;
  Window w;
  w.out = (ceilMode ? (span + s - 1) / s : span / s) + 1;
  if (ceilMode && (w.out - 1) * s >= in + pb)
    --w.out;
  w.padBegin = pb;
  // The padded input must end exactly at the last window.
  int64_t end = (w.out - 1) * s + dil * (k - 1) + 1 - (in + pb);
  if (end < 0) {
    w.drop = -end;
    end = 0;
  }
  w.padEnd = end;
  return w;
}

FailureOr<SmallVector<Window>>
Importer::windows(ArrayRef<int64_t> spatial, ArrayRef<int64_t> kernel,
                  ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
                  ArrayRef<int64_t> pads, bool ceilMode, StringRef what) {
  size_t nd = spatial.size();
  SmallVector<Window> win;
  for (size_t d = 0; d < nd; ++d) {
    std::optional<Window> wd =
        window(spatial[d], kernel[d], strides[d], dilations[d], pads[d],
               pads[d + nd], ceilMode);
    if (!wd)
      return error() << "the " << what << " does not fit the padded input "
                     << shapeStr(input(0)->shape),
             failure();
    win.push_back(*wd);
  }
  return win;
}

FailureOr<Importer::PoolAttrs> Importer::poolAttrs(bool isMax, bool global,
                                                   ArrayRef<int64_t> spatial) {
  size_t nd = spatial.size();
  PoolAttrs a{Shape(spatial.begin(), spatial.end()), Shape(nd, 1),
              Shape(2 * nd, 0), Shape(nd, 1)};
  if (global)
    return a;
  FailureOr<std::optional<Shape>> kernel = intsAttr("kernel_shape"),
                                  strides = intsAttr("strides"),
                                  pads = intsAttr("pads"),
                                  dil = intsAttr("dilations");
  FailureOr<int64_t> ceil = intAttr("ceil_mode", 0),
                     cip = intAttr("count_include_pad", 0),
                     order = intAttr("storage_order", 0);
  FailureOr<std::string> autoPad = stringAttr("auto_pad", "NOTSET");
  if (failed(kernel) || failed(strides) || failed(pads) || failed(dil) ||
      failed(ceil) || failed(cip) || failed(order) || failed(autoPad))
    return failure();
  if (!*kernel || (*kernel)->size() != nd)
    return error() << "needs a " << nd << "-D kernel_shape", failure();
  a.kernel = **kernel;
  a.strides = strides->value_or(a.strides);
  a.pads = pads->value_or(a.pads);
  a.dilations = dil->value_or(a.dilations);
  if (!isMax && a.dilations != Shape(nd, 1))
    return error() << "dilations " << shapeStr(a.dilations)
                   << " are not supported for AveragePool",
           failure();
  if (a.strides.size() != nd || a.pads.size() != 2 * nd ||
      a.dilations.size() != nd ||
      llvm::any_of(llvm::concat<int64_t>(a.kernel, a.strides, a.dilations),
                   [](int64_t v) { return v <= 0 || v > kMaxWindowAttr; }) ||
      llvm::any_of(a.pads,
                   [](int64_t v) { return v < 0 || v > kMaxWindowAttr; }))
    return error() << "invalid kernel_shape, strides, dilations or pads",
           failure();
  if (failed(resolveAutoPad(*autoPad, spatial, a.kernel, a.strides, a.dilations,
                            a.pads)))
    return failure();
  a.ceilMode = *ceil;
  a.countPad = !isMax && *cip;
  if (a.countPad && a.ceilMode)
    return error() << "count_include_pad with ceil_mode is not supported",
           failure();
  return a;
}

LogicalResult Importer::resolveAutoPad(StringRef autoPad, ArrayRef<int64_t> in,
                                       ArrayRef<int64_t> kernel,
                                       ArrayRef<int64_t> strides,
                                       ArrayRef<int64_t> dilations,
                                       Shape &pads) {
  size_t nd = in.size();
  if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    for (size_t d = 0; d < nd; ++d) {
      int64_t out = (in[d] + strides[d] - 1) / strides[d];
      int64_t total =
          std::max<int64_t>(0, (out - 1) * strides[d] +
                                   dilations[d] * (kernel[d] - 1) + 1 - in[d]);
      int64_t small = total / 2, big = total - small;
      pads[d] = autoPad == "SAME_UPPER" ? small : big;
      pads[d + nd] = autoPad == "SAME_UPPER" ? big : small;
    }
  } else if (autoPad == "VALID") {
    pads.assign(2 * nd, 0);
  } else if (autoPad != "NOTSET") {
    return error() << "auto_pad '" << autoPad << "' is not supported",
           failure();
  }
  return success();
}

FailureOr<Importer::ConvAttrs> Importer::convAttrs(int nd) {
  FailureOr<int64_t> group = intAttr("group", 1);
  FailureOr<std::string> autoPad = stringAttr("auto_pad", "NOTSET");
  FailureOr<std::optional<Shape>> strides = intsAttr("strides"),
                                  dilations = intsAttr("dilations"),
                                  pads = intsAttr("pads"),
                                  kernel = intsAttr("kernel_shape");
  if (failed(group) || failed(autoPad) || failed(strides) ||
      failed(dilations) || failed(pads) || failed(kernel))
    return failure();
  ConvAttrs a{*group,
              *autoPad,
              *kernel,
              strides->value_or(Shape(nd, 1)),
              dilations->value_or(Shape(nd, 1)),
              pads->value_or(Shape(2 * nd, 0))};
  if (int64_t(a.strides.size()) != nd || int64_t(a.dilations.size()) != nd ||
      int64_t(a.pads.size()) != 2 * nd)
    return error() << "strides, dilations and pads must have " << nd << ", "
                   << nd << " and " << 2 * nd << " values",
           failure();
  for (int64_t v : llvm::concat<int64_t>(a.strides, a.dilations))
    if (v <= 0 || v > kMaxWindowAttr)
      return error() << "strides and dilations must be in [1, 2^30]", failure();
  for (int64_t v : a.pads)
    if (v < 0 || v > kMaxWindowAttr)
      return error() << "pads must be in [0, 2^30]", failure();
  return a;
}

FailureOr<Value> Importer::convBias(int64_t o) {
  if (!hasInput(2))
    return constant(HostTensor::floats({o}, std::vector<float>(o, 0.0f)));
  Entry &bias = *input(2);
  if (bias.shape != Shape{o})
    return error() << "bias " << shapeStr(bias.shape) << " must have " << o
                   << " elements",
           failure();
  return bias.value ? logical(bias) : constant(*bias.host);
}

SmallVector<NamedAttribute> Importer::convOpAttrs(ArrayRef<int64_t> pad,
                                                  ArrayRef<int64_t> stride,
                                                  ArrayRef<int64_t> dilation) {
  return {b.getNamedAttr("pad", b.getDenseI64ArrayAttr(pad)),
          b.getNamedAttr("stride", b.getDenseI64ArrayAttr(stride)),
          b.getNamedAttr("dilation", b.getDenseI64ArrayAttr(dilation)),
          b.getNamedAttr("acc_type", TypeAttr::get(b.getF32Type()))};
}

LogicalResult Importer::importConv() {
  Entry &x = *input(0);
  Entry *w = input(1);
  if (!w)
    return error() << "has no weight input", failure();
  if (x.shape.size() != 4 || w->shape.size() != 4)
    return error() << "only 1-D and 2-D convolutions are supported (input "
                   << shapeStr(x.shape) << ", weight " << shapeStr(w->shape)
                   << ")",
           failure();
  FailureOr<ConvAttrs> ca = convAttrs(2);
  if (failed(ca))
    return failure();
  int64_t n = x.shape[0], c = x.shape[1], h = x.shape[2], wd = x.shape[3];
  int64_t o = w->shape[0], kh = w->shape[2], kw = w->shape[3];
  int64_t g = ca->group;
  if (g <= 0 || c % g || o % g || w->shape[1] != c / g)
    return error() << "weight " << shapeStr(w->shape) << " does not match " << c
                   << " input channels in " << g << " groups",
           failure();
  if (ca->kernel && *ca->kernel != Shape{kh, kw})
    return error() << "kernel_shape " << shapeStr(*ca->kernel)
                   << " does not match the weight " << shapeStr(w->shape),
           failure();
  Shape st = ca->strides, dl = ca->dilations, pd = ca->pads;
  if (failed(resolveAutoPad(ca->autoPad, {h, wd}, {kh, kw}, st, dl, pd)))
    return failure();
  FailureOr<SmallVector<Window>> win =
      windows({h, wd}, {kh, kw}, st, dl, pd, false, "kernel");
  if (failed(win))
    return failure();
  const Window *wh = &(*win)[0], *ww = &(*win)[1];
  Value in = inNhwc(x);
  if (wh->drop || ww->drop)
    in = slice(in, {0, 0, 0, 0}, {n, h - wh->drop, wd - ww->drop, c});
  FailureOr<Value> bias = convBias(o);
  if (failed(bias))
    return failure();
  auto attrs = [&]() {
    return convOpAttrs({wh->padBegin, wh->padEnd, ww->padBegin, ww->padEnd}, st,
                       dl);
  };
  Shape outShape{n, wh->out, ww->out, o};
  Value y;
  Value biasValue = *bias;
  if (g == 1) {
    Value wv = w->value ? transpose(logical(*w), kToNhwc)
                        : constant(w->host->transposed(kToNhwc));
    y = op<tosa::Conv2DOp>(floatTensor(outShape),
                           {in, wv, biasValue, zeroPoint(), zeroPoint()},
                           attrs());
  } else if (g == c) {
    // Depthwise: weight [C*M, 1, KH, KW] -> [KH, KW, C, M].
    int64_t m = o / c;
    Value wv =
        w->value
            ? transpose(reshape(logical(*w), {c, m, kh, kw}), {2, 3, 0, 1})
            : constant(
                  w->host->reshaped({c, m, kh, kw}).transposed({2, 3, 0, 1}));
    y = op<tosa::DepthwiseConv2DOp>(
        floatTensor(outShape), {in, wv, biasValue, zeroPoint(), zeroPoint()},
        attrs());
  } else {
    Value wAll = w->value ? transpose(logical(*w), kToNhwc)
                          : constant(w->host->transposed(kToNhwc));
    y = groupedConv2D(in, wAll, biasValue,
                      {wh->padBegin, wh->padEnd, ww->padBegin, ww->padEnd}, st,
                      dl, g, outShape);
  }
  return define(0, result(y, {n, o, wh->out, ww->out}, true));
}

LogicalResult Importer::importConv3D() {
  Entry &x = *input(0);
  Entry *w = input(1);
  if (!w)
    return error() << "has no weight input", failure();
  if (w->shape.size() != 5)
    return error() << "weight " << shapeStr(w->shape)
                   << " must have 5 dimensions like input "
                   << shapeStr(x.shape),
           failure();
  FailureOr<ConvAttrs> ca = convAttrs(3);
  if (failed(ca))
    return failure();
  int64_t n = x.shape[0], c = x.shape[1], o = w->shape[0], g = ca->group;
  Shape spatial(ArrayRef(x.shape).drop_front(2)),
      k(ArrayRef(w->shape).drop_front(2));
  if (g <= 0 || c % g || o % g || w->shape[1] != c / g)
    return error() << "weight " << shapeStr(w->shape) << " does not match " << c
                   << " input channels in " << g << " groups",
           failure();
  if (ca->kernel && *ca->kernel != k)
    return error() << "kernel_shape " << shapeStr(*ca->kernel)
                   << " does not match the weight " << shapeStr(w->shape),
           failure();
  Shape st = ca->strides, dl = ca->dilations, pd = ca->pads;
  if (failed(resolveAutoPad(ca->autoPad, spatial, k, st, dl, pd)))
    return failure();
  FailureOr<SmallVector<Window>> win =
      windows(spatial, k, st, dl, pd, false, "kernel");
  if (failed(win))
    return failure();
  Shape drop{n}, tosaPad, outNdhwc{n};
  for (auto [d, wd] : llvm::enumerate(*win)) {
    drop.push_back(spatial[d] - wd.drop);
    tosaPad.append({wd.padBegin, wd.padEnd});
    outNdhwc.push_back(wd.out);
  }
  drop.push_back(c);
  outNdhwc.push_back(o);
  static constexpr int64_t kToNdhwc[5] = {0, 2, 3, 4, 1};
  Value in = transpose(logical(x), kToNdhwc);
  in = slice(in, Shape(5, 0), drop);
  Value wAll = w->value ? transpose(logical(*w), kToNdhwc)
                        : constant(w->host->transposed(kToNdhwc));
  FailureOr<Value> bias = convBias(o);
  if (failed(bias))
    return failure();
  Value biasValue = *bias;
  SmallVector<NamedAttribute> attrs = convOpAttrs(tosaPad, st, dl);
  Value y;
  if (g == 1) {
    y = op<tosa::Conv3DOp>(floatTensor(outNdhwc),
                           {in, wAll, biasValue, zeroPoint(), zeroPoint()},
                           attrs);
  } else {
    // Grouped (depthwise too): one convolution over [n, d, h, w, g, c/g]
    // with the weight as [g, o/g, kd, kh, kw, c/g] (linalg has no named
    // grouped 3-D convolution: a generic with the convolution's maps).
    int64_t cg = c / g, og = o / g;
    Value padded = pad(in, {0, tosaPad[0], tosaPad[2], tosaPad[4], 0},
                       {0, tosaPad[1], tosaPad[3], tosaPad[5], 0}, 0.0f);
    Shape ps(shapeOf(padded));
    Value in6 = reshape(padded, {ps[0], ps[1], ps[2], ps[3], g, cg});
    Value w6 = reshape(wAll, {g, og, k[0], k[1], k[2], cg});
    Shape out6{n, outNdhwc[1], outNdhwc[2], outNdhwc[3], g, og};
    Value empty = tensor::EmptyOp::create(b, loc, out6, b.getF32Type());
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
    Value filled =
        linalg::FillOp::create(b, loc, ValueRange{zero}, ValueRange{empty})
            .getResult(0);
    // Loops (n, od, oh, ow, g, f, kd, kh, kw, c).
    MLIRContext *ctx = b.getContext();
    auto dim = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
    SmallVector<AffineExpr> inExprs{dim(0)};
    for (unsigned d = 0; d < 3; ++d)
      inExprs.push_back(dim(1 + d) * st[d] + dim(6 + d) * dl[d]);
    inExprs.append({dim(4), dim(9)});
    SmallVector<AffineMap> maps{
        AffineMap::get(10, 0, inExprs, ctx),
        AffineMap::get(10, 0, {dim(4), dim(5), dim(6), dim(7), dim(8), dim(9)},
                       ctx),
        AffineMap::get(10, 0, {dim(0), dim(1), dim(2), dim(3), dim(4), dim(5)},
                       ctx)};
    SmallVector<utils::IteratorType> iters(6, utils::IteratorType::parallel);
    iters.append(4, utils::IteratorType::reduction);
    // Products summed in f32 whatever the operands' float type.
    Value conv =
        linalg::GenericOp::create(
            b, loc, TypeRange{accTensor(out6)}, ValueRange{in6, w6},
            ValueRange{filled}, maps, iters,
            [](OpBuilder &nb, Location l, ValueRange args) {
              auto wide = [&](Value v) -> Value {
                return v.getType().isF32()
                           ? v
                           : arith::ExtFOp::create(nb, l, nb.getF32Type(), v);
              };
              Value p =
                  arith::MulFOp::create(nb, l, wide(args[0]), wide(args[1]));
              linalg::YieldOp::create(
                  nb, l, arith::AddFOp::create(nb, l, args[2], p).getResult());
            })
            .getResult(0);
    y = binaryOp("Add", reshape(convertFloat(conv, floatType), outNdhwc),
                 reshape(biasValue, {1, 1, 1, 1, o}));
  }
  static constexpr int64_t kFromNdhwc[5] = {0, 4, 1, 2, 3};
  Shape out{n, o, outNdhwc[1], outNdhwc[2], outNdhwc[3]};
  return define(0, result(transpose(y, kFromNdhwc), out, false));
}

Value Importer::windowReduce(Value in, ArrayRef<int64_t> kernel,
                             ArrayRef<int64_t> strides,
                             ArrayRef<int64_t> dilations,
                             ArrayRef<int64_t> padBegin,
                             ArrayRef<int64_t> outShape, bool isMax) {
  unsigned nd = kernel.size(), rank = nd + 2;
  Shape inShape(shapeOf(in));
  float init = isMax ? -std::numeric_limits<float>::infinity() : 0.0f;
  Value empty = tensor::EmptyOp::create(b, loc, outShape, floatType);
  Value initValue =
      arith::ConstantOp::create(b, loc, b.getFloatAttr(floatType, init));
  Value filled =
      linalg::FillOp::create(b, loc, ValueRange{initValue}, ValueRange{empty})
          .getResult(0);
  // Loops: the output's (n, o_1..o_nd, c), then the window's k_1..k_nd.
  Value windowShape = tensor::EmptyOp::create(b, loc, kernel, floatType);
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineExpr> windowDims, outDims;
  for (unsigned d = 0; d < nd; ++d)
    windowDims.push_back(getAffineDimExpr(rank + d, ctx));
  for (unsigned d = 0; d < rank; ++d)
    outDims.push_back(getAffineDimExpr(d, ctx));
  SmallVector<AffineMap> maps{AffineMap::get(rank + nd, 0, windowDims, ctx),
                              AffineMap::get(rank + nd, 0, outDims, ctx)};
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  iters.append(nd, utils::IteratorType::reduction);
  return linalg::GenericOp::create(
             b, loc, TypeRange{floatTensor(outShape)}, ValueRange{windowShape},
             ValueRange{filled}, maps, iters,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               auto cst = [&](int64_t v) {
                 return arith::ConstantIndexOp::create(nb, l, v).getResult();
               };
               Value inBounds;
               SmallVector<Value> idx{linalg::IndexOp::create(nb, l, 0)};
               for (unsigned d = 0; d < nd; ++d) {
                 // i = o * stride + k * dilation - padBegin, in [0, size).
                 Value o = linalg::IndexOp::create(nb, l, 1 + d);
                 Value kk = linalg::IndexOp::create(nb, l, rank + d);
                 Value pos = arith::AddIOp::create(
                     nb, l, arith::MulIOp::create(nb, l, o, cst(strides[d])),
                     arith::MulIOp::create(nb, l, kk, cst(dilations[d])));
                 pos = arith::SubIOp::create(nb, l, pos, cst(padBegin[d]));
                 int64_t size = inShape[1 + d];
                 Value ge = arith::CmpIOp::create(
                     nb, l, arith::CmpIPredicate::sge, pos, cst(0));
                 Value lt = arith::CmpIOp::create(
                     nb, l, arith::CmpIPredicate::slt, pos, cst(size));
                 Value ok = arith::AndIOp::create(nb, l, ge, lt);
                 inBounds =
                     inBounds ? arith::AndIOp::create(nb, l, inBounds, ok) : ok;
                 Value clamped = arith::MaxSIOp::create(nb, l, pos, cst(0));
                 idx.push_back(
                     arith::MinSIOp::create(nb, l, clamped, cst(size - 1)));
               }
               idx.push_back(linalg::IndexOp::create(nb, l, rank - 1));
               Value v = tensor::ExtractOp::create(nb, l, in, idx);
               v = arith::SelectOp::create(
                   nb, l, inBounds, v,
                   arith::ConstantOp::create(nb, l,
                                             nb.getFloatAttr(floatType, init)));
               Value r =
                   isMax ? arith::MaximumFOp::create(nb, l, args[1], v)
                               .getResult()
                         : arith::AddFOp::create(nb, l, args[1], v).getResult();
               linalg::YieldOp::create(nb, l, r);
             })
      .getResult(0);
}

LogicalResult Importer::importPool3D(bool isMax, bool global) {
  Entry &x = *input(0);
  if (outputUsed(1))
    return error() << "the Indices output is not supported", failure();
  int64_t n = x.shape[0], c = x.shape[1];
  Shape spatial(ArrayRef(x.shape).drop_front(2));
  FailureOr<PoolAttrs> pa = poolAttrs(isMax, global, spatial);
  if (failed(pa))
    return failure();
  const Shape &k = pa->kernel, &st = pa->strides, &dl = pa->dilations;
  bool countPad = pa->countPad;
  FailureOr<SmallVector<Window>> win =
      windows(spatial, k, st, dl, pa->pads, pa->ceilMode, "window");
  if (failed(win))
    return failure();
  Shape outNdhwc{n};
  for (const Window &wd : *win)
    outNdhwc.push_back(wd.out);
  outNdhwc.push_back(c);
  // Checked here: the mean's count table is built before define() would.
  if (numElements(outNdhwc).value_or(kMaxElements + 1) > kMaxElements ||
      tooManyBytes(outNdhwc))
    return error() << "the output "
                   << shapeStr({n, c, outNdhwc[1], outNdhwc[2], outNdhwc[3]})
                   << " is too large",
           failure();
  static constexpr int64_t kToNdhwc[5] = {0, 2, 3, 4, 1};
  Value in = transpose(logical(x), kToNdhwc);
  SmallVector<int64_t> padBegin;
  for (const Window &wd : *win)
    padBegin.push_back(wd.padBegin);
  Value y = windowReduce(in, k, st, dl, padBegin, outNdhwc, isMax);
  if (!isMax) {
    // The mean: over the whole window (count_include_pad), else over the
    // input elements it covers, a count known per output position.
    Shape countShape{1, outNdhwc[1], outNdhwc[2], outNdhwc[3], 1};
    std::vector<float> inv;
    inv.reserve(*numElements(countShape));
    auto covered = [&](int d, int64_t o) {
      if (countPad)
        return k[d];
      int64_t cnt = 0;
      for (int64_t kk = 0; kk < k[d]; ++kk) {
        int64_t pos = o * st[d] + kk * dl[d] - (*win)[d].padBegin;
        cnt += pos >= 0 && pos < spatial[d];
      }
      return cnt;
    };
    for (int64_t a = 0; a < outNdhwc[1]; ++a)
      for (int64_t bb = 0; bb < outNdhwc[2]; ++bb)
        for (int64_t cc = 0; cc < outNdhwc[3]; ++cc) {
          int64_t cnt = covered(0, a) * covered(1, bb) * covered(2, cc);
          inv.push_back(cnt ? 1.0f / float(cnt) : 0.0f);
        }
    y = binaryOp("Mul", y, constant(HostTensor::floats(countShape, inv)));
  }
  static constexpr int64_t kFromNdhwc[5] = {0, 4, 1, 2, 3};
  Shape out{n, c, outNdhwc[1], outNdhwc[2], outNdhwc[3]};
  return define(0, result(transpose(y, kFromNdhwc), out, false));
}

LogicalResult Importer::importConvTranspose() {
  Entry &x = *input(0);
  Entry *w = input(1);
  if (x.shape.size() != 4 || w->shape.size() != 4)
    return error() << "only 1-D and 2-D ConvTranspose is supported (input "
                   << shapeStr(x.shape) << ", weight " << shapeStr(w->shape)
                   << ")",
           failure();
  FailureOr<ConvAttrs> ca = convAttrs(2);
  FailureOr<std::optional<Shape>> outPadding = intsAttr("output_padding"),
                                  outShapeAttr = intsAttr("output_shape");
  if (failed(ca) || failed(outPadding) || failed(outShapeAttr))
    return failure();
  int64_t n = x.shape[0], c = x.shape[1], h = x.shape[2], wd = x.shape[3];
  int64_t g = ca->group, kh = w->shape[2], kw = w->shape[3];
  if (g <= 0 || c % g || w->shape[0] != c)
    return error() << "weight " << shapeStr(w->shape) << " does not match " << c
                   << " input channels in " << g << " groups",
           failure();
  int64_t cg = c / g, og = w->shape[1], o = og * g;
  if (ca->kernel && *ca->kernel != Shape{kh, kw})
    return error() << "kernel_shape " << shapeStr(*ca->kernel)
                   << " does not match the weight " << shapeStr(w->shape),
           failure();
  Shape st = ca->strides, dl = ca->dilations, pd = ca->pads,
        outPad = outPadding->value_or(Shape{0, 0});
  if (outPad.size() != 2)
    return error() << "output_padding must have 2 values", failure();
  for (int d = 0; d < 2; ++d)
    if (outPad[d] < 0 || outPad[d] >= std::max(st[d], dl[d]))
      return error() << "output_padding " << shapeStr(outPad)
                     << " must be below the stride or the dilation",
             failure();
  Shape in{h, wd}, k{kh, kw};
  // The full output before pads: s * (in - 1) + output_padding +
  // (k - 1) * d + 1; output_shape or auto_pad SAME_* fix the pads from it.
  auto full = [&](int d) {
    return st[d] * (in[d] - 1) + outPad[d] + (k[d] - 1) * dl[d] + 1;
  };
  std::optional<Shape> want;
  if (*outShapeAttr) {
    Shape os = **outShapeAttr;
    if (os.size() == 4 && os[0] == n && os[1] == o)
      os.erase(os.begin(), os.begin() + 2);
    if (os.size() != 2)
      return error() << "output_shape " << shapeStr(**outShapeAttr)
                     << " must give the 2 spatial sizes",
             failure();
    want = os;
  } else if (ca->autoPad == "SAME_UPPER" || ca->autoPad == "SAME_LOWER") {
    want = Shape{in[0] * st[0], in[1] * st[1]};
  } else if (ca->autoPad == "VALID") {
    pd.assign(4, 0);
  } else if (ca->autoPad != "NOTSET") {
    return error() << "auto_pad '" << ca->autoPad << "' is not supported",
           failure();
  }
  if (want)
    for (int d = 0; d < 2; ++d) {
      // The spec's split (floor division); a negative total (an output
      // larger than the full one) extends it with positions no input
      // element reaches (the bias alone).
      if ((*want)[d] <= 0 || (*want)[d] > kMaxWindowAttr)
        return error() << "output_shape " << shapeStr(*want)
                       << " must be positive",
               failure();
      int64_t total = full(d) - (*want)[d];
      int64_t half = llvm::divideFloorSigned(total, 2);
      bool upper = ca->autoPad == "SAME_UPPER";
      pd[d] = upper ? half : total - half;
      pd[d + 2] = upper ? total - half : half;
    }
  Shape outHW;
  for (int d = 0; d < 2; ++d) {
    outHW.push_back(full(d) - pd[d] - pd[d + 2]);
    if (outHW.back() <= 0)
      return error() << "pads " << shapeStr(pd)
                     << " leave no output (full output "
                     << shapeStr({full(0), full(1)}) << ")",
             failure();
  }
  if (numElements({n, o, outHW[0], outHW[1]}).value_or(kMaxElements + 1) >
      kMaxElements)
    return error() << "the output is too large", failure();
  // The input spread out by the stride: [n, h, 1, w, 1, c] padded with
  // zeros to [n, h, sh, w, sw, c], then the trailing zeros cut off.
  Value v = inNhwc(x);
  if (st != Shape{1, 1}) {
    v = reshape(v, {n, h, 1, wd, 1, c});
    v = pad(v, {0, 0, 0, 0, 0, 0}, {0, 0, st[0] - 1, 0, st[1] - 1, 0}, 0.0f);
    v = reshape(v, {n, h * st[0], wd * st[1], c});
    v = slice(v, {0, 0, 0, 0},
              {n, (h - 1) * st[0] + 1, (wd - 1) * st[1] + 1, c});
  }
  // A convolution (stride 1, the same dilation) with the flipped weight,
  // padded by d * (k - 1) - pad_begin before and d * (k - 1) - pad_end +
  // output_padding after; a negative amount crops the input instead.
  Shape spread(shapeOf(v)), cropStart(4, 0), cropSize(spread), convPad;
  for (int d = 0; d < 2; ++d) {
    int64_t reach = dl[d] * (k[d] - 1);
    int64_t before = reach - pd[d], after = reach - pd[d + 2] + outPad[d];
    cropStart[1 + d] = std::max<int64_t>(0, -before);
    cropSize[1 + d] = spread[1 + d] - std::max<int64_t>(0, -before) -
                      std::max<int64_t>(0, -after);
    if (cropSize[1 + d] <= 0)
      return error() << "pads " << shapeStr(pd) << " crop away the whole input",
             failure();
    convPad.append({std::max<int64_t>(0, before), std::max<int64_t>(0, after)});
  }
  v = slice(v, cropStart, cropSize);
  // Weight [c, og, kh, kw] -> [g, og, kh, kw, cg], flipped in kh and kw,
  // as [o, kh, kw, cg]: the layout of a (grouped) convolution's weight.
  Value wv;
  if (w->value) {
    wv = transpose(reshape(logical(*w), {g, cg, og, kh, kw}), {0, 2, 3, 4, 1});
    for (int axis : {2, 3})
      wv = op<tosa::ReverseOp>(
          wv.getType(), {wv},
          {b.getNamedAttr("axis", b.getI32IntegerAttr(axis))});
    wv = reshape(wv, {o, kh, kw, cg});
  } else {
    wv = constant(w->host->reshaped({g, cg, og, kh, kw})
                      .transposed({0, 2, 3, 4, 1})
                      .sliced({0, 0, kh - 1, kw - 1, 0}, {g, og, kh, kw, cg},
                              {1, 1, -1, -1, 1})
                      .reshaped({o, kh, kw, cg}));
  }
  FailureOr<Value> bias = convBias(o);
  if (failed(bias))
    return failure();
  Value biasValue = *bias;
  SmallVector<NamedAttribute> attrs = convOpAttrs(convPad, {1, 1}, dl);
  Shape outShape{n, outHW[0], outHW[1], o};
  Value y;
  if (g == 1) {
    y = op<tosa::Conv2DOp>(floatTensor(outShape),
                           {v, wv, biasValue, zeroPoint(), zeroPoint()}, attrs);
  } else {
    y = groupedConv2D(v, wv, biasValue, convPad, {1, 1}, dl, g, outShape);
  }
  return define(0, result(y, {n, o, outHW[0], outHW[1]}, true));
}

Importer::Normalized Importer::normalize(Value v, ArrayRef<int64_t> axes,
                                         float eps) {
  // mean = sum(v) / N over the axes; var likewise over (v - mean)^2.
  ArrayRef<int64_t> shape = shapeOf(v);
  int64_t rank = shape.size(), count = 1;
  for (int64_t d : axes)
    count *= shape[d];
  auto sumOver = [&](Value t) {
    for (int64_t d : axes)
      t = reduce("sum", t, d);
    return t;
  };
  Value invN = scalar(1.0f / float(count), rank);
  Value mean = binaryOp("Mul", sumOver(v), invN);
  Value xc = binaryOp("Sub", v, mean);
  Value var = binaryOp("Mul", sumOver(binaryOp("Mul", xc, xc)), invN);
  Value rstd = op<tosa::RsqrtOp>(var.getType(),
                                 {binaryOp("Add", var, scalar(eps, rank))});
  return {binaryOp("Mul", xc, rstd), mean, rstd};
}

FailureOr<float> Importer::normalizationEpsilon() {
  const Entry &x = *input(0);
  if (x.shape.size() < 3)
    return error() << "input " << shapeStr(x.shape)
                   << " must have a batch, a channel and a spatial dimension",
           failure();
  FailureOr<float> eps = floatAttr("epsilon", 1e-5f);
  if (failed(eps))
    return failure();
  if (!std::isfinite(*eps) || *eps < 0.0f)
    return error() << "epsilon must be finite and not negative, got " << *eps,
           failure();
  return eps;
}

LogicalResult Importer::importInstanceNorm() {
  Entry &x = *input(0);
  int64_t rank = x.shape.size();
  FailureOr<float> eps = normalizationEpsilon();
  if (failed(eps))
    return failure();
  int64_t c = x.shape[1];
  for (int k : {1, 2})
    if (input(k)->shape != Shape{c})
      return error() << (k == 1 ? "scale " : "B ") << shapeStr(input(k)->shape)
                     << " must have " << c << " elements, one per channel",
             failure();
  // In x's own layout (NHWC stays NHWC): reduce over every axis but the
  // batch and the channel.
  Value v = x.value ? x.value : logical(x);
  bool nhwc = x.nhwc && x.value;
  int64_t chanAxis = physicalAxis(x, 1);
  if (!nhwc)
    chanAxis = 1;
  SmallVector<int64_t> axes;
  for (int64_t d = 1; d < rank; ++d)
    if (d != chanAxis)
      axes.push_back(d);
  Entry y = result(normalize(v, axes, *eps).y, x.shape, nhwc);
  Shape perChannel(rank, 1);
  perChannel[1] = c;
  for (int k : {1, 2}) {
    Entry p = *input(k);
    if (p.value)
      p = result(reshape(logical(p), perChannel), perChannel, false);
    else
      p.host = p.host->reshaped(perChannel), p.shape = perChannel;
    FailureOr<Entry> r = broadcastBinary(k == 1 ? "Mul" : "Add", y, p);
    if (failed(r))
      return failure();
    y = std::move(*r);
  }
  return define(0, std::move(y));
}

LogicalResult Importer::importGroupNorm() {
  Entry &x = *input(0);
  int64_t rank = x.shape.size();
  FailureOr<float> eps = normalizationEpsilon();
  if (failed(eps))
    return failure();
  if (!attr("num_groups"))
    return error() << "needs the attribute 'num_groups'", failure();
  FailureOr<int64_t> groups = intAttr("num_groups", 0);
  if (failed(groups))
    return failure();
  int64_t c = x.shape[1], g = *groups;
  if (g < 1 || c % g != 0)
    return error() << "num_groups " << g << " must divide the " << c
                   << " channels of input " << shapeStr(x.shape),
           failure();
  // Opset 18 gives one scale and one bias per group, opset 21 one per
  // channel.
  bool perGroup = opset < 21;
  int64_t count = perGroup ? g : c;
  for (int k : {1, 2})
    if (input(k)->shape != Shape{count})
      return error() << (k == 1 ? "scale " : "bias ")
                     << shapeStr(input(k)->shape) << " must have " << count
                     << " elements, one per "
                     << (perGroup ? "group" : "channel") << " (opset "
                     << (perGroup ? "18" : "21") << ")",
             failure();
  if (FailureOr<int64_t> stash = intAttr("stash_type", 1); failed(stash))
    return failure();
  // [N, groups, channels / group * spatial], normalized over its last axis:
  // one reduction axis, as a LayerNorm's (an NHWC input is read through
  // its transpose, which fuses into the reduction's kernel).
  int64_t n = x.shape[0];
  Value v = reshape(logical(x), {n, g, *numElements(x.shape) / (n * g)});
  Entry r = result(reshape(normalize(v, {2}, *eps).y, x.shape), x.shape, false);
  // Each group's scale and bias, repeated over its channels (opset 18), or
  // each channel's.
  Shape perChannel(rank, 1);
  perChannel[1] = c;
  for (int k : {1, 2}) {
    Entry p = *input(k);
    if (!perGroup) {
      if (p.value)
        p = result(reshape(logical(p), perChannel), perChannel, false);
      else
        p.host = p.host->reshaped(perChannel), p.shape = perChannel;
    } else if (!p.value) {
      std::vector<float> values;
      for (int64_t ch = 0; ch < c; ++ch)
        values.push_back(float(p.host->at(ch / (c / g))));
      p.host = HostTensor::floats(perChannel, std::move(values));
      p.shape = perChannel;
    } else {
      Value pv = reshape(logical(p), {g, 1});
      pv = op<tosa::TileOp>(like(pv, {g, c / g}), {pv, shapeValue({1, c / g})});
      p = result(reshape(pv, perChannel), perChannel, false);
    }
    FailureOr<Entry> s = broadcastBinary(k == 1 ? "Mul" : "Add", r, p);
    if (failed(s))
      return failure();
    r = std::move(*s);
  }
  return define(0, std::move(r));
}

Value Importer::groupedConv2D(Value in, Value weight, Value bias,
                              ArrayRef<int64_t> pad4, ArrayRef<int64_t> strides,
                              ArrayRef<int64_t> dilations, int64_t groups,
                              ArrayRef<int64_t> outNhwc) {
  if (llvm::any_of(pad4, [](int64_t v) { return v != 0; }))
    in = pad(in, {0, pad4[0], pad4[2], 0}, {0, pad4[1], pad4[3], 0}, 0.0f);
  Shape inShape(shapeOf(in)), wShape(shapeOf(weight));
  int64_t c = inShape[3], o = wShape[0], cg = c / groups, og = o / groups;
  Value in5 = reshape(in, {inShape[0], inShape[1], inShape[2], groups, cg});
  Value w5 = reshape(weight, {groups, og, wShape[1], wShape[2], cg});
  Shape out5{outNhwc[0], outNhwc[1], outNhwc[2], groups, og};
  // Products summed in f32 whatever the operands' float type.
  Value empty = tensor::EmptyOp::create(b, loc, out5, b.getF32Type());
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  Value filled =
      linalg::FillOp::create(b, loc, ValueRange{zero}, ValueRange{empty})
          .getResult(0);
  Value conv = linalg::Conv2DNhwgcGfhwcOp::create(
                   b, loc, TypeRange{accTensor(out5)}, ValueRange{in5, w5},
                   ValueRange{filled},
                   {b.getNamedAttr("strides", b.getI64TensorAttr(strides)),
                    b.getNamedAttr("dilations", b.getI64TensorAttr(dilations))})
                   .getResult(0);
  Value y = reshape(convertFloat(conv, floatType), outNhwc);
  return binaryOp("Add", y, reshape(bias, {1, 1, 1, o}));
}

LogicalResult Importer::refuseTrainingMode() {
  StringRef opType = node->op_type();
  if (opType != "BatchNormalization" && opType != "Dropout")
    return success();
  auto refuse = [&](const Twine &why) {
    return error() << "training mode is not supported (" << why
                   << "); export the model for inference",
           failure();
  };
  // Before opset 7 both ops have `is_test`, 0 (training) by default.
  if (opset < 7) {
    FailureOr<int64_t> isTest = intAttr("is_test", 0);
    if (failed(isTest))
      return failure();
    if (*isTest == 0)
      return refuse("is_test is 0, the default before opset 7");
  }
  if (opType == "BatchNormalization") {
    // Opsets 7 to 13 say training by the outputs: Y, mean, var, saved mean,
    // saved var; 14 and later by `training_mode`, with the running mean
    // and var as outputs only then. Either way, Y alone is the inference
    // form, whether or not the other outputs are read.
    if (opset >= 14) {
      FailureOr<int64_t> training = intAttr("training_mode", 0);
      if (failed(training))
        return failure();
      if (*training != 0)
        return refuse("training_mode = 1: Y from the batch's statistics");
    }
    int declared = 0;
    for (int k = 1; k < node->output_size(); ++k)
      declared += !node->output(k).empty();
    if (declared)
      return refuse(Twine(declared + 1) +
                    " outputs: the training form, with Y from the batch's "
                    "statistics");
    return success();
  }
  // Dropout from opset 12: an optional boolean input says training.
  if (opset >= 12 && hasInput(2)) {
    Entry *training = input(2);
    if (!training->host)
      return refuse("training_mode is a run-time input");
    if (training->host->size() != 1)
      return error() << "training_mode must be one boolean, got "
                     << shapeStr(training->host->shape),
             failure();
    if (training->host->at(0) != 0)
      return refuse("training_mode is true: elements dropped at random");
  }
  return success();
}

LogicalResult Importer::importBatchNorm() {
  Entry &x = *input(0);
  if (x.shape.size() < 2)
    return error() << "input " << shapeStr(x.shape)
                   << " has no channel dimension",
           failure();
  FailureOr<float> eps = floatAttr("epsilon", 1e-5f);
  if (failed(eps))
    return failure();
  const char *names[4] = {"scale", "B", "input_mean", "input_var"};
  int64_t c = x.shape[1];
  Shape pshape(x.shape.size(), 1);
  pshape[1] = c;
  bool known = true;
  Entry params[4];
  for (int k = 0; k < 4; ++k) {
    Entry *e = input(k + 1);
    if (!e || *numElements(e->shape) != c)
      return error() << names[k] << " must hold " << c << " values", failure();
    known &= bool(e->host);
    params[k] = *e;
    // As [1, C, 1, 1] so that it broadcasts per channel.
    if (e->host)
      params[k].host = e->host->converted(true).reshaped(pshape);
    else
      params[k].value = reshape(logical(*e), pshape);
    params[k].nhwc = false;
    params[k].shape = pshape;
  }
  Entry mean = params[2], scale, shiftE = params[1];
  scale.shape = pshape;
  if (known) {
    // y = (x - mean) * (scale / sqrt(var + eps)) + B, folded per channel.
    std::vector<float> mul(c);
    for (int64_t k = 0; k < c; ++k)
      mul[k] = params[0].host->f[k] / std::sqrt(params[3].host->f[k] + *eps);
    scale.host = HostTensor::floats(pshape, std::move(mul));
  } else {
    Value var = operandFor(params[3], pshape.size(), false);
    Value rstd = op<tosa::RsqrtOp>(
        var.getType(), {binaryOp("Add", var, scalar(*eps, pshape.size()))});
    scale.value =
        binaryOp("Mul", operandFor(params[0], pshape.size(), false), rstd);
  }
  FailureOr<Entry> a = broadcastBinary("Sub", x, mean);
  if (failed(a))
    return failure();
  FailureOr<Entry> m = broadcastBinary("Mul", *a, scale);
  if (failed(m))
    return failure();
  FailureOr<Entry> y = broadcastBinary("Add", *m, shiftE);
  if (failed(y))
    return failure();
  return define(0, std::move(*y));
}

LogicalResult Importer::importPool(bool isMax, bool global) {
  Entry &x = *input(0);
  if (x.shape.size() != 4)
    return error() << "only 1-D and 2-D pooling is supported (input "
                   << shapeStr(x.shape) << ")",
           failure();
  if (outputUsed(1))
    return error() << "the Indices output is not supported", failure();
  int64_t n = x.shape[0], c = x.shape[1], h = x.shape[2], wd = x.shape[3];
  FailureOr<PoolAttrs> pa = poolAttrs(isMax, global, {h, wd});
  if (failed(pa))
    return failure();
  const Shape &k = pa->kernel, &st = pa->strides, &dl = pa->dilations;
  bool countPad = pa->countPad;
  FailureOr<SmallVector<Window>> win =
      windows({h, wd}, k, st, dl, pa->pads, pa->ceilMode, "window");
  if (failed(win))
    return failure();
  const Window *wh = &(*win)[0], *ww = &(*win)[1];
  Value in = inNhwc(x);
  if (wh->drop || ww->drop)
    in = slice(in, {0, 0, 0, 0}, {n, h - wh->drop, wd - ww->drop, c});
  Shape pad{wh->padBegin, wh->padEnd, ww->padBegin, ww->padEnd};
  if (dl != Shape{1, 1}) {
    // TOSA's max_pool2d has no dilation.
    Value y = windowReduce(in, k, st, dl, {pad[0], pad[2]},
                           {n, wh->out, ww->out, c}, true);
    return define(0, result(y, {n, c, wh->out, ww->out}, true));
  }
  if (countPad && llvm::any_of(pad, [](int64_t v) { return v; })) {
    // Padding counts as zeros: pad explicitly, then pool without padding.
    in = this->pad(in, {0, pad[0], pad[2], 0}, {0, pad[1], pad[3], 0}, 0.0f);
    pad.assign(4, 0);
  }
  for (int d = 0; d < 2; ++d)
    if (pad[2 * d] >= k[d] || pad[2 * d + 1] >= k[d])
      return error() << "padding " << shapeStr(pad)
                     << " is not smaller than the kernel " << shapeStr(k),
             failure();
  Shape outShape{n, wh->out, ww->out, c};
  SmallVector<NamedAttribute> attrs{
      b.getNamedAttr("kernel", b.getDenseI64ArrayAttr(k)),
      b.getNamedAttr("stride", b.getDenseI64ArrayAttr(st)),
      b.getNamedAttr("pad", b.getDenseI64ArrayAttr(pad))};
  Value y;
  if (isMax) {
    y = op<tosa::MaxPool2dOp>(floatTensor(outShape), {in}, attrs);
  } else {
    attrs.push_back(b.getNamedAttr("acc_type", TypeAttr::get(b.getF32Type())));
    y = op<tosa::AvgPool2dOp>(floatTensor(outShape),
                              {in, zeroPoint(), zeroPoint()}, attrs);
  }
  return define(0, result(y, {n, c, wh->out, ww->out}, true));
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

LogicalResult Importer::importMatMul(Entry &a, Entry &w, Entry &out,
                                     Entry *addend) {
  Shape sa = a.shape, sw = w.shape;
  if (sa.empty() || sw.empty())
    return error() << "MatMul operands must not be scalars", failure();
  bool vecA = sa.size() == 1, vecW = sw.size() == 1;
  if (vecA)
    sa.insert(sa.begin(), 1);
  if (vecW)
    sw.push_back(1);
  int64_t m = sa[sa.size() - 2], k = sa.back(), k2 = sw[sw.size() - 2],
          nn = sw.back();
  if (k != k2)
    return error() << "inner dimensions differ: " << shapeStr(a.shape) << " x "
                   << shapeStr(w.shape),
           failure();
  ArrayRef<int64_t> ba = ArrayRef(sa).drop_back(2),
                    bw = ArrayRef(sw).drop_back(2);
  std::optional<Shape> batch = broadcastShapes(ba, bw);
  if (!batch)
    return error() << "batch dimensions " << shapeStr(ba) << " and "
                   << shapeStr(bw) << " do not broadcast",
           failure();
  int64_t nb = *numElements(*batch);
  Value va = reshape(logical(a), sa);
  Value y;
  Shape outShape = *batch;
  outShape.append({m, nn});
  if (numElements(bw) == 1) {
    // One weight matrix: fold A's batch into its rows.
    int64_t rowsBatch = *numElements(ba);
    Value a3 = reshape(va, {1, rowsBatch * m, k});
    Value w3 = w.value ? reshape(logical(w), {1, k, nn})
                       : constant(w.host->reshaped({1, k, nn}));
    y = convertFloat(op<tosa::MatMulOp>(accTensor({1, rowsBatch * m, nn}),
                                        {a3, w3, zeroPoint(), zeroPoint()}),
                     floatType);
    if (addend) {
      if (!vecA && !vecW && ba.empty() && addend->shape.size() <= 2 &&
          broadcastShapes(addend->shape, {m, nn}) == Shape{m, nn}) {
        Entry y3 = result(y, {1, m, nn}, false);
        FailureOr<Entry> sum = broadcastBinary("Add", y3, *addend);
        if (failed(sum))
          return failure();
        y = sum->value;
        addend = nullptr;
      }
    }
    Shape rowsOut(ba.begin(), ba.end());
    rowsOut.append({m, nn});
    y = reshape(y, rowsOut);
    if (*numElements(ba) != nb)
      return error() << "batch broadcasting of A is not supported", failure();
  } else {
    auto expand = [&](Value v, ArrayRef<int64_t> bs, int64_t r, int64_t c) {
      Shape full(batch->size() - bs.size(), 1);
      full.append(bs.begin(), bs.end());
      full.append({r, c});
      v = reshape(v, full);
      Shape mult;
      for (size_t d = 0; d < batch->size(); ++d)
        mult.push_back((*batch)[d] / full[d]);
      mult.append({1, 1});
      if (llvm::any_of(mult, [](int64_t v) { return v != 1; })) {
        Shape tiled = *batch;
        tiled.append({r, c});
        v = op<tosa::TileOp>(floatTensor(tiled), {v, shapeValue(mult)});
      }
      return reshape(v, {nb, r, c});
    };
    Value wl =
        w.value ? reshape(logical(w), sw) : constant(w.host->reshaped(sw));
    y = convertFloat(
        op<tosa::MatMulOp>(accTensor({nb, m, nn}),
                           {expand(va, ba, m, k), expand(wl, bw, k, nn),
                            zeroPoint(), zeroPoint()}),
        floatType);
    y = reshape(y, outShape);
  }
  Shape finalShape(batch->begin(), batch->end());
  if (!vecA)
    finalShape.push_back(m);
  if (!vecW)
    finalShape.push_back(nn);
  out = result(reshape(y, finalShape), finalShape, false);
  if (addend) {
    FailureOr<Entry> sum = broadcastBinary("Add", out, *addend);
    if (failed(sum))
      return failure();
    out = std::move(*sum);
  }
  return success();
}

LogicalResult Importer::importGemm() {
  FailureOr<float> alpha = floatAttr("alpha", 1.0f),
                   beta = floatAttr("beta", 1.0f);
  FailureOr<int64_t> ta = intAttr("transA", 0), tb = intAttr("transB", 0);
  if (failed(alpha) || failed(beta) || failed(ta) || failed(tb))
    return failure();
  Entry a = *input(0), w = *input(1);
  if (a.shape.size() != 2 || w.shape.size() != 2)
    return error() << "A and B must be matrices (got " << shapeStr(a.shape)
                   << ", " << shapeStr(w.shape) << ")",
           failure();
  auto trans = [&](Entry &e) {
    if (e.value)
      e.value = transpose(logical(e), {1, 0});
    else
      e.host = e.host->transposed({1, 0});
    e.nhwc = false;
    std::swap(e.shape[0], e.shape[1]);
  };
  if (*ta)
    trans(a);
  if (*tb)
    trans(w);
  bool scaleResult = *alpha != 1.0f && w.value;
  if (*alpha != 1.0f && !w.value) {
    w.host = w.host->converted(true);
    for (float &v : w.host->f)
      v *= *alpha;
  }
  Entry c;
  bool addC = hasInput(2) && *beta != 0.0f;
  if (addC) {
    c = *input(2);
    if (*beta != 1.0f && c.value) {
      c.value = binaryOp("Mul", logical(c), scalar(*beta, c.shape.size()));
      c.nhwc = false;
    } else if (*beta != 1.0f) {
      c.host = c.host->converted(true);
      for (float &v : c.host->f)
        v *= *beta;
    }
  }
  Entry y;
  if (scaleResult) {
    // alpha * (A B) + C: the scaling comes between the product and the add.
    if (failed(importMatMul(a, w, y)))
      return failure();
    y.value = binaryOp("Mul", y.value, scalar(*alpha, 2));
    if (addC) {
      FailureOr<Entry> r = broadcastBinary("Add", y, c);
      if (failed(r))
        return failure();
      y = std::move(*r);
    }
    return define(0, std::move(y));
  }
  if (failed(importMatMul(a, w, y, addC ? &c : nullptr)))
    return failure();
  return define(0, std::move(y));
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void Importer::registerNnOps(OpRegistry &r) {
  // Contractions take 16-bit operands and sum their products in f32.
  r.add("Conv",
        [](Importer &i) {
          size_t rank = i.input(0)->shape.size();
          return rank == 3 ? i.importAs2D(&Importer::importConv2D, false, false)
                 : rank == 5 ? i.importConv3D()
                             : i.importConv();
        })
      .inputs(2)
      .in16Bit();
  r.add("ConvTranspose", [](Importer &i) {
     return i.input(0)->shape.size() == 3
                ? i.importAs2D(&Importer::importConvTranspose2D, false, false)
                : i.importConvTranspose();
   }).inputs(2);
  r.add("MatMul",
        [](Importer &i) -> LogicalResult {
          Entry y;
          if (failed(i.importMatMul(*i.input(0), *i.input(1), y)))
            return failure();
          return i.define(0, std::move(y));
        })
      .inputs(2)
      .in16Bit();
  r.add("Gemm", [](Importer &i) { return i.importGemm(); }).inputs(2).in16Bit();
  r.add("Einsum", [](Importer &i) { return i.importEinsum(); });
  r.add("BatchNormalization", [](Importer &i) { return i.importBatchNorm(); })
      .inputs(5)
      .in16Bit();
  r.add("InstanceNormalization", [](Importer &i) {
     return i.importInstanceNorm();
   }).inputs(3);
  r.add(
       "GroupNormalization", [](Importer &i) { return i.importGroupNorm(); },
       18)
      .inputs(3)
      .ownSchema(3, {"epsilon", "num_groups"});
  // Opset 21: one scale and bias per channel; stash_type, the precision of
  // the statistics (fuse computes them in f32 whatever the model's type).
  r.add(
       "GroupNormalization", [](Importer &i) { return i.importGroupNorm(); },
       21)
      .inputs(3)
      .ownSchema(3, {"epsilon", "num_groups", "stash_type"});
  auto pool = [](Importer &i) {
    StringRef type = i.node->op_type();
    bool isMax = type.contains("Max"), global = type.starts_with("Global");
    size_t rank = i.input(0)->shape.size();
    return rank == 3   ? i.importAs2D(&Importer::importPool, isMax, global)
           : rank == 5 ? i.importPool3D(isMax, global)
                       : i.importPool(isMax, global);
  };
  for (StringRef op :
       {"MaxPool", "AveragePool", "GlobalMaxPool", "GlobalAveragePool"}) {
    OpSpec &spec = r.add(op, pool);
    // A maximum is exact in 16 bits.
    if (op == "MaxPool")
      spec.in16Bit();
  }
  // Opset 19: dilations (a dilated AveragePool is refused by name).
  r.add("AveragePool", pool, 19)
      .ownSchema(1, {"auto_pad", "ceil_mode", "count_include_pad", "dilations",
                     "kernel_shape", "pads", "strides"});
}
