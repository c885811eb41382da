//===- ImporterImpl.h - the ONNX importer's class, shared by its files ---===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// Private to lib/Target/ONNX: the Importer class and the helpers its op
// families (Elementwise.cpp, NN.cpp, Reduction.cpp, Shape.cpp, TypedOps.cpp,
// Quantization.cpp, Sequences.cpp, Fold.cpp and the rest) share.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_LIB_TARGET_ONNX_IMPORTERIMPL_H
#define FUSE_LIB_TARGET_ONNX_IMPORTERIMPL_H

#include "Checker.h"
#include "HostTensor.h"
#include "fuse/Target/ONNX/Import.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <cmath>
#include <cstring>
#include <google/protobuf/io/coded_stream.h>
#include <limits>
#include <numeric>
#include <onnx/onnx_pb.h>

namespace mlir::fuse::onnx_import::detail {

/// Physical NHWC from logical NCHW: dimension k of NHWC is dimension
/// kToNhwc[k] of NCHW.
constexpr int64_t kToNhwc[4] = {0, 2, 3, 1};
constexpr int64_t kToNchw[4] = {0, 3, 1, 2};
/// Where logical (NCHW) axis a lives in NHWC.
constexpr int64_t kAxisInNhwc[4] = {0, 3, 1, 2};
/// Largest stride, dilation, pad or kernel size taken (larger values only
/// come from broken or hostile models, and would overflow the arithmetic).
constexpr int64_t kMaxWindowAttr = int64_t(1) << 30;
/// Largest number of elements of any tensor the importer builds.
constexpr int64_t kMaxElements = int64_t(1) << 34;
/// The most dimensions a run-time tensor has (TOSA's limit).
constexpr size_t kMaxRank = 6;
/// The deepest message nesting parsed (a graph in an If in a graph ... is
/// about 4 levels a subgraph).
constexpr int kMaxNesting = 1000;
/// The most bytes a run-time tensor has (TOSA's 8K level: under 2 GiB).
constexpr int64_t kMaxTensorBytes = (int64_t(1) << 31) - 1;
/// The most elements a tensor that ConstantOfShape fills at import time has.
constexpr int64_t kMaxFilledElements = int64_t(1) << 26;

/// Whether a tensor of `shape` with `elemBytes`-byte elements (float32 by
/// default) is past kMaxTensorBytes.
inline bool tooManyBytes(ArrayRef<int64_t> shape, int64_t elemBytes = 4) {
  std::optional<int64_t> n = numElements(shape);
  return !n || *n > kMaxTensorBytes / elemBytes;
}

/// Bytes one element of run-time type `t` takes (i1: one byte).
inline int64_t elementBytes(Type t) {
  return std::max<int64_t>(1, t.getIntOrFloatBitWidth() / 8);
}

struct Entry {
  /// Run-time value; null while the tensor is only known at import time.
  Value value;
  /// `value` holds a 4-D tensor in NHWC order (its ONNX shape is NCHW).
  bool nhwc = false;
  /// ONNX shape.
  Shape shape;
  /// Contents, when known at import time.
  std::optional<HostTensor> host;
  /// The value in the other layout, once some op asked for it (so that all
  /// readers share one transpose: same-input siblings stay recognisable).
  Value otherLayout;
  /// The ONNX element type where the model states it (graph inputs,
  /// initializers, Constant, Shape); 0 where it is only derived.
  int32_t onnxType = 0;
};

inline std::string typeName(int32_t t) {
  // A data type this ONNX does not know has no name: say its number.
  if (!onnx::TensorProto_DataType_IsValid(t))
    return "unknown data type " + std::to_string(t);
  return onnx::TensorProto_DataType_Name(
      static_cast<onnx::TensorProto_DataType>(t));
}

inline std::string shapeStr(ArrayRef<int64_t> s) {
  std::string r = "[";
  for (size_t k = 0; k < s.size(); ++k)
    r += (k ? "," : "") + std::to_string(s[k]);
  return r + "]";
}

inline Shape permuted(ArrayRef<int64_t> s, ArrayRef<int64_t> perm) {
  Shape r;
  for (int64_t p : perm)
    r.push_back(s[p]);
  return r;
}

/// FLOAT, FLOAT16, BFLOAT16, INT64, INT32 or BOOL: how a run-time element
/// type is named.
inline std::string runtimeTypeName(Type t) {
  if (t.isF32())
    return "FLOAT";
  if (t.isF16())
    return "FLOAT16";
  if (t.isBF16())
    return "BFLOAT16";
  if (t.isInteger(1))
    return "BOOL";
  if (t.isInteger(32))
    return "INT32";
  if (t.isInteger(64))
    return "INT64";
  std::string text;
  llvm::raw_string_ostream os(text);
  t.print(os);
  return text;
}

/// How an input's element type is named in a diagnostic.
inline std::string elementKind(const Entry &e) {
  if (e.value)
    return runtimeTypeName(
        cast<RankedTensorType>(e.value.getType()).getElementType());
  if (e.onnxType)
    return typeName(e.onnxType);
  return e.host->isFloat ? "a float type" : "an integer type";
}

/// Whether an input holds floats.
inline bool holdsFloats(const Entry &e) {
  return e.value
             ? isa<FloatType>(
                   cast<RankedTensorType>(e.value.getType()).getElementType())
             : e.host->isFloat;
}

/// One spatial dimension of a window op: padding that TOSA accepts (the
/// window must end exactly on the padded input) and how many trailing input
/// rows to drop when even zero padding at the end is too much.
struct Window {
  int64_t padBegin = 0, padEnd = 0, drop = 0, out = 0;
};

/// What a Resize node asks for (its attributes, read and checked).
struct ResizeMode {
  std::string mode, coord, nearest;
  double cubicA = -0.75;
  bool excludeOutside = false;
};

/// The longest axis TopK takes (it compares each element with the whole
/// axis: quadratic work).
constexpr int64_t kMaxTopKAxis = int64_t(1) << 16;
/// The most comparisons ScatterND makes (output elements times update
/// entries: each point is compared with every entry).
constexpr int64_t kMaxScatterWork = int64_t(1) << 31;
/// The most input elements one output element of a Resize reads (taps of
/// all resized axes combined: 16 for a 2-D cubic).
constexpr int64_t kMaxTapCombinations = 256;

/// One resized axis: for each output index, `taps` input indices (in the
/// input) and their weights, row after row.
struct ResizeAxis {
  int64_t taps = 1;
  /// Whether the weights are read (else each output has one tap of 1).
  bool weighted = false;
  std::vector<int64_t> index;
  std::vector<float> weight;
};

/// Element x converted to `to` as ONNX's Cast does (TypedOps.cpp).
Value convertElement(OpBuilder &b, Location l, Value x, Type to);

class Importer;

/// How the importer takes one ONNX op type of the default domain, from one
/// opset on (the op's since-version there): the node's importer and what
/// the driver checks before calling it. An op is added by its family file's
/// registration (Importer::register*Ops) and nowhere else.
struct OpSpec {
  using Handler = LogicalResult (*)(Importer &);
  Handler import = nullptr;
  /// The first opset of the default domain the spec is for; it holds
  /// until the next spec registered for the same op type.
  int64_t since = 1;
  /// Inputs that must be present (named), or kEveryInput: all of a
  /// variadic op's.
  int required = 1;
  /// Takes run-time INT64/INT32/BOOL tensors (ids, masks, positions); every
  /// other op is refused an integer run-time input by name.
  bool integers = false;
  /// 16-bit floats stay 16-bit through it; every other op computes in f32
  /// between a conversion of its inputs and one of its results.
  bool keeps16Bit = false;

