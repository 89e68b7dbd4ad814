"""histogram, bincount and percentile of a float32 sample.

A 100-bin histogram over the data's range (NumPy's uniform-bins path), a
bincount of integer class labels with float weights, and three
percentiles (a full sort of the sample).  Data-dependent memory traffic:
each value is read a few times and binned or sorted.
"""
import numpy

from _common import rng

DESCRIPTION = "histogram(100 bins) + weighted bincount + percentile, float32"
SIZES = {"full": 10_000_000, "quick": 400_000}
TOL = {"rtol": 1e-6, "atol": 1e-3}
KIND = "memory"


def bytes_moved(n):
    return 4 * n * 4 + 8 * n


def setup(np, n):
    g = rng(11)
    x = g.standard_normal(n).astype(numpy.float32)
    labels = g.integers(0, 1000, size=n)
    return np.asarray(x), np.asarray(labels)


def kernel(np, x, labels):
    hist, edges = np.histogram(x, bins=100)
    counts = np.bincount(labels, weights=x, minlength=1000)
    pct = np.percentile(x, [5.0, 50.0, 95.0])
    return tuple(numpy.asarray(r) for r in (hist, edges, counts, pct))


def summarize(out):
    hist, edges, counts, pct = (numpy.asarray(r) for r in out)
    return {"hist": hist.astype(numpy.float64), "edges": edges.astype(numpy.float64),
            "counts_total": float(counts.sum()), "counts": counts[::50].copy(),
            "pct": pct.astype(numpy.float64)}


def run(np, n=SIZES["quick"]):
    return summarize(kernel(np, *setup(np, n)))


if __name__ == "__main__":
    from _common import main
    main(globals())
