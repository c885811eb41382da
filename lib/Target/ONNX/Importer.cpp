//===- Importer.cpp - ONNX to TOSA importer -------------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// One pass over the graph in node order (ONNX graphs are topologically
// sorted). Every value name maps to an Entry: its run-time SSA value (in
// NHWC when its producer wanted that), its ONNX shape, and its contents when
// they are known at import time. Nodes whose inputs are all known are
// evaluated here (shape subgraphs); the others become TOSA ops.
//
// Errors name the node (name, op type, opset) and the problem; unsupported
// op types are all listed before anything is built.
//
//===----------------------------------------------------------------------===//

#include "fuse/Dialect/Fuse/Utils/ToolFiles.h"
#include "fuse/Target/ONNX/Import.h"

#include "Checker.h"
#include "HostTensor.h"
#include "ImporterImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
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

#include <google/protobuf/io/coded_stream.h>
#include <onnx/onnx_pb.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::onnx_import;
using namespace mlir::fuse::onnx_import::detail;

//===----------------------------------------------------------------------===//
// Attributes and inputs
//===----------------------------------------------------------------------===//

FailureOr<int64_t> Importer::intAttr(StringRef name, int64_t dflt) {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return dflt;
  if (a->type() != onnx::AttributeProto::INT)
    return error() << "attribute '" << name << "' must be an int", failure();
  return a->i();
}

FailureOr<float> Importer::floatAttr(StringRef name, float dflt) {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return dflt;
  if (a->type() != onnx::AttributeProto::FLOAT)
    return error() << "attribute '" << name << "' must be a float", failure();
  return a->f();
}

FailureOr<std::string> Importer::stringAttr(StringRef name, StringRef dflt) {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return dflt.str();
  if (a->type() != onnx::AttributeProto::STRING)
    return error() << "attribute '" << name << "' must be a string", failure();
  return a->s();
}

FailureOr<std::optional<Shape>> Importer::intsAttr(StringRef name) {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return std::optional<Shape>();
  if (a->type() != onnx::AttributeProto::INTS)
    return error() << "attribute '" << name << "' must be a list of ints",
           failure();
  return std::optional<Shape>(Shape(a->ints().begin(), a->ints().end()));
}

Entry *Importer::input(int k) {
  if (!hasInput(k))
    return nullptr;
  auto it = env.find(node->input(k));
  return it == env.end() ? nullptr : &it->second;
}

FailureOr<const HostTensor *> Importer::constInput(int k, StringRef what) {
  Entry *e = input(k);
  if (!e || !e->host)
    return error() << what << " (input " << k
                   << ") must be known at import time (a constant or "
                      "initializer)",
           failure();
  return &*e->host;
}

/// The element-type rules that ONNX's checker leaves to type inference, for
/// the ops fuse imports: the inputs an op types with one `T` must agree (an
/// INT8 or BOOL initializer is not silently added to float data), indices
/// and shapes are integers, and a pad value is one element.
LogicalResult Importer::checkElementTypes() {
  StringRef opType = node->op_type();
  SmallVector<int> sameType;
  if (llvm::is_contained({"Add", "Sub", "Mul", "Div", "Max", "Min", "Sum",
                          "Mean", "MatMul", "Concat", "Gemm", "Conv",
                          "BatchNormalization", "LayerNormalization"},
                         opType))
    for (int k = 0; k < numInputs(); ++k)
      sameType.push_back(k);
  else if (opType == "Clip" && opset >= 11)
    sameType = {0, 1, 2};
  else if (opType == "Pad" && opset >= 11)
    sameType = {0, 2};
  // LayerNormalization's and BatchNormalization's statistics outputs aside,
  // every listed input is one T (Gemm's C and Conv's B included).
  int first = -1;
  for (int k : sameType) {
    if (!hasInput(k) || !input(k))
      continue;
    if (first < 0) {
      first = k;
      continue;
    }
    const Entry &a = *input(first), &c = *input(k);
    if (holdsFloats(a) != holdsFloats(c))
      return error() << "input " << k << " ('" << node->input(k) << "') is "
                     << elementKind(c) << " and input " << first << " ('"
                     << node->input(first) << "') is " << elementKind(a) << ": "
                     << opType
                     << " takes one element type for both; insert a Cast",
             failure();
  }
  auto integerInput = [&](int k, StringRef what, bool oneDimensional,
                          StringRef types = "int64") -> LogicalResult {
    if (!hasInput(k) || !input(k) || !input(k)->host)
      return success(); // a run-time one is refused where it is used
    const Entry &e = *input(k);
    if (e.host->isFloat)
      return error() << what << " (input " << k << ", '" << node->input(k)
                     << "') must be " << types << ", not " << elementKind(e),
             failure();
    if (oneDimensional && e.shape.size() != 1)
      return error() << what << " (input " << k << ", '" << node->input(k)
                     << "') must be 1-D, not of shape " << shapeStr(e.shape),
             failure();
    return success();
  };
  if (opType == "Gather")
    return integerInput(1, "indices", false, "int32 or int64");
  if (opType == "Reshape" && opset >= 5)
    return integerInput(1, "shape", true);
  if ((opType == "Squeeze" || opType == "Unsqueeze") && opset >= 13)
    return integerInput(1, "axes", true);
  if (opType == "Pad" && opset >= 11) {
    if (failed(integerInput(1, "pads", true)))
      return failure();
    if (hasInput(2) && input(2) && input(2)->host &&
        input(2)->host->size() != 1)
      return error() << "constant_value (input 2, '" << node->input(2)
                     << "') must be a scalar, not of shape "
                     << shapeStr(input(2)->shape),
             failure();
  }
  return success();
}

/// Whether `shape` is the shape `declared` states (none stated: any;
/// symbolic dimensions match any size).
static bool declaredShapeAgrees(const onnx::TypeProto::Tensor &declared,
                                ArrayRef<int64_t> shape) {
  if (!declared.has_shape())
    return true;
  const onnx::TensorShapeProto &dims = declared.shape();
  if (dims.dim_size() != int(shape.size()))
    return false;
  for (int d = 0; d < dims.dim_size(); ++d)
    if (dims.dim(d).has_dim_value() && dims.dim(d).dim_value() != shape[d])
      return false;
  return true;
}

