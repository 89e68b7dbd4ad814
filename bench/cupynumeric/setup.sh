#!/usr/bin/env bash
# Installs cuPyNumeric for the benchmark's cuPyNumeric column, in its own
# virtual environment (never into the main Python: the wheel pulls in ~2.5 GB
# of CUDA libraries and pins numpy < 2.5).  The venv sees the main Python's
# packages (--system-site-packages), so it uses the same NumPy.
#
#   bash bench/cupynumeric/setup.sh          # then: make bench (auto-detected)
#
# On a machine without the NVIDIA driver it also builds nocuda/libcuda.so.1
# (see nocuda.c) so that Legate can run on CPUs.  Env: PY (default python3),
# CUPYNUMERIC_VENV (default ~/.cache/ndtile/cupynumeric-venv).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
PY=${PY:-python3}
VENV=${CUPYNUMERIC_VENV:-$HOME/.cache/ndtile/cupynumeric-venv}

[ -x "$VENV/bin/python" ] || "$PY" -m venv --system-site-packages "$VENV"
"$VENV/bin/python" -m pip install -q nvidia-cupynumeric

if ! ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
  echo "no NVIDIA driver (libcuda.so.1): building the no-CUDA shim"
  mkdir -p "$VENV/nocuda"
  site=$("$VENV/bin/python" -c 'import legate, os; print(os.path.dirname(os.path.dirname(legate.__file__)))')
  # Every cu* driver symbol the wheels link directly, beyond those nocuda.c defines.
  defined="cuGetErrorName|cuGetErrorString|cuInit|cuDriverGetVersion|cuDeviceGetCount|cuGetProcAddress|cuGetProcAddress_v2"
  {
    cat "$HERE/nocuda.c"
    find "$site"/legate* "$site"/cupynumeric* "$site"/nvidia_cupynumeric* -name '*.so*' -print0 2>/dev/null |
      xargs -0 -r nm -D --undefined-only 2>/dev/null | awk '{print $2}' | sed 's/@.*//' |
      grep -E '^cu[A-Z]' | grep -v -x -E "$defined" | sort -u |
      awk '{print "CUresult " $1 "(void) { return CUDA_ERROR_NO_DEVICE; }"}'
  } > "$VENV/nocuda/nocuda_all.c"
  cc -shared -fPIC -O2 -w -o "$VENV/nocuda/libcuda.so.1" "$VENV/nocuda/nocuda_all.c"
fi

LD_LIBRARY_PATH="$VENV/nocuda${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
LEGATE_CONFIG="--cpus 1 --gpus 0 --sysmem 1000" \
  "$VENV/bin/python" -c 'import cupynumeric as np; assert float(np.arange(10.0).sum()) == 45.0; print("cupynumeric", np.__version__ if hasattr(np, "__version__") else "", "works on CPU")'
"$PY" -c 'import numpy; print("main python still has numpy", numpy.__version__)'
echo "CUPYNUMERIC_PYTHON=$VENV/bin/python  (bench/run.py finds this default location itself)"
