"""Creation at default settings (2 MiB tiles) on arrays past the inline
threshold and across several tiles, compared with NumPy."""
import numpy as np
import pytest

import ndtile as nt
from _helpers import DTYPES, NAMES, assert_big as assert_same, n_tiles, scale_sizes, tol_for, ABOVE_INLINE

pytestmark = pytest.mark.default_settings


def test_runs_at_default_settings():
    from ndtile import _core
    assert _core.tile_bytes() == 2 << 20


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_zeros_ones_full_empty_like(dt):
    for n in scale_sizes(dt):
        assert_same(nt.zeros(n, dt), np.zeros(n, dt))
        assert_same(nt.ones(n, dt), np.ones(n, dt))
        assert_same(nt.full(n, 3, dt), np.full(n, 3, dt))
        assert_same(nt.full((n // 3, 3), 1, dt), np.full((n // 3, 3), 1, dt))
        a = nt.ones((3, n // 3), dt)
        assert_same(nt.zeros_like(a), np.zeros((3, n // 3), dt))
        assert_same(nt.full_like(a, 2), np.full((3, n // 3), 2, dt))
        e = nt.empty_like(a)
        assert e.shape == (3, n // 3) and e.dtype == dt


@pytest.mark.parametrize("dt", [np.int8, np.int32, np.int64, np.uint16, np.float32,
                                np.float64, np.complex128])
def test_arange(dt):
    n = n_tiles(np.int64)
    if np.dtype(dt).kind in 'iu' and np.dtype(dt).itemsize < 4:
        assert_same(nt.arange(0, 200, dtype=dt), np.arange(0, 200, dtype=dt))
        n = 120
    assert_same(nt.arange(n, dtype=dt), np.arange(n, dtype=dt))
    assert_same(nt.arange(5, n, 3, dtype=dt), np.arange(5, n, 3, dtype=dt))
    if np.dtype(dt).kind != 'u':
        assert_same(nt.arange(n, -7, -2, dtype=dt), np.arange(n, -7, -2, dtype=dt))


def test_arange_default_dtypes():
    n = n_tiles(np.float64)
    assert_same(nt.arange(n), np.arange(n))
    assert_same(nt.arange(0.5, n / 3, 0.25), np.arange(0.5, n / 3, 0.25))
    assert_same(nt.arange(-n, n, 7), np.arange(-n, n, 7))


@pytest.mark.parametrize("dt", [None, np.float32, np.complex128, np.int64])
def test_linspace(dt):
    for n in (ABOVE_INLINE, n_tiles(np.float64)):
        for endpoint in (True, False):
            exp = np.linspace(-3.5, 1e4, n, endpoint=endpoint, dtype=dt)
            got = nt.linspace(-3.5, 1e4, n, endpoint=endpoint, dtype=dt)
            assert_same(got, exp, rtol=tol_for(exp.dtype, 'math'), atol=1e-9)
        g, s = nt.linspace(0, 1, n, retstep=True, dtype=dt)
        e, es = np.linspace(0, 1, n, retstep=True, dtype=dt)
        assert_same(g, e, rtol=tol_for(e.dtype, 'math'), atol=1e-12)


@pytest.mark.parametrize("dt", [None, np.float32, np.complex128, np.int64])
def test_linspace_step(dt):
    g, s = nt.linspace(0, 1, 40003, retstep=True, dtype=dt)
    e, es = np.linspace(0, 1, 40003, retstep=True, dtype=dt)
    assert type(s) is type(es) and s == es


def test_linspace_arrays_of_endpoints():
    start, stop = np.arange(4.0), np.arange(4.0) * 10 + 1
    for axis in (0, 1, -1):
        assert_same(nt.linspace(nt.asarray(start), nt.asarray(stop), 120_001, axis=axis),
                    np.linspace(start, stop, 120_001, axis=axis), rtol=1e-13, atol=1e-12)


@pytest.mark.parametrize("dt", [np.float64, np.int32, np.bool_, np.complex64])
def test_eye_identity(dt):
    for n, m, k in ((600, None, 0), (700, 450, 3), (450, 700, -5), (513, 600, 600)):
        assert_same(nt.eye(n, m, k, dtype=dt), np.eye(n, m, k, dtype=dt))
    assert_same(nt.identity(620, dtype=dt), np.identity(620, dtype=dt))


@pytest.mark.parametrize("dt", [np.int64, np.int32, np.float64])
def test_tri_family(dt):
    for n, m, k in ((600, None, 0), (700, 450, 3), (450, 700, -5)):
        assert_same(nt.tri(n, m, k, dtype=dt), np.tri(n, m, k, dtype=dt))
    a = (np.arange(700 * 650) % 251 - 125).astype(dt).reshape(700, 650)
    x = nt.asarray(a)
    for k in (0, 2, -3, 700, -700):
        assert_same(nt.tril(x, k), np.tril(a, k))
        assert_same(nt.triu(x, k), np.triu(a, k))
    b = a[:, :600].reshape(2, 350, 600)
    assert_same(nt.triu(nt.asarray(b), 1), np.triu(b, 1))


def test_indices_meshgrid():
    for shape in ((520, 530), (80, 70, 60)):
        assert_same(nt.indices(shape), np.indices(shape))
        assert_same(nt.indices(shape, dtype=np.int32), np.indices(shape, dtype=np.int32))
        got = nt.indices(shape, sparse=True)
        exp = np.indices(shape, sparse=True)
        for g, e in zip(got, exp):
            assert_same(g, e)
    x, y = np.arange(700.0), np.linspace(-1, 1, 650)
    for indexing in ('xy', 'ij'):
        for sparse in (False, True):
            got = nt.meshgrid(nt.asarray(x), nt.asarray(y), indexing=indexing, sparse=sparse)
            exp = np.meshgrid(x, y, indexing=indexing, sparse=sparse)
            assert len(got) == len(exp)
            for g, e in zip(got, exp):
                assert_same(g, e)
    got = nt.meshgrid(nt.asarray(x), nt.asarray(y), copy=True)
    exp = np.meshgrid(x, y, copy=True)
    got[0][3, 4] = -1
    exp[0][3, 4] = -1
    for g, e in zip(got, exp):
        assert_same(g, e)
    # without copy the grids are views of the inputs: NumPy's are read-only
    # broadcasts, writing them raises
    g = nt.meshgrid(nt.asarray(x), nt.asarray(y), copy=False)
    e = np.meshgrid(x, y, copy=False)
    for gi, ei in zip(g, e):
        assert_same(gi, ei)


def test_fromfunction():
    f = lambda i, j: i * 3 - j * 2 + 1   # noqa: E731
    assert_same(nt.fromfunction(f, (600, 550)), np.fromfunction(f, (600, 550)))
    assert_same(nt.fromfunction(f, (600, 550), dtype=int), np.fromfunction(f, (600, 550), dtype=int))


def test_array_asarray_copy_of_large():
    for dt in (np.float64, np.int16, np.complex64, np.bool_):
        a = (np.arange(n_tiles(dt)) % 97).astype(dt)
        x = nt.array(a)
        a2 = a.copy()
        a[5] = 0                          # ndtile copied the data
        assert_same(x, a2)
        y = nt.array(x)                   # a copy of an ndtile array
        z = nt.asarray(x)                 # the same array
        w = nt.copy(x)
        y[1] = 1
        w[2] = 1
        z[0] = 1
        a2[0] = 1
        assert_same(x, a2)
        assert z is x