  /// An op version newer than the schemas of the libonnx fuse is built
  /// with (ONNX 1.12: opset 17) is not checked by ONNX's checker, which
  /// would hold it to the op's older schema; the driver checks it against
  /// this one instead.
  struct Schema {
    int maxInputs = 1;
    int minOutputs = 1;
    int maxOutputs = 1;
    SmallVector<StringRef> attributes;
  };
  std::optional<Schema> schema;

  static constexpr int kEveryInput = -1;
  static constexpr int kAnyCount = 1 << 30;

  /// The op's schema at this version: at most `maxInputs` inputs,
  /// `minOutputs` to `maxOutputs` outputs, and the attributes it defines.
  OpSpec &ownSchema(int maxInputs, std::initializer_list<StringRef> attributes,
                    int minOutputs = 1, int maxOutputs = 1) {
    schema = Schema{maxInputs, minOutputs, maxOutputs, attributes};
    return *this;
  }
  /// Whether the importer checks the node against `schema` in place of
  /// ONNX's checker: a version newer than libonnx's schemas.
  bool hasOwnSchema() const { return schema && since > onnxSchemaOpset(); }

  OpSpec &inputs(int n) {
    required = n;
    return *this;
  }
  /// Takes run-time integers, and moves, selects or compares 16-bit floats
  /// without widening them.
  OpSpec &takesIntegers() {
    integers = keeps16Bit = true;
    return *this;
  }
  OpSpec &in16Bit(bool keep = true) {
    keeps16Bit = keep;
    return *this;
  }
};

/// Every op the importer takes: (op type, since-version) -> OpSpec.
class OpRegistry {
public:
  /// Registers `import` for `opType` from opset `since` on; the returned
  /// spec is filled in by its setters.
  OpSpec &add(StringRef opType, OpSpec::Handler import, int64_t since = 1);
  /// The spec of `opType` at `opset` (the latest registered at or before
  /// it); null when the op is not taken at that opset.
  const OpSpec *lookup(StringRef opType, int64_t opset) const;
  /// The op types registered, sorted.
  std::vector<std::string> opTypes() const;

private:
  llvm::StringMap<SmallVector<OpSpec, 1>> specs;
};

class Importer {
public:
  Importer(MLIRContext *ctx, const OnnxImportOptions &opts)
      : ctx(ctx), b(ctx), opts(opts),
        fileLoc(FileLineColLoc::get(ctx, opts.modelName, 0, 0)) {}

