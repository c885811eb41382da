# fuse: the two commands of the README, plus build helpers.
#
#   make demo    set up, build, run fuse on the bundled example
#   make check   set up, build, run the whole test suite
#
# BUILD_DIR and CMAKE_FLAGS can be overridden; JOBS defaults to the core count.

BUILD_DIR   ?= build
BUILD_TYPE  ?= Release
JOBS        ?= $(shell nproc)
LLVM_PREFIX ?= /usr/lib/llvm-22
CMAKE_FLAGS ?=

SETUP_STAMP := $(BUILD_DIR)/.setup-done
FUSE_OPT    := $(BUILD_DIR)/bin/fuse-opt

.PHONY: all setup configure build check demo docs format install clean bench-memory bench-cpu bench-models soak \
        models e2e onnx-conformance fuzz check-asan bench bench-gpu stress

all: build

# Installs Debian packages when something is missing (idempotent).
setup: $(SETUP_STAMP)
$(SETUP_STAMP): scripts/setup.sh
	bash scripts/setup.sh
	@mkdir -p $(BUILD_DIR) && touch $@

# cmake for a build directory of fuse (also the sanitizer and fuzzer builds).
CMAKE_CONFIGURE = cmake -G Ninja -S . \
	  -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) \
	  -DCMAKE_C_COMPILER=$(LLVM_PREFIX)/bin/clang \
	  -DCMAKE_CXX_COMPILER=$(LLVM_PREFIX)/bin/clang++ \
	  -DLLVM_USE_LINKER=lld \
	  -DLLVM_CCACHE_BUILD=$(if $(shell command -v ccache),ON,OFF) \
	  -DMLIR_DIR=$(LLVM_PREFIX)/lib/cmake/mlir \
	  -DLLVM_EXTERNAL_LIT=$(LLVM_PREFIX)/bin/lit \
	  $(CMAKE_FLAGS)

$(BUILD_DIR)/build.ninja: $(SETUP_STAMP) CMakeLists.txt
	$(CMAKE_CONFIGURE) -B $(BUILD_DIR)

configure: $(BUILD_DIR)/build.ninja

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

check: build
	bash scripts/run-tests.sh $(BUILD_DIR)

DEMO_DIR    := $(BUILD_DIR)/demo
DEMO_TARGET ?= h200
# The bundled example: an Inception block exported from PyTorch with its
# BatchNorms kept (scripts/models/export.py --small).
DEMO_MODEL  ?= test/Models/onnx/inception_block-bn.onnx
FUSE_TRANSLATE := $(BUILD_DIR)/bin/fuse-translate
# PyTorch's inputs and outputs for the bundled example (another model: none,
# the compiled model then runs on random inputs).
DEMO_REF    ?= $(if $(filter test/Models/onnx/inception_block-bn.onnx,$(DEMO_MODEL)),test/Models/onnx/inception_block.npz)

demo: build
	@mkdir -p $(DEMO_DIR)
	@echo "== import: fuse-translate --import-onnx $(DEMO_MODEL)"
	$(FUSE_TRANSLATE) --import-onnx $(DEMO_MODEL) -o $(DEMO_DIR)/model.mlir
	@echo "== fusion for $(DEMO_TARGET): fuse-opt --fuse-fusion-pipeline"
	$(FUSE_OPT) $(DEMO_DIR)/model.mlir \
	  --fuse-fusion-pipeline="target=$(DEMO_TARGET) report=$(DEMO_DIR)/report.json graph=$(DEMO_DIR)/fused.dot" \
	  -o $(DEMO_DIR)/fused.mlir
	@echo "== fusion report ($(DEMO_DIR)/report.json)"
	@/usr/bin/python3 scripts/report-summary.py $(DEMO_DIR)/report.json
	@if command -v dot >/dev/null; then dot -Tsvg $(DEMO_DIR)/fused.dot -o $(DEMO_DIR)/fused.svg && \
	  echo "fused graph: $(DEMO_DIR)/fused.svg"; fi
	@echo "fused IR: $(DEMO_DIR)/fused.mlir"
	@echo "== kernels: fuse-opt --fuse-to-nvptx (one kernel per group)"
	$(FUSE_OPT) $(DEMO_DIR)/fused.mlir --fuse-to-nvptx="target=$(DEMO_TARGET)" -o $(DEMO_DIR)/kernels.mlir
	@/usr/bin/python3 scripts/ptx-stats.py $(DEMO_DIR)/kernels.mlir --out $(DEMO_DIR)/ptx --json $(DEMO_DIR)/ptx-stats.json \
	  --report $(DEMO_DIR)/report.json
	@echo "== a compiled model for this CPU: fuse-compile --target=cpu, then fuse-run"
	$(BUILD_DIR)/bin/fuse-compile $(DEMO_MODEL) --target=cpu -o $(DEMO_DIR)/model.so
	$(BUILD_DIR)/bin/fuse-run $(DEMO_DIR)/model.so --output $(DEMO_DIR)/outputs \
	  $(if $(DEMO_REF),--input $(DEMO_REF) --compare $(DEMO_REF))

# The C++ sources formatted by .clang-format (LLVM style); make check fails
# when a file is not.
format: setup
	git ls-files '*.cpp' '*.h' '*.c' | xargs $(LLVM_PREFIX)/bin/clang-format -i

