"""Indexing reads and writes at default settings (2 MiB tiles) on arrays of
several tiles: basic, stepped, negative, boolean masks, fancy and mixed
indices, take/put, where/select/choose/clip/nonzero/argwhere/
count_nonzero, copyto; views checked for aliasing by writing through
them. Compared with NumPy doing the same steps."""
import numpy as np
import pytest

import ndtile as nt
from _helpers import ABOVE_INLINE, n_tiles, make, assert_big, raises_same, same_view_effect

pytestmark = pytest.mark.default_settings

SHAPE = (709, 1013)            # 718217 elements: 2.7 tiles of float64


@pytest.mark.parametrize("dt", [np.float64, np.int8, np.uint32, np.complex128, np.bool_])
def test_basic_reads_are_views(dt):
    a = make(dt, SHAPE, 1)
    keys = [(slice(None, None, -1),), (slice(3, -4, 7), slice(None, None, -3)),
            (5,), (-1, slice(2, None, 2)), (slice(None), 17), (Ellipsis, -3),
            (None, slice(100, 600), None, slice(None, None, 11)), (slice(700, 5, -13),)]
    for key in keys:
        b = a.copy()
        x = nt.asarray(b)
        assert_big(x[key], b[key])
        same_view_effect(x, b, x[key], b[key])
    # scalar element reads
    x = nt.asarray(a)
    for i, j in ((0, 0), (708, 1012), (-1, -1), (354, 500)):
        assert x[i, j] == a[i, j] and type(x[i, j]) is type(a[i, j])
    raises_same(lambda: x[709], lambda: a[709])
    raises_same(lambda: x[0, -1014], lambda: a[0, -1014])


@pytest.mark.parametrize("dt", [np.float64, np.int16, np.complex64, np.bool_])
def test_mask_and_fancy_reads_are_copies(dt):
    a = make(dt, SHAPE, 2)
    x = nt.asarray(a)
    m = make(np.bool_, SHAPE, 3)
    mx = nt.asarray(m)
    assert_big(x[mx], a[m])
    assert_big(x[mx[:, 0]], a[m[:, 0]])
    assert_big(x[:, mx[0]], a[:, m[0]])
    assert_big(x[x != x[0, 0]], a[a != a[0, 0]])
    idx = make(np.int64, ABOVE_INLINE, 4, lo=-709, hi=708)
    jdx = make(np.int64, ABOVE_INLINE, 5, lo=-1013, hi=1012)
    ix, jx = nt.asarray(idx), nt.asarray(jdx)
    assert_big(x[ix[:300]], a[idx[:300]])
    assert_big(x[ix, jx], a[idx, jdx])
    assert_big(x[ix[:300, None], jx[None, :200]], a[idx[:300, None], jdx[None, :200]])
    assert_big(x[::-2, jx[:500]], a[::-2, jdx[:500]])          # mixed: slice and fancy
    assert_big(x[5, jx], a[5, jdx])
    assert_big(x[ix[:50], 3:900:7], a[idx[:50], 3:900:7])
    flat = (idx % 709) * 1013 + jdx % 1013
    assert_big(x.ravel()[nt.asarray(flat)], a.ravel()[flat])
    lst = [0, -1, 5, 5, 300]
    assert_big(x[lst], a[lst])
    # a copy: writing it leaves the base
    f = x[ix[:300]]
    f[...] = 0
    assert_big(x, a)
    raises_same(lambda: x[nt.asarray(np.array([709]))], lambda: a[np.array([709])])
    raises_same(lambda: x[mx[:5]], lambda: a[m[:5]])


