// Elementwise kernels of a 16-bit model move four points a thread at a
// time like f32 ones: each f16 or bf16 operand along the contiguous loop
// as one 8-byte access of four elements (ld.global.nc.v4.b16 or .v2.b32;
// st.global.v4.b16), an f32 one as 16 bytes, each aligned to its four
// elements (checked once per kernel at run time; otherwise the
// one-point schedule). A contiguous extent that is no multiple of 4 keeps
// one point a thread.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200" | fuse-opt --fuse-to-nvptx="target=h200 format=isa" -o %t.mlir
// RUN: rm -rf %t.ptx && %ptx_stats %t.mlir --out %t.ptx
// RUN: cat %t.ptx/add_relu__group0_kernel.ptx | FileCheck %s --check-prefix=HALF
// RUN: cat %t.ptx/widen__group0_kernel.ptx | FileCheck %s --check-prefix=WIDEN
// RUN: cat %t.ptx/bf16_mul__group0_kernel.ptx | FileCheck %s --check-prefix=HALF
// RUN: cat %t.ptx/odd__group0_kernel.ptx | FileCheck %s --check-prefix=ODD
// HALF: ld.global.nc.{{v4.b16|v2.b32}}
// HALF: st.global.{{v4.b16|v2.b32}}
// WIDEN: ld.global.nc.{{v4.b16|v2.b32}}
// WIDEN: st.global.v4.b32
// ODD-NOT: .v4
// ODD-NOT: .v2
// ODD: st.global.b16

// The same results through the emulated schedule:
// RUN: %check_equivalence %s --function add_relu --lower-groups --distribute-threads config | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function widen --lower-groups --distribute-threads config | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function bf16_mul --lower-groups --distribute-threads config | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function odd --lower-groups --distribute-threads config | FileCheck %s --check-prefix=EQUIV
// EQUIV: PASS
func.func @add_relu(%x: tensor<64x256xf16>, %y: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %a = tosa.add %x, %y : (tensor<64x256xf16>, tensor<64x256xf16>) -> tensor<64x256xf16>
  %z = "tosa.const"() {values = dense<0.0> : tensor<1x1xf16>} : () -> tensor<1x1xf16>
  %r = tosa.maximum %a, %z : (tensor<64x256xf16>, tensor<1x1xf16>) -> tensor<64x256xf16>
  return %r : tensor<64x256xf16>
}
func.func @widen(%x: tensor<64x256xf16>) -> tensor<64x256xf32> {
  %c = tosa.cast %x : (tensor<64x256xf16>) -> tensor<64x256xf32>
  %e = tosa.exp %c : (tensor<64x256xf32>) -> tensor<64x256xf32>
  return %e : tensor<64x256xf32>
}
func.func @bf16_mul(%x: tensor<32x128xbf16>, %y: tensor<1x128xbf16>) -> tensor<32x128xbf16> {
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %m = tosa.mul %x, %y, %shift : (tensor<32x128xbf16>, tensor<1x128xbf16>, tensor<1xi8>) -> tensor<32x128xbf16>
  return %m : tensor<32x128xbf16>
}
func.func @odd(%x: tensor<64x255xf16>, %y: tensor<64x255xf16>) -> tensor<64x255xf16> {
  %a = tosa.add %x, %y : (tensor<64x255xf16>, tensor<64x255xf16>) -> tensor<64x255xf16>
  return %a : tensor<64x255xf16>
}
