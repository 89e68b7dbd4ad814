"""sort / argsort (and the ndarray methods) against NumPy: every dtype, axes
-1 / 0 / None, 0-d and empty arrays, many tiles (4096-byte tiles in tests),
strided and negative-step views, NaN placement (real and complex), stability
(ties and -0.0 / 0.0 keep their order) and NumPy's errors."""
import warnings

import numpy as np
import pytest

import ndtile as nt
from _helpers import DTYPES, NAMES, make, assert_same


def data(dtype, shape, seed=0):
    """Many duplicates; NaNs and -0.0 among floats and complex."""
    a = make(dtype, shape, seed=seed, lo=-3, hi=3)
    dt = np.dtype(dtype)
    if dt.kind in 'fc' and a.size:
        rng = np.random.default_rng(seed + 1)
        r = rng.random(shape)
        a = np.array(a)
        if dt.kind == 'f':
            a = np.round(a)
            a[r < 0.1] = np.nan
            a[(r >= 0.1) & (r < 0.2)] = -0.0
        else:
            a = np.round(a.real) + 1j * np.round(a.imag)
            a = a.astype(dt)
            a.real[r < 0.07] = np.nan
            a.imag[(r >= 0.07) & (r < 0.14)] = np.nan
            a.real[(r >= 0.14) & (r < 0.2)] = -0.0
    return np.asarray(a).astype(dt)


def same_bits(got, exp):
    """Values and the sign of zeros (stability keeps -0.0 where it was)."""
    g = np.asarray(got)
    assert_same(got, exp)
    if exp.dtype.kind == 'f':
        assert np.array_equal(np.signbit(g), np.signbit(exp))
    elif exp.dtype.kind == 'c':
        assert np.array_equal(np.signbit(g.real), np.signbit(exp.real))
        assert np.array_equal(np.signbit(g.imag), np.signbit(exp.imag))


SHAPES = [(0,), (1,), (7,), (3, 4), (2, 0, 3), (1500,), (33, 47), (4, 5, 6)]


@pytest.mark.parametrize("dtype", DTYPES, ids=NAMES)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_sort_argsort_all_dtypes(dtype, shape):
    a = data(dtype, shape)
    x = nt.asarray(a)
    axes = [-1, 0, None] + ([1] if len(shape) == 3 else [])
    for axis in axes:
        same_bits(nt.sort(x, axis=axis), np.sort(a, axis=axis, kind='stable'))
        assert_same(nt.argsort(x, axis=axis), np.argsort(a, axis=axis, kind='stable'))


@pytest.mark.parametrize("dtype", DTYPES, ids=NAMES)
def test_zero_d(dtype):
    a = np.asarray(data(dtype, (3,))[1])
    x = nt.asarray(a)
    with pytest.raises(np.exceptions.AxisError, match="axis -1 is out of bounds"):
        nt.sort(x)
    assert_same(nt.sort(x, axis=None), np.sort(a, axis=None))
    assert_same(nt.argsort(x), np.argsort(a))
    assert_same(nt.argsort(x, axis=None), np.argsort(a, axis=None))
    with pytest.raises(np.exceptions.AxisError):
        x.sort()


@pytest.mark.parametrize("dtype", ['int16', 'float32', 'float64', 'complex128', 'uint64'])
def test_views(dtype):
    a = data(dtype, (40, 90), seed=3)
    x = nt.asarray(a)
    views = [(x.T, a.T), (x[::-1, ::-2], a[::-1, ::-2]), (x[3:30:3, 5:], a[3:30:3, 5:]),
             (x[:, 7], a[:, 7]), (x[::-3, 4:60].T, a[::-3, 4:60].T)]
    if np.dtype(dtype).kind == 'c':
        views += [(x.real, a.real), (x.imag[::-1], a.imag[::-1])]
    for v, b in views:
        for axis in (-1, 0, None):
            same_bits(nt.sort(v, axis=axis), np.sort(b, axis=axis, kind='stable'))
            assert_same(nt.argsort(v, axis=axis), np.argsort(b, axis=axis, kind='stable'))


