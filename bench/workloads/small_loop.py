"""The small-array loop  x += 2*y  on 1,000 float64 elements, many times.

Measures per-operation overhead (dispatch, task creation, Python glue), not
bandwidth: each iteration is two tiny ops.  size = number of iterations; the
array length is fixed at 1,000.  The time column divided by size is the cost
of one iteration.
"""
import numpy

from _common import rng

DESCRIPTION = "x += 2*y, 1,000 elements, looped"
SIZES = {"full": 50_000, "quick": 2_000}    # iterations
N = 1_000
TOL = {"rtol": 1e-12, "atol": 1e-9}
KIND = "overhead"
ITEM_NAME = "iter"


def items(iters):
    """The rate column shows microseconds per iteration."""
    return iters


def setup(np, iters):
    g = rng(4)
    return np.asarray(g.standard_normal(N)), np.asarray(g.standard_normal(N)), iters


def kernel(np, x0, y, iters):
    x = x0.copy()
    for _ in range(iters):
        x += 2 * y
    return x


def summarize(out):
    out = numpy.asarray(out)
    return {"x": out[::50].copy(), "sum": float(out.sum())}


def run(np, iters=SIZES["quick"]):
    return summarize(kernel(np, *setup(np, iters)))


if __name__ == "__main__":
    from _common import main
    main(globals())
