# ndtile - `make run` runs the main job, `make test` runs every test.
# Each target first installs what the machine lacks (tools/setup.sh).

PY      ?= python3
BUILD   ?= build
JOBS    ?= $(shell nproc)
# make python builds in $(BUILD)-py, beside $(BUILD) (not inside it): ccache's
# keys hold the source paths relative to the build folder, so at the same
# depth the C core's objects are the ones make build compiled (found by their
# preprocessed text: the flags differ in the plugin path's -D only); in
# $(BUILD)/py a cold ccache compiled the core again. (The CUDA plugin's nvcc
# objects are compiled in each: ccache keys nvcc's by the working folder.)
PIP      = $(PY) -m pip install --no-build-isolation --no-deps -q -Cbuild-dir=$(BUILD)-py
# ccache hashes the working folder into nvcc's keys (and -g compiles'):
# without this make python compiled the CUDA plugin's nvcc objects again in
# $(BUILD)-py (about 2 CPU minutes on a cold cache, elementwise.cu alone
# 60-75 s); at the same depth the relative paths are the same, so the
# objects are too.
export CCACHE_NOHASHDIR = 1
export OMPI_ALLOW_RUN_AS_ROOT = 1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM = 1

# Each stage of make test prints its name and the time it starts, so a CI
# log shows where its minutes went.
STAGE = @echo "== make $@: $$(date +%T)"

.PHONY: all setup build python test test-c test-backend test-asan test-tsan test-python test-mpi test-sim test-cudahost gpu-check run bench bench-scaling clean fuzz wheel test-pythons

all: build python

setup:
	@PYTHON=$(PY) bash tools/setup.sh

$(BUILD)/build.ninja:
	meson setup $(BUILD) -Dpython=false

build: setup $(BUILD)/build.ninja
	ninja -C $(BUILD) -j $(JOBS)

python: setup
	$(PIP) .

test-c: build
	$(STAGE)
	meson test -C $(BUILD) --print-errorlogs

# The backend harness alone: every op x dtype x layout on each processor
# configuration against the reference (C, tests/backend; also part of
# test-c), then against NumPy (tests/python/test_backend_ops.py; also part
# of test-python). ARGS go to the C harness: -o op, -b processor, -s, -l.
test-backend: build python
	./$(BUILD)/tests/backend/test_backend_ops -q $(ARGS)
	$(PY) -m pytest tests/python/test_backend_ops.py -q

# AddressSanitizer + UndefinedBehaviorSanitizer over the C tests (without the
# CUDA plugin: it cannot run on a machine without a GPU, and build/ builds it).
# meson test builds what the tests run (not the benchmarks: build/ compiles
# them). The sanitizer builds compile at -O1 with line tables only (-g1:
# reports keep their file:line, not the variables): at debugoptimized's
# -O2 -g the kernel loops and the fused-kernel generator's test took 2.3-2.9
# times the CPU (loops_arith.c 57 against 25 s, test_fused_gen.c 64 against
# 22 s), most of a cold CI's sanitizer minutes; the tests run about 15 %
# longer. Asserts stay on (b_ndebug=false).
SAN_SETUP = -Dpython=false -Dcuda=disabled -Doptimization=1 -Ddebug=false -Db_ndebug=false \
            -Dc_args=-g1 -Db_lundef=false
test-asan: setup
	$(STAGE)
	@[ -f $(BUILD)-asan/build.ninja ] || meson setup $(BUILD)-asan $(SAN_SETUP) \
	  -Db_sanitize=address,undefined
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
	  meson test -C $(BUILD)-asan --print-errorlogs

# ThreadSanitizer over the runtime's concurrency tests (meson suite tsan).
# meson test builds only the programs of that suite (test_core, test_device,
# test_export, test_lookahead, the plugin's host build and its emulation's
# test): the rest of the tree under ThreadSanitizer (the kernel emulation
# test_devkernels, the backend harness, the other C tests, the benchmarks)
# ran in no test, and build/ and build-asan/ compile it.
test-tsan: setup
	$(STAGE)
	@[ -f $(BUILD)-tsan/build.ninja ] || meson setup $(BUILD)-tsan $(SAN_SETUP) -Db_sanitize=thread
	TSAN_OPTIONS=halt_on_error=1 meson test -C $(BUILD)-tsan --print-errorlogs --suite tsan