def test_nan_placement():
    a = np.array([np.nan, 1.0, -np.inf, np.nan, np.inf, -0.0, 0.0, -1.0])
    assert_same(nt.sort(nt.asarray(a)), np.sort(a))
    assert_same(nt.argsort(nt.asarray(a)), np.argsort(a, kind='stable'))
    n = np.nan
    c = np.array([complex(n, 0), complex(1, n), complex(1, 2), complex(n, n), complex(0, 5),
                  complex(n, -1), complex(1, -n), complex(-1, 0), complex(1, 1), complex(n, 0)])
    for dt in (np.complex64, np.complex128):
        b = c.astype(dt)
        same_bits(nt.sort(nt.asarray(b)), np.sort(b, kind='stable'))
        assert_same(nt.argsort(nt.asarray(b)), np.argsort(b, kind='stable'))


@pytest.mark.parametrize("kind", [None, 'quicksort', 'mergesort', 'heapsort', 'stable'])
def test_stable_for_every_kind(kind):
    a = np.tile(np.array([2, 0, 1, 0, 2, -0.0, 0.0, 1]), 300)
    x = nt.asarray(a)
    assert_same(nt.argsort(x, kind=kind), np.argsort(a, kind='stable'))
    assert_same(x.argsort(kind=kind), np.argsort(a, kind='stable'))
    same_bits(nt.sort(x, kind=kind), np.sort(a, kind='stable'))
    b = a.reshape(60, 40)
    y = nt.asarray(b)
    assert_same(nt.argsort(y, axis=0, kind=kind), np.argsort(b, axis=0, kind='stable'))


def test_many_tiles_long_line():
    a = data(np.float64, (5000,), seed=7)
    x = nt.asarray(a)
    same_bits(nt.sort(x), np.sort(a, kind='stable'))
    assert_same(nt.argsort(x), np.argsort(a, kind='stable'))
    b = data(np.int32, (2000, 3), seed=8)
    assert_same(nt.argsort(nt.asarray(b), axis=0), np.argsort(b, axis=0, kind='stable'))
    assert_same(nt.sort(nt.asarray(b), axis=None), np.sort(b, axis=None))


@pytest.mark.parametrize("dtype", DTYPES, ids=NAMES)
def test_method_sort_in_place(dtype):
    a = data(dtype, (9, 50), seed=2)
    x = nt.asarray(a)
    b = a.copy()
    x.sort()
    b.sort(kind='stable')
    same_bits(x, b)
    x = nt.asarray(a)
    b = a.copy()
    x.sort(axis=0)
    b.sort(axis=0, kind='stable')
    same_bits(x, b)
    # in place on a view writes into the base
    x = nt.asarray(a)
    b = a.copy()
    x[::2, 10:40].sort(axis=1)
    b[::2, 10:40].sort(axis=1, kind='stable')
    same_bits(x, b)
    assert_same(x.argsort(axis=0), b.argsort(axis=0, kind='stable'))


def test_lists_and_numpy_dispatch_no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert_same(nt.sort([3, 1, 2]), np.array([1, 2, 3]))
        assert_same(nt.argsort([3, 1, 2]), np.array([1, 2, 0]))
        r = np.sort(nt.asarray([3.0, 1.0, 2.0]))
        assert isinstance(r, nt.ndarray)
        assert_same(r, np.array([1.0, 2.0, 3.0]))


def test_errors():
    x = nt.asarray(np.arange(6).reshape(2, 3))
    with pytest.raises(np.exceptions.AxisError, match="axis 2 is out of bounds"):
        nt.sort(x, axis=2)
    with pytest.raises(np.exceptions.AxisError):
        nt.argsort(x, axis=-3)
    with pytest.raises(ValueError, match="sort kind must be one of"):
        nt.sort(x, kind='foo')
    with pytest.raises(ValueError, match="can't be provided at the same time"):
        nt.argsort(x, kind='quicksort', stable=True)
    with pytest.raises(TypeError):
        x.sort(axis=None)
    with pytest.raises(TypeError):
        nt.sort(x, axis=1.5)