/// A graph output's declared type and shape, where the model gives them,
/// must be what the graph computes: a disagreement means the model is not
/// what its author meant (or fuse misread it), so it is an error, not a
/// note. Symbolic dimensions (dim_param) match any size.
LogicalResult Importer::checkDeclaredOutput(const onnx::ValueInfoProto &out,
                                            Entry &e) {
  int32_t type = out.has_type() && out.type().has_tensor_type()
                     ? out.type().tensor_type().elem_type()
                     : int32_t(onnx::TensorProto::UNDEFINED);
  if (!e.value && !e.host->isFloat) {
    // Known integers or booleans: a constant output of the declared type.
    Type elem = runtimeType(type != onnx::TensorProto::UNDEFINED ? type
                            : e.onnxType ? e.onnxType
                                         : int32_t(onnx::TensorProto::INT64));
    if (!elem || isa<FloatType>(elem))
      return error() << "graph output '" << out.name() << "' holds "
                     << elementKind(e) << " known at import time but is "
                     << "declared " << typeName(type),
             failure();
    e.value = constantOf(*e.host, elem);
  }
  if ((type == onnx::TensorProto::INT8 || type == onnx::TensorProto::UINT8) &&
      e.value)
    return error() << "graph output '" << out.name() << "' is "
                   << typeName(type)
                   << ": 8-bit run-time outputs are not supported (a "
                      "quantized model's values stay inside it; dequantize "
                      "the output)",
           failure();
  // Known floats are a constant of the declared float type.
  if (!e.value && e.host->isFloat && runtimeType(type) &&
      isa<FloatType>(runtimeType(type)))
    e.onnxType = type;
  if (type != onnx::TensorProto::UNDEFINED && runtimeType(type) != typeOf(e))
    return error() << "graph output '" << out.name() << "' is declared "
                   << typeName(type) << " but the graph computes "
                   << runtimeTypeName(typeOf(e)),
           failure();
  if (!out.has_type() || !out.type().has_tensor_type())
    return success();
  const onnx::TypeProto::Tensor &declared = out.type().tensor_type();
  if (declaredShapeAgrees(declared, e.shape))
    return success();
  const onnx::TensorShapeProto &shape = declared.shape();
  std::string text = "[";
  for (int d = 0; d < shape.dim_size(); ++d) {
    text += d ? "," : "";
    text += shape.dim(d).has_dim_value()
                ? std::to_string(shape.dim(d).dim_value())
                : (shape.dim(d).dim_param().empty() ? std::string("?")
                                                    : shape.dim(d).dim_param());
  }
  return error() << "graph output '" << out.name()
                 << "' is declared with shape " << text
                 << "] but the graph computes " << shapeStr(e.shape)
                 << " (check the model, or the sizes given with --onnx-dim)",
         failure();
}

LogicalResult Importer::define(int k, Entry e) {
  if (k >= node->output_size() || node->output(k).empty())
    return success();
  const std::string &name = node->output(k);
  if (env.count(name))
    return error() << "value '" << name << "' is defined twice", failure();
  // TOSA holds at most 6 dimensions: say so here, with the node, rather
  // than in TOSA's terms when the module is verified.
  if (e.value && e.shape.size() > kMaxRank)
    return error() << "output '" << name << "' has rank " << e.shape.size()
                   << "; at most " << kMaxRank
                   << " dimensions are supported (TOSA's limit)",
           failure();
  if (e.value && tooManyBytes(e.shape, elementBytes(typeOf(e))))
    return error() << "output '" << name << "' of shape " << shapeStr(e.shape)
                   << " is 2 GiB or more; a tensor is at most 2^31 - 1 bytes "
                      "(TOSA's limit)",
           failure();
  env[name] = std::move(e);
  return success();
}

FailureOr<int64_t> Importer::normAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return error() << "axis " << axis << " is out of range for rank " << rank,
           failure();
  return axis < 0 ? axis + rank : axis;
}

FailureOr<Shape> Importer::distinctAxes(ArrayRef<int64_t> written,
                                        int64_t rank) {
  Shape axes;
  for (int64_t v : written) {
    FailureOr<int64_t> n = normAxis(v, rank);
    if (failed(n))
      return failure();
    if (llvm::is_contained(axes, *n))
      return error() << "axis " << *n << " is listed twice in axes "
                     << shapeStr(written),
             failure();
    axes.push_back(*n);
  }
  return axes;
}

//===----------------------------------------------------------------------===//
// Parsing tensors and inputs
//===----------------------------------------------------------------------===//

