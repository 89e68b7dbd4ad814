"""A dense float64 matrix product C = A @ B of two n x n matrices.

Compute-bound: 2 n^3 flops (reported as GFLOP/s).  NumPy calls its BLAS
(OpenBLAS here) on all cores.
"""
import numpy

from _common import digest, rng

DESCRIPTION = "dense matmul A @ B, float64"
SIZES = {"full": 2000, "quick": 256}
TOL = {"rtol": 1e-10, "atol": 1e-9}
KIND = "compute"


def flops(n):
    return 2.0 * n ** 3


def setup(np, n):
    g = rng(8)
    return np.asarray(g.standard_normal((n, n))), np.asarray(g.standard_normal((n, n)))


def kernel(np, A, B):
    return A @ B


def summarize(out):
    return digest(out)


def run(np, n=SIZES["quick"]):
    return summarize(kernel(np, *setup(np, n)))


if __name__ == "__main__":
    from _common import main
    main(globals())
