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
    FailureOr<int64_t> axisAttr = intAttr("axis", 0);
    if (failed(axisAttr))
      return failure();
    FailureOr<int64_t> axis = normAxis(*axisAttr, x->shape.size());
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
    FailureOr<int64_t> axisAttr = intAttr("axis", 0);
    if (failed(axisAttr))
      return failure();
    FailureOr<int64_t> axis = normAxis(*axisAttr, x->shape.size());
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

LogicalResult Importer::importInstanceNorm() {
  Entry &x = *input(0);
  int64_t rank = x.shape.size();
  if (rank < 3)
    return error() << "input " << shapeStr(x.shape)
                   << " must have a batch, a channel and a spatial dimension",
           failure();
  FailureOr<float> eps = floatAttr("epsilon", 1e-5f);
  if (failed(eps))
    return failure();
  if (!std::isfinite(*eps) || *eps < 0.0f)
    return error() << "epsilon must be finite and not negative, got " << *eps,
           failure();
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
  // Reshape.
  FailureOr<const HostTensor *> t = constInput(1, "shape");
  if (failed(t))
    return failure();
  FailureOr<int64_t> allowZero = intAttr("allowzero", 0);
  if (failed(allowZero))
    return failure();
  Shape out;
  int64_t infer = -1, known = 1;
  for (int64_t k = 0; k < (*t)->size(); ++k) {
    int64_t d = (*t)->intAt(k);
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
    if (hasInput(3))
      return error() << "the axes input is not supported", failure();
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

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

const llvm::StringMap<Importer::Handler> &Importer::handlers() {
  static const llvm::StringMap<Handler> table = [] {
    llvm::StringMap<Handler> t;
    for (StringRef op : {"Sigmoid", "Tanh", "Erf", "Exp", "Log", "Abs", "Neg",
                         "Reciprocal", "Floor", "Ceil", "Sqrt"})
      t[op] = [](Importer &i) { return i.importUnary(i.node->op_type()); };
    // Run-time integer operands take the integer path.
    for (StringRef op : {"Add", "Sub", "Mul"})
      t[op] = [](Importer &i) {
        return i.integerInputs() ? i.importIntegerArith(i.node->op_type())
                                 : i.importBinary(i.node->op_type());
      };
    // Integer Div is refused before it gets here (not a typed op).
    t["Div"] = [](Importer &i) { return i.importBinary("Div"); };
    t["Pow"] = [](Importer &i) {
      return i.integerInputs() ? i.importPowIntegerExponent()
                               : i.importBinary("Pow");
    };
    t["GatherElements"] = [](Importer &i) { return i.importGatherElements(); };
    t["CumSum"] = [](Importer &i) { return i.importCumSum(); };
    t["QuantizeLinear"] = [](Importer &i) { return i.importQuantize(true); };
    t["DequantizeLinear"] = [](Importer &i) { return i.importQuantize(false); };
    t["TopK"] = [](Importer &i) { return i.importTopK(); };
    t["ScatterND"] = [](Importer &i) { return i.importScatterND(); };
    t["Einsum"] = [](Importer &i) { return i.importEinsum(); };
    t["ArgMax"] = [](Importer &i) { return i.importArgExtreme(true); };
    t["ArgMin"] = [](Importer &i) { return i.importArgExtreme(false); };
    for (StringRef op : {"Max", "Min"})
      t[op] = [](Importer &i) {
        return i.integerInputs() ? i.importIntegerArith(i.node->op_type())
                                 : i.importVariadic(i.node->op_type());
      };
    t["Sum"] = [](Importer &i) {
      return i.integerInputs() ? i.importIntegerArith("Add")
                               : i.importVariadic("Add");
    };
    for (StringRef op : {"Relu", "Clip"})
      t[op] = [](Importer &i) { return i.importClip(); };
    t["Identity"] = [](Importer &i) { return i.define(0, *i.input(0)); };
    t["Dropout"] = [](Importer &i) -> LogicalResult {
      if (i.outputUsed(1))
        return i.error() << "the mask output is not supported", failure();
      return i.define(0, *i.input(0));
    };
    t["Cast"] = [](Importer &i) { return i.importCast(); };
    for (StringRef op : {"SequenceEmpty", "SequenceConstruct", "SequenceInsert",
                         "SequenceErase", "SequenceAt", "SequenceLength",
                         "ConcatFromSequence", "SplitToSequence"})
      t[op] = [](Importer &i) { return i.importSequenceOp(); };
    t["InstanceNormalization"] = [](Importer &i) {
      return i.importInstanceNorm();
    };
    t["ConvTranspose"] = [](Importer &i) {
      return i.input(0)->shape.size() == 3
                 ? i.importAs2D(&Importer::importConvTranspose2D, false, false)
                 : i.importConvTranspose();
    };
    t["Conv"] = [](Importer &i) {
      size_t rank = i.input(0)->shape.size();
      return rank == 3   ? i.importAs2D(&Importer::importConv2D, false, false)
             : rank == 5 ? i.importConv3D()
                         : i.importConv();
    };
    t["BatchNormalization"] = [](Importer &i) { return i.importBatchNorm(); };
    t["MatMul"] = [](Importer &i) -> LogicalResult {
      Entry y;
      if (failed(i.importMatMul(*i.input(0), *i.input(1), y)))
        return failure();
      return i.define(0, std::move(y));
    };
    t["Gemm"] = [](Importer &i) { return i.importGemm(); };
    t["Softmax"] = [](Importer &i) { return i.importSoftmax(false); };
    t["LogSoftmax"] = [](Importer &i) { return i.importSoftmax(true); };
    for (StringRef op : {"LeakyRelu", "Elu", "Selu", "Celu", "Softplus",
                         "Softsign", "HardSigmoid", "HardSwish"})
      t[op] = [](Importer &i) { return i.importActivation(i.node->op_type()); };
    t["PRelu"] = [](Importer &i) { return i.importPRelu(); };
    for (StringRef op : {"Sign", "Shrink", "ThresholdedRelu"})
      t[op] = [](Importer &i) { return i.importPiecewise(i.node->op_type()); };
    t["Tile"] = [](Importer &i) { return i.importTile(); };
    t["LayerNormalization"] = [](Importer &i) { return i.importLayerNorm(); };
    for (StringRef op : {"ReduceMax", "ReduceMean", "ReduceMin", "ReduceSum"})
      t[op] = [](Importer &i) { return i.importReduce(i.node->op_type()); };
    for (StringRef op :
         {"MaxPool", "AveragePool", "GlobalMaxPool", "GlobalAveragePool"})
      t[op] = [](Importer &i) {
        StringRef type = i.node->op_type();
        bool isMax = type.contains("Max"), global = type.starts_with("Global");
        size_t rank = i.input(0)->shape.size();
        return rank == 3   ? i.importAs2D(&Importer::importPool, isMax, global)
               : rank == 5 ? i.importPool3D(isMax, global)
                           : i.importPool(isMax, global);
      };
    for (StringRef op : {"Flatten", "Reshape", "Squeeze", "Unsqueeze"})
      t[op] = [](Importer &i) { return i.importReshapeLike(); };
    t["Transpose"] = [](Importer &i) { return i.importTranspose(); };
    t["Concat"] = [](Importer &i) { return i.importConcat(); };
    t["Split"] = [](Importer &i) { return i.importSplit(); };
    t["Slice"] = [](Importer &i) { return i.importSlice(); };
    t["Gather"] = [](Importer &i) { return i.importGather(); };
    t["Resize"] = [](Importer &i) { return i.importResize(); };
    t["Pad"] = [](Importer &i) { return i.importPad(); };
    t["Expand"] = [](Importer &i) { return i.importExpand(); };
    t["Where"] = [](Importer &i) { return i.importWhere(); };
    // Evaluated at import time (tryFold); a run-time one cannot be built.
    for (StringRef op : {"Constant", "ConstantOfShape", "Shape"})
      t[op] = [](Importer &i) -> LogicalResult {
        return i.error() << "the shape must be known at import time", failure();
      };
    for (StringRef op :
         {"Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual"})
      t[op] = [](Importer &i) { return i.importCompare(i.node->op_type()); };
    for (StringRef op : {"And", "Or", "Xor", "Not"})
      t[op] = [](Importer &i) { return i.importLogic(i.node->op_type()); };
    t["Range"] = [](Importer &i) -> LogicalResult {
      return i.error() << "is evaluated at import time only: start, limit "
                          "and delta must be known (its output's size "
                          "depends on them)",
             failure();
    };
    return t;
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
  // Required inputs (present and named), per op and opset.
  StringRef opType = node->op_type();
  int required = 1;
  if (opType == "Constant")
    required = 0;
  else if (llvm::is_contained({"Add",
                               "Sub",
                               "Mul",
                               "Div",
                               "Pow",
                               "Conv",
                               "MatMul",
                               "Gemm",
                               "Reshape",
                               "Gather",
                               "LayerNormalization",
                               "PRelu",
                               "Tile",
                               "ConvTranspose",
                               "Expand",
                               "Equal",
                               "Less",
                               "Greater",
                               "LessOrEqual",
                               "GreaterOrEqual",
                               "And",
                               "Or",
                               "Xor",
                               "GatherElements",
                               "CumSum",
                               "QuantizeLinear",
                               "DequantizeLinear"},
                              opType))
    required = 2;
  else if (opType == "BatchNormalization")
    required = 5;
  else if (llvm::is_contained(
               {"InstanceNormalization", "Where", "Range", "ScatterND"},
               opType))
    required = 3;
  else if (llvm::is_contained({"Concat", "Max", "Min", "Sum"}, opType))
    required = std::max(1, numInputs()); // variadic: every input
  else if (opType == "Slice" && opset >= 10)
    required = 3;
  else if (opType == "Pad" && opset >= 11)
    required = 2;
  for (int k = 0; k < required; ++k)
    if (!hasInput(k))
      return error() << "needs " << required << " input"
                     << (required > 1 ? "s" : "") << ", input " << k
                     << " is missing",
             failure();
  if (node->output_size() == 0 || node->output(0).empty())
    return error() << "has no output", failure();
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
  StringRef t = node->op_type();
  // Run-time integers and booleans (token ids, masks, positions) reach the
  // ops that move, convert, compare, select, gather or add them; every
  // other op takes float32 run-time values.
  static const llvm::StringSet<> typedOps = {"Identity",
                                             "Pad",
                                             "Pow",
                                             "GatherElements",
                                             "CumSum",
                                             "QuantizeLinear",
                                             "DequantizeLinear",
                                             "TopK",
                                             "ScatterND",
                                             "ArgMax",
                                             "ArgMin",
                                             "Cast",
                                             "Reshape",
                                             "Flatten",
                                             "Squeeze",
                                             "Unsqueeze",
                                             "Transpose",
                                             "Concat",
                                             "Slice",
                                             "Split",
                                             "Gather",
                                             "Expand",
                                             "Tile",
                                             "Where",
                                             "Equal",
                                             "Less",
                                             "Greater",
                                             "LessOrEqual",
                                             "GreaterOrEqual",
                                             "And",
                                             "Or",
                                             "Xor",
                                             "Not",
                                             "Add",
                                             "Sub",
                                             "Mul",
                                             "Max",
                                             "Min",
                                             "Sum"};
  if (t != "Shape" && !typedOps.contains(t))
    for (int k = 0; k < numInputs(); ++k)
      if (nonFloatRuntime(k))
        return error() << "input '" << node->input(k) << "' is "
                       << runtimeTypeName(typeOf(*input(k))) << " at run time; "
                       << t
                       << " takes FLOAT run-time values, and its integer "
                          "inputs (shapes, axes, sizes) must be known at "
                          "import time",
               failure();
  auto handler = handlers().find(t);
  if (handler == handlers().end())
    return error() << "is not supported", failure();
  // 16-bit floats stay 16-bit through the ops that move, select or compare
  // them, through the contractions (which sum their products in f32) and
  // through the exactly rounded elementwise arithmetic; every other op
  // (reductions, normalizations, transcendental functions, and the sums of
  // CumSum, ScatterND and Pow) computes in f32 between a conversion of its
  // inputs and one of its results.
  static const llvm::StringSet<> sixteenBitOps = {
      "Conv",        "MatMul", "Gemm", "Div",      "Neg",
      "Abs",         "Relu",   "Clip", "MaxPool",  "BatchNormalization",
      "Dropout",     "Shape",  "Size", "Identity", "DepthToSpace",
      "SpaceToDepth"};
  bool sums = t == "Pow" || t == "CumSum" || t == "ScatterND";
  if (floatType.isF32() ||
      ((typedOps.contains(t) || sixteenBitOps.contains(t)) && !sums))
    return handler->second(*this);
  return importWidened(floatType, handler->second);
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
    if (!defaultDomain || !handlers().contains(n.op_type()))
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
  if (std::optional<std::string> violation =
          runOnnxChecker(model, opts.modelDir)) {
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
  std::vector<std::string> ops;
  for (const auto &op : Importer::handlers())
    ops.push_back(op.getKey().str());
  llvm::sort(ops);
  return ops;
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
