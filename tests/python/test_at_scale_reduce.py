"""Reductions, scans and statistics at default settings (2 MiB tiles) on
arrays past the inline threshold and across several tiles: every axis,
keepdims, where=, dtype=, views; compared with NumPy on the same inputs."""
import numpy as np
import pytest

import ndtile as nt
from _helpers import DTYPES, NAMES, ABOVE_INLINE, n_tiles, make, assert_big, raises_same, tol_for

pytestmark = pytest.mark.default_settings

SHAPE2 = (613, 1009)            # 618517 elements: 2.4 tiles of float64
SHAPE3 = (37, 131, 129)


def _cmp(f_nt, f_np, rtol=0, atol=None):
    try:
        exp = f_np()
    except Exception:
        raises_same(f_nt, f_np)
        return
    got = f_nt()
    if isinstance(exp, np.generic) and isinstance(got, nt.ndarray):
        got = got[()]
    if isinstance(exp, (np.ndarray, tuple)):
        assert_big(got, exp, rtol, atol)
    else:
        g = np.asarray(got)
        assert g.dtype == np.asarray(exp).dtype, (g.dtype, np.asarray(exp).dtype)
        if rtol:
            np.testing.assert_allclose(g, exp, rtol=rtol, atol=rtol)
        else:
            np.testing.assert_array_equal(g, exp)


def _sum_tol(dt):
    dt = np.dtype(dt)
    return 0 if dt.kind not in 'fc' else (1e-4 if dt.itemsize in (4, 8) and dt != np.float64
                                          else 1e-10)


RED = ['sum', 'max', 'min', 'any', 'all', 'argmax', 'argmin', 'mean', 'count_nonzero',
       'ptp']


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_reductions_every_axis(dt):
    a = make(dt, SHAPE2, 1, lo=-3, hi=3) if np.dtype(dt).kind != 'u' else make(dt, SHAPE2, 1,
                                                                                hi=3)
    if np.dtype(dt).kind in 'fc':
        a = a / 2 + 1
    x = nt.asarray(a)
    # products of many tiles: near 1 for inexact dtypes (no overflow)
    p = (1 + a / 1e4).astype(dt) if np.dtype(dt).kind in 'fc' else a
    px = nt.asarray(p)
    for axis in (None, 0, 1):
        _cmp(lambda: nt.prod(px, axis=axis), lambda: np.prod(p, axis=axis),
             1e-3 if np.dtype(dt).kind in 'fc' else 0)
    for name in RED:
        tol = _sum_tol(dt) if name in ('sum', 'prod', 'mean') else 0
        for axis in (None, 0, 1, -1):
            _cmp(lambda: getattr(nt, name)(x, axis=axis),
                 lambda: getattr(np, name)(a, axis=axis), tol)
        if name not in ('argmax', 'argmin', 'count_nonzero'):
            _cmp(lambda: getattr(nt, name)(x, axis=0, keepdims=True),
                 lambda: getattr(np, name)(a, axis=0, keepdims=True), tol)
            _cmp(lambda: getattr(nt, name)(x[::-2, 3::5], axis=1),
                 lambda: getattr(np, name)(a[::-2, 3::5], axis=1), tol)


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int64, np.int8, np.uint16,
                                np.complex128, np.bool_])
def test_reductions_3d_tuple_axes_where_dtype(dt):
    a = make(dt, SHAPE3, 2, lo=-3, hi=3)
    x = nt.asarray(a)
    tol = _sum_tol(dt)
    for axis in ((0, 1), (1, 2), (0, 2), (0, 1, 2), None, 1):
        _cmp(lambda: nt.sum(x, axis=axis), lambda: np.sum(a, axis=axis), tol)
        _cmp(lambda: nt.max(x, axis=axis, keepdims=True),
             lambda: np.max(a, axis=axis, keepdims=True))
    mask = make(np.bool_, SHAPE3, 3)
    mx = nt.asarray(mask)
    _cmp(lambda: nt.sum(x, axis=1, where=mx), lambda: np.sum(a, axis=1, where=mask), tol)
    _cmp(lambda: nt.sum(x, where=mx), lambda: np.sum(a, where=mask), tol)
    _cmp(lambda: nt.max(x, axis=2, where=mx, initial=-5),
         lambda: np.max(a, axis=2, where=mask, initial=-5))
    _cmp(lambda: nt.mean(x, axis=0, where=mx), lambda: np.mean(a, axis=0, where=mask),
         1e-4 if np.dtype(dt) in (np.float32, np.complex64) else 1e-10)
    for out_dt in (np.float64, np.int64, np.complex128):
        _cmp(lambda: nt.sum(x, axis=2, dtype=out_dt), lambda: np.sum(a, axis=2, dtype=out_dt),
             _sum_tol(out_dt))
    # out= a view of a larger array
    o = np.zeros((SHAPE3[0], 2 * SHAPE3[2]), np.result_type(np.sum(a[:1, :1, :1])))
    ox = nt.asarray(o)
    np.sum(a, axis=1, out=o[:, ::2])
    nt.sum(x, axis=1, out=ox[:, ::2])
    assert_big(ox, o, tol)


