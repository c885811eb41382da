//===- CompileCommandLine.cpp - fuse-compile's command line ---------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// fuse-compile's options, registered with LLVM's command-line parser in
// their own category (the tool hides the others from --help), and their
// parse into CompileOptions.
//
//===----------------------------------------------------------------------===//

#include "fuse/Driver/Compile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("fuse-compile options");

/// The options' defaults are CompileOptions' own.
static const mlir::fuse::CompileOptions defaults;

static cl::opt<std::string> inputPath(cl::Positional, cl::Required,
                                      cl::desc("<model.onnx | model.mlir>"),
                                      cl::cat(category));
static cl::opt<std::string>
    outputPath("o", cl::Required,
               cl::desc("The output: a library (.so), an object (.o), LLVM "
                        "IR (.ll) or the LLVM-dialect module (.mlir)"),
               cl::value_desc("file"), cl::cat(category));
static cl::opt<std::string>
    target("target", cl::init(defaults.target),
           cl::desc("What the library runs on: cpu (the host), or a GPU "
                    "preset (h200, a100, ...) or #fuse.target"),
           cl::cat(category));
static cl::opt<std::string> fusionTarget(
    "fusion-target",
    cl::init(std::string(mlir::fuse::CompileOptions::kDefaultFusionTarget)),
    cl::desc("The GPU preset (or #fuse.target) whose cost model decides "
             "the fusion groups a CPU library runs"),
    cl::cat(category));
static cl::opt<std::string> fusionOptions(
    "fusion-options", cl::init(defaults.fusionOptions),
    cl::desc("More fuse-fusion-pipeline options, as in its pipeline string "
             "(\"precision=tf32 split-row-epilogues=false\")"),
    cl::cat(category));
static cl::opt<bool> unfused("unfused", cl::init(defaults.unfused),
                             cl::desc("Every op its own kernel (every fusion "
                                      "rule off, nothing pruned)"),
                             cl::cat(category));
static cl::opt<bool> shareKernels(
    "share-kernels", cl::init(defaults.shareKernels),
    cl::desc("Groups that are the same kernel (a model's repeated layers) "
             "share one compiled function (fuse-to-cpu/fuse-to-nvptx "
             "share-kernels); off with --profile"),
    cl::cat(category));
static cl::opt<bool> verifyEach(
    "verify-each", cl::init(defaults.verifyEach),
    cl::desc("Verify the IR after every pass (slow on large models); "
             "false: once after each stage"),
    cl::cat(category));
static cl::opt<bool>
    timePasses("pass-timing", cl::init(defaults.passTiming),
               cl::desc("Print each pass's wall time on stderr: a table per "
                        "pipeline (fusion, codegen)"),
               cl::cat(category));
static cl::opt<bool> planBuffers(
    "plan-buffers", cl::init(defaults.planBuffers),
    cl::desc("Place the buffers between kernels in one workspace "
             "(fuse-plan-buffers); false: each is allocated per call"),
    cl::cat(category));
static cl::opt<bool> cpuVectorize(
    "cpu-vectorize", cl::init(defaults.cpuVectorize),
    cl::desc("CPU target: contractions as register-blocked vector "
             "micro-kernels (fuse-to-cpu vectorize); false: loops"),
    cl::cat(category));
static cl::opt<bool> packWeights(
    "pack-weights", cl::init(defaults.packWeights),
    cl::desc("CPU target: constant weights laid out at compile time in the "
             "panels the micro-kernels read (fuse-to-cpu pack-weights); "
             "false: read as they are"),
    cl::cat(category));
static cl::opt<std::string> cpuTarget(
    "cpu-target",
    cl::init(std::string(mlir::fuse::CompileOptions::kDefaultCpuTarget)),
    cl::desc("CPU target: the CPU the register tiles and cache blocks are "
             "sized for: host (this machine), avx512, avx2, neon or a "
             "#fuse.cpu_target<...> (--cpu chooses the instructions: for "
             "another machine give both, e.g. --cpu=haswell "
             "--cpu-target=avx2)"),
    cl::cat(category));
