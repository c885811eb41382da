//===- fuse-compile.cpp - a model to a compiled-model library -------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// One process from a model to a library an application loads:
//   fuse-compile model.onnx --target=cpu -o model.so
// import (ONNX) or parse (.mlir) -> fuse-fusion-pipeline -> fuse-to-cpu with
// the compiled-model ABI -> LLVM IR -> optimized object -> shared library
// (include/fuse-c/Runtime.h loads it). No IR is printed or parsed between
// the stages; each stage's time goes to stderr (-q: quiet). On any error:
// a message, exit status 1 and no output file.
//
//===----------------------------------------------------------------------===//

#include "fuse-c/ModelAbi.h"
#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "fuse/Dialect/Fuse/Utils/ToolFiles.h"
#include "fuse/Fusion/FusionRule.h"
#include "fuse/InitAllDialects.h"
#include "fuse/InitAllPasses.h"
#include "fuse/Target/ONNX/Import.h"

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
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
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

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("fuse-compile options");

static cl::opt<std::string> inputPath(cl::Positional, cl::Required,
                                      cl::desc("<model.onnx | model.mlir>"),
                                      cl::cat(category));
static cl::opt<std::string>
    outputPath("o", cl::Required,
               cl::desc("The output: a library (.so), an object (.o), LLVM "
                        "IR (.ll) or the LLVM-dialect module (.mlir)"),
               cl::value_desc("file"), cl::cat(category));
static cl::opt<std::string>
    target("target", cl::init("cpu"),
           cl::desc("What the library runs on: cpu (the host), or a GPU "
                    "preset (h200, a100, ...) or #fuse.target"),
           cl::cat(category));
static cl::opt<std::string> fusionTarget(
    "fusion-target", cl::init("h200"),
    cl::desc("The GPU preset (or #fuse.target) whose cost model decides "
             "the fusion groups a CPU library runs"),
    cl::cat(category));
static cl::opt<std::string> fusionOptions(
    "fusion-options", cl::init(""),
    cl::desc("More fuse-fusion-pipeline options, as in its pipeline string "
             "(\"precision=tf32 split-row-epilogues=false\")"),
    cl::cat(category));
static cl::opt<bool> unfused("unfused", cl::init(false),
                             cl::desc("Every op its own kernel (every fusion "
                                      "rule off, nothing pruned)"),
                             cl::cat(category));
static cl::opt<bool> shareKernels(
    "share-kernels", cl::init(true),
    cl::desc("Groups that are the same kernel (a model's repeated layers) "
             "share one compiled function (fuse-to-cpu/fuse-to-nvptx "
             "share-kernels); off with --profile"),
    cl::cat(category));
static cl::opt<bool> verifyEach(
    "verify-each", cl::init(false),
    cl::desc("Verify the IR after every pass (slow on large models); "
             "false: once after each stage"),
    cl::cat(category));
static cl::opt<bool>
    timePasses("pass-timing", cl::init(false),
               cl::desc("Print each pass's wall time on stderr: a table per "
                        "pipeline (fusion, codegen)"),
               cl::cat(category));
static cl::opt<bool> planBuffers(
    "plan-buffers", cl::init(true),
    cl::desc("Place the buffers between kernels in one workspace "
             "(fuse-plan-buffers); false: each is allocated per call"),
    cl::cat(category));
static cl::opt<bool> cpuVectorize(
    "cpu-vectorize", cl::init(true),
    cl::desc("CPU target: contractions as register-blocked vector "
             "micro-kernels (fuse-to-cpu vectorize); false: loops"),
    cl::cat(category));
static cl::opt<std::string> cpuTarget(
    "cpu-target", cl::init("host"),
    cl::desc("CPU target: the CPU the register tiles and cache blocks are "
             "sized for: host (this machine), avx512, avx2, neon or a "
             "#fuse.cpu_target<...> (--cpu chooses the instructions: for "
             "another machine give both, e.g. --cpu=haswell "
             "--cpu-target=avx2)"),
    cl::cat(category));
