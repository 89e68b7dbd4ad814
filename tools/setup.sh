#!/usr/bin/env bash
# Installs what a fresh machine lacks to build, test and run ndtile.
# Idempotent: each step is skipped when its result is already present.
set -euo pipefail

PY=${PYTHON:-python3}
apt_pkgs=(ninja-build pkg-config libopenblas-dev libsleef-dev libopenmpi-dev openmpi-bin)
missing=()
for p in "${apt_pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: apt-get install ${missing[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# scipy-openblas32: the OpenBLAS that meson links when Python can import it
# (meson -Dblas=auto; the system libopenblas-dev is the fallback).
pip_pkgs=(numpy meson meson-python ninja pytest hypothesis numexpr matplotlib scipy-openblas32)
need=()
for p in "${pip_pkgs[@]}"; do
  mod=${p//-/_}
  [ "$p" = meson-python ] && mod=mesonpy
  [ "$p" = meson ] && mod=mesonbuild
  "$PY" -c "import $mod" >/dev/null 2>&1 || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: pip install ${need[*]}"
  "$PY" -m pip install -q "${need[@]}"
fi
