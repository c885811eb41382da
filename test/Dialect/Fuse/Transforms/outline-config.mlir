// fuse-outline-groups copies a group's lowering config to the function it
// makes of it (fuse-distribute-threads reads it there); fuse-strip-target
// drops every lowering config with the target, so the lowered module parses
// without the fuse dialect.
// RUN: fuse-opt %s --fuse-outline-groups | FileCheck %s
// RUN: fuse-opt %s --fuse-outline-groups --fuse-strip-target | FileCheck %s --check-prefix=STRIP
// CHECK: func.func private @f__group3({{.*}}) -> tensor<64xf32> attributes {fuse.kind = "single", fuse.lowering_config = #fuse.lowering_config<schedule = "elementwise", tile = [32], threads = 32, instruction = "simt", precision = "fp32">}
// STRIP-NOT: fuse.lowering_config
// STRIP-NOT: fuse.target
// STRIP: func.func private @f__group3
// STRIP-NOT: fuse.lowering_config
module attributes {fuse.target = #fuse.target<"h200">} {
  func.func @f(%x: tensor<64xf32>) -> tensor<64xf32> {
    %r = fuse.group single (%a = %x : tensor<64xf32>) -> tensor<64xf32> attributes {fuse.id = 3 : i64, fuse.lowering_config = #fuse.lowering_config<schedule = "elementwise", tile = [32], threads = 32, instruction = "simt", precision = "fp32">} {
      %y = math.exp %a : tensor<64xf32>
      fuse.yield %y : tensor<64xf32>
    }
    return %r : tensor<64xf32>
  }
}
