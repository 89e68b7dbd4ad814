"""Conjugate gradient on the 2-D Laplacian, with the operator written as slices.

Solves A x = b for the 5-point Laplacian on an n x n grid (zero Dirichlet
boundary), A applied matrix-free with shifted slices.  A fixed number of
iterations (no convergence test) so every library does the same work; the
scalars alpha and beta come from dot products, as in any textbook CG.
Compulsory traffic per iteration, statement by statement: A p (2), p.Ap (2),
x += (3), r -= (3), r.r (1), p = r + beta p (3) = 14 vectors.
"""
import numpy

from _common import rng

DESCRIPTION = "conjugate gradient, 2-D Laplacian via slices"
SIZES = {"full": 800, "quick": 128}    # grid side
ITERS = 40
TOL = {"rtol": 1e-6, "atol": 1e-9}
KIND = "memory"


def bytes_moved(n):
    return ITERS * 14 * 8 * n * n


def setup(np, n):
    return (np.asarray(rng(5).standard_normal((n, n))),)


def laplacian(np, p):
    Ap = 4.0 * p
    Ap[1:, :] -= p[:-1, :]
    Ap[:-1, :] -= p[1:, :]
    Ap[:, 1:] -= p[:, :-1]
    Ap[:, :-1] -= p[:, 1:]
    return Ap


def kernel(np, b):
    x = np.zeros_like(b)
    r = b.copy()
    p = r.copy()
    rs = np.sum(r * r)
    for _ in range(ITERS):
        Ap = laplacian(np, p)
        alpha = rs / np.sum(p * Ap)
        x += alpha * p
        r -= alpha * Ap
        rs_new = np.sum(r * r)
        p = r + (rs_new / rs) * p
        rs = rs_new
    return float(np.sqrt(rs)), x


def summarize(out):
    res, x = out
    x = numpy.asarray(x)
    return {"residual": res, "x_sum": float(x.sum()), "x_sample": x.ravel()[:: max(1, x.size // 64)].copy()}


def run(np, n=SIZES["quick"]):
    return summarize(kernel(np, *setup(np, n)))


if __name__ == "__main__":
    from _common import main
    main(globals())
