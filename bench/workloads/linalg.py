"""numpy.linalg: one large solve A x = B (n x n, 8 right-hand sides) and the
inverses of a stack of small 8 x 8 matrices, float64.

NumPy's LAPACK (OpenBLAS) runs the single large solve on all cores; ndtile
runs it as a blocked LU whose panels and block updates are tasks over its
workers (single-threaded BLAS calls: bitwise reproducible), and spreads the
stack of small inverses over its workers.
"""
import numpy

from _common import digest, rng

DESCRIPTION = "linalg: solve n x n + inv of a stack of 8x8, float64"
SIZES = {"full": 1500, "quick": 300}     # n; the stack holds 4n/3 matrices
TOL = {"rtol": 1e-8, "atol": 1e-8}
KIND = "compute"


def flops(n):
    return 2.0 / 3.0 * n ** 3 + 2.0 * 8 * n ** 2 + (4 * n // 3) * 2.0 * 8 ** 3


def setup(np, n):
    g = rng(11)
    a = g.standard_normal((n, n)) + 2 * numpy.sqrt(n) * numpy.eye(n)
    b = g.standard_normal((n, 8))
    s = g.standard_normal((4 * n // 3, 8, 8)) + 6 * numpy.eye(8)
    return np.asarray(a), np.asarray(b), np.asarray(s)


def kernel(np, A, B, S):
    return np.linalg.solve(A, B), np.linalg.inv(S)


def summarize(out):
    x, si = out
    dx, ds = digest(x), digest(si)
    return {"sum": dx["sum"] + ds["sum"],
            "sample": numpy.concatenate([dx["sample"], ds["sample"]])}


def run(np, n=SIZES["quick"]):
    return summarize(kernel(np, *setup(np, n)))


if __name__ == "__main__":
    from _common import main
    main(globals())
