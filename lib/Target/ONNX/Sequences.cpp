//===- Sequences.cpp - ONNX sequence ops, resolved at import time ---------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// fuse's run-time values are tensors, so a sequence lives only while the
// model is imported: it is the list of the tensors it holds (their names in
// the importer's environment). SequenceEmpty, SequenceConstruct,
// SequenceInsert and SequenceErase edit that list; SequenceAt reads one of
// its tensors and SequenceLength its length (a constant);
// ConcatFromSequence is a Concat of its tensors (each with a new axis
// first, with new_axis = 1) and SplitToSequence a Split whose parts become
// the list. Every position must be known at import time (a constant or an
// initializer, or bound with --onnx-bind): which tensor a position names
// decides the shapes that follow. A sequence that is a graph input or
// output, or that reaches an op taking tensors, is an error naming it.
//
//===----------------------------------------------------------------------===//

#include "ImporterImpl.h"

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::onnx_import;
using namespace mlir::fuse::onnx_import::detail;

bool Importer::isSequenceOp(StringRef opType) {
  return llvm::is_contained(
      {"SequenceEmpty", "SequenceConstruct", "SequenceInsert", "SequenceErase",
       "SequenceAt", "SequenceLength", "ConcatFromSequence", "SplitToSequence"},
      opType);
}

FailureOr<std::vector<std::string> *> Importer::sequenceInput(int k) {
  if (!hasInput(k))
    return error() << "needs a sequence as input " << k, failure();
  auto it = sequences.find(node->input(k));
  if (it != sequences.end())
    return &it->second;
  if (env.count(node->input(k)))
    return error() << "input '" << node->input(k) << "' is a tensor; input "
                   << k << " must be a sequence",
           failure();
  return error() << "input '" << node->input(k)
                 << "' is not defined before this node",
         failure();
}

LogicalResult Importer::defineSequence(std::vector<std::string> items) {
  const std::string &name = node->output(0);
  if (env.count(name) || sequences.count(name))
    return error() << "value '" << name << "' is defined twice", failure();
  sequences[name] = std::move(items);
  return success();
}

FailureOr<int64_t> Importer::sequencePosition(int k, int64_t length, bool end) {
  FailureOr<const HostTensor *> t = constInput(k, "the position");
  if (failed(t))
    return failure();
  if ((*t)->isFloat || (*t)->size() != 1 || !(*t)->shape.empty())
    return error() << "the position (input " << k
                   << ") must be an integer scalar",
           failure();
  int64_t p = (*t)->intAt(0);
  // Insertion may name the end (position length); the others an element.
  int64_t last = end ? length : length - 1;
  if (p < -length || p > last)
    return error() << "position " << p << " is out of range for a sequence "
                   << "of " << length << " tensors ([" << -length << ", "
                   << last << "])",
           failure();
  return p < 0 ? p + length : p;
}

std::string Importer::sequenceTemp(Entry e) {
  std::string name =
      node->output(0) + '\0' + "seq" + std::to_string(sequenceTemps++);
  env[name] = std::move(e);
  return name;
}

/// `e` with ONNX shape `shape` (the same elements: a unit axis added or
/// removed).
Entry Importer::withShape(Entry e, ArrayRef<int64_t> shape) {
  if (!e.value) {
    Entry r = e;
    r.host = e.host->reshaped(Shape(shape));
    r.shape = Shape(shape);
    return r;
  }
  Entry r = result(reshape(logical(e), shape), shape, false);
  r.onnxType = e.onnxType;
  return r;
}

LogicalResult Importer::importAsNode(const onnx::NodeProto &synthetic) {
  const onnx::NodeProto *orig = node;
  node = &synthetic;
  LogicalResult r = importNode();
  node = orig;
  return r;
}

