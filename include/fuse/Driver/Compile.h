//===- Compile.h - fuse-compile's options and stages ------------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// fuse-compile as a library: its command line parsed into CompileOptions,
// the checks that need no input, the input read, the two pass pipelines
// built from the options, and the whole compile. The tool is `main` over
// these; tools/fuzz/compile-fuzzer.cpp drives the same functions.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_DRIVER_COMPILE_H
#define FUSE_DRIVER_COMPILE_H

#include "fuse/Target/ONNX/Import.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class SourceMgr;
namespace json {
class Object;
} // namespace json
class raw_ostream;
namespace cl {
class OptionCategory;
} // namespace cl
} // namespace llvm

namespace mlir {
class MLIRContext;
class OpPassManager;
namespace fuse {

/// What fuse-compile is asked for (its command line; the defaults are the
/// tool's).
struct CompileOptions {
  /// The model: .onnx, .mlir or .mlirbc.
  std::string input;
  /// What is written: .so (a library), .o, .ll or .mlir (the LLVM dialect).
  std::string output;
  /// cpu, or a GPU preset or #fuse.target<...> the library runs on.
  std::string target = "cpu";
  /// The GPU whose cost model fuses a CPU library (unset:
  /// kDefaultFusionTarget).
  std::optional<std::string> fusionTarget;
  /// More fuse-fusion-pipeline options, in its option syntax.
  std::string fusionOptions;
  bool unfused = false;
  bool shareKernels = true;
  bool verifyEach = false;
  bool passTiming = false;
  bool planBuffers = true;
  bool cpuVectorize = true;
  /// With cpuVectorize: constant weights packed for the micro-kernels.
  bool packWeights = true;
  /// The CPU the CPU schedules are sized for (unset: kDefaultCpuTarget).
  std::optional<std::string> cpuTarget;
  bool cpuParallel = true;
  /// CPU target: every group tiled as its GPU kernel (fuse-lower-groups)
  /// and run on the host, so a GPU schedule is checked without a GPU.
  bool gpuSchedules = false;
  /// With gpuSchedules: fuse-lower-groups' options, in its option syntax
  /// ("tensor-cores=always precision=bf16"); given, every group's tiles are
  /// chosen anew with them.
  std::string scheduleOptions;
  /// With gpuSchedules: each tile's ops spread over this many emulated
  /// threads (-1: each group's configured block size; 0: none).
  int64_t emulateThreads = 0;
  /// With gpuSchedules: constant conv filters re-laid out as the SIMT GPU
  /// kernels read them (fuse-relayout-weights tensor-cores=never).
  bool relayoutWeights = false;
  /// GPU target: every kernel's threads per block, its tiles chosen anew
  /// for them (0: each group's lowering config).
  int64_t blockSize = 0;
  std::string entry;
  std::string report;
  /// --report-text: the report as text, to this file ("-": stdout).
  std::string reportText;
  std::string graph;
  /// --emit-ir: the directory the IR of each stage goes to ("" none).
  std::string emitIr;
  /// --kernels: the directory a GPU library's kernels go to, one file per
  /// kernel module (.ptx or .cubin; "" none).
  std::string kernelsDir;
  /// The CPU LLVM generates code for: host, generic or an LLVM CPU name.
  std::string cpu = "host";
  unsigned optLevel = 3;
  bool llvmUnroll = false;
  std::string linker;
  std::string gpuFormat = "auto";
  bool profile = false;
  bool quiet = false;
  int64_t onnxBatch = OnnxImportOptions().batchSize;
  int64_t onnxResourceThreshold = OnnxImportOptions().resourceThreshold;
  /// NAME=FILE and NAME=N as given.
  std::vector<std::string> onnxBind;
  std::vector<std::string> onnxDims;

  static constexpr const char *kDefaultFusionTarget = "h200";
  static constexpr const char *kDefaultCpuTarget = "host";

  bool isGpu() const { return target != "cpu"; }
  bool isOnnx() const;
};

/// Parses fuse-compile's command line (argv[0] first) with LLVM's command
/// line parser into `options`. A bad command line gives false, its message
/// on `errors` (LLVM's parser prints some, a missing or malformed value, to
/// stderr itself). Options are reset before parsing, so it may be called
/// again. As in every LLVM tool, --help and --version print and exit, and
/// `@file` arguments are read as response files.
bool parseCompileCommandLine(int argc, const char *const *argv,
                             CompileOptions &options,
                             llvm::raw_ostream &errors);

/// The category of fuse-compile's options (the tool's --help shows only
/// it).
llvm::cl::OptionCategory &getCompileOptionCategory();

/// The names of fuse-compile's own options (without dashes).
ArrayRef<StringRef> getCompileOptionNames();

/// The checks that need no input: output and input kinds, options that
/// contradict the target, ranges, the ONNX NAME=N and NAME=FILE forms.
/// The error is one line naming the option.
llvm::Error checkCompileOptions(const CompileOptions &options);

/// Reads the model `options.input` names (imported from ONNX, parsed from
/// MLIR text or bytecode) into `context`; an .mlir input's buffer goes to
/// `sourceMgr`, so that diagnostics name its lines. Null, with `error`
/// set, when it cannot be read or an --onnx-* value is malformed (the
/// message checkCompileOptions gives); the parser's or importer's
/// diagnostics go to the context's handler.
OwningOpRef<ModuleOp> readCompileInput(const CompileOptions &options,
                                       MLIRContext *context,
                                       llvm::SourceMgr &sourceMgr,
                                       std::string *error);

/// Appends fuse-fusion-pipeline as `options` configure it to `fusion` and
/// the lowering (fuse-to-cpu or fuse-to-nvptx, with the compiled-model
/// ABI) to `lowering`. The options go into the pipelines' option structs,
/// not into pipeline text, so no value can add a pass or another option;
/// --fusion-options is parsed as fuse-fusion-pipeline's options alone.
/// `gpuFormat` is the GPU kernels' format (bin or isa) for a GPU target.
llvm::Error buildCompilePipelines(const CompileOptions &options,
                                  OpPassManager &fusion,
                                  OpPassManager &lowering,
                                  StringRef gpuFormat = "isa");

/// The GPU kernels' format `options` ask for: bin or isa (auto: bin when
/// ptxas is found).
std::string resolveGpuFormat(const CompileOptions &options);

/// Prints the fusion report (fuse-compile's JSON) as text: the targets,
/// per function its kernels, bytes and memory, one line per group with its
/// schedule and savings, the weights re-laid out, the refusals and the ops
/// left alone, then the totals.
void printReportText(const llvm::json::Object &report, llvm::raw_ostream &os);

/// The whole compile: the model to `options.output`. Progress lines and
/// errors go to stderr; returns the tool's exit status (0, or 1 with no
/// output file).
int runCompile(const CompileOptions &options);

} // namespace fuse
} // namespace mlir

#endif // FUSE_DRIVER_COMPILE_H
