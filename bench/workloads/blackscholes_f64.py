"""Black-Scholes pricing of n European options in float64 (see _blackscholes)."""
import numpy

import _blackscholes as bs

DESCRIPTION = "Black-Scholes call+put, float64"
SIZES = {"full": 4_000_000, "quick": 100_000}     # options
DTYPE = numpy.float64
TOL = {"rtol": 1e-9, "atol": 1e-9}
KIND = bs.KIND


def bytes_moved(n):
    return 5 * n * numpy.dtype(DTYPE).itemsize


def setup(np, n):
    return tuple(np.asarray(a) for a in bs.make_inputs(n, DTYPE))


def kernel(np, S, X, T):
    return bs.black_scholes(np, S, X, T)


def kernel_numexpr(S, X, T):
    return bs.black_scholes_numexpr(S, X, T)


summarize = bs.summarize


def run(np, n=SIZES["quick"]):
    return summarize(kernel(np, *setup(np, n)))


def run_numexpr(n=SIZES["quick"]):
    return summarize(kernel_numexpr(*setup(numpy, n)))


if __name__ == "__main__":
    from _common import main
    main(globals())
