"""Regression tests for bug classes the differential fuzzer found
(tests/fuzz/known_open.py, corpus fixed_*.py), each compared with NumPy:
dtypes, 0-d, empty and strided inputs, and arrays over a tile at the
default settings where the path depends on size."""
import warnings

import numpy as np
import pytest

import ndtile as nt
from _helpers import assert_same, check_same_error, make, raises_same, tol_for


def _both(fn_nt, fn_np, rtol=0):
    """fn on both; the same error, or the same result and warnings."""
    with warnings.catch_warnings(record=True) as wn:
        warnings.simplefilter('always')
        raised, exp = check_same_error(fn_nt, fn_np)
    if raised:
        return
    with warnings.catch_warnings(record=True) as wt:
        warnings.simplefilter('always')
        got = fn_nt()
    assert_same(got, exp, rtol=rtol)
    assert sorted(w.category.__name__ for w in wt) == sorted(w.category.__name__ for w in wn)
    return got


# nan functions of complex input with a real dtype=: NumPy masks the complex
# NaNs (inf+nanj among them) before the cast

def _complex_nans(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    a = (rng.integers(-5, 5, shape) + 1j * rng.integers(-5, 5, shape)).astype(dtype)
    flat = a.reshape(-1)
    specials = [complex(np.inf, np.nan), complex(np.nan, 1), complex(np.nan, np.inf),
                complex(-np.inf, np.nan)]
    for i in range(0, flat.size, 3):
        flat[i] = specials[i % 4]
    return a


@pytest.mark.parametrize('name', ['nansum', 'nanprod', 'nanmean', 'nanvar', 'nanstd',
                                  'nancumsum', 'nancumprod'])
@pytest.mark.parametrize('cdt', ['complex64', 'complex128'])
@pytest.mark.parametrize('dt', ['float64', 'float32', 'int64', 'complex128'])
@pytest.mark.parametrize('shape', [(), (0,), (4,), (3, 4), (2, 0, 3)])
def test_nan_functions_complex_real_dtype(name, cdt, dt, shape):
    a = _complex_nans(shape, cdt)
    kws = [{}] if name.startswith('nancum') or len(shape) < 2 else [{}, {'axis': 0},
                                                                     {'axis': -1}]
    for kw in kws:
        for x_np in (a, a[::-1] if a.ndim else a):
            x_nt = nt.asarray(x_np.copy())
            _both(lambda: getattr(nt, name)(x_nt, dtype=dt, **kw),
                  lambda: getattr(np, name)(x_np, dtype=dt, **kw),
                  rtol=max(tol_for(dt, 'sum'), tol_for(cdt, 'sum')))


def test_nanmean_complex_real_dtype_scalar_and_warning():
    with pytest.warns(np.exceptions.ComplexWarning):
        r = nt.nanmean(nt.asarray([complex(np.inf, np.nan), 1 + 2j]), dtype='float64')
    assert r == 1.0 and type(r) is np.float64


@pytest.mark.default_settings
@pytest.mark.parametrize('name', ['nansum', 'nanmean', 'nanprod'])
def test_nan_functions_complex_real_dtype_big(name):
    a = _complex_nans((300, 1000), 'complex128', 3)          # 4.8 MB
    if name == 'nanprod':
        a = np.where(np.isnan(a), a, 1 + 0j)
    x = nt.asarray(a)
    for kw in ({}, {'axis': 0}, {'axis': 1}):
        _both(lambda: getattr(nt, name)(x[:, ::2], dtype='float64', **kw),
              lambda: getattr(np, name)(a[:, ::2], dtype='float64', **kw), rtol=1e-12)


# order statistics of a 0-d array with keepdims=True: NumPy's r[..., newaxis*]
# is a 0-d array, not a scalar

_ORDER = ['median', 'nanmedian', 'percentile', 'nanpercentile', 'quantile', 'nanquantile']


def _order_call(m, name, x, **kw):
    if 'median' in name:
        return getattr(m, name)(x, **kw)
    q = 30 if 'percentile' in name else 0.3
    return getattr(m, name)(x, q, **kw)


@pytest.mark.parametrize('name', _ORDER)
@pytest.mark.parametrize('dt', ['uint16', 'int64', 'bool', 'float32', 'float64'])
@pytest.mark.parametrize('value', [3, np.nan])
@pytest.mark.parametrize('kw', [{'keepdims': True}, {'keepdims': True, 'axis': None},
                                {'keepdims': True, 'axis': ()}, {'keepdims': False},
                                {'axis': ()}, {'keepdims': True, 'axis': 0}])
def test_order_statistics_keepdims_of_0d(name, dt, value, kw):
    if value != value and np.dtype(dt).kind != 'f':
        return
    a = np.asarray(value, dtype=dt)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', RuntimeWarning)
        _both(lambda: _order_call(nt, name, nt.asarray(a), **kw),
              lambda: _order_call(np, name, a, **kw))


@pytest.mark.parametrize('name', _ORDER)
def test_order_statistics_keepdims_of_0d_writable(name):
    r = _order_call(nt, name, nt.asarray(np.float64(2.0)), keepdims=True)
    e = _order_call(np, name, np.asarray(np.float64(2.0)), keepdims=True)
    r[()] = 7
    e[()] = 7
    assert_same(r, e)


# nanmedian of no elements is NumPy's nanmean (median itself raises for some
# empty transposed inputs over a tuple of axes)

@pytest.mark.parametrize('dt', ['int64', 'uint16', 'bool', 'float32'])
@pytest.mark.parametrize('shape', [(2, 0, 3), (3, 0, 1), (0,), (2, 0)])
@pytest.mark.parametrize('axis', [None, 0, (0, 1), (-1, 0), (0, 2), 5])
@pytest.mark.parametrize('keepdims', [False, True])
def test_nanmedian_of_empty_transposed(dt, shape, axis, keepdims):
    a = np.zeros(shape, dt).T
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', RuntimeWarning)
        _both(lambda: nt.nanmedian(nt.asarray(np.zeros(shape, dt)).T, axis=axis,
                                   keepdims=keepdims),
              lambda: np.nanmedian(a, axis=axis, keepdims=keepdims))


# percentile/quantile of bool with an out-of-range axis: NumPy's AxisError
# before the bool subtract's TypeError

@pytest.mark.parametrize('name', ['percentile', 'nanpercentile', 'quantile', 'nanquantile'])
@pytest.mark.parametrize('shape', [(), (4,), (2, 3)])
@pytest.mark.parametrize('axis', [2, -3, (0, 5), 0])
def test_percentile_of_bool_axis_first(name, shape, axis):
    a = (np.arange(int(np.prod(shape))) % 2 == 0).reshape(shape)
    x = nt.asarray(a)
    raised, _ = check_same_error(lambda: _order_call(nt, name, x, axis=axis, method='weibull'),
                                 lambda: _order_call(np, name, a, axis=axis, method='weibull'))
    assert raised
    try:
        _order_call(np, name, a, axis=axis)
    except Exception as e:
        with pytest.raises(type(e)):
            _order_call(nt, name, x, axis=axis)


# the layout of percentile/quantile results: NumPy's is a new C-contiguous
# array, the nan forms' along an axis a view of a (kept dims, q dims) buffer,
# so that a later reshape is a view or a copy as NumPy's

def _layout(a):
    return (tuple(s for s, n in zip(a.strides, a.shape) if n != 1), a.flags.c_contiguous,
            a.flags.f_contiguous)


@pytest.mark.parametrize('name', ['percentile', 'nanpercentile', 'quantile', 'nanquantile'])
@pytest.mark.parametrize('dt', ['float64', 'int32'])
@pytest.mark.parametrize('shape', [(7,), (6, 6), (4, 5, 3)])
@pytest.mark.parametrize('q', [[0, 33, 100], [[10, 20], [30, 40]], [50], 50])
def test_percentile_result_layout(name, dt, shape, q):
    a = np.linspace(3, 16, int(np.prod(shape))).reshape(shape).astype(dt)
    if dt == 'float64' and len(shape) > 1:
        a[0, 0] = np.nan
    qq = q if 'percentile' in name else np.divide(q, 100)
    axes = [None, 0, -1] + ([1, (0, 1)] if len(shape) > 1 else [])
    for axis in axes:
        if np.ndim(q) == 2 and isinstance(axis, tuple) and len(shape) > 2:
            continue        # (NumPy's nan forms move the wrong axes here; see the report)
        for keepdims in (False, True):
            with warnings.catch_warnings():
                warnings.simplefilter('ignore', RuntimeWarning)
                e = getattr(np, name)(a[::-1], qq, axis=axis, keepdims=keepdims)
                r = getattr(nt, name)(nt.asarray(a)[::-1], qq, axis=axis, keepdims=keepdims)
            assert_same(r, e, rtol=1e-12)
            if np.ndim(e):
                assert _layout(r) == _layout(e)
                # a reshape to the flat shape: a view where NumPy's is one
                rf, ef = r.reshape(-1), e.reshape(-1)
                assert np.shares_memory(ef, e) == nt.shares_memory(rf, r)


@pytest.mark.default_settings
def test_percentile_result_layout_big():
    a = np.random.default_rng(5).random((600, 700))             # 3.4 MB
    x = nt.asarray(a)
    for name in ('percentile', 'nanpercentile'):
        e = getattr(np, name)(a[::-1], [0, 33, 100], axis=-2)
        r = getattr(nt, name)(x[::-1], [0, 33, 100], axis=-2)
        assert_same(r, e)
        assert _layout(r) == _layout(e)
        r6, e6 = r.reshape((700, 3)), e.reshape((700, 3))
        np.put(e6, [6, -5], 1, mode='clip')
        nt.put(r6, [6, -5], 1, mode='clip')
        assert_same(r, e)


# take/compress from empty arrays: NumPy raises "non-empty take from an
# empty axes" only for a result with elements, and checks the indices only
# where the axes before `axis` have elements

def _same_outcome(fn_nt, fn_np, message=True):
    try:
        e = fn_np()
    except Exception as exc:
        with pytest.raises(type(exc)) as info:
            fn_nt()
        assert str(info.value) == str(exc) or not message
        return
    assert_same(fn_nt(), e)


@pytest.mark.parametrize('shape', [(0, 0), (0, 3), (3, 0), (2, 0, 3), (0, 2, 3), (2, 3, 0),
                                   (0,), (3,)])
@pytest.mark.parametrize('axis', [None, 0, 1, -1])
@pytest.mark.parametrize('ind', [[2], [], [0], [-1], [5, 0], 1])
@pytest.mark.parametrize('mode', ['raise', 'clip', 'wrap'])
def test_take_from_empty(shape, axis, ind, mode):
    if mode == 'wrap' and 0 in shape:
        return          # (NumPy's wrap by an empty axis loops forever)
    a = np.arange(int(np.prod(shape)), dtype='int16').reshape(shape)
    _same_outcome(lambda: nt.take(nt.asarray(a), ind, axis=axis, mode=mode),
                  lambda: np.take(a, ind, axis=axis, mode=mode))


@pytest.mark.parametrize('shape', [(0, 0), (0, 2), (3, 0), (2, 0, 3), (0, 2, 3), (3,), (2, 2)])
@pytest.mark.parametrize('axis', [None, 0, 1, -1])
@pytest.mark.parametrize('cond', [[1, 0, 1], [0, 0, 1], [], [True], [0]])
def test_compress_from_empty(shape, axis, cond):
    a = np.arange(int(np.prod(shape)), dtype='float32').reshape(shape)
    _same_outcome(lambda: nt.compress(cond, nt.asarray(a), axis=axis),
                  lambda: np.compress(cond, a, axis=axis))
    # strided
    if a.ndim == 2:
        _same_outcome(lambda: nt.compress(cond, nt.asarray(a).T, axis=axis),
                      lambda: np.compress(cond, a.T, axis=axis))


# ufunc.accumulate of a 0-d array or a scalar: NumPy's TypeError

@pytest.mark.parametrize('ufunc', ['add', 'multiply', 'maximum', 'subtract'])
@pytest.mark.parametrize('dt', ['int16', 'float64', 'bool'])
def test_accumulate_of_0d(ufunc, dt):
    a = np.asarray(3, dtype=dt)
    for x_np, x_nt in ((a, nt.asarray(a)), (a[()], a[()]), (5, 5)):
        with pytest.raises(TypeError, match="cannot accumulate on a scalar"):
            getattr(np, ufunc).accumulate(x_np)
        with pytest.raises(TypeError, match="cannot accumulate on a scalar"):
            getattr(nt, ufunc).accumulate(x_nt)
    # 1-d and empty still accumulate
    for b in (np.arange(4).astype(dt), np.zeros(0, dt)):
        _both(lambda: getattr(nt, ufunc).accumulate(nt.asarray(b)),
              lambda: getattr(np, ufunc).accumulate(b))


# divmod with a Python int out of the other operand's range: NumPy's
# OverflowError (as floor_divide's and remainder's)

@pytest.mark.parametrize('dt, value', [('uint8', -2), ('uint8', 300), ('int8', 255),
                                       ('int8', -3), ('uint16', 7), ('uint64', 2**63),
                                       ('float32', 2**70), ('int64', -2**63)])
@pytest.mark.parametrize('shape', [(), (0,), (5,), (3, 4)])
def test_divmod_python_int_range(dt, value, shape):
    a = (np.arange(int(np.prod(shape))) % 7 + 1).astype(dt).reshape(shape)
    for x_np, x_nt in ((a, nt.asarray(a)), (a.T, nt.asarray(a).T)):
        for args in ((x_np, value), (value, x_np)):
            nargs = tuple(x_nt if v is x_np else v for v in args)
            with warnings.catch_warnings():
                warnings.simplefilter('ignore', RuntimeWarning)
                # (a ufunc's 0-d result: docs/guide/deviations.md)
                _both(lambda: nt.divmod(*nargs), lambda: np.divmod(*args))


# select with Python scalar choices or default: the common dtype of weak
# scalars, but the values converted as np.asarray does (2**63 uint64, -2
# int64), the default cast unsafely (np.full), each choice same_kind
# (np.copyto)

@pytest.mark.parametrize('dt', ['int64', 'uint64', 'uint8', 'float32', 'bool', 'int16'])
@pytest.mark.parametrize('scalar', [2**63, -2, -1, 7, 2.5, 300, True])
@pytest.mark.parametrize('default', [0, -2, False, 2**63, 1.5])
@pytest.mark.parametrize('shape', [(4,), (), (0,), (2, 3)])
def test_select_python_scalars(dt, scalar, default, shape):
    a = (np.arange(int(np.prod(shape))) % 3).astype(dt).reshape(shape)
    x = nt.asarray(a)
    for first in (True, False):
        def choices(arr):
            return [arr, scalar] if first else [scalar, arr]

        def conds(m, arr):
            return [arr > 0, arr == 0] if first else [arr > 0, m.asarray(True)]
        try:
            e = np.select(conds(np, a), choices(a), default=default)
        except Exception as exc:
            with pytest.raises(type(exc)):
                nt.select(conds(nt, x), choices(x), default=default)
            continue
        assert_same(nt.select(conds(nt, x), choices(x), default=default), e)
        if a.ndim == 2:
            assert_same(nt.select([c.T for c in conds(nt, x)], choices(x.T), default=default),
                        np.select([c.T for c in conds(np, a)], choices(a.T), default=default))


# np.put checks in NumPy's order: read-only target, the indices, an empty
# target, the values, then the indices' bounds

@pytest.mark.parametrize('shape', [(0,), (3,), (2, 2), ()])
@pytest.mark.parametrize('readonly', [False, True])
@pytest.mark.parametrize('ind', [[], [1], [9], [-9], [0, 1]])
@pytest.mark.parametrize('v', [[], 5, 2**70, [1.5, 2], 'x', -1])
@pytest.mark.parametrize('dt', ['uint8', 'float32'])
def test_put_check_order(shape, readonly, ind, v, dt):
    a, x = np.zeros(shape, dt), nt.zeros(shape, dt)
    a.flags.writeable = x.flags.writeable = not readonly
    probe = a.copy()
    probe.flags.writeable = not readonly
    try:
        np.put(probe, ind, v)
    except Exception:
        _same_outcome(lambda: nt.put(x, ind, v), lambda: np.put(a, ind, v))
        assert_same(x, a)       # (what NumPy wrote before its error too)
        return
    nt.put(x, ind, v)
    np.put(a, ind, v)
    assert_same(x, a)


# put_along_axis and place into read-only arrays: NumPy's read-only error
# first (place whatever the mask), then put_along_axis converts the values
# before it looks at the indices' bounds

@pytest.mark.parametrize('shape, ind', [((0,), [0]), ((3,), [9]), ((3,), [1]), ((3,), []),
                                        ((2, 3), [[0, 9, 1]]), ((2, 3), [[-1], [0]]),
                                        ((2, 0), [[], []])])
@pytest.mark.parametrize('readonly', [False, True])
@pytest.mark.parametrize('v', [5, 2**70, -1])
@pytest.mark.parametrize('axis', [0, -1, None])
@pytest.mark.parametrize('dt', ['uint8', 'float32'])
def test_put_along_axis_check_order(shape, ind, readonly, v, axis, dt):
    i = np.asarray(ind, dtype=np.intp)
    if axis is None:
        i = i.ravel()
    a, x = np.zeros(shape, dt), nt.zeros(shape, dt)
    a.flags.writeable = x.flags.writeable = not readonly
    _same_outcome(lambda: nt.put_along_axis(x, nt.asarray(i), v, axis=axis),
                  lambda: np.put_along_axis(a, i, v, axis=axis))
    assert_same(x, a)


@pytest.mark.parametrize('shape', [(0,), (3,), (2, 3)])
@pytest.mark.parametrize('readonly', [False, True])
@pytest.mark.parametrize('which', ['none', 'all', 'some'])
@pytest.mark.parametrize('v', [[], [5], [1.5, 2]])
def test_place_check_order(shape, readonly, which, v):
    n = int(np.prod(shape))
    mask = {'none': np.zeros(n, bool), 'all': np.ones(n, bool),
            'some': np.arange(n) % 2 == 0}[which].reshape(shape)
    a, x = np.zeros(shape, 'uint8'), nt.zeros(shape, 'uint8')
    a.flags.writeable = x.flags.writeable = not readonly
    _same_outcome(lambda: nt.place(x, mask, v), lambda: np.place(a, mask, v))
    assert_same(x, a)


# choose(mode='raise') checks the indices of the broadcast result only (none
# when a choice is empty), after the broadcast's and out='s errors

@pytest.mark.parametrize('idx', [[0, 5], [[-1], [1]], [1], [], 3, 0])
@pytest.mark.parametrize('chshape', [(0,), (2,), (3, 2), (0, 2), (3,)])
@pytest.mark.parametrize('dt', ['int16', 'float64'])
@pytest.mark.parametrize('with_out', [False, True])
def test_choose_checks_broadcast(idx, chshape, dt, with_out):
    c = [np.full(chshape, k, dt) for k in range(2)]
    i = np.asarray(idx)
    try:
        oshape = np.broadcast_shapes(i.shape, chshape)
    except ValueError:
        oshape = (7,)
    outs = (np.zeros(oshape, dt), nt.zeros(oshape, dt)) if with_out else (None, None)
    _same_outcome(lambda: nt.choose(nt.asarray(i), [nt.asarray(v) for v in c], out=outs[1]),
                  lambda: np.choose(i, c, out=outs[0]), message=False)
    if with_out:
        assert_same(outs[1], outs[0])


# put(mode='raise') stops at the first index out of bounds, as NumPy's loop
# does: the values before it are written (0-d targets too), the error names
# that index; take's error names the first bad index in order

@pytest.mark.parametrize('dt', ['bool', 'int8', 'uint64', 'float32', 'complex128'])
@pytest.mark.parametrize('shape, ind, v', [
    ((), [0, 3], [7, 8]), ((), [0, 0, 5], [1, 2, 3]), ((), [3, 0], [7, 8]),
    ((), [0, 1], 9), ((), [-1, -2], [1, 0]),
    ((3,), [0, 1, 5], [1, 0, 1]), ((3,), [0, 1, -5], [1, 0]), ((2, 3), [1, 7, 2], [1]),
    ((3,), [2, 2, 9, 0], [0, 1]), ((2, 3), [-6, 5, 6, -7], [1, 0, 1])])
def test_put_writes_up_to_the_first_bad_index(dt, shape, ind, v):
    a, x = np.zeros(shape, dt), nt.zeros(shape, dt)
    _same_outcome(lambda: nt.put(x, ind, v), lambda: np.put(a, ind, v))
    assert_same(x, a)
    # a strided view, and the method
    a, x = np.zeros((2,) + shape, dt)[::-1][0], nt.zeros((2,) + shape, dt)[::-1][0]
    _same_outcome(lambda: x.put(ind, v), lambda: a.put(ind, v))
    assert_same(x, a)


@pytest.mark.default_settings
def test_put_first_bad_index_large():
    n = 600_000                                 # 4.8 MB of float64: several tiles
    a, x = np.zeros(n), nt.zeros(n)
    ind = np.arange(0, 3 * n, 3) % (n + 5)      # out of bounds from about n / 3 on
    ind[-1] = -n - 1
    v = np.arange(7.0)
    _same_outcome(lambda: nt.put(x, nt.asarray(ind), v), lambda: np.put(a, ind, v))
    assert_same(x, a)
    _same_outcome(lambda: nt.take(nt.asarray(a), nt.asarray(ind[::-1])),
                  lambda: np.take(a, ind[::-1]))


# take_along_axis / put_along_axis whose indices do not broadcast against the
# array's other axes: NumPy's fancy-index IndexError (every index array's
# shape named); put_along_axis's values that do not broadcast: its ValueError,
# after the read-only check and the values' conversion

@pytest.mark.parametrize('shape, ishape, axis', [
    ((3, 4), (2, 4), 1), ((3, 4), (2, 4), 0), ((3, 4), (3, 2), 1), ((2, 3, 4), (3, 1, 4), 1),
    ((2, 3, 4), (3, 1, 4), -1), ((2, 0), (3, 1), 1), ((0, 3), (2, 3), 1), ((3,), (5,), 0)])
@pytest.mark.parametrize('dt', ['int16', 'float64', 'complex64'])
def test_along_axis_indices_that_do_not_broadcast(shape, ishape, axis, dt):
    a = np.arange(int(np.prod(shape))).astype(dt).reshape(shape)
    i = np.zeros(ishape, np.intp)
    _same_outcome(lambda: nt.take_along_axis(nt.asarray(a), nt.asarray(i), axis),
                  lambda: np.take_along_axis(a, i, axis))
    _same_outcome(lambda: nt.take_along_axis(nt.asarray(a), nt.asarray(i + 9), axis),
                  lambda: np.take_along_axis(a, i + 9, axis))
    for v in (1, np.ones(4, dt), np.ones((1, 1) + ishape, dt), 'x'):
        b, x = a.copy(), nt.asarray(a)
        _same_outcome(lambda: nt.put_along_axis(x, nt.asarray(i), v, axis),
                      lambda: np.put_along_axis(b, i, v, axis))
        assert_same(x, b)
    ro = np.broadcast_to(a, (2,) + shape)[1]
    _same_outcome(lambda: nt.put_along_axis(nt.broadcast_to(nt.asarray(a), (2,) + shape)[1],
                                            nt.asarray(i), 1, axis),
                  lambda: np.put_along_axis(ro, i, 1, axis))


# copyto(dst, src, where=w): NumPy converts an array mask by the 'safe' rule
# (before dst's read-only check), then checks the value's shape and the
# mask's (no leading length-1 axes stripped), with its own messages; a
# zero-strided dst of broadcast_to is read-only, one of as_strided is not

@pytest.mark.parametrize('dshape, sshape, wshape', [
    ((4, 0), (), (2, 0)), ((4, 0), (3, 0), (2, 0)), ((4, 0), (), (1, 0)), ((4, 0), (2, 0), (1, 0)),
    ((4,), (), (1, 1, 4)), ((4,), (), (2, 1, 4)), ((2, 4), (1, 1, 4), (3,)), ((2, 4), (4,), (2, 1)),
    ((), (), (1,)), ((), (1, 1), ())])
@pytest.mark.parametrize('wdt', ['bool', 'float64', 'uint8', 'list'])
@pytest.mark.parametrize('kind', ['plain', 'broadcast_to', 'as_strided'])
def test_copyto_where_shapes(dshape, sshape, wshape, wdt, kind):
    def run(m, stride_tricks):
        if kind == 'plain':
            d = m.zeros(dshape)
        elif kind == 'broadcast_to':
            d = m.broadcast_to(m.zeros(dshape[-1:]), dshape)
        else:
            d = stride_tricks.as_strided(m.zeros(1), dshape, (0,) * len(dshape))
        w = np.arange(int(np.prod(wshape))).reshape(wshape) % 2 == 0
        w = w.tolist() if wdt == 'list' else m.asarray(w.astype(wdt))
        m.copyto(d, m.full(sshape, 3.0), where=w)
        return d
    _same_outcome(lambda: run(nt, nt.lib.stride_tricks),
                  lambda: run(np, np.lib.stride_tricks).copy())


@pytest.mark.parametrize('view', ['swapaxes', 'slice', 'readonly'])
@pytest.mark.parametrize('shape, wshape', [((1, 1, 1, 0), (6, 2, 1, 0)), ((3, 4), (5, 4)),
                                           ((2, 700), (3, 1))])
def test_copyto_onto_its_own_view_is_skipped_before_any_check(view, shape, wshape):
    # copyto(dst, src) where src is another handle on dst's very view (same
    # data, dtype, shape, strides) copies nothing and checks neither the
    # mask's shape nor dst's writeability, as NumPy's; a view that differs
    # in its strides or offset still gets the checks (found by the fuzzer:
    # copyto(swapaxes(a8, 3, -1), a8, where=mask of shape (6, 2, 1, 0)))
    def run(m):
        a = m.asarray(np.arange(int(np.prod(shape)), dtype='float64').reshape(shape))
        if view == 'swapaxes':
            d, s = m.swapaxes(a, -1, a.ndim - 1), a
        elif view == 'slice':
            d, s = a[...], a[:]
        else:
            d, s = a[:], a[:]
            d.flags.writeable = False
        m.copyto(d, s, where=m.asarray(np.ones(wshape, bool)))
        m.copyto(d, s)
        if view != 'readonly':
            m.copyto(d, s[::-1], where=m.asarray(np.ones(shape[-1:], bool)))
        return a
    _same_outcome(lambda: run(nt), lambda: run(np))
    if 0 in shape:
        return      # (an empty view's strides: deviations.md 17)
    # another view of the same data is checked
    a_np = np.zeros(shape)
    a_nt = nt.asarray(a_np)
    _same_outcome(lambda: nt.copyto(a_nt[..., ::-1], a_nt, where=nt.asarray(np.ones(wshape, bool))),
                  lambda: np.copyto(a_np[..., ::-1], a_np, where=np.ones(wshape, bool)))


# ---- found by the API steps (Gen.api, session 26)

def _views(a):
    out = [a]
    if a.ndim:
        out += [a[::-1], a[..., ::2], a[1:]]
    if a.ndim > 1:
        out.append(a.T)
    return out


@pytest.mark.parametrize('dt', ['bool', 'int8', 'uint16', 'int64', 'float32', 'complex128'])
@pytest.mark.parametrize('shape', [(), (0,), (5,), (3, 4), (2, 1, 3)])
def test_asarray_of_flat_as_numpy(dt, shape):
    # np.asarray(a.flat): a 1-d view of a C-contiguous a (writes reach a,
    # a read-only a gives a read-only view), else a read-only copy
    base = make(dt, shape, seed=3)
    for ro in (False, True):
        a_np = base.copy()
        a_nt = nt.asarray(a_np.copy())
        a_np.flags.writeable = not ro
        a_nt.flags.writeable = not ro
        for v_np, v_nt in zip(_views(a_np), _views(a_nt)):
            r_np, r_nt = np.asarray(v_np.flat), nt.asarray(v_nt.flat)
            assert_same(r_nt, r_np)
            assert r_nt.flags.writeable == r_np.flags.writeable
            assert np.shares_memory(r_np, a_np) == nt.shares_memory(r_nt, a_nt)
            if r_np.flags.writeable and r_np.size:
                r_np[0] = r_np[-1]
                r_nt[0] = r_nt[-1]
                assert_same(a_nt, a_np)
            elif r_np.size:
                check_same_error(lambda: r_nt.__setitem__(0, 1), lambda: r_np.__setitem__(0, 1))


@pytest.mark.default_settings
def test_asarray_of_flat_big():
    a_np = np.arange(700_000, dtype=np.float64).reshape(700, 1000)
    a_nt = nt.asarray(a_np)
    r_np, r_nt = np.asarray(a_np.flat), nt.asarray(a_nt.flat)
    r_np[::7] = -1.0
    r_nt[::7] = -1.0
    assert_same(a_nt, a_np)
    t_np, t_nt = np.asarray(a_np.T.flat), nt.asarray(a_nt.T.flat)
    assert not t_nt.flags.writeable and not t_np.flags.writeable
    assert_same(t_nt, t_np)


@pytest.mark.parametrize('dt', ['int8', 'uint8', 'int32', 'float32', 'bool', 'complex64'])
@pytest.mark.parametrize('value', [np.inf, np.nan, 300, -1, 1.5, 'x', 2 + 1j, [1, 2]])
@pytest.mark.parametrize('how', ['flag', 'broadcast_to'])
def test_fill_read_only_first(dt, value, how):
    # NumPy's fill checks the destination before it converts the value
    for shape in [(), (0,), (3,), (2, 3)]:
        a_np = make(dt, shape)
        a_nt = nt.asarray(a_np.copy())
        if how == 'flag':
            a_np.flags.writeable = False
            a_nt.flags.writeable = False
        else:
            a_np = np.broadcast_to(a_np, (2,) + shape)
            a_nt = nt.broadcast_to(a_nt, (2,) + shape)
        raises_same(lambda: a_nt.fill(value), lambda: a_np.fill(value))


@pytest.mark.parametrize('dt', ['int8', 'uint8', 'int64', 'float64', 'bool', 'complex128'])
@pytest.mark.parametrize('key', [True, False, np.array(True), np.array(False)])
@pytest.mark.parametrize('value', [7, [5], [0, 0], [], np.array([5]), np.array(5), 2.5, 300,
                                   'x', 1 + 2j, None])
def test_flat_setitem_0d_boolean_index(dt, key, value):
    # NumPy 2.4: a True 0-d boolean index writes element 0, packing the
    # value itself (its own errors); a False one writes nothing
    for shape in [(5,), (2, 3)]:
        a_np = make(dt, shape)
        a_nt = nt.asarray(a_np.copy())
        for v_np, v_nt in ((a_np, a_nt), (a_np.T, a_nt.T)):
            with warnings.catch_warnings():
                warnings.simplefilter('ignore', DeprecationWarning)
                warnings.simplefilter('ignore', np.exceptions.ComplexWarning)
                raised, _ = check_same_error(lambda: v_nt.flat.__setitem__(key, value),
                                             lambda: v_np.flat.__setitem__(key, value))
                if not raised:
                    v_nt.flat[key] = value
            assert_same(a_nt, a_np)


@pytest.mark.parametrize('dt', ['bool', 'int8', 'uint32', 'float32', 'complex64'])
@pytest.mark.parametrize('shape', [(), (0,), (1,), (4,), (2, 3)])
@pytest.mark.parametrize('kw', [{}, {'to_end': [7]}, {'to_begin': 0, 'to_end': [1, 2]}])
def test_ediff1d_is_a_subtraction(dt, shape, kw):
    # NumPy's ary[1:] - ary[:-1]: booleans raise TypeError (diff would
    # take them as not_equal)
    a_np = make(dt, shape)
    a_nt = nt.asarray(a_np)
    for v_np, v_nt in zip(_views(a_np), _views(a_nt)):
        _both(lambda: nt.ediff1d(v_nt, **kw), lambda: np.ediff1d(v_np, **kw))


@pytest.mark.parametrize('dt', ['int32', 'float64', 'uint16'])
@pytest.mark.parametrize('edge_order', [1, 2])
def test_gradient_one_coordinate(dt, edge_order):
    # a coordinate array of one element: NumPy's diffx[0] raises IndexError
    # before the too-small check's ValueError
    for shape, axis in [((1,), None), ((1, 4), 0), ((3, 1), 1)]:
        a_np = make(dt, shape)
        a_nt = nt.asarray(a_np)
        kw = {} if axis is None else {'axis': axis}
        raises_same(lambda: nt.gradient(a_nt, nt.asarray([2.0]), edge_order=edge_order, **kw),
                    lambda: np.gradient(a_np, np.asarray([2.0]), edge_order=edge_order, **kw))


@pytest.mark.parametrize('dt', ['complex64', 'complex128'])
@pytest.mark.parametrize('decimals', [-2, -1, 0, 1, 2, 3])
@pytest.mark.parametrize('shape', [(), (0,), (7,), (3, 5)])
def test_round_complex_by_parts(dt, decimals, shape):
    # NumPy rounds the real and imaginary parts each as a float array
    # (complex64's in float32: 1.8, not 1.8000001)
    rng = np.random.default_rng(decimals + 7)
    a_np = ((rng.standard_normal(shape) + 1j * rng.standard_normal(shape)) *
            rng.choice([1, 10, 1000], shape)).astype(dt)
    a_nt = nt.asarray(a_np)
    for v_np, v_nt in zip(_views(a_np), _views(a_nt)):
        _both(lambda: nt.round(v_nt, decimals), lambda: np.round(v_np, decimals))
        _both(lambda: v_nt.round(decimals), lambda: v_np.round(decimals))
        o_np, o_nt = np.zeros(v_np.shape, dt), nt.zeros(v_np.shape, dt)
        np.round(v_np, decimals, out=o_np)
        nt.round(v_nt, decimals, out=o_nt)
        assert_same(o_nt, o_np)


@pytest.mark.default_settings
def test_round_complex_big():
    rng = np.random.default_rng(5)
    a_np = (rng.standard_normal(300_000) * 100 + 1j * rng.standard_normal(300_000)
            ).astype(np.complex64)
    a_nt = nt.asarray(a_np)
    assert_same(nt.round(a_nt, 1), np.round(a_np, 1))
    assert_same(nt.round(a_nt[::-3], -1), np.round(a_np[::-3], -1))


@pytest.mark.parametrize('ashape,bshape,oshape', [
    ((2, 3), (3,), (2,)), ((2, 3), (4,), (2,)), ((2, 3), (3, 4), (5, 4)),
    ((2, 3, 5), (1, 1), (2, 3, 1)), ((1, 1), (3,), (2, 1)), ((), (3,), (3,))])
@pytest.mark.parametrize('adt,odt', [('float64', 'int64'), ('complex64', 'float32'),
                                     ('uint64', 'int8'), ('float32', 'bool')])
def test_matmul_out_cast_before_shapes(ashape, bshape, oshape, adt, odt):
    # NumPy resolves the loop and checks the output's cast (TypeError)
    # before any dimension (ValueError)
    a_np, b_np = make(adt, ashape), make('int16', bshape)
    o_np = np.zeros(oshape, odt)
    a_nt, b_nt, o_nt = nt.asarray(a_np), nt.asarray(b_np), nt.zeros(oshape, odt)
    raises_same(lambda: nt.matmul(a_nt, b_nt, out=o_nt), lambda: np.matmul(a_np, b_np, out=o_np))
    with pytest.raises(TypeError):
        nt.matmul(a_nt, b_nt, out=o_nt)


@pytest.mark.parametrize('dt', ['int8', 'float64', 'complex64'])
def test_flat_setitem_boolean_mask(dt):
    # (a mask of the array's size beside the 0-d boolean path above)
    for shape in [(6,), (2, 3)]:
        a_np = make(dt, shape)
        a_nt = nt.asarray(a_np.copy())
        for v_np, v_nt in ((a_np, a_nt), (a_np.T, a_nt.T), (a_np[::-1], a_nt[::-1])):
            m = (np.arange(v_np.size) % 3 == 0)
            v_np.flat[m] = 1
            v_nt.flat[nt.asarray(m)] = 1
            assert_same(a_nt, a_np)
            v_np.flat[m] = [2, 3]
            v_nt.flat[m] = [2, 3]
            assert_same(a_nt, a_np)


@pytest.mark.parametrize('shape,mshape', [((2, 2), (2, 2)), ((1, 1), (1, 1)), ((2, 3), (1, 3)),
                                          ((1, 1, 1, 1, 1), (1, 1, 1, 1, 1)), ((0, 2), (0, 2))])
@pytest.mark.parametrize('value', [[], 5, [1.5, 2.5], 'get'])
def test_flat_of_an_nd_boolean_mask_is_too_many_indices(shape, mshape, value):
    # NumPy counts an n-d mask as n indices of the 1-d flat iterator: an
    # IndexError before any size or value check; ndtile wrote nothing
    # without an error for a value of [] (small_tiles 19101734, 19102620)
    a_np = np.arange(float(np.prod(shape))).reshape(shape)
    a_nt = nt.asarray(a_np)
    m_np = np.ones(mshape, bool)
    for m in (m_np, nt.asarray(m_np)):
        if value == 'get':
            raises_same(lambda: a_nt.flat[m], lambda: a_np.flat[m_np])
        else:
            def put(x, k):
                x.flat[k] = value
            raises_same(lambda: put(a_nt, m), lambda: put(a_np, m_np))
    with pytest.raises(IndexError, match="flat iterator is 1-dimensional"):
        a_nt.flat[nt.asarray(m_np)] = []
    assert_same(a_nt, a_np)


@pytest.mark.parametrize('dt', ['bool', 'int16', 'float64'])
@pytest.mark.parametrize('key', [slice(None, None, -2), slice(-5, None, -1), slice(1, None, 3),
                                 [3, 1, 1], slice(None)])
def test_flat_read_is_a_fresh_contiguous_array(dt, key):
    # NumPy's a.flat[slice] is a new C-contiguous array: its ravel is a
    # view (a write through it reaches it), of a non-contiguous a too
    a_np = make(dt, (4, 3, 2))
    a_nt = nt.asarray(a_np)
    for v_np, v_nt in zip(_views(a_np), _views(a_nt)):
        r_np, r_nt = v_np.flat[key], v_nt.flat[key]
        assert r_nt.flags.c_contiguous == r_np.flags.c_contiguous
        f_np, f_nt = np.ravel(r_np), nt.ravel(r_nt)
        if f_np.size:
            f_np[-1] = 1
            f_nt[-1] = 1
        assert_same(r_nt, r_np)
        assert_same(a_nt, a_np)


@pytest.mark.parametrize('dt', ['int8', 'int32', 'int64', 'uint16'])
@pytest.mark.parametrize('edt', ['int8', 'int64', 'uint8'])
@pytest.mark.parametrize('which', ['positive', 'none', 'first', 'all', 'row'])
@pytest.mark.parametrize('odt', ['same', 'float64', 'int16'])
def test_integer_power_where_checks_selected_exponents(dt, edt, which, odt):
    # NumPy refuses a negative integer exponent only in the elements
    # where= selects
    for shape in [(0,), (5,), (3, 4)]:
        b_np = make(dt, shape, seed=1)
        e_np = make(edt, shape, seed=2, lo=-3, hi=4)
        m_np = {'positive': e_np >= 0, 'none': False, 'all': True,
                'first': np.arange(e_np.size).reshape(shape) == 0,
                'row': np.asarray(np.arange(shape[-1]) % 2 == 0)}[which]
        o = dt if odt == 'same' else odt
        for e_arg_np in (e_np, -2):
            o_np, o_nt = np.ones(shape, o), nt.ones(shape, o)
            b_nt = nt.asarray(b_np)
            e_arg_nt = nt.asarray(e_arg_np) if isinstance(e_arg_np, np.ndarray) else e_arg_np
            m_nt = nt.asarray(m_np) if isinstance(m_np, np.ndarray) else m_np
            raised, _ = check_same_error(
                lambda: nt.power(b_nt, e_arg_nt, out=o_nt, where=m_nt),
                lambda: np.power(b_np, e_arg_np, out=o_np, where=m_np))
            if not raised:      # (what a refused power leaves is not specified)
                nt.power(b_nt, e_arg_nt, out=o_nt, where=m_nt)
                assert_same(o_nt, o_np)


@pytest.mark.parametrize('dt', ['int8', 'uint16', 'int64', 'float32', 'bool', 'complex64'])
@pytest.mark.parametrize('value', [np.uint8(200), np.float32(1e39), np.int64(2 ** 40), 300, 2.5,
                                   -1, np.float64(np.nan), [np.int16(-300)], 1e10, (1 + 2j),
                                   np.array(200, 'uint8'), None])
@pytest.mark.parametrize('key', [slice(1, None), slice(None, None, -2), [0, 2, 2], Ellipsis])
def test_flat_setitem_converts_as_asarray(dt, value, key):
    # a.flat[slice/list/...] = v: NumPy's np.asarray(v, dtype=a.dtype) (a
    # forced cast of NumPy scalars and arrays), then cyclic
    for shape in [(), (0,), (5,), (2, 3)]:
        a_np = make(dt, shape)
        a_nt = nt.asarray(a_np.copy())
        for v_np, v_nt in ((a_np, a_nt), (a_np.T, a_nt.T)):
            with warnings.catch_warnings():
                warnings.simplefilter('ignore')
                raised, _ = check_same_error(lambda: v_nt.flat.__setitem__(key, value),
                                             lambda: v_np.flat.__setitem__(key, value))
                if not raised:
                    v_nt.flat[key] = value
            # (a cast of inf or NaN to an integer is undefined in C: the
            # exceptions only)
            if not raised and not (np.dtype(dt).kind in 'iu' and
                                   isinstance(value, (np.floating, float)) and
                                   not np.isfinite(value)):
                assert_same(a_nt, a_np)


@pytest.mark.parametrize('dt', ['int8', 'uint16', 'float32', 'float64', 'bool'])
@pytest.mark.parametrize('shape', [(), (1,), (5,), (3, 4)])
def test_interp_complex_bitwise(dt, shape):
    # NumPy's complex loop multiplies by 1 / (x1 - x0) (its real one
    # divides): the same bits, not a last-bit difference
    x_np = make(dt, shape, seed=4)
    x_nt = nt.asarray(x_np)
    for xp, fp in (([-1, 0, 2.5], [3j, -1, 0.5 + 1j]), ([-3, 0.1, 0.7, 9], [1 + 1j, -2j, 0.3, 7])):
        for kw in ({}, {'left': -7, 'right': np.nan}):
            assert_same(nt.interp(x_nt, xp, fp, **kw), np.interp(x_np, xp, fp, **kw))
            assert_same(nt.interp(x_nt, xp, np.real(fp), **kw),
                        np.interp(x_np, xp, np.real(fp), **kw))


@pytest.mark.parametrize('edge_order', [1, 2])
@pytest.mark.parametrize('spacing', ['coords', 'scalar', 'none'])
def test_gradient_of_bool_is_float64(edge_order, spacing):
    # NumPy converts integers to float64 and gives booleans a float64
    # result (their differences themselves raise TypeError)
    for shape, axis in [((5,), 0), ((3, 4), 0), ((3, 4), 1)]:
        a_np = make('bool', shape)
        a_nt = nt.asarray(a_np)
        sp = {'coords': [np.cumsum(np.arange(shape[axis]) + 1.0)], 'scalar': [2.0],
              'none': []}[spacing]
        _both(lambda: nt.gradient(a_nt, *sp, axis=axis, edge_order=edge_order),
              lambda: np.gradient(a_np, *sp, axis=axis, edge_order=edge_order))


@pytest.mark.parametrize('mode', ['edge', 'wrap', 'reflect', 'symmetric'])
@pytest.mark.parametrize('dt', ['int16', 'float64', 'complex64', 'bool'])
@pytest.mark.parametrize('shape,width', [((1,), 3), ((2,), 7), ((5,), (2, 9)), ((3, 1, 4), 3),
                                         ((4, 5), ((1, 0), (6, 2))), ((1,), 40),
                                         ((2, 3), 70), ((0, 3), ((0, 0), (2, 1)))])
def test_pad_periodic_modes_by_slices(mode, dt, shape, width):
    # (the periodic modes copy runs of slices where the index map has few,
    # else gather: both NumPy's values, of strided inputs too)
    a_np = make(dt, shape)
    a_nt = nt.asarray(a_np)
    for v_np, v_nt in zip(_views(a_np), _views(a_nt)):
        _both(lambda: nt.pad(v_nt, width, mode=mode), lambda: np.pad(v_np, width, mode=mode))


# index arrays of a narrow integer type with negative values into an axis
# longer than the type's range: the negative ones were wrapped (-1 + n) in
# the index's own dtype, so `a[np.array([-1], dtype='int8')]` of 300
# elements raised OverflowError (indexing, fancy writes, .flat, ufunc.at)

_NARROW_KEYS = {'int8': [-1, 0, 2, -2, 127, -128], 'int16': [-1, 5, -300, 299]}


def _narrow_index_ops(xp, a, k):
    """The operations taking an index array, each on a fresh copy of a."""
    out = []
    c = xp.array(a)
    out.append(c[k])
    out.append(c[::-1][k])
    out.append(c.reshape(1, -1)[:, k])
    out.append(c.reshape(1, -1)[xp.ix_([0], k)])
    out.append(c.flat[k])
    c[k] = 5
    out.append(c)
    c = xp.array(a)
    c[k] += 1                   # repeated indices: once each
    out.append(c)
    c = xp.array(a)
    m = c[::-2].size
    c[::-2][k[(k < m) & (k >= -m)]] = 7
    out.append(c)
    c = xp.array(a)
    c.flat[k] = 9
    out.append(c)
    c = xp.array(a)
    xp.add.at(c, k, 1)
    out.append(c)
    out.append(xp.take(a, k))
    c = xp.array(a)
    xp.put(c, k, 3)
    out.append(c)
    return out


@pytest.mark.parametrize('idt', ['int8', 'int16'])
@pytest.mark.parametrize('n', [130, 300, 40_000])
def test_narrow_negative_index_arrays(idt, n):
    keys = np.array(_NARROW_KEYS[idt], dtype=idt)
    if n < 300:
        keys = keys[np.abs(keys.astype(np.int64)) < n - 1]
    a_np = np.arange(n, dtype=np.int64) * 3 - 7
    for got, exp in zip(_narrow_index_ops(nt, nt.asarray(a_np), nt.asarray(keys)),
                        _narrow_index_ops(np, a_np, keys)):
        assert_same(got, exp)
    # a NumPy index array into an ndtile array alike
    assert_same(nt.asarray(a_np)[keys], a_np[keys])


@pytest.mark.default_settings
def test_narrow_negative_index_arrays_big():
    a_np = np.arange(700_000, dtype=np.float64).reshape(700, 1000)    # 5.6 MB
    k = np.array([-1, 3, -700, 3, -2], dtype='int16')
    a_nt = nt.asarray(a_np)
    assert_same(a_nt[k], a_np[k])
    assert_same(a_nt[:, k], a_np[:, k])
    assert_same(a_nt[::-1][k, k], a_np[::-1][k, k])
    a_nt[k, ::-3] += 2.5
    a_np[k, ::-3] += 2.5
    assert_same(a_nt, a_np)
    nt.add.at(a_nt, (k, k[::-1]), 1.0)
    np.add.at(a_np, (k, k[::-1]), 1.0)
    assert_same(a_nt, a_np)
    k8 = np.array([-1, 3, -100, -1], dtype='int8')       # -1 + 700 is not an int8
    nt.add.at(a_nt, (k8, k8[::-1]), 1.0)
    np.add.at(a_np, (k8, k8[::-1]), 1.0)
    nt.add.at(a_nt, (slice(None, None, -1), k8), 2.0)
    np.add.at(a_np, (slice(None, None, -1), k8), 2.0)
    a_nt[nt.ix_(k8, k8)] -= 3
    a_np[np.ix_(k8, k8)] -= 3
    assert_same(a_nt, a_np)
    assert_same(a_nt[k8, ::-7], a_np[k8, ::-7])


# tri/tril/triu with sizes or offsets given as NumPy integers of a narrow
# type: `m - k` and `-n - 1` were computed in that type and wrapped
# (tri(np.uint8(3), np.uint8(250), 100) was all False); the arrays are
# those of the same Python ints (NumPy's own overflows there:
# docs/guide/deviations.md)

@pytest.mark.parametrize('n, m, k', [(np.uint8(200), None, np.int8(-100)),
                                     (np.uint8(3), np.uint8(250), np.int8(100)),
                                     (np.uint8(3), np.uint8(250), 100),
                                     (np.uint8(250), np.uint8(3), -100),
                                     (np.int16(5), np.int8(5), np.int8(-127)),
                                     (np.uint16(300), np.int8(7), np.uint8(2))])
@pytest.mark.parametrize('dt', ['float64', 'int8', 'bool'])
def test_tri_of_narrow_numpy_integers(n, m, k, dt):
    py = (int(n), None if m is None else int(m), int(k))
    assert_same(nt.tri(n, m, k, dtype=dt), np.tri(*py, dtype=dt))


@pytest.mark.parametrize('k', [np.int8(-100), np.uint8(200), np.int8(100), np.int16(-3)])
@pytest.mark.parametrize('shape', [(30, 30), (300, 7), (2, 30, 300)])
def test_tril_triu_of_narrow_numpy_offsets(k, shape):
    a = np.arange(np.prod(shape), dtype=np.int32).reshape(shape)
    x = nt.asarray(a)
    assert_same(nt.tril(x, k), np.tril(a, int(k)))
    assert_same(nt.triu(x[..., ::-1], k), np.triu(a[..., ::-1], int(k)))


# frexp/modf with the first output over the input: the second output was
# computed from the first one's writes (`np.modf(a, out=(a, w))` gave w
# zeros); NumPy's one loop reads each element before it writes either

def _two_output_cases(xp, a, i_dt):
    """(name, call) of frexp/modf with out[0] over the input."""
    n = a.shape[0]
    m = (xp.arange(a.size) % 3 != 1).reshape(a.shape)
    return [
        lambda: xp.modf(a, out=(a, xp.zeros_like(a))),
        lambda: xp.modf(a[::-1], out=(a, xp.zeros_like(a))),
        lambda: xp.modf(a[1:], out=(a[:-1], xp.zeros(a[1:].shape, a.dtype))),
        lambda: xp.modf(a, out=(a, xp.ones_like(a)), where=m),
        lambda: xp.frexp(a, out=(a, xp.zeros(a.shape, i_dt))),
        lambda: xp.frexp(a[::-1], out=(a, xp.zeros(a.shape, i_dt))),
        lambda: xp.frexp(a.T if a.ndim > 1 and a.shape[0] == a.shape[-1] else a[:n],
                         out=(a, xp.zeros(a.shape, i_dt)), where=m),
    ]


@pytest.mark.parametrize('dt', ['float32', 'float64'])
@pytest.mark.parametrize('shape', [(7,), (3000,), (40, 40)])
def test_two_output_ufuncs_over_their_input(dt, shape):
    base = (np.arange(np.prod(shape), dtype=np.float64).reshape(shape) % 11 - 4.75) * 1.5
    cases_np = _two_output_cases(np, base.astype(dt), 'int32')
    for k in range(len(cases_np)):
        a_np = base.astype(dt)
        a_nt = nt.asarray(a_np.copy())
        r_np = _two_output_cases(np, a_np, 'int32')[k]()
        r_nt = _two_output_cases(nt, a_nt, 'int32')[k]()
        assert_same(a_nt, a_np)
        assert_same(r_nt[1], r_np[1])
        assert r_nt[0] is not None and r_np[0] is not None


@pytest.mark.default_settings
def test_two_output_ufuncs_over_their_input_big():
    a_np = (np.arange(600_000, dtype=np.float64) % 13 - 6.5) * 0.75    # 4.8 MB
    a_nt = nt.asarray(a_np)
    w_np, w_nt = np.zeros_like(a_np), nt.zeros(a_np.shape)
    np.modf(a_np[::-1], out=(a_np, w_np))
    nt.modf(a_nt[::-1], out=(a_nt, w_nt))
    assert_same(a_nt, a_np)
    assert_same(w_nt, w_np)
    e_np, e_nt = np.zeros(a_np.shape, np.int32), nt.zeros(a_np.shape, dtype='int32')
    np.frexp(a_np, out=(a_np, e_np))
    nt.frexp(a_nt, out=(a_nt, e_nt))
    assert_same(a_nt, a_np)
    assert_same(e_nt, e_np)


# ptp with out= a part of its input: NumPy writes the max into out, then
# takes the min of the array as that write left it

@pytest.mark.parametrize('dt', ['float64', 'int16', 'uint8', 'complex64'])
@pytest.mark.parametrize('how', ['row', 'col', 'keepdims', 'T'])
def test_ptp_out_over_the_input(dt, how):
    base = (np.arange(60).reshape(6, 10) * 7 % 11 - 3).astype(dt)
    for xp in (np, nt):
        a = xp.asarray(base.copy())
        if how == 'row':
            r = xp.ptp(a, axis=0, out=a[2])
        elif how == 'col':
            r = xp.ptp(a, axis=1, out=a[:, 7])
        elif how == 'keepdims':
            r = xp.ptp(a, axis=0, out=a[:1], keepdims=True)
        else:
            r = xp.ptp(a.T, axis=1, out=a[5])
        if xp is np:
            exp, r_np = a, r
        else:
            assert r is not None
            assert_same(a, exp)
            assert_same(r, r_np)


@pytest.mark.default_settings
def test_ptp_out_over_the_input_big():
    a_np = (np.arange(700_000) * 7 % 1013 - 300).astype(np.float64).reshape(700, 1000)
    a_nt = nt.asarray(a_np)
    np.ptp(a_np, axis=0, out=a_np[350])
    nt.ptp(a_nt, axis=0, out=a_nt[350])
    assert_same(a_nt, a_np)
    np.ptp(a_np[::-1].T, axis=0, out=a_np[:, 3])
    nt.ptp(a_nt[::-1].T, axis=0, out=a_nt[:, 3])
    assert_same(a_nt, a_np)


# session 30 (Gen.lib): angle of integers in arctan2's own loop type;
# unwrap's result in the type NumPy writes it in; reshape's order checks

@pytest.mark.parametrize('dt', ['bool', 'int16', 'uint16', 'int32', 'uint32', 'int64',
                                'uint64', 'float32', 'float64', 'complex64'])
@pytest.mark.parametrize('deg', [False, True])
@pytest.mark.parametrize('shape', [(), (0,), (7,), (3, 1500)])
def test_angle_dtype_of_the_arctan2_loop(dt, deg, shape):
    x_np = make(dt, shape, seed=3)
    for view in (lambda a: a, lambda a: a[..., ::-2] if a.ndim else a[()]):
        v_np = view(x_np)
        v_nt = view(nt.asarray(x_np))
        _both(lambda: nt.angle(v_nt, deg=deg), lambda: np.angle(v_np, deg=deg),
              rtol=tol_for(np.angle(v_np).dtype, 'math'))


@pytest.mark.parametrize('dt', ['int8', 'int16', 'uint8', 'int32', 'int64', 'float32',
                                'float64'])
@pytest.mark.parametrize('period', [6, 7, 6.0, 2 * np.pi])
@pytest.mark.parametrize('shape', [(9,), (4, 5), (3, 2100)])
def test_unwrap_result_dtype_and_values(dt, period, shape):
    base = (np.arange(int(np.prod(shape))) * 5 % 23 - 9).reshape(shape)
    if dt.startswith('uint'):
        base = base + 9
    x_np = base.astype(dt)
    for kw in ({}, {'axis': 0}, {'discont': 4}):
        for v_np, v_nt in ((x_np, nt.asarray(x_np)),
                           (x_np[..., ::-1], nt.asarray(x_np)[..., ::-1])):
            # (unsigned with an integer period: NumPy's OverflowError, the same)
            _both(lambda: nt.unwrap(v_nt, period=period, **kw),
                  lambda: np.unwrap(v_np, period=period, **kw),
                  rtol=tol_for(np.result_type(dt, period), 'sum'))


@pytest.mark.parametrize('order', ['K', 'k', 'X', 1, 'c', 'a', 'f', None])
@pytest.mark.parametrize('shape', [(6,), (2, 3), (7,)])
def test_reshape_order_checked_first(order, shape):
    x_np = np.arange(6, dtype=np.int32).reshape(2, 3)
    x_nt = nt.asarray(x_np)
    for a_np, a_nt in ((x_np, x_nt), (x_np.T, x_nt.T), (x_np[:, ::-1], x_nt[:, ::-1])):
        _both(lambda: a_nt.reshape(shape, order=order), lambda: a_np.reshape(shape, order=order))
        _both(lambda: nt.reshape(a_nt, shape, order=order),
              lambda: np.reshape(a_np, shape, order=order))
    # a shape of None is a view whatever the order
    _both(lambda: x_nt.reshape(None, order='K'), lambda: x_np.reshape(None, order='K'))


@pytest.mark.parametrize('dt', ['bool', 'int8', 'uint8', 'int64', 'uint64', 'float32',
                                'complex64'])
@pytest.mark.parametrize('bounds', [(None, None), (-200, None), (None, 300), (-200, 300),
                                    (-2 ** 63, 2 ** 64 - 1), (0, None), (-1, 2)])
@pytest.mark.parametrize('shape', [(), (0,), (5, 3), (3, 1500)])
def test_clip_without_bounds_is_positive(dt, bounds, shape):
    # NumPy's _clip: a Python int bound at or past an integer type's range
    # is no bound, and no bound at all is positive(a) (bool: TypeError)
    x_np = make(dt, shape, seed=5)
    x_nt = nt.asarray(x_np)
    lo, hi = bounds
    for v_np, v_nt in ((x_np, x_nt), (x_np.T, x_nt.T)):
        _both(lambda: nt.clip(v_nt, lo, hi), lambda: np.clip(v_np, lo, hi))
        _both(lambda: v_nt.clip(lo, hi), lambda: v_np.clip(lo, hi))
        o_np, o_nt = np.zeros_like(v_np), nt.zeros_like(v_nt)
        _both(lambda: nt.clip(v_nt, lo, hi, out=o_nt), lambda: np.clip(v_np, lo, hi, out=o_np))
        assert_same(o_nt, o_np)


@pytest.mark.parametrize('p', [np.int32(3), np.array(2.5), [], [1, -2], np.arange(4)])
def test_polyval_of_0d_coefficients(p):
    x_np = np.arange(6, dtype=np.int16).reshape(2, 3)
    p_nt = nt.asarray(p) if isinstance(p, np.ndarray) else p
    for xx_np in (x_np, x_np[0, 0], 2.5):
        xx_nt = nt.asarray(xx_np) if isinstance(xx_np, np.ndarray) else xx_np
        _both(lambda: nt.polyval(p_nt, xx_nt), lambda: np.polyval(p, xx_np))


@pytest.mark.parametrize('dt', ['bool', 'int32', 'float64'])
@pytest.mark.parametrize('axis', [None, (0, 2, 3, 4), 1, (1, 2), -1])
@pytest.mark.parametrize('returned', [False, True])
def test_average_of_an_empty_result_divides_by_zero(dt, axis, returned):
    # NumPy makes a.size / avg.size whether returned= or not: ZeroDivisionError
    # where the mean is empty
    x_np = make(dt, (1, 0, 7, 5, 7), seed=2)
    x_nt = nt.asarray(x_np)
    for kd in (False, True):
        _both(lambda: nt.average(x_nt, axis=axis, returned=returned, keepdims=kd),
              lambda: np.average(x_np, axis=axis, returned=returned, keepdims=kd))
    y_np = make(dt, (4, 3), seed=2)
    _both(lambda: nt.average(nt.asarray(y_np), axis=-1, returned=returned),
          lambda: np.average(y_np, axis=-1, returned=returned), rtol=1e-12)


@pytest.mark.parametrize('shape', [(0, 0), (0, 3), (3, 0), (1, 0, 0), (5, 3), (3, 5),
                                   (4, 4, 4), (3, 1500)])
@pytest.mark.parametrize('dt', ['uint64', 'uint8', 'bool', 'int8', 'float32', 'complex64'])
@pytest.mark.parametrize('val', [-1, 300, 2 ** 64, 1.5, [1, -1], [], np.nan, 'x', 5,
                                 [[1, 2], [3, 4]], 1 + 2j])
def test_fill_diagonal_converts_the_value_as_flat_does(shape, dt, val):
    # NumPy's fill_diagonal is a.flat[:end:step] = val: the value is
    # converted (OverflowError, ValueError) even where the diagonal is empty
    for wrap in (False, True):
        for view in (lambda x: x, lambda x: x.T, lambda x: x[::-1]):
            a_np, a_nt = np.zeros(shape, dt), nt.zeros(shape, dt)
            raised, _ = check_same_error(lambda: nt.fill_diagonal(view(a_nt), val, wrap=wrap),
                                         lambda: np.fill_diagonal(view(a_np), val, wrap=wrap))
            if not raised:
                nt.fill_diagonal(view(a_nt), val, wrap=wrap)
            assert_same(a_nt, a_np)


@pytest.mark.parametrize('shape', [(), (3,), (1,), (1, 3), (4, 1, 2), (0,), (2, 0)])
@pytest.mark.parametrize('axis', [None, (), 0, -1, (0,)])
def test_squeeze_of_nothing_is_the_array_itself(shape, axis):
    # NumPy's squeeze returns the array itself where no axis goes, so its
    # flags are the array's: setflags(write=False) on it makes the array
    # read-only (small_tiles seed 611685073: `a2 += a2` after
    # `a2.squeeze().setflags(write=False)` of a 0-d a2)
    a_np = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    a_nt = nt.asarray(a_np)
    for f in (lambda a, xp: a.squeeze(axis=axis), lambda a, xp: xp.squeeze(a, axis=axis)):
        raised, r_np = check_same_error(lambda: f(a_nt, nt), lambda: f(a_np, np))
        if raised:
            continue
        r_nt = f(a_nt, nt)
        assert_same(r_nt, r_np)
        assert (r_nt is a_nt) == (r_np is a_np)
    if not check_same_error(lambda: a_nt.squeeze(axis=axis), lambda: a_np.squeeze(axis=axis))[0]:
        a_np.squeeze(axis=axis).setflags(write=False)
        a_nt.squeeze(axis=axis).setflags(write=False)
        _both(lambda: a_nt.__iadd__(1), lambda: a_np.__iadd__(1))
        assert_same(a_nt, a_np)


@pytest.mark.parametrize("dt,fn", [(dt, fn) for dt in ('int16', 'uint8', 'bool', 'float32')
                                    for fn in ('max', 'min', 'sum', 'prod')
                                    if dt != 'float32' or fn in ('max', 'min')])
@pytest.mark.parametrize("shape,axis", [((3, 700), 0), ((0, 3), 0), ((), None), ((5000,), None)])
@pytest.mark.parametrize("initial", [np.complex128(2 - 1j), np.complex64(3), 2 - 1j,
                                     np.int64(300), np.float64(2.5)])
def test_initial_of_a_numpy_scalar_is_cast_as_numpy_casts_it(dt, fn, shape, axis, initial):
    # a NumPy scalar initial= is cast (complex into ints: the real part and
    # a ComplexWarning; np.int64(300) into uint8: 44), a Python complex into
    # reals is a TypeError (found by the fuzzer's gaps family: amax of an
    # int16 0-d array with initial=np.complex128(2-1j) raised TypeError).
    # (A float sum or product from a complex initial= runs NumPy's version.)
    a = make(dt, shape)
    _both(lambda: getattr(nt, fn)(nt.asarray(a), axis=axis, initial=initial),
          lambda: getattr(np, fn)(a, axis=axis, initial=initial), rtol=1e-5)
