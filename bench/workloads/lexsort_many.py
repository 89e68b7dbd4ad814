"""lexsort with many keys: an (n, 4) float64 array whose n rows are the keys
(np.lexsort(a) sorts the 4 columns of a by its rows, the last row primary),
and the (n, 1) array of n one-element keys (the fuzzer's case of seed
90004940). Values repeat, so every key decides some ties.
"""
import numpy

from _common import digest, rng

DESCRIPTION = "lexsort of an (n, 4) and an (n, 1) float64 array (n keys each)"
SIZES = {"full": 500_000, "quick": 100_000}
TOL = {"rtol": 0, "atol": 0}
KIND = "compute"


def setup(np, n):
    g = rng(25)
    a = numpy.round(g.standard_normal((n, 4)))
    b = g.standard_normal((n, 1))
    return np.asarray(a), np.asarray(b)


def kernel(np, a, b):
    return np.lexsort(a), np.lexsort(b)


def summarize(out):
    return {"order": numpy.asarray(out[0]), "one": numpy.asarray(out[1])}


def run(np, n=SIZES["quick"]):
    return summarize(kernel(np, *setup(np, n)))


if __name__ == "__main__":
    from _common import main
    main(globals())
