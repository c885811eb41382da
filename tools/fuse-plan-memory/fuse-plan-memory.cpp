//===- fuse-plan-memory.cpp - the memory planner on buffer traces ---------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// Reads a trace (CSV, header `start,end,size`, inclusive lifetimes, one
// buffer per row; at most 1 GiB and 2^24 rows), plans it, and prints the
// buffers, the naive sum, the max-live bound, the arena of every strategy, the
// chosen arena and its ratio to the bound.
//
//===----------------------------------------------------------------------===//

#include "fuse/Dialect/Fuse/Utils/ToolFiles.h"
#include "fuse/Memory/MemoryPlanner.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace fuse::planner;

static llvm::cl::OptionCategory category("fuse-plan-memory options");

static llvm::cl::opt<std::string> input(llvm::cl::cat(category),
                                        llvm::cl::Positional,
                                        llvm::cl::desc("<trace.csv>"),
                                        llvm::cl::Required);
static llvm::cl::opt<int64_t>
    alignment(llvm::cl::cat(category), "alignment",
              llvm::cl::desc("Offset alignment in bytes"), llvm::cl::init(1));
static llvm::cl::opt<int64_t> budget(
    llvm::cl::cat(category), "search-budget",
    llvm::cl::desc("Work budget of the searches (a third to the exact "
                   "search, the rest to the local search: buffers placed "
                   "plus conflicts looked at; a count, so plans do not "
                   "depend on the machine; 0: no search)"),
    llvm::cl::init(kDefaultSearchBudget));
static llvm::cl::opt<uint64_t> seed(llvm::cl::cat(category), "seed",
                                    llvm::cl::desc("Search seed"),
                                    llvm::cl::init(0));
static llvm::cl::opt<bool> json(llvm::cl::cat(category), "json",
                                llvm::cl::desc("Print one JSON object"));
static llvm::cl::opt<std::string>
    offsetsFile(llvm::cl::cat(category), "offsets",
                llvm::cl::desc("Write the plan as CSV start,end,size,offset"),
                llvm::cl::init(""));

static int fail(const llvm::Twine &message) {
  llvm::errs() << "fuse-plan-memory: " << message << "\n";
  return 1;
}

/// A trace is at most this large (a row is at least 6 bytes: "0,0,0\n").
static constexpr uint64_t kMaxTraceBytes = uint64_t(1) << 30;

