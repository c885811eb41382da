// fuse-opt lists fuse's passes with their summaries, next to upstream ones,
// and knows the fuse dialect.
// RUN: fuse-opt --help | FileCheck %s
// CHECK: Available Dialects: {{.*}}fuse{{.*}}linalg{{.*}}tosa
// CHECK: --fuse-test-classify {{.*}}Annotate every op with its fusion category, FLOPs and bytes
// CHECK: --linalg-fuse-elementwise-ops
