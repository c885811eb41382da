//===- Einsum.cpp - ONNX Einsum as reductions and one matmul --------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// An Einsum of one or two operands (the forms transformers and detection
// heads export: "bhqd,bhkd->bhqk", "bid,jd->bij", "...ij,...jk->...ik",
// "ij->ji", "bij->bj") becomes what fuse already fuses well: indices that
// only one operand has and the output lacks are summed out of it first,
// then the two operands are transposed and reshaped to [batch, M, K] and
// [batch, K, N] (indices in both and the output, in the first only, in
// both but not the output, in the second only) and multiplied by the
// MatMul path (a constant second operand stays a constant weight, so
// same-input merging and the epilogue rules see an ordinary GEMM), and the
// product is reshaped and transposed to the output's order. An index that
// repeats in one term ("ii->i", "bii->bi", the trace "ii") takes that
// operand's diagonal first: one copy whose input map reads the repeated
// dimensions at the same index.
//
//===----------------------------------------------------------------------===//

#include "ImporterImpl.h"

#include <cctype>

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::onnx_import;
using namespace mlir::fuse::onnx_import::detail;

namespace {
/// One term of the equation: an index label per dimension (letters as
/// themselves, the dimensions an ellipsis stands for as 256 + k, aligned
/// from the right).
using Labels = SmallVector<int>;
} // namespace

/// Parses one term of `eq` for an operand of `rank` dimensions (rank -1:
/// the output, whose ellipsis has `ellipsisRank` dimensions). Returns an
/// error message, or "" with `labels` filled.
static std::string parseTerm(StringRef term, int64_t rank,
                             int64_t &ellipsisRank, Labels &labels) {
  size_t dots = term.find("...");
  if (dots != StringRef::npos && term.find("...", dots + 3) != StringRef::npos)
    return "term '" + term.str() + "' has more than one ellipsis";
  StringRef before = dots == StringRef::npos ? term : term.take_front(dots);
  StringRef after = dots == StringRef::npos ? "" : term.drop_front(dots + 3);
  for (char c : (before + after).str())
    if (!std::isalpha(static_cast<unsigned char>(c)))
      return "term '" + term.str() + "' has '" + std::string(1, c) +
             "'; indices are letters (and one '...')";
  int64_t letters = before.size() + after.size();
  int64_t ell = 0;
  if (rank >= 0) {
    if (dots == StringRef::npos ? letters != rank : letters > rank)
      return "term '" + term.str() + "' does not match an operand of rank " +
             std::to_string(rank);
    if (dots != StringRef::npos) {
      ell = rank - letters;
      ellipsisRank = std::max(ellipsisRank, ell);
    }
  } else if (dots != StringRef::npos) {
    ell = ellipsisRank;
  }
  for (char c : before)
    labels.push_back(static_cast<unsigned char>(c));
  for (int64_t k = 0; k < ell; ++k)
    labels.push_back(256 + int(ellipsisRank - ell + k));
  for (char c : after)
    labels.push_back(static_cast<unsigned char>(c));
  return "";
}

static std::string labelName(int l) {
  return l >= 256 ? "... dimension " + std::to_string(l - 256)
                  : "'" + std::string(1, char(l)) + "'";
}