  /// Imports the ModelProto in `bytes`; `owner` (the buffer holding them,
  /// if the caller gives it up) is released once they are parsed.
  OwningOpRef<ModuleOp> run(StringRef bytes,
                            std::unique_ptr<llvm::MemoryBuffer> owner = {});

private:
  // --- diagnostics -------------------------------------------------------
  /// Checks the node against `schema` (an op version newer than libonnx's
  /// schemas, which ONNX's checker left alone).
  LogicalResult checkOwnSchema(const OpSpec::Schema &schema);

  InFlightDiagnostic error() {
    InFlightDiagnostic d = mlir::emitError(fileLoc);
    if (node)
      d << "node '" << nodeName() << "' (" << node->op_type() << ", opset "
        << opset << "): ";
    return d;
  }
  std::string nodeName() const {
    return node->name().empty()
               ? node->op_type() + "#" + std::to_string(nodeIndex)
               : node->name();
  }

  // --- attributes --------------------------------------------------------
  const onnx::AttributeProto *attr(StringRef name) const {
    for (const onnx::AttributeProto &a : node->attribute())
      if (a.name() == name)
        return &a;
    return nullptr;
  }
  FailureOr<int64_t> intAttr(StringRef name, int64_t dflt);
  FailureOr<float> floatAttr(StringRef name, float dflt);
  FailureOr<std::string> stringAttr(StringRef name, StringRef dflt);
  FailureOr<std::optional<Shape>> intsAttr(StringRef name);

  // --- graph values ------------------------------------------------------
  int numInputs() const { return node->input_size(); }
  bool hasInput(int k) const {
    return k < node->input_size() && !node->input(k).empty();
  }
  Entry *input(int k);
  /// The import-time contents of input k, or an error naming what it is.
  FailureOr<const HostTensor *> constInput(int k, StringRef what);
  LogicalResult define(int k, Entry e);
  LogicalResult checkElementTypes();
  /// Checks graph output `out` against what the graph computes, `e`
  /// (known integers become a constant of the declared type here).
  LogicalResult checkDeclaredOutput(const onnx::ValueInfoProto &out, Entry &e);
  bool outputUsed(int k) const {
    return k < node->output_size() && !node->output(k).empty() &&
           usedNames.contains(node->output(k));
  }

  // --- parsing -----------------------------------------------------------
  FailureOr<HostTensor> parseTensor(const onnx::TensorProto &t);
  /// Reads the inputs opts.boundInputs names into the environment as known
  /// values (names into `bound`), checked against the declared inputs.
  LogicalResult bindInputs(const onnx::GraphProto &graph,
                           const llvm::StringSet<> &initNames,
                           llvm::StringSet<> &bound);
  /// A graph input's run-time type (its element type and static shape).
  FailureOr<RankedTensorType> inputType(const onnx::ValueInfoProto &v);

