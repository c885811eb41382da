//===- FusionReportTests.cpp - the report is made from remarks alone ------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// FusionReportBuilder is a consumer of fusion remarks: these tests feed it a
// remark stream made by hand (as any remark source could) and check the JSON
// report and the DOT picture it writes, without a plan or any IR.
//
//===----------------------------------------------------------------------===//

#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "fuse/Fusion/FusionRemarks.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/JSON.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::fuse;

namespace {

using Arg = FusionRemark::Arg;

class FusionReportTest : public ::testing::Test {
protected:
  FusionReportTest() { context.loadDialect<FuseDialect>(); }

  // The builders' own helpers for exact-valued arguments.
  Arg intArg(StringRef key, int64_t value) {
    return makeIntArg(&context, key, value);
  }
  Arg floatArg(StringRef key, double value) {
    return makeFloatArg(&context, key, value);
  }
  Arg listArg(StringRef key, ArrayRef<std::string> items) {
    return makeListArg(&context, key, items);
  }
  /// A `lowering_config` argument.
  Arg configArg(StringRef schedule, ArrayRef<int64_t> tile, int64_t threads) {
    Arg arg("lowering_config", "");
    arg.attr = LoweringConfigAttr::get(&context, schedule, tile, threads, "fma",
                                       "fp32", 0, 0, 0, CpuScheduleAttr());
    return arg;
  }
  /// A `dataflow` argument of `nodes`.
  Arg dataflowArg(ArrayRef<Attribute> nodes) {
    Arg arg("dataflow", "");
    arg.attr = ArrayAttr::get(&context, nodes);
    return arg;
  }
  DictionaryAttr node(int64_t number, StringRef op, ArrayRef<int64_t> inputs) {
    Builder b(&context);
    return b.getDictionaryAttr(
        {b.getNamedAttr("node", b.getI64IntegerAttr(number)),
         b.getNamedAttr("op", b.getStringAttr(op)),
         b.getNamedAttr("type", TypeAttr::get(RankedTensorType::get(
                                    {4, 8}, b.getF32Type()))),
         b.getNamedAttr("inputs", b.getDenseI64ArrayAttr(inputs))});
  }
  FusionRemark make(remark::RemarkKind kind, StringRef name, StringRef function,
                    StringRef category = "fuse") {
    return FusionRemark(kind, DiagnosticSeverity::Remark,
                        UnknownLoc::get(&context),
                        remark::RemarkOpts::name(name)
                            .category(category)
                            .subCategory("x")
                            .function(function));
  }

  /// One function: a group of two ops (matmul + relu) with a lowering
  /// config, its merge, one op left alone, one refusal, the totals.
  std::vector<FusionRemark> stream() {
    std::vector<FusionRemark> remarks;
    FusionRemark &group = remarks.emplace_back(
        make(remark::RemarkKind::RemarkPassed, "group", "f"));
    group.insert(intArg("group", 0));
    group.insert(Arg("rule", "contraction_epilogue"));
    group.insert(Arg("kind", "vertical"));
    group.insert(Arg("anchor", "linalg.matmul@a.mlir:3:5"));
    group.insert(listArg(
        "ops", {"linalg.matmul@a.mlir:3:5", "linalg.generic@a.mlir:4:5"}));
    group.insert(intArg("bytes", 1000));
    group.insert(intArg("bytes_saved", 256));
    group.insert(floatArg("time_saved_us", 0.125));
    group.insert(intArg("flops", 4096));
    group.insert(floatArg("intensity", 4.096));
    group.insert(Arg("bound", "memory"));
    group.insert(configArg("contraction", {32, 32, 0}, 128));
    group.insert(intArg("blocks", 7));
    group.insert(floatArg("predicted_us", 2.5));
    group.insert(Arg("predicted_bound", "dram"));
    group.insert(dataflowArg(
        {node(0, "linalg.matmul", {}), node(1, "linalg.generic", {0})}));
    FusionRemark &merge = remarks.emplace_back(
        make(remark::RemarkKind::RemarkPassed, "merge", "f"));
    merge.insert(intArg("group", 0));
    merge.insert(Arg("rule", "contraction_epilogue"));
    merge.insert(Arg("candidate", "linalg.generic@a.mlir:4:5"));
    FusionRemark &alone = remarks.emplace_back(
        make(remark::RemarkKind::RemarkAnalysis, "alone", "f"));
    alone.insert(intArg("group", 1));
    alone.insert(Arg("kind", "single"));
    alone.insert(listArg("ops", {"linalg.reduce@a.mlir:5:5"}));
    alone.insert(listArg("reasons", {"row_reduction refused by memory: big"}));
    alone.insert(floatArg("predicted_us", 1.0));
    alone.insert(configArg("reduction", {1, 0}, 256));
    alone.insert(dataflowArg({node(2, "linalg.reduce", {1})}));
    FusionRemark &refused = remarks.emplace_back(
        make(remark::RemarkKind::RemarkMissed, "refused", "f"));
    refused.insert(Arg("rule", "row_reduction"));
    refused.insert(Arg("check", "memory"));
    refused.insert(Arg("anchor", "linalg.matmul@a.mlir:3:5"));
    refused.insert(Arg("candidate", "linalg.reduce@a.mlir:5:5"));
    refused.insert(Arg("Reason", "big"));
    // A remark of another category is not the report's business.
    FusionRemark &other = remarks.emplace_back(
        make(remark::RemarkKind::RemarkPassed, "group", "f", "other"));
    other.insert(intArg("group", 9));
    FusionRemark &summary = remarks.emplace_back(
        make(remark::RemarkKind::RemarkAnalysis, "function", "f"));
    summary.insert(intArg("kernels_before", 3));
    summary.insert(intArg("kernels_after", 2));
    summary.insert(intArg("bytes_before", 1500));
    summary.insert(intArg("bytes_after", 1200));
    summary.insert(intArg("arena", 512));
    summary.insert(intArg("max_live", 256));
    summary.insert(Arg("strategy", "greedy"));
    return remarks;
  }

