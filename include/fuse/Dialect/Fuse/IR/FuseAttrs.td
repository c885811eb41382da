//===- FuseAttrs.td - fuse attributes and enums ------------*- tablegen -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_DIALECT_FUSE_IR_FUSEATTRS_TD
#define FUSE_DIALECT_FUSE_IR_FUSEATTRS_TD

include "fuse/Dialect/Fuse/IR/FuseDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/Dialect/SCF/IR/DeviceMappingInterface.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Fuse_FusionKind : I32EnumAttr<"FusionKind", "how the ops of a group were fused", [
    I32EnumAttrCase<"single", 0>,
    I32EnumAttrCase<"vertical", 1>,
    I32EnumAttrCase<"horizontal", 2>,
    I32EnumAttrCase<"diagonal", 3>,
    I32EnumAttrCase<"composite", 4>]> {
  let cppNamespace = "::mlir::fuse";
  let genSpecializedAttr = 0;
}

def Fuse_FusionKindAttr : EnumAttr<Fuse_Dialect, Fuse_FusionKind, "kind"> {
  let assemblyFormat = "`<` $value `>`";
  let summary = "the kind of fusion that formed a group";
  let description = [{
    * `single`: one compute op, not fused with anything;
    * `vertical`: producers fused into their consumers;
    * `horizontal`: siblings that read the same input, or independent
      kernels sharing one launch;
    * `diagonal`: across branches (a residual join in a contraction epilogue,
      branches written straight into their slice of a concat);
    * `composite`: a mix of the above, e.g. attention.
  }];
}

def Fuse_OpCategory : I32EnumAttr<"OpCategory", "how an op's outputs depend on its inputs", [
    I32EnumAttrCase<"elementwise", 0>,
    I32EnumAttrCase<"broadcast", 1>,
    I32EnumAttrCase<"injective", 2>,
    I32EnumAttrCase<"reduction", 3>,
    I32EnumAttrCase<"contraction", 4>,
    I32EnumAttrCase<"opaque", 5>]> {
  let cppNamespace = "::mlir::fuse";
  let genSpecializedAttr = 0;
}

def Fuse_OpCategoryAttr : EnumAttr<Fuse_Dialect, Fuse_OpCategory, "category"> {
  let assemblyFormat = "`<` $value `>`";
  let summary = "the fusion category of an op";
  let description = [{
    * `elementwise`: each output element depends on the input elements at the
      same index (all iterators parallel, identity indexing maps);
    * `broadcast`: like elementwise, but some input is read with fewer or
      size-1 dimensions;
    * `injective`: data movement with a non-identity, one-to-one index map
      (transpose, slice, concat, pad, reshape, gather);
    * `reduction`: some iterator reduces (sum, max, pooling, softmax);
    * `contraction`: a multiply-accumulate reduction whose output can take an
      elementwise epilogue (matmul, batch matmul, convolutions);
    * `opaque`: anything fuse cannot see into.
  }];
}

//===----------------------------------------------------------------------===//
// #fuse.target
//===----------------------------------------------------------------------===//

