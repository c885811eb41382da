// fuse-opt --help fits a screen: fuse's pipelines and passes with their
// summaries (every pass of the Passes.td files) and the common options;
// --help-all is the full list, upstream passes and dialects included.
// RUN: fuse-opt --help | FileCheck %s --check-prefix=SHORT
// RUN: fuse-opt --help | FileCheck %s --check-prefix=SHORTNOT
// RUN: fuse-opt --help-all | FileCheck %s
// SHORT: fuse pipelines:
// SHORT: --fuse-fusion-pipeline {{.*}}TOSA or linalg on tensors to fuse.groups
// SHORT: --fuse-to-nvptx
// SHORT: --fuse-to-cpu
// SHORT: fuse passes:
// SHORT: --fuse-attach-target {{.*}}Record on the module the GPU
// SHORT: --fuse-form-groups {{.*}}Decide the fusion groups
// SHORT: --fuse-lower-groups
// SHORT: --fuse-plan-buffers
// SHORT: --fuse-prune
// SHORT: --help-all
// SHORTNOT-NOT: --linalg-
// SHORTNOT-NOT: --amdgpu-
// CHECK: Available Dialects: {{.*}}fuse{{.*}}linalg{{.*}}tosa
// CHECK: --fuse-test-classify {{.*}}Annotate every op with its fusion category, FLOPs and bytes
// CHECK: --linalg-fuse-elementwise-ops
// The short help is at most 60 lines.
// RUN: test $(fuse-opt --help | wc -l) -le 60
