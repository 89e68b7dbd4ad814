"""cumsum, cumprod, nancumsum, nancumprod (src/ops/scan.c) against NumPy:
every dtype, result dtypes (default, dtype=, out=), every axis of 1-d..3-d
arrays, flattened, 0-d, empty, strided and negative-step views, many tiles
(4096-byte tiles in tests), NaN handling, and the ndarray methods."""
import itertools
import warnings

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


def _parts_same(got, exp):
    """got's real and imaginary parts are exp's: NaN where exp's is, else
    the same value and sign (signed zeros); a NaN's own sign bit is not
    compared (deviations.md 7: NumPy's depends on its loop)."""
    g = np.asarray(got)
    assert isinstance(got, nt.ndarray) and g.dtype == exp.dtype and g.shape == exp.shape
    for p, q in ((g.real, exp.real), (g.imag, exp.imag)):
        nan = np.isnan(q)
        assert np.array_equal(np.isnan(p), nan)
        assert np.array_equal(p[~nan], q[~nan])
        assert np.array_equal(np.signbit(p[~nan]), np.signbit(q[~nan]))


_PARTS = [complex(np.nan, 0.0), complex(0.0, np.nan), complex(-0.0, -0.0), complex(-0.0, 0.0),
          complex(0.0, -0.0), complex(1, 2), complex(-np.nan, 0.0), complex(np.nan, -0.0),
          complex(-0.0, np.nan), complex(-1, 0.5), complex(0, -1), complex(np.inf, 0.0)]


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_nan_and_signed_zero_parts(dtype):
    # every pair and triple of NaN, signed-zero and infinite parts (one tile
    # of 4096 bytes, and as 2-element-apart strided views)
    with np.errstate(all='ignore'), nt.errstate(all='ignore'):
        for k in (1, 2, 3):
            for combo in itertools.product(_PARTS, repeat=k):
                a = np.array(combo, dtype)
                x = nt.asarray(a)
                for func in FUNCS:
                    _parts_same(getattr(nt, func)(x), getattr(np, func)(a))
        a = np.array(_PARTS * 40, dtype).reshape(3, -1)
        for key in [(Ellipsis,), (slice(None), slice(None, None, 2)), (slice(None, None, -1),)]:
            for axis in (None, 0, 1):
                for func in FUNCS:
                    _parts_same(getattr(nt, func)(nt.asarray(a)[key], axis=axis),
                                getattr(np, func)(a[key], axis=axis))


@pytest.mark.default_settings
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_signed_zero_parts_many_tiles(dtype):
    # > 2 MiB at default settings: parts from {NaN, ±1, ±0} in one part and
    # signed zeros in the other (NaN in one part leaves the other finite in
    # sums), and unit values with signed zeros for products
    rng = np.random.default_rng(3)
    shape = (700, 600)
    for re, im in [([np.nan, 1, -0.0, 0.0, -1], [-0.0, 0.0]),
                   ([-0.0, 0.0], [np.nan, 1, -0.0, 0.0, -1]),
                   ([-0.0, 0.0, 1, -1], [-0.0, 0.0, 1, -1])]:
        a = np.empty(shape, dtype)
        a.real = rng.choice(re, size=shape)
        a.imag = rng.choice(im, size=shape)
        x = nt.asarray(a)
        with np.errstate(all='ignore'), nt.errstate(all='ignore'):
            for key in [(Ellipsis,), (slice(None, None, -3), slice(None, None, 2))]:
                for axis in (0, 1):
                    for func in FUNCS:
                        _parts_same(getattr(nt, func)(x[key], axis=axis),
                                    getattr(np, func)(a[key], axis=axis))


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


# ---- ufunc.accumulate of the other ufuncs (ndt_scan's maximum ... subtract)

ACCUMULATES = ['maximum', 'minimum', 'fmax', 'fmin', 'logical_and', 'logical_or',
               'logical_xor', 'bitwise_and', 'bitwise_or', 'bitwise_xor', 'subtract', 'add',
               'multiply']


def acc_data(dtype, shape, seed=0):
    """Data that tells the loops apart: repeats, both signed zeros, inf and
    NaN (in the real or the imaginary part) for floats, the whole range
    of integers (subtract wraps)."""
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    n = int(np.prod(shape))
    if dt.kind == 'b':
        a = rng.random(n) < 0.7
    elif dt.kind in 'iu':
        info = np.iinfo(dt)
        a = rng.integers(info.min, info.max, size=n, endpoint=True, dtype=dt)
        a[rng.random(n) < 0.3] = 0
        a[rng.random(n) < 0.05] = info.max
    else:
        pool = np.array([0.0, -0.0, 1.5, -1.5, 3.0, np.inf, -np.inf, np.nan, 2.0, -7.25])
        p = np.where(rng.random(n) < 0.97, rng.integers(0, 7, n), rng.integers(0, 10, n))
        a = pool[p] + rng.integers(-3, 4, n) * (rng.random(n) < 0.5)
        if dt.kind == 'c':
            q = np.where(rng.random(n) < 0.98, rng.integers(0, 7, n), rng.integers(0, 10, n))
            a = a + 1j * pool[q]
    return a.reshape(shape).astype(dt)