def test_bool_max_int_initial():
    # max/min of bool with a Python int initial gave int64 (and wrong values)
    a = make(np.bool_, SHAPE3, 2)
    x = nt.asarray(a)
    _cmp(lambda: nt.max(x, axis=2, initial=-5), lambda: np.max(a, axis=2, initial=-5))
    _cmp(lambda: nt.min(x, axis=None, initial=2), lambda: np.min(a, axis=None, initial=2))


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.complex64])
def test_var_std_nan_reductions(dt):
    a = make(dt, SHAPE2, 4)
    x = nt.asarray(a)
    tol = 1e-4 if np.dtype(dt).itemsize <= 8 and np.dtype(dt) != np.float64 else 1e-10
    for axis in (None, 0, 1):
        for ddof in (0, 1):
            _cmp(lambda: nt.var(x, axis=axis, ddof=ddof), lambda: np.var(a, axis=axis, ddof=ddof),
                 tol)
            _cmp(lambda: nt.std(x, axis=axis, ddof=ddof), lambda: np.std(a, axis=axis, ddof=ddof),
                 tol)
    b = a.copy()
    b[::7, ::3] = np.nan
    y = nt.asarray(b)
    for name in ('nansum', 'nanmean', 'nanmax', 'nanmin', 'nanprod', 'nanvar', 'nanstd',
                 'nanargmax', 'nanargmin'):
        if name in ('nanmax', 'nanmin', 'nanargmax', 'nanargmin') and np.dtype(dt).kind == 'c':
            continue
        for axis in (None, 0, 1):
            t = 1e-2 if name == 'nanprod' else tol
            if name == 'nanprod':
                bb = np.where(np.isnan(b), b, 1 + b / 100)
                yy = nt.asarray(bb)
                _cmp(lambda: nt.nanprod(yy, axis=axis), lambda: np.nanprod(bb, axis=axis), t)
                continue
            _cmp(lambda: getattr(nt, name)(y, axis=axis), lambda: getattr(np, name)(b, axis=axis),
                 t)
    # NaN propagates through plain reductions
    _cmp(lambda: nt.max(y, axis=0), lambda: np.max(b, axis=0))
    _cmp(lambda: nt.sum(y, axis=1), lambda: np.sum(b, axis=1), tol)


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int64, np.int16, np.uint8,
                                np.complex128, np.bool_])
def test_scans(dt):
    n = n_tiles(dt, 2.2)
    a = make(dt, n, 5, lo=-2, hi=2)
    x = nt.asarray(a)
    tol = 0 if np.dtype(dt).kind not in 'fc' else (1e-3 if np.dtype(dt).itemsize <= 8 and
                                                   np.dtype(dt) != np.float64 else 1e-9)
    # the running sums grow: rounding differs with the summation order, by a
    # few ULP of the largest partial sum
    atol = None if not tol else tol * float(np.abs(np.cumsum(a.astype(np.complex128))).max())
    _cmp(lambda: nt.cumsum(x), lambda: np.cumsum(a), tol, atol)
    _cmp(lambda: nt.cumsum(x[::-3]), lambda: np.cumsum(a[::-3]), tol, atol)
    _cmp(lambda: nt.cumsum(x, dtype=np.float64), lambda: np.cumsum(a, dtype=np.float64),
         1e-9)
    p = make(dt, n, 6, lo=-1, hi=1) if np.dtype(dt).kind in 'iub' else \
        (1 + make(dt, n, 6) / 1e6).astype(dt)
    px = nt.asarray(p)
    _cmp(lambda: nt.cumprod(px[:ABOVE_INLINE]), lambda: np.cumprod(p[:ABOVE_INLINE]),
         tol * 10)
    m = a[: n - n % 777].reshape(-1, 777)
    mx = nt.asarray(m)
    for axis in (0, 1, -1):
        _cmp(lambda: nt.cumsum(mx, axis=axis), lambda: np.cumsum(m, axis=axis), tol, atol)
        _cmp(lambda: nt.cumprod(nt.asarray(p[: m.size].reshape(m.shape)), axis=axis),
             lambda: np.cumprod(p[: m.size].reshape(m.shape), axis=axis), tol * 100)
    _cmp(lambda: nt.cumsum(mx.T[3:, ::2], axis=0), lambda: np.cumsum(m.T[3:, ::2], axis=0), tol,
         atol)
    # out= the input itself
    if np.dtype(dt) != np.bool_:
        c = a.copy()
        cx = nt.asarray(c)
        np.cumsum(c, out=c)
        nt.cumsum(cx, out=cx)
        assert_big(cx, c, tol, atol)
    if np.dtype(dt).kind == 'f':
        b = a.copy()
        b[::1001] = np.nan
        _cmp(lambda: nt.nancumsum(nt.asarray(b)), lambda: np.nancumsum(b), tol, atol)
        _cmp(lambda: nt.nancumprod(nt.asarray(b[:ABOVE_INLINE] / 50 + 1)),
             lambda: np.nancumprod(b[:ABOVE_INLINE] / 50 + 1), 1e-3)
    _cmp(lambda: nt.diff(x), lambda: np.diff(a))
    _cmp(lambda: nt.diff(mx, n=2, axis=0), lambda: np.diff(m, n=2, axis=0))


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int64, np.int16])
def test_median_percentile_quantile(dt):
    a = make(dt, SHAPE2, 7, lo=-1000, hi=1000)
    x = nt.asarray(a)
    tol = 1e-5 if np.dtype(dt) == np.float32 else 1e-12
    for axis in (None, 0, 1):
        _cmp(lambda: nt.median(x, axis=axis), lambda: np.median(a, axis=axis), tol)
        _cmp(lambda: nt.percentile(x, [5, 50, 99.5], axis=axis),
             lambda: np.percentile(a, [5, 50, 99.5], axis=axis), tol)
    _cmp(lambda: nt.quantile(x, 0.3, axis=1, keepdims=True),
         lambda: np.quantile(a, 0.3, axis=1, keepdims=True), tol)
    for method in ('lower', 'higher', 'nearest', 'midpoint'):
        _cmp(lambda: nt.percentile(x[::-1], 37, method=method),
             lambda: np.percentile(a[::-1], 37, method=method), tol)
    if np.dtype(dt).kind == 'f':
        b = a.copy()
        b[::9, ::4] = np.nan
        _cmp(lambda: nt.nanmedian(nt.asarray(b), axis=0), lambda: np.nanmedian(b, axis=0), tol)
        _cmp(lambda: nt.median(nt.asarray(b), axis=1), lambda: np.median(b, axis=1), tol)