FailureOr<HostTensor> Importer::parseTensor(const onnx::TensorProto &t) {
  auto fail = [&]() {
    InFlightDiagnostic d = error();
    d << "tensor '" << t.name() << "': ";
    return d;
  };
  Shape shape(t.dims().begin(), t.dims().end());
  std::optional<int64_t> n = numElements(shape);
  if (!n || *n > kMaxElements)
    return fail() << "invalid or too large shape " << shapeStr(shape),
           failure();
  int32_t dt = t.data_type();
  // 16-bit floats are kept as floats (exactly) and become constants of
  // their own type again.
  bool is16 =
      dt == onnx::TensorProto::FLOAT16 || dt == onnx::TensorProto::BFLOAT16;
  bool isFloat = dt == onnx::TensorProto::FLOAT || is16;
  if (isFloat && tooManyBytes(shape, is16 ? 2 : 4))
    return fail() << "shape " << shapeStr(shape)
                  << " is 2 GiB or more; a tensor is at most 2^31 - 1 bytes "
                     "(TOSA's limit)",
           failure();
  bool isInt = dt == onnx::TensorProto::INT64 ||
               dt == onnx::TensorProto::INT32 ||
               dt == onnx::TensorProto::INT8 ||
               dt == onnx::TensorProto::UINT8 || dt == onnx::TensorProto::BOOL;
  if (!isFloat && !isInt)
    return fail() << "element type " << typeName(dt)
                  << " is not supported (float32, float16, bfloat16, and "
                     "integers)",
           failure();
  size_t elemBytes = dt == onnx::TensorProto::INT64   ? 8
                     : dt == onnx::TensorProto::FLOAT ? 4
                     : dt == onnx::TensorProto::INT32 ? 4
                     : is16                           ? 2
                                                      : 1;
  // A 16-bit float's bits as a float (exact).
  const llvm::fltSemantics &sem = dt == onnx::TensorProto::BFLOAT16
                                      ? APFloat::BFloat()
                                      : APFloat::IEEEhalf();
  auto from16 = [&](uint16_t bits) {
    bool lost;
    APFloat v(sem, APInt(16, bits));
    v.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &lost);
    return v.convertToFloat();
  };
  // Raw bytes: inline raw_data or an external file.
  std::string external;
  const std::string *raw = t.has_raw_data() ? &t.raw_data() : nullptr;
  if (t.data_location() == onnx::TensorProto::EXTERNAL) {
    std::string location;
    int64_t offset = 0, length = -1;
    for (const onnx::StringStringEntryProto &kv : t.external_data()) {
      if (kv.key() == "location")
        location = kv.value();
      else if (kv.key() == "offset" || kv.key() == "length") {
        char *end = nullptr;
        long long v = std::strtoll(kv.value().c_str(), &end, 10);
        if (kv.value().empty() || *end || v < 0)
          return fail() << "external data " << kv.key() << " '" << kv.value()
                        << "' is not a non-negative integer",
                 failure();
        (kv.key() == "offset" ? offset : length) = v;
      }
    }
    if (location.empty() || llvm::sys::path::is_absolute(location) ||
        StringRef(location).contains(".."))
      return fail() << "external data location '" << location
                    << "' must be a relative path inside the model's directory",
             failure();
    SmallString<256> path(opts.modelDir);
    llvm::sys::path::append(path, location);
    // Where the location leads once every symlink is resolved: the text of
    // the location cannot say (a link inside the folder may point anywhere).
    // Only a regular file inside the model's directory is read, and only
    // the bytes the tensor needs.
    SmallString<256> dirReal, fileReal;
    if (std::error_code ec = llvm::sys::fs::real_path(
            opts.modelDir.empty() ? StringRef(".") : StringRef(opts.modelDir),
            dirReal))
      return fail() << "cannot resolve the model's directory '" << opts.modelDir
                    << "': " << ec.message(),
             failure();
    if (std::error_code ec = llvm::sys::fs::real_path(path, fileReal))
      return fail() << "cannot read external data file '" << path
                    << "': " << ec.message(),
             failure();
    std::string inside = dirReal.str().str();
    if (!StringRef(inside).ends_with(llvm::sys::path::get_separator()))
      inside += llvm::sys::path::get_separator();
    if (!StringRef(fileReal).starts_with(inside))
      return fail() << "external data location '" << location << "' leads to '"
                    << fileReal << "', outside the model's directory '"
                    << dirReal << "' (through a symbolic link)",
             failure();
    llvm::sys::fs::file_status status;
    if (std::error_code ec = llvm::sys::fs::status(fileReal, status))
      return fail() << "cannot read external data file '" << path
                    << "': " << ec.message(),
             failure();
    if (status.type() != llvm::sys::fs::file_type::regular_file)
      return fail() << "external data location '" << location
                    << "' is not a regular file (a directory, device, FIFO "
                       "or socket)",
             failure();
    int64_t size = status.getSize();
    if (length < 0)
      length = size - offset;
    if (offset > size || length > size - offset)
      return fail() << "external data [" << offset << ", " << offset + length
                    << ") lies outside '" << location << "' (" << size
                    << " bytes)",
             failure();
    if (uint64_t(length) != uint64_t(*n) * elemBytes)
      return fail() << "holds " << length << " bytes of external data, but "
                    << shapeStr(shape) << " of " << typeName(dt) << " needs "
                    << uint64_t(*n) * elemBytes,
             failure();
    llvm::Expected<llvm::sys::fs::file_t> fd =
        llvm::sys::fs::openNativeFileForRead(fileReal);
    if (!fd)
      return fail() << "cannot read external data file '" << path
                    << "': " << llvm::toString(fd.takeError()),
             failure();
    // The file opened is the one checked (not swapped for a link since).
    llvm::sys::fs::file_status opened;
    if (llvm::sys::fs::status(*fd, opened) ||
        opened.getUniqueID() != status.getUniqueID()) {
      llvm::sys::fs::closeFile(*fd);
      return fail() << "external data file '" << path
                    << "' changed while it was opened",
             failure();
    }
    auto file =
        llvm::MemoryBuffer::getOpenFileSlice(*fd, fileReal, length, offset);
    llvm::sys::fs::closeFile(*fd);
    if (!file)
      return fail() << "cannot read external data file '" << path
                    << "': " << file.getError().message(),
             failure();
    external.assign((*file)->getBufferStart(), length);
    raw = &external;
  }
  HostTensor r;
  r.isFloat = isFloat;
  r.shape = shape;
  if (raw) {
    if (raw->size() != size_t(*n) * elemBytes)
      return fail() << "holds " << raw->size() << " bytes, but "
                    << shapeStr(shape) << " of " << typeName(dt) << " needs "
                    << *n * elemBytes,
             failure();
    const char *p = raw->data();
    if (is16) {
      r.f.resize(*n);
      for (int64_t k = 0; k < *n; ++k) {
        uint16_t bits;
        std::memcpy(&bits, p + 2 * k, 2);
        r.f[k] = from16(bits);
      }
    } else if (isFloat) {
      r.f.resize(*n);
      std::memcpy(r.f.data(), p, *n * 4);
    } else {
      r.i.resize(*n);
      for (int64_t k = 0; k < *n; ++k) {
        if (elemBytes == 8)
          std::memcpy(&r.i[k], p + 8 * k, 8);
        else if (elemBytes == 4) {
          int32_t v;
          std::memcpy(&v, p + 4 * k, 4);
          r.i[k] = v;
        } else
          r.i[k] = dt == onnx::TensorProto::INT8 ? int8_t(p[k]) : uint8_t(p[k]);
      }
    }
    return r;
  }
  // 16-bit floats come in int32_data, one element's bits in each.
  int64_t have = isFloat && !is16                 ? t.float_data_size()
                 : dt == onnx::TensorProto::INT64 ? t.int64_data_size()
                                                  : t.int32_data_size();
  if (have != *n)
    return fail() << "holds " << have << " elements, but " << shapeStr(shape)
                  << " needs " << *n,
           failure();
  if (is16) {
    r.f.resize(*n);
    for (int64_t k = 0; k < *n; ++k)
      r.f[k] = from16(uint16_t(t.int32_data(k)));
  } else if (isFloat)
    r.f.assign(t.float_data().begin(), t.float_data().end());
  else if (dt == onnx::TensorProto::INT64)
    r.i.assign(t.int64_data().begin(), t.int64_data().end());
  else
    r.i.assign(t.int32_data().begin(), t.int32_data().end());
  return r;
}

LogicalResult Importer::bindInputs(const onnx::GraphProto &graph,
                                   const llvm::StringSet<> &initNames,
                                   llvm::StringSet<> &bound) {
  for (const auto &[name, path] : opts.boundInputs) {
    const onnx::ValueInfoProto *declared = nullptr;
    for (const onnx::ValueInfoProto &v : graph.input())
      if (v.name() == name)
        declared = &v;
    if (!declared || initNames.contains(name)) {
      InFlightDiagnostic d = error();
      d << "--onnx-bind " << name << ": ";
      if (declared)
        return d << "the input has an initializer already", failure();
      d << "the graph has no input '" << name << "' (its inputs:";
      for (const onnx::ValueInfoProto &v : graph.input())
        if (!initNames.contains(v.name()))
          d << " " << v.name();
      return d << ")", failure();
    }
    // As a tool reads its input: a regular file or a pipe, never a device
    // (/dev/zero would never end) or a directory, and no more bytes than a
    // TensorProto can hold.
    std::string why;
    std::unique_ptr<llvm::MemoryBuffer> file =
        readToolInput(path, &why, std::numeric_limits<int>::max());
    if (!file)
      return error() << "--onnx-bind " << name << ": " << why, failure();
    onnx::TensorProto t;
    if (!t.ParseFromArray(file->getBufferStart(), int(file->getBufferSize())))
      return error() << "--onnx-bind " << name << ": '" << path
                     << "' is not a serialized ONNX TensorProto",
             failure();
    t.set_name(name);
    FailureOr<HostTensor> h = parseTensor(t);
    if (failed(h))
      return failure();
    const onnx::TypeProto::Tensor &type = declared->type().tensor_type();
    if (type.elem_type() != t.data_type())
      return error() << "--onnx-bind " << name << ": the file holds "
                     << typeName(t.data_type()) << ", the input is declared "
                     << typeName(type.elem_type()),
             failure();
    if (!declaredShapeAgrees(type, h->shape))
      return error() << "--onnx-bind " << name << ": the file's shape "
                     << shapeStr(h->shape)
                     << " is not the input's declared shape",
             failure();
    Entry e;
    e.shape = h->shape;
    e.host = std::move(*h);
    e.onnxType = t.data_type();
    env[name] = std::move(e);
    bound.insert(name);
  }
  return success();
}