# The suite twice: with the conftest's 4096-byte tiles (many tiles on small
# arrays; test_at_scale_*.py switch to the default 2 MiB tiles per test),
# then with the default 2 MiB tiles throughout. Modules that already run at
# default settings (children without NDTILE_*, or the default_settings
# fixture) run once: among them the device modules, whose every test
# starts processes with devices of their own and drops the caller's
# NDTILE_ settings (the second pass repeated them: about 5 of CI's minutes).
# Likewise the other modules' tests at default settings (the default_settings
# fixture or marker: the conftest's --skip-default-settings), which the
# second pass ran as the first had (449 tests, 96 of its CPU seconds).
ONCE = test_fuzz_corpus.py test_trust_algos.py test_default_tiles.py test_interrupt.py test_fperr_numpy.py \
       test_memory_limit.py test_leaks.py test_devices.py test_cuda_matmul.py test_cuda_fft.py \
       test_cuda_linalg.py test_random_devices.py test_gpu_budget_ranks.py test_fork.py \
       test_many_tiles.py test_devices_plan.py test_cuda_kinds.py test_cuda_kinds2.py \
       $(notdir $(wildcard tests/python/test_at_scale_*.py))
# Each pass runs in PYTEST_JOBS processes (pytest-xdist; default one per
# core, 1 for one process): most of its time is the modules whose tests
# start child processes at default settings (test_trust_algos, the device
# modules), which one process would run one after another. worksteal: a
# process that runs out of tests takes pending ones from the other (their
# times range from milliseconds to half a minute).
PYTEST_JOBS ?= $(JOBS)
XDIST = $(if $(filter-out 0 1,$(PYTEST_JOBS)),-n $(PYTEST_JOBS) --dist worksteal)
test-python: python
	$(STAGE)
	$(PY) -m pytest tests/python -q $(XDIST)
	NDTILE_TILE_BYTES=2097152 $(PY) -m pytest tests/python -q $(XDIST) --skip-default-settings \
	  $(addprefix --ignore=tests/python/,$(ONCE))

# The same programs on 1-4 MPI ranks: bitwise equal to one process, the C
# suites passing on 2-4 ranks, the Python suite on ranks once: its modules
# whose results depend on the split (tests/mpi/run.py's SPLIT_MODULES) on 3
# ranks, the rest on 2 (PYTEST_RANKS=2,3,4 adds the split modules on 4;
# PYTEST_RANKS=2 the whole suite on 2; PYTEST_RANKS=3,2 the rest on 3 and
# the split modules on 2), output once, fail-stop, array lifetimes that
# differ between ranks. The split modules ran on 2 ranks as well until
# session 31 (about 100 s of CI: their 3-rank pass took 244 s, and a test
# takes 2.4 times as long on 3 ranks as on 2 on 2 cores): 3 ranks hold
# every kind of split point 2 have, and a middle rank; the even split
# stays compared with one process by ops.py's bits on 1-4 ranks, the C
# suites on 2-4 and test_fuzz_corpus's ranks2 settings (tests/mpi/run.py,
# SPLIT_MODULES, says more). Besides, test_ufunc's tests of one-tile arrays
# (promotion of mixed dtypes and Python scalars, dtype=, each op over the
# one-tile shapes) run with the rest on 2 ranks (ONE_TILE_TESTS), and test_backend_ops's unary and binary op x
# dtype x layout table on one process only (RANKS_DESELECT: test_ufunc's
# same ops on 3 ranks, the views in the split modules).
PYTEST_RANKS ?= 2,3
test-mpi: build python
	$(STAGE)
	$(PY) tests/mpi/run.py --build $(BUILD) --pytest-ranks $(PYTEST_RANKS)

# The suites on two simulated devices of 4 MiB each (docs/design.md,
# "Devices"): every task placed on a device by the owner rule, tiles copied,
# evicted and written back, tasks falling back to the CPU; the results must
# be the CPU's bits. The C tests (less the backend harness, whose simdev
# configurations test-c runs, and the meson suite no-sim: the tests whose
# devices are their own, and the -simdev runs, which NDTILE_DEVICES makes
# their plain tests' runs: here they repeated test-c, tests/c/meson.build
# says more), then the device-relevant part of the Python suite (about 3
# minutes in all on 2 cores). Not test_devices.py,
# test_cuda_matmul.py and test_random_devices.py: they start processes with
# devices of their own (each sets NDTILE_DEVICES and drops the caller's),
# so test-python runs all they do once, and here they would repeat it.
SIM_ENV = NDTILE_DEVICES=sim:2,mem=4M
SIM_PY  = test_ufunc.py test_reduce.py test_fusion.py test_inplace.py test_indexing.py \
          test_sort.py test_scan.py test_matmul.py test_random.py test_manip.py
