"""Gathers along one axis of a 4000 x 5000 float64 array (160 MB): take of
rows and of columns (mode='raise', 'wrap' and 'clip'), take_along_axis with
a per-row argsort, and a[idx] / a[:, idx] with 1-d integer arrays.

ndtile runs each as one gather task per tile of the result, reading only
the source rows its tile reaches (the indexed axis between its block's
least and greatest index): not the whole source per tile.
"""
import numpy

from _common import digest, rng

DESCRIPTION = "take rows/cols (raise/wrap/clip) + take_along_axis(argsort) + a[idx], a[:, idx], float64"
SIZES = {"full": 4000, "quick": 300}
TOL = {"rtol": 0, "atol": 0}
KIND = "memory"


def setup(np, n):
    g = rng(27)
    a = g.standard_normal((n, 5 * n // 4))
    rows = g.integers(-n, n, n // 4)
    cols = g.integers(0, 5 * n // 4, n // 4)
    order = numpy.argsort(a[:, : n // 8], axis=1, kind="stable")
    return np.asarray(a), np.asarray(rows), np.asarray(cols), np.asarray(order)


def kernel(np, a, rows, cols, order):
    t0 = np.take(a, rows, axis=0)
    t1 = np.take(a, cols, axis=1, mode="wrap")
    s = np.take_along_axis(a, order, axis=1)
    f0 = a[rows]
    f1 = a[:, cols]
    t2 = np.take(a, rows, axis=0, mode="clip")
    return t0, t1, s, f0, f1, t2


def summarize(out):
    return {f"r{k}": digest(r) for k, r in enumerate(out)}


def run(np, n=SIZES["quick"]):
    return summarize(kernel(np, *setup(np, n)))


if __name__ == "__main__":
    from _common import main
    main(globals())