  FusionPolicy policy() {
    FusionPolicy p;
    p.target = TargetAttr::getPreset(&context, "h200");
    return p;
  }

  MLIRContext context;
};

TEST_F(FusionReportTest, JsonIsMadeFromTheRemarks) {
  FusionReportBuilder builder;
  for (const FusionRemark &remark : stream())
    builder.consume(remark);
  std::string text;
  llvm::raw_string_ostream os(text);
  builder.writeJSON(os, policy());
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  const llvm::json::Object &root = *parsed->getAsObject();
  const llvm::json::Array &functions = *root.getArray("functions");
  ASSERT_EQ(functions.size(), 1u);
  const llvm::json::Object &fn = *functions[0].getAsObject();
  EXPECT_EQ(*fn.getString("name"), "f");
  EXPECT_EQ(*fn.getInteger("kernels_before"), 3);
  EXPECT_EQ(*fn.getInteger("kernels_after"), 2);
  EXPECT_DOUBLE_EQ(*fn.getNumber("predicted_us"), 3.5);
  EXPECT_DOUBLE_EQ(*fn.getObject("memory")->getNumber("ratio"), 2.0);
  const llvm::json::Array &groups = *fn.getArray("groups");
  ASSERT_EQ(groups.size(), 2u); // the other category's group is not there
  const llvm::json::Object &group = *groups[0].getAsObject();
  EXPECT_EQ(*group.getString("rule"), "contraction_epilogue");
  EXPECT_EQ(group.getArray("ops")->size(), 2u);
  // The steps are the merge remarks.
  ASSERT_EQ(group.getArray("steps")->size(), 1u);
  EXPECT_EQ(*(*group.getArray("steps"))[0].getAsString(),
            "contraction_epilogue: linalg.generic@a.mlir:4:5");
  EXPECT_DOUBLE_EQ(*group.getNumber("time_saved_us"), 0.125);
  EXPECT_EQ(*group.getObject("lowering_config")->getInteger("threads"), 128);
  EXPECT_EQ(*group.getObject("lowering_config")->getInteger("blocks"), 7);
  EXPECT_EQ(*group.getObject("predicted")->getString("bound"), "dram");
  const llvm::json::Array &rejected = *fn.getArray("rejected");
  ASSERT_EQ(rejected.size(), 1u);
  EXPECT_EQ(*rejected[0].getAsObject()->getString("check"), "memory");
  EXPECT_EQ(*rejected[0].getAsObject()->getString("reason"), "big");
  const llvm::json::Array &alone = *fn.getArray("left_alone");
  ASSERT_EQ(alone.size(), 1u);
  EXPECT_EQ(*alone[0].getAsObject()->getString("op"),
            "linalg.reduce@a.mlir:5:5");
  EXPECT_EQ(alone[0].getAsObject()->getArray("reasons")->size(), 1u);
  EXPECT_EQ(*root.getObject("totals")->getInteger("bytes_after"), 1200);
}

TEST_F(FusionReportTest, DotIsMadeFromTheRemarks) {
  FusionReportBuilder builder;
  // Two functions: the second one's nodes are numbered after the first's.
  for (int i = 0; i < 2; ++i)
    for (const FusionRemark &remark : stream())
      builder.consume(remark);
  std::string dot;
  llvm::raw_string_ostream os(dot);
  builder.writeDOT(os);
  EXPECT_NE(dot.find("subgraph cluster_g0_0"), std::string::npos);
  EXPECT_NE(dot.find("label=\"group 0: vertical (contraction_epilogue)\""),
            std::string::npos);
  EXPECT_NE(dot.find("n1 [label=\"linalg.generic\\ntensor<4x8xf32>\"]"),
            std::string::npos);
  EXPECT_NE(dot.find("  n0 -> n1;\n"), std::string::npos);
  EXPECT_NE(dot.find("  n1 -> n2;\n"), std::string::npos);
  EXPECT_NE(dot.find("subgraph cluster_g1_1"), std::string::npos);
  EXPECT_NE(dot.find("  n3 -> n4;\n"), std::string::npos);
  EXPECT_NE(dot.find("  n4 -> n5;\n"), std::string::npos);
  EXPECT_EQ(dot.find("n6"), std::string::npos);
}

TEST_F(FusionReportTest, UnfinishedFunctionIsNotReported) {
  // Remarks of a function whose `function` remark never came are held back.
  FusionReportBuilder builder;
  std::vector<FusionRemark> remarks = stream();
  for (size_t i = 0; i + 1 < remarks.size(); ++i)
    builder.consume(remarks[i]);
  std::string text;
  llvm::raw_string_ostream os(text);
  builder.writeJSON(os, policy());
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  ASSERT_TRUE(bool(parsed));
  EXPECT_EQ(parsed->getAsObject()->getArray("functions")->size(), 0u);
}

} // namespace
