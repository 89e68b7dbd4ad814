"""Sorting, selection, searching and unique at default settings (2 MiB
tiles) on arrays of one and several tiles, with NaN, -0.0 and ties;
compared with NumPy on the same inputs."""
import numpy as np
import pytest

import ndtile as nt
from _helpers import DTYPES, NAMES, ABOVE_INLINE, n_tiles, make, assert_big

pytestmark = pytest.mark.default_settings


def _data(dt, n, seed=0):
    a = make(dt, n, seed, lo=-1000, hi=1000)
    if np.dtype(dt).kind == 'f':
        a[::101] = np.nan
        a[::103] = -0.0
        a[::107] = np.inf
    if np.dtype(dt).kind == 'c':
        a.real[::101] = np.nan
    return a


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_sort_argsort(dt):
    for n in (ABOVE_INLINE, n_tiles(dt, 1.2)):
        a = _data(dt, n)
        x = nt.asarray(a)
        assert_big(nt.sort(x), np.sort(a))
        assert_big(nt.argsort(x, kind='stable'), np.argsort(a, kind='stable'))
        assert_big(nt.sort(x[::-3]), np.sort(a[::-3]))
    m = _data(dt, (n_tiles(dt, 1.3) // 997, 997), 1)
    y = nt.asarray(m)
    for axis in (0, 1, None):
        assert_big(nt.sort(y, axis=axis), np.sort(m, axis=axis))
    assert_big(nt.argsort(y, axis=0, kind='stable'), np.argsort(m, axis=0, kind='stable'))
    # in place, through a view of the base
    b = m.copy()
    z = nt.asarray(b)
    b[:, ::2].sort(axis=1)
    z[:, ::2].sort(axis=1)
    assert_big(z, b)


@pytest.mark.parametrize("dt", [np.float64, np.int32, np.uint8, np.float32, np.int64])
def test_partition(dt):
    n = n_tiles(dt, 1.6)
    a = _data(dt, n, 2)
    x = nt.asarray(a)
    ks = [0, 17, n // 2, n - 1]
    p, q = np.partition(a, ks), nt.partition(x, ks)
    q = np.asarray(q)
    assert q.dtype == p.dtype and q.shape == p.shape
    np.testing.assert_array_equal(q[ks], p[ks])
    for k in ks:       # before k nothing larger, after it nothing smaller (NaN sorts last)
        if np.isnan(p[k]):
            assert np.isnan(q[k:]).all()
        else:
            assert np.all(q[:k] <= p[k]) and np.all((q[k + 1:] >= p[k]) | np.isnan(q[k + 1:]))
    np.testing.assert_array_equal(np.sort(q), np.sort(a))
    i = np.asarray(nt.argpartition(x, n // 2))
    assert a[i[n // 2]] == p[n // 2] or (np.isnan(a[i[n // 2]]) and np.isnan(p[n // 2]))
    np.testing.assert_array_equal(np.sort(i), np.arange(n))
    m = a[: n - n % 1001].reshape(-1, 1001)
    y = nt.asarray(m)
    pm, qm = np.partition(m, 500, axis=1), np.asarray(nt.partition(y, 500, axis=1))
    np.testing.assert_array_equal(qm[:, 500], pm[:, 500])


@pytest.mark.parametrize("dt", [np.float64, np.int64, np.int16, np.uint32, np.float32,
                                np.complex128, np.bool_])
def test_searchsorted(dt):
    n = n_tiles(dt, 1.6)
    s = np.sort(_data(dt, n, 3))
    v = _data(dt, ABOVE_INLINE + 11, 4)
    sx, vx = nt.asarray(s), nt.asarray(v)
    for side in ('left', 'right'):
        assert_big(nt.searchsorted(sx, vx, side=side), np.searchsorted(s, v, side=side))
        assert_big(nt.searchsorted(sx[::2], vx[::-1], side=side),
                   np.searchsorted(s[::2], v[::-1], side=side))
    perm = np.argsort(v, kind='stable')
    assert_big(nt.searchsorted(vx, sx[: 2 * ABOVE_INLINE], sorter=nt.asarray(perm)),
               np.searchsorted(v, s[: 2 * ABOVE_INLINE], sorter=perm))
    if np.dtype(dt).kind in 'iuf':
        e = np.linspace(0 if np.dtype(dt).kind == 'u' else -1000, 1000, 77).astype(dt)
        assert_big(nt.digitize(vx, nt.asarray(e)), np.digitize(v, e))
        assert_big(nt.digitize(vx, nt.asarray(e), right=True), np.digitize(v, e, right=True))


@pytest.mark.parametrize("dt", [np.float64, np.int64, np.int8, np.uint16, np.float32,
                                np.complex64, np.bool_])
def test_unique(dt):
    n = n_tiles(dt, 1.6)
    a = _data(dt, n, 5)
    x = nt.asarray(a)
    assert_big(nt.unique(x), np.unique(a))
    k = min(n, 700_001)                      # at least one tile of 2 bytes and more
    got = nt.unique(x[:k], return_index=True, return_inverse=True, return_counts=True)
    exp = np.unique(a[:k], return_index=True, return_inverse=True, return_counts=True)
    for g, e in zip(got, exp):
        assert_big(g, e)
    m = make(dt, (ABOVE_INLINE, 4), 6, lo=0, hi=3)
    assert_big(nt.unique(nt.asarray(m), axis=0), np.unique(m, axis=0))
    if np.dtype(dt).kind == 'f':
        assert_big(nt.unique(x, equal_nan=False), np.unique(a, equal_nan=False))


def test_set_operations_and_lexsort():
    a = make(np.int64, n_tiles(np.int64, 1.2), 7, lo=0, hi=400_000)
    b = make(np.int64, ABOVE_INLINE * 3, 8, lo=0, hi=400_000)
    x, y = nt.asarray(a), nt.asarray(b)
    assert_big(nt.isin(x, y), np.isin(a, b))
    assert_big(nt.isin(x, y, invert=True), np.isin(a, b, invert=True))
    for name in ('intersect1d', 'union1d', 'setdiff1d', 'setxor1d'):
        assert_big(getattr(nt, name)(x, y), getattr(np, name)(a, b))
    k1, k2 = a % 13, a // 7
    assert_big(nt.lexsort((nt.asarray(k1), nt.asarray(k2))), np.lexsort((k1, k2)))
    # many keys (ranked together and combined): rows of an array over tiles
    for dt in (np.float64, np.int64, np.complex64):
        m = _data(dt, 600_003, 3).reshape(-1, 3)
        assert_big(nt.lexsort(nt.asarray(m)), np.lexsort(m))
        assert_big(nt.lexsort(nt.asarray(m).T, axis=0), np.lexsort(m.T, axis=0))
        assert_big(nt.lexsort(nt.asarray(m[:, :1])), np.lexsort(m[:, :1]))
    w = _data(np.float64, 400_000, 4).reshape(8, -1) // 300
    assert_big(nt.lexsort(nt.asarray(w)), np.lexsort(w))
    assert_big(nt.lexsort(tuple(nt.asarray(r) for r in w)), np.lexsort(tuple(w)))
    f = _data(np.float64, n_tiles(np.float64, 1.6), 9)
    z = nt.asarray(f)
    assert_big(nt.argmax(z), np.argmax(f))
    assert_big(nt.nanargmin(z), np.nanargmin(f))