int main(int argc, char **argv) {
  // --help shows the planner's options, not every option of the LLVM
  // libraries linked in (--help-hidden has them).
  llvm::cl::HideUnrelatedOptions(category);
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "fuse static memory planner on traces\n");
  if (alignment < 1)
    return fail("--alignment must be at least 1, not " +
                llvm::Twine(int64_t(alignment)));
  if (budget < 0)
    return fail("--search-budget must be 0 or more, not " +
                llvm::Twine(int64_t(budget)));
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file =
      mlir::fuse::readToolInput(input, &error, kMaxTraceBytes);
  if (!file)
    return fail(error);

  // One pass over the text, no copy of its lines: a trace may have millions
  // of rows.
  std::vector<Buffer> buffers;
  std::vector<uint32_t> lineOf; // line number of each buffer
  llvm::StringRef rest = file->getBuffer();
  bool header = false;
  for (uint64_t number = 1; !rest.empty(); ++number) {
    auto [line, tail] = rest.split('\n');
    rest = tail;
    line = line.trim();
    if (line.empty())
      continue;
    if (!header) {
      if (line != "start,end,size")
        return fail("line " + llvm::Twine(number) +
                    ": expected the header 'start,end,size', got '" +
                    line.take_front(80) + "'");
      header = true;
      continue;
    }
    if (buffers.size() == kMaxBuffers)
      return fail("line " + llvm::Twine(number) + ": the trace has more than " +
                  llvm::Twine(uint64_t(kMaxBuffers)) +
                  " buffers, the most the planner takes");
    Buffer b;
    auto [first, afterFirst] = line.split(',');
    auto [second, third] = afterFirst.split(',');
    if (third.contains(',') || first.trim().getAsInteger(10, b.start) ||
        second.trim().getAsInteger(10, b.end) ||
        third.trim().getAsInteger(10, b.size))
      return fail("line " + llvm::Twine(number) +
                  ": expected three integers start,end,size, got '" +
                  line.take_front(80) + "'");
    buffers.push_back(b);
    lineOf.push_back(number > UINT32_MAX ? UINT32_MAX : uint32_t(number));
  }
  if (!header)
    return fail("'" + input +
                "' is empty: expected the header "
                "'start,end,size' and one row per buffer");
  if (buffers.empty())
    return fail("'" + input + "' has the header but no buffers");
  size_t where = 0;
  if (!validate(buffers, &error, alignment, &where)) {
    if (where < buffers.size())
      return fail("line " + llvm::Twine(lineOf[where]) + ": " + error);
    return fail(error);
  }
  lineOf = {};

  Options options;
  options.alignment = alignment;
  options.searchBudget = budget;
  options.seed = seed;
  Plan result = plan(buffers, options);
  if (!verify(buffers, result, alignment, &error))
    return fail("internal error: the plan is invalid: " + error);
  double ratio = result.maxLive ? double(result.arena) / result.maxLive : 1.0;
  double boundRatio =
      result.lowerBound ? double(result.arena) / result.lowerBound : 1.0;

  if (!offsetsFile.empty()) {
    std::error_code ec;
    llvm::ToolOutputFile out(offsetsFile, ec, llvm::sys::fs::OF_None);
    if (ec)
      return fail("cannot write '" + offsetsFile + "': " + ec.message());
    out.os() << "start,end,size,offset\n";
    for (auto [b, offset] : llvm::zip(buffers, result.offsets))
      out.os() << b.start << "," << b.end << "," << b.size << "," << offset
               << "\n";
    if (std::error_code ec = mlir::fuse::keepToolOutput(out))
      return fail("cannot write '" + offsetsFile + "': " + ec.message());
  }

  if (json) {
    llvm::json::OStream out(llvm::outs(), 2);
    out.object([&] {
      out.attribute("buffers", int64_t(buffers.size()));
      out.attribute("naive", result.naive);
      out.attribute("max_live", result.maxLive);
      out.attribute("lower_bound", result.lowerBound);
      out.attribute("optimal", result.arena == result.lowerBound);
      out.attribute("arena", result.arena);
      out.attribute("ratio", ratio);
      out.attribute("bound_ratio", boundRatio);
      out.attribute("strategy", result.strategy);
      out.attribute("plan_ms", result.planMs);
      out.attributeObject("strategies", [&] {
        for (const StrategyResult &s : result.strategies)
          out.attribute(s.name, s.arena);
      });
    });
    llvm::outs() << "\n";
  } else {
    llvm::outs() << "buffers:  " << buffers.size() << "\n"
                 << "naive:    " << result.naive << " B\n"
                 << "max-live: " << result.maxLive << " B\n";
    if (result.lowerBound > result.maxLive)
      llvm::outs() << "bound:    " << result.lowerBound
                   << " B (no smaller arena exists)\n";
    for (const StrategyResult &s : result.strategies)
      llvm::outs() << "  " << s.name << ": " << s.arena << " B\n";
    llvm::outs() << "arena:    " << result.arena << " B (" << result.strategy
                 << ")\n"
                 << "ratio:    " << llvm::format("%.4f", ratio)
                 << " of max-live"
                 << (result.arena == result.lowerBound ? " (optimal)" : "")
                 << "\n";
    if (result.lowerBound > result.maxLive)
      llvm::outs() << "          " << llvm::format("%.4f", boundRatio)
                   << " of the bound\n";
    llvm::outs() << "time:     " << llvm::format("%.1f", result.planMs)
                 << " ms\n";
  }
  // A failed write to standard output (a full disk, /dev/full) is an error
  // that says so, not a fatal one at exit.
  llvm::outs().flush();
  if (std::error_code ec = llvm::outs().error()) {
    llvm::outs().clear_error();
    return fail("cannot write the result to standard output: " + ec.message());
  }
  return 0;
}
