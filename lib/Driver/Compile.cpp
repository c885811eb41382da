//===- Compile.cpp - a model to a compiled-model library ------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// One process from a model to a library an application loads:
// import (ONNX) or parse (.mlir) -> fuse-fusion-pipeline -> fuse-to-cpu (or
// fuse-to-nvptx) with the compiled-model ABI -> LLVM IR -> optimized object
// -> shared library (include/fuse-c/Runtime.h loads it). No IR is printed
// or parsed between the stages; each stage's time goes to stderr (quiet:
// none). On any error: a message, status 1 and no output file.
//
//===----------------------------------------------------------------------===//

#include "fuse/Driver/Compile.h"
#include "fuse-c/ModelAbi.h"
#include "fuse/Codegen/GPU/Passes.h"
#include "fuse/Codegen/Tiling/Passes.h"
#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "fuse/Dialect/Fuse/Utils/ToolFiles.h"
#include "fuse/Fusion/FusionRule.h"
#include "fuse/InitAllDialects.h"
#include "fuse/Pipelines/Pipelines.h"
#include "fuse/Target/ONNX/Import.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"

#include <chrono>
#include <optional>
#include <string>

#ifndef FUSE_DEFAULT_LINKER
/// Set by the build: the C compiler fuse is built with.
#define FUSE_DEFAULT_LINKER "cc"
#endif

using namespace mlir;
using mlir::fuse::CompileOptions;

namespace {

/// Progress lines: a stage and its wall time.
class Progress {
public:
  explicit Progress(bool quiet) : quiet(quiet) {}
  void start() { begin = std::chrono::steady_clock::now(); }
  void done(llvm::StringRef stage, llvm::StringRef detail = "") {
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begin)
            .count();
    total += seconds;
    if (!quiet) {
      llvm::errs() << "fuse-compile: " << llvm::left_justify(stage, 8) << " "
                   << llvm::format("%6.2f s", seconds);
      if (!detail.empty())
        llvm::errs() << "  " << detail;
      llvm::errs() << "\n";
    }
    start();
  }
  double total = 0;

private:
  bool quiet;
  std::chrono::steady_clock::time_point begin;
};

int fail(const llvm::Twine &message);

/// Files removed when the compile ends (or is interrupted).
class TempFiles {
public:
  ~TempFiles() {
    for (const std::string &path : paths) {
      llvm::sys::fs::remove(path);
      llvm::sys::DontRemoveFileOnSignal(path);
    }
  }
  void add(const std::string &path) {
    paths.push_back(path);
    llvm::sys::RemoveFileOnSignal(path);
  }
  /// A new empty temporary file `prefix-*.extension`, removed with the
  /// others; false (the error reported) when it cannot be made.
  bool create(llvm::StringRef prefix, llvm::StringRef extension,
              llvm::StringRef what, std::string &path) {
    llvm::SmallString<128> created;
    if (std::error_code ec =
            llvm::sys::fs::createTemporaryFile(prefix, extension, created)) {
      fail("cannot create a temporary file for the " + what + ": " +
           ec.message());
      return false;
    }
    path = created.str().str();
    add(path);
    return true;
  }

private:
  std::vector<std::string> paths;
};

int fail(const llvm::Twine &message) {
  llvm::errs() << "fuse-compile: error: " << message << "\n";
  return 1;
}

/// Writes `module` to `irDir`/`name` for --emit-ir.
bool writeStage(Operation *module, llvm::StringRef irDir,
                llvm::StringRef name) {
  if (irDir.empty())
    return true;
  llvm::SmallString<256> path(irDir);
  llvm::sys::path::append(path, name);
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    fail("cannot write '" + path + "': " + ec.message());
    return false;
  }
  OpPrintingFlags flags;
  flags.elideLargeElementsAttrs(16).elideLargeResourceString(64);
  module->print(os, flags);
  return true;
}

/// The file extension of a kernel object of `format`.
llvm::StringRef extensionOf(gpu::CompilationTarget format) {
  switch (format) {
  case gpu::CompilationTarget::Assembly:
    return "ptx";
  case gpu::CompilationTarget::Binary:
    return "cubin";
  case gpu::CompilationTarget::Fatbin:
    return "fatbin";
  case gpu::CompilationTarget::Offload:
    return "bc";
  }
  return "bin";
}

/// Writes each GPU kernel module of `module` (every object of every
/// gpu.binary) into `dir` as <binary>.<ptx|cubin|fatbin|bc> (with the
/// object's chip when a binary has several); the number written, or -1 on
/// an error (reported).
int64_t writeKernels(ModuleOp module, llvm::StringRef dir) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    fail("cannot create '" + dir + "': " + ec.message());
    return -1;
  }
  int64_t written = 0;
  for (auto binary : module.getOps<gpu::BinaryOp>()) {
    ArrayAttr objects = binary.getObjects();
    for (auto object : objects.getAsRange<gpu::ObjectAttr>()) {
      llvm::StringRef extension = extensionOf(object.getFormat());
      std::string name = binary.getSymName().str();
      if (objects.size() > 1)
        if (auto target = dyn_cast<NVVM::NVVMTargetAttr>(object.getTarget()))
          name += "-" + target.getChip().str();
      llvm::SmallString<256> path(dir);
      llvm::sys::path::append(path, name + "." + extension);
      std::string error;
      std::unique_ptr<llvm::ToolOutputFile> out =
          mlir::openOutputFile(path, &error);
      if (!out) {
        fail(error);
        return -1;
      }
      out->os() << object.getObject().getValue();
      out->os().flush();
      if (out->os().has_error()) {
        fail("cannot write '" + path + "'");
        out->os().clear_error();
        return -1;
      }
      out->keep();
      ++written;
    }
  }
  return written;
}