def Fuse_TargetAttr : AttrDef<Fuse_Dialect, "Target"> {
  let mnemonic = "target";
  let summary = "the GPU that fusion decisions are made for";
  let description = [{
    Describes one GPU: the numbers the legality checks and the cost model read.
    A named preset gives all of them:

    ```mlir
    #fuse.target<"h200">
    ```

    Any field can then be overridden, and a custom target names itself and
    sets every field:

    ```mlir
    #fuse.target<"h100", smem_per_block = 49152>
    #fuse.target<"mygpu", arch = "sm_86", sms = 84, smem_per_block = 101376,
                 smem_per_sm = 102400, l2_bytes = 6291456, regs_per_sm = 65536,
                 max_threads_per_block = 1024, dram_gbps = 936.0,
                 launch_us = 3.0, peak_tflops = {f32 = 35.6, f16 = 71.0}>
    ```

    | field | meaning |
    |---|---|
    | `arch` | `sm_XX` compute capability (sm_50 ... sm_121) |
    | `sms` | streaming multiprocessors |
    | `smem_per_block` | bytes of shared memory one block may use (opt-in maximum) |
    | `smem_per_sm` | bytes of shared memory per SM |
    | `l2_bytes` | L2 cache size in bytes |
    | `regs_per_sm` | 32-bit registers per SM |
    | `max_threads_per_block` | threads per block |
    | `dram_gbps` | DRAM bandwidth in GB/s (10^9 bytes per second) |
    | `launch_us` | cost of one kernel launch in microseconds |
    | `peak_tflops` | dense peak TFLOP/s (TOP/s for integers) per element type: keys `f64`, `f32`, `tf32`, `f16`, `bf16`, `f8`, `i8` |

    Presets: t4, v100, a100, h100, h200, orin, jetson-nano. A preset with
    overrides prints only the fields that differ from the preset.
  }];
  let parameters = (ins
    StringRefParameter<"target name (a preset name or a custom one)">:$name,
    StringRefParameter<"compute capability, e.g. sm_90">:$arch,
    "int64_t":$numSMs,
    "int64_t":$sharedMemPerBlock,
    "int64_t":$sharedMemPerSM,
    "int64_t":$l2Bytes,
    "int64_t":$registersPerSM,
    "int64_t":$maxThreadsPerBlock,
    APFloatParameter<"DRAM bandwidth, GB/s">:$dramGBps,
    APFloatParameter<"kernel launch cost, microseconds">:$launchMicros,
    "::mlir::DictionaryAttr":$peakTflops
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Returns the attribute for the named preset, or a null attribute when
    /// `name` is not a preset.
    static TargetAttr getPreset(::mlir::MLIRContext *context,
                                ::llvm::StringRef name);
    /// Resolves a pass option: a preset name ("h200") or the attribute
    /// itself ("#fuse.target<...>"). On failure returns null and sets
    /// `error`.
    static TargetAttr parseFromOption(::mlir::MLIRContext *context,
                                      ::llvm::StringRef text,
                                      std::string &error);
    /// Names of all presets, in a stable order.
    static ::llvm::ArrayRef<::llvm::StringRef> getPresetNames();

    /// The compute capability as a number: sm_90a -> 90, sm_121 -> 121.
    int64_t getComputeCapability() const;
    /// DRAM bandwidth in bytes per second.
    double getDramBytesPerSecond() const;
    /// Kernel launch cost in seconds.
    double getLaunchSeconds() const;
    /// Dense peak FLOP/s for `elementType`, or std::nullopt when the target
    /// does not list it.
    std::optional<double> getPeakFlops(::mlir::Type elementType) const;
    /// Peak FLOP/s for `elementType`, else f32's, else 1 TFLOP/s: what the
    /// cost model assumes for a type the target does not list.
    double getPeakFlopsOrF32(::mlir::Type elementType) const;
    /// The roofline's ridge point for `elementType`: FLOPs per byte of DRAM
    /// traffic at which a kernel stops being memory-bound.
    double getRidgeFlopsPerByte(::mlir::Type elementType) const;
    /// Whether the target's hardware supports arithmetic in `elementType`
    /// (f16 needs sm_53+, bf16 and tf32 sm_80+, fp8 sm_89+). When it does not,
    /// `reason` (if given) says why.
    bool supportsElementType(::mlir::Type elementType,
                             std::string *reason = nullptr) const;
  }];
}

//===----------------------------------------------------------------------===//
// #fuse.tile
//===----------------------------------------------------------------------===//

