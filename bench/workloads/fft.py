"""A 2-D FFT of an n x n complex128 image (numpy.fft.fft2).

About 5 n^2 log2(n^2) flops (reported as GFLOP/s).  NumPy runs pocketfft on
one core; ndtile transforms the rows, then the columns, a block of whole
lines per task.
"""
import math

import numpy

from _common import digest, rng

DESCRIPTION = "fft2 of an n x n complex128 array"
SIZES = {"full": 2048, "quick": 256}
TOL = {"rtol": 1e-10, "atol": 1e-7}
KIND = "compute"


def flops(n):
    return 5.0 * n * n * math.log2(n * n)


def setup(np, n):
    g = rng(11)
    z = g.standard_normal((n, n)) + 1j * g.standard_normal((n, n))
    return (np.asarray(z),)


def kernel(np, A):
    return np.fft.fft2(A)


def summarize(out):
    a = numpy.ascontiguousarray(numpy.asarray(out))
    return digest(a.view(numpy.float64))


def run(np, n=SIZES["quick"]):
    return summarize(kernel(np, *setup(np, n)))


if __name__ == "__main__":
    from _common import main
    main(globals())