/// The fusion report at `path` (a JSON object), or nothing with the error
/// reported.
std::optional<llvm::json::Value> readReport(llvm::StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text =
      llvm::MemoryBuffer::getFile(path);
  if (!text) {
    fail("cannot read the report '" + path + "'");
    return std::nullopt;
  }
  llvm::Expected<llvm::json::Value> report =
      llvm::json::parse((*text)->getBuffer());
  if (!report) {
    fail("cannot parse the report '" + path +
         "': " + llvm::toString(report.takeError()));
    return std::nullopt;
  }
  if (!report->getAsObject()) {
    fail("the report '" + path + "' is not a JSON object");
    return std::nullopt;
  }
  return std::move(*report);
}

/// The id of the group of report function `fn` with op `op` ("name@place"):
/// the op itself, else the op at the same place (a convolution whose filter
/// was re-laid out is another op by then).
std::optional<int64_t> groupWithOp(const llvm::json::Object &fn,
                                   StringAttr op) {
  const llvm::json::Array *groups = fn.getArray("groups");
  if (!op || !groups)
    return std::nullopt;
  auto place = [](llvm::StringRef name) {
    size_t at = name.find('@');
    return at == llvm::StringRef::npos ? llvm::StringRef() : name.substr(at);
  };
  std::optional<int64_t> samePlace;
  for (const llvm::json::Value &group : *groups) {
    const llvm::json::Object *object = group.getAsObject();
    const llvm::json::Array *ops = object ? object->getArray("ops") : nullptr;
    if (!ops)
      continue;
    for (const llvm::json::Value &value : *ops) {
      std::optional<llvm::StringRef> name = value.getAsString();
      if (!name)
        continue;
      if (*name == op.getValue())
        return object->getInteger("id");
      if (!samePlace && !place(*name).empty() &&
          place(*name) == place(op.getValue()))
        samePlace = object->getInteger("id");
    }
  }
  return samePlace;
}

/// Adds to the report at `path` the weights the lowering re-laid out (each
/// function's `relayouts`: op, group, layouts, bytes) and what the
/// compiled library asks for as its workspace: each function's `fuse.memory`
/// arena after lowering (the buffers between kernels and, on the CPU, the
/// groups' scratch buffers), as `footprint.workspace`, with `model` and `total`
/// counting it instead of the arena, and the same in the totals.
bool addWorkspaceToReport(ModuleOp module, llvm::StringRef path) {
  std::optional<llvm::json::Value> report = readReport(path);
  if (!report)
    return false;
  // The plan fuse-plan-buffers left on a lowered function (fuse.memory).
  auto planOf = [&](llvm::StringRef name) -> DictionaryAttr {
    Operation *fn = SymbolTable::lookupSymbolIn(module, name);
    if (!fn)
      return {};
    return mlir::fuse::FuseDialect::MemoryAttrHelper(module.getContext())
        .getAttr(fn);
  };
  // A dictionary of integers and strings as a JSON object.
  auto toJson = [](DictionaryAttr fields) {
    llvm::json::Object entry;
    for (NamedAttribute field : fields) {
      if (auto text = dyn_cast<StringAttr>(field.getValue()))
        entry[field.getName().str()] = text.str();
      else if (auto number = dyn_cast<IntegerAttr>(field.getValue()))
        entry[field.getName().str()] = number.getInt();
    }
    return entry;
  };
  auto update = [](llvm::json::Object *footprint, int64_t workspace) {
    if (!footprint)
      return;
    int64_t weights = footprint->getInteger("weights").value_or(0);
    int64_t inputs = footprint->getInteger("inputs").value_or(0);
    int64_t outputs = footprint->getInteger("outputs").value_or(0);
    (*footprint)["workspace"] = workspace;
    (*footprint)["model"] = weights + workspace;
    (*footprint)["total"] = weights + workspace + inputs + outputs;
  };
  llvm::json::Object *root = report->getAsObject();
  int64_t total = 0;
  bool any = false;
  if (llvm::json::Array *functions =
          root ? root->getArray("functions") : nullptr)
    for (llvm::json::Value &fn : *functions) {
      llvm::json::Object *object = fn.getAsObject();
      std::optional<llvm::StringRef> name =
          object ? object->getString("name") : std::nullopt;
      llvm::json::Object *memory =
          object ? object->getObject("memory") : nullptr;
      // The weights the CPU build re-laid out for its micro-kernels: the
      // function's own and those of the functions it calls (its groups',
      // whose records name their group by its ops in the report).
      if (Operation *op =
              name ? SymbolTable::lookupSymbolIn(module, *name) : nullptr) {
        llvm::json::Array list;
        auto relayoutsOf =
            mlir::fuse::FuseDialect::RelayoutsAttrHelper(module.getContext());
        auto add = [&](Operation *fn, bool fromGroup) {
          ArrayAttr relayouts = relayoutsOf.getAttr(fn);
          if (!relayouts)
            return;
          auto shared =
              mlir::fuse::FuseDialect::GroupsAttrHelper(module.getContext())
                  .getAttr(fn);
          for (auto record : relayouts.getAsRange<DictionaryAttr>()) {
            llvm::json::Object entry = toJson(record);
            if (fromGroup) {
              entry["function"] = SymbolTable::getSymbolName(fn).str();
              if (std::optional<int64_t> id =
                      groupWithOp(*object, record.getAs<StringAttr>("op")))
                entry["group"] = *id;
              if (shared)
                entry["groups"] = llvm::json::Array(shared.asArrayRef());
            }
            list.push_back(std::move(entry));
          }
        };
        add(op, false);
        llvm::SmallPtrSet<Operation *, 16> seen;
        op->walk([&](Operation *inner) {
          auto callee = inner->getAttrOfType<FlatSymbolRefAttr>("callee");
          Operation *fn =
              callee ? SymbolTable::lookupSymbolIn(module, callee.getAttr())
                     : nullptr;
          if (fn && fn != op && seen.insert(fn).second)
            add(fn, true);
        });
        if (!list.empty())
          (*object)["relayouts"] = std::move(list);
      }
      DictionaryAttr plan = name ? planOf(*name) : DictionaryAttr();
      auto arena = plan ? plan.getAs<IntegerAttr>("arena") : IntegerAttr();
      if (!memory || !arena)
        continue;
      // The workspace as planned at codegen: its arena, the bytes its
      // buffers take one by one, those written in place, the strategy.
      (*memory)["workspace_plan"] = toJson(plan);
      update(memory->getObject("footprint"), arena.getInt());
      total += arena.getInt();
      any = true;
    }
  if (any && root)
    if (llvm::json::Object *memory = root->getObject("memory"))
      update(memory->getObject("footprint"), total);
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    fail("cannot write '" + path + "': " + ec.message());
    return false;
  }
  os << llvm::formatv("{0:2}", *report) << "\n";
  return true;
}

