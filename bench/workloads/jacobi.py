"""A 5-point Jacobi stencil on views: Laplace's equation on an n x n grid.

Each sweep replaces every interior point by the mean of its four neighbours,
written with shifted slices of one array (NumPy evaluates the right-hand
side before assigning, so this is Jacobi, not Gauss-Seidel).  Boundary: 1 on
the top edge, 0 elsewhere.  Compulsory traffic per sweep: read the grid and
write the interior = 2 elements per point.
"""
import numpy

DESCRIPTION = "5-point Jacobi sweeps on slices, float64"
SIZES = {"full": 1500, "quick": 256}     # grid side
SWEEPS = 20
TOL = {"rtol": 1e-10, "atol": 1e-12}
KIND = "memory"


def bytes_moved(n):
    return SWEEPS * 2 * 8 * n * n


def setup(np, n):
    u = numpy.zeros((n, n))
    u[0, :] = 1.0
    return (np.asarray(u),)


def kernel(np, u0):
    u = u0.copy()
    for _ in range(SWEEPS):
        u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
    return u


def summarize(out):
    u = numpy.asarray(out)
    n = u.shape[0]
    # The heat has spread only ~SWEEPS rows from the hot edge: sample there.
    return {"sum": float(u.sum()), "near_edge": u[1:SWEEPS + 1, :: max(1, n // 16)].copy()}


def run(np, n=SIZES["quick"]):
    return summarize(kernel(np, *setup(np, n)))


if __name__ == "__main__":
    from _common import main
    main(globals())
