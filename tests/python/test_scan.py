"""cumsum, cumprod, nancumsum, nancumprod (src/ops/scan.c) against NumPy:
every dtype, result dtypes (default, dtype=, out=), every axis of 1-d..3-d
arrays, flattened, 0-d, empty, strided and negative-step views, many tiles
(4096-byte tiles in tests), NaN handling, and the ndarray methods."""
import numpy as np
import pytest

import ndtile as nt
from _helpers import DTYPES, NAMES, make

FUNCS = ['cumsum', 'cumprod', 'nancumsum', 'nancumprod']


def data(dtype, shape, prod, seed=0):
    dt = np.dtype(dtype)
    if not prod:
        return make(dt, shape, seed=seed)
    if dt.kind == 'f':
        return make(dt, shape, seed=seed, lo=0.9, hi=1.1)
    if dt.kind == 'c':
        a = make(np.complex128, shape, seed=seed, lo=-1, hi=1)
        a = np.where(a == 0, 1, a)
        return (a / np.abs(a)).astype(dt)
    return make(dt, shape, seed=seed, lo=-3, hi=3)


def check(got, exp):
    assert isinstance(got, nt.ndarray), type(got)
    g = np.asarray(got)
    assert g.dtype == exp.dtype, f"dtype {g.dtype} != {exp.dtype}"
    assert g.shape == exp.shape, f"shape {g.shape} != {exp.shape}"
    if exp.dtype.kind in 'fc':
        single = exp.dtype in (np.float32, np.complex64)
        rtol = 1e-4 if single else 1e-12
        fin = np.abs(exp)[np.isfinite(exp)]
        scale = fin.max() if fin.size else 0
        np.testing.assert_allclose(g, exp, rtol=rtol, atol=rtol * scale, equal_nan=True)
    else:
        np.testing.assert_array_equal(g, exp)


@pytest.mark.parametrize("dtype", DTYPES, ids=NAMES)
@pytest.mark.parametrize("func", FUNCS)
def test_dtypes_axes(func, dtype):
    prod = 'prod' in func
    for shape in [(1500,), (33, 47), (4, 5, 6), (3, 700)]:
        a = data(dtype, shape, prod)
        x = nt.asarray(a)
        for axis in [None] + list(range(-1, len(shape))):
            check(getattr(nt, func)(x, axis=axis), getattr(np, func)(a, axis=axis))


@pytest.mark.parametrize("dtype", DTYPES, ids=NAMES)
def test_dtype_argument_and_rules(dtype):
    a = data(dtype, (40, 30), False)
    x = nt.asarray(a)
    for func in FUNCS:
        exp = getattr(np, func)(a)
        got = getattr(nt, func)(x)
        assert np.asarray(got).dtype == exp.dtype
    for dt in [np.int8, np.int32, np.uint16, np.float32, np.float64, np.complex128, bool]:
        if np.dtype(dtype).kind == 'c' and np.dtype(dt).kind != 'c':
            continue
        for func in ('cumsum', 'cumprod'):
            check(getattr(nt, func)(x, axis=0, dtype=dt), getattr(np, func)(a, axis=0, dtype=dt))


def test_small_int_wraps_in_requested_dtype():
    a = np.array([100, 100, 100, -128, 7], np.int8)
    check(nt.cumsum(nt.asarray(a), dtype=np.int8), np.cumsum(a, dtype=np.int8))
    check(nt.cumprod(nt.asarray(a), dtype=np.int8), np.cumprod(a, dtype=np.int8))
    b = np.arange(1, 40, dtype=np.uint64)
    check(nt.cumprod(nt.asarray(b)), np.cumprod(b))


@pytest.mark.parametrize("func", FUNCS)
def test_out(func):
    a = data(np.float64, (20, 300), 'prod' in func)
    x = nt.asarray(a)
    out = nt.zeros((20, 300))
    r = getattr(nt, func)(x, axis=1, out=out)
    assert r is out
    check(out, getattr(np, func)(a, axis=1))
    out32 = nt.zeros((20, 300), dtype=np.float32)
    getattr(nt, func)(x, axis=0, out=out32)
    check(out32, getattr(np, func)(a, axis=0, out=np.zeros((20, 300), np.float32)))
    # out as a strided view
    big = nt.zeros((20, 600))
    getattr(nt, func)(x, axis=1, out=big[:, ::2])
    check(big[:, ::2], getattr(np, func)(a, axis=1))
    # numpy out
    nout = np.zeros(6000)
    r = getattr(nt, func)(x, out=nout)
    assert r is nout
    exp = getattr(np, func)(a)
    np.testing.assert_allclose(nout, exp, rtol=1e-12, atol=1e-12 * np.abs(exp).max())


