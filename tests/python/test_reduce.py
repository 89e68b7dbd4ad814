"""Reductions against NumPy: all dtypes, axes (None, ints, negatives,
tuples), keepdims, dtype=, out=, initial=, where=, empty arrays; full
reductions return NumPy scalars."""
import numpy as np
import pytest

import ndtile as nt
from _helpers import DTYPES, NAMES, make, assert_same, tol_for, check_same_error

SHAPES = [(), (0,), (1,), (6,), (3, 4), (2, 0, 3), (1500,), (33, 47), (4, 5, 6)]
FUNCS = ['sum', 'prod', 'min', 'max', 'any', 'all', 'mean', 'var', 'std', 'nansum',
         'nanprod', 'nanmin', 'nanmax', 'count_nonzero', 'argmin', 'argmax', 'ptp', 'nanmean',
         'amin', 'amax']


def _axes(ndim):
    out = [None]
    if ndim >= 1:
        out += [0, -1]
    if ndim >= 2:
        out += [1, (0, 1), (-1, 0)]
    if ndim >= 3:
        out += [(0, 2), (0, 1, 2), -2]
    return out


def _tol(name, dt):
    if name in ('sum', 'nansum', 'mean', 'nanmean', 'var', 'std', 'prod', 'nanprod'):
        return tol_for(dt, 'sum')
    return 0


def _values(name, dt, shape, seed):
    if name in ('prod', 'nanprod'):
        return make(dt, shape, seed, lo=-2, hi=2)
    return make(dt, shape, seed)


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
@pytest.mark.parametrize("name", FUNCS)
def test_reduction(name, dt):
    f_np, f_nt = getattr(np, name), getattr(nt, name)
    for i, shape in enumerate(SHAPES):
        a = _values(name, dt, shape, i)
        if name in ('prod', 'nanprod') and a.size > 40:
            a = a[..., :3] if a.ndim else a
        x = nt.asarray(a)
        for axis in _axes(a.ndim):
            if name in ('argmin', 'argmax') and isinstance(axis, tuple):
                continue
            for keepdims in (False, True):
                kw = {'axis': axis}
                if keepdims:
                    kw['keepdims'] = True
                raised, exp = check_same_error(lambda: f_nt(x, **kw), lambda: f_np(a, **kw))
                if raised:
                    continue
                got = f_nt(x, **kw)
                rt = _tol(name, np.asarray(exp).dtype)
                # summation order differs: errors scale with the sum of |a|
                scale = float(np.abs(a.astype(np.complex128)).sum()) if a.size else 1.0
                at = rt * max(1.0, scale) if name in ('sum', 'nansum') else rt * 100
                if name == 'count_nonzero' and not isinstance(exp, (np.ndarray, np.generic)):
                    assert got == exp
                    continue
                assert_same(got, exp, rt, at if rt else None)
                # the method form
                if hasattr(a, name) and name not in ('ptp',):
                    assert_same(getattr(x, name)(**kw), getattr(a, name)(**kw), rt,
                                at if rt else None)


def test_full_reduction_returns_numpy_scalar():
    x = nt.arange(10.0)
    s = x.sum()
    assert type(s) is np.float64 and s == 45.0
    assert type(nt.max(nt.arange(5, dtype=np.int8))) is np.int8
    assert type(x.argmax()) is np.int64
    assert type((x > 3).any()) is np.bool_
    assert type(nt.mean(nt.arange(4, dtype=np.float32))) is np.float32
    r = x.reshape(2, 5).sum(axis=0)
    assert isinstance(r, nt.ndarray)


@pytest.mark.parametrize("dt", [np.int8, np.uint16, np.float32, np.complex64, np.bool_],
                         ids=str)
def test_reduction_dtype_argument(dt):
    a = make(dt, (40, 30))
    x = nt.asarray(a)
    for name, rd in [('sum', np.float64), ('sum', np.int16), ('prod', np.float32),
                     ('mean', np.float64), ('mean', np.float32), ('var', np.float64),
                     ('std', np.float32), ('sum', np.complex128)]:
        raised, exp = check_same_error(lambda: getattr(nt, name)(x, axis=0, dtype=rd),
                                       lambda: getattr(np, name)(a, axis=0, dtype=rd))
        if not raised:
            assert_same(getattr(nt, name)(x, axis=0, dtype=rd), exp,
                        tol_for(exp.dtype, 'sum'))


def test_reduction_out():
    a = make(np.float64, (20, 30))
    x = nt.asarray(a)
    out = nt.zeros(30)
    r = nt.sum(x, axis=0, out=out)
    assert r is out
    assert_same(out, a.sum(axis=0), 1e-12)
    oi = nt.zeros(20, np.int64)
    x.max(axis=1, out=oi)
    assert_same(oi, a.max(axis=1, out=np.zeros(20, np.int64)))
    o = np.zeros(30)
    assert nt.mean(x, axis=0, out=o) is o
    np.testing.assert_allclose(o, a.mean(axis=0), rtol=1e-12)


def test_reduction_initial_and_where():
    a = make(np.float64, (12, 9))
    x = nt.asarray(a)
    m = make(np.bool_, (12, 9), 5)
    xm = nt.asarray(m)
    assert_same(nt.sum(x, initial=5.0), np.sum(a, initial=5.0), 1e-12)
    assert_same(nt.max(x, axis=0, initial=100.0), np.max(a, axis=0, initial=100.0))
    assert_same(nt.min(nt.zeros((0, 3)), axis=0, initial=7.0),
                np.min(np.zeros((0, 3)), axis=0, initial=7.0))
    assert_same(nt.sum(x, axis=1, where=xm), np.sum(a, axis=1, where=m), 1e-12)
    assert_same(nt.prod(x, where=xm[0]), np.prod(a, where=m[0]), 1e-12)
    assert_same(nt.max(x, axis=0, where=xm, initial=-50.0),
                np.max(a, axis=0, where=m, initial=-50.0))
    assert_same(x.all(where=xm), a.all(where=m))
    with pytest.raises(ValueError):
        nt.max(x, where=xm)


