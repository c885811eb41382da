//===- Describe.cpp - how reports and diagnostics name an op --------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Dialect/Fuse/Utils/Describe.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

using namespace mlir;

bool mlir::fuse::findInLocation(Location loc,
                                llvm::function_ref<bool(Location)> found) {
  SmallVector<Location> worklist = {loc};
  while (!worklist.empty()) {
    Location l = worklist.pop_back_val();
    if (found(l))
      return true;
    if (auto name = dyn_cast<NameLoc>(l))
      worklist.push_back(name.getChildLoc());
    else if (auto fused = dyn_cast<FusedLoc>(l))
      for (Location inner : llvm::reverse(fused.getLocations()))
        worklist.push_back(inner);
    else if (auto callsite = dyn_cast<CallSiteLoc>(l))
      worklist.push_back(callsite.getCallee());
  }
  return false;
}

std::string mlir::fuse::describeOp(Operation *op) {
  std::string out = op->getName().getStringRef().str();
  // The first name or file location in the op's location. A name (an ONNX
  // node's, which the importer puts around the model file's location) is
  // what a user knows the op by: "linalg.matmul@MatMul_12".
  findInLocation(op->getLoc(), [&](Location l) {
    if (auto name = dyn_cast<NameLoc>(l); name && !name.getName().empty()) {
      out += "@" + name.getName().str();
      return true;
    }
    if (auto file = dyn_cast<FileLineColLoc>(l)) {
      out += llvm::formatv("@{0}:{1}:{2}",
                           llvm::sys::path::filename(file.getFilename()),
                           file.getLine(), file.getColumn());
      return true;
    }
    return false;
  });
  return out;
}

std::string mlir::fuse::describeShape(llvm::ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(shape, os, "x");
  return text;
}
