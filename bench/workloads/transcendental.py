"""The transcendental chain  sin(a)**2 + cos(a)**2  on a float64 vector.

Compute-bound in NumPy (two transcendentals per element) with two
temporaries; the result is 1 up to rounding.  Compulsory traffic: read a,
write the result = 2 elements per index (the GB/s column is that traffic
over the time, i.e. an effective rate, not a bandwidth claim).
"""
import numpy

from _common import digest, rng

DESCRIPTION = "sin(a)**2 + cos(a)**2, float64"
SIZES = {"full": 4_000_000, "quick": 200_000}
TOL = {"rtol": 1e-12, "atol": 1e-12}
KIND = "compute"


def bytes_moved(n):
    return 2 * 8 * n


def setup(np, n):
    return (np.asarray(rng(3).uniform(-100.0, 100.0, n)),)


def kernel(np, a):
    return np.sin(a) ** 2 + np.cos(a) ** 2


def kernel_numexpr(a):
    import numexpr as ne
    return ne.evaluate("sin(a)**2 + cos(a)**2")


def summarize(out):
    out = numpy.asarray(out)
    return {"digest": digest(out), "max_error": float(numpy.abs(out - 1.0).max())}


def run(np, n=SIZES["quick"]):
    return summarize(kernel(np, *setup(np, n)))


def run_numexpr(n=SIZES["quick"]):
    return summarize(kernel_numexpr(*setup(numpy, n)))


if __name__ == "__main__":
    from _common import main
    main(globals())
