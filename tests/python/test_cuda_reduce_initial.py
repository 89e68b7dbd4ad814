"""Seeded reductions (sum/prod/nansum/nanprod and add/multiply.reduce with
initial=) on the CUDA plugin's host build (tests/cudahost: the plugin's
kernels compiled for the CPU, on an emulated CUDA runtime; never run on a
GPU here): the seeded kinds ("pairwise leaf, seeded", "reduce block,
seeded", "reduce combine, seeded") run on the device wherever their
unseeded kinds do (the device log: placements, no fallback), with the
CPU's bits (the same script without devices: one digest) and NumPy's
wherever the unseeded reduction has NumPy's bits; at 4 KiB and 2 MiB
tiles, over float, complex, integer and bool dtypes, axes, views with
steps, -0.0s (a sum of them from initial=-0.0 is -0.0: the device's
pairwise leaves start from -0.0, as the CPU's), NaNs (a NaN adds 0 in a
nansum: -0.0 + 0 is +0.0), 0-d and empty arrays. Each run is a child
process: devices are chosen when the runtime starts."""
import json
import os
import subprocess
import sys
import textwrap

import pytest

SCRIPT = r"""
import ctypes, hashlib, json, os, warnings, numpy, ndtile as np
lib = ctypes.CDLL(np._core.__file__)
lib.ndt_debug_device_log_text.restype = ctypes.c_char_p
BIG = os.environ["NDTILE_TILE_BYTES"] != "4096"
rng = numpy.random.default_rng(7)
bad, moved, ran, digest = [], [], {"device": 0}, hashlib.sha256()
KINDS = ("pairwise leaf", "reduce block", "reduce combine")
def placed(f):
    # the reduction kinds the CPU ran (", seeded" dropped), and the
    # seeded ones a device ran
    lib.ndt_debug_device_log(1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = numpy.asarray(f())
    log = lib.ndt_debug_device_log_text().decode()
    lib.ndt_debug_device_log(0)
    cpu = set()
    for line in log.splitlines():
        if line.startswith("fallback"):
            cpu.add(line)
        if not line.startswith("place ") or not any(k in line for k in KINDS):
            continue
        kind, proc = line[6:].rsplit(" ", 1)
        if proc == "cpu":
            cpu.add(kind.replace(", seeded", ""))
        elif "seeded" in kind:
            ran["device"] += 1
    return r, cpu
def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
def check(tag, f_nt, f_np, g_nt, g_np):
    # f: seeded, g: the same unseeded
    got, cpu1 = placed(f_nt)
    plain, cpu0 = placed(g_nt)
    digest.update(repr((tag, got.dtype.str, got.shape)).encode() + got.tobytes())
    if cpu1 - cpu0:
        moved.append([tag, sorted(cpu1 - cpu0)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want, want0 = numpy.asarray(f_np()), numpy.asarray(g_np())
    if got.dtype != want.dtype or got.shape != want.shape:
        bad.append([tag, "dtype/shape", str(got.dtype), str(want.dtype)])
    elif same_bits(plain, want0) and not same_bits(got, want):
        bad.append([tag, "bits"])
def data(dt, shape, kind):
    n = int(numpy.prod(shape))
    dt = numpy.dtype(dt)
    if dt.kind == "b":
        return (rng.integers(0, 3, n) == 0).reshape(shape)
    if dt.kind in "iu":
        return rng.integers(0 if dt.kind == "u" else -50, 50, n).astype(dt).reshape(shape)
    if kind == "negzero":
        a = numpy.full(n, -0.0)
    else:
        a = rng.standard_normal(n) * (1e3 if kind == "normal" else 1)
        if kind == "nan":
            a[::7] = numpy.nan
            a.reshape(shape)[..., 1] = numpy.nan      # a whole column of NaNs
    if dt.kind == "c":
        a = a + 1j * (a[::-1] if kind != "negzero" else a)
    return a.astype(dt).reshape(shape)
VIEWS = {"c": lambda x: x, "T": lambda x: x.T, "step": lambda x: x[::2, ::-3]}
shape = (600, 520) if BIG else (120, 45)
for dt in ["f4", "f8", "c8", "c16", "i4", "u1", "i8", "?"]:
    fl = numpy.dtype(dt).kind in "fc"
    for kind in (["normal", "negzero", "nan"] if fl else ["normal"]):
        v = data(dt, shape, kind)
        x = np.asarray(v)
        x = x | x if dt == "?" else x * v.dtype.type(1)     # resident on the device
        inits = ([-0.0, 2.5] if kind != "nan" else [-0.0]) if fl else [5, True] if dt == "?" else [5, -3]
        if dt == "u1":
            inits = [5]
        views = sorted(VIEWS) if (not BIG or dt in ("f8", "c8")) else ["c"]
        for vn in views:
            xv, vv = VIEWS[vn](x), VIEWS[vn](v)
            for f in (["sum", "prod", "nansum", "nanprod"] if fl else ["sum", "prod"]):
                if f.endswith("prod") and kind == "normal" and fl:
                    # (scaled before the view: NumPy's result of x.T / 1e3
                    # is in x.T's memory order, ndtile's in C order)
                    xv2, vv2 = VIEWS[vn](x / 1e3), VIEWS[vn](v / 1e3)
                else:
                    xv2, vv2 = xv, vv
                for ax in [None, 0, 1, (0, 1)] if not BIG else [None, 0, 1]:
                    for init in inits:
                        tag = str((dt, kind, vn, f, ax, init))
                        check(tag, lambda: getattr(np, f)(xv2, axis=ax, initial=init),
                              lambda: getattr(numpy, f)(vv2, axis=ax, initial=init),
                              lambda: getattr(np, f)(xv2, axis=ax),
                              lambda: getattr(numpy, f)(vv2, axis=ax))
# the ufuncs' reduce, 3-d lines that do not coalesce, short lines of -0.0s
v = data("f8", (4, 10, 40), "normal")
x = np.asarray(v) * 1.0
for uf, ax in [("add", (1, 2)), ("add", (0, 2)), ("multiply", 2), ("add", None)]:
    for init in (1.5, -0.0):
        sc = 1e3 if uf == "multiply" else 1.0
        check(str((uf, ax, init)), lambda: getattr(np, uf).reduce(x[:, :, :30] / sc, axis=ax, initial=init),
              lambda: getattr(numpy, uf).reduce(v[:, :, :30] / sc, axis=ax, initial=init),
              lambda: getattr(np, uf).reduce(x[:, :, :30] / sc, axis=ax),
              lambda: getattr(numpy, uf).reduce(v[:, :, :30] / sc, axis=ax))
for z in (numpy.full((300, 5), -0.0), numpy.full((300, 3), complex(-0.0, -0.0), numpy.complex64)):
    xz = -np.asarray(-z)          # on the device, -0.0 in every part
    for ax in (None, 0, 1):
        for f in ("sum", "nansum"):
            check(str(("negzero short", z.dtype.str, f, ax)),
                  lambda: getattr(np, f)(xz, axis=ax, initial=-0.0),
                  lambda: getattr(numpy, f)(z, axis=ax, initial=-0.0),
                  lambda: getattr(np, f)(xz, axis=ax), lambda: getattr(numpy, f)(z, axis=ax))
# 0-d and empty
for a in (numpy.float64(-0.0), numpy.zeros((0, 4)), numpy.zeros((4, 0), numpy.complex64)):
    for ax in (None, 0, -1) if a.ndim else (None,):
        check(str(("small", a.shape, ax)), lambda: np.sum(np.asarray(a), axis=ax, initial=-0.0),
              lambda: numpy.sum(a, axis=ax, initial=-0.0),
              lambda: np.sum(np.asarray(a), axis=ax), lambda: numpy.sum(a, axis=ax))
print(json.dumps([bad, moved, ran["device"], digest.hexdigest()]))
"""