def bits_equal(got, exp):
    assert isinstance(got, nt.ndarray), type(got)
    g = np.asarray(got)
    assert g.dtype == exp.dtype, f"dtype {g.dtype} != {exp.dtype}"
    assert g.shape == exp.shape, f"shape {g.shape} != {exp.shape}"
    if exp.dtype.kind in 'fc':
        # the bits, signed zeros too, with NaN for NaN (its sign bit is
        # the hardware's choice: NumPy promises none)
        g, exp = np.ascontiguousarray(g), np.ascontiguousarray(exp)
        gf, ef = g.view(g.real.dtype), exp.view(exp.real.dtype)
        assert (np.isnan(gf) == np.isnan(ef)).all(), (g, exp)
        g, exp = np.where(np.isnan(gf), 0, gf), np.where(np.isnan(ef), 0, ef)
    assert g.tobytes() == exp.tobytes(), (g, exp)


def same(f, g):
    """g() (ndtile) gives f()'s (NumPy) bits, or raises its exception type."""
    try:
        exp = f()
    except Exception as e:
        with pytest.raises(type(e)):
            g()
        return
    bits_equal(g(), exp)


@pytest.mark.usefixtures("native_only")
@pytest.mark.parametrize("dtype", DTYPES, ids=NAMES)
@pytest.mark.parametrize("func", ACCUMULATES)
def test_accumulate_kinds(func, dtype):
    u, un = getattr(nt, func), getattr(np, func)
    for shape in [(1500,), (33, 47), (4, 5, 6), (3, 700)]:
        a = acc_data(dtype, shape)
        if func == 'multiply' and a.dtype.kind in 'fc':
            a = data(dtype, shape, True)     # (products of the pool overflow)
        x = nt.asarray(a)
        for axis in list(range(-1, len(shape))):
            same(lambda: un.accumulate(a, axis=axis), lambda: u.accumulate(x, axis=axis))


@pytest.mark.usefixtures("native_only")
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("func", ['maximum', 'minimum', 'fmax', 'fmin', 'subtract'])
def test_accumulate_nan_placement(func, dtype):
    u, un = getattr(nt, func), getattr(np, func)
    nan = np.nan
    cases = [[nan, 1, 2, 3], [1, 2, 3, nan], [1, nan, 3, nan, 0], [nan, nan, nan],
             [-0.0, 0.0, -0.0], [0.0, -0.0, 0.0], [np.inf, nan, -np.inf], [-np.inf, np.inf]]
    if np.dtype(dtype).kind == 'c':
        cases += [[1 + 1j, complex(1, nan), 3, 2j], [complex(nan, 0), 5, 1j],
                  [1 + 1j, 1 + 2j, 1 - 1j, 5j, complex(2, nan), complex(nan, nan), 7],
                  [complex(1, nan), complex(0, 1), complex(nan, 1)]]
    for c in cases:
        a = np.array(c, dtype)
        same(lambda: un.accumulate(a), lambda: u.accumulate(nt.asarray(a)))
        # (one NaN in a long run: on every tile boundary)
        for pos in (0, 511, 512, 1023, 4999):
            b = acc_data(dtype, (5000,), seed=pos)
            b[pos] = nan
            same(lambda: un.accumulate(b), lambda: u.accumulate(nt.asarray(b)))


@pytest.mark.usefixtures("native_only")
@pytest.mark.parametrize("func", ACCUMULATES)
def test_accumulate_zero_d_empty_and_axes(func):
    u, un = getattr(nt, func), getattr(np, func)
    for v in (np.array(3.5), np.array(7, np.int16), np.array(True)):
        for axis in (0, -1, None):
            with pytest.raises(TypeError, match="cannot accumulate on a scalar"):
                u.accumulate(nt.asarray(v), axis=axis)
    with pytest.raises(np.exceptions.AxisError):
        u.accumulate(nt.zeros((2, 3), np.int32), axis=2)
    with pytest.raises(ValueError, match="multiple axes"):
        u.accumulate(nt.zeros((2, 3), np.int32), axis=None)
    a1 = np.array([1, 0, 3], np.int32)
    same(lambda: un.accumulate(a1, axis=None), lambda: u.accumulate(nt.asarray(a1), axis=None))
    for shape in [(0,), (0, 5), (3, 0), (2, 0, 4)]:
        for dt in (np.int8, np.float64, bool):
            a = np.zeros(shape, dt)
            for axis in range(len(shape)):
                same(lambda: un.accumulate(a, axis=axis),
                     lambda: u.accumulate(nt.asarray(a), axis=axis))
    # a list, a Python scalar list of bools
    same(lambda: un.accumulate([3, 1, 4, 1, 5]), lambda: u.accumulate([3, 1, 4, 1, 5]))


