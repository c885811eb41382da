//===- Passes.td - memory planning between kernels ---------*- tablegen -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_MEMORY_PASSES_TD
#define FUSE_MEMORY_PASSES_TD

include "mlir/Pass/PassBase.td"

def FuseHoistGroupScratch : Pass<"fuse-hoist-group-scratch", "::mlir::ModuleOp"> {
  let summary = "A group function's scratch buffers become its caller's, "
                "so the arena holds them";
  let description = [{
    On the CPU a group function (made by `fuse-outline-groups`, marked
    `fuse.kind`) computes its ops one after another, and bufferization
    gives each intermediate a `memref.alloc` that the function frees before
    it returns: a `malloc` and `free` per call, and for large buffers fresh
    pages to fault in on every call. This pass makes each such buffer a new
    trailing argument of the function, allocated by every caller just
    before the call and freed just after it, where `fuse-plan-buffers`
    places it in the arena with the buffers between kernels (it lives for
    the call only, so it shares memory with the others).

    A buffer moves when it is allocated at the top of the function's body
    with a static shape, the identity layout and no memory space, is freed
    there by plain `memref.dealloc`s and nowhere else, and never leaves the
    function (returned, yielded, or turned into another memref by an op
    that is not a view); the function must be private and used only by
    `func.call`s. Others stay (an allocation inside a loop is made per
    iteration). Functions marked `fuse.no_plan` are left alone.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def FusePlanBuffers : Pass<"fuse-plan-buffers", "::mlir::ModuleOp"> {
  let summary = "Place the buffers between kernels in one arena";
  let description = [{
    Runs on host functions after bufferization, when the buffers that
    kernels pass each other are `memref.alloc`s of the function (use
    `buffer-results-to-out-params` so that callees do not allocate their
    results). Each such buffer gets a live interval over the function's ops
    (its first to its last use, through views and casts); a buffer that is
    returned escapes and is not planned. The static planner (see
    `fuse-plan-memory`) packs the intervals into ONE arena with `alignment`,
    and every planned allocation becomes a `memref.view` into it; their
    deallocations go.

    In-place reuse: when an elementwise-only group function (the output of
    `fuse-outline-groups`) is the last user of an input buffer of the same
    type as its output buffer, the output takes the input's memory.

    `workspace=alloc` allocates the arena in the function; with
    `workspace=argument` the arena is a new trailing function argument and
    `@<function>_workspace_bytes() -> index` returns its size, so the caller
    owns the memory (TensorRT-style workspace). The numbers go on the
    function as `fuse.memory = {naive, arena, max_live, in_place_bytes,
    strategy}`. Functions marked `fuse.no_plan` are left alone.

    Before:
    ```mlir
    %a = memref.alloc() : memref<64xf32>
    call @f__group0(%x, %a) : (memref<64xf32>, memref<64xf32>) -> ()
    %b = memref.alloc() : memref<64xf32>
    call @f__group1(%a, %b) : (memref<64xf32>, memref<64xf32>) -> ()
    ```
    After (`workspace=alloc`):
    ```mlir
    %arena = memref.alloc() {alignment = 256 : i64} : memref<512xi8>
    %a = memref.view %arena[%c0][] : memref<512xi8> to memref<64xf32>
    ...
    ```
  }];
  let options = [
    Option<"alignment", "alignment", "int64_t", /*default=*/"256",
           "Alignment of every buffer in the arena, in bytes">,
    Option<"workspace", "workspace", "std::string", /*default=*/"\"alloc\"",
           "alloc: the function allocates the arena; argument: the caller "
           "passes it">,
    Option<"inPlace", "in-place", "bool", /*default=*/"true",
           "Let elementwise groups write over an input they read last">,
    Option<"searchBudget", "search-budget", "int64_t",
           /*default=*/"::fuse::planner::kDefaultSearchBudget",
           "Work budget of the planner's searches (exact and local; a "
           "count, so the plan does not depend on the machine)">,
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

#endif // FUSE_MEMORY_PASSES_TD
