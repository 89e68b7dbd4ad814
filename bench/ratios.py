"""Side-by-side ratios ndtile/NumPy for a few runtime-bound cases, by hand.

    python3 bench/ratios.py [--repeat 7] [--only NAME,..] [--list]

Each case runs with NumPy and with ndtile in this one process, interleaved
(NumPy, ndtile, NumPy, ...), on the same data; the table shows the median
seconds of each and the ratio ndtile/NumPy (< 1: ndtile is faster). Every
timed run ends with ndtile's work done (ndtile.sync()). The cases:

* small_add, small_axpy: a loop of small elementwise ops just above the
  inline threshold (50,000 float64: one tile, one task each), so the cost
  of recording, scheduling and finishing a task shows;
* many_add, many_axpy: ops on 8M float64 (64 MB): 32 tasks an op at the
  default 2 MiB tiles, 1,024 at NDTILE_TILE_BYTES=65536;
* max0, sum0, ...: reductions of an (8, 4,000,000) or (2000, 2000) array
  along an axis (the name says which), float64 unless it says int64.

Settings (tile size, workers) come from the environment as ever; the
header line names them. Nothing here is a test: a case's result is checked
against NumPy's once, before the timing, so a wrong answer is not timed.
"""
import argparse
import os
import statistics
import sys
import time

import numpy

import ndtile


def cases():
    g = numpy.random.default_rng(7)
    out = {}

    def loop_case(n, iters, body):
        a0 = g.standard_normal(n)
        b0 = g.standard_normal(n)

        def make(lib):
            a, b = lib.asarray(a0), lib.asarray(b0)
            return lambda: body(lib, a, b, iters)
        return make

    def add_loop(lib, a, b, iters):
        c = None
        for _ in range(iters):
            c = a + b
        return c

    def axpy_loop(lib, x, y, iters):
        x = x.copy()
        for _ in range(iters):
            x += 2.0 * y
        return x

    out["small_add"] = loop_case(50_000, 2_000, add_loop)
    out["small_axpy"] = loop_case(50_000, 1_000, axpy_loop)
    out["many_add"] = loop_case(8 << 20, 10, add_loop)
    out["many_axpy"] = loop_case(8 << 20, 5, axpy_loop)

    def red_case(shape, dtype, op, axis):
        if dtype == "int64":
            x0 = g.integers(-10**9, 10**9, size=shape)
        else:
            x0 = g.standard_normal(shape)

        def make(lib):
            x = lib.asarray(x0)
            f = getattr(lib, op)
            return lambda: f(x, axis=axis)
        return make

    for op in ("max", "min", "sum", "argmax", "argmin"):
        for axis in (0, 1):
            out[f"{op}{axis}"] = red_case((8, 4_000_000), "float64", op, axis)
            out[f"{op}{axis}_i64"] = red_case((8, 4_000_000), "int64", op, axis)
            out[f"{op}{axis}_sq"] = red_case((2000, 2000), "float64", op, axis)
    return out


def finish(r):
    ndtile.sync()
    return r


def same(a, b):
    a = numpy.asarray(a)
    b = numpy.asarray(b)
    return a.shape == b.shape and a.dtype == b.dtype and numpy.array_equal(a, b, equal_nan=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--only", default=None)
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    made = cases()
    if args.list:
        print(" ".join(made))
        return
    names = args.only.split(",") if args.only else list(made)
    tile = os.environ.get("NDTILE_TILE_BYTES", "default")
    print(f"# tile bytes {tile}, workers {os.environ.get('NDTILE_WORKERS', 'default')}, "
          f"repeat {args.repeat}")
    print(f"{'case':<16} {'numpy s':>10} {'ndtile s':>10} {'nd/np':>7}")
    for name in names:
        make = made[name]
        f_np, f_nd = make(numpy), make(ndtile)
        if not same(f_np(), finish(f_nd())):
            print(f"{name:<16} ndtile's result differs from NumPy's", file=sys.stderr)
            sys.exit(1)
        t_np, t_nd = [], []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            f_np()
            t_np.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            finish(f_nd())
            t_nd.append(time.perf_counter() - t0)
        m_np, m_nd = statistics.median(t_np), statistics.median(t_nd)
        print(f"{name:<16} {m_np:>10.5f} {m_nd:>10.5f} {m_nd / m_np:>7.2f}", flush=True)


if __name__ == "__main__":
    main()