def test_var_std_ddof():
    a = make(np.float64, (30, 8))
    x = nt.asarray(a)
    for ddof in (0, 1, 2):
        assert_same(nt.var(x, ddof=ddof), np.var(a, ddof=ddof), 1e-12)
        assert_same(x.std(axis=0, ddof=ddof), a.std(axis=0, ddof=ddof), 1e-12)
    c = make(np.complex128, (30, 8))
    assert_same(nt.var(nt.asarray(c), axis=1), np.var(c, axis=1), 1e-12)


def test_axis_errors():
    x = nt.zeros((3, 4))
    with pytest.raises(np.exceptions.AxisError):
        nt.sum(x, axis=2)
    with pytest.raises(np.exceptions.AxisError):
        x.max(axis=-3)
    with pytest.raises(ValueError):
        nt.sum(x, axis=(0, 0))
    with pytest.raises(ValueError):
        nt.max(nt.zeros((0,)))
    with pytest.raises(ValueError):
        nt.argmin(nt.zeros((0,)))
    with pytest.raises(TypeError):
        nt.sum(x, axis=1.0)


def test_nan_reductions():
    a = make(np.float64, (10, 12))
    a[a > 5] = np.nan
    x = nt.asarray(a)
    for name in ('nansum', 'nanprod', 'nanmax', 'nanmin', 'nanmean'):
        for axis in (None, 0, 1):
            assert_same(getattr(nt, name)(x, axis=axis), getattr(np, name)(a, axis=axis),
                        1e-12)
    for name in ('max', 'min', 'sum', 'mean'):
        assert_same(getattr(nt, name)(x, axis=0), getattr(np, name)(a, axis=0), 1e-12)
    assert_same(nt.argmax(x, axis=1), np.argmax(a, axis=1))


def test_reductions_on_views():
    a = make(np.float64, (40, 50))
    x = nt.asarray(a)
    for v, w in [(x[::-1], a[::-1]), (x.T, a.T), (x[3:30:4, ::-3], a[3:30:4, ::-3]),
                 (x[:, 7], a[:, 7])]:
        for axis in (None, 0, -1):
            if axis == -1 and v.ndim == 1:
                continue
            assert_same(nt.sum(v, axis=axis), np.sum(w, axis=axis), 1e-12)
            assert_same(nt.argmin(v, axis=axis), np.argmin(w, axis=axis))
            assert_same(v.max(axis=axis), w.max(axis=axis))


def test_large_sums_match():
    a = make(np.float32, (300, 200))
    x = nt.asarray(a)
    scale = float(np.abs(a).sum())
    assert_same(x.sum(), a.sum(), 1e-5, 1e-6 * scale)
    assert_same(x.sum(axis=0), a.sum(axis=0), 1e-5, 1e-6 * float(np.abs(a).sum(0).max()))
    b = make(np.int64, (100000,), lo=-1000, hi=1000)
    assert_same(nt.asarray(b).sum(), b.sum())


def test_empty_reduced_axis_of_broadcast_view():
    # a reduced axis of length 0 whose stride is 0 (an empty slice of a
    # broadcast) took the per-line path, which divided by the line length:
    # SIGFPE (fuzz campaign 8, seeds 1510017924 and 1540006818)
    import warnings
    for base, shape in [(np.arange(4.0), (2, 4)), (np.ones((4, 3)), (2, 4, 3)),
                        (np.arange(4, dtype=np.int32), (3, 4))]:
        a = np.broadcast_to(base, shape)[2::2]
        x = nt.broadcast_to(nt.asarray(base), shape)[2::2]
        for f in ('sum', 'prod', 'nansum', 'nanprod', 'mean'):
            for ax in list(range(a.ndim)) + [None]:
                with warnings.catch_warnings():
                    warnings.simplefilter('ignore')
                    want = getattr(np, f)(a, axis=ax)
                    got = getattr(nt, f)(x, axis=ax)
                assert_same(got, want)


def _check_arg_axes(shapes):
    for dt in [np.float64, np.float32, np.int64, np.int16, np.uint8, np.bool_, np.complex128]:
        for shape in shapes:
            a = make(dt, shape, seed=8, lo=-3, hi=3)   # few values: ties
            if np.dtype(dt).kind in 'fc':
                a.flat[::997] = np.nan
            x = nt.asarray(a)
            for axis in range(-len(shape), len(shape)):
                for name in ('argmin', 'argmax'):
                    assert_same(getattr(nt, name)(x, axis=axis), getattr(np, name)(a, axis=axis))
                    assert_same(getattr(x[::-1], name)(axis=axis), getattr(a[::-1], name)(axis=axis))


def test_arg_along_an_axis_whole_or_split_blocks():
    # 4096-byte tiles: blocks of (1000, 16) rows hold whole rows (the index
    # partials are the result), those of (6, 1500) split them
    _check_arg_axes([(1000, 16), (6, 1500), (30, 7, 40)])


@pytest.mark.default_settings
def test_arg_along_an_axis_default_tiles():
    _check_arg_axes([(200000, 16), (3, 400000)])   # several 2 MiB tiles
