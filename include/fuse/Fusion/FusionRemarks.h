//===- FusionRemarks.h - fusion decisions as remarks, and their consumers -===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// Every decision fuse-form-groups makes is an MLIR remark of category "fuse"
// (mlir/IR/Remarks.h). One function's plan becomes, in this order:
//
//   passed   group    one per group of two or more ops: the rule, kind, ops,
//                     bytes, roofline, lowering config and predicted time
//   passed   merge    one per merge, after its group: the rule and the op
//                     it took in
//   analysis alone    one per op left as a kernel of its own, with the
//                     group's numbers and the reasons it stayed alone
//   missed   refused  one per candidate a check refused: rule, check,
//                     anchor, candidate and the reason with its numbers
//   analysis function the function's totals (kernels and bytes before and
//                     after) and the buffers left between its kernels
//
// The decisions are the passed and missed remarks
// (`--remarks-filter-passed=fuse --remarks-filter-missed=fuse`); the
// analysis remarks carry the numbers around them.
//
// Numbers, lists and configs are arguments whose attribute holds the exact
// value (an IntegerAttr, a FloatAttr, an ArrayAttr, the lowering config), so
// a consumer reads them without parsing text. The JSON report, the text
// summary made from it and the DOT graph are built only from these remarks
// (FusionReportBuilder); an embedder's own remark streamer sees the same
// stream through the context's remark engine.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_FUSION_FUSIONREMARKS_H
#define FUSE_FUSION_FUSIONREMARKS_H

#include "fuse/Fusion/FusionEngine.h"
#include "mlir/IR/Remarks.h"

#include <string>
#include <vector>

namespace mlir::fuse {

/// A fusion remark (a plain MLIR remark).
using FusionRemark = remark::detail::Remark;

/// Remark arguments whose attribute holds the exact value, printed as usual:
/// an i64 IntegerAttr, an f64 FloatAttr, an ArrayAttr of strings (printed
/// joined by ", "). The builders make them; FusionReportBuilder reads them.
FusionRemark::Arg makeIntArg(MLIRContext *context, StringRef key,
                             int64_t value);
FusionRemark::Arg makeFloatArg(MLIRContext *context, StringRef key,
                               double value);
FusionRemark::Arg makeListArg(MLIRContext *context, StringRef key,
                              ArrayRef<std::string> items);

/// Appends the remarks of `plan` (see the file comment) to `out`. The remarks
/// refer to `plan`'s strings (function, rule and check names): `plan` must
/// outlive them.
void buildFusionRemarks(const FunctionPlan &plan, TargetAttr target,
                        std::vector<FusionRemark> &out);

/// Whether the context's remark engine takes any fusion remark (category
/// "fuse", of any kind its filters may select). A tool may install an
/// engine whose filters take nothing (fuse-opt without --remarks-filter):
/// then the remarks of a 10^6-op graph are not built for nobody.
bool fusionRemarksEnabled(MLIRContext *context);

/// Hands `remarks` to the context's remark engine, whose filters and
/// streamer apply; nothing when the context has none.
void streamFusionRemarks(MLIRContext *context, ArrayRef<FusionRemark> remarks);

/// A consumer of fusion remarks: takes them one at a time, in the order they
/// were made, and writes the JSON report and the DOT picture of the fused
/// graph from them alone. Remarks of other categories are ignored.
class FusionReportBuilder {
public:
  FusionReportBuilder();
  ~FusionReportBuilder();
  FusionReportBuilder(const FusionReportBuilder &) = delete;
  FusionReportBuilder &operator=(const FusionReportBuilder &) = delete;

  /// Takes one remark. A function's remarks end with its `function` remark.
  void consume(const FusionRemark &remark);

  /// The report as JSON: the target and policy, per function every group
  /// (rule, kind, ops, merges, bytes, roofline, config, predicted time),
  /// every refusal with its check and numbers, every op left alone with its
  /// reasons, the memory estimate, and the totals.
  void writeJSON(raw_ostream &os, const FusionPolicy &policy) const;

  /// The fused graph as Graphviz DOT: one cluster per group, coloured by
  /// kind, with the dataflow edges between ops.
  void writeDOT(raw_ostream &os) const;

  struct Function;

private:
  std::vector<Function> functions;
  /// The remarks of the function not yet closed by its `function` remark.
  std::unique_ptr<Function> pending;
};

} // namespace mlir::fuse

#endif // FUSE_FUSION_FUSIONREMARKS_H