static cl::opt<bool> cpuParallel(
    "cpu-parallel", cl::init(true),
    cl::desc("CPU target: parallel loops as tasks the runtime spreads over "
             "its threads (fuse-to-cpu parallel; the thread count is a "
             "run-time setting); false: every loop on the calling thread"),
    cl::cat(category));
static cl::opt<std::string>
    entry("entry", cl::init(""),
          cl::desc("The function to compile (.mlir input with several "
                   "public functions)"),
          cl::cat(category));
static cl::opt<std::string> reportPath("report", cl::init(""),
                                       cl::desc("Write the fusion report "
                                                "(JSON) to this file"),
                                       cl::value_desc("file"),
                                       cl::cat(category));
static cl::opt<std::string> graphPath("graph", cl::init(""),
                                      cl::desc("Write the fused graph (DOT) "
                                               "to this file"),
                                      cl::value_desc("file"),
                                      cl::cat(category));
static cl::opt<std::string>
    irDir("emit-ir", cl::init(""),
          cl::desc("Write the IR after each stage into this directory "
                   "(1-import.mlir, 2-fused.mlir, 3-lowered.mlir, 4-model.ll; "
                   "large constants elided)"),
          cl::value_desc("dir"), cl::cat(category));
static cl::opt<std::string>
    cpu("cpu", cl::init("host"),
        cl::desc("The CPU the code is generated for: host (this machine's "
                 "CPU and features), generic, or an LLVM CPU name"),
        cl::cat(category));
static cl::opt<unsigned> optLevel("O", cl::init(3), cl::Prefix,
                                  cl::desc("LLVM optimization level (0-3)"),
                                  cl::cat(category));
static cl::opt<bool> llvmUnroll(
    "llvm-unroll", cl::init(false),
    cl::desc("Let LLVM unroll loops (slow to compile, no faster today)"),
    cl::cat(category));
static cl::opt<std::string>
    linker("linker", cl::init(""),
           cl::desc("The compiler driver that links the library (default: "
                    "$FUSE_LINKER, else the clang fuse was built with)"),
           cl::cat(category));
static cl::opt<std::string> gpuFormat(
    "gpu-format", cl::init("auto"),
    cl::desc("A GPU library's kernels: bin (cubin, needs ptxas), isa (PTX, "
             "compiled by the driver at load) or auto (bin when ptxas is "
             "found)"),
    cl::cat(category));
static cl::opt<bool>
    profile("profile", cl::init(false),
            cl::desc("Time each kernel (fuse-benchmark prints the times)"),
            cl::cat(category));
static cl::opt<bool> quiet("q", cl::init(false), cl::desc("No progress lines"),
                           cl::cat(category));
static cl::opt<int64_t>
    onnxBatch("onnx-batch", cl::init(1),
              cl::desc("ONNX: the value of a symbolic batch dimension"),
              cl::cat(category));
static cl::opt<int64_t> onnxResourceThreshold(
    "onnx-resource-threshold", cl::init(256),
    cl::desc("ONNX: constants larger than this many bytes are kept as blobs "
             "(0: every constant of more than one element)"),
    cl::cat(category));
static cl::list<std::string> onnxBind(
    "onnx-bind",
    cl::desc("ONNX: compile graph input NAME as the constant in FILE (a "
             "serialized TensorProto); it leaves the library's inputs"),
    cl::value_desc("NAME=FILE"), cl::cat(category));
static cl::list<std::string>
    onnxDims("onnx-dim",
             cl::desc("ONNX: the value of a named symbolic dimension"),
             cl::value_desc("name=N"), cl::cat(category));

namespace {

/// Progress lines: a stage and its wall time.
class Progress {
public:
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
  std::chrono::steady_clock::time_point begin;
};

/// Files removed when the compile fails (or is interrupted).
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

private:
  std::vector<std::string> paths;
};

int fail(const llvm::Twine &message) {
  llvm::errs() << "fuse-compile: error: " << message << "\n";
  return 1;
}