  // --- IR helpers --------------------------------------------------------
  /// A tensor of shape `s` and the node's float type (floatType).
  RankedTensorType floatTensor(ArrayRef<int64_t> s) {
    return RankedTensorType::get(s, floatType);
  }
  /// A contraction's result of shape `s`: f32, its products' sum, for
  /// operands of any float type (16-bit operands are not summed in 16 bits).
  RankedTensorType accTensor(ArrayRef<int64_t> s) {
    return RankedTensorType::get(s, b.getF32Type());
  }
  ArrayRef<int64_t> shapeOf(Value v) {
    return cast<RankedTensorType>(v.getType()).getShape();
  }
  /// Known contents as a constant: floats of the node's float type
  /// (floatType), integers converted to it.
  Value constant(const HostTensor &t);
  /// Known contents as a constant of element type `elem` (a float type, or
  /// one of the integer types runtimeType gives: i1 holds "nonzero").
  Value constantOf(const HostTensor &t, Type elem);
  /// Floats as a constant of float type `elem` (rounded to it).
  Value floatConstant(const HostTensor &t, FloatType elem);
  /// `v` converted to float type `to` (one elementwise op; v itself when
  /// it has that type).
  Value convertFloat(Value v, Type to);
  /// A tensor type of shape `s` with v's element type.
  static RankedTensorType like(Value v, ArrayRef<int64_t> s) {
    return RankedTensorType::get(
        s, cast<RankedTensorType>(v.getType()).getElementType());
  }

  // --- run-time element types (TypedOps.cpp) -----------------------------
  /// The run-time element type of ONNX data type `dt`: f32, f16 and bf16
  /// for FLOAT, FLOAT16 and BFLOAT16, i64, i32 and i1 for INT64, INT32 and
  /// BOOL; null for any other.
  Type runtimeType(int32_t dt);
  /// The element type an entry has at run time: its value's, or for known
  /// contents the float type its ONNX type names (f32 where none is
  /// stated) or the integer type it names (i64 where none is stated).
  Type typeOf(const Entry &e);
  /// The entry as a run-time value of `rank` dimensions (leading 1s added)
  /// and element type `elem`, in ONNX's layout; known contents become a
  /// constant of that type.
  Value operandOf(Entry &e, size_t rank, Type elem);
  /// The common element type of the inputs `ks` (all present): the run-time
  /// inputs' type, which they must share, with known inputs of the same
  /// kind (float or integer); an error names the two that disagree.
  FailureOr<Type> commonType(ArrayRef<int> ks);
  /// One elementwise linalg.generic of shape `out` and element type `elem`
  /// over `operands` (each of out's rank; a size-1 dimension where `out` is
  /// larger is broadcast: a reshape drops it and the indexing map skips
  /// it), computing each element with `body` from the operands' elements.
  Value
  mapElements(ArrayRef<Value> operands, ArrayRef<int64_t> out, Type elem,
              function_ref<Value(OpBuilder &, Location, ValueRange)> body);
  /// mapElements over entries: broadcast to one shape (an error where they
  /// do not), each converted to `operandType`.
  FailureOr<Entry>
  mapEntries(ArrayRef<Entry *> operands, Type operandType, Type resultType,
             function_ref<Value(OpBuilder &, Location, ValueRange)> body);
  /// Broadcasting `operands` (entries) to one shape; null on an error.
  FailureOr<Shape> broadcastAll(ArrayRef<Entry *> operands);
  LogicalResult importCast();
  /// Equal, Less, Greater, LessOrEqual, GreaterOrEqual on run-time values.
  LogicalResult importCompare(StringRef kind);
  /// And, Or, Xor, Not on run-time booleans.
  LogicalResult importLogic(StringRef kind);
  /// Add, Sub, Mul, Max, Min (and Sum) on run-time integers (the typed
  /// ops importNode lets through; other integer arithmetic is refused
  /// there).
  LogicalResult importIntegerArith(StringRef kind);
  /// Gather as one elementwise op reading the data at each index (run-time
  /// indices, or more known ones than slices are made for).
  LogicalResult importGatherByIndex();
  /// Gather indices are INT64 or INT32, and known ones in [-dim, dim).
  LogicalResult checkIndices(Entry &idx, int64_t dim);
  /// GatherElements: each output element reads the data at its own index
  /// along the axis.
  LogicalResult importGatherElements();
  /// CumSum along a known axis (exclusive and reverse too).
  LogicalResult importCumSum();
  /// ArgMax / ArgMin: the maximum (minimum) along the axis, then the first
  /// (or last) index holding it, as INT64.
  LogicalResult importArgExtreme(bool isMax);
  /// TopK: each element's place along the axis (how many come before it,
  /// ties by index), then the element of each place p < K, its value and
  /// its index.
  LogicalResult importTopK();
  /// ScatterND: one generic over the output and the update entries that
  /// takes, at each point, the data or the (last, or reduced) update whose
  /// index is that point.
  LogicalResult importScatterND();
  /// A QuantizeLinear or DequantizeLinear node's scale and zero point
  /// (known at import time; one, or one per element of `axis`) and the
  /// quantized type's range.
  struct QuantParams {
    int64_t axis = 0;
    std::vector<float> scale;
    std::vector<int64_t> zeroPoint;
    int32_t scaleType = onnx::TensorProto::FLOAT;
    int32_t type = onnx::TensorProto::UINT8;
    int64_t lo = 0, hi = 255;
  };
  FailureOr<QuantParams> quantParams(ArrayRef<int64_t> shape, bool quantize);
  /// QuantizeLinear (`quantize`): round(x / scale) + zero point, to nearest
  /// even, saturated to INT8 or UINT8 and held in INT32 at run time;
  /// DequantizeLinear: (x - zero point) * scale. Known inputs (int8
  /// weights) give known results.
  LogicalResult importQuantize(bool quantize);
  /// Einsum of one or two operands (Einsum.cpp): summed indices reduced,
  /// then one MatMul in [batch, M, K] x [batch, K, N] form.
  LogicalResult importEinsum();
  /// Pow of a float base by an integer run-time exponent (converted).
  LogicalResult importPowIntegerExponent();

