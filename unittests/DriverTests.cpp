//===- DriverTests.cpp - fuse-compile's options as a library --------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// fuse-compile's command line parses again and again in one process (each
// parse starts from the defaults); the checks name the option at fault; the
// pipelines built from the options hold the passes of fuse-fusion-pipeline
// and fuse-to-cpu and nothing else, whatever a value holds (quotes,
// braces, a `}` that would close a pipeline's option text); a value goes
// into its pass unchanged.
//
//===----------------------------------------------------------------------===//

#include "fuse/Driver/Compile.h"
#include "fuse/InitAllDialects.h"
#include "fuse/Pipelines/Pipelines.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::fuse;

namespace {

bool parse(std::vector<const char *> args, CompileOptions &options,
           std::string *errors = nullptr) {
  args.insert(args.begin(), "fuse-compile");
  std::string text;
  llvm::raw_string_ostream os(text);
  bool ok = parseCompileCommandLine(args.size(), args.data(), options, os);
  if (errors)
    *errors = text;
  return ok;
}

std::string checkError(const CompileOptions &options) {
  llvm::Error error = checkCompileOptions(options);
  return error ? llvm::toString(std::move(error)) : "";
}

/// The passes of `pm`, by argument, in order.
std::vector<std::string> passNames(OpPassManager &pm) {
  std::vector<std::string> names;
  for (Pass &pass : pm.getPasses())
    names.push_back(pass.getArgument().str());
  return names;
}

/// The pass `argument` of `pm` as pipeline text (with its options), or
/// "<none>".
std::string passText(OpPassManager &pm, StringRef argument) {
  for (Pass &pass : pm.getPasses()) {
    if (pass.getArgument() != argument)
      continue;
    std::string text;
    llvm::raw_string_ostream os(text);
    pass.printAsTextualPipeline(os);
    return text;
  }
  return "<none>";
}

TEST(Driver, ParsesAgainFromTheDefaults) {
  CompileOptions options;
  ASSERT_TRUE(parse({"m.onnx", "-o", "m.so", "--target=h100", "-O1",
                     "--onnx-dim=S=4", "--onnx-dim=T=2", "--unfused",
                     "--fusion-target=h100", "--cpu-target=avx2"},
                    options));
  EXPECT_EQ(options.target, "h100");
  EXPECT_EQ(options.optLevel, 1u);
  EXPECT_EQ(options.onnxDims.size(), 2u);
  EXPECT_TRUE(options.unfused);
  EXPECT_EQ(options.fusionTarget.value_or(""), "h100");
  EXPECT_EQ(options.cpuTarget.value_or(""), "avx2");
  ASSERT_TRUE(parse({"n.mlir", "-o", "n.ll"}, options));
  EXPECT_EQ(options.input, "n.mlir");
  EXPECT_EQ(options.target, "cpu");
  EXPECT_EQ(options.optLevel, 3u);
  EXPECT_TRUE(options.onnxDims.empty());
  EXPECT_FALSE(options.unfused);
  EXPECT_FALSE(options.fusionTarget.has_value());
  EXPECT_FALSE(options.cpuTarget.has_value());
}

TEST(Driver, OptionNamesAreFuseCompiles) {
  ArrayRef<StringRef> names = getCompileOptionNames();
  for (StringRef name : {"o", "O", "target", "fusion-options", "onnx-bind",
                         "onnx-dim", "q", "emit-ir", "gpu-format"})
    EXPECT_TRUE(llvm::is_contained(names, name)) << name.str();
  for (StringRef name : {"help", "version", "print-after-all", "debug"})
    EXPECT_FALSE(llvm::is_contained(names, name)) << name.str();
}

TEST(Driver, BadCommandLinesAreErrorsNotExits) {
  CompileOptions options;
  std::string errors;
  // (LLVM's parser prints some messages to stderr itself: a missing or
  // malformed value.)
  EXPECT_FALSE(parse({"m.onnx"}, options, &errors));
  EXPECT_FALSE(
      parse({"m.onnx", "-o", "m.so", "--no-such-option"}, options, &errors));
  EXPECT_NE(errors.find("no-such-option"), std::string::npos) << errors;
  EXPECT_FALSE(parse({"m.onnx", "-o", "m.so", "-Ox"}, options, &errors));
  EXPECT_FALSE(
      parse({"m.onnx", "-o", "m.so", "--onnx-batch=many"}, options, &errors));
  EXPECT_FALSE(parse({"m.onnx", "n.onnx", "-o", "m.so"}, options, &errors));
  // And the next parse is clean.
  EXPECT_TRUE(parse({"m.onnx", "-o", "m.so"}, options, &errors)) << errors;
}

TEST(Driver, ChecksNameTheOption) {
  CompileOptions options;
  options.input = "m.onnx";
  options.output = "m.so";
  EXPECT_EQ(checkError(options), "");
  auto expect = [&](CompileOptions changed, StringRef what) {
    std::string error = checkError(changed);
    EXPECT_NE(error.find(what.str()), std::string::npos)
        << "expected '" << what.str() << "' in '" << error << "'";
  };
  CompileOptions o = options;
  o.output = "m.exe";
  expect(o, "the output 'm.exe' must end in");
  o = options;
  o.input = "m.npz";
  expect(o, "the input 'm.npz' must be");
  o = options;
  o.target = "h200";
  o.fusionTarget = "a100";
  expect(o, "--fusion-target=a100 with --target=h200");
  o = options;
  o.target = "h200";
  o.cpuTarget = "avx2";
  expect(o, "--cpu-target=avx2 with --target=h200");
  o = options;
  o.target = "h200";
  o.profile = true;
  expect(o, "--profile");
  o = options;
  o.gpuFormat = "elf";
  expect(o, "--gpu-format=elf");
  o = options;
  o.optLevel = 7;
  expect(o, "-O7");
  o = options;
  o.onnxBatch = 0;
  expect(o, "--onnx-batch=0");
  o = options;
  o.onnxResourceThreshold = -1;
  expect(o, "--onnx-resource-threshold=-1");
  o = options;
  o.onnxDims = {"S=0"};
  expect(o, "--onnx-dim=S=0");
  o = options;
  o.onnxBind = {"=w.pb"};
  expect(o, "--onnx-bind==w.pb");
  o = options;
  o.input = "m.mlir";
  o.onnxDims = {"S=4"};
  expect(o, "--onnx-dim: the input 'm.mlir' is not an ONNX model");
  // The GPU schedules on the host: their options need them, and they need
  // the CPU target without a CPU schedule.
  o = options;
  o.emulateThreads = 32;
  expect(o, "--emulate-threads needs --gpu-schedules");
  o = options;
  o.scheduleOptions = "split-k=2";
  expect(o, "--schedule-options needs --gpu-schedules");
  o = options;
  o.relayoutWeights = true;
  expect(o, "--relayout-weights needs --gpu-schedules");
  o = options;
  o.gpuSchedules = true;
  EXPECT_EQ(checkError(o), "");
  o.emulateThreads = -3;
  expect(o, "--emulate-threads=-3");
  o.emulateThreads = 0;
  o.target = "a100";
  expect(o, "--gpu-schedules with --target=a100");
  o.target = "cpu";
  o.cpuTarget = "avx2";
  expect(o, "--cpu-target=avx2 with --gpu-schedules");
  o = options;
  o.report = "-";
  o.reportText = "r.txt";
  expect(o, "--report-text with --report=-");
  o = options;
  o.blockSize = 128;
  expect(o, "--block-size=128 with --target=cpu");
  o.target = "h200";
  EXPECT_EQ(checkError(o), "");
}

class DriverPipelines : public ::testing::Test {
protected:
  DriverPipelines() {
    DialectRegistry registry;
    mlir::fuse::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    options.input = "m.onnx";
    options.output = "m.so";
  }
  /// Builds the pipelines for `options`: "" or the error.
  std::string build(const CompileOptions &o, std::vector<std::string> *fusion,
                    std::vector<std::string> *lowering,
                    std::string *formGroups = nullptr) {
    PassManager fusionPm(&context), loweringPm(&context);
    llvm::Error error = buildCompilePipelines(o, fusionPm, loweringPm);
    if (error)
      return llvm::toString(std::move(error));
    *fusion = passNames(fusionPm);
    *lowering = passNames(loweringPm);
    if (formGroups)
      *formGroups = passText(fusionPm, "fuse-form-groups");
    return "";
  }
  /// The lowering pipeline `o` builds (GPU kernels as `format`), as
  /// pipeline text; `formGroups`, when given, gets the fusion pipeline's
  /// fuse-form-groups.
  std::string loweringText(const CompileOptions &o, StringRef format,
                           std::string *formGroups = nullptr) {
    PassManager fusionPm(&context), loweringPm(&context);
    EXPECT_FALSE(llvm::errorToBool(
        buildCompilePipelines(o, fusionPm, loweringPm, format)));
    std::string text;
    llvm::raw_string_ostream os(text);
    loweringPm.printAsTextualPipeline(os);
    if (formGroups)
      *formGroups = passText(fusionPm, "fuse-form-groups");
    return text;
  }
  MLIRContext context;
  CompileOptions options;
};

TEST_F(DriverPipelines, ValuesCannotAddPasses) {
  std::vector<std::string> fusion, lowering;
  ASSERT_EQ(build(options, &fusion, &lowering), "");
  ASSERT_FALSE(fusion.empty());
  EXPECT_EQ(fusion.back(), "fuse-form-groups");
  ASSERT_FALSE(lowering.empty());

  // Values that would end the option text of a textual pipeline and add a
  // pass or an option: each goes into its pass as it is.
  for (const char *value : {"h200' report='/tmp/x.json", "a} ,canonicalize{",
                            "x\" y=\"z", "{ }", "'", "\"", "}", "a b"}) {
    CompileOptions o = options;
    o.fusionTarget = value;
    o.report = value;
    o.graph = value;
    o.entry = value;
    std::vector<std::string> f, l;
    std::string formGroups;
    ASSERT_EQ(build(o, &f, &l, &formGroups), "") << value;
    EXPECT_EQ(f, fusion) << value;
    EXPECT_EQ(l, lowering) << value;
    // The value reached fuse-form-groups' target whole.
    EXPECT_NE(formGroups.find(value), std::string::npos)
        << value << " in " << formGroups;
  }
}

TEST_F(DriverPipelines, FusionOptionsAreOptionsOnly) {
  std::vector<std::string> fusion, lowering;
  CompileOptions o = options;
  o.fusionOptions = "precision=tf32 split-row-epilogues=false";
  ASSERT_EQ(build(o, &fusion, &lowering), "");
  for (const char *text : {"} ,canonicalize{", "precision=tf32} ,cse{",
                           "no-such-option=1", "stages=many", "prune=maybe"}) {
    o.fusionOptions = text;
    std::string error = build(o, &fusion, &lowering);
    EXPECT_NE(error.find("--fusion-options="), std::string::npos)
        << text << ": " << error;
  }
}

TEST_F(DriverPipelines, GpuSchedulesOnTheHost) {
  std::vector<std::string> fusion, lowering;
  CompileOptions o = options;
  o.gpuSchedules = true;
  o.scheduleOptions = "tensor-cores=always split-k=2";
  o.emulateThreads = -1;
  std::string formGroups;
  std::string text = loweringText(o, "", &formGroups);
  // The groups are tiled as their kernels, configured anew with the
  // options, and their tiles' ops spread over emulated threads; the fusion
  // gives them no CPU schedule.
  EXPECT_NE(text.find("fuse-lower-groups{"), std::string::npos) << text;
  EXPECT_NE(text.find("split-k=2"), std::string::npos) << text;
  EXPECT_NE(text.find("tensor-cores=always"), std::string::npos) << text;
  EXPECT_NE(text.find("reconfigure=true"), std::string::npos) << text;
  EXPECT_NE(text.find("fuse-distribute-threads"), std::string::npos) << text;
  EXPECT_EQ(text.find("fuse-cpu-vectorize"), std::string::npos) << text;
  EXPECT_EQ(formGroups.find("cpu-target=host"), std::string::npos)
      << formGroups;
  // The options are fuse-lower-groups' alone: none adds a pass.
  for (const char *bad : {"} ,canonicalize{", "split-k=2} ,cse{",
                          "no-such-option=1", "split-k=many"}) {
    o.scheduleOptions = bad;
    std::string error = build(o, &fusion, &lowering);
    EXPECT_NE(error.find("--schedule-options='"), std::string::npos)
        << bad << ": " << error;
  }
}

TEST_F(DriverPipelines, GpuLoweringChecksItsOptions) {
  std::vector<std::string> fusion, lowering, cpuLowering;
  ASSERT_EQ(build(options, &fusion, &cpuLowering), "");
  CompileOptions o = options;
  o.target = "h200";
  ASSERT_EQ(build(o, &fusion, &lowering), "");
  EXPECT_NE(lowering, cpuLowering);
  // The kernels link the libdevice the build found, as the registered
  // fuse-to-nvptx does (the default is fuse's, wherever the options are
  // built).
  std::string text = loweringText(o, "bin");
  if (!getDefaultLibdevice().empty())
    EXPECT_NE(text.find(getDefaultLibdevice()), std::string::npos) << text;
  o.gpuFormat = "elf";
  EXPECT_NE(checkError(o), "");
}

} // namespace
