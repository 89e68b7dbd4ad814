"""sum, mean and argmax of a 2-D float64 array along each axis.

Six reductions of an n x n array: axis 0 (down the columns, strided in C
order) and axis 1 (along the rows).  Compulsory traffic: one read of the
array per reduction.
"""
import numpy

from _common import rng

DESCRIPTION = "sum/mean/argmax along axis 0 and 1"
SIZES = {"full": 4000, "quick": 300}     # side of the square array
TOL = {"rtol": 1e-10, "atol": 1e-9}
KIND = "memory"


def bytes_moved(n):
    return 6 * 8 * n * n


def setup(np, n):
    return (np.asarray(rng(9).standard_normal((n, n))),)


def kernel(np, a):
    out = []
    for axis in (0, 1):
        out += [a.sum(axis=axis), a.mean(axis=axis), a.argmax(axis=axis)]
    return tuple(numpy.asarray(r) for r in out)


def summarize(out):
    names = ["sum0", "mean0", "argmax0", "sum1", "mean1", "argmax1"]
    res = {}
    for name, r in zip(names, out):
        r = numpy.asarray(r)
        step = max(1, r.size // 64)
        res[name] = {"total": r.sum().item(), "sample": r[::step].copy()}
    return res


def run(np, n=SIZES["quick"]):
    return summarize(kernel(np, *setup(np, n)))


if __name__ == "__main__":
    from _common import main
    main(globals())