@pytest.mark.usefixtures("native_only")
@pytest.mark.parametrize("func", ACCUMULATES)
def test_accumulate_views(func):
    u, un = getattr(nt, func), getattr(np, func)
    for dt in (np.int16, np.float64, np.complex64):
        a = acc_data(dt, (60, 80), seed=3)
        if func == 'multiply' and a.dtype.kind in 'fc':
            a = data(dt, (60, 80), True)
        x = nt.asarray(a)
        for sl in [(slice(None, None, -1), slice(None, None, 2)), (slice(5, 50, 3), slice(None)),
                   (slice(None), slice(None, None, -3))]:
            for axis in (0, 1, -1):
                same(lambda: un.accumulate(a[sl], axis=axis),
                     lambda: u.accumulate(x[sl], axis=axis))
                same(lambda: un.accumulate(a[sl].T, axis=axis),
                     lambda: u.accumulate(x[sl].T, axis=axis))
        if dt == np.complex64:
            same(lambda: un.accumulate(a.real, axis=0), lambda: u.accumulate(x.real, axis=0))


OUT_DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.int64, np.uint64, np.float32,
              np.float64, np.complex128]


@pytest.mark.usefixtures("native_only")
@pytest.mark.parametrize("func", ACCUMULATES)
def test_accumulate_out_and_dtype(func):
    """out= and dtype= against NumPy's loop choice, cast and errors: the
    loop of (out, input) when dtype= is not given (maximum of int8 into
    uint8 runs in int16), dtype='s loop cast into out, an in-place run."""
    u, un = getattr(nt, func), getattr(np, func)
    for it in (np.bool_, np.int8, np.uint8, np.int64, np.float32, np.float64, np.complex128):
        a = acc_data(it, (7, 40), seed=1)
        if a.dtype.kind in 'iu':
            a = a // 3
        if func == 'multiply' and a.dtype.kind in 'fc':
            a = data(it, (7, 40), True)
        x = nt.asarray(a)
        for ot in OUT_DTYPES:
            def numpy_out(dtype=None):
                o = np.zeros(a.shape, ot)
                r = un.accumulate(a, axis=1, out=o, dtype=dtype)
                assert r is o
                return o

            def ndtile_out(dtype=None):
                o = nt.zeros(a.shape, ot)
                r = u.accumulate(x, axis=1, out=o, dtype=dtype)
                assert r is o
                return o

            def ndtile_tuple_out():
                o = nt.zeros(a.shape, ot)
                assert u.accumulate(x, axis=1, out=(o,)) is o
                return o
            with warnings.catch_warnings():
                warnings.simplefilter('ignore', np.exceptions.ComplexWarning)
                same(numpy_out, ndtile_out)
                same(numpy_out, ndtile_tuple_out)
                same(lambda: un.accumulate(a, axis=0, dtype=ot),
                     lambda: u.accumulate(x, axis=0, dtype=ot))
                for dt in (np.int64, np.float64):
                    same(lambda: numpy_out(dt), lambda: ndtile_out(dt))
    # in place
    a = acc_data(np.float64, (3000,), seed=2)
    x = nt.asarray(a)
    same(lambda: un.accumulate(a, out=a), lambda: u.accumulate(x, out=x))


@pytest.mark.usefixtures("native_only")
def test_accumulate_read_only_out_first():
    for m in (np, nt):
        o = m.zeros(3)
        o.flags.writeable = False
        for args, kw in [((m.zeros(3),), {}), ((m.zeros(()),), {}), ((m.zeros(3),), {'axis': 3})]:
            with pytest.raises(ValueError, match="output array is read-only"):
                m.maximum.accumulate(*args, out=o, **kw)
        with pytest.raises(ValueError, match="output array is read-only"):
            m.bitwise_and.accumulate(m.zeros(3), out=o)