LogicalResult Importer::importSequenceOp() {
  StringRef t = node->op_type();
  if (node->output_size() == 0 || node->output(0).empty())
    return error() << "has no output", failure();
  if (t == "SequenceEmpty")
    return defineSequence({});
  if (t == "SequenceConstruct") {
    if (numInputs() == 0)
      return error() << "needs at least one tensor", failure();
    std::vector<std::string> items;
    for (int k = 0; k < numInputs(); ++k) {
      if (!hasInput(k) || !input(k))
        return error() << "input " << k << " must be a defined tensor",
               failure();
      items.push_back(node->input(k));
    }
    return defineSequence(std::move(items));
  }
  if (t == "SplitToSequence")
    return importSplitToSequence();

  FailureOr<std::vector<std::string> *> seq = sequenceInput(0);
  if (failed(seq))
    return failure();
  std::vector<std::string> items = **seq;
  int64_t length = items.size();
  if (t == "SequenceInsert") {
    if (!hasInput(1) || !input(1))
      return error() << "input 1 must be a defined tensor", failure();
    int64_t at = length;
    if (hasInput(2)) {
      FailureOr<int64_t> p = sequencePosition(2, length, /*end=*/true);
      if (failed(p))
        return failure();
      at = *p;
    }
    items.insert(items.begin() + at, node->input(1));
    return defineSequence(std::move(items));
  }
  if (t == "SequenceErase") {
    if (length == 0)
      return error() << "cannot erase from an empty sequence", failure();
    int64_t at = length - 1;
    if (hasInput(1)) {
      FailureOr<int64_t> p = sequencePosition(1, length, /*end=*/false);
      if (failed(p))
        return failure();
      at = *p;
    }
    items.erase(items.begin() + at);
    return defineSequence(std::move(items));
  }
  if (t == "SequenceAt") {
    if (!hasInput(1))
      return error() << "needs a position (input 1)", failure();
    if (length == 0)
      return error() << "the sequence is empty", failure();
    FailureOr<int64_t> p = sequencePosition(1, length, /*end=*/false);
    if (failed(p))
      return failure();
    return define(0, env.find(items[*p])->second);
  }
  if (t == "SequenceLength") {
    Entry e;
    e.host = HostTensor::ints({}, {length});
    e.shape = {};
    e.onnxType = onnx::TensorProto::INT64;
    return define(0, std::move(e));
  }
  // ConcatFromSequence.
  if (length == 0)
    return error() << "the sequence is empty: nothing to concatenate",
           failure();
  FailureOr<int64_t> axis =
      intAttr("axis", std::numeric_limits<int64_t>::min());
  FailureOr<int64_t> newAxis = intAttr("new_axis", 0);
  if (failed(axis) || failed(newAxis))
    return failure();
  if (*axis == std::numeric_limits<int64_t>::min())
    return error() << "needs the attribute 'axis'", failure();
  if (*newAxis != 0 && *newAxis != 1)
    return error() << "new_axis must be 0 or 1, got " << *newAxis, failure();
  onnx::NodeProto concat;
  concat.set_name(node->name());
  concat.set_op_type("Concat");
  concat.set_domain(node->domain());
  concat.add_output(node->output(0));
  int64_t rank = env.find(items.front())->second.shape.size();
  int64_t concatAxis = *axis;
  if (*newAxis) {
    // Stacked: each tensor gets a unit axis at `axis` (of rank + 1).
    FailureOr<int64_t> at = normAxis(*axis, rank + 1);
    if (failed(at))
      return failure();
    concatAxis = *at;
    for (std::string &item : items) {
      const Entry &e = env.find(item)->second;
      if (int64_t(e.shape.size()) != rank)
        return error() << "the sequence's tensors have different ranks",
               failure();
      Shape s = e.shape;
      s.insert(s.begin() + *at, 1);
      item = sequenceTemp(withShape(e, s));
    }
  }
  for (const std::string &item : items)
    concat.add_input(item);
  onnx::AttributeProto *a = concat.add_attribute();
  a->set_name("axis");
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(concatAxis);
  return importAsNode(concat);
}

LogicalResult Importer::importSplitToSequence() {
  Entry *x = input(0);
  if (!x)
    return error() << "input 0 must be a defined tensor", failure();
  int64_t rank = x->shape.size();
  FailureOr<int64_t> axis = axisAttr(rank);
  FailureOr<int64_t> keepdims = intAttr("keepdims", 1);
  if (failed(axis) || failed(keepdims))
    return failure();
  int64_t dim = x->shape[*axis];
  Shape sizes;
  bool squeeze = false;
  if (hasInput(1)) {
    FailureOr<const HostTensor *> s = constInput(1, "split");
    if (failed(s))
      return failure();
    if ((*s)->isFloat || (*s)->shape.size() > 1)
      return error() << "split must be an integer scalar or a 1-D list",
             failure();
    if ((*s)->shape.empty()) {
      // Parts of that length; the last takes what is left.
      int64_t part = (*s)->intAt(0);
      if (part <= 0)
        return error() << "split " << part << " must be positive", failure();
      for (int64_t at = 0; at < dim; at += part)
        sizes.push_back(std::min(part, dim - at));
    } else {
      for (int64_t k = 0; k < (*s)->size(); ++k)
        sizes.push_back((*s)->intAt(k));
    }
  } else {
    // Parts of one element; keepdims = 0 drops the split axis.
    sizes.assign(dim, 1);
    squeeze = *keepdims == 0;
  }
  if (sizes.empty() || llvm::any_of(sizes, [](int64_t v) { return v <= 0; }) ||
      std::accumulate(sizes.begin(), sizes.end(), int64_t(0)) != dim)
    return error() << "split sizes " << shapeStr(sizes) << " do not cover the "
                   << dim << " elements of axis " << *axis
                   << " in positive parts",
           failure();
  onnx::NodeProto split;
  split.set_name(node->name());
  split.set_op_type("Split");
  split.set_domain(node->domain());
  split.add_input(node->input(0));
  std::string base = node->output(0) + '\0' + "part";
  std::vector<std::string> items;
  for (size_t k = 0; k < sizes.size(); ++k) {
    items.push_back(base + std::to_string(k));
    split.add_output(items.back());
  }
  onnx::AttributeProto *a = split.add_attribute();
  a->set_name("axis");
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(*axis);
  if (opset >= 13) {
    // The sizes as a constant input, as Split takes them since opset 13.
    Entry e;
    e.host = HostTensor::ints({int64_t(sizes.size())},
                              std::vector<int64_t>(sizes.begin(), sizes.end()));
    e.shape = e.host->shape;
    e.onnxType = onnx::TensorProto::INT64;
    split.add_input(sequenceTemp(std::move(e)));
  } else {
    onnx::AttributeProto *s = split.add_attribute();
    s->set_name("split");
    s->set_type(onnx::AttributeProto::INTS);
    for (int64_t v : sizes)
      s->add_ints(v);
  }
  if (failed(importAsNode(split)))
    return failure();
  if (squeeze)
    for (std::string &item : items) {
      const Entry &e = env.find(item)->second;
      Shape s = e.shape;
      s.erase(s.begin() + *axis);
      item = sequenceTemp(withShape(e, s));
    }
  return defineSequence(std::move(items));
}

void Importer::registerSequenceOps(OpRegistry &r) {
  // importNode sends these to importSequenceOp before any tensor check.
  for (StringRef op : {"SequenceEmpty", "SequenceConstruct", "SequenceInsert",
                       "SequenceErase", "SequenceAt", "SequenceLength",
                       "ConcatFromSequence", "SplitToSequence"})
    r.add(op, [](Importer &i) { return i.importSequenceOp(); });
}
