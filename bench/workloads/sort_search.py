"""Sorting and searching on 10^7 float64: sort, argsort of a slice,
partition, unique with counts, and searchsorted of 10^6 queries.

Each line sorts or selects whole (ndtile: one task per line, so a 1-d sort
is one task; partition and searchsorted run over tiles).
"""
import numpy

from _common import digest, rng

DESCRIPTION = "sort + argsort + partition + unique(counts) + searchsorted, float64"
SIZES = {"full": 10_000_000, "quick": 300_000}
TOL = {"rtol": 0, "atol": 0}
KIND = "compute"


def setup(np, n):
    g = rng(21)
    x = numpy.round(g.standard_normal(n) * 1000.0)     # many repeated values
    q = g.standard_normal(n // 10) * 1000.0
    return np.asarray(x), np.asarray(q)


def kernel(np, x, q):
    s = np.sort(x)
    order = np.argsort(x[: x.shape[0] // 4], kind="stable")
    part = np.partition(x, [x.shape[0] // 10, x.shape[0] // 2])
    values, counts = np.unique(x, return_counts=True)
    pos = np.searchsorted(s, q)
    k = x.shape[0]
    return s, order, part[[k // 10, k // 2]], values, counts, pos


def summarize(out):
    s, order, kth, values, counts, pos = out
    return {"sorted": digest(s), "order": digest(order), "kth": numpy.asarray(kth),
            "values": digest(values), "counts": digest(counts), "pos": digest(pos)}


def run(np, n=SIZES["quick"]):
    return summarize(kernel(np, *setup(np, n)))


if __name__ == "__main__":
    from _common import main
    main(globals())