@pytest.mark.usefixtures("native_only")
def test_accumulate_complex_warning():
    c = np.array([1j, 2, 3 + 1j])
    x = nt.asarray(c)
    for f in (lambda m: m.maximum.accumulate(x if m is nt else c, out=m.zeros(3)),
              lambda m: m.maximum.accumulate(x if m is nt else c, dtype=np.float64),
              lambda m: m.subtract.accumulate(x if m is nt else c, out=m.zeros(3))):
        with pytest.warns(np.exceptions.ComplexWarning):
            exp = f(np)
        with pytest.warns(np.exceptions.ComplexWarning) as rec:
            got = f(nt)
        assert len(rec) == 1
        bits_equal(got, exp)


@pytest.mark.usefixtures("native_only")
def test_accumulate_subtract_overflow_warns():
    a = np.array([1e308, -1e308, 1.0])
    with pytest.warns(RuntimeWarning, match="overflow encountered in accumulate"):
        with np.errstate(over='warn'):
            got = nt.subtract.accumulate(nt.asarray(a))
            bits_equal(got, np.subtract.accumulate(a))    # (read: the flags are in on ranks)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        with np.errstate(all='warn'):
            nt.maximum.accumulate(nt.asarray(np.array([1.0, np.nan, 2.0])))


@pytest.mark.usefixtures("native_only")
def test_accumulate_cast_warnings():
    """maximum's loop raises nothing; its input's cast to dtype= warns as
    NumPy's cast does."""
    a = np.array([np.nan, 1.0, 1e300])
    for dt, what in ((np.int64, "invalid value encountered in cast"),
                     (np.float32, "overflow encountered in cast")):
        with np.errstate(all='warn'):
            with pytest.warns(RuntimeWarning, match=what):
                exp = np.maximum.accumulate(a, dtype=dt)
            with pytest.warns(RuntimeWarning, match=what):
                bits_equal(nt.maximum.accumulate(nt.asarray(a), dtype=dt), exp)


@pytest.mark.default_settings
@pytest.mark.usefixtures("native_only")
def test_accumulate_default_settings():
    """Arrays of several 2 MiB tiles, deferred tasks, several workers: the
    parallel blocks with carries (maximum, bitwise) and the chained ones
    (subtract) give NumPy's bits."""
    a = acc_data(np.float64, (700_000,), seed=4)
    a[400_000] = np.nan
    x = nt.asarray(a)
    for func in ('maximum', 'fmin', 'subtract'):
        same(lambda: getattr(np, func).accumulate(a), lambda: getattr(nt, func).accumulate(x))
    b = acc_data(np.float64, (1100, 700), seed=5)
    y = nt.asarray(b)
    for func in ('maximum', 'fmax', 'subtract', 'logical_or'):
        for axis in (0, 1):
            same(lambda: getattr(np, func).accumulate(b, axis=axis),
                 lambda: getattr(nt, func).accumulate(y, axis=axis))
    c = acc_data(np.int64, (3, 200_000), seed=6)
    z = nt.asarray(c)
    for func in ('bitwise_xor', 'minimum', 'subtract'):
        for axis in (0, 1):
            same(lambda: getattr(np, func).accumulate(c, axis=axis),
                 lambda: getattr(nt, func).accumulate(z, axis=axis))
    o = nt.zeros((3, 200_000), np.float32)
    same(lambda: np.add.accumulate(c, axis=1, out=np.zeros((3, 200_000), np.float32)),
         lambda: nt.add.accumulate(z, axis=1, out=o))


@pytest.mark.usefixtures("native_only")
@pytest.mark.parametrize("ufunc", ['add', 'multiply', 'maximum', 'subtract', 'logical_and'])
def test_accumulate_wrong_size_out_1d(ufunc):
    """A 1-d accumulate without casts into an out= of another shape: NumPy's
    own check's ValueError and wording, with no fallback (NumPy 2.4 crashes
    on a 0-d out=; ndtile raises the same error for it)."""
    u, un = getattr(nt, ufunc), getattr(np, ufunc)
    msg = "provided out is the wrong size for the accumulation."
    dt = bool if ufunc == 'logical_and' else np.float64
    a = np.arange(1.0, 7.0).astype(dt)
    for shape in [(1,), (2,), (3,), (6, 1), (1, 6), (2, 3)]:
        with pytest.raises(ValueError) as e_np:
            un.accumulate(a, out=np.zeros(shape, dt))
        assert str(e_np.value) == msg
        with pytest.raises(ValueError) as e_nt:
            u.accumulate(nt.asarray(a), out=nt.zeros(shape, dt))
        assert str(e_nt.value) == msg
    for n in (0, 1, 6):
        with pytest.raises(ValueError, match="wrong size for the accumulation"):
            u.accumulate(nt.ones(n, dt), out=nt.zeros((), dt))