/// Writes the JSON report at `json` as text to `path` ("-": stdout).
bool writeReportText(llvm::StringRef json, llvm::StringRef path) {
  std::optional<llvm::json::Value> report = readReport(json);
  if (!report)
    return false;
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> out =
      mlir::openOutputFile(path, &error);
  if (!out) {
    fail(error);
    return false;
  }
  mlir::fuse::printReportText(*report->getAsObject(), out->os());
  out->os().flush();
  if (out->os().has_error()) {
    out->os().clear_error();
    fail("cannot write '" + path + "'");
    return false;
  }
  out->keep();
  return true;
}

/// Runs `pm` (one stage's passes) on `module`; `stage` names it.
LogicalResult runStage(ModuleOp module, PassManager &pm,
                       const mlir::fuse::CompileOptions &options,
                       llvm::StringRef stage) {
  // Each stage's result is verified once (the input was, when it was
  // read): per pass, verification is a third of a large model's fusion.
  pm.enableVerifier(options.verifyEach);
  // --pass-timing: the stage's table, printed when this function returns
  // (the manager's destructor prints it; the timers belong to this
  // function, not to the pass manager, which lives on).
  DefaultTimingManager timing;
  std::optional<TimingScope> root;
  if (options.passTiming) {
    timing.setEnabled(true);
    timing.setDisplayMode(DefaultTimingManager::DisplayMode::Tree);
    root.emplace(timing.getRootScope());
    pm.enableTiming(*root);
  }
  if (failed(pm.run(module)))
    return failure();
  if (!options.verifyEach && failed(verify(module))) {
    fail("internal error: the IR after " + stage + " does not verify");
    return failure();
  }
  return success();
}

/// The host's (or the named CPU's) target machine for position-independent
/// code.
std::unique_ptr<llvm::TargetMachine>
makeTargetMachine(const mlir::fuse::CompileOptions &options,
                  std::string *error) {
  const std::string &cpu = options.cpu;
  unsigned optLevel = options.optLevel;
  std::string triple = llvm::sys::getProcessTriple();
  const llvm::Target *llvmTarget =
      llvm::TargetRegistry::lookupTarget(llvm::Triple(triple), *error);
  if (!llvmTarget)
    return nullptr;
  std::string cpuName = cpu;
  std::string features;
  if (cpu == "host") {
    cpuName = llvm::sys::getHostCPUName().str();
    llvm::SmallVector<std::string> list;
    for (const auto &feature : llvm::sys::getHostCPUFeatures())
      list.push_back((feature.second ? "+" : "-") + feature.first().str());
    llvm::sort(list);
    features = llvm::join(list, ",");
  } else if (cpu == "generic") {
    cpuName = "generic";
  }
  llvm::TargetOptions targetOptions;
  auto level = optLevel == 0   ? llvm::CodeGenOptLevel::None
               : optLevel == 1 ? llvm::CodeGenOptLevel::Less
               : optLevel == 2 ? llvm::CodeGenOptLevel::Default
                               : llvm::CodeGenOptLevel::Aggressive;
  std::unique_ptr<llvm::TargetMachine> machine(llvmTarget->createTargetMachine(
      llvm::Triple(triple), cpuName, features, targetOptions, llvm::Reloc::PIC_,
      std::nullopt, level));
  if (!machine)
    *error =
        "LLVM has no target machine for " + triple + " (cpu " + cpuName + ")";
  return machine;
}