# Generated dialect/op/attribute/interface/pass docs, copied into docs/generated.
docs: build
	cmake --build $(BUILD_DIR) --target fuse-doc
	rm -rf docs/generated && mkdir -p docs/generated
	cp $(BUILD_DIR)/docs/Dialects/*.md $(BUILD_DIR)/docs/Interfaces/*.md \
	   $(BUILD_DIR)/docs/Passes/*.md docs/generated/

# The benchmark suite over the model corpus: kernels (unfused / upstream
# MLIR / fuse), bytes, activation memory, compile time, ptxas registers,
# CPU run times; docs/benchmarks.md, docs/benchmarks/results.json, plots.
bench: build
	/usr/bin/python3 bench/run.py

# The GPU half, on a machine with a GPU: fuse's GPU latency (the compiled
# program, checked against the CPU), PyTorch eager and torch.compile, copy
# bandwidth and each memory-bound group's achieved bandwidth, into
# build/bench-gpu.json (into docs/benchmarks.md: bench/run.py --merge-gpu).
bench-gpu: build
	/usr/bin/python3 bench/gpu.py --out $(BUILD_DIR)/bench-gpu.json

# The memory planner on the published Arm NN traces (docs/benchmarks/memtraces.md).
# The CPU half: the measured FMA peak, the largest contractions and the
# networks (fuse fused / unfused / loops, PyTorch eager and frozen, 1 and 2
# threads), into docs/benchmarks/cpu.md. Needs `make models`.
bench-cpu: build
	/usr/bin/python3 bench/cpu.py

bench-memory: build
	/usr/bin/python3 bench/memtraces.py

# Differential testing on random graphs: N graphs from SEED; every check
# strict (a group the lowering refuses fails too); failures are minimised
# into test/Random/. Last line: "N passed, M failed".
N ?= 200
SEED ?= 1
soak: build
	/usr/bin/python3 scripts/soak.py --graphs $(N) --seed $(SEED)

# Whole networks (ResNet-50, MobileNetV2, YOLOv5s backbone, BERT-base):
# kernels, traffic and activation memory (docs/benchmarks/models.md).
bench-models: build
	/usr/bin/python3 bench/models.py

install: build
	cmake --install $(BUILD_DIR) --prefix $(or $(PREFIX),$(BUILD_DIR)/install)

clean:
	rm -rf $(BUILD_DIR)

# The model corpus (PyTorch -> ONNX with seeded weights and reference
# outputs) into $(BUILD_DIR)/models; large files, not in the repository.
models: build
	/usr/bin/python3 scripts/models/export.py --out $(BUILD_DIR)/models

# Every model of the corpus: import -> fuse -> CPU -> compare with PyTorch.
e2e: build
	/usr/bin/python3 scripts/models/e2e.py --dir $(BUILD_DIR)/models

# The ONNX backend node tests of the ops the importer claims and the model
# tests of libonnx-testdata; rewrites
# docs/onnx-conformance.md (make check runs the same tests).
onnx-conformance: build
	/usr/bin/python3 scripts/onnx-conformance.py --check --out docs/onnx-conformance.md \
	  --fuse-compile $(BUILD_DIR)/bin/fuse-compile --fuse-translate $(BUILD_DIR)/bin/fuse-translate

# The whole suite on a build with AddressSanitizer and UBSan
# (-DFUSE_SANITIZE="address;undefined") in $(ASAN_DIR).
ASAN_DIR ?= build-asan
check-asan: setup
	$(CMAKE_CONFIGURE) -B $(ASAN_DIR) -DFUSE_SANITIZE="address;undefined"
	cmake --build $(ASAN_DIR) -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:allow_user_poisoning=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  FUSE_EMBED_LDFLAGS=-fsanitize=address,undefined SOAK_GRAPHS=$(or $(SOAK_GRAPHS),20) \
	  bash scripts/run-tests.sh $(ASAN_DIR)

# libFuzzer, with ASan and UBSan, on the ONNX importer, parser + fusion
# pipeline, fuse-compile's options and input, the compiled-model file checks
# and the runtime's C API: FUZZ_TIME seconds each (default 60), or with
# FUZZ_RUNS=N until N inputs have run (FUZZ_TIME still caps it; fewer is
# reported SHORT and fails). Crashes land in $(FUZZ_DIR)/crashes. Prints
# the executions and crashes of each.
FUZZ_DIR ?= build-fuzz
FUZZ_TIME ?= 60
FUZZ_RUNS ?= 0
fuzz: setup
	$(CMAKE_CONFIGURE) -B $(FUZZ_DIR) -DFUSE_SANITIZE="address;undefined" -DFUSE_FUZZERS=ON
	cmake --build $(FUZZ_DIR) -j $(JOBS) --target onnx-import-fuzzer pipeline-fuzzer compile-fuzzer model-file-fuzzer runtime-api-fuzzer
	bash scripts/fuzz.sh $(FUZZ_DIR) $(FUZZ_TIME) $(FUZZ_RUNS)

# Resource bounds: a 10^6-node ONNX chain through import and fusion (no
# input-controlled recursion), BERT-base's import and fusion under 2 GB.
CHAIN ?= 1000000
stress: build
	CHAIN=$(CHAIN) bash scripts/stress.sh $(BUILD_DIR)