def Fuse_TileMappingAttr : AttrDef<Fuse_Dialect, "TileMapping",
    [DeclareAttrInterfaceMethods<DeviceMappingAttrInterface>]> {
  let mnemonic = "tile";
  let summary = "a tile loop dimension of one fusion group's kernel";
  let description = [{
    The mapping `fuse-lower-groups` gives the `scf.forall` of a group's
    tiles: dimension `dim` of the tile grid. It says only that the loop is a
    kernel's tile loop, whatever the back end: the mapping keeps a loop of
    one iteration from being folded into host code, the GPU build drops it
    before mapping the loop to blocks (`fuse-drop-tile-mapping`), and the
    CPU build runs the loop as it is.

    ```mlir
    scf.forall (%i, %j) in (4, 2) shared_outs(...) {
      ...
    } {mapping = [#fuse.tile<0>, #fuse.tile<1>]}
    ```
  }];
  let parameters = (ins "int64_t":$dim);
  let assemblyFormat = "`<` $dim `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// #fuse.cpu_target and #fuse.cpu_schedule
//===----------------------------------------------------------------------===//

def Fuse_CpuTargetAttr : AttrDef<Fuse_Dialect, "CpuTarget"> {
  let mnemonic = "cpu_target";
  let summary = "the host CPU that CPU schedules are chosen for";
  let description = [{
    The numbers a CPU schedule (`#fuse.cpu_schedule`) is derived from:

    ```mlir
    #fuse.cpu_target<name = "avx512", vector_bits = 512, vector_registers = 32,
                     l1_bytes = 32768, l2_bytes = 1048576, l3_bytes = 33554432>
    ```

    | field | meaning |
    |---|---|
    | `name` | a preset name, `host`, or any name of your own |
    | `vector_bits` | width of one vector register: 128, 256 or 512 |
    | `vector_registers` | vector registers the ISA has (8 to 64) |
    | `l1_bytes`, `l2_bytes`, `l3_bytes` | data cache sizes of one core (L3: shared; 0 where there is none) |

    Options (`cpu-target=` on `fuse-configure-groups`, `fuse-form-groups`,
    the fusion pipeline, `fuse-to-cpu`, `fuse-cpu-vectorize`;
    `fuse-compile --cpu-target`) take a preset name or the attribute:
    `avx512` (x86-64 with AVX-512: the values above), `avx2` (256-bit, 16
    registers, 32 KiB / 256 KiB / 8 MiB), `neon` (128-bit, 32 registers,
    64 KiB / 1 MiB / 0), or `host`: the machine the compiler runs on (its
    widest vector extension from LLVM's host feature list, its cache sizes
    from `/sys/devices/system/cpu/cpu0/cache`; a size the system does not
    give is the `avx512` preset's).
  }];
  let parameters = (ins
    StringRefParameter<"the target's name">:$name,
    "int64_t":$vector_bits,
    "int64_t":$vector_registers,
    "int64_t":$l1_bytes,
    "int64_t":$l2_bytes,
    "int64_t":$l3_bytes
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The attribute of preset `name` (`host` reads this machine), or null
    /// when `name` is none.
    static CpuTargetAttr getPreset(::mlir::MLIRContext *context,
                                   ::llvm::StringRef name);
    /// Resolves an option: a preset name or `#fuse.cpu_target<...>`. On
    /// failure returns null and sets `error`.
    static CpuTargetAttr parseFromOption(::mlir::MLIRContext *context,
                                         ::llvm::StringRef text,
                                         std::string &error);
    /// The preset names, in a stable order.
    static ::llvm::ArrayRef<::llvm::StringRef> getPresetNames();
    /// f32 lanes of one vector register.
    int64_t getF32Lanes() const { return getVectorBits() / 32; }
  }];
}

def Fuse_CpuScheduleAttr : AttrDef<Fuse_Dialect, "CpuSchedule"> {
  let mnemonic = "cpu_schedule";
  let summary = "how one fusion group runs on the CPU";
  let description = [{
    The CPU part of a group's `#fuse.lowering_config` (its `cpu` field),
    chosen by the same configuration step as the GPU schedule from a
    `#fuse.cpu_target` and the group's largest contraction;
    `fuse-cpu-vectorize` tiles that contraction by it and the report
    prints it.

    ```mlir
    #fuse.cpu_schedule<kind = "register_tiles", mr = 7, nr = 32, kc = 4,
                       k_block = 64>
    ```

    | field | meaning |
    |---|---|
    | `kind` | `register_tiles` (a matmul or convolution: MR x NR accumulators in vector registers, the reduction innermost), `channel_tiles` (a depthwise convolution or a pooling: MR x NR outputs in registers, the window innermost) or `loops` (no contraction: loops, vectorized along the contiguous dimension) |
    | `mr` | rows of the register tile (the output's second-last dimension; a convolution's output width) |
    | `nr` | elements of the register tile along the output's contiguous dimension (whole vector registers where the extent allows) |
    | `kc` | step of the innermost reduction loop (its unrolling) |
    | `k_block` | elements of the innermost reduction per cache block (0: no blocks): a long reduction runs in blocks whose column panel of the weights fits L1, the outermost loops |

    `loops` has every number 0; otherwise `mr`, `nr` and `kc` are at least
    1 and `k_block` is 0 or a multiple of `kc`.
  }];
  let parameters = (ins
    StringRefParameter<"the schedule's kind">:$kind,
    "int64_t":$mr,
    "int64_t":$nr,
    "int64_t":$kc,
    "int64_t":$k_block
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The kinds accepted.
    static ::llvm::ArrayRef<::llvm::StringRef> getKinds();
  }];
}