/// LLVM's default pipeline at -O`level`.
void optimize(llvm::Module &module, llvm::TargetMachine *machine,
              const mlir::fuse::CompileOptions &options) {
  unsigned optLevel = options.optLevel;
  if (optLevel == 0)
    return;
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  // LLVM's unroller fully unrolls the kernels' short constant-trip loops
  // into blocks whose scheduling is quadratic: ResNet-50 compiled in 15.3 s
  // with it and 3.0 s without, and ran in 3.33 s against 3.26 s (one
  // thread, this machine). Off unless asked for.
  llvm::PipelineTuningOptions tuning;
  tuning.LoopUnrolling = options.llvmUnroll;
  llvm::PassBuilder builder(machine, tuning);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::OptimizationLevel level = optLevel == 1   ? llvm::OptimizationLevel::O1
                                  : optLevel == 2 ? llvm::OptimizationLevel::O2
                                                  : llvm::OptimizationLevel::O3;
  builder.buildPerModuleDefaultPipeline(level).run(module, mam);
}

/// Replaces the constructor (or destructor) list `list` with an exported
/// function `name` that calls its functions in priority order; with no list,
/// nothing. (The GPU translation loads each kernel module in a constructor.)
void moveConstructors(llvm::Module &module, llvm::StringRef list,
                      llvm::StringRef name) {
  llvm::GlobalVariable *global = module.getGlobalVariable(list);
  if (!global)
    return;
  // (priority, position in the list, function): sorted, equal priorities
  // keep their order.
  llvm::SmallVector<std::tuple<uint64_t, size_t, llvm::Function *>> functions;
  if (auto *array =
          llvm::dyn_cast_or_null<llvm::ConstantArray>(global->getInitializer()))
    for (llvm::Value *entry : array->operands()) {
      auto *fields = llvm::dyn_cast<llvm::ConstantStruct>(entry);
      if (!fields || fields->getNumOperands() < 2)
        continue;
      auto *priority = llvm::dyn_cast<llvm::ConstantInt>(fields->getOperand(0));
      auto *function = llvm::dyn_cast<llvm::Function>(fields->getOperand(1));
      if (priority && function)
        functions.push_back(
            {priority->getZExtValue(), functions.size(), function});
    }
  global->eraseFromParent();
  llvm::sort(functions);
  if (list == "llvm.global_dtors")
    std::reverse(functions.begin(), functions.end());
  llvm::LLVMContext &context = module.getContext();
  auto *type = llvm::FunctionType::get(llvm::Type::getVoidTy(context), false);
  llvm::Function *caller = llvm::Function::Create(
      type, llvm::GlobalValue::ExternalLinkage, name, module);
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "", caller));
  for (auto &[priority, position, function] : functions)
    builder.CreateCall(function);
  builder.CreateRetVoid();
}

/// The driver that links objects into a shared library; `chosen` tells
/// whether --linker or FUSE_LINKER named it.
std::string linkerProgram(const mlir::fuse::CompileOptions &options,
                          bool &chosen) {
  chosen = true;
  if (!options.linker.empty())
    return options.linker;
  if (const char *env = std::getenv("FUSE_LINKER"); env && *env)
    return env;
  chosen = false;
  return FUSE_DEFAULT_LINKER;
}

#include "RecordedLink.inc"

/// The arguments of one command line as a clang-style driver prints it for
/// `-###`: each quoted, with `\` escaping the next character. Empty when
/// the line is not of that form.
std::vector<std::string> quotedArguments(llvm::StringRef line) {
  std::vector<std::string> args;
  size_t i = 0;
  while (true) {
    while (i < line.size() && line[i] == ' ')
      ++i;
    if (i == line.size())
      return args;
    if (line[i] != '"')
      return {};
    std::string arg;
    for (++i; i < line.size() && line[i] != '"'; ++i) {
      if (line[i] == '\\' && i + 1 < line.size())
        ++i;
      arg += line[i];
    }
    if (i == line.size())
      return {}; // no closing quote
    ++i;
    args.push_back(std::move(arg));
  }
}

/// The linker command the default driver runs for `object` -> `output`, as
/// recorded when fuse was configured: empty when there is none, or when the
/// linker or a file the command names (the start files) no longer exists,
/// so that the driver itself runs instead.
std::vector<std::string> recordedLinkCommand(llvm::StringRef object,
                                             llvm::StringRef output) {
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(kRecordedLink).split(lines, '\n');
  // One command: the linker's (a driver that ran anything else, such as a
  // compile step, is not linking the object alone).
  std::vector<std::string> args;
  unsigned commands = 0;
  for (llvm::StringRef line : lines)
    if (line.ltrim().starts_with("\"")) {
      ++commands;
      args = quotedArguments(line.trim());
    }
  if (commands != 1 || args.empty())
    return {};
  bool sawOutput = false, sawObject = false;
  for (std::string &arg : args) {
    if (arg == "fuse-link-output.so") {
      arg = output.str();
      sawOutput = true;
    } else if (arg == "fuse-link-object.o") {
      arg = object.str();
      sawObject = true;
    } else if (llvm::sys::path::is_absolute(arg) &&
               !llvm::sys::fs::exists(arg)) {
      return {};
    }
  }
  if (!sawOutput || !sawObject || !llvm::sys::fs::can_execute(args.front()))
    return {};
  return args;
}

} // namespace

