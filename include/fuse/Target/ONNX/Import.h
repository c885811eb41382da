//===- Import.h - ONNX to TOSA importer -------------------------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// Reads an ONNX ModelProto and builds one func.func of TOSA ops (plus tensor
// and arith where TOSA has no op). The function keeps the graph's input and
// output names (`onnx.name` argument and result attributes). Initializers
// larger than a threshold become dense_resource blobs. Shape subgraphs whose
// inputs are known at import time (Shape, Gather, Concat, Unsqueeze, ... on
// constants) are evaluated by the importer and never reach the IR.
//
// Layout: ONNX is NCHW, TOSA convolutions and pools are NHWC. The importer
// keeps each 4-D value in the layout its producer wants and transposes only
// where an op needs the other one, so a conv -> BN -> ReLU -> conv chain has
// no transposes between the convs; graph inputs and outputs keep ONNX's
// layout.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_TARGET_ONNX_IMPORT_H
#define FUSE_TARGET_ONNX_IMPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mlir::fuse {

struct OnnxImportOptions {
  /// Value for a symbolic first (batch) dimension; 0: no default.
  int64_t batchSize = 1;
  /// Values for named symbolic dimensions (`--onnx-dim name=N`).
  std::map<std::string, int64_t> dims;
  /// Constants of more than one element and more than this many bytes become
  /// dense_resource blobs (0 or less: every such constant).
  int64_t resourceThreshold = 256;
  /// Name of the function; empty: the graph's name.
  std::string functionName;
  /// Directory that external-data locations are relative to.
  std::string modelDir;
  /// Name the model is reported under in diagnostics.
  std::string modelName = "model.onnx";
  /// Graph inputs compiled as constants (`--onnx-bind NAME=FILE`): name ->
  /// path of a serialized TensorProto (as ONNX test data stores one). The
  /// input leaves the function's signature; the shapes, axes or sizes it
  /// carries become known at import time.
  std::map<std::string, std::string> boundInputs;
};

/// The opset versions of the default domain that the importer knows.
constexpr int64_t kMinOnnxOpset = 1;
constexpr int64_t kMaxOnnxOpset = 21;

/// Imports the serialized ModelProto in `bytes`. Emits diagnostics on the
/// context and returns null on any error (malformed file, unsupported op,
/// shape mismatch, ...).
OwningOpRef<ModuleOp> importOnnxModel(llvm::StringRef bytes,
                                      MLIRContext *context,
                                      const OnnxImportOptions &options);

/// The same, releasing `bytes` as soon as they are parsed: a large model's
/// file is not held in memory beside its parsed form while it is imported.
OwningOpRef<ModuleOp> importOnnxModel(std::unique_ptr<llvm::MemoryBuffer> bytes,
                                      MLIRContext *context,
                                      const OnnxImportOptions &options);

/// The ONNX op types (default domain) the importer takes, sorted.
std::vector<std::string> supportedOnnxOps();

/// The command-line category of the --onnx-* options (tools show it in
/// their --help and hide LLVM's own options).
llvm::cl::OptionCategory &getOnnxImportCategory();

/// Registers `--import-onnx` (and its options) with mlir-translate's
/// registry.
void registerOnnxImportTranslation();

} // namespace mlir::fuse

#endif // FUSE_TARGET_ONNX_IMPORT_H
