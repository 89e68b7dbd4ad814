#!/usr/bin/env bash
# tools/gpu_check.sh - the one prepared GPU check (issue 18, docs/design.md
# "Devices"): build with the CUDA plugin, device info, the device kernels
# against the CPU's loops bit for bit (test_devkernels: on the CPU here, the
# plugin's on the GPU there), the device tests and the backend harness, the Python suite's device-relevant
# part under NDTILE_DEVICES=cuda, OOM fallback with a small NDTILE_CUDA_MEM,
# two virtual devices on one GPU (cuda:0,cuda:0), and the GPU benchmarks
# against CuPy when it is installed (bench/gpu/run.py). Every stage has its own timeout; the
# caps add up to 9.8 minutes besides the build (most stages end well before
# their caps; a prebuilt build-cuda/ makes the build seconds). Writes
# $OUT/gpu_check.json and $OUT/log.txt ($OUT defaults to out/gpu_check).
#
#   tools/gpu_check.sh          on a machine with a GPU (nvcc, driver; the
#                               Python package built with make python, its .venv
#                               carried along)
#   tools/gpu_check.sh --sim    the same stages on simulated devices
#                               (NDTILE_DEVICES=sim:...), on any machine; then,
#                               as its last stage, --cudahost
#   tools/gpu_check.sh --cudahost  the GPU stages themselves (NDTILE_DEVICES=cuda,
#                               the same commands) on any machine, through
#                               the CUDA plugin's host build (tests/cudahost:
#                               cuda.c against an emulated CUDA runtime), less
#                               the benchmark; it also injects a kernel fault
set -u -o pipefail
cd "$(dirname "$0")/.."
SIM=0
HOSTCUDA=0
[ "${1:-}" = "--sim" ] && SIM=1
[ "${1:-}" = "--cudahost" ] && HOSTCUDA=1
OUT=${OUT:-out/gpu_check}
mkdir -p "$OUT"
LOG="$OUT/log.txt"
: > "$LOG"
PY=${PY:-$( [ -x .venv/bin/python ] && echo .venv/bin/python || echo python3 )}
if [ $SIM = 1 ]; then
  BUILD=${BUILD:-build}
  DEV1="sim:1,mem=64M"; DEV2="sim:2,mem=4M"; SMALL="sim:1,mem=4M"; MEMVAR=""
elif [ $HOSTCUDA = 1 ]; then
  BUILD=${BUILD:-build}
  DEV1="cuda"; DEV2="cuda:0,cuda:0"; SMALL="cuda"; MEMVAR="NDTILE_CUDA_MEM=6M"
  export NDTILE_CUDA_PLUGIN=$PWD/$BUILD/tests/cudahost/libndtile_cudahost.so