@pytest.mark.parametrize("dt", ['bool', 'int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32',
                                'int64', 'uint64', 'float32', 'float64'])
@pytest.mark.parametrize("n", [300, 20000])
def test_long_lines_bitwise_stable(dt, n):
    """Lines long enough for the radix sort: the same bits as NumPy's stable
    sort, with -0.0 and 0.0 in input order, NaNs last with their own bits
    (negative NaNs and payloads too), and the stable argsort."""
    rng = np.random.default_rng(n)
    d = np.dtype(dt)
    if d.kind == 'b':
        x = rng.integers(0, 2, n).astype(bool)
    elif d.kind in 'iu':
        info = np.iinfo(d)
        x = rng.integers(info.min, info.max, n, dtype=d, endpoint=True)
        x[: n // 3] = rng.integers(0, 5, n // 3)
    else:
        x = (rng.standard_normal(n) * 1e3).astype(d)
        for value, share in ((0.0, 10), (-0.0, 10), (np.inf, 20), (-np.inf, 20)):
            x[rng.integers(0, n, n // share)] = value
        u = x.view('u8' if d.itemsize == 8 else 'u4')
        nan = 0x7FF8000000000000 if d.itemsize == 8 else 0x7FC00000
        neg = 0xFFF8000000000001 if d.itemsize == 8 else 0xFFC00001
        u[rng.integers(0, n, n // 20)] = nan + rng.integers(0, 100, n // 20).astype(u.dtype)
        u[rng.integers(0, n, n // 50)] = neg
    got = np.asarray(nt.sort(nt.asarray(x), kind='stable'))
    want = np.sort(x, kind='stable')
    assert got.dtype == want.dtype and got.tobytes() == want.tobytes()
    # the default kind: NumPy's values, and its NaNs' bits (its vectorised
    # quicksort writes the quiet NaN on x86)
    got, want = np.asarray(nt.sort(nt.asarray(x))), np.sort(x)
    assert np.array_equal(got, want, equal_nan=d.kind != 'b')
    if d.kind == 'f':
        assert got[np.isnan(got)].tobytes() == want[np.isnan(want)].tobytes()
    np.testing.assert_array_equal(np.asarray(nt.argsort(nt.asarray(x), kind='stable')),
                                  np.argsort(x, kind='stable'))
    m = x[: (n // 300) * 300].reshape(-1, 300)[:, ::-1]     # strided rows of 300
    assert np.asarray(nt.sort(nt.asarray(m), axis=1, kind='stable')).tobytes() == \
        np.sort(m, axis=1, kind='stable').tobytes()


# ---- lexsort -------------------------------------------------------------------
# Up to 4 keys ndtile runs one stable argsort per key; more keys (an (n, 1)
# array has n) are ranked together and combined into int64 codes: both
# paths, every dtype, NaNs (complex NaN classes too), ties, axes, views.

LEX_SHAPES = [(1,), (2,), (7,), (0,), (3, 6), (4, 0), (0, 3), (2, 3, 5)]


@pytest.mark.parametrize("dtype", DTYPES, ids=NAMES)
@pytest.mark.parametrize("nkeys", [1, 2, 4, 5, 9, 70])
def test_lexsort_all_dtypes(dtype, nkeys):
    with warnings.catch_warnings():
        warnings.simplefilter("error")        # no fallback to NumPy
        for shape in LEX_SHAPES:
            a = data(dtype, (nkeys,) + shape, seed=nkeys)
            for axis in range(-len(shape), len(shape)):
                assert_same(nt.lexsort(nt.asarray(a), axis=axis), np.lexsort(a, axis=axis))
                assert_same(nt.lexsort(tuple(nt.asarray(k) for k in a), axis=axis),
                            np.lexsort(tuple(a), axis=axis))


def test_lexsort_many_keys():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # the fuzzer's case (seed 90004940): many one-element keys
        a = make(np.float64, (200_000, 1))
        assert_same(nt.lexsort(nt.asarray(a)), np.lexsort(a))
        for dt, shape in ((np.float64, (3000, 3)), (np.int64, (600, 40)),
                          (np.complex128, (300, 20)), (np.bool_, (2000, 9)),
                          (np.uint8, (100, 1500)), (np.float32, (7, 1500))):
            a = data(dt, shape, seed=3)
            assert_same(nt.lexsort(nt.asarray(a)), np.lexsort(a))
            assert_same(nt.lexsort(nt.asarray(a)[::-2, 1::3]), np.lexsort(a[::-2, 1::3]))
            assert_same(nt.lexsort(nt.asarray(a).T, axis=0), np.lexsort(a.T, axis=0))
        # integers of a wide range and at the ends of their dtype (ranked by
        # their offsets when they span few values)
        rng = np.random.default_rng(5)
        for dt, lo, hi in ((np.uint64, 2**64 - 6, 2**64 - 1), (np.uint64, 0, 2**64 - 1),
                           (np.int64, -2**63, -2**63 + 4), (np.int64, -2**63, 2**63 - 1),
                           (np.int8, -128, 127), (np.uint16, 0, 65535)):
            for shape in ((6, 3), (6, 7), (9, 40), (5, 300)):
                a = rng.integers(lo, hi, shape, dtype=dt, endpoint=True)
                a[:, 1::2] = a[:, ::2][:, :shape[1] // 2]       # ties
                assert_same(nt.lexsort(nt.asarray(a)), np.lexsort(a))


def test_lexsort_mixed_dtypes_and_0d():
    names = [np.bool_, np.int8, np.float64, np.complex64, np.uint64, np.float32]
    for nkeys in (3, 6, 13):
        for shape in ((11,), (3, 8)):
            ks = [data(names[i % 6], shape, seed=i) for i in range(nkeys)]
            for axis in range(-len(shape), len(shape)):
                assert_same(nt.lexsort([nt.asarray(k) for k in ks], axis=axis),
                            np.lexsort(ks, axis=axis))
    # keys in the other byte order are read into native arrays (no fallback)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for nkeys in (3, 8):
            a = data(np.float64, (nkeys, 9), seed=nkeys).astype('>f8')
            assert_same(nt.lexsort(a), np.lexsort(a))
            assert_same(nt.lexsort(tuple(a.astype('>i4'))), np.lexsort(tuple(a.astype('>i4'))))
    # 0-d keys: index 0 (a NumPy scalar); the rows of a 1-d array are 0-d keys
    z = (np.array(1), np.array(2.5))
    assert_same(nt.lexsort(tuple(nt.asarray(k) for k in z)), np.lexsort(z))
    assert_same(nt.lexsort(nt.asarray(z[1]).reshape(1)), np.lexsort(z[1].reshape(1)))
    assert_same(nt.lexsort(nt.zeros(3)), np.lexsort(np.zeros(3)))
    # strings stay NumPy's (not held in tiles)
    s = (np.array(['b', 'a', 'b']), np.array([2, 1, 1]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.testing.assert_array_equal(np.asarray(nt.lexsort((s[0], nt.asarray(s[1])))),
                                      np.lexsort(s))


def test_lexsort_errors():
    cases = [lambda m: m.lexsort(m.asarray(5.0)),
             lambda m: m.lexsort(m.zeros((0, 3))),
             lambda m: m.lexsort(()),
             lambda m: m.lexsort((m.zeros(3), m.zeros(4))),
             lambda m: m.lexsort((m.zeros(3), m.zeros((1, 3)))),
             lambda m: m.lexsort(m.zeros((6, 3)), axis=1),
             lambda m: m.lexsort(m.zeros((6, 3, 2)), axis=-3),
             lambda m: m.lexsort(m.zeros((6, 3)), axis=1.0),
             lambda m: m.lexsort(m.zeros((6, 3)), axis=None),
             lambda m: m.lexsort((m.asarray(1), m.asarray(2)), axis=5)]
    for fn in cases:
        with pytest.raises(Exception) as en:
            fn(np)
        with pytest.raises(type(en.value)) as eg:
            fn(nt)
        assert str(eg.value) == str(en.value)