@pytest.mark.parametrize("dt", [np.float64, np.int32, np.uint8, np.complex128, np.bool_])
def test_writes(dt):
    a = make(dt, SHAPE, 6)
    x = nt.asarray(a)
    v = make(dt, SHAPE, 7)
    vx = nt.asarray(v)
    m = make(np.bool_, SHAPE, 8)
    mx = nt.asarray(m)
    idx = make(np.int64, ABOVE_INLINE, 9, lo=-709, hi=708)
    jdx = make(np.int64, ABOVE_INLINE, 10, lo=-1013, hi=1012)
    steps = [
        (lambda t, s, k: t.__setitem__((slice(None, None, -2), slice(5, None, 3)), 1)),
        (lambda t, s, k: t.__setitem__((-3,), s[0])),
        (lambda t, s, k: t.__setitem__((slice(None), -7), s[:, 0])),
        (lambda t, s, k: t.__setitem__(k['m'], s[k['m']])),
        (lambda t, s, k: t.__setitem__(k['m'][:, 0], 0)),
        (lambda t, s, k: t.__setitem__(k['m'], 1)),
        (lambda t, s, k: t.__setitem__((k['i'], k['j']), s.ravel()[:ABOVE_INLINE])),
        (lambda t, s, k: t.__setitem__((k['i'][:100, None], k['j'][None, :50]), 0)),
        (lambda t, s, k: t.__setitem__((slice(None, None, 3), k['j'][:300]), s[::3, :300])),
        (lambda t, s, k: t.__setitem__((k['i'][:500],), s[:500])),
        (lambda t, s, k: t.__setitem__((Ellipsis,), s[::-1, ::-1])),
    ]
    kn = {'m': m, 'i': idx, 'j': jdx}
    kx = {'m': mx, 'i': nt.asarray(idx), 'j': nt.asarray(jdx)}
    for step in steps:
        step(a, v, kn)
        step(x, vx, kx)
        assert_big(x, a)
    # augmented assignment through fancy indices with repeats (once per index, as NumPy)
    rep = np.array([3, 3, 7, -1, 3])
    a[rep] += v[:5]
    x[nt.asarray(rep)] += vx[:5]
    assert_big(x, a)
    raises_same(lambda: x.__setitem__(mx[:5], 1), lambda: a.__setitem__(m[:5], 1))