test-sim: build python
	$(STAGE)
	$(SIM_ENV) meson test -C $(BUILD) --print-errorlogs --no-suite backend --no-suite no-sim
	$(SIM_ENV) $(PY) -m pytest -q -p no:cacheprovider $(XDIST) $(addprefix tests/python/,$(SIM_PY))
	$(MAKE) test-cudahost PY=$(PY) BUILD=$(BUILD)

# The CUDA plugin itself on CPUs: its host build (tests/cudahost: the same
# src/runtime/cuda.c against an emulated CUDA runtime, libndtile_cudahost.so)
# loaded as the plugin, on two emulated GPUs with a 256 KiB budget each
# (evictions, fallbacks), under the same C and Python suites as test-sim
# (less the meson suite no-cudahost: the tests whose devices and CUDA
# settings are their own, which here repeated test-c): the CPU's bits
# (about 1.5 minutes on 2 cores). make test-c runs its own tests (meson
# suite cudahost: sums, flags, an injected fault).
CUDAHOST_PLUGIN = $(abspath $(BUILD))/tests/cudahost/libndtile_cudahost.so
CUDAHOST_ENV = NDTILE_DEVICES=cuda:0,1 NDTILE_CUDA_MEM=256k NDTILE_CUDA_PLUGIN=$(CUDAHOST_PLUGIN) \
               NDTILE_CUDAHOST_PLUGIN=$(CUDAHOST_PLUGIN) NDTILE_CACHE_DIR=$(abspath $(BUILD))/fused-cache
test-cudahost: build python
	$(STAGE)
	$(CUDAHOST_ENV) meson test -C $(BUILD) --print-errorlogs --no-suite backend --no-suite no-cudahost
	$(CUDAHOST_ENV) $(PY) -m pytest -q -p no:cacheprovider $(XDIST) $(addprefix tests/python/,$(SIM_PY))

# The GPU check (tools/gpu_check.sh) on simulated devices; on a machine with
# a GPU run tools/gpu_check.sh without --sim.
gpu-check: build python
	PY=$(PY) BUILD=$(BUILD) tools/gpu_check.sh --sim

test: test-c test-asan test-tsan test-python test-mpi test-sim
	@echo "== make test: all passed $$(date +%T)"

# Differential fuzzing against NumPy over the settings matrix, SECONDS per
# setting (docs/fuzzing.md). test-python runs its corpus and fixed seeds
# (tests/python/test_fuzz_corpus.py).
SECONDS ?= 60
fuzz: python
	$(PY) tests/fuzz/run.py --seconds $(SECONDS) $(ARGS)

# The main job reads its run from disk, as at a facility: the default run
# (1024x1024, 400 frames, a 32-frame dark run) is written once under out/
# and again only when the generator changes.
XRAY_RUN = out/xray-run/run.h5
$(XRAY_RUN): examples/xray/generate.py
	$(PY) examples/xray/generate.py $@

run: python $(XRAY_RUN)
	$(PY) examples/xray/run.py --input $(XRAY_RUN) $(ARGS)

bench: build python
	./$(BUILD)/bench/bench_core
	$(PY) bench/run.py $(ARGS)
	$(PY) bench/scaling.py
	@if nvidia-smi -L 2>/dev/null | grep -q GPU; then $(PY) bench/gpu/run.py; \
	else echo "bench/gpu: no GPU here (nvidia-smi -L lists none); skipped"; fi

# 1 rank x all cores against 2 ranks sharing them, with bytes moved per call.
bench-scaling: python
	$(PY) bench/scaling.py $(ARGS)

# A manylinux wheel in dist/ (auditwheel; one process, no MPI: see
# tools/wheel.sh), installed into a fresh venv that runs a smoke test.
wheel:
	@PYTHON=$(PY) bash tools/setup.sh wheel
	bash tools/wheel.sh $(PY)

# Build and smoke-test the package on the other Pythons 3.10-3.13 that are
# installed (each skipped with a message where absent); `make test` covers PY.
test-pythons: setup
	$(STAGE)
	bash tools/test_pythons.sh $(PY)

clean:
	rm -rf $(BUILD) $(BUILD)-py $(BUILD)-asan $(BUILD)-tsan build-py3.* out dist