static cl::opt<bool> cpuParallel(
    "cpu-parallel", cl::init(defaults.cpuParallel),
    cl::desc("CPU target: parallel loops as tasks the runtime spreads over "
             "its threads (fuse-to-cpu parallel; the thread count is a "
             "run-time setting); false: every loop on the calling thread"),
    cl::cat(category));
static cl::opt<bool> gpuSchedules(
    "gpu-schedules", cl::init(defaults.gpuSchedules),
    cl::desc("CPU target: every group tiled as its GPU kernel "
             "(fuse-lower-groups: its tiles, tensor-core and attention "
             "schedules) and run on the host, to check a GPU schedule "
             "without a GPU"),
    cl::cat(category));
static cl::opt<std::string> scheduleOptions(
    "schedule-options", cl::init(defaults.scheduleOptions),
    cl::desc("With --gpu-schedules: fuse-lower-groups' options "
             "(\"tensor-cores=always precision=bf16 split-k=2\"); every "
             "group's tiles are chosen anew with them"),
    cl::cat(category));
static cl::opt<int64_t> emulateThreads(
    "emulate-threads", cl::init(defaults.emulateThreads),
    cl::desc("With --gpu-schedules: spread each tile's ops over this many "
             "emulated threads, as the GPU kernels do (-1: each group's "
             "block size; 0: none)"),
    cl::cat(category));
static cl::opt<bool> relayoutWeights(
    "relayout-weights", cl::init(defaults.relayoutWeights),
    cl::desc("With --gpu-schedules: constant conv filters re-laid out as "
             "the SIMT GPU kernels read them (fuse-relayout-weights "
             "tensor-cores=never)"),
    cl::cat(category));
static cl::opt<int64_t> blockSize(
    "block-size", cl::init(defaults.blockSize),
    cl::desc("GPU target: every kernel's threads per block, its tiles "
             "chosen anew for them (fuse-to-nvptx block-size; 0: each "
             "group's own)"),
    cl::cat(category));
static cl::opt<std::string>
    entry("entry", cl::init(defaults.entry),
          cl::desc("The function to compile (.mlir input with several "
                   "public functions)"),
          cl::cat(category));
static cl::opt<std::string> reportPath("report", cl::init(defaults.report),
                                       cl::desc("Write the fusion report "
                                                "(JSON) to this file"),
                                       cl::value_desc("file"),
                                       cl::cat(category));
static cl::opt<std::string> reportTextPath(
    "report-text", cl::init(defaults.reportText),
    cl::desc("Write the fusion report as text to this file ('-': stdout): "
             "per group its ops, schedule and savings, the refusals, the "
             "memory"),
    cl::value_desc("file"), cl::cat(category));
static cl::opt<std::string> graphPath("graph", cl::init(defaults.graph),
                                      cl::desc("Write the fused graph (DOT) "
                                               "to this file"),
                                      cl::value_desc("file"),
                                      cl::cat(category));
static cl::opt<std::string>
    irDir("emit-ir", cl::init(defaults.emitIr),
          cl::desc("Write the IR after each stage into this directory "
                   "(1-import.mlir, 2-fused.mlir, 3-lowered.mlir, 4-model.ll; "
                   "large constants elided)"),
          cl::value_desc("dir"), cl::cat(category));
static cl::opt<std::string>
    kernelsDir("kernels", cl::init(defaults.kernelsDir),
               cl::desc("GPU target: write each kernel module as the "
                        "library embeds it into this directory "
                        "(<name>.ptx, or <name>.cubin with "
                        "--gpu-format=bin)"),
               cl::value_desc("dir"), cl::cat(category));
static cl::opt<std::string>
    cpu("cpu", cl::init(defaults.cpu),
        cl::desc("The CPU the code is generated for: host (this machine's "
                 "CPU and features), generic, or an LLVM CPU name"),
        cl::cat(category));
static cl::opt<unsigned> optLevel("O", cl::init(defaults.optLevel), cl::Prefix,
                                  cl::desc("LLVM optimization level (0-3)"),
                                  cl::cat(category));
static cl::opt<bool> llvmUnroll(
    "llvm-unroll", cl::init(defaults.llvmUnroll),
    cl::desc("Let LLVM unroll loops (slow to compile, no faster today)"),
    cl::cat(category));