static llvm::Error optionError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The import options `options` give, checked: the batch and threshold
/// ranges, the NAME=N and NAME=FILE forms. The error names the option.
static llvm::Error getOnnxImportOptions(const CompileOptions &options,
                                        mlir::fuse::OnnxImportOptions &import) {
  if (options.onnxBatch <= 0)
    return optionError("--onnx-batch=" + llvm::Twine(options.onnxBatch) +
                       ": the batch size must be positive");
  if (options.onnxResourceThreshold < 0)
    return optionError("--onnx-resource-threshold=" +
                       llvm::Twine(options.onnxResourceThreshold) +
                       ": a number of bytes (0 or more)");
  import.batchSize = options.onnxBatch;
  import.resourceThreshold = options.onnxResourceThreshold;
  for (const std::string &dim : options.onnxDims) {
    auto [name, value] = llvm::StringRef(dim).split('=');
    int64_t size;
    if (name.empty() || value.getAsInteger(10, size) || size <= 0)
      return optionError("--onnx-dim=" + dim + ": expected NAME=N with N > 0");
    import.dims[name.str()] = size;
  }
  for (const std::string &spec : options.onnxBind) {
    auto [name, file] = llvm::StringRef(spec).split('=');
    if (name.empty() || file.empty())
      return optionError("--onnx-bind=" + spec + ": expected NAME=FILE");
    import.boundInputs[name.str()] = file.str();
  }
  return llvm::Error::success();
}

bool CompileOptions::isOnnx() const {
  return llvm::sys::path::extension(input) == ".onnx";
}

llvm::Error mlir::fuse::checkCompileOptions(const CompileOptions &options) {
  llvm::StringRef extension = llvm::sys::path::extension(options.output);
  if (!llvm::is_contained({".so", ".o", ".ll", ".mlir"}, extension))
    return optionError("the output '" + options.output +
                       "' must end in .so (a library), .o, .ll or .mlir");
  llvm::StringRef inputKind = llvm::sys::path::extension(options.input);
  if (!llvm::is_contained({".onnx", ".mlir", ".mlirbc"}, inputKind))
    return optionError(
        "the input '" + options.input +
        "' must be an ONNX model (.onnx) or MLIR (.mlir, .mlirbc)");
  // A GPU library: its kernels for the target (its fusion decided for it
  // too), its host code for this CPU.
  if (options.isGpu()) {
    if (options.fusionTarget && *options.fusionTarget != options.target)
      return optionError("--fusion-target=" + *options.fusionTarget +
                         " with --target=" + options.target +
                         ": a GPU library is fused for its own target");
    if (options.cpuTarget)
      return optionError("--cpu-target=" + *options.cpuTarget +
                         " with --target=" + options.target +
                         ": a GPU library has no CPU schedule");
    if (options.profile)
      return optionError(
          "--profile: a GPU library's kernels are timed by "
          "FUSE_KERNEL_PROFILE in the CUDA runtime, not by a hook");
  }
  // The GPU schedules on the host: options for them alone.
  if (options.gpuSchedules && options.isGpu())
    return optionError("--gpu-schedules with --target=" + options.target +
                       ": a GPU library runs its schedules on the GPU "
                       "(--gpu-schedules is for --target=cpu)");
  if (!options.reportText.empty() && options.report == "-")
    return optionError("--report-text with --report=-: the JSON report on "
                       "stdout would interleave with the text; give it a "
                       "file");
  if (!options.kernelsDir.empty() && !options.isGpu())
    return optionError("--kernels=" + options.kernelsDir +
                       " with --target=cpu: a CPU library has no GPU "
                       "kernels");
  if (options.blockSize != 0 && !options.isGpu())
    return optionError("--block-size=" + llvm::Twine(options.blockSize) +
                       " with --target=cpu: threads per block are a GPU "
                       "kernel's (--gpu-schedules runs each group's own)");
  if (options.gpuSchedules && options.cpuTarget)
    return optionError("--cpu-target=" + *options.cpuTarget +
                       " with --gpu-schedules: the groups run their GPU "
                       "tiles, not CPU schedules");
  if (!options.gpuSchedules) {
    const char *given = !options.scheduleOptions.empty() ? "--schedule-options"
                        : options.emulateThreads != 0    ? "--emulate-threads"
                        : options.relayoutWeights        ? "--relayout-weights"
                                                         : nullptr;
    if (given)
      return optionError(llvm::Twine(given) +
                         " needs --gpu-schedules (it configures the GPU "
                         "kernels' tiles run on the host)");
  }
  if (options.emulateThreads < -1 || options.emulateThreads > 1024)
    return optionError(
        "--emulate-threads=" + llvm::Twine(options.emulateThreads) +
        ": expected 1 to 1024 threads, 0 (none) or -1 (each "
        "group's block size)");
  if (!llvm::is_contained({"auto", "bin", "isa"}, options.gpuFormat))
    return optionError("--gpu-format=" + options.gpuFormat +
                       ": expected bin (cubin), isa (PTX) or auto");
  if (options.optLevel > 3)
    return optionError("-O" + llvm::Twine(options.optLevel) +
                       ": the optimization level must be 0 to 3");
  mlir::fuse::OnnxImportOptions import;
  if (llvm::Error error = getOnnxImportOptions(options, import))
    return error;
  // The --onnx-* options shape an ONNX import; given for MLIR input they
  // would do nothing.
  if (!options.isOnnx()) {
    const CompileOptions defaults;
    const char *given =
        !options.onnxDims.empty()                 ? "--onnx-dim"
        : !options.onnxBind.empty()               ? "--onnx-bind"
        : options.onnxBatch != defaults.onnxBatch ? "--onnx-batch"
        : options.onnxResourceThreshold != defaults.onnxResourceThreshold
            ? "--onnx-resource-threshold"
            : nullptr;
    if (given)
      return optionError(llvm::Twine(given) + ": the input '" + options.input +
                         "' is not an ONNX model");
  }
  return llvm::Error::success();
}

