//===- Registration.cpp - --import-onnx for fuse-translate ----------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Target/ONNX/Import.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ManagedStatic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

llvm::cl::OptionCategory &mlir::fuse::getOnnxImportCategory() {
  static llvm::cl::OptionCategory category("ONNX import options");
  return category;
}

namespace {
struct OnnxOptions {
  llvm::cl::opt<int64_t> batch{
      "onnx-batch", llvm::cl::cat(mlir::fuse::getOnnxImportCategory()),
      llvm::cl::desc("Size of a symbolic first (batch) dimension of the graph "
                     "inputs (default 1)"),
      llvm::cl::init(1)};
  llvm::cl::list<std::string> dims{
      "onnx-dim", llvm::cl::cat(mlir::fuse::getOnnxImportCategory()),
      llvm::cl::desc("Value of a named symbolic dimension, NAME=N "
                     "(repeatable)")};
  llvm::cl::opt<int64_t> resourceThreshold{
      "onnx-resource-threshold",
      llvm::cl::cat(mlir::fuse::getOnnxImportCategory()),
      llvm::cl::desc("Constants of more than one element and larger than "
                     "this many bytes become dense_resource blobs (default "
                     "256)"),
      llvm::cl::init(256)};
  // Set by fuse-translate when it reads a pipe through a temporary file:
  // the name messages give the input, and where external data is looked for.
  llvm::cl::opt<std::string> inputName{
      "onnx-input-name", llvm::cl::cat(mlir::fuse::getOnnxImportCategory()),
      llvm::cl::desc("The input's name in messages (default: its path)"),
      llvm::cl::Hidden};
  llvm::cl::list<std::string> bind{
      "onnx-bind", llvm::cl::cat(mlir::fuse::getOnnxImportCategory()),
      llvm::cl::desc("Compile graph input NAME as the constant in FILE (a "
                     "serialized TensorProto), NAME=FILE (repeatable)")};
  llvm::cl::opt<std::string> function{
      "onnx-function", llvm::cl::cat(mlir::fuse::getOnnxImportCategory()),
      llvm::cl::desc("Name of the imported function (default: the graph's "
                     "name)")};
};
llvm::ManagedStatic<OnnxOptions> onnxOptions;
} // namespace

void mlir::fuse::registerOnnxImportTranslation() {
  *onnxOptions;
  static TranslateToMLIRRegistration registration(
      "import-onnx", "Import an ONNX model as TOSA",
      [](llvm::SourceMgr &sourceMgr,
         MLIRContext *context) -> OwningOpRef<Operation *> {
        const llvm::MemoryBuffer *buffer =
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
        OnnxImportOptions options;
        options.batchSize = onnxOptions->batch;
        options.resourceThreshold = onnxOptions->resourceThreshold;
        options.functionName = onnxOptions->function;
        StringRef path = onnxOptions->inputName.empty()
                             ? buffer->getBufferIdentifier()
                             : StringRef(onnxOptions->inputName);
        options.modelName = path.str();
        options.modelDir = llvm::sys::path::parent_path(path).str();
        for (const std::string &d : onnxOptions->dims) {
          auto [name, value] = StringRef(d).split('=');
          int64_t n;
          if (name.empty() || value.getAsInteger(10, n) || n <= 0) {
            emitError(UnknownLoc::get(context))
                << "--onnx-dim expects NAME=N with N > 0, got '" << d << "'";
            return nullptr;
          }
          options.dims[name.str()] = n;
        }
        for (const std::string &spec : onnxOptions->bind) {
          auto [name, file] = StringRef(spec).split('=');
          if (name.empty() || file.empty()) {
            emitError(UnknownLoc::get(context))
                << "--onnx-bind expects NAME=FILE, got '" << spec << "'";
            return nullptr;
          }
          options.boundInputs[name.str()] = file.str();
        }
        if (options.batchSize <= 0) {
          emitError(UnknownLoc::get(context))
              << "--onnx-batch must be positive, got " << options.batchSize;
          return nullptr;
        }
        if (options.resourceThreshold < 0) {
          emitError(UnknownLoc::get(context))
              << "--onnx-resource-threshold must be a number of bytes (0 or "
                 "more), got "
              << options.resourceThreshold;
          return nullptr;
        }
        OwningOpRef<ModuleOp> module =
            importOnnxModel(buffer->getBuffer(), context, options);
        return OwningOpRef<Operation *>(module.release());
      },
      [](DialectRegistry &registry) {
        registry.insert<func::FuncDialect, linalg::LinalgDialect,
                        tosa::TosaDialect>();
      });
}