LogicalResult Importer::importEinsum() {
  FailureOr<std::string> equation = stringAttr("equation", "");
  if (failed(equation))
    return failure();
  std::string eq;
  for (char c : *equation)
    if (!std::isspace(static_cast<unsigned char>(c)))
      eq += c;
  int n = numInputs();
  if (n < 1 || n > 2)
    return error() << "Einsum of " << n
                   << " operands is not supported (one or two)",
           failure();
  StringRef lhs = eq, rhs;
  bool explicitOutput = false;
  if (size_t arrow = eq.find("->"); arrow != std::string::npos) {
    lhs = StringRef(eq).take_front(arrow);
    rhs = StringRef(eq).drop_front(arrow + 2);
    explicitOutput = true;
  }
  SmallVector<StringRef> terms;
  lhs.split(terms, ',');
  if (int(terms.size()) != n)
    return error() << "equation '" << *equation << "' has " << terms.size()
                   << " input terms for " << n << " operands",
           failure();
  int64_t ellipsisRank = 0;
  SmallVector<Labels> in(n);
  for (int k = 0; k < n; ++k)
    if (std::string e =
            parseTerm(terms[k], input(k)->shape.size(), ellipsisRank, in[k]);
        !e.empty())
      return error() << "equation '" << *equation << "': " << e, failure();
  // Sizes per label (a label repeated in one term, a diagonal, has one
  // size too).
  llvm::DenseMap<int, int64_t> size;
  llvm::DenseMap<int, int> count;
  for (int k = 0; k < n; ++k) {
    for (auto [d, l] : llvm::enumerate(in[k])) {
      int64_t s = input(k)->shape[d];
      auto [it, fresh] = size.try_emplace(l, s);
      if (!fresh && it->second != s)
        return error() << "equation '" << *equation << "': index "
                       << labelName(l) << " has sizes " << it->second << " and "
                       << s
                       << (it->second == 1 || s == 1
                               ? " (broadcasting a size-1 index is not "
                                 "supported)"
                               : ""),
               failure();
      ++count[l];
    }
  }
  Labels out;
  if (explicitOutput) {
    if (std::string e = parseTerm(rhs, -1, ellipsisRank, out); !e.empty())
      return error() << "equation '" << *equation << "': " << e, failure();
    llvm::DenseSet<int> seen;
    for (int l : out)
      if (!size.count(l) || !seen.insert(l).second)
        return error() << "equation '" << *equation << "': output index "
                       << labelName(l)
                       << (size.count(l) ? " repeats" : " is in no input"),
               failure();
  } else {
    // Implicit output: the ellipsis, then the indices that appear once, in
    // alphabetical order.
    for (int64_t k = 0; k < ellipsisRank; ++k)
      out.push_back(256 + int(k));
    SmallVector<int> once;
    for (auto [l, c] : count)
      if (c == 1 && l < 256)
        once.push_back(l);
    llvm::sort(once);
    out.append(once.begin(), once.end());
  }
  auto inOut = [&](int l) { return llvm::is_contained(out, l); };

  // Each operand's diagonal where a label repeats in its term: the
  // dimensions of the label's first occurrences, each element read where
  // every repeat of its label takes the same index.
  SmallVector<Entry> operands;
  for (int k = 0; k < n; ++k) {
    Entry e = *input(k);
    Labels unique;
    SmallVector<AffineExpr> reads;
    for (int l : in[k]) {
      auto at = llvm::find(unique, l);
      if (at == unique.end()) {
        reads.push_back(b.getAffineDimExpr(unique.size()));
        unique.push_back(l);
      } else {
        reads.push_back(b.getAffineDimExpr(at - unique.begin()));
      }
    }
    if (unique.size() != in[k].size()) {
      Value v = logical(e);
      Shape shape;
      for (int l : unique)
        shape.push_back(size[l]);
      int64_t rank = shape.size();
      Value init = tensor::EmptyOp::create(
          b, loc, shape, cast<RankedTensorType>(v.getType()).getElementType());
      SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, reads, ctx),
                                     b.getMultiDimIdentityMap(rank)};
      SmallVector<utils::IteratorType> iters(rank,
                                             utils::IteratorType::parallel);
      auto diagonal = linalg::GenericOp::create(
          b, loc, TypeRange{init.getType()}, ValueRange{v}, ValueRange{init},
          maps, iters, [](OpBuilder &nb, Location l, ValueRange args) {
            linalg::YieldOp::create(nb, l, args[0]);
          });
      e = result(diagonal.getResult(0), shape, false);
      in[k] = unique;
    }
    operands.push_back(e);
  }

  // Each operand: its own summed indices out first, then transposed to
  // `order` and viewed as `groups` (products of consecutive runs).
  auto prepare = [&](int k, ArrayRef<int> keep) -> Entry {
    Entry e = operands[k];
    Labels labels = in[k];
    // Sum the indices no other term and not the output has.
    for (int64_t d = int64_t(labels.size()) - 1; d >= 0; --d) {
      if (llvm::is_contained(keep, labels[d]))
        continue;
      Value v = reduce("sum", operandOf(e, e.shape.size(), floatType), d);
      Shape s = e.shape;
      s.erase(s.begin() + d);
      e = result(reshape(v, s), s, false);
      labels.erase(labels.begin() + d);
    }
    in[k] = labels;
    return e;
  };
  auto arrange = [&](Entry e, ArrayRef<int> labels,
                     ArrayRef<SmallVector<int>> groups) -> Entry {
    Shape perm, shape;
    for (ArrayRef<int> g : groups) {
      int64_t p = 1;
      for (int l : g) {
        perm.push_back(llvm::find(labels, l) - labels.begin());
        p *= size[l];
      }
      shape.push_back(p);
    }
    if (!e.value) {
      Entry r;
      r.host = e.host->converted(true).transposed(perm).reshaped(shape);
      r.shape = shape;
      return r;
    }
    return result(reshape(transpose(logical(e), perm), shape), shape, false);
  };

  Entry y;
  Labels yLabels;
  if (n == 1) {
    Entry a = prepare(0, out);
    y = a;
    yLabels = in[0];
  } else {
    Labels keepA, keepB;
    for (int l : in[0])
      if (inOut(l) || llvm::is_contained(in[1], l))
        keepA.push_back(l);
    for (int l : in[1])
      if (inOut(l) || llvm::is_contained(in[0], l))
        keepB.push_back(l);
    Entry a = prepare(0, keepA), c = prepare(1, keepB);
    SmallVector<int> batch, m, kk, nn;
    for (int l : in[0]) {
      bool inB = llvm::is_contained(in[1], l);
      (inB ? (inOut(l) ? batch : kk) : m).push_back(l);
    }
    for (int l : in[1])
      if (!llvm::is_contained(in[0], l))
        nn.push_back(l);
    Entry a3 = batch.empty() ? arrange(a, in[0], {m, kk})
                             : arrange(a, in[0], {batch, m, kk});
    Entry c3 = batch.empty() ? arrange(c, in[1], {kk, nn})
                             : arrange(c, in[1], {batch, kk, nn});
    if (failed(importMatMul(a3, c3, y)))
      return failure();
    Shape s;
    for (ArrayRef<int> g :
         {ArrayRef<int>(batch), ArrayRef<int>(m), ArrayRef<int>(nn)})
      for (int l : g) {
        s.push_back(size[l]);
        yLabels.push_back(l);
      }
    y = result(reshape(logical(y), s), s, false);
  }
  // To the output's order.
  Shape perm;
  for (int l : out)
    perm.push_back(llvm::find(yLabels, l) - yLabels.begin());
  Shape outShape;
  for (int l : out)
    outShape.push_back(size[l]);
  Value v = y.value ? logical(y) : constant(*y.host);
  return define(0, result(transpose(v, perm), outShape, false));
}