  // --- sequences (Sequences.cpp): lists of tensors while importing -------
  static bool isSequenceOp(StringRef opType);
  /// A sequence op: the list edited, read or made (SplitToSequence), or
  /// its tensors concatenated (ConcatFromSequence).
  LogicalResult importSequenceOp();
  LogicalResult importSplitToSequence();
  /// The sequence input k names, or an error.
  FailureOr<std::vector<std::string> *> sequenceInput(int k);
  /// Output 0 as the sequence of the tensors named `items`.
  LogicalResult defineSequence(std::vector<std::string> items);
  /// The import-time position of input k in a sequence of `length`
  /// tensors, normalized (`end`: the length itself is allowed, as an
  /// insertion's).
  FailureOr<int64_t> sequencePosition(int k, int64_t length, bool end);
  /// `e` in the environment under a name no ONNX value has.
  std::string sequenceTemp(Entry e);
  /// `e` with ONNX shape `shape` (a unit axis added or removed).
  Entry withShape(Entry e, ArrayRef<int64_t> shape);
  /// Imports `synthetic` (a node the importer made) in place of `node`.
  LogicalResult importAsNode(const onnx::NodeProto &synthetic);
  /// The axis attribute of the node, normalized for `rank`.
  FailureOr<int64_t> axisAttr(int64_t rank, int64_t dflt = 0);
  Value scalar(float v, int64_t rank) {
    return constant(HostTensor::floats(Shape(rank, 1), {v}));
  }
  /// A one-element zero of the node's float type (TOSA's zero points).
  Value zeroPoint();
  Value shift();
  Value shapeValue(ArrayRef<int64_t> s) {
    ImplicitLocOpBuilder ib(loc, b);
    return tosa::getTosaConstShape(ib, s);
  }
  Value reshape(Value v, ArrayRef<int64_t> s);
  Value transpose(Value v, ArrayRef<int64_t> perm);
  Value slice(Value v, ArrayRef<int64_t> starts, ArrayRef<int64_t> sizes);
  /// tensor.pad by `low`/`high` elements per dimension with `value`
  /// (TOSA's pad takes a padding shape of twice the rank, which its level
  /// check refuses beyond rank 3).
  Value pad(Value v, ArrayRef<int64_t> low, ArrayRef<int64_t> high,
            double value);
  /// Whether some run-time input is not a float type.
  bool integerInputs() {
    for (int k = 0; k < numInputs(); ++k)
      if (nonFloatRuntime(k))
        return true;
    return false;
  }
  /// Whether run-time input k is not a float type.
  bool nonFloatRuntime(int k) {
    Entry *e = input(k);
    return e && e->value && !isa<FloatType>(typeOf(*e));
  }
  /// The float type the node's run-time float inputs share (f32 where it
  /// has none, or the 16-bit type its known float inputs were stored in);
  /// an error names two run-time inputs that differ.
  FailureOr<Type> nodeFloatType();
  /// Runs the node's handler in f32 on 16-bit float inputs `ft`: each
  /// run-time input of type ft converted to f32 first, each f32 output
  /// converted back to ft (ONNX rounds each node's result to its type).
  LogicalResult importWidened(Type ft, LogicalResult (*handler)(Importer &));
  /// Pad by `low`/`high` elements per dimension whose values come from v
  /// itself: its edge element (`reflect` false) or its mirror image about
  /// the edge (true). One elementwise op reading v at computed indices.
  Value padFromInput(Value v, ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                     bool reflect);
  template <typename OpT>
  Value op(Type t, ValueRange operands, ArrayRef<NamedAttribute> attrs = {}) {
    return OpT::create(b, loc, TypeRange{t}, operands, attrs)->getResult(0);
  }
  Value unaryOp(StringRef kind, Value v);
  Value binaryOp(StringRef kind, Value a, Value c);
  Value reduce(StringRef kind, Value v, int64_t axis);

