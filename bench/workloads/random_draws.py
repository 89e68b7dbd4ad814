"""Random numbers: 10^7 draws each of normal, uniform, integers, poisson
and gamma from a seeded Generator, and a permutation of 10^6.

ndtile's counter-based generator gives other values than NumPy's PCG64 (the
same seed gives the same values for any number of workers or ranks), so the
results are compared by their moments.
"""
import numpy

DESCRIPTION = "default_rng: normal, uniform, integers, poisson, gamma (10^7 each), permutation"
SIZES = {"full": 10_000_000, "quick": 300_000}
TOL = {"rtol": 2e-2, "atol": 2e-2}
KIND = "compute"


def setup(np, n):
    return (n,)


def kernel(np, n):
    g = np.random.default_rng(1234)
    return (g.normal(1.0, 2.0, n), g.uniform(-1.0, 3.0, n), g.integers(0, 100, n),
            g.poisson(4.0, n), g.gamma(2.5, 1.5, n), g.permutation(n // 10))


def summarize(out):
    res = {}
    for name, a in zip(("normal", "uniform", "integers", "poisson", "gamma"), out[:5]):
        a = numpy.asarray(a, dtype=numpy.float64)
        res[name] = numpy.array([a.mean(), a.std()])
    p = numpy.asarray(out[5])
    res["permutation"] = numpy.array([float(numpy.array_equal(numpy.sort(p),
                                                              numpy.arange(p.size)))])
    return res


def run(np, n=SIZES["quick"]):
    return summarize(kernel(np, *setup(np, n)))


if __name__ == "__main__":
    from _common import main
    main(globals())