FailureOr<RankedTensorType> Importer::inputType(const onnx::ValueInfoProto &v) {
  const onnx::TypeProto &type = v.type();
  if (type.has_sequence_type())
    return error() << "graph input '" << v.name()
                   << "' is a sequence: run-time values are tensors (a "
                      "sequence may only be made and used inside the model)",
           failure();
  if (!type.has_tensor_type())
    return error() << "graph input '" << v.name() << "' is not a tensor",
           failure();
  int32_t dt = type.tensor_type().elem_type();
  Type elem = runtimeType(dt);
  if (!elem)
    return error() << "graph input '" << v.name() << "' has element type "
                   << typeName(dt)
                   << "; inputs are FLOAT, FLOAT16, BFLOAT16, INT64, INT32 "
                      "or BOOL",
           failure();
  if (!type.tensor_type().has_shape())
    return error() << "graph input '" << v.name()
                   << "' has no shape; give static shapes to the exporter",
           failure();
  Shape shape;
  int k = 0;
  for (const onnx::TensorShapeProto::Dimension &d :
       type.tensor_type().shape().dim()) {
    int64_t value = -1;
    if (d.has_dim_value() && d.dim_value() <= 0)
      return error() << "graph input '" << v.name() << "' dimension " << k
                     << " is " << d.dim_value()
                     << "; dimensions must be positive (empty tensors are "
                        "not compiled)",
             failure();
    if (d.has_dim_value())
      value = d.dim_value();
    else if (d.has_dim_param() && opts.dims.count(d.dim_param()))
      value = opts.dims.at(d.dim_param());
    else if (k == 0 && opts.batchSize > 0)
      value = opts.batchSize;
    if (value <= 0)
      return error() << "graph input '" << v.name() << "' dimension " << k
                     << (d.has_dim_param() ? " ('" + d.dim_param() + "')" : "")
                     << " is not static; set it with --onnx-dim "
                     << (d.has_dim_param() ? d.dim_param() : "NAME")
                     << "=N (or --onnx-batch=N for the first dimension)",
             failure();
    shape.push_back(value);
    ++k;
  }
  if (shape.size() > kMaxRank)
    return error() << "graph input '" << v.name() << "' has rank "
                   << shape.size() << "; at most " << kMaxRank
                   << " dimensions are supported (TOSA's limit)",
           failure();
  if (tooManyBytes(shape, elementBytes(elem)))
    return error() << "graph input '" << v.name() << "' of shape "
                   << shapeStr(shape)
                   << " is 2 GiB or more; a tensor is at most 2^31 - 1 bytes "
                      "(TOSA's limit)",
           failure();
  return RankedTensorType::get(shape, elem);
}

//===----------------------------------------------------------------------===//
// IR helpers
//===----------------------------------------------------------------------===//

Value Importer::constant(const HostTensor &t) {
  return constantOf(t.isFloat ? t : t.converted(true), floatType);
}

/// The elements of `t` (floats) as the bytes of float type `elem`: f32 as
/// they are, f16/bf16 rounded to nearest even.
static std::vector<char> floatBytes(const HostTensor &t, FloatType elem) {
  std::vector<char> bytes;
  if (elem.isF32()) {
    bytes.resize(t.f.size() * sizeof(float));
    std::memcpy(bytes.data(), t.f.data(), bytes.size());
    return bytes;
  }
  unsigned width = elem.getWidth() / 8;
  bytes.resize(t.f.size() * width);
  for (size_t k = 0; k < t.f.size(); ++k) {
    APFloat v(t.f[k]);
    bool lost;
    v.convert(elem.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
    uint64_t bits = v.bitcastToAPInt().getZExtValue();
    std::memcpy(bytes.data() + k * width, &bits, width); // little-endian
  }
  return bytes;
}

Value Importer::floatConstant(const HostTensor &t, FloatType elem) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(entryBlock);
  auto type = RankedTensorType::get(t.shape, elem);
  std::vector<char> bytes = floatBytes(t, elem);
  // A single value stays inline whatever the threshold: TOSA's verifiers and
  // folders read scalars (zero points, pad values) element by element,
  // which a dense_resource blob cannot give them.
  ElementsAttr attr;
  if (t.f.size() > 1 && int64_t(bytes.size()) > opts.resourceThreshold)
    attr = DenseResourceElementsAttr::get(
        type, "onnx_" + std::to_string(blobCount++),
        HeapAsmResourceBlob::allocateAndCopyWithAlign(bytes, alignof(double)));
  else if (elem.isF32())
    attr = DenseElementsAttr::get(type, ArrayRef(t.f));
  else {
    SmallVector<APFloat> values;
    for (float v : t.f) {
      APFloat x(v);
      bool lost;
      x.convert(elem.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
      values.push_back(x);
    }
    attr = DenseElementsAttr::get(type, values);
  }
  return tosa::ConstOp::create(b, loc, type, attr);
}

Value Importer::zeroPoint() {
  Value &zp = zeroPoints[floatType];
  if (!zp)
    zp = constant(HostTensor::floats({1}, {0.0f}));
  return zp;
}

Value Importer::shift() {
  if (!shiftValue) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(entryBlock);
    auto type = RankedTensorType::get({1}, b.getI8Type());
    shiftValue = tosa::ConstOp::create(
        b, loc, type, DenseElementsAttr::get(type, ArrayRef<int8_t>{0}));
  }
  return shiftValue;
}

Value Importer::convertFloat(Value v, Type to) {
  if (like(v, {}).getElementType() == to)
    return v;
  return op<tosa::CastOp>(like(v, shapeOf(v)).clone(to), {v});
}

