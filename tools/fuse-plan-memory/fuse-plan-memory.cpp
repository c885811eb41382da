//===- fuse-plan-memory.cpp - the memory planner on buffer traces ---------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// Reads a trace (CSV, header `start,end,size`, inclusive lifetimes, one
// buffer per row), plans it, and prints the buffers, the naive sum, the
// max-live bound, the arena of every strategy, the chosen arena and its
// ratio to the bound.
//
//===----------------------------------------------------------------------===//

#include "fuse/Memory/MemoryPlanner.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
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
static llvm::cl::opt<double>
    budget(llvm::cl::cat(category), "time-budget-ms",
           llvm::cl::desc("Local search budget in milliseconds"),
           llvm::cl::init(1000.0));
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

int main(int argc, char **argv) {
  // --help shows the planner's options, not every option of the LLVM
  // libraries linked in (--help-hidden has them).
  llvm::cl::HideUnrelatedOptions(category);
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "fuse static memory planner on traces\n");
  auto file = llvm::MemoryBuffer::getFileOrSTDIN(input);
  if (!file)
    return fail("cannot read '" + input + "': " + file.getError().message());
  if (alignment < 1)
    return fail("--alignment must be at least 1");

  std::vector<Buffer> buffers;
  llvm::SmallVector<llvm::StringRef> lines;
  (*file)->getBuffer().split(lines, '\n', -1, /*KeepEmpty=*/false);
  for (auto [number, line] : llvm::enumerate(lines)) {
    line = line.trim();
    if (line.empty())
      continue;
    if (number == 0) {
      if (line != "start,end,size")
        return fail("line 1: expected the header 'start,end,size', got '" +
                    line + "'");
      continue;
    }
    llvm::SmallVector<llvm::StringRef> fields;
    line.split(fields, ',');
    Buffer b;
    if (fields.size() != 3 || fields[0].trim().getAsInteger(10, b.start) ||
        fields[1].trim().getAsInteger(10, b.end) ||
        fields[2].trim().getAsInteger(10, b.size))
      return fail("line " + llvm::Twine(number + 1) +
                  ": expected three integers start,end,size, got '" + line +
                  "'");
    buffers.push_back(b);
  }
  std::string error;
  if (!validate(buffers, &error))
    return fail(error);

  Options options;
  options.alignment = alignment;
  options.timeBudgetMs = budget;
  options.seed = seed;
  Plan result = plan(buffers, options);
  if (!verify(buffers, result, alignment, &error))
    return fail("internal error: the plan is invalid: " + error);
  double ratio = result.maxLive ? double(result.arena) / result.maxLive : 1.0;

  if (!offsetsFile.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream os(offsetsFile, ec);
    if (ec)
      return fail("cannot write '" + offsetsFile + "': " + ec.message());
    os << "start,end,size,offset\n";
    for (auto [b, offset] : llvm::zip(buffers, result.offsets))
      os << b.start << "," << b.end << "," << b.size << "," << offset << "\n";
  }

  if (json) {
    llvm::json::OStream out(llvm::outs(), 2);
    out.object([&] {
      out.attribute("buffers", int64_t(buffers.size()));
      out.attribute("naive", result.naive);
      out.attribute("max_live", result.maxLive);
      out.attribute("arena", result.arena);
      out.attribute("ratio", ratio);
      out.attribute("strategy", result.strategy);
      out.attribute("plan_ms", result.planMs);
      out.attributeObject("strategies", [&] {
        for (const StrategyResult &s : result.strategies)
          out.attribute(s.name, s.arena);
      });
    });
    llvm::outs() << "\n";
    return 0;
  }
  llvm::outs() << "buffers:  " << buffers.size() << "\n"
               << "naive:    " << result.naive << " B\n"
               << "max-live: " << result.maxLive << " B\n";
  for (const StrategyResult &s : result.strategies)
    llvm::outs() << "  " << s.name << ": " << s.arena << " B\n";
  llvm::outs() << "arena:    " << result.arena << " B (" << result.strategy
               << ")\n"
               << "ratio:    " << llvm::format("%.4f", ratio)
               << " of max-live\n"
               << "time:     " << llvm::format("%.1f", result.planMs)
               << " ms\n";
  return 0;
}
