#!/usr/bin/env python3
"""GPU benchmarks (issue 18, item 10): ndtile on its CUDA devices and CuPy,
side by side in one run, on the same machine.

    python bench/gpu/run.py [--quick] [--json FILE] [--only a,b]

Each workload runs with ndtile (NDTILE_DEVICES as set, `cuda` by default
here) and with CuPy when it imports and finds a GPU; a workload that fails
on one side reports why in its cell, and the others go on. Rates are the
best of --reps runs after a warm-up, each timed to a full sync (ndtile's
sync, CuPy's device synchronize):

  copy        b[...] = a (float32): GB/s, the device's copy bandwidth here
  add         c = a + b: GB/s moved (3 arrays), and the fraction of copy
  chain       a*b + c*d - e: time; ndtile fuses it into one pass, CuPy
              runs four kernels (goal: >= 2x CuPy)
  sum         a.sum() (float32 and float64): GB/s read
  small op    x += 1 on a 1,000-element device array: host microseconds
              per op (goal: <= 5 us)
  h2d / d2h   a host array into a device op / a device result read back: GB/s
  sgemm/dgemm n x n matmul: TFLOP/s (ndtile: cuBLAS through the CUDA
              plugin's "matmul block" tasks, TF32 off, as CuPy's default)
  xray        the X-ray pipeline (examples/xray) on 1024x1024 frames in
              memory: frames/s (goal: >= 2,000)

Without a GPU (no plugin, no device: `NDTILE_DEVICES=sim:...` or the CUDA
plugin's host build) it runs all the same, which checks the script itself;
its figures then mean nothing. `make bench` runs it when `nvidia-smi -L`
lists a GPU; tools/gpu_check.sh runs it with --quick.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "examples", "xray"))

os.environ.setdefault("NDTILE_DEVICES", "cuda")
import ndtile  # noqa: E402


def _cupy():
    try:
        import cupy
        cupy.cuda.runtime.getDeviceCount()
        cupy.zeros(1).sum()
        return cupy
    except Exception as e:     # noqa: BLE001 - reported in the table
        return f"no CuPy ({type(e).__name__}: {e})".splitlines()[0][:80]


class Side:
    """One library: its module, how to sync, how to read back."""

    def __init__(self, name, xp):
        self.name, self.xp = name, xp
        if name == "ndtile":
            self.sync = ndtile._core.sync
            self.host = numpy.asarray
        else:
            self.sync = xp.cuda.Device().synchronize
            self.host = xp.asnumpy


def best(side, fn, reps):
    """The best time of fn() and a sync. What fn returns is held until
    after the sync: ndtile never computes a result nobody holds."""
    keep = fn()
    side.sync()
    ts = []
    for _ in range(reps):
        del keep
        t0 = time.perf_counter()
        keep = fn()
        side.sync()
        ts.append(time.perf_counter() - t0)
    return min(ts)


def w_copy(s, n, reps):
    a = s.xp.ones(n, dtype=s.xp.float32)
    b = s.xp.zeros(n, dtype=s.xp.float32)

    def f():
        b[...] = a
    return {"GB/s": 2 * 4 * n / best(s, f, reps) / 1e9}


def w_add(s, n, reps, copy_gbps=None):
    a = s.xp.ones(n, dtype=s.xp.float32)
    b = s.xp.ones(n, dtype=s.xp.float32)
    out = {}
    t = best(s, lambda: a + b, reps)
    out["GB/s"] = 3 * 4 * n / t / 1e9
    if copy_gbps:
        out["of copy"] = out["GB/s"] / copy_gbps
    return out


def w_chain(s, n, reps):
    a, b, c, d, e = (s.xp.full(n, v, dtype=s.xp.float32) for v in (1.5, 2.0, 0.5, 4.0, 1.0))
    t = best(s, lambda: a * b + c * d - e, reps)
    return {"ms": t * 1e3, "GB/s (6 arrays)": 6 * 4 * n / t / 1e9}


def w_sum(s, n, reps):
    out = {}
    for dt in ("float32", "float64"):
        a = s.xp.ones(n, dtype=dt)
        t = best(s, lambda: a.sum(), reps)
        out[f"{dt} GB/s"] = a.dtype.itemsize * n / t / 1e9
    return out


def w_small(s, n, reps):
    x = s.xp.ones(1000, dtype=s.xp.float64)
    x += 1      # device-resident from here
    k = 2000

    def f():
        for _ in range(k):
            x.__iadd__(1.0)
    return {"us/op": best(s, f, max(2, reps // 2)) / k * 1e6}


def w_transfer(s, n, reps):
    h = numpy.ones(n, dtype=numpy.float32)
    t1 = best(s, lambda: s.xp.asarray(h) + 1, reps)
    d = s.xp.ones(n, dtype=s.xp.float32) + 1
    s.sync()
    t2 = best(s, lambda: s.host(d), reps)
    return {"h2d+op GB/s": 4 * n / t1 / 1e9, "d2h GB/s": 4 * n / t2 / 1e9}


def w_gemm(s, n, reps):
    out = {}
    for dt, tag in (("float32", "sgemm"), ("float64", "dgemm")):
        a = s.xp.ones((n, n), dtype=dt)
        b = s.xp.ones((n, n), dtype=dt)
        t = best(s, lambda: a @ b, reps)
        out[f"{tag} TFLOP/s"] = 2 * n ** 3 / t / 1e12
    return out


class _HostNumpy:
    """numpy for the X-ray pipeline's host side, reading CuPy arrays back
    (CuPy refuses numpy.asarray of a device array)."""

    def __init__(self, cp):
        self._cp = cp

    def __getattr__(self, k):
        return getattr(numpy, k)

    def asarray(self, x, *a, **k):
        if isinstance(x, self._cp.ndarray):
            x = x.get()
        return numpy.asarray(x, *a, **k)


def w_xray(s, n, reps):
    import analysis
    import generate
    frames = 16 if n < (1 << 24) else 64
    sim = generate.Simulator((1024, 1024), seed=0)
    geo = sim.geometry()
    dark = sim.frames(0, 16, dark=True).raw
    batches = [sim.frames(b, b + 8) for b in range(0, frames, 8)]
    saved = analysis.numpy
    if s.name != "ndtile":
        analysis.numpy = _HostNumpy(s.xp)
    try:
        cal = analysis.calibrate(s.xp, [dark], geo["gain"], geo["beam_centre"],
                                 geo["beam_stop_radius"])
        dev = [(s.xp.asarray(b.raw), b.i0, b.laser_on) for b in batches]
        s.sync()

        def f():
            pipe = analysis.Pipeline(s.xp, cal)
            for k, (raw, i0, on) in enumerate(dev):
                pipe.process(raw, i0, on, 8 * k)
        t = best(s, f, max(1, reps // 2))
    finally:
        analysis.numpy = saved
    return {"frames/s": frames / t}


WORKLOADS = {"copy": w_copy, "add": w_add, "chain": w_chain, "sum": w_sum, "small op": w_small,
             "h2d / d2h": w_transfer, "gemm": w_gemm, "xray": w_xray}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="small sizes, few reps (checks)")
    p.add_argument("--json", help="write the results here too")
    p.add_argument("--only", help="comma list of workloads")
    p.add_argument("--reps", type=int)
    p.add_argument("--log2n", type=int, help="elements of the streaming workloads: 2**N "
                   "(default 27: 512 MiB float32 arrays; --quick 20)")
    args = p.parse_args(argv)
    n = 1 << (args.log2n or (20 if args.quick else 27))
    gn = 256 if args.quick else 8192
    reps = args.reps or (3 if args.quick else 10)
    cp = _cupy()
    sides = [Side("ndtile", ndtile)] + ([Side("cupy", cp)] if not isinstance(cp, str) else [])
    devs = [d["name"] for d in ndtile.devices()]
    res = {"devices": devs, "n": n, "reps": reps, "cupy": "yes" if len(sides) > 1 else cp,
           "results": {}}
    print(f"ndtile devices: {devs or 'none (CPU)'}; CuPy: {res['cupy']}; n = {n}")
    names = args.only.split(",") if args.only else list(WORKLOADS)
    copy_bw = {}
    for w in names:
        row = {}
        for s in sides:
            try:
                if w == "add":
                    r = w_add(s, n, reps, copy_bw.get(s.name))
                elif w == "gemm":
                    r = w_gemm(s, gn, reps)
                else:
                    r = WORKLOADS[w](s, n, reps)
                if w == "copy":
                    copy_bw[s.name] = r["GB/s"]
            except Exception as e:   # noqa: BLE001 - one cell fails, the table goes on
                r = {"failed": f"{type(e).__name__}: {e}".splitlines()[0][:120]}
            row[s.name] = r
        if "ndtile" in row and "cupy" in row and w == "chain" and "ms" in row["cupy"] \
                and "ms" in row["ndtile"]:
            row["cupy/ndtile time"] = row["cupy"]["ms"] / row["ndtile"]["ms"]
        res["results"][w] = row
        cells = " | ".join(f"{k}: " + (", ".join(f"{a} {b:.3g}" if isinstance(b, float) else
                                                  f"{a} {b}" for a, b in v.items())
                                        if isinstance(v, dict) else f"{v:.3g}")
                           for k, v in row.items())
        print(f"| {w} | {cells} |", flush=True)
    stats = ndtile._core.device_stats() if hasattr(ndtile._core, "device_stats") else None
    res["ndtile_device_stats"] = stats
    print(json.dumps(res))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
