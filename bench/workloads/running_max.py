"""Running maxima (np.maximum.accumulate, the drawdown idiom) of a 10^7
float64 random walk, along both axes of a 2500x4000 array, and
np.minimum.accumulate of int64: the accumulate scans that are exact and
associative, so blocks scan in parallel and combine through carries.
"""
import numpy

from _common import digest, rng

DESCRIPTION = "maximum.accumulate of 10^7 float64 (1-d, both axes of 2-d) + minimum.accumulate int64"
SIZES = {"full": 10_000_000, "quick": 100_000}
TOL = {"rtol": 1e-12, "atol": 1e-12}
KIND = "memory"


def setup(np, n):
    g = rng(47)
    a = g.standard_normal(n).cumsum()
    k = g.integers(-10**9, 10**9, n)
    return np.asarray(a), np.asarray(k)


def kernel(np, a, k):
    n = a.shape[0]
    m = a.reshape(n // 4000, 4000) if n % 4000 == 0 else a.reshape(-1, 100)
    r = np.maximum.accumulate(a)
    r0 = np.maximum.accumulate(m, axis=0)
    r1 = np.maximum.accumulate(m, axis=1)
    q = np.minimum.accumulate(k)
    return r, r0, r1, q


def summarize(out):
    return {f"r{i}": digest(x) for i, x in enumerate(out)}


def run(np, n=SIZES["quick"]):
    return summarize(kernel(np, *setup(np, n)))


if __name__ == "__main__":
    from _common import main
    main(globals())
