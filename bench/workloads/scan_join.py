"""Scans, differences, joining and rearranging on a 4000x2500 float64
array: cumsum along both axes, diff, concatenate, roll, pad (reflect), tile
and take.  Memory-bound copies and carries between blocks.
"""
import numpy

from _common import digest, rng

DESCRIPTION = "cumsum(2 axes) + diff + concatenate + roll + pad(reflect) + tile + take"
SIZES = {"full": 4000, "quick": 400}
TOL = {"rtol": 1e-9, "atol": 1e-6}
KIND = "memory"


def setup(np, n):
    g = rng(31)
    a = g.standard_normal((n, n * 5 // 8))
    idx = g.integers(0, n, n // 2)
    return np.asarray(a), np.asarray(idx)


def kernel(np, a, idx):
    c0 = np.cumsum(a, axis=0)
    c1 = np.cumsum(a, axis=1)
    d = np.diff(a, axis=1)
    j = np.concatenate([a, c0[::2]], axis=0)
    r = np.roll(a, (7, -3), axis=(0, 1))
    p = np.pad(a, 3, mode="reflect")
    t = np.tile(a[:64], (2, 1))
    k = np.take(a, idx, axis=0)
    return c0, c1, d, j, r, p, t, k


def summarize(out):
    return {f"r{i}": digest(x) for i, x in enumerate(out)}


def run(np, n=SIZES["quick"]):
    return summarize(kernel(np, *setup(np, n)))


if __name__ == "__main__":
    from _common import main
    main(globals())
