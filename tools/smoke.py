#!/usr/bin/env python3
"""A quick check of an installed ndtile against NumPy (make wheel, make
test-pythons): a few ops of each family at default settings, with arrays
over many 2 MiB tiles. Run it from outside the source tree so that the
installed package is the one imported.

    python smoke.py [--no-mpi]     --no-mpi: also check no MPI library is loaded
"""
import os
import sys

import numpy

import ndtile as np


def close(a, b, tol=1e-12):
    a, b = numpy.asarray(a), numpy.asarray(b)
    assert a.shape == b.shape and a.dtype == b.dtype, (a.shape, b.shape, a.dtype, b.dtype)
    assert numpy.allclose(a, b, rtol=tol, atol=0), (a, b)


def main():
    pkg = os.path.dirname(np.__file__)
    assert not os.path.exists(os.path.join(pkg, '..', '..', 'meson.build')), pkg
    n = 3_000_000                                        # 24 MB: 12 tiles
    x = numpy.linspace(0.0, 10.0, n)
    a = np.asarray(x)
    close(np.sqrt(a) * 2.0 + np.sin(a), numpy.sqrt(x) * 2.0 + numpy.sin(x))
    close(np.sum(a), numpy.sum(x), 1e-10)
    m = x.reshape(1000, 3000)
    am = np.asarray(m)
    close(am.mean(axis=0), m.mean(axis=0), 1e-10)
    close(am[::-3, 5:100:7].T.copy(), m[::-3, 5:100:7].T.copy())
    idx = numpy.array([0, 17, n - 1, 5])
    close(a[idx], x[idx])
    close(np.sort(a[::-1])[:10], numpy.sort(x[::-1])[:10])
    close(np.cumsum(a[:1000]), numpy.cumsum(x[:1000]), 1e-10)
    s = numpy.random.default_rng(1).standard_normal((200, 200)) + 200 * numpy.eye(200)
    close(np.linalg.solve(np.asarray(s), np.ones(200)), numpy.linalg.solve(s, numpy.ones(200)),
          1e-9)
    close(np.fft.fft(a[:4096]), numpy.fft.fft(x[:4096]), 1e-9)
    r = np.random.default_rng(0).random(1000)
    assert 0.4 < float(r.mean()) < 0.6
    assert np.sum.__doc__.startswith('ndtile:') and 'Sum of array elements' in np.sum.__doc__
    assert np.rank() == 0 and np.nranks() == 1
    if '--no-mpi' in sys.argv:
        with open('/proc/self/maps') as f:
            assert 'libmpi' not in f.read(), "an MPI library was loaded"
    print(f"smoke: ndtile {np.__version__} on Python {sys.version.split()[0]} "
          f"(NumPy {numpy.__version__}), {np.settings()['NDTILE_WORKERS']} workers: ok")


if __name__ == '__main__':
    main()