/// Writes `module` to `dir`/`name` for --emit-ir.
bool writeStage(Operation *module, llvm::StringRef name) {
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

/// Adds to the report at `path` the weights the lowering re-laid out (each
/// function's `relayouts`: op, group, layouts, bytes) and what the
/// compiled library asks for as its workspace: each function's `fuse.memory`
/// arena after lowering (the buffers between kernels and, on the CPU, the
/// groups' scratch buffers), as `footprint.workspace`, with `model` and `total`
/// counting it instead of the arena, and the same in the totals.
bool addWorkspaceToReport(ModuleOp module, llvm::StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text =
      llvm::MemoryBuffer::getFile(path);
  if (!text) {
    fail("cannot read the report '" + path + "'");
    return false;
  }
  llvm::Expected<llvm::json::Value> report =
      llvm::json::parse((*text)->getBuffer());
  if (!report) {
    fail("cannot parse the report '" + path +
         "': " + llvm::toString(report.takeError()));
    return false;
  }
  auto workspaceOf = [&](llvm::StringRef name) -> std::optional<int64_t> {
    Operation *fn = SymbolTable::lookupSymbolIn(module, name);
    if (!fn)
      return std::nullopt;
    auto memory = mlir::fuse::FuseDialect::MemoryAttrHelper(module.getContext())
                      .getAttr(fn);
    auto arena = memory ? memory.getAs<IntegerAttr>("arena") : IntegerAttr();
    if (!arena)
      return std::nullopt;
    return arena.getInt();
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
      // The weights the CPU build re-laid out for its micro-kernels.
      if (Operation *op =
              name ? SymbolTable::lookupSymbolIn(module, *name) : nullptr)
        if (ArrayAttr relayouts = mlir::fuse::FuseDialect::RelayoutsAttrHelper(
                                      module.getContext())
                                      .getAttr(op)) {
          llvm::json::Array list;
          for (auto record : relayouts.getAsRange<DictionaryAttr>()) {
            llvm::json::Object entry;
            for (NamedAttribute field : record) {
              if (auto text = dyn_cast<StringAttr>(field.getValue()))
                entry[field.getName().str()] = text.str();
              else if (auto number = dyn_cast<IntegerAttr>(field.getValue()))
                entry[field.getName().str()] = number.getInt();
            }
            list.push_back(std::move(entry));
          }
          (*object)["relayouts"] = std::move(list);
        }
      std::optional<int64_t> workspace =
          name ? workspaceOf(*name) : std::nullopt;
      if (!memory || !workspace)
        continue;
      update(memory->getObject("footprint"), *workspace);
      total += *workspace;
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

/// Runs `pipeline` (a textual pass pipeline on the module) on `module`.
LogicalResult runPipeline(ModuleOp module, llvm::StringRef pipeline) {
  PassManager pm(module->getContext());
  std::string error;
  llvm::raw_string_ostream errorStream(error);
  if (failed(parsePassPipeline(pipeline, pm, errorStream))) {
    fail("bad pipeline '" + pipeline + "': " + error);
    return failure();
  }
  // Each stage's result is verified once (the input was, when it was
  // read): per pass, verification is a third of a large model's fusion.
  pm.enableVerifier(verifyEach);
  if (timePasses) {
    auto timing = std::make_unique<DefaultTimingManager>();
    timing->setEnabled(true);
    timing->setDisplayMode(DefaultTimingManager::DisplayMode::Tree);
    pm.enableTiming(std::move(timing));
  }
  if (failed(pm.run(module)))
    return failure();
  if (!verifyEach && failed(verify(module))) {
    fail("internal error: the IR after '" + pipeline.str() +
         "' does not verify");
    return failure();
  }
  return success();
}

/// Quotes a pipeline option value that may contain spaces or braces.
std::string quoted(llvm::StringRef value) { return "'" + value.str() + "'"; }

/// The host's (or the named CPU's) target machine for position-independent
/// code.
std::unique_ptr<llvm::TargetMachine> makeTargetMachine(std::string *error) {
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
  llvm::TargetOptions options;
  auto level = optLevel == 0   ? llvm::CodeGenOptLevel::None
               : optLevel == 1 ? llvm::CodeGenOptLevel::Less
               : optLevel == 2 ? llvm::CodeGenOptLevel::Default
                               : llvm::CodeGenOptLevel::Aggressive;
  std::unique_ptr<llvm::TargetMachine> machine(llvmTarget->createTargetMachine(
      llvm::Triple(triple), cpuName, features, options, llvm::Reloc::PIC_,
      std::nullopt, level));
  if (!machine)
    *error =
        "LLVM has no target machine for " + triple + " (cpu " + cpuName + ")";
  return machine;
}

/// LLVM's default pipeline at -O`level`.
void optimize(llvm::Module &module, llvm::TargetMachine *machine) {
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
  tuning.LoopUnrolling = llvmUnroll;
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

/// The driver that links objects into a shared library.
std::string linkerProgram() {
  if (!linker.empty())
    return linker;
  if (const char *env = std::getenv("FUSE_LINKER"); env && *env)
    return env;
  return FUSE_DEFAULT_LINKER;
}

int compile() {
  // The output's kind, from its name.
  llvm::StringRef extension = llvm::sys::path::extension(outputPath);
  if (!llvm::is_contained({".so", ".o", ".ll", ".mlir"}, extension))
    return fail("the output '" + outputPath +
                "' must end in .so (a library), .o, .ll or .mlir");
  llvm::StringRef inputKind = llvm::sys::path::extension(inputPath);
  if (!llvm::is_contained({".onnx", ".mlir", ".mlirbc"}, inputKind))
    return fail("the input '" + inputPath +
                "' must be an ONNX model (.onnx) or MLIR (.mlir, .mlirbc)");
  // A GPU library: its kernels for the target (its fusion decided for it
  // too), its host code for this CPU.
  bool gpu = target != "cpu";
  if (gpu && fusionTarget.getNumOccurrences() && fusionTarget != target)
    return fail("--fusion-target=" + fusionTarget + " with --target=" + target +
                ": a GPU library is fused for its own target");
  if (gpu && cpuTarget.getNumOccurrences())
    return fail("--cpu-target=" + cpuTarget + " with --target=" + target +
                ": a GPU library has no CPU schedule");
  if (gpu && profile)
    return fail("--profile: a GPU library's kernels are timed by "
                "FUSE_KERNEL_PROFILE in the CUDA runtime, not by a hook");
  if (!llvm::is_contained({"auto", "bin", "isa"}, gpuFormat))
    return fail("--gpu-format=" + gpuFormat +
                ": expected bin (cubin), isa (PTX) or auto");
  if (optLevel > 3)
    return fail("-O" + llvm::Twine(optLevel.getValue()) +
                ": the optimization level must be 0 to 3");
  if (!irDir.empty())
    if (std::error_code ec = llvm::sys::fs::create_directories(irDir))
      return fail("cannot create '" + irDir + "': " + ec.message());

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registerAllGPUToLLVMIRTranslations(registry);
  mlir::fuse::registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // Diagnostics name the input's lines (an .mlir input) or the ONNX
  // node (an ONNX input's locations).
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);

  Progress progress;
  progress.start();

  // 1. The model.
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> bytes =
      mlir::fuse::readToolInput(inputPath, &error);
  if (!bytes)
    return fail(error);
  OwningOpRef<ModuleOp> module;
  bool onnx = inputKind == ".onnx";
  if (onnx) {
    mlir::fuse::OnnxImportOptions options;
    if (onnxBatch <= 0)
      return fail("--onnx-batch=" + llvm::Twine(onnxBatch.getValue()) +
                  ": the batch size must be positive");
    options.batchSize = onnxBatch;
    if (onnxResourceThreshold < 0)
      return fail("--onnx-resource-threshold=" +
                  llvm::Twine(onnxResourceThreshold.getValue()) +
                  ": a number of bytes (0 or more)");
    options.resourceThreshold = onnxResourceThreshold;
    for (const std::string &dim : onnxDims) {
      auto [name, value] = llvm::StringRef(dim).split('=');
      int64_t size;
      if (name.empty() || value.getAsInteger(10, size) || size <= 0)
        return fail("--onnx-dim=" + dim + ": expected NAME=N with N > 0");
      options.dims[name.str()] = size;
    }
    for (const std::string &spec : onnxBind) {
      auto [name, file] = llvm::StringRef(spec).split('=');
      if (name.empty() || file.empty())
        return fail("--onnx-bind=" + spec + ": expected NAME=FILE");
      options.boundInputs[name.str()] = file.str();
    }
    options.modelDir = llvm::sys::path::parent_path(inputPath).str();
    if (options.modelDir.empty())
      options.modelDir = ".";
    options.modelName = inputPath;
    module = mlir::fuse::importOnnxModel(bytes->getBuffer(), &context, options);
  } else {
    sourceMgr.AddNewSourceBuffer(std::move(bytes), llvm::SMLoc());
    module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  }
  if (!module)
    return fail("cannot read the model '" + inputPath + "'");
  progress.done(onnx ? "import" : "parse");
  if (!writeStage(*module, "1-import.mlir"))
    return 1;

  // 2. Fusion.
  std::string fusion = "target=" + quoted(gpu ? target : fusionTarget);
  if (!gpu)
    fusion += " cpu-target=" + quoted(cpuTarget);
  // fuse's importer makes valid TOSA; the check is for TOSA from elsewhere.
  if (onnx)
    fusion += " validate-tosa=false";
  if (!reportPath.empty())
    fusion += " report=" + quoted(reportPath);
  if (!graphPath.empty())
    fusion += " graph=" + quoted(graphPath);
  if (unfused) {
    llvm::SmallVector<llvm::StringRef> names;
    for (const mlir::fuse::FusionRule *rule : mlir::fuse::getFusionRules())
      names.push_back(rule->name);
    fusion += " prune=false disable-rules=" + llvm::join(names, ",");
  }
  if (!fusionOptions.empty())
    fusion += " " + fusionOptions;
  if (failed(runPipeline(*module, "fuse-fusion-pipeline{" + fusion + "}")))
    return fail("fusion failed");
  int64_t groups = 0;
  module->walk([&](Operation *op) {
    if (op->getName().getStringRef() == "fuse.group")
      ++groups;
  });
  progress.done("fusion", std::to_string(groups) + " kernels");
  if (!writeStage(*module, "2-fused.mlir"))
    return 1;

  // 3. Codegen with the compiled-model ABI: the CPU build, or the GPU
  // kernels (cubin when ptxas is there, else PTX for the driver's JIT)
  // with their host code.
  std::string lowering = "entry-abi=true plan-buffers=" +
                         std::string(planBuffers ? "true" : "false");
  if (!entry.empty())
    lowering += " entry=" + quoted(entry);
  if (profile)
    lowering += " profile=true";
  if (!gpu && !cpuVectorize)
    lowering += " vectorize=false";
  if (!gpu && !cpuParallel)
    lowering += " parallel=false";
  lowering += shareKernels ? " share-kernels=true" : " share-kernels=false";
  std::string format = gpuFormat;
  if (gpu && format == "auto")
    format = llvm::sys::findProgramByName("ptxas", {"/usr/local/cuda/bin"})
                 ? "bin"
                 : "isa";
  if (gpu)
    lowering += " format=" + format;
  if (failed(runPipeline(*module, (gpu ? "fuse-to-nvptx{" : "fuse-to-cpu{") +
                                      lowering + "}")))
    return fail("lowering failed");
  progress.done("codegen", gpu ? (format == "bin" ? "cubin" : "PTX") : "");
  if (!writeStage(*module, "3-lowered.mlir"))
    return 1;
  if (!reportPath.empty() && reportPath != "-" &&
      !addWorkspaceToReport(*module, reportPath))
    return 1;
  if (extension == ".mlir") {
    std::unique_ptr<llvm::ToolOutputFile> out =
        openOutputFile(outputPath, &error);
    if (!out)
      return fail(error);
    module->print(out->os());
    if (mlir::fuse::keepToolOutput(*out))
      return fail("cannot write '" + outputPath + "'");
    progress.done("write");
    return 0;
  }

  // 4. LLVM IR, optimized for the CPU.
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  std::unique_ptr<llvm::TargetMachine> machine = makeTargetMachine(&error);
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
  optimize(*llvmModule, machine.get());
  progress.done("llvm", "-O" + std::to_string(optLevel) + ", cpu " +
                            machine->getTargetCPU().str());
  if (!irDir.empty()) {
    llvm::SmallString<256> path(irDir);
    llvm::sys::path::append(path, "4-model.ll");
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec)
      return fail("cannot write '" + path + "': " + ec.message());
    llvmModule->print(os, nullptr);
  }
  if (extension == ".ll") {
    std::unique_ptr<llvm::ToolOutputFile> out =
        openOutputFile(outputPath, &error);
    if (!out)
      return fail(error);
    llvmModule->print(out->os(), nullptr);
    if (mlir::fuse::keepToolOutput(*out))
      return fail("cannot write '" + outputPath + "'");
    return 0;
  }

  // 5. The object (beside the output, or the output itself).
  TempFiles temps;
  llvm::SmallString<256> objectPath;
  if (extension == ".o") {
    objectPath = outputPath;
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
    if (mlir::fuse::keepToolOutput(*out))
      return fail("cannot write '" + objectPath + "'");
  }
  llvmModule.reset();
  progress.done("object");
  if (extension == ".o")
    return 0;

  // 6. The library: linked into a temporary file beside the output, then
  // renamed over it, so that a failure leaves no partial library.
  llvm::SmallString<256> partial(outputPath);
  partial += ".partial-%%%%%%";
  int fd;
  llvm::SmallString<256> partialPath;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueFile(partial, fd, partialPath))
    return fail("cannot write beside '" + outputPath + "': " + ec.message());
  llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  temps.add(partialPath.str().str());
  std::string driver = linkerProgram();
  llvm::ErrorOr<std::string> program = llvm::sys::findProgramByName(driver);
  if (!program)
    return fail("cannot find the linker driver '" + driver +
                "' (--linker or FUSE_LINKER names another)");
  llvm::SmallVector<llvm::StringRef> args = {*program,    "-shared",  "-o",
                                             partialPath, objectPath, "-lm"};
  if (llvm::sys::findProgramByName("ld.lld"))
    args.insert(args.begin() + 1, "-fuse-ld=lld");
  std::string linkError;
  llvm::SmallString<256> logPath;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("fuse-compile", "log", logPath))
    return fail("cannot create a temporary file: " + ec.message());
  temps.add(logPath.str().str());
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, logPath.str(),
                                                logPath.str()};
  int status = llvm::sys::ExecuteAndWait(*program, args, std::nullopt,
                                         redirects, 0, 0, &linkError);
  if (status != 0) {
    std::string log;
    if (auto text = llvm::MemoryBuffer::getFile(logPath))
      log = (*text)->getBuffer().trim().str();
    return fail("linking '" + outputPath + "' failed" +
                (linkError.empty() ? "" : ": " + linkError) +
                (log.empty() ? "" : "\n" + log));
  }
  if (std::error_code ec = llvm::sys::fs::rename(partialPath, outputPath))
    return fail("cannot write '" + outputPath + "': " + ec.message());
  progress.done("link", outputPath);
  if (!quiet)
    llvm::errs() << "fuse-compile: total    "
                 << llvm::format("%6.2f s", progress.total) << "\n";
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerAllPasses();
  mlir::fuse::registerAllPasses();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "fuse-compile: a model (ONNX or MLIR) to a compiled-model library\n\n"
      "  fuse-compile model.onnx --target=cpu -o model.so\n"
      "  fuse-run model.so --input x.npy\n");
  return compile();
}