@pytest.mark.parametrize("func", FUNCS)
def test_zero_d_and_empty(func):
    for v in (np.array(3.5), np.array(7, np.int16), np.array(True)):
        for axis in (None, 0, -1):
            check(getattr(nt, func)(nt.asarray(v), axis=axis), getattr(np, func)(v, axis=axis))
    with pytest.raises(np.exceptions.AxisError):
        getattr(nt, func)(nt.asarray(np.array(1.0)), axis=1)
    for shape in [(0,), (0, 5), (3, 0), (2, 0, 4)]:
        a = np.zeros(shape, np.int8)
        for axis in [None] + list(range(len(shape))):
            check(getattr(nt, func)(nt.asarray(a), axis=axis), getattr(np, func)(a, axis=axis))
    with pytest.raises(np.exceptions.AxisError):
        getattr(nt, func)(nt.zeros((2, 3)), axis=2)
    with pytest.raises(np.exceptions.AxisError):
        getattr(nt, func)(nt.zeros((2, 3)), axis=-3)


@pytest.mark.parametrize("func", FUNCS)
def test_views(func):
    prod = 'prod' in func
    a = data(np.float64, (60, 80), prod, seed=3)
    x = nt.asarray(a)
    for sl in [(slice(None, None, -1), slice(None, None, 2)), (slice(5, 50, 3), slice(None)),
               (slice(None), slice(None, None, -3))]:
        for axis in (None, 0, 1):
            check(getattr(nt, func)(x[sl], axis=axis), getattr(np, func)(a[sl], axis=axis))
            check(getattr(nt, func)(x[sl].T, axis=axis), getattr(np, func)(a[sl].T, axis=axis))
    c = data(np.complex128, (30, 40), prod)
    xc = nt.asarray(c)
    for axis in (None, 0, 1):
        check(getattr(nt, func)(xc.real, axis=axis), getattr(np, func)(c.real, axis=axis))
        check(getattr(nt, func)(xc.imag, axis=axis), getattr(np, func)(c.imag, axis=axis))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
def test_nan_variants(dtype):
    rng = np.random.default_rng(5)
    for shape in [(2000,), (40, 60), (3, 7, 500)]:
        a = data(dtype, shape, True, seed=1)
        mask = rng.random(shape) < 0.2
        a = a.copy()
        a[mask] = np.nan
        if np.dtype(dtype).kind == 'c':
            a[rng.random(shape) < 0.05] = complex(1, np.nan)
        x = nt.asarray(a)
        for axis in [None] + list(range(len(shape))):
            for func in FUNCS:
                check(getattr(nt, func)(x, axis=axis), getattr(np, func)(a, axis=axis))
        # all-NaN
        b = np.full(shape, np.nan, dtype)
        check(nt.nancumsum(nt.asarray(b)), np.nancumsum(b))
        check(nt.nancumprod(nt.asarray(b), axis=0), np.nancumprod(b, axis=0))


def test_nan_variant_with_integer_dtype():
    a = np.array([1.0, np.nan, 2.5, 3.7, np.nan])
    check(nt.nancumsum(nt.asarray(a), dtype=np.int64), np.nancumsum(a, dtype=np.int64))
    check(nt.nancumprod(nt.asarray(a), dtype=np.int32), np.nancumprod(a, dtype=np.int32))


def test_methods_lists_and_numpy_dispatch():
    a = data(np.int32, (30, 50), False)
    x = nt.asarray(a)
    check(x.cumsum(), a.cumsum())
    check(x.cumsum(axis=1, dtype=np.float32), a.cumsum(axis=1, dtype=np.float32))
    check(x.cumprod(0), a.cumprod(0))
    check(nt.cumsum([1, 2, 3]), np.cumsum([1, 2, 3]))
    check(np.cumsum(x, axis=0), np.cumsum(a, axis=0))
    check(np.nancumprod(x, axis=1), np.nancumprod(a, axis=1))


def test_same_bits_for_any_workers():
    from ndtile import _core
    a = np.random.default_rng(9).random((64, 300)) - 0.5
    old = _core.workers()
    res = []
    try:
        for w in (1, 3):
            _core.set_workers(w)
            x = nt.asarray(a)
            res.append([np.asarray(nt.cumsum(x, axis=ax)) for ax in (None, 0, 1)])
    finally:
        _core.set_workers(old)
    for r0, r1 in zip(*res):
        assert r0.tobytes() == r1.tobytes()
    seq = np.cumsum(a)
    np.testing.assert_allclose(res[0][0], seq, rtol=1e-12, atol=1e-12 * np.abs(seq).max())
