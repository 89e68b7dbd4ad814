"""Integer-array and boolean-mask reads run in the core (ndt_gather): compare with NumPy."""
import numpy as np
import pytest

import ndtile as nt
from _helpers import DTYPES, NAMES, make


def _same(got, exp):
    g = np.asarray(got)
    assert g.dtype == exp.dtype and g.shape == exp.shape
    np.testing.assert_array_equal(g, exp)


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_integer_arrays_every_axis(dt):
    a = make(dt, (13, 17, 11), seed=3)
    x = nt.asarray(a)
    rng = np.random.default_rng(0)
    i = rng.integers(-13, 13, (4, 1))
    j = rng.integers(-17, 17, (1, 6))
    k = rng.integers(0, 11, (4, 6))
    _same(x[i, j, k], a[i, j, k])
    _same(x[nt.asarray(i), nt.asarray(j), nt.asarray(k)], a[i, j, k])
    _same(x[2, [0, 16, -1], 5], a[2, [0, 16, -1], 5])


@pytest.mark.parametrize("dt", [np.float64, np.int32, np.complex64, np.bool_])
def test_views_masks_and_1d(dt):
    a = make(dt, (40, 31), seed=5)
    x = nt.asarray(a)
    i, j = np.array([0, 5, 19]), np.array([3, 0, 7])
    _same(x[::-2, 1::3][i, j], a[::-2, 1::3][i, j])
    _same(x.T[j, i], a.T[j, i])
    m = make(np.bool_, (40, 31), seed=6)
    _same(x[m], a[m])
    _same(x[nt.asarray(m)], a[m])
    v = a[:, 3]
    _same(nt.asarray(v)[[39, -40, 7, 7]], v[[39, -40, 7, 7]])
    _same(x[np.zeros(0, int), np.zeros(0, int)], a[np.zeros(0, int), np.zeros(0, int)])


def test_gather_errors():
    x = nt.asarray(np.arange(12.).reshape(3, 4))
    with pytest.raises(IndexError):
        x[[0, 3], [0, 0]]
    with pytest.raises(IndexError):
        x[[0, 1], [0, -5]]
    with pytest.raises(IndexError):
        x[[0, 1, 2], [0, 1]]


# The indexing kernels reach a source or target that spans tiles in separate
# buffers (the suite's 4096-byte tiles) through the runtime's walk, keeping
# the last tile they were in: indices in every order, views with negative
# steps and the halves of complex elements, and repeated indices in put and
# ufunc.at (each update sees the ones before it).
_ORDERS = {
    "random": lambda rng, n: rng.integers(-n, n, 4 * n),
    "sorted": lambda rng, n: np.sort(rng.integers(0, n, 3 * n)),
    "descending": lambda rng, n: np.arange(n - 1, -1, -1),
    "repeated": lambda rng, n: np.repeat([5, n - 1, 0, n // 2], 9),
}


@pytest.mark.parametrize("order", list(_ORDERS))
@pytest.mark.parametrize("dt", [np.float64, np.complex128, np.int16, np.uint8])
def test_gather_across_tiles(dt, order):
    a = make(dt, (3001,), seed=7)
    x = nt.asarray(a)
    rng = np.random.default_rng(1)
    idx = _ORDERS[order](rng, a.size)
    _same(x[idx], a[idx])
    _same(x[nt.asarray(idx)], a[idx])
    idx2 = _ORDERS[order](rng, a[::-3].size)
    _same(x[::-3][idx2], a[::-3][idx2])
    if np.dtype(dt).kind == 'c':
        _same(x.imag[idx], a.imag[idx])
        _same(x.real[::-1][idx], a.real[::-1][idx])
    b = make(dt, (37, 53), seed=8)
    y = nt.asarray(b)
    i, j = rng.integers(-37, 37, 700), rng.integers(0, 53, 700)
    if order == "sorted":
        i, j = np.sort(i), np.sort(j)
    _same(y[i, j], b[i, j])
    _same(y.T[j, i], b.T[j, i])


@pytest.mark.parametrize("dt", [np.float64, np.int8, np.complex64])
def test_put_and_at_across_tiles(dt):
    a = make(dt, (64, 47), seed=9)
    rng = np.random.default_rng(2)
    idx = np.concatenate([rng.integers(0, a.size, 4000), np.repeat([7, a.size - 1], 5)])
    vals = make(dt, idx.shape, seed=10)
    x, e = nt.asarray(a.copy()), a.copy()
    nt.put(x, idx, vals)
    np.put(e, idx, vals)
    _same(x, e)
    # ufunc.at on a 1-d target (repeated indices accumulate in order), on
    # the 2-d one by (row, column), and on its transpose
    a1 = a.ravel().copy()
    x, e = nt.asarray(a1.copy()), a1.copy()
    nt.add.at(x, idx, vals)
    np.add.at(e, idx, vals)
    _same(x, e)
    i, j = idx // 47, idx % 47
    x, e = nt.asarray(a.copy()), a.copy()
    nt.subtract.at(x, (i, j), vals)
    np.subtract.at(e, (i, j), vals)
    _same(x, e)
    x, e = nt.asarray(a.copy()), a.copy()
    nt.add.at(x.T, (j, i), vals)
    np.add.at(e.T, (j, i), vals)
    _same(x, e)
    if np.dtype(dt).kind != 'c':
        # through the loop's dtype (float64 factors: unsafe casts back)
        w = rng.random(idx.size) * 3
        x, e = nt.asarray(a1.copy()), a1.copy()
        nt.multiply.at(x, idx, w)
        np.multiply.at(e, idx, w)
        _same(x, e)
        x, e = nt.asarray(a1.copy()), a1.copy()
        nt.negative.at(x, idx[:50])
        np.negative.at(e, idx[:50])
        _same(x, e)