Value Importer::reshape(Value v, ArrayRef<int64_t> s) {
  if (shapeOf(v) == s)
    return v;
  if (auto prev = v.getDefiningOp<tosa::ReshapeOp>())
    v = prev.getInput1();
  if (shapeOf(v) == s)
    return v;
  return op<tosa::ReshapeOp>(like(v, s), {v, shapeValue(s)});
}

Value Importer::transpose(Value v, ArrayRef<int64_t> perm) {
  Shape p(perm.begin(), perm.end());
  if (auto prev = v.getDefiningOp<tosa::TransposeOp>()) {
    // Compose with the transpose that made v.
    for (int64_t &k : p)
      k = prev.getPerms()[k];
    v = prev.getInput1();
  }
  ArrayRef<int64_t> in = shapeOf(v);
  Shape out = permuted(in, p);
  bool identity = true;
  for (size_t k = 0; k < p.size(); ++k)
    identity &= p[k] == int64_t(k);
  if (identity)
    return v;
  // Moving only unit dimensions is a reshape.
  Shape order;
  for (int64_t k : p)
    if (in[k] != 1)
      order.push_back(k);
  if (llvm::is_sorted(order))
    return reshape(v, out);
  SmallVector<int32_t> perms(p.begin(), p.end());
  return op<tosa::TransposeOp>(
      like(v, out), {v},
      {b.getNamedAttr("perms", b.getDenseI32ArrayAttr(perms))});
}

Value Importer::slice(Value v, ArrayRef<int64_t> starts,
                      ArrayRef<int64_t> sizes) {
  if (shapeOf(v) == sizes)
    return v;
  return op<tosa::SliceOp>(like(v, sizes),
                           {v, shapeValue(starts), shapeValue(sizes)});
}

Value Importer::pad(Value v, ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                    double value) {
  Shape out(shapeOf(v));
  for (size_t d = 0; d < out.size(); ++d)
    out[d] += low[d] + high[d];
  // `value` in v's element type (an integer pad value is exact: doubles
  // hold every int32 and the int64 values up to 2^53).
  Type elem = like(v, {}).getElementType();
  TypedAttr attr = isa<FloatType>(elem) ? TypedAttr(b.getFloatAttr(elem, value))
                   : elem.isInteger(1) ? TypedAttr(b.getBoolAttr(value != 0))
                                       : b.getIntegerAttr(elem, int64_t(value));
  Value padValue = arith::ConstantOp::create(b, loc, attr);
  SmallVector<OpFoldResult> lo, hi;
  for (size_t d = 0; d < out.size(); ++d) {
    lo.push_back(b.getIndexAttr(low[d]));
    hi.push_back(b.getIndexAttr(high[d]));
  }
  return tensor::PadOp::create(b, loc, like(v, out), v, lo, hi, padValue);
}

Value Importer::padFromInput(Value v, ArrayRef<int64_t> low,
                             ArrayRef<int64_t> high, bool reflect) {
  Shape in(shapeOf(v)), out(in);
  for (size_t d = 0; d < out.size(); ++d)
    out[d] += low[d] + high[d];
  int64_t rank = out.size();
  Value init =
      tensor::EmptyOp::create(b, loc, out, like(v, {}).getElementType());
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{like(v, out)}, ValueRange{}, ValueRange{init},
      ArrayRef<AffineMap>{b.getMultiDimIdentityMap(rank)}, iters,
      [&](OpBuilder &nb, Location l, ValueRange) {
        auto cst = [&](int64_t c) {
          return arith::ConstantIndexOp::create(nb, l, c).getResult();
        };
        auto absOf = [&](Value x) {
          Value negX = arith::SubIOp::create(nb, l, cst(0), x);
          return arith::MaxSIOp::create(nb, l, x, negX).getResult();
        };
        SmallVector<Value> idx;
        for (int64_t d = 0; d < rank; ++d) {
          Value i = linalg::IndexOp::create(nb, l, d);
          if (!low[d] && !high[d]) {
            idx.push_back(i);
            continue;
          }
          // j = i - low; edge: clamp(j, 0, n - 1); reflect:
          // (n - 1) - |(n - 1) - |j||, the mirror about 0 and about n - 1.
          Value j = arith::SubIOp::create(nb, l, i, cst(low[d]));
          Value last = cst(in[d] - 1);
          Value src;
          if (reflect) {
            Value r = arith::SubIOp::create(nb, l, last, absOf(j));
            src = arith::SubIOp::create(nb, l, last, absOf(r));
          } else {
            Value lo = arith::MaxSIOp::create(nb, l, j, cst(0));
            src = arith::MinSIOp::create(nb, l, lo, last);
          }
          idx.push_back(src);
        }
        Value x = tensor::ExtractOp::create(nb, l, v, idx);
        linalg::YieldOp::create(nb, l, x);
      });
  return generic.getResult(0);
}

Value Importer::unaryOp(StringRef kind, Value v) {
  Type t = v.getType();
  if (kind == "Sigmoid")
    return op<tosa::SigmoidOp>(t, {v});
  if (kind == "Tanh")
    return op<tosa::TanhOp>(t, {v});
  if (kind == "Erf")
    return op<tosa::ErfOp>(t, {v});
  if (kind == "Exp")
    return op<tosa::ExpOp>(t, {v});
  if (kind == "Log")
    return op<tosa::LogOp>(t, {v});
  if (kind == "Abs")
    return op<tosa::AbsOp>(t, {v});
  if (kind == "Neg")
    return binaryOp("Sub", scalar(0.0f, shapeOf(v).size()), v);
  if (kind == "Reciprocal")
    return op<tosa::ReciprocalOp>(t, {v});
  if (kind == "Floor")
    return op<tosa::FloorOp>(t, {v});
  if (kind == "Ceil")
    return op<tosa::CeilOp>(t, {v});
  if (kind == "Sqrt")
    // sqrt(x) = 1 / rsqrt(x): exact at 0 (1 / inf), no pow.
    return op<tosa::ReciprocalOp>(t, {op<tosa::RsqrtOp>(t, {v})});
  llvm_unreachable("unknown unary op");
}

Value Importer::binaryOp(StringRef kind, Value a, Value c) {
  Shape out = *broadcastShapes(shapeOf(a), shapeOf(c));
  Type t = floatTensor(out);
  if (kind == "Add")
    return op<tosa::AddOp>(t, {a, c});
  if (kind == "Sub")
    return op<tosa::SubOp>(t, {a, c});
  if (kind == "Mul")
    return op<tosa::MulOp>(t, {a, c, shift()});
  if (kind == "Div")
    return op<tosa::MulOp>(
        t, {a, op<tosa::ReciprocalOp>(c.getType(), {c}), shift()});
  if (kind == "Pow")
    return op<tosa::PowOp>(t, {a, c});
  if (kind == "Max")
    return op<tosa::MaximumOp>(t, {a, c});
  if (kind == "Min")
    return op<tosa::MinimumOp>(t, {a, c});
  llvm_unreachable("unknown binary op");
}

