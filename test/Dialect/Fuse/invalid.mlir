// RUN: fuse-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

func.func @unknown_kind(%x: tensor<4xf32>) {
  // expected-error @+1 {{unknown fusion kind 'sideways'; expected single, vertical, horizontal, diagonal or composite}}
  %r = fuse.group sideways (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    fuse.yield %a : tensor<4xf32>
  }
  return
}

// -----

func.func @no_body() {
  // expected-error @+1 {{custom op 'fuse.group' needs a body ending in 'fuse.yield'}}
  fuse.group single () {}
  return
}

// -----

func.func @argument_count(%x: tensor<4xf32>) {
  // expected-error @+1 {{'fuse.group' op expects its body to take one argument per input (1), but it takes 2}}
  %r = "fuse.group"(%x) <{kind = #fuse.kind<single>}> ({
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %y = arith.negf %a : tensor<4xf32>
    fuse.yield %y : tensor<4xf32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @argument_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'fuse.group' op body argument #0 has type 'tensor<4xf16>', but input #0 has type 'tensor<4xf32>'}}
  %r = "fuse.group"(%x) <{kind = #fuse.kind<single>}> ({
  ^bb0(%a: tensor<4xf16>):
    %y = arith.negf %a : tensor<4xf16>
    fuse.yield %y : tensor<4xf16>
  }) : (tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

func.func @bad_terminator(%x: tensor<4xf32>) {
  // expected-error @+1 {{'fuse.group' op expects its body to end with 'fuse.yield'}}
  %r = "fuse.group"(%x) <{kind = #fuse.kind<single>}> ({
  ^bb0(%a: tensor<4xf32>):
    "other.terminator"(%a) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @empty_rule(%x: tensor<4xf32>) {
  // expected-error @+1 {{'fuse.group' op has an empty 'rule' name}}
  %r = fuse.group single rule "" (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    %y = arith.negf %a : tensor<4xf32>
    fuse.yield %y : tensor<4xf32>
  }
  return
}

// -----

func.func @single_with_two_ops(%x: tensor<4xf32>) {
  // expected-error @+1 {{'fuse.group' op has kind 'single' but its body holds 2 compute ops (arith.negf, math.exp); a group of several ops needs a fused kind}}
  %r = fuse.group single (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    %y = arith.negf %a : tensor<4xf32>
    %z = math.exp %y : tensor<4xf32>
    fuse.yield %z : tensor<4xf32>
  }
  return
}

// -----

// A nested group's ops count towards the enclosing group.
func.func @single_with_nested_ops(%x: tensor<4xf32>) {
  // expected-error @+1 {{'fuse.group' op has kind 'single' but its body holds 2 compute ops}}
  %r = fuse.group single (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    %y = fuse.group vertical (%b = %a : tensor<4xf32>) -> tensor<4xf32> {
      %p = arith.negf %b : tensor<4xf32>
      %q = math.exp %p : tensor<4xf32>
      fuse.yield %q : tensor<4xf32>
    }
    fuse.yield %y : tensor<4xf32>
  }
  return
}

// -----

func.func @vertical_with_one_op(%x: tensor<4xf32>) {
  // expected-error @+1 {{'fuse.group' op has kind 'vertical' but its body holds 1 compute op(s); a fused kind needs at least two (use 'single')}}
  %r = fuse.group vertical (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    %c = arith.constant dense<1.0> : tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %y = arith.addf %a, %c : tensor<4xf32>
    fuse.yield %y : tensor<4xf32>
  }
  return
}

// -----

func.func @yield_count(%x: tensor<4xf32>) {
  %r = fuse.group single (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    %y = arith.negf %a : tensor<4xf32>
    // expected-error @+1 {{'fuse.yield' op yields 2 value(s), but the enclosing 'fuse.group' has 1 result(s)}}
    fuse.yield %y, %y : tensor<4xf32>, tensor<4xf32>
  }
  return
}

// -----

func.func @yield_type(%x: tensor<4xf32>) {
  %r = fuse.group single (%a = %x : tensor<4xf32>) -> tensor<8xf32> {
    %y = arith.negf %a : tensor<4xf32>
    // expected-error @+1 {{'fuse.yield' op yields a value of type 'tensor<4xf32>' as result #0, but the enclosing 'fuse.group' declares 'tensor<8xf32>'}}
    fuse.yield %y : tensor<4xf32>
  }
  return
}

// -----

func.func @yield_outside_group(%x: tensor<4xf32>) {
  // expected-error @+1 {{'fuse.yield' op expects parent op 'fuse.group'}}
  fuse.yield %x : tensor<4xf32>
}

// -----

// Values from outside must come in as inputs.
func.func @captures_value(%x: tensor<4xf32>) {
  // expected-note @+1 {{required by region isolation constraints}}
  %r = fuse.group single () -> tensor<4xf32> {
    // expected-error @+1 {{'arith.negf' op using value defined outside the region}}
    %y = arith.negf %x : tensor<4xf32>
    fuse.yield %y : tensor<4xf32>
  }
  return
}

// -----

func.func @negative_tile_dim(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{#fuse.tile: the tile dimension must be non-negative, got -1}}
  %r = "test.op"() {mapping = #fuse.tile<-1>} : () -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// Every fuse.* attribute is declared by the dialect and verified.
// expected-error @+1 {{unknown fuse attribute 'fuse.colour'}}
module attributes {fuse.colour = "blue"} {
}

// -----

// expected-error @+1 {{attribute 'fuse.target' must be a #fuse.target, got "h200"}}
module attributes {fuse.target = "h200"} {
}

// -----

module {
  // expected-error @+1 {{attribute 'fuse.target' belongs on a module}}
  func.func @f() attributes {fuse.target = #fuse.target<"h200">} {
    return
  }
}

// -----

// expected-error @+1 {{attribute 'fuse.kind' must be a fusion kind string (single, vertical, horizontal, diagonal or composite), got "sideways"}}
func.func @bad_kind() attributes {fuse.kind = "sideways"} {
  return
}

// -----

// expected-error @+1 {{attribute 'fuse.groups' must be an array of two or more non-negative group ids, got array<i64: 3>}}
func.func @one_group() attributes {fuse.groups = array<i64: 3>} {
  return
}

// -----

func.func @groups_on_group(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{attribute 'fuse.groups' belongs on a function}}
  %r = fuse.group single (%a = %x : tensor<4xf32>) -> tensor<4xf32> attributes {fuse.groups = array<i64: 0, 1>} {
    %n = arith.negf %a : tensor<4xf32>
    fuse.yield %n : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @id_on_function(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{attribute 'fuse.id' must be a non-negative i64, got -1 : i64}}
  %r = fuse.group single (%a = %x : tensor<4xf32>) -> tensor<4xf32> attributes {fuse.id = -1 : i64} {
    %n = arith.negf %a : tensor<4xf32>
    fuse.yield %n : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// expected-error @+1 {{attribute 'fuse.id' belongs on a fuse.group}}
func.func @id_elsewhere() attributes {fuse.id = 3 : i64} {
  return
}

// -----

// expected-error @+1 {{attribute 'fuse.memory' must be a dictionary with a non-negative i64 'naive'}}
func.func @bad_memory() attributes {fuse.memory = {arena = 0 : i64}} {
  return
}

// -----

// expected-error @+1 {{attribute 'fuse.no_plan' must be a unit attribute}}
func.func @bad_no_plan() attributes {fuse.no_plan = 1 : i64} {
  return
}

// -----

// The kernels' noalias record (fuse-kernel-arg-attrs): argument positions.
// expected-error @+1 {{attribute 'fuse.noalias_args' must be an array of non-negative i64 argument positions, got array<i64: -1>}}
llvm.func @negative_position(%a: !llvm.ptr) attributes {fuse.llvm_arg_count = 1 : i64, fuse.noalias_args = array<i64: -1>} {
  llvm.return
}

// -----

// expected-error @+1 {{attribute 'fuse.llvm_arg_count' must be a non-negative i64, got "ten"}}
llvm.func @count_string(%a: !llvm.ptr) attributes {fuse.llvm_arg_count = "ten"} {
  llvm.return
}

// -----

// expected-error @+1 {{attribute 'fuse.noalias_args' belongs on a function}}
module attributes {fuse.noalias_args = array<i64: 1>} {
}
