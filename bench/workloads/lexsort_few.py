"""lexsort with few keys: 3 keys of 10^6 elements (an int8 column with many
ties, a rounded float64 column, an int64 column), given as a tuple of arrays
of different dtypes, as a table is sorted by columns.
"""
import numpy

from _common import digest, rng

DESCRIPTION = "lexsort of 3 keys (int8, float64, int64) of 10^6 elements"
SIZES = {"full": 1_000_000, "quick": 100_000}
TOL = {"rtol": 0, "atol": 0}
KIND = "compute"


def setup(np, n):
    g = rng(24)
    a = g.integers(-3, 3, n).astype(numpy.int8)
    b = numpy.round(g.standard_normal(n) * 10.0)
    c = g.integers(0, n // 4, n)
    return np.asarray(a), np.asarray(b), np.asarray(c)


def kernel(np, a, b, c):
    return np.lexsort((c, b, a))


def summarize(out):
    return {"order": digest(out)}


def run(np, n=SIZES["quick"]):
    return summarize(kernel(np, *setup(np, n)))


if __name__ == "__main__":
    from _common import main
    main(globals())