  // --- layouts -----------------------------------------------------------
  /// The value in ONNX's layout (materialising known contents).
  Value logical(Entry &e);
  /// A 4-D value in NHWC.
  Value inNhwc(Entry &e);
  /// The value broadcast-ready for a result of `rank` dims, in NHWC when
  /// `nhwc`: leading 1s added, then permuted.
  Value operandFor(Entry &e, size_t rank, bool nhwc);
  /// The axis of e's value that holds ONNX axis `axis`.
  int64_t physicalAxis(const Entry &e, int64_t axis) const {
    return e.nhwc ? kAxisInNhwc[axis] : axis;
  }
  Entry result(Value v, ArrayRef<int64_t> onnxShape, bool nhwc) {
    Entry e;
    e.value = v;
    e.nhwc = nhwc;
    e.shape.assign(onnxShape.begin(), onnxShape.end());
    return e;
  }
  FailureOr<int64_t> normAxis(int64_t axis, int64_t rank);
  /// `written` (an axes input or attribute) normalized; an axis out of
  /// range or listed twice is an error that names the axes as written.
  FailureOr<Shape> distinctAxes(ArrayRef<int64_t> written, int64_t rank);

  // --- nodes -------------------------------------------------------------
  /// The ops the importer takes, registered by their families (the one
  /// table the dispatch, the driver's checks and the supported-op list
  /// read).
  static const OpRegistry &registry();
  friend std::vector<std::string> mlir::fuse::supportedOnnxOps();
  // Each family file registers its ops.
  static void registerElementwiseOps(OpRegistry &r);
  static void registerNnOps(OpRegistry &r);
  static void registerReductionOps(OpRegistry &r);
  static void registerShapeOps(OpRegistry &r);
  static void registerTensorOps(OpRegistry &r);
  static void registerQuantizationOps(OpRegistry &r);
  static void registerSequenceOps(OpRegistry &r);
  static void registerFoldedOps(OpRegistry &r);
  LogicalResult importNode();
  FailureOr<bool> tryFold();
  LogicalResult importUnary(StringRef kind);
  /// The activations built from other elementwise ops (LeakyRelu, Elu, ...).
  LogicalResult importActivation(StringRef kind);
  LogicalResult importPRelu();
  /// Sign, Shrink and ThresholdedRelu: comparisons choosing among values.
  LogicalResult importPiecewise(StringRef kind);
  LogicalResult importTile();
  /// Expand's output shape (bidirectional broadcasting of the input and
  /// the known `shape` input).
  FailureOr<Shape> expandedShape();
  LogicalResult importExpand();
  LogicalResult importWhere();
  /// A 1-D Conv or pooling node (input [N, C, L]) imported by `import2d`
  /// as the 2-D op on [N, C, 1, L]: its window attributes get a leading
  /// unit dimension, the weight (Conv) a unit kernel height.
  LogicalResult importAs2D(LogicalResult (Importer::*import2d)(bool, bool),
                           bool isMax, bool global);
  LogicalResult importConv2D(bool, bool) { return importConv(); }
  /// A 3-D Conv (input [N, C, D, H, W]): tosa.conv3d on NDHWC; a grouped
  /// one is one convolution over the channels split into groups.
  LogicalResult importConv3D();
  /// A Conv or ConvTranspose node's attributes over `nd` spatial
  /// dimensions: defaults filled in, ranges checked.
  struct ConvAttrs {
    int64_t group;
    std::string autoPad;
    std::optional<Shape> kernel;
    Shape strides, dilations, pads;
  };
  FailureOr<ConvAttrs> convAttrs(int nd);
  /// Input 2, a bias of `o` values, or zeros.
  FailureOr<Value> convBias(int64_t o);
  /// A TOSA convolution's attributes, accumulating in f32.
  SmallVector<NamedAttribute> convOpAttrs(ArrayRef<int64_t> pad,
                                          ArrayRef<int64_t> stride,
                                          ArrayRef<int64_t> dilation);
  /// A grouped 2-D convolution (1 < groups < channels) as one op: the NHWC
  /// input [n, h, w, c] padded and viewed as [n, h, w, g, c/g], the weight
  /// [o, kh, kw, c/g] as [g, o/g, kh, kw, c/g], linalg's
  /// conv_2d_nhwgc_gfhwc, its result viewed as [n, oh, ow, o] plus the
  /// bias. (One convolution per group joined by a concatenation made a
  /// kernel per group and groups the GPU lowering refuses.)
  Value groupedConv2D(Value in, Value weight, Value bias,
                      ArrayRef<int64_t> pad4, ArrayRef<int64_t> strides,
                      ArrayRef<int64_t> dilations, int64_t groups,
                      ArrayRef<int64_t> outNhwc);
  /// The epsilon of an instance or group normalization, once its input has
  /// a batch, a channel and a spatial dimension.
  FailureOr<float> normalizationEpsilon();
  /// InstanceNormalization: each (sample, channel)'s spatial mean and
  /// variance, then per-channel scale and bias.
  LogicalResult importInstanceNorm();
  /// GroupNormalization: each (sample, group)'s mean and variance, then the
  /// scale and bias per group (opset 18) or per channel (opset 21).
  LogicalResult importGroupNorm();
  /// (v - mean) * rsqrt(var + eps) over `axes` of v; the statistics keep
  /// their dims.
  struct Normalized {
    Value y, mean, rstd;
  };
  Normalized normalize(Value v, ArrayRef<int64_t> axes, float eps);
  /// ConvTranspose (1-D, 2-D): a convolution with the flipped weight over
  /// the input spread out by the stride (zeros between its elements).
  LogicalResult importConvTranspose();
  LogicalResult importConvTranspose2D(bool, bool) {
    return importConvTranspose();
  }
  /// 3-D pooling (input [N, C, D, H, W]): one reduction over the window
  /// that reads the NDHWC input at computed indices (TOSA has no 3-D
  /// pooling).
  LogicalResult importPool3D(bool isMax, bool global);
  /// A pooling node's window over `spatial` (the whole of it for a global
  /// pool): attributes read, checked, auto_pad resolved.
  struct PoolAttrs {
    Shape kernel, strides, pads, dilations;
    bool ceilMode = false, countPad = false;
  };
  FailureOr<PoolAttrs> poolAttrs(bool isMax, bool global,
                                 ArrayRef<int64_t> spatial);
  /// window() along each of `spatial`'s dimensions (pads begins, then
  /// ends); an error saying the `what` does not fit otherwise.
  FailureOr<SmallVector<Window>>
  windows(ArrayRef<int64_t> spatial, ArrayRef<int64_t> kernel,
          ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
          ArrayRef<int64_t> pads, bool ceilMode, StringRef what);
  /// A max or sum over each window of a channels-last input [N, spatial...,
  /// C] (one linalg.generic reading the input at o * stride + k * dilation -
  /// padBegin, with -inf or 0 outside it): pooling without a padded copy.
  Value windowReduce(Value in, ArrayRef<int64_t> kernel,
                     ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
                     ArrayRef<int64_t> padBegin, ArrayRef<int64_t> outShape,
                     bool isMax);
  Value clamp(Value v, float lo, float hi);
  LogicalResult importBinary(StringRef kind);
  FailureOr<Entry> broadcastBinary(StringRef kind, Entry &a, Entry &c);
  LogicalResult importVariadic(StringRef kind);
  LogicalResult importClip();
  /// ONNX's auto_pad for a 2-D window op: SAME_UPPER/SAME_LOWER pad so
  /// that the output is ceil(in / stride), the odd element at the end or
  /// the start; VALID pads nothing; NOTSET keeps `pads`
  /// ([top, left, bottom, right]).
  LogicalResult resolveAutoPad(StringRef autoPad, ArrayRef<int64_t> in,
                               ArrayRef<int64_t> kernel,
                               ArrayRef<int64_t> strides,
                               ArrayRef<int64_t> dilations, Shape &pads);
  LogicalResult importConv();
  LogicalResult importBatchNorm();
  /// Fails with an error when a BatchNormalization or Dropout node is in
  /// training mode: its result then depends on the batch's statistics or
  /// on random numbers, which an inference compiler does not compute.
  LogicalResult refuseTrainingMode();
  /// A x W with numpy's matmul semantics; `addend`, when given, is added
  /// (broadcast to the [.., M, N] result) inside the matmul's own 3-D space,
  /// so that the add is an epilogue of exactly the contraction's shape.
  LogicalResult importMatMul(Entry &a, Entry &w, Entry &out,
                             Entry *addend = nullptr);
  LogicalResult importGemm();
  LogicalResult importSoftmax(bool log);
  LogicalResult importLayerNorm();
  LogicalResult importReduce(StringRef kind);
  LogicalResult importPool(bool isMax, bool global);
  LogicalResult importReshapeLike();
  LogicalResult importTranspose();
  LogicalResult importConcat();
  LogicalResult importSplit();
  LogicalResult importSlice();
  LogicalResult importGather();
  /// Resize (Resize.cpp): nearest, linear or cubic, any scales and axes.
  LogicalResult importResize();
  /// The taps of an axis of `in` elements resized to `out` by `scale`.
  FailureOr<ResizeAxis> resizeAxis(const ResizeMode &m, int64_t in, int64_t out,
                                   double scale);
  /// One elementwise linalg.generic of `outShape` reading v at the tables
  /// of `axes` (no table: the axis is read as is), summing taps times
  /// weights.
  Value resample(Value v, ArrayRef<std::optional<ResizeAxis>> axes,
                 ArrayRef<int64_t> outShape);
  LogicalResult importPad();
  FailureOr<Shape> reshapeTarget(const Entry &x);
  FailureOr<Shape> axesInput(int k, StringRef attrName, int64_t rank);
  struct SliceSpec {
    Shape starts, sizes, steps;
  };
  FailureOr<SliceSpec> sliceSpec(const Entry &x);

  MLIRContext *ctx;
  OpBuilder b;
  const OnnxImportOptions &opts;
  Location fileLoc;
  Location loc = fileLoc;
  const onnx::NodeProto *node = nullptr;
  int64_t nodeIndex = 0;
  int64_t opset = 0;
  llvm::StringMap<Entry> env;
  /// The sequences defined so far: the names of their tensors in `env`.
  llvm::StringMap<std::vector<std::string>> sequences;
  int64_t sequenceTemps = 0;
  llvm::StringSet<> usedNames;
  /// The float type of the node being imported: that of its run-time
  /// float inputs (f32, f16 or bf16); run-time float values and float
  /// constants the node's import makes have it.
  Type floatType;
  /// zeroPoint() of each element type, and shift(), made once.
  llvm::DenseMap<Type, Value> zeroPoints;
  Value shiftValue;
  Block *entryBlock = nullptr;
  int64_t blobCount = 0;
};

} // namespace mlir::fuse::onnx_import::detail

#endif // FUSE_LIB_TARGET_ONNX_IMPORTERIMPL_H