def Fuse_LoweringConfigAttr : AttrDef<Fuse_Dialect, "LoweringConfig"> {
  let mnemonic = "lowering_config";
  let summary = "how one fusion group becomes its kernel";
  let description = [{
    The one place a group's schedule is decided: `fuse-form-groups` (and
    `fuse-configure-groups` for groups formed elsewhere) attaches it to
    every `fuse.group` from the module's `#fuse.target` and the group's
    shape; the lowering check of the fusion engine, `fuse-lower-groups`,
    `fuse-distribute-threads` and the report all read it.

    ```mlir
    #fuse.lowering_config<schedule = "convolution", tile = [1, 1, 7, 16],
                          threads = 128, instruction = "simt",
                          precision = "fp32">
    ```

    | field | meaning |
    |---|---|
    | `schedule` | the group's class: `elementwise`, `reduction` (row statistics, pooling), `contraction` (matmul, batch matmul), `convolution`, `depthwise` or `attention` |
    | `tile` | the tile of the group's root, one size per loop of the root (0: the loop stays whole; reduction loops are never tiled); one tile is one thread block |
    | `threads` | threads per block; a kernel whose ops all have fewer parallel points launches fewer (a multiple of 32) |
    | `instruction` | how a thread computes: `simt` (scalar instructions, a multiply-add one `fma`) or `mma_sync` (the group's contraction on tensor cores, warp-level `mma.sync.m16n8k8` with TF32 operands, sm_80 or newer; schedules `contraction`, `convolution` and `attention` (both of its products) only, whole warps) |
    | `precision` | `fp32`: fp32 accuracy (on tensor cores each operand split into a TF32 value and its TF32 remainder, three products); `tf32` (with `mma_sync` only): one product of the operands rounded to TF32, about 1e-3 relative; `bf16`, `fp16` (with `mma_sync` only): one `mma.sync.m16n8k16` of the operands rounded to bfloat16 or IEEE half (to nearest even; fp16 overflows past 65504), twice the multiply-adds per instruction, about 1e-2 (bf16) and 1e-3 (fp16) relative; accumulators f32 always |
    | `stages` | (`mma_sync` only, optional) the K chunks of the block tiles in shared memory at once, 2 to 4: while the warps compute one, `cp.async` copies of the next `stages - 1` are in flight; absent: 2 |
    | `split_k` | (`mma_sync` only, optional) the reduction split over this many blocks per tile, 2 to 16 (split-K, for contractions with fewer tiles than SMs): each block reduces its slice of K chunks into partial accumulators, the last of a tile's blocks to finish sums the partials in slice order and runs the epilogue; absent: 1 |
    | `key_chunk` | (`attention` only, optional) the keys (and values) streamed through the block in chunks of this many, through one loop with an online softmax (docs/Lowering.md "Streamed attention"); absent: a head's K and V held whole |
    | `cpu` | (optional) the group's CPU schedule, a `#fuse.cpu_schedule` (chosen where a `cpu-target` is given); absent: `fuse-cpu-vectorize` derives it from its own CPU target |

    The optional fields follow the others, in any order.

    Only what the kernels implement is accepted: a value the code
    generator does not have is an error naming the field and what it
    accepts.
  }];
  let parameters = (ins
    StringRefParameter<"the group's schedule class">:$schedule,
    ArrayRefParameter<"int64_t", "tile sizes of the root's loops">:$tile,
    "int64_t":$threads,
    StringRefParameter<"the instruction kind">:$instruction,
    StringRefParameter<"the precision">:$precision,
    DefaultValuedParameter<"int64_t", "0",
                           "K chunks in shared memory (0: the default)">:$stages,
    DefaultValuedParameter<"int64_t", "0",
                           "blocks per tile splitting K (0: one)">:$splitK,
    DefaultValuedParameter<"int64_t", "0",
                           "keys per streamed chunk (0: whole)">:$keyChunk,
    DefaultValuedParameter<"::mlir::fuse::CpuScheduleAttr",
                           "::mlir::fuse::CpuScheduleAttr()",
                           "the CPU schedule (null: none)">:$cpu
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The schedule classes, instruction kinds and precisions accepted.
    static ::llvm::ArrayRef<::llvm::StringRef> getSchedules();
    static ::llvm::ArrayRef<::llvm::StringRef> getInstructions();
    static ::llvm::ArrayRef<::llvm::StringRef> getPrecisions();
    /// The K chunks the mma_sync schedule stages at once (2 where the
    /// field is absent; 0 for SIMT kernels, which stage nothing).
    int64_t getPipelineStages() const {
      if (getInstruction() != "mma_sync")
        return 0;
      return getStages() ? getStages() : 2;
    }
    /// The blocks a tile's reduction is split over (1 where the field is
    /// absent).
    int64_t getSplitSlices() const { return getSplitK() ? getSplitK() : 1; }
  }];
}

#endif // FUSE_DIALECT_FUSE_IR_FUSEATTRS_TD
