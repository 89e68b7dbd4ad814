"""The elementwise chain  a*b + c*d - e  on five float64 vectors.

NumPy makes three full-size temporaries (a*b, c*d, their sum); a fused
runtime reads five inputs and writes one output.  Compulsory traffic: 6
elements per index.
"""
import numpy

from _common import digest, rng

DESCRIPTION = "a*b + c*d - e, float64"
SIZES = {"full": 10_000_000, "quick": 200_000}
TOL = {"rtol": 1e-12, "atol": 1e-12}
KIND = "memory"


def bytes_moved(n):
    return 6 * 8 * n


def setup(np, n):
    g = rng(2)
    return tuple(np.asarray(g.standard_normal(n)) for _ in range(5))


def kernel(np, a, b, c, d, e):
    return a * b + c * d - e


def kernel_numexpr(a, b, c, d, e):
    import numexpr as ne
    return ne.evaluate("a*b + c*d - e")


def summarize(out):
    return digest(out)


def run(np, n=SIZES["quick"]):
    return summarize(kernel(np, *setup(np, n)))


def run_numexpr(n=SIZES["quick"]):
    return summarize(kernel_numexpr(*setup(numpy, n)))


if __name__ == "__main__":
    from _common import main
    main(globals())
