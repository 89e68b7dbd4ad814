"""Statistics and contractions: cov and corrcoef of an n x n sample matrix,
einsum 'ij,jk->ik' and 'bij,bjk->bik', and a 1-d convolve of 500 n samples
with a 101-tap filter.

Compute-bound (matrix products and the direct convolution sum), reported
in GFLOP/s of the nominal operation counts.
"""
import numpy

from _common import rng

DESCRIPTION = "cov/corrcoef, einsum matmul/batched, convolve (101 taps), float64"
SIZES = {"full": 2000, "quick": 200}
TOL = {"rtol": 1e-8, "atol": 1e-8}
KIND = "compute"
TAPS = 101
BATCH = 8


def flops(n):
    m = n // 4        # batched einsum: BATCH products of m x m
    return 2 * (2.0 * n ** 3) + 2.0 * n ** 3 + BATCH * 2.0 * m ** 3 + 2.0 * 500 * n * TAPS


def setup(np, n):
    g = rng(11)
    m = n // 4
    x = np.asarray(g.standard_normal((n, n)))
    y = np.asarray(g.standard_normal((n, n)))
    b1 = np.asarray(g.standard_normal((BATCH, m, m)))
    b2 = np.asarray(g.standard_normal((BATCH, m, m)))
    sig = np.asarray(g.standard_normal(500 * n))
    taps = np.asarray(numpy.hanning(TAPS))
    return x, y, b1, b2, sig, taps


def kernel(np, x, y, b1, b2, sig, taps):
    return (np.cov(x), np.corrcoef(x), np.einsum('ij,jk->ik', x, y),
            np.einsum('bij,bjk->bik', b1, b2), np.convolve(sig, taps, mode='same'))


def summarize(out):
    names = ["cov", "corrcoef", "einsum", "einsum_batched", "convolve"]
    res = {}
    for name, r in zip(names, out):
        r = numpy.asarray(r)
        flat = r.ravel()
        step = max(1, flat.size // 64)
        res[name] = {"total": float(flat.sum()), "sample": flat[::step].copy()}
    return res


def run(np, n=SIZES["quick"]):
    return summarize(kernel(np, *setup(np, n)))


if __name__ == "__main__":
    from _common import main
    main(globals())