Value Importer::reduce(StringRef kind, Value v, int64_t axis) {
  Shape s(shapeOf(v));
  s[axis] = 1;
  auto axisAttr = b.getNamedAttr("axis", b.getI32IntegerAttr(axis));
  if (kind == "max")
    return op<tosa::ReduceMaxOp>(floatTensor(s), {v}, {axisAttr});
  if (kind == "min")
    return op<tosa::ReduceMinOp>(floatTensor(s), {v}, {axisAttr});
  return op<tosa::ReduceSumOp>(floatTensor(s), {v}, {axisAttr});
}

//===----------------------------------------------------------------------===//
// Layouts
//===----------------------------------------------------------------------===//

Value Importer::logical(Entry &e) {
  if (!e.value) {
    e.value = constant(*e.host);
    e.nhwc = false;
  }
  if (!e.nhwc)
    return e.value;
  if (!e.otherLayout)
    e.otherLayout = transpose(e.value, kToNchw);
  return e.otherLayout;
}

Value Importer::inNhwc(Entry &e) {
  if (e.nhwc && e.value)
    return e.value;
  if (!e.otherLayout)
    e.otherLayout = e.value ? transpose(e.value, kToNhwc)
                            : constant(e.host->transposed(kToNhwc));
  return e.otherLayout;
}

