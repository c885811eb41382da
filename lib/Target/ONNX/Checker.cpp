//===- Checker.cpp - ONNX's own model checker under the importer ----------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// libonnx's checker reports a violation by throwing; this file is the only
// one of the importer built with exceptions (and RTTI, which libonnx's
// headers need), so that nothing is thrown past it.
//
//===----------------------------------------------------------------------===//

#include "Checker.h"

#include <onnx/checker.h>
#include <onnx/defs/schema.h>

#include <exception>
#include <string>
#include <unordered_map>

namespace {
/// The private domain the checker sees the nodes the importer checks itself
/// in; a domain without schemas, whose nodes it does not check.
constexpr const char *kOwnSchemaDomain = "fuse.own_schema";
} // namespace

int mlir::fuse::onnx_import::onnxSchemaOpset() {
  const auto &map =
      onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
  auto it = map.find(onnx::ONNX_DOMAIN);
  return it == map.end() ? 0 : it->second.second;
}

std::optional<std::string>
mlir::fuse::onnx_import::runOnnxChecker(onnx::ModelProto &model,
                                        const std::string &modelDir,
                                        const std::vector<int> &ownSchema) {
  // The relabelled nodes get their domain back however the check ends.
  onnx::GraphProto &graph = *model.mutable_graph();
  std::vector<std::string> domains;
  for (int k : ownSchema) {
    domains.push_back(graph.node(k).domain());
    graph.mutable_node(k)->set_domain(kOwnSchemaDomain);
  }
  struct Restore {
    onnx::GraphProto &graph;
    const std::vector<int> &nodes;
    std::vector<std::string> &domains;
    ~Restore() {
      for (size_t k = 0; k < nodes.size(); ++k)
        graph.mutable_node(nodes[k])->set_domain(std::move(domains[k]));
    }
  } restore{graph, ownSchema, domains};
  try {
    // What onnx::checker::check_model(ModelProto) checks, with the model's
    // directory set so that external data is looked for next to the model
    // rather than in the working directory.
    onnx::checker::CheckerContext context;
    context.set_model_dir(modelDir);
    context.set_ir_version(static_cast<int>(model.ir_version()));
    std::unordered_map<std::string, int> imports;
    for (const onnx::OperatorSetIdProto &set : model.opset_import())
      imports[set.domain()] = static_cast<int>(set.version());
    if (model.ir_version() >= 3 && imports.empty())
      return std::string("the model imports no opset (every model of IR "
                         "version 3 or later must import the default one)");
    if (imports.empty())
      imports[""] = 1;
    if (!ownSchema.empty())
      imports[kOwnSchemaDomain] = 1;
    context.set_opset_imports(imports);
    onnx::checker::LexicalScopeContext scope;
    onnx::checker::check_graph(model.graph(), context, scope);
    if (model.ir_version() >= 8)
      onnx::checker::check_model_local_functions(model, context, scope);
  } catch (const std::exception &e) {
    return std::string(e.what());
  } catch (...) {
    return std::string("the checker failed without a message");
  }
  return std::nullopt;
}