def run(**env_add):
    env = {k: v for k, v in os.environ.items() if not k.startswith("NDTILE_")}
    env.update(NDTILE_WORKERS="2", **env_add)
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(SCRIPT)], env=env,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-4000:]
    return json.loads(r.stdout.splitlines()[-1])


def cudahost_plugin():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    p = os.environ.get("NDTILE_CUDAHOST_PLUGIN") or os.path.join(
        root, "build", "tests", "cudahost", "libndtile_cudahost.so")
    return p if os.path.exists(p) else None


@pytest.mark.skipif(cudahost_plugin() is None, reason="no libndtile_cudahost.so (make build)")
@pytest.mark.parametrize("tiles", ["4096", "2097152"])
def test_seeded_reductions_run_on_the_device_with_the_cpus_bits(tiles):
    dev = run(NDTILE_TILE_BYTES=tiles, NDTILE_DEVICES="cuda:0,1", NDTILE_CUDA_MEM="64M",
              NDTILE_CUDA_PLUGIN=cudahost_plugin())
    bad, moved, on_device, digest = dev
    assert bad == [], bad[:10]
    assert moved == [], moved[:10]       # seeding sends nothing to the CPU
    assert on_device >= 500, on_device    # the seeded kinds ran on the devices
    cpu = run(NDTILE_TILE_BYTES=tiles)
    assert cpu[0] == [], cpu[0][:10]
    assert cpu[3] == digest               # the CPU's bits