Value Importer::operandFor(Entry &e, size_t rank, bool nhwc) {
  Shape padded(rank - e.shape.size(), 1);
  padded.append(e.shape.begin(), e.shape.end());
  if (!e.value) {
    HostTensor t = e.host->reshaped(padded);
    return constant(nhwc ? t.transposed(kToNhwc) : t);
  }
  if (nhwc && e.nhwc)
    return e.value;
  Value v = reshape(logical(e), padded);
  return nhwc ? transpose(v, kToNhwc) : v;
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

OpSpec &OpRegistry::add(StringRef opType, OpSpec::Handler import,
                        int64_t since) {
  SmallVector<OpSpec, 1> &list = specs[opType];
  auto at = llvm::upper_bound(
      list, since, [](int64_t v, const OpSpec &o) { return v < o.since; });
  assert((at == list.begin() || std::prev(at)->since != since) &&
         "an op type registered twice for one opset");
  OpSpec spec;
  spec.import = import;
  spec.since = since;
  return *list.insert(at, spec);
}

const OpSpec *OpRegistry::lookup(StringRef opType, int64_t opset) const {
  auto it = specs.find(opType);
  if (it == specs.end())
    return nullptr;
  const OpSpec *found = nullptr;
  for (const OpSpec &spec : it->second)
    if (spec.since <= opset)
      found = &spec;
  return found;
}

std::vector<std::string> OpRegistry::opTypes() const {
  std::vector<std::string> ops;
  for (const auto &op : specs)
    ops.push_back(op.getKey().str());
  llvm::sort(ops);
  return ops;
}

LogicalResult Importer::checkOwnSchema(const OpSpec::Schema &schema) {
  auto count = [](int n, const char *what) {
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
  };
  if (numInputs() > schema.maxInputs)
    return error() << "has " << count(numInputs(), "input") << "; the op takes "
                   << "at most " << schema.maxInputs,
           failure();
  int outputs = node->output_size();
  if (outputs < schema.minOutputs || outputs > schema.maxOutputs) {
    InFlightDiagnostic d = error();
    d << "has " << count(outputs, "output") << "; the op has ";
    if (schema.maxOutputs == OpSpec::kAnyCount)
      d << "at least " << schema.minOutputs;
    else if (schema.minOutputs == schema.maxOutputs)
      d << schema.minOutputs;
    else
      d << schema.minOutputs << " to " << schema.maxOutputs;
    return failure();
  }
  llvm::StringSet<> seen;
  for (const onnx::AttributeProto &a : node->attribute()) {
    if (!llvm::is_contained(schema.attributes, a.name())) {
      InFlightDiagnostic d = error();
      d << "unknown attribute '" << a.name() << "' (";
      if (schema.attributes.empty())
        d << "the op has none)";
      else
        d << "the op's are " << llvm::join(schema.attributes, ", ") << ")";
      return failure();
    }
    if (!seen.insert(a.name()).second)
      return error() << "attribute '" << a.name() << "' is given twice",
             failure();
  }
  return success();
}

const OpRegistry &Importer::registry() {
  static const OpRegistry table = [] {
    OpRegistry r;
    registerElementwiseOps(r);
    registerNnOps(r);
    registerReductionOps(r);
    registerShapeOps(r);
    registerTensorOps(r);
    registerQuantizationOps(r);
    registerSequenceOps(r);
    registerFoldedOps(r);
    return r;
  }();
  return table;
}

FailureOr<Type> Importer::nodeFloatType() {
  Type ft, known;
  int first = -1;
  for (int k = 0; k < numInputs(); ++k) {
    Entry *e = hasInput(k) ? input(k) : nullptr;
    if (!e || !holdsFloats(*e))
      continue;
    Type t = typeOf(*e);
    if (!e->value) {
      known = known && !known.isF32() ? known : t;
      continue;
    }
    if (!ft) {
      ft = t, first = k;
      continue;
    }
    // Pow's exponent may be another float type (T1); every other op takes
    // one T, which ONNX's checker leaves to the exporter.
    if (t != ft && node->op_type() != "Pow")
      return error() << "input " << k << " ('" << node->input(k) << "') is "
                     << runtimeTypeName(t) << " and input " << first << " ('"
                     << node->input(first) << "') is " << runtimeTypeName(ft)
                     << ": " << node->op_type()
                     << " takes one element type for both; insert a Cast",
             failure();
  }
  if (ft)
    return ft;
  return known ? known : Type(b.getF32Type());
}

LogicalResult Importer::importWidened(Type ft,
                                      LogicalResult (*handler)(Importer &)) {
  // The inputs as f32 while the handler runs; the entries come back after.
  SmallVector<std::pair<std::string, Entry>> saved;
  for (int k = 0; k < numInputs(); ++k) {
    Entry *e = hasInput(k) ? input(k) : nullptr;
    if (!e || !e->value || !isa<FloatType>(typeOf(*e)) || typeOf(*e).isF32() ||
        llvm::any_of(saved, [&](auto &s) { return s.first == node->input(k); }))
      continue;
    saved.emplace_back(node->input(k), *e);
    e->value = convertFloat(e->value, b.getF32Type());
    e->otherLayout = Value();
    e->onnxType = 0;
  }
  floatType = b.getF32Type();
  LogicalResult r = handler(*this);
  for (auto &[name, e] : saved)
    env[name] = std::move(e);
  floatType = ft;
  if (failed(r))
    return failure();
  for (int k = 0; k < node->output_size(); ++k) {
    auto it = env.find(node->output(k));
    if (node->output(k).empty() || it == env.end() || !it->second.value ||
        !typeOf(it->second).isF32())
      continue;
    it->second.value = convertFloat(it->second.value, ft);
    it->second.otherLayout = Value();
  }
  return success();
}

LogicalResult Importer::importNode() {
  loc = NameLoc::get(b.getStringAttr(nodeName()), fileLoc);
  if (isSequenceOp(node->op_type()))
    return importSequenceOp();
  for (int k = 0; k < numInputs(); ++k)
    if (hasInput(k) && !input(k)) {
      if (sequences.count(node->input(k)))
        return error() << "input '" << node->input(k)
                       << "' is a sequence; this op takes tensors",
               failure();
      return error() << "input '" << node->input(k)
                     << "' is not defined before this node",
             failure();
    }
  const OpSpec *spec = registry().lookup(node->op_type(), opset);
  if (!spec)
    return error() << "is not supported", failure();
  // Required inputs (present and named), per op and opset.
  int required = spec->required == OpSpec::kEveryInput
                     ? std::max(1, numInputs())
                     : spec->required;
  for (int k = 0; k < required; ++k)
    if (!hasInput(k))
      return error() << "needs " << required << " input"
                     << (required > 1 ? "s" : "") << ", input " << k
                     << " is missing",
             failure();
  if (node->output_size() == 0 || node->output(0).empty())
    return error() << "has no output", failure();
  if (spec->hasOwnSchema() && failed(checkOwnSchema(*spec->schema)))
    return failure();
  if (failed(refuseTrainingMode()) || failed(checkElementTypes()))
    return failure();
  FailureOr<Type> ft = nodeFloatType();
  if (failed(ft))
    return failure();
  floatType = *ft;
  FailureOr<bool> folded = tryFold();
  if (failed(folded))
    return failure();
  if (*folded)
    return success();
  // Run-time integers and booleans (token ids, masks, positions) reach the
  // ops registered as taking them (they move, convert, compare, select,
  // gather or add them); every other op takes float run-time values.
  if (!spec->integers)
    for (int k = 0; k < numInputs(); ++k)
      if (nonFloatRuntime(k))
        return error() << "input '" << node->input(k) << "' is "
                       << runtimeTypeName(typeOf(*input(k))) << " at run time; "
                       << node->op_type()
                       << " takes FLOAT run-time values, and its integer "
                          "inputs (shapes, axes, sizes) must be known at "
                          "import time",
               failure();
  // 16-bit floats stay 16-bit through the ops registered as keeping them
  // (those that move, select or compare them, the contractions, which sum
  // their products in f32, and the exactly rounded elementwise arithmetic);
  // every other op computes in f32 between a conversion of its inputs and
  // one of its results.
  if (floatType.isF32() || spec->keeps16Bit)
    return spec->import(*this);
  return importWidened(floatType, spec->import);
}

static std::string sanitize(StringRef name) {
  std::string r;
  for (char c : name)
    r += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  if (r.empty() || std::isdigit(static_cast<unsigned char>(r[0])))
    r = "graph_" + r;
  return r;
}

OwningOpRef<ModuleOp> Importer::run(StringRef bytes,
                                    std::unique_ptr<llvm::MemoryBuffer> owner) {
  floatType = b.getF32Type();
  onnx::ModelProto model;
  {
    google::protobuf::io::CodedInputStream stream(
        reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size());
    stream.SetTotalBytesLimit(std::numeric_limits<int>::max());
    // Subgraphs (If, Loop, Scan) nest messages; protobuf's default of 100
    // levels refuses valid models with a few dozen nested Ifs.
    stream.SetRecursionLimit(kMaxNesting);
    if (bytes.size() > size_t(std::numeric_limits<int>::max()) ||
        !model.ParseFromCodedStream(&stream) ||
        !stream.ConsumedEntireMessage()) {
      error() << "not a valid ONNX model: the file does not parse as an ONNX "
                 "ModelProto (truncated, corrupt, another format, or "
                 "messages nested more than "
              << kMaxNesting << " deep)";
      return nullptr;
    }
  }
  // The model is parsed: its file's bytes (BERT-base's 440 MB) are no
  // longer needed.
  owner.reset();
  bytes = StringRef();
  if (!model.has_graph() || model.ir_version() <= 0) {
    error() << "not a valid ONNX model: "
            << (model.has_graph() ? "no ir_version" : "no graph");
    return nullptr;
  }
  for (const onnx::OperatorSetIdProto &set : model.opset_import())
    if (set.domain().empty() || set.domain() == "ai.onnx")
      opset = set.version();
  if (opset == 0)
    opset = 1; // no default-domain entry: the first opset
  if (opset < kMinOnnxOpset || opset > kMaxOnnxOpset) {
    error() << "opset " << opset << " of the default domain is not supported ("
            << kMinOnnxOpset << " to " << kMaxOnnxOpset << ")";
    return nullptr;
  }
  const onnx::GraphProto &graph = model.graph();

  // All unsupported ops at once.
  std::map<std::string, std::vector<std::string>> unsupported;
  for (int k = 0; k < graph.node_size(); ++k) {
    const onnx::NodeProto &n = graph.node(k);
    bool defaultDomain = n.domain().empty() || n.domain() == "ai.onnx";
    if (!defaultDomain || !registry().lookup(n.op_type(), opset))
      unsupported[(defaultDomain ? "" : n.domain() + "::") + n.op_type()]
          .push_back(n.name().empty() ? "#" + std::to_string(k) : n.name());
    for (const std::string &in : n.input())
      usedNames.insert(in);
  }
  for (const onnx::ValueInfoProto &out : graph.output())
    usedNames.insert(out.name());
  if (!unsupported.empty()) {
    InFlightDiagnostic d = error();
    d << unsupported.size() << " unsupported op type"
      << (unsupported.size() > 1 ? "s" : "") << " (opset " << opset << "):";
    for (auto &[type, names] : unsupported) {
      d << " " << type << " (" << names.size() << " node"
        << (names.size() > 1 ? "s" : "") << ": " << names.front();
      for (size_t k = 1; k < std::min<size_t>(names.size(), 3); ++k)
        d << ", " << names[k];
      d << (names.size() > 3 ? ", ...)" : ")") << ";";
    }
    return nullptr;
  }

  // Initializers.
  llvm::StringSet<> initNames;
  for (const onnx::TensorProto &t : graph.initializer()) {
    FailureOr<HostTensor> h = parseTensor(t);
    if (failed(h))
      return nullptr;
    Entry e;
    e.shape = h->shape;
    e.host = std::move(*h);
    e.onnxType = t.data_type();
    env[t.name()] = std::move(e);
    initNames.insert(t.name());
  }

  // Bound graph inputs: their contents, from a TensorProto file each, are
  // known at import time as an initializer's are.
  llvm::StringSet<> boundNames;
  if (failed(bindInputs(graph, initNames, boundNames)))
    return nullptr;

  // ONNX's own checker, once the initializers (and their external data) are
  // read and checked: the graph's SSA form, each node against its schema
  // (input and output counts, required and unknown attributes).
  // A node of an op version newer than libonnx's schemas is held to the
  // importer's schema of that version instead (checkOwnSchema).
  std::vector<int> ownSchema;
  if (opset > onnxSchemaOpset())
    for (int k = 0; k < graph.node_size(); ++k) {
      const OpSpec *spec = registry().lookup(graph.node(k).op_type(), opset);
      if (spec && spec->hasOwnSchema())
        ownSchema.push_back(k);
    }
  if (std::optional<std::string> violation =
          runOnnxChecker(model, opts.modelDir, ownSchema)) {
    // Its message, with the node it names, on one line.
    SmallVector<StringRef> lines;
    StringRef(*violation).split(lines, '\n', -1, /*KeepEmpty=*/false);
    std::string text;
    for (StringRef line : lines) {
      line = line.trim();
      line.consume_front("==> Context: ");
      if (line.empty())
        continue;
      if (!text.empty())
        text += text.back() == '.' ? " " : ". ";
      text += line.str();
    }
    error() << "not a valid ONNX model (ONNX checker): " << text;
    return nullptr;
  }
  // The initializers' contents now live in `env` (read, converted and
  // checked): the model's copies are dropped, so that a large model's
  // weights are not held a third time while the constants are built.
  // (Deleted, not cleared: a cleared message keeps its strings' memory.)
  model.mutable_graph()->mutable_initializer()->DeleteSubrange(
      0, graph.initializer_size());

  // The function: graph inputs that are not initializers.
  SmallVector<const onnx::ValueInfoProto *> inputs;
  SmallVector<Type> argTypes;
  SmallVector<StringRef> overridable;
  for (const onnx::ValueInfoProto &v : graph.input()) {
    if (boundNames.contains(v.name()))
      continue;
    if (initNames.contains(v.name())) {
      overridable.push_back(v.name());
      continue;
    }
    FailureOr<RankedTensorType> type = inputType(v);
    if (failed(type))
      return nullptr;
    inputs.push_back(&v);
    argTypes.push_back(*type);
  }
  if (graph.output_size() == 0) {
    error() << "the graph has no outputs";
    return nullptr;
  }
  // From IR version 4 a graph input with an initializer is one a runtime may
  // let its caller override; fuse compiles the initializer in. Said once.
  // (Before version 4 every initializer had to be listed as an input.)
  if (!overridable.empty() && model.ir_version() >= 4) {
    InFlightDiagnostic w = mlir::emitWarning(fileLoc);
    w << overridable.size() << " graph input"
      << (overridable.size() > 1 ? "s have initializers"
                                 : " has an initializer")
      << " and " << (overridable.size() > 1 ? "are" : "is")
      << " compiled as a constant, not an argument: " << overridable.front();
    for (size_t k = 1; k < std::min<size_t>(overridable.size(), 3); ++k)
      w << ", " << overridable[k];
    if (overridable.size() > 3)
      w << ", ...";
  }

  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  b.setInsertionPointToEnd(module->getBody());
  std::string name =
      opts.functionName.empty()
          ? sanitize(graph.name().empty() ? "main_graph" : graph.name())
          : opts.functionName;
  auto func =
      func::FuncOp::create(b, fileLoc, name, b.getFunctionType(argTypes, {}));
  entryBlock = func.addEntryBlock();
  b.setInsertionPointToEnd(entryBlock);
  for (auto [k, v] : llvm::enumerate(inputs)) {
    Entry e;
    e.value = entryBlock->getArgument(k);
    e.shape.assign(shapeOf(e.value).begin(), shapeOf(e.value).end());
    e.onnxType = v->type().tensor_type().elem_type();
    env[v->name()] = std::move(e);
    func.setArgAttr(k, "onnx.name", b.getStringAttr(v->name()));
  }

  for (int k = 0; k < graph.node_size(); ++k) {
    node = &graph.node(k);
    nodeIndex = k;
    if (failed(importNode()))
      return nullptr;
  }
  node = nullptr;
  loc = fileLoc;

  SmallVector<Value> results;
  for (const onnx::ValueInfoProto &out : graph.output()) {
    auto it = env.find(out.name());
    if (it == env.end() && sequences.count(out.name())) {
      error() << "graph output '" << out.name()
              << "' is a sequence: run-time values are tensors (a "
                 "sequence lives only while the model is imported)";
      return nullptr;
    }
    if (it == env.end()) {
      error() << "graph output '" << out.name() << "' is never defined";
      return nullptr;
    }
    if (failed(checkDeclaredOutput(out, it->second)))
      return nullptr;
    floatType = typeOf(it->second);
    results.push_back(logical(it->second));
  }
  func::ReturnOp::create(b, fileLoc, results);
  func.setType(b.getFunctionType(argTypes, ValueRange(results).getTypes()));
  for (auto [k, out] : llvm::enumerate(graph.output()))
    func.setResultAttr(k, "onnx.name", b.getStringAttr(out.name()));
  if (failed(mlir::verify(*module))) {
    error() << "the imported IR does not verify (an importer bug; please "
               "report the model)";
    return nullptr;
  }
  return module;
}

std::vector<std::string> mlir::fuse::supportedOnnxOps() {
  return Importer::registry().opTypes();
}

/// Both entry points: the dialects the import builds, then the import of
/// `bytes` (`owner`, when given, holds them and is released once parsed).
static OwningOpRef<ModuleOp>
importModel(StringRef bytes, std::unique_ptr<llvm::MemoryBuffer> owner,
            MLIRContext *context, const OnnxImportOptions &options) {
  context->loadDialect<arith::ArithDialect, func::FuncDialect,
                       linalg::LinalgDialect, math::MathDialect,
                       tensor::TensorDialect, tosa::TosaDialect>();
  Importer importer(context, options);
  return importer.run(bytes, std::move(owner));
}

OwningOpRef<ModuleOp>
mlir::fuse::importOnnxModel(StringRef bytes, MLIRContext *context,
                            const OnnxImportOptions &options) {
  return importModel(bytes, nullptr, context, options);
}

OwningOpRef<ModuleOp>
mlir::fuse::importOnnxModel(std::unique_ptr<llvm::MemoryBuffer> bytes,
                            MLIRContext *context,
                            const OnnxImportOptions &options) {
  if (!bytes)
    return nullptr;
  StringRef text = bytes->getBuffer();
  return importModel(text, std::move(bytes), context, options);
}