static cl::opt<std::string>
    linker("linker", cl::init(defaults.linker),
           cl::desc("The compiler driver that links the library (default: "
                    "$FUSE_LINKER, else the clang fuse was built with, whose "
                    "link command, recorded when fuse was configured, runs "
                    "without the driver)"),
           cl::cat(category));
static cl::opt<std::string> gpuFormat(
    "gpu-format", cl::init(defaults.gpuFormat),
    cl::desc("A GPU library's kernels: bin (cubin, needs ptxas), isa (PTX, "
             "compiled by the driver at load) or auto (bin when ptxas is "
             "found)"),
    cl::cat(category));
static cl::opt<bool>
    profile("profile", cl::init(defaults.profile),
            cl::desc("Time each kernel (fuse-benchmark prints the times)"),
            cl::cat(category));
static cl::opt<bool> quiet("q", cl::init(defaults.quiet),
                           cl::desc("No progress lines"), cl::cat(category));
static cl::opt<int64_t>
    onnxBatch("onnx-batch", cl::init(defaults.onnxBatch),
              cl::desc("ONNX: the value of a symbolic batch dimension"),
              cl::cat(category));
static cl::opt<int64_t> onnxResourceThreshold(
    "onnx-resource-threshold", cl::init(defaults.onnxResourceThreshold),
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

llvm::cl::OptionCategory &mlir::fuse::getCompileOptionCategory() {
  return category;
}

ArrayRef<StringRef> mlir::fuse::getCompileOptionNames() {
  // The options of fuse-compile's category, as registered (so the list
  // cannot miss one).
  static const std::vector<StringRef> names = [] {
    std::vector<StringRef> list;
    for (cl::Option *option :
         llvm::make_second_range(cl::getRegisteredOptions()))
      if (!option->ArgStr.empty() &&
          llvm::is_contained(option->Categories, &category))
        list.push_back(option->ArgStr);
    llvm::sort(list);
    list.erase(std::unique(list.begin(), list.end()), list.end());
    return list;
  }();
  return names;
}

bool mlir::fuse::parseCompileCommandLine(int argc, const char *const *argv,
                                         CompileOptions &options,
                                         llvm::raw_ostream &errors) {
  cl::ResetAllOptionOccurrences();
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "fuse-compile: a model (ONNX or MLIR) to a compiled-model "
          "library\n\n"
          "  fuse-compile model.onnx --target=cpu -o model.so\n"
          "  fuse-run model.so --input x.npy\n",
          &errors))
    return false;
  options = CompileOptions();
  options.input = inputPath;
  options.output = outputPath;
  options.target = target;
  if (fusionTarget.getNumOccurrences())
    options.fusionTarget = fusionTarget;
  options.fusionOptions = fusionOptions;
  options.unfused = unfused;
  options.shareKernels = shareKernels;
  options.verifyEach = verifyEach;
  options.passTiming = timePasses;
  options.planBuffers = planBuffers;
  options.cpuVectorize = cpuVectorize;
  options.packWeights = packWeights;
  if (cpuTarget.getNumOccurrences())
    options.cpuTarget = cpuTarget;
  options.cpuParallel = cpuParallel;
  options.gpuSchedules = gpuSchedules;
  options.scheduleOptions = scheduleOptions;
  options.emulateThreads = emulateThreads;
  options.relayoutWeights = relayoutWeights;
  options.blockSize = blockSize;
  options.entry = entry;
  options.report = reportPath;
  options.reportText = reportTextPath;
  options.graph = graphPath;
  options.emitIr = irDir;
  options.kernelsDir = kernelsDir;
  options.cpu = cpu;
  options.optLevel = optLevel;
  options.llvmUnroll = llvmUnroll;
  options.linker = linker;
  options.gpuFormat = gpuFormat;
  options.profile = profile;
  options.quiet = quiet;
  options.onnxBatch = onnxBatch;
  options.onnxResourceThreshold = onnxResourceThreshold;
  options.onnxBind.assign(onnxBind.begin(), onnxBind.end());
  options.onnxDims.assign(onnxDims.begin(), onnxDims.end());
  return true;
}
