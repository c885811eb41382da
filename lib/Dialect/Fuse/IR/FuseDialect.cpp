//===- FuseDialect.cpp - the fuse dialect ---------------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "fuse/Dialect/Fuse/IR/FuseOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::fuse;

#include "fuse/Dialect/Fuse/IR/FuseOpsDialect.cpp.inc"

void FuseDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "fuse/Dialect/Fuse/IR/FuseOps.cpp.inc"
      >();
  registerAttributes();
}

/// Every `fuse.*` attribute on an op is one the dialect declares, of its
/// type, where it belongs.
LogicalResult FuseDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  Attribute value = attr.getValue();
  auto wrongType = [&](StringRef expected) -> LogicalResult {
    return op->emitOpError() << "attribute '" << name << "' must be "
                             << expected << ", got " << value;
  };
  auto onlyOn = [&](bool ok, StringRef where) -> LogicalResult {
    if (ok)
      return success();
    return op->emitOpError()
           << "attribute '" << name << "' belongs on " << where;
  };
  auto nonNegative = [&](Attribute v) {
    auto integer = dyn_cast_or_null<IntegerAttr>(v);
    return integer && integer.getType().isInteger(64) && integer.getInt() >= 0;
  };
  bool isFunction = isa<FunctionOpInterface>(op);
  if (name == TargetAttrHelper::getNameStr()) {
    if (!isa<TargetAttr>(value))
      return wrongType("a #fuse.target");
    return onlyOn(isa<ModuleOp>(op), "a module");
  }
  if (name == CpuTargetAttrHelper::getNameStr()) {
    if (!isa<CpuTargetAttr>(value))
      return wrongType("a #fuse.cpu_target");
    return onlyOn(isa<ModuleOp>(op), "a module");
  }
  if (name == IdAttrHelper::getNameStr()) {
    if (!nonNegative(value))
      return wrongType("a non-negative i64");
    return onlyOn(isa<GroupOp>(op), "a fuse.group");
  }
  if (name == LoweringConfigAttrHelper::getNameStr()) {
    if (!isa<LoweringConfigAttr>(value))
      return wrongType("a #fuse.lowering_config");
    return onlyOn(isa<GroupOp>(op) || isFunction,
                  "a fuse.group or the function made from one");
  }
  if (name == KindAttrHelper::getNameStr()) {
    auto kind = dyn_cast<StringAttr>(value);
    if (!kind || !symbolizeFusionKind(kind.getValue()))
      return wrongType("a fusion kind string (single, vertical, horizontal, "
                       "diagonal or composite)");
    return onlyOn(isFunction, "a function");
  }
  if (name == RuleAttrHelper::getNameStr()) {
    auto rule = dyn_cast<StringAttr>(value);
    if (!rule || rule.getValue().empty())
      return wrongType("a rule name");
    return onlyOn(isFunction, "a function");
  }
  if (name == NoPlanAttrHelper::getNameStr() ||
      name == NoVectorizeAttrHelper::getNameStr()) {
    if (!isa<UnitAttr>(value))
      return wrongType("a unit attribute");
    return onlyOn(isFunction, "a function");
  }
  if (name == ParallelTilesAttrHelper::getNameStr()) {
    if (!isa<UnitAttr>(value))
      return wrongType("a unit attribute");
    return onlyOn(op->getName().getStringRef() == "scf.for", "an scf.for");
  }
  if (name == ParallelBodyAttrHelper::getNameStr()) {
    if (!isa<UnitAttr>(value))
      return wrongType("a unit attribute");
    return onlyOn(isFunction, "a function");
  }
  if (name == MemoryAttrHelper::getNameStr()) {
    auto memory = dyn_cast<DictionaryAttr>(value);
    if (!memory)
      return wrongType("a dictionary");
    for (StringRef key : {"naive", "arena", "max_live", "in_place_bytes"})
      if (!nonNegative(memory.get(key)))
        return wrongType(
            ("a dictionary with a non-negative i64 '" + key + "'").str());
    if (!isa_and_nonnull<StringAttr>(memory.get("strategy")))
      return wrongType("a dictionary with a 'strategy' string");
    return onlyOn(isFunction, "a function");
  }
  if (name == RelayoutsAttrHelper::getNameStr()) {
    auto records = dyn_cast<ArrayAttr>(value);
    if (!records || !llvm::all_of(records, [](Attribute record) {
          auto dict = dyn_cast<DictionaryAttr>(record);
          return dict && isa_and_nonnull<StringAttr>(dict.get("op")) &&
                 isa_and_nonnull<StringAttr>(dict.get("from")) &&
                 isa_and_nonnull<StringAttr>(dict.get("to")) &&
                 isa_and_nonnull<IntegerAttr>(dict.get("bytes"));
        }))
      return wrongType("an array of {op, from, to, bytes} dictionaries");
    return onlyOn(isFunction, "a function");
  }
  if (name == ConstantArgumentsAttrHelper::getNameStr()) {
    auto indices = dyn_cast<DenseI64ArrayAttr>(value);
    if (!indices || llvm::any_of(indices.asArrayRef(),
                                 [](int64_t index) { return index < 0; }))
      return wrongType("an array of non-negative argument positions");
    return onlyOn(isFunction, "a function");
  }
  if (name == PackArgumentAttrHelper::getNameStr()) {
    if (!isa<StringAttr>(value))
      return wrongType("a string naming the contraction");
    return onlyOn(op->getName().getStringRef() == "linalg.generic",
                  "a linalg.generic");
  }
  if (name == SplitKBufferAttrHelper::getNameStr()) {
    auto role = dyn_cast<StringAttr>(value);
    if (!role ||
        (role.getValue() != "partials" && role.getValue() != "counters"))
      return wrongType("\"partials\" or \"counters\"");
    return onlyOn(op->getName().getStringRef() == "memref.alloc",
                  "a memref.alloc");
  }
  if (name == GroupsAttrHelper::getNameStr()) {
    auto ids = dyn_cast<DenseI64ArrayAttr>(value);
    if (!ids || ids.size() < 2 ||
        llvm::any_of(ids.asArrayRef(), [](int64_t id) { return id < 0; }))
      return wrongType("an array of two or more non-negative group ids");
    return onlyOn(isFunction, "a function");
  }
  if (name == NoaliasArgsAttrHelper::getNameStr()) {
    auto indices = dyn_cast<DenseI64ArrayAttr>(value);
    if (!indices || llvm::any_of(indices.asArrayRef(),
                                 [](int64_t index) { return index < 0; }))
      return wrongType("an array of non-negative i64 argument positions");
    return onlyOn(isFunction, "a function");
  }
  if (name == LlvmArgCountAttrHelper::getNameStr()) {
    if (!nonNegative(value))
      return wrongType("a non-negative i64");
    return onlyOn(isFunction, "a function");
  }
  if (name == EntryAttrHelper::getNameStr()) {
    auto entry = dyn_cast<DictionaryAttr>(value);
    auto signatureList = [&](StringRef key) {
      auto list = dyn_cast_or_null<ArrayAttr>(entry.get(key));
      return list && llvm::all_of(list, [](Attribute item) {
               auto dict = dyn_cast<DictionaryAttr>(item);
               if (!dict || !isa_and_nonnull<StringAttr>(dict.get("name")))
                 return false;
               auto type = dyn_cast_or_null<TypeAttr>(dict.get("type"));
               auto shaped =
                   type ? dyn_cast<ShapedType>(type.getValue()) : ShapedType();
               return shaped && shaped.hasStaticShape();
             });
    };
    if (!entry || !signatureList("inputs") || !signatureList("outputs"))
      return wrongType("a dictionary of 'inputs' and 'outputs', each an array "
                       "of {name, type} with statically shaped types");
    return onlyOn(isFunction, "a function");
  }
  if (name == CategoryAttrHelper::getNameStr()) {
    if (!isa<OpCategoryAttr>(value))
      return wrongType("a #fuse.category");
    return success();
  }
  if (name == FlopsAttrHelper::getNameStr() ||
      name == BytesReadAttrHelper::getNameStr() ||
      name == BytesWrittenAttrHelper::getNameStr()) {
    if (!nonNegative(value))
      return wrongType("a non-negative i64");
    return success();
  }
  return op->emitOpError()
         << "unknown fuse attribute '" << name
         << "' (the fuse dialect declares fuse.target, "
            "fuse.id, fuse.kind, fuse.rule, fuse.no_plan, "
            "fuse.no_vectorize, fuse.parallel_tiles, "
            "fuse.parallel_body, fuse.memory, "
            "fuse.relayouts, fuse.constant_arguments, "
            "fuse.pack_argument, fuse.split_k_buffer, fuse.noalias_args, "
            "fuse.llvm_arg_count, fuse.entry, fuse.category, "
            "fuse.flops, fuse.bytes_read, "
            "fuse.bytes_written)";
}
