//===- Checker.h - ONNX's own model checker under the importer --*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_LIB_TARGET_ONNX_CHECKER_H
#define FUSE_LIB_TARGET_ONNX_CHECKER_H

#include <optional>
#include <string>
#include <vector>

namespace onnx {
class ModelProto;
} // namespace onnx

namespace mlir::fuse::onnx_import {

/// Runs ONNX's checker on `model` as onnx::checker::check_model does (the
/// opset imports, the graph's SSA form, each node against its operator
/// schema: input and output counts, required and unknown attributes, and
/// each initializer), with external data looked for in `modelDir`. The
/// main graph's nodes at `ownSchema` (indices) are checked as custom-domain
/// nodes, without a schema: the importer checks them against its own (an
/// op version newer than libonnx's). Returns the checker's message for the
/// first violation, or nothing when the model is valid. `model` is left as
/// it was.
std::optional<std::string> runOnnxChecker(onnx::ModelProto &model,
                                          const std::string &modelDir,
                                          const std::vector<int> &ownSchema);

/// The newest opset of the default domain whose schemas libonnx has.
int onnxSchemaOpset();

} // namespace mlir::fuse::onnx_import

#endif // FUSE_LIB_TARGET_ONNX_CHECKER_H