else
  BUILD=${BUILD:-build-cuda}
  DEV1="cuda"; DEV2="cuda:0,cuda:0"; SMALL="cuda"; MEMVAR="NDTILE_CUDA_MEM=256M"
  export NDTILE_CUDA_PLUGIN=${NDTILE_CUDA_PLUGIN:-$PWD/$BUILD/libndtile_cuda.so}
  # The toolkit where the lent machine keeps it: nvcc for the build, and
  # its libraries for the loader (the plugin NEEDs libcudart.so.13 and has
  # no RUNPATH; cuBLAS, cuFFT, cuSOLVER and NVRTC are dlopened by soname),
  # in case its ld.so.conf does not name them.
  CUDA_ROOT=${CUDA_HOME:-$(dirname "$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")")}
  [ -x "$CUDA_ROOT/bin/nvcc" ] && PATH=$CUDA_ROOT/bin:$PATH
  for l in "$CUDA_ROOT/lib64" "$CUDA_ROOT/lib"; do
    [ -e "$l/libcudart.so.13" ] && LD_LIBRARY_PATH=$l${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  done
  export PATH LD_LIBRARY_PATH
  # the GPU's architecture for nvcc (90: H100/H200), unless GPU_ARCH says
  GPU_ARCH=${GPU_ARCH:-$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null |
                         head -n 1 | tr -d ' .')}
  GPU_ARCH=${GPU_ARCH:-90}
  # a build directory made for another checkout (a copied one: meson's
  # directories are absolute) is made again
  if [ -f "$BUILD/meson-info/meson-info.json" ] &&
     ! grep -q "\"source\": \"$PWD\"" "$BUILD/meson-info/meson-info.json"; then
    echo "$BUILD was configured for another source directory: made again"
    rm -rf "$BUILD"
  fi
fi
# meson and ninja from the Python's environment where it has them
case "$PY" in */*) [ -d "$(dirname "$PY")" ] && PATH=$(cd "$(dirname "$PY")" && pwd):$PATH;; esac
export PATH
T0=$(date +%s)
STAGES=()
FAILED=0

# stage NAME CAP COMMAND...: runs it under a timeout, logs it, records the result
stage() {
  local name=$1 cap=$2; shift 2
  local s=$(date +%s)
  echo "==== $name (cap ${cap}s): $*" | tee -a "$LOG"
  timeout "$cap" bash -c "$*" 2>&1 | tail -n 400 | tee -a "$LOG" > "$OUT/$name.txt"
  local rc=${PIPESTATUS[0]}
  local e=$(( $(date +%s) - s ))
  tail -n 5 "$OUT/$name.txt"
  echo "---- $name: rc=$rc in ${e}s" | tee -a "$LOG"
  [ "$rc" = 0 ] || FAILED=$((FAILED + 1))
  STAGES+=("{\"stage\": \"$name\", \"rc\": $rc, \"seconds\": $e}")
}

if [ $SIM = 1 ]; then
  stage info 15 "echo simulated devices; nproc; $PY -c 'import ndtile' && echo ndtile imports"
  stage build 300 "ninja -C $BUILD && $PY -c 'import ndtile'"
elif [ $HOSTCUDA = 1 ]; then
  stage info 15 "echo the CUDA plugin host build: $NDTILE_CUDA_PLUGIN; nproc"
  stage build 300 "ninja -C $BUILD && ls -l $NDTILE_CUDA_PLUGIN && $PY -c 'import ndtile'"
else
  stage info 15 "nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,compute_cap --format=csv; nvcc --version | tail -n 2; echo gpu_arch $GPU_ARCH; $PY -c 'import cupy; print(\"cupy\", cupy.__version__)' || echo no cupy"
  stage build 200 "[ -f $BUILD/build.ninja ] || meson setup $BUILD -Dcuda=enabled -Dgpu_arch=$GPU_ARCH -Dpython=false; ninja -C $BUILD && ls -l $BUILD/libndtile_cuda.so"
  # what the loader finds: the plugin's libcudart, and the libraries it
  # dlopens (one missing sends its family to the CPU, said under
  # NDTILE_VERBOSE=1)
  cat > "$OUT/libs.sh" <<'SHEOF'
ldd "$1" | grep -E 'cudart|not found'
for l in libcublas.so.13 libcufft.so.12 libcusolver.so.12 libnvrtc.so.13; do
  f=$(ldconfig -p | grep -m 1 "[[:space:]]$l " | sed 's/.*=> //')
  for d in $(echo "${LD_LIBRARY_PATH:-}" | tr : ' '); do [ -z "$f" ] && [ -e "$d/$l" ] && f=$d/$l; done
  echo "$l: ${f:-NOT FOUND}"
done
SHEOF
  stage libs 10 "bash $OUT/libs.sh $NDTILE_CUDA_PLUGIN"
fi

# device info: what the runtime found, and why not
stage devinfo 20 "NDTILE_VERBOSE=1 NDTILE_DEVICES=$DEV1 $PY -c 'import ndtile as np; print(np.devices()); print(repr(np._core.device_note())); assert np.devices(), \"no device\"'"

# the device runtime tests, and the backend harness against its reference
# the device kernels' source against the CPU's loops, bit for bit: compiled
# as C on an emulated grid (test_devkernels; "mirror": through device copies
# of every buffer); on a GPU, the plugin's kernels as nvcc built them
if [ $SIM = 1 ]; then
  stage devkernels 60 "./$BUILD/tests/c/test_devkernels && ./$BUILD/tests/c/test_devkernels mirror"
else
  stage devkernels 90 "./$BUILD/tests/c/test_devkernels && NDT_REQUIRE_GPU=1 ./$BUILD/tests/c/test_devkernels cuda $NDTILE_CUDA_PLUGIN"
fi

if [ $SIM = 1 ]; then
  stage device_tests 60 "for m in parse coherence thrash tiny born groups nocuda cuda; do ./$BUILD/tests/c/test_device \$m || exit 1; done; ./$BUILD/tests/c/test_device golden tests/c/device_golden.txt && NDT_REQUIRE_PLANNED=1 ./$BUILD/tests/c/test_device determinism sim:2,mem=40k 20000"
  stage backend 120 "./$BUILD/tests/backend/test_backend_ops -q -b simdev:w2:t4k"
else
  # (the harness selects one processor per configuration; the CUDA plugin
  # runs a few kinds only, so the device-vs-CPU comparison is test_device
  # cuda and the Python stages below)
  # the plan (copies, evictions, fallbacks decided in program order) the
  # same with one worker and two on the GPU, with the CPU's bits, and
  # nothing unplanned run (NDT_REQUIRE_PLANNED=1)
  # the float sums on the device (their bits and flags), every divide by
  # zero reported with two workers on one device; matrix products through
  # cuBLAS, FFTs through cuFFT and solve/inv/cholesky through cuSOLVER
  # within the stated bounds of the CPU's,
  # the same bits run to run
  stage device_tests 120 "./$BUILD/tests/c/test_device cuda && ./$BUILD/tests/c/test_device nocuda && NDT_REQUIRE_PLANNED=1 ./$BUILD/tests/c/test_device determinism cuda 200000 && ./$BUILD/tests/c/test_device cudasum cuda && ./$BUILD/tests/c/test_device cudaflags cuda && ./$BUILD/tests/c/test_cudamatmul && ./$BUILD/tests/c/test_cudafft && ./$BUILD/tests/c/test_cudalinalg"
  # pinned host memory: large host buffers registered once at their first
  # copy, kept while cached, unregistered by a trim; NDTILE_CUDA_PINNED=0
  stage pinned 30 "./$BUILD/tests/c/test_cudapin on && ./$BUILD/tests/c/test_cudapin off"
fi
if [ $HOSTCUDA = 1 ]; then
  # an injected kernel fault: an error naming the op, the devices disabled,
  # the program going on on the CPU (the injection is the host build's)
  stage fault 30 "./$BUILD/tests/c/test_device cudafault cuda:0,1 && ./$BUILD/tests/c/test_device cudafault cuda:0,cuda:0"
fi

# the Python suite's device-relevant part on the device(s): every family
# the plugin takes (elementwise with and without casts, fused, reductions,
# scans, indexing and argwhere, sort and bincount, products and matvec's
# combine, random, arange and linspace, FFT, linalg), against NumPy. (test_devices.py is the host build's: its tests start processes
# with the emulated plugin, so it is not run here.)
PYDEV=$(for f in ufunc reduce fusion inplace indexing scan sort counting matmul random creation fft linalg; do
          printf 'tests/python/test_%s.py ' $f; done)
stage python 150 "NDTILE_DEVICES=$DEV1 $PY -m pytest -q -x -p no:cacheprovider $PYDEV"

# OOM fallback: a working set far beyond the device memory; the CPU's bits
cat > "$OUT/work.py" <<'PYEOF'
import hashlib, sys, numpy, ndtile as np
n = int(sys.argv[1])
a = np.arange(float(n)); b = a * 0.5 + 1.0; c = np.negative(b) + a * a
i = np.arange(n, dtype=np.int64) * np.int64(3) - np.int64(7)
s = float(c.sum()); m = np.arange(256.0 * 256).reshape(256, 256); mm = m @ m.T
h = hashlib.sha256()
for x in (c, i, mm):
    h.update(numpy.asarray(x).tobytes())
h.update(numpy.float64(s).tobytes())
print(h.hexdigest(), np._core.device_stats(), [d['name'] for d in np.devices()])
PYEOF
NBIG=$([ $SIM = 1 ] || [ $HOSTCUDA = 1 ] && echo 4000000 || echo 100000000)
stage oom 60 "cpu=\$(NDTILE_DEVICES=none $PY $OUT/work.py $NBIG | cut -d' ' -f1); dev=\$(NDTILE_DEVICES=$SMALL $MEMVAR $PY $OUT/work.py $NBIG); echo cpu \$cpu; echo dev \$dev; [ \"\$cpu\" = \"\${dev%% *}\" ]"
stage multi 45 "cpu=\$(NDTILE_DEVICES=none $PY $OUT/work.py 3000000 | cut -d' ' -f1); dev=\$(NDTILE_DEVICES=$DEV2 $PY $OUT/work.py 3000000); echo cpu \$cpu; echo dev \$dev; [ \"\$cpu\" = \"\${dev%% *}\" ] && case \"\$dev\" in *simdev1*|*cuda1*) ;; *) exit 1;; esac"

# the GPU benchmarks side by side with CuPy (bench/gpu/run.py: copy, add,
# the fused chain, sums, small ops, transfers, gemm, the X-ray job); its
# last line is the JSON the summary takes. --sim runs it small, to check it.
BENCH_ARGS=$([ $SIM = 1 ] && echo "--quick" || echo "--reps 3 --log2n 26")
if [ $HOSTCUDA = 0 ]; then
  stage bench 90 "NDTILE_DEVICES=$DEV1 $PY bench/gpu/run.py $BENCH_ARGS | tee $OUT/bench.json"
fi
# --sim: the GPU stages themselves through the plugin's host build
if [ $SIM = 1 ]; then
  stage cudahost 420 "OUT=$OUT/cudahost PY=$PY BUILD=$BUILD tools/gpu_check.sh --cudahost"
fi

T1=$(date +%s)
{
  echo "{"
  echo "  \"mode\": \"$([ $SIM = 1 ] && echo sim || { [ $HOSTCUDA = 1 ] && echo cudahost || echo cuda; })\","
  echo "  \"seconds\": $((T1 - T0)),"
  echo "  \"failed\": $FAILED,"
  echo "  \"bench\": $(cat "$OUT/bench.json" 2>/dev/null | tail -n 1 | grep '^{' || echo null),"
  echo "  \"stages\": ["
  for i in "${!STAGES[@]}"; do
    [ "$i" -gt 0 ] && echo ","
    printf '    %s' "${STAGES[$i]}"
  done
  echo ""
  echo "  ]"
  echo "}"
} > "$OUT/gpu_check.json"
cat "$OUT/gpu_check.json"
[ "$FAILED" = 0 ]
