// fuse-fusion-pipeline checks TOSA input against the TOSA specification
// (upstream's tosa-validate) unless validate-tosa=false, which fuse-compile
// passes for ONNX models (fuse's importer makes their TOSA). An i16 add is
// no TOSA profile's: refused with the check's message, or, unchecked,
// lowered like any other add.
// RUN: not fuse-opt %s --fuse-fusion-pipeline="target=h200" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHECKED
// CHECKED: error: 'tosa.add' op illegal: operation operand/result data types did not align with any profile or extension, got (i16,i16,i16)
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 validate-tosa=false" | FileCheck %s --check-prefix=UNCHECKED
// UNCHECKED: fuse.group single
// UNCHECKED: arith.addi %{{.*}}, %{{.*}} : i16
func.func @f(%x: tensor<4xi16>, %y: tensor<4xi16>) -> tensor<4xi16> {
  %0 = tosa.add %x, %y : (tensor<4xi16>, tensor<4xi16>) -> tensor<4xi16>
  return %0 : tensor<4xi16>
}