OwningOpRef<ModuleOp>
mlir::fuse::readCompileInput(const CompileOptions &options,
                             MLIRContext *context, llvm::SourceMgr &sourceMgr,
                             std::string *error) {
  std::unique_ptr<llvm::MemoryBuffer> bytes =
      readToolInput(options.input, error);
  if (!bytes)
    return nullptr;
  OwningOpRef<ModuleOp> module;
  if (options.isOnnx()) {
    OnnxImportOptions import;
    if (llvm::Error bad = getOnnxImportOptions(options, import)) {
      *error = llvm::toString(std::move(bad));
      return nullptr;
    }
    import.modelDir = llvm::sys::path::parent_path(options.input).str();
    if (import.modelDir.empty())
      import.modelDir = ".";
    import.modelName = options.input;
    module = importOnnxModel(std::move(bytes), context, import);
  } else {
    sourceMgr.AddNewSourceBuffer(std::move(bytes), llvm::SMLoc());
    module = parseSourceFile<ModuleOp>(sourceMgr, context);
  }
  if (!module)
    *error = "cannot read the model '" + options.input + "'";
  return module;
}

std::string mlir::fuse::resolveGpuFormat(const CompileOptions &options) {
  if (options.gpuFormat != "auto")
    return options.gpuFormat;
  return llvm::sys::findProgramByName("ptxas", {"/usr/local/cuda/bin"}) ? "bin"
                                                                        : "isa";
}

llvm::Error mlir::fuse::buildCompilePipelines(const CompileOptions &options,
                                              OpPassManager &fusionPm,
                                              OpPassManager &loweringPm,
                                              StringRef gpuFormat) {
  bool gpu = options.isGpu();
  // 2. Fusion: the typed options first; --fusion-options may override any
  // of them, as the pipeline's own option text.
  FusionPipelineOptions fusion;
  fusion.target =
      gpu ? options.target
          : options.fusionTarget.value_or(CompileOptions::kDefaultFusionTarget);
  // CPU schedules for the groups, unless they run their GPU tiles.
  if (!gpu && !options.gpuSchedules)
    fusion.cpuTarget =
        options.cpuTarget.value_or(CompileOptions::kDefaultCpuTarget);
  // fuse's importer makes valid TOSA; the check is for TOSA from elsewhere.
  if (options.isOnnx())
    fusion.validateTosa = false;
  fusion.report = options.report;
  fusion.graph = options.graph;
  if (options.unfused) {
    llvm::SmallVector<std::string> names;
    for (const FusionRule *rule : getFusionRules())
      names.push_back(rule->name.str());
    fusion.prune = false;
    fusion.nhwcLayout = false;
    fusion.disableRules = names;
  }
  if (!options.fusionOptions.empty()) {
    std::string message;
    llvm::raw_string_ostream os(message);
    // (LLVM's parser prints a malformed value's message itself.)
    if (failed(fusion.parseFromString(options.fusionOptions, os))) {
      llvm::StringRef why = llvm::StringRef(message).trim();
      return optionError(
          "--fusion-options='" + options.fusionOptions +
          "': " + (why.empty() ? "a value is malformed" : why) +
          " (fuse-fusion-pipeline's options: see fuse-opt --help)");
    }
  }
  buildFusionPipeline(fusionPm, fusion);

  // 3. Codegen with the compiled-model ABI: the CPU build, or the GPU
  // kernels (cubin or PTX for the driver's JIT) with their host code.
  if (gpu) {
    NvptxPipelineOptions lowering;
    lowering.entryAbi = true;
    lowering.planBuffers = options.planBuffers;
    lowering.entry = options.entry;
    lowering.shareKernels = options.shareKernels;
    lowering.blockSize = options.blockSize;
    lowering.format = gpuFormat.str();
    std::string message;
    if (failed(checkNvptxPipelineOptions(lowering, [&](const llvm::Twine &why) {
          message = why.str();
          return failure();
        })))
      return optionError(message);
    buildNvptxPipeline(loweringPm, lowering);
  } else {
    // The GPU kernels' tiles, run on the host (--gpu-schedules).
    if (options.gpuSchedules) {
      if (options.relayoutWeights) {
        FuseRelayoutWeightsOptions relayout;
        relayout.tensorCores = "never";
        loweringPm.addNestedPass<func::FuncOp>(
            createFuseRelayoutWeights(relayout));
      }
      std::unique_ptr<Pass> lower = createFuseLowerGroups();
      if (!options.scheduleOptions.empty()) {
        // Options given: every group's tiles are chosen anew with them
        // (unless the options say reconfigure=false themselves).
        std::string text = options.scheduleOptions;
        if (!llvm::StringRef(text).contains("reconfigure"))
          text += " reconfigure=true";
        std::string message;
        if (failed(lower->initializeOptions(text, [&](const llvm::Twine &why) {
              message = why.str();
              return failure();
            })))
          return optionError(
              "--schedule-options='" + options.scheduleOptions + "': " +
              (message.empty() ? llvm::StringRef("a value is malformed")
                               : llvm::StringRef(message).trim()) +
              " (fuse-lower-groups' options: see fuse-opt --help)");
      }
      loweringPm.addNestedPass<func::FuncOp>(std::move(lower));
    }
    CpuPipelineOptions lowering;
    lowering.emulateThreads = options.emulateThreads;
    lowering.entryAbi = true;
    lowering.planBuffers = options.planBuffers;
    lowering.entry = options.entry;
    lowering.profile = options.profile;
    lowering.vectorize = options.cpuVectorize;
    lowering.packWeights = options.packWeights;
    lowering.parallel = options.cpuParallel;
    lowering.shareKernels = options.shareKernels;
    buildCpuPipeline(loweringPm, lowering);
  }
  return llvm::Error::success();
}