def test_average_histogram_bincount():
    a = make(np.float64, SHAPE2, 8)
    x = nt.asarray(a)
    w = make(np.float64, SHAPE2, 9, lo=0, hi=1)
    wx = nt.asarray(w)
    _cmp(lambda: nt.average(x, axis=0, weights=wx), lambda: np.average(a, axis=0, weights=w),
         1e-10)
    _cmp(lambda: nt.average(x, weights=wx), lambda: np.average(a, weights=w), 1e-10)
    for bins in (10, 257):
        _cmp(lambda: nt.histogram(x, bins=bins), lambda: np.histogram(a, bins=bins))
        _cmp(lambda: nt.histogram(x, bins=bins, range=(-5, 5), weights=wx),
             lambda: np.histogram(a, bins=bins, range=(-5, 5), weights=w), 1e-10)
    edges = np.array([-11.0, -3, 0, 0.5, 7, 11])
    _cmp(lambda: nt.histogram(x, bins=nt.asarray(edges)), lambda: np.histogram(a, bins=edges))
    _cmp(lambda: nt.histogram(x, bins=13, density=True),
         lambda: np.histogram(a, bins=13, density=True), 1e-10)
    for dt in (np.int64, np.int32, np.uint8, np.int16):
        c = make(dt, n_tiles(dt, 1.5), 10, lo=0, hi=200)
        cx = nt.asarray(c)
        _cmp(lambda: nt.bincount(cx), lambda: np.bincount(c))
        _cmp(lambda: nt.bincount(cx, minlength=500), lambda: np.bincount(c, minlength=500))
        ww = make(np.float64, c.size, 11)
        _cmp(lambda: nt.bincount(cx, weights=nt.asarray(ww)), lambda: np.bincount(c, weights=ww),
             1e-10)
    raises_same(lambda: nt.bincount(nt.asarray(np.arange(-1, ABOVE_INLINE))),
                lambda: np.bincount(np.arange(-1, ABOVE_INLINE)))


def test_sum_of_many_tiles_exact_integers():
    # integer sums are exact: any lost or doubled tile shows
    for dt in (np.int64, np.uint32, np.int8, np.bool_):
        n = n_tiles(dt, 6) if np.dtype(dt).itemsize > 1 else 3_000_017
        a = (np.arange(n) % 7).astype(dt)
        x = nt.asarray(a)
        _cmp(lambda: nt.sum(x), lambda: np.sum(a))
        _cmp(lambda: nt.sum(x[1::3]), lambda: np.sum(a[1::3]))
        _cmp(lambda: x.sum(dtype=np.int64), lambda: a.sum(dtype=np.int64))
        _cmp(lambda: nt.count_nonzero(x), lambda: np.count_nonzero(a))
        _cmp(lambda: nt.argmax(x[::-1]), lambda: np.argmax(a[::-1]))