@pytest.mark.parametrize("dt", [np.float64, np.int16, np.complex128, np.bool_])
def test_gathers_along_one_axis(dt):
    """take, take_along_axis, compress and a[..., idx, ...] on arrays of
    several tiles: each task reads only the rows its block of the result
    reaches (the other axes sliced, the index axis below the indices'
    maximum); NumPy's bits, with negative indices, modes, out=, 0-d and
    empty indices and strided views."""
    rows = n_tiles(dt, 3) // 301 | 1
    a = make(dt, (rows, 7, 43), 21)
    x = nt.asarray(a)
    views = [(a, x), (a[::-3, ::2, 40:1:-1], x[::-3, ::2, 40:1:-1]),
             (a.transpose(2, 0, 1), x.transpose(2, 0, 1))]
    for b, y in views:
        for ax in range(3):
            n = b.shape[ax]
            for idx in ([0, 0, 0], [n - 1, -1, 2, -n], [[1, -2], [0, n - 1]], np.array(-1),
                        [n // 2, n - 1, n // 2 + 1], [-2, -1, -3],
                        np.array([], np.int64)):
                assert_big(nt.take(y, idx, axis=ax), np.take(b, idx, axis=ax))
            for mode in ('wrap', 'clip'):
                idx = [n + 5, -3 * n, 1, -1]
                assert_big(nt.take(y, idx, axis=ax, mode=mode), np.take(b, idx, axis=ax, mode=mode))
            raises_same(lambda: nt.take(y, [0, n], axis=ax), lambda: np.take(b, [0, n], axis=ax))
            o = np.zeros(np.take(b, [2, 0], axis=ax).shape, dt)
            yo = nt.asarray(o.copy())
            assert nt.take(y, [2, 0], axis=ax, out=yo) is yo
            assert_big(yo, np.take(b, [2, 0], axis=ax, out=o))
            s = np.argsort(b, axis=ax, kind='stable')
            assert_big(nt.take_along_axis(y, nt.asarray(s), axis=ax),
                       np.take_along_axis(b, s, axis=ax))
            s1 = np.take(s, [1], axis=(ax + 1) % 3)    # broadcast against the source
            assert_big(nt.take_along_axis(y, nt.asarray(s1), axis=ax),
                       np.take_along_axis(b, s1, axis=ax))
            cond = np.arange(n) % 4 == 3
            assert_big(nt.compress(cond, y, axis=ax), np.compress(cond, b, axis=ax))
        i = np.array([3, -1, 0, 3, 2])
        for key in [(i,), (slice(None), i[:3]), (slice(None, None, -2), slice(1, None), i),
                    (i[:, None], slice(None), i), (Ellipsis, [3]), (np.array(4), slice(None))]:
            assert_big(y[key], b[key])


@pytest.mark.parametrize("dt", [np.float64, np.int64, np.int8, np.complex64])
def test_take_put(dt):
    n = n_tiles(dt, 1.6)
    a = make(dt, n, 11)
    x = nt.asarray(a)
    idx = make(np.int64, ABOVE_INLINE * 2, 12, lo=-n, hi=n - 1)
    ix = nt.asarray(idx)
    assert_big(nt.take(x, ix), np.take(a, idx))
    m = a[: n - n % 999].reshape(-1, 999)
    y = nt.asarray(m)
    assert_big(nt.take(y, ix[:300] % 999, axis=1), np.take(m, idx[:300] % 999, axis=1))
    assert_big(nt.take(y, ix[:300] % m.shape[0], axis=0), np.take(m, idx[:300] % m.shape[0],
                                                                     axis=0))
    for mode in ('wrap', 'clip'):
        big = idx * 3
        assert_big(nt.take(x, nt.asarray(big), mode=mode), np.take(a, big, mode=mode))
    raises_same(lambda: nt.take(x, nt.asarray(np.array([n]))), lambda: np.take(a, [n]))
    vals = make(dt, idx.size, 13)
    b, z = a.copy(), nt.asarray(a)
    np.put(b, idx, vals)
    nt.put(z, ix, nt.asarray(vals))
    assert_big(z, b)
    np.put(b, idx * 5, vals[:7], mode='wrap')
    nt.put(z, nt.asarray(idx * 5), nt.asarray(vals[:7]), mode='wrap')
    assert_big(z, b)
    w = make(np.int64, (m.shape[0], 5), 14, lo=0, hi=998)
    assert_big(nt.take_along_axis(y, nt.asarray(w), axis=1), np.take_along_axis(m, w, axis=1))
    mm, yy = m.copy(), nt.asarray(m)
    np.put_along_axis(mm, w, -1, axis=1)
    nt.put_along_axis(yy, nt.asarray(w), -1, axis=1)
    assert_big(yy, mm)
    pm = make(np.bool_, n, 15)
    b, z = a.copy(), nt.asarray(a)
    np.putmask(b, pm, a[::-1])
    nt.putmask(z, nt.asarray(pm), x[::-1])
    assert_big(z, b)
    assert_big(nt.compress(nt.asarray(pm), x), np.compress(pm, a))
    assert_big(nt.extract(nt.asarray(pm), x), np.extract(pm, a))
    b, z = a.copy(), nt.asarray(a)
    np.place(b, pm, vals[:11])
    nt.place(z, nt.asarray(pm), nt.asarray(vals[:11]))
    assert_big(z, b)


@pytest.mark.parametrize("dt", [np.float64, np.int32, np.uint16, np.complex128, np.bool_])
def test_where_select_choose_clip(dt):
    a, b = make(dt, SHAPE, 16), make(dt, SHAPE, 17)
    x, y = nt.asarray(a), nt.asarray(b)
    c = make(np.bool_, SHAPE, 18)
    cx = nt.asarray(c)
    assert_big(nt.where(cx, x, y), np.where(c, a, b))
    assert_big(nt.where(cx, x, 0), np.where(c, a, 0))
    assert_big(nt.where(cx[0], x[::-1], y[:, 0:1]), np.where(c[0], a[::-1], b[:, 0:1]))
    for got, exp in zip(nt.where(cx), np.where(c)):
        assert_big(got, exp)
    for got, exp in zip(nt.nonzero(x), np.nonzero(a)):
        assert_big(got, exp)
    assert_big(nt.flatnonzero(x), np.flatnonzero(a))
    assert_big(nt.argwhere(x[::3]), np.argwhere(a[::3]))
    for axis in (None, 0, 1):
        got, exp = nt.count_nonzero(x, axis=axis), np.count_nonzero(a, axis=axis)
        if isinstance(exp, np.ndarray):
            assert_big(got, exp)
        else:
            assert int(got) == exp
    if np.dtype(dt).kind != 'c' and np.dtype(dt) != np.bool_:
        assert_big(nt.clip(x, 2, 5), np.clip(a, 2, 5))
        assert_big(nt.clip(x, y[0], None), np.clip(a, b[0], None))
        o, ox = a.copy(), nt.asarray(a)
        np.clip(o, -1, 1, out=o)
        nt.clip(ox, -1, 1, out=ox)
        assert_big(ox, o)
    conds = [a > b, a == b]
    assert_big(nt.select([nt.asarray(k) for k in conds], [x, y], default=3),
               np.select(conds, [a, b], default=3))
    ch = make(np.int64, SHAPE, 19, lo=0, hi=2)
    chx = nt.asarray(ch)
    assert_big(nt.choose(chx, [x, y, x * 0]), np.choose(ch, [a, b, a * 0]))
    assert_big(nt.choose(chx + 5, [x, y, x], mode='wrap'),
               np.choose(ch + 5, [a, b, a], mode='wrap'))


@pytest.mark.parametrize("dt", [np.float64, np.int8, np.complex64])
def test_copyto(dt):
    a, b = make(dt, SHAPE, 20), make(dt, SHAPE, 21)
    x, y = nt.asarray(a), nt.asarray(b)
    c = make(np.bool_, SHAPE, 22)
    np.copyto(a, b, where=c)
    nt.copyto(x, y, where=nt.asarray(c))
    assert_big(x, a)
    np.copyto(a[::2], b[0])
    nt.copyto(x[::2], y[0])
    assert_big(x, a)
    np.copyto(a, 3)
    nt.copyto(x, 3)
    assert_big(x, a)
    f = make(np.float64, SHAPE, 23)
    raises_same(lambda: nt.copyto(nt.asarray(np.zeros(SHAPE, np.int8)), nt.asarray(f)),
                lambda: np.copyto(np.zeros(SHAPE, np.int8), f))
    o, ox = np.zeros(SHAPE, np.float64), nt.zeros(SHAPE)
    np.copyto(o, a if np.dtype(dt).kind != 'c' else a.real, casting='unsafe')
    nt.copyto(ox, x if np.dtype(dt).kind != 'c' else x.real, casting='unsafe')
    assert_big(ox, o)


@pytest.mark.parametrize("dt", [np.float64, np.int16, np.complex64])
def test_gathers_whose_bounds_the_core_finds_per_block(dt):
    """take with mode='wrap'/'clip', take_along_axis with indices near
    their position, median and isin's sorted lookup on arrays of several
    tiles: the core finds each block's least and greatest index and each
    task reads the source between them; NumPy's bits, errors and a strided
    view."""
    rows = n_tiles(dt, 3) // 64 | 1
    a = make(dt, (rows, 64), 31)
    x = nt.asarray(a)
    for b, y in [(a, x), (a[::-2, 3::5], x[::-2, 3::5])]:
        for ax in (0, 1):
            n = b.shape[ax]
            idx = np.arange(-n - 3, 2 * n)
            for mode in ('wrap', 'clip'):
                assert_big(nt.take(y, nt.asarray(idx), axis=ax, mode=mode),
                           np.take(b, idx, axis=ax, mode=mode))
            sh = [1, 1]
            sh[ax] = n
            s = np.broadcast_to(np.minimum(np.arange(n) ^ 1, n - 1).reshape(sh), b.shape).copy()
            assert_big(nt.take_along_axis(y, nt.asarray(s), axis=ax),
                       np.take_along_axis(b, s, axis=ax))
            s[-1, -1] = n
            raises_same(lambda: nt.take_along_axis(y, nt.asarray(s), axis=ax),
                        lambda: np.take_along_axis(b, s, axis=ax))
    if np.dtype(dt).kind != 'c':
        assert_big(nt.median(x, axis=1), np.median(a, axis=1))
        e = (np.arange(a.size) // 3).astype(dt)
        t = np.arange(0, a.size // 3, 2).astype(dt)
        assert_big(nt.isin(nt.asarray(e), nt.asarray(t), kind='sort'), np.isin(e, t, kind='sort'))