int mlir::fuse::runCompile(const CompileOptions &options) {
  if (llvm::Error error = checkCompileOptions(options))
    return fail(llvm::toString(std::move(error)));
  llvm::StringRef extension = llvm::sys::path::extension(options.output);
  bool gpu = options.isGpu();
  if (!options.emitIr.empty())
    if (std::error_code ec = llvm::sys::fs::create_directories(options.emitIr))
      return fail("cannot create '" + options.emitIr + "': " + ec.message());

  DialectRegistry registry;
  mlir::registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registerAllGPUToLLVMIRTranslations(registry);
  mlir::fuse::registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // A pass's error names the op it is about, not the whole module (a
  // model's IR can be hundreds of megabytes).
  context.printOpOnDiagnostic(false);
  // Diagnostics name the input's lines (an .mlir input) or the ONNX
  // node (an ONNX input's locations).
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);

  // --report-text renders the JSON report; without a JSON file of the
  // user's, the JSON goes to a temporary file.
  CompileOptions effective = options;
  TempFiles sideFiles;
  if (!options.reportText.empty() && options.report.empty() &&
      !sideFiles.create("fuse-report", "json", "report", effective.report))
    return 1;

  // --graph=FILE.svg: the DOT goes to a temporary file, graphviz's dot
  // draws it after the fusion.
  std::string dotProgram;
  if (llvm::sys::path::extension(options.graph) == ".svg") {
    llvm::ErrorOr<std::string> dot = llvm::sys::findProgramByName("dot");
    if (!dot)
      return fail("--graph=" + options.graph +
                  ": an SVG needs graphviz's dot, which is not on PATH "
                  "(write the graph as .dot)");
    dotProgram = *dot;
    if (!sideFiles.create("fuse-graph", "dot", "graph", effective.graph))
      return 1;
  }

  // The pipelines, before anything is read: a bad option fails at once.
  std::string format = gpu ? resolveGpuFormat(options) : "";
  PassManager fusionPm(&context), loweringPm(&context);
  if (llvm::Error error =
          buildCompilePipelines(effective, fusionPm, loweringPm, format))
    return fail(llvm::toString(std::move(error)));

  Progress progress(options.quiet);
  progress.start();

  // 1. The model.
  std::string error;
  OwningOpRef<ModuleOp> module =
      readCompileInput(options, &context, sourceMgr, &error);
  if (!module)
    return fail(error);
  progress.done(options.isOnnx() ? "import" : "parse");
  if (!writeStage(*module, options.emitIr, "1-import.mlir"))
    return 1;

  // 2. Fusion.
  if (failed(runStage(*module, fusionPm, options, "fusion")))
    return fail("fusion failed");
  int64_t groups = 0;
  module->walk([&](Operation *op) {
    if (op->getName().getStringRef() == "fuse.group")
      ++groups;
  });
  progress.done("fusion", std::to_string(groups) + " kernels");
  if (!dotProgram.empty()) {
    std::string why;
    llvm::StringRef args[] = {dotProgram, "-Tsvg", effective.graph, "-o",
                              options.graph};
    if (llvm::sys::ExecuteAndWait(dotProgram, args, std::nullopt, {}, 0, 0,
                                  &why) != 0)
      return fail("drawing the graph '" + options.graph + "' with dot failed" +
                  (why.empty() ? "" : ": " + why));
    progress.done("graph", options.graph);
  }
  if (!writeStage(*module, options.emitIr, "2-fused.mlir"))
    return 1;

  // 3. Codegen.
  if (failed(runStage(*module, loweringPm, options, "codegen")))
    return fail("lowering failed");
  progress.done("codegen", gpu ? (format == "bin" ? "cubin" : "PTX") : "");
  if (!writeStage(*module, options.emitIr, "3-lowered.mlir"))
    return 1;
  if (!options.kernelsDir.empty()) {
    int64_t written = writeKernels(*module, options.kernelsDir);
    if (written < 0)
      return 1;
    progress.done("kernels", std::to_string(written) + " file(s) in " +
                                 options.kernelsDir);
  }
  if (!effective.report.empty() && effective.report != "-" &&
      !addWorkspaceToReport(*module, effective.report))
    return 1;
  if (!options.reportText.empty() &&
      !writeReportText(effective.report, options.reportText))
    return 1;
  if (extension == ".mlir") {
    std::unique_ptr<llvm::ToolOutputFile> out =
        openOutputFile(options.output, &error);
    if (!out)
      return fail(error);
    module->print(out->os());
    if (keepToolOutput(*out))
      return fail("cannot write '" + options.output + "'");
    progress.done("write");
    return 0;
  }
  // 4. LLVM IR, optimized for the CPU.
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  std::unique_ptr<llvm::TargetMachine> machine =
      makeTargetMachine(options, &error);
  if (!machine)
    return fail(error);
  llvm::LLVMContext llvmContext;
  // The weights' blobs belong to the context, not the module: collected
  // here, emptied once LLVM has its own copy.
  llvm::SetVector<mlir::DialectResourceBlobManager::BlobEntry *> blobs;
  module->walk([&](Operation *op) {
    for (NamedAttribute attr : op->getAttrs())
      if (auto resource =
              dyn_cast<mlir::DenseResourceElementsAttr>(attr.getValue()))
        if (auto *entry = resource.getRawHandle().getResource())
          blobs.insert(entry);
  });
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*module, llvmContext, "fuse-model");
  if (!llvmModule)
    return fail("translation to LLVM IR failed");
  module = nullptr;
  // The MLIR module's memory is free; its weights too (BERT-base's 440 MB,
  // which stayed alive beside LLVM's copy and the object's: the compile's
  // peak RSS went from 1.56 GiB to 1.42 GiB).
  for (mlir::DialectResourceBlobManager::BlobEntry *entry : blobs)
    entry->setBlob(mlir::AsmResourceBlob());
  llvmModule->setTargetTriple(machine->getTargetTriple());
  llvmModule->setDataLayout(machine->createDataLayout());
  // A GPU library loads its kernels in fuse_model_init (called by the
  // runtime after its device checks), not in constructors at dlopen.
  moveConstructors(*llvmModule, "llvm.global_ctors", FUSE_MODEL_INIT_SYMBOL);
  moveConstructors(*llvmModule, "llvm.global_dtors", FUSE_MODEL_FINI_SYMBOL);
  if (llvm::verifyModule(*llvmModule, &llvm::errs()))
    return fail("internal error: the LLVM module does not verify");
  optimize(*llvmModule, machine.get(), options);
  progress.done("llvm", "-O" + std::to_string(options.optLevel) + ", cpu " +
                            machine->getTargetCPU().str());
  if (!options.emitIr.empty()) {
    llvm::SmallString<256> path(options.emitIr);
    llvm::sys::path::append(path, "4-model.ll");
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec)
      return fail("cannot write '" + path + "': " + ec.message());
    llvmModule->print(os, nullptr);
  }
  if (extension == ".ll") {
    std::unique_ptr<llvm::ToolOutputFile> out =
        openOutputFile(options.output, &error);
    if (!out)
      return fail(error);
    llvmModule->print(out->os(), nullptr);
    if (keepToolOutput(*out))
      return fail("cannot write '" + options.output + "'");
    return 0;
  }

  // 5. The object (beside the output, or the output itself).
  TempFiles temps;
  llvm::SmallString<256> objectPath;
  if (extension == ".o") {
    objectPath = options.output;
  } else {
    int fd;
    if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
            "fuse-compile", "o", fd, objectPath))
      return fail("cannot create a temporary object file: " + ec.message());
    llvm::sys::Process::SafelyCloseFileDescriptor(fd);
    temps.add(objectPath.str().str());
  }
  {
    std::unique_ptr<llvm::ToolOutputFile> out =
        openOutputFile(objectPath, &error);
    if (!out)
      return fail(error);
    llvm::legacy::PassManager codegen;
    if (machine->addPassesToEmitFile(codegen, out->os(), nullptr,
                                     llvm::CodeGenFileType::ObjectFile))
      return fail("LLVM cannot emit an object file for this target");
    codegen.run(*llvmModule);
    if (keepToolOutput(*out))
      return fail("cannot write '" + objectPath + "'");
  }
  llvmModule.reset();
  progress.done("object");
  if (extension == ".o")
    return 0;

  // 6. The library: linked into a temporary file beside the output, then
  // renamed over it, so that a failure leaves no partial library.
  llvm::SmallString<256> partial(options.output);
  partial += ".partial-%%%%%%";
  int fd;
  llvm::SmallString<256> partialPath;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueFile(partial, fd, partialPath))
    return fail("cannot write beside '" + options.output +
                "': " + ec.message());
  llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  temps.add(partialPath.str().str());
  // The default driver's link, run without the driver where it was
  // recorded; any other driver (--linker, FUSE_LINKER) runs itself.
  bool chosen;
  std::string driver = linkerProgram(options, chosen);
  std::vector<std::string> recorded;
  if (!chosen)
    recorded = recordedLinkCommand(objectPath, partialPath);
  std::string programPath;
  llvm::SmallVector<llvm::StringRef> args;
  if (!recorded.empty()) {
    programPath = recorded.front();
    args.assign(recorded.begin(), recorded.end());
  } else {
    llvm::ErrorOr<std::string> program = llvm::sys::findProgramByName(driver);
    if (!program)
      return fail("cannot find the linker driver '" + driver +
                  "' (--linker or FUSE_LINKER names another)");
    programPath = *program;
    args = {programPath, "-shared", "-o", partialPath, objectPath, "-lm"};
    if (llvm::sys::findProgramByName("ld.lld"))
      args.insert(args.begin() + 1, "-fuse-ld=lld");
  }
  std::string linkError;
  llvm::SmallString<256> logPath;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("fuse-compile", "log", logPath))
    return fail("cannot create a temporary file: " + ec.message());
  temps.add(logPath.str().str());
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, logPath.str(),
                                                logPath.str()};
  int status = llvm::sys::ExecuteAndWait(programPath, args, std::nullopt,
                                         redirects, 0, 0, &linkError);
  if (status != 0) {
    std::string log;
    if (auto text = llvm::MemoryBuffer::getFile(logPath))
      log = (*text)->getBuffer().trim().str();
    return fail("linking '" + options.output + "' failed" +
                (linkError.empty() ? "" : ": " + linkError) +
                (log.empty() ? "" : "\n" + log));
  }
  if (std::error_code ec = llvm::sys::fs::rename(partialPath, options.output))
    return fail("cannot write '" + options.output + "': " + ec.message());
  progress.done("link", options.output + " (" +
                            llvm::sys::path::filename(programPath).str() + ")");
  if (!options.quiet)
    llvm::errs() << "fuse-compile: total    "
                 << llvm::format("%6.2f s", progress.total) << "\n";
  return 0;
}
