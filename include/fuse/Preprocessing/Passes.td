//===- Passes.td - graph rewrites before fusion ------------*- tablegen -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_PREPROCESSING_PASSES_TD
#define FUSE_PREPROCESSING_PASSES_TD

include "mlir/Pass/PassBase.td"

def FusePrune : Pass<"fuse-prune"> {
  let summary = "Remove what no kernel should compute before fusion";
  let description = [{
    Cleans the graph before fusion so that no group is spent on work that
    cancels out: dead ops, identity leftovers (`tosa.identity`, ONNX
    Identity/Dropout imported as identities, copy-only `linalg.generic`s),
    transpose∘transpose and reshape∘reshape pairs that cancel, depthwise
    convolutions with channel multiplier 1 whose result is only collapsed
    (`depthwise_conv_2d_nhwc_hwcm` + `tensor.collapse_shape` becomes
    `depthwise_conv_2d_nhwc_hwc`, so nothing separates them from their
    epilogue), reshapes between a linalg op and the elementwise ops that
    read it (a batch matmul's `[1, B*S, N]` viewed as `[B, S, N]`, then its
    bias: the elementwise op runs in the matmul's shape and the reshape
    moves below it, unless a broadcast operand indexes a dimension the
    reshape splits or the op already reads another linalg op directly),
    the kernel taps of a convolution over a zero-padded NHWC input that
    read only padding for every output point (a dilated convolution whose
    rate exceeds the map keeps the taps that reach it, on a trimmed or
    cropped window: DeepLab's rate-36 3x3 on a 16x16 map becomes a 1x1),
    the reduced dimension a `linalg.generic` keeps in its output (an
    output map with a constant 0 into a unit dimension, as torch-mlir
    writes `sum(dim, keepdim=True)`: the output is written without it and
    the result expanded back, so that the op tiles), a tensor put back
    together from its own slices (`tensor.insert_slice`s into an empty
    tensor of the slices of one value at the same places, disjoint and
    covering it: that value), a broadcast of a splat constant (an
    importer's zero bias as a convolution's initial value: a `linalg.fill`),
    and constant
    subgraphs, folded at compile time (linalg ops on constants up to
    `max-constant-fold-elements` result elements; broadcasts that would
    turn a small constant into a larger one are kept).

    It runs the canonicalization patterns of every loaded dialect and op
    plus linalg's constant folding; the fusion pipeline runs CSE after it.

    Before:
    ```mlir
    %t = linalg.transpose ins(%x : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
    %u = linalg.transpose ins(%t : tensor<8x4xf32>) outs(%f : tensor<4x8xf32>) permutation = [1, 0]
    return %u : tensor<4x8xf32>
    ```
    After:
    ```mlir
    return %x : tensor<4x8xf32>
    ```
  }];
  let options = [
    Option<"maxConstantFoldElements", "max-constant-fold-elements",
           "int64_t", /*default=*/"65536",
           "Fold linalg ops on constants only up to this many result "
           "elements">,
  ];
}

def FuseNhwcLayout : Pass<"fuse-nhwc-layout", "func::FuncOp"> {
  let summary = "Channels-last layout for NCHW convolutions and pools of any "
                "front end's linalg";
  let description = [{
    fuse's kernels take images channels last (NHWC), as TOSA's ops are and
    as fuse's ONNX importer emits them; linalg from another front end
    (torch-mlir, a hand-written model) keeps PyTorch's NCHW. This pass
    gives such a function the layout the importer would have chosen:

    * `linalg.conv_2d_nchw_fchw` becomes `linalg.conv_2d_nhwc_fhwc` between
      a transpose of its input to NHWC and one of its result back to NCHW;
      a constant filter is permuted to FHWC at compile time (a
      dense_resource blob stays a blob), another is transposed;
      `linalg.pooling_nchw_max` and `linalg.pooling_nchw_sum` become their
      NHWC forms the same way;
    * a transpose back to NCHW (`permutation = [0, 3, 1, 2]`) that an
      elementwise `linalg.generic` reads (every loop parallel, every result
      written by the identity, the transposed operand read by the identity)
      moves below it: the generic runs over the NHWC space, reading the
      NHWC value directly and every other operand through its map composed
      with the permutation (a per-channel bias stays a per-channel read),
      and the transpose back goes to its result;
    * a `linalg.generic` with reductions that reads such a transpose by the
      identity reads the NHWC value directly, its loops renamed (a global
      average pool over H and W keeps its `[N, C]` result);
    * a static slice of a transpose to NCHW is the transpose of the
      slice of its NHWC source, and a `tensor.concat` of transposes to NCHW
      the transpose of the concatenation of their sources (merged
      convolutions' per-branch epilogues, and their concatenation, run
      channels last);
    * a convolution's initial value computed by a `linalg.generic` from
      its inputs alone (torch-mlir's bias broadcast into the output), read
      by nothing else, is computed channels last instead of transposed;
    * transposes of transposes compose (and cancel).

    So a chain of NCHW convolutions and their epilogues runs channels last
    from the first transpose to the last, and the convolutions reach the
    tensor-core schedules, as the same network imported from ONNX does
    (`test/Preprocessing/nhwc-layout.mlir`). The fusion pipeline runs it
    before fuse-prune (option `nhwc-layout`, on by default).
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

def FuseFoldAffine : Pass<"fuse-fold-affine"> {
  let summary = "Fold per-channel scale and shift (inference BatchNorm) into "
                "the contraction before it";
  let description = [{
    A graph rewrite on TOSA. When a convolution, depthwise convolution,
    transpose convolution or matmul is followed by a multiplication, addition
    or subtraction with a constant that varies only along the output channel
    (the last dimension), and nothing else reads the contraction's result,
    the constant is folded into the contraction:

    * `conv(x, W, b) * s`  becomes `conv(x, W * s, b * s)`;
    * `conv(x, W, b) + t`  becomes `conv(x, W, b + t)` (likewise `- t`, and
      `t - conv` negates the weights);
    * `matmul(a, B) * s`   becomes `matmul(a, B * s)` (a matmul has no bias,
      so an addition stays and fuses as an epilogue).

    Inference BatchNorm, `(y - mean) * gamma / sqrt(var + eps) + beta`, is a
    chain of these, so Conv+BN becomes one convolution with rescaled weights
    and bias: the BN costs nothing at run time. Only f32 constants given as
    dense elements are folded.

    Before:
    ```mlir
    %y = tosa.conv2d %x, %w, %b, %zp, %zp {...} : (...) -> tensor<1x8x8x16xf32>
    %z = tosa.mul %y, %scale, %shift : (tensor<1x8x8x16xf32>, tensor<1x1x1x16xf32>, tensor<1xi8>) -> tensor<1x8x8x16xf32>
    ```
    After:
    ```mlir
    %w2 = "tosa.const"() <{values = dense<...> : tensor<16x3x3x4xf32>}>   // w * scale
    %b2 = "tosa.const"() <{values = dense<...> : tensor<16xf32>}>         // b * scale
    %z = tosa.conv2d %x, %w2, %b2, %zp, %zp {...} : (...) -> tensor<1x8x8x16xf32>
    ```
  }];
}

def FuseMergeSiblingContractions : Pass<"fuse-merge-sibling-contractions"> {
  let summary = "Merge contractions that read the same input into one on "
                "concatenated weights";
  let description = [{
    A graph rewrite on TOSA and linalg (the `shared_input_contractions`
    rule).
    Contractions that read the same input with constant weights and the same
    attributes become ONE contraction on weights concatenated along the
    output channels, followed by a slice per original contraction:

    * `tosa.matmul` with the same left operand (the Q, K and V projections
      of attention);
    * `tosa.conv2d` with the same input, kernel size, stride, padding and
      dilation (Inception's same-input 1x1 convolutions; a ResNet
      downsample 1x1 conv and the block's first 1x1 conv when their strides
      agree).

    The same on linalg (another front end's, or written by hand):
    `linalg.matmul` (B as `[K, N]`, or transposed as `[N, K]`),
    `linalg.conv_2d_nhwc_fhwc`, `conv_2d_nhwc_hwcf` and `conv_2d_nchw_fchw`
    with a constant weight and static shapes, each starting from a fill of
    the same constant into an empty tensor, or each from its constant bias
    broadcast along the output channels (as torch-mlir gives a convolution
    its bias), become one op on the weights concatenated along the output
    channels (a dense_resource blob stays a blob), starting from the fill
    or from the concatenated biases broadcast, and a
    `tensor.extract_slice` per sibling
    (`test/Preprocessing/merge-linalg-siblings.mlir`).

    One large GEMM instead of several smaller ones reads the input once and
    keeps the GPU busy. The merged op's location fuses the siblings', and
    the fusion engine names a group whose contraction is read only by
    slices after the rule.

    Before:
    ```mlir
    %q = tosa.matmul %x, %wq, %zp, %zp : (tensor<1x128x768xf32>, tensor<1x768x768xf32>, ...) -> tensor<1x128x768xf32>
    %k = tosa.matmul %x, %wk, %zp, %zp : (...) -> tensor<1x128x768xf32>
    ```
    After:
    ```mlir
    %w = "tosa.const"() <{values = dense<...> : tensor<1x768x1536xf32>}>
    %qk = tosa.matmul %x, %w, %zp, %zp : (...) -> tensor<1x128x1536xf32>
    %q = tosa.slice %qk, %start0, %size : (...) -> tensor<1x128x768xf32>
    %k = tosa.slice %qk, %start1, %size : (...) -> tensor<1x128x768xf32>
    ```
  }];
}

def FusePrepareTosa : Pass<"fuse-prepare-tosa", "func::FuncOp"> {
  let summary = "Upstream's TOSA preparation before tosa-to-linalg, each "
                "pass where a function holds what it rewrites";
  let description = [{
    Runs the passes upstream's `tosa-to-linalg-pipeline` runs before
    `tosa-to-linalg`, in its order and with its default options:
    `tosa-optional-decompositions`, `canonicalize`, `tosa-infer-shapes`,
    `tosa-make-broadcastable`, `tosa-to-linalg-named`, `canonicalize`,
    `tosa-layerwise-constant-fold`, `tosa-make-broadcastable`. The two
    canonicalizations always run. Each other pass runs on a function only
    where the function holds an op it could rewrite (a superset is fine):

    * `tosa-optional-decompositions`: a TOSA convolution;
    * `tosa-infer-shapes`: a TOSA op with a result or block argument whose
      shape is not static, or a `tosa.cond_if` or `tosa.while_loop`;
    * `tosa-make-broadcastable`: a TOSA op with broadcastable operands one
      of which differs in rank from its result;
    * `tosa-to-linalg-named`: a TOSA op other than the elementwise ones,
      constants, reshapes, slices, pads, concatenations, casts and
      reductions;
    * `tosa-layerwise-constant-fold`: a transpose, reciprocal or reduction
      of a constant (what it folds beyond the canonicalization just before
      it).

    The greedy passes among these also fold ops and erase dead ones; the
    canonicalization that follows each of them does the same, so skipping
    one where it has nothing to rewrite leaves the same IR. On a graph of
    elementwise ops (the common case in large graphs) each skipped pass
    cost about 1.5 s per 10^6 ops. The walk that decides costs a few
    milliseconds.

    `fuse-fusion-pipeline` runs this pass, then `tosa-validate` where asked,
    then `fuse-tosa-to-linalg`.
  }];
  let dependentDialects = [
    "arith::ArithDialect",
    "linalg::LinalgDialect",
    "tensor::TensorDialect",
    "tosa::TosaDialect",
  ];
}

def FuseTosaToLinalg : Pass<"fuse-tosa-to-linalg", "func::FuncOp"> {
  let summary = "Upstream's tosa-to-linalg, with the elementwise ops whose "
                "lowering cannot fail converted by the faster driver";
  let description = [{
    Gives what upstream's `tosa-to-linalg` gives, in two steps:

    1. Upstream's patterns and type conversion, applied to the TOSA ops
       whose lowering always succeeds once it starts rewriting, by the
       dialect conversion driver without pattern rollback (it keeps no
       state to undo a pattern, and is about a third faster). Those ops
       are `add`, `sub`, `mul` with a constant zero shift, `pow`,
       `reciprocal`, `rsqrt`, `log`, `exp`, `abs`, `sin`, `cos`, `tanh`,
       `erf`, `greater`, `greater_equal`, `equal`, `maximum`, `minimum`,
       `ceil`, `floor`, `clamp` and `sigmoid`, on static tensors of f16,
       bf16, f32 or f64. Upstream's pattern fails only after it has built
       its `linalg.generic` (where it cannot build the payload: an integer
       or other type, a shift on floats, a zero point not known), which
       only a driver that rolls back survives; those ops are not taken
       here.
    2. Upstream's `tosa-to-linalg` pass on the function, where any TOSA op
       other than constants is left (reductions, casts, gathers, integer
       ops, and what it leaves to `tosa-to-tensor`).

    On a large graph of elementwise ops the first step is most of the
    lowering, and the second has nothing to walk for.
  }];
  let dependentDialects = [
    "arith::ArithDialect",
    "index::IndexDialect",
    "linalg::LinalgDialect",
    "math::MathDialect",
    "scf::SCFDialect",
    "tensor::TensorDialect",
  ];
}

def FuseLowerTosaLeftovers : Pass<"fuse-lower-tosa-leftovers",
                                   "func::FuncOp"> {
  let summary = "What tosa-to-linalg leaves, lowered where a function holds "
                "it";
  let description = [{
    Runs upstream's three conversions that finish lowering TOSA to linalg
    on tensors, in this order, each on a function only where the function
    holds an op it converts, or on those ops alone:

    * `tosa-to-tensor`: where a TOSA op other than `tosa.const` and
      `tosa.apply_scale` is left (reshape, slice, pad, concat);
    * `tosa-to-arith`'s patterns on the `tosa.const` ops alone (what the
      pass converts with its default options);
    * `convert-elementwise-to-linalg`: where an elementwise-mappable op
      (arith, math) works on ranked tensors.

    The result is what the three passes give when run unconditionally. A
    conversion pass walks and legality-checks every op of the function even
    where nothing is left to convert; on a 10^6-op graph each cost two
    seconds for nothing. The walk that decides costs a few milliseconds.

    The fusion pipeline runs this pass after `tosa-to-linalg`; on linalg
    input it does nothing.
  }];
  let dependentDialects = [
    "arith::ArithDialect",
    "linalg::LinalgDialect",
    "tensor::TensorDialect",
  ];
}

#endif // FUSE_PREPROCESSING_PASSES_TD
