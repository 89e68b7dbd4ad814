"""partition/argpartition, searchsorted, unique*, isin, bincount, digitize,
histogram/histogram2d/histogramdd and (nan)percentile/(nan)quantile against
NumPy: dtypes, many tiles (4096-byte tiles in tests), NaNs, strided and
negative-step views, 0-d and empty arrays, and NumPy's errors. Every call
runs with NDTILE_FALLBACK=error, so a fallback to NumPy fails the test."""
import warnings

import numpy as np
import pytest

import ndtile as nt
from _helpers import DTYPES, NAMES, make, assert_same, check_same_error, for_workers

REAL = [d for d in DTYPES if d.kind != 'c']


pytestmark = pytest.mark.usefixtures("native_only")


def data(dtype, shape, seed=0, nan=True):
    """Many duplicates; NaNs and -0.0 among floats and complex."""
    a = make(dtype, shape, seed=seed, lo=-20, hi=20)
    dt = np.dtype(dtype)
    if dt.kind in 'fc' and a.size:
        r = np.random.default_rng(seed + 1).random(shape)
        a = np.round(np.array(a))
        if nan:
            if dt.kind == 'f':
                a[r < 0.05] = np.nan
            else:
                a.real[r < 0.05] = np.nan
                a.imag[(r >= 0.05) & (r < 0.08)] = np.nan
        a[(r >= 0.1) & (r < 0.15)] = -0.0
    return np.asarray(a).astype(dt)


def check_partition(res, idx, a, kth, axis):
    """res (partition) and idx (argpartition) satisfy NumPy's contract."""
    if axis is None:
        a, axis = a.ravel(), -1
    s = np.sort(a, axis=axis)
    p = np.asarray(res)
    assert p.dtype == a.dtype and p.shape == a.shape
    i = np.asarray(idx)
    assert i.dtype == np.intp and i.shape == a.shape
    pa = np.take_along_axis(a, i, axis=axis)
    pm, sm, pam = (np.moveaxis(x, axis, -1) for x in (p, s, pa))
    n = sm.shape[-1]
    for k in np.atleast_1d(kth):
        k = int(k) % n
        for part in (pm, pam):
            # the kth element is the sorted one; each side holds the sorted sides
            np.testing.assert_array_equal(part[..., k], sm[..., k])
            np.testing.assert_array_equal(np.sort(part[..., :k], -1), sm[..., :k])
            np.testing.assert_array_equal(np.sort(part[..., k + 1:], -1), sm[..., k + 1:])


@pytest.mark.parametrize("dt", NAMES)
def test_partition_dtypes(dt):
    a = data(dt, (33, 47), seed=3)
    x = nt.asarray(a)
    for axis, kth in ((-1, 5), (0, -1), (1, [0, 46, 20, 20]), (None, 800), (0, [3, -3])):
        check_partition(nt.partition(x, kth, axis=axis), nt.argpartition(x, kth, axis=axis),
                        a, kth, axis)


@pytest.mark.parametrize("dt", ['float64', 'int32', 'complex64'])
def test_partition_long_lines_and_views(dt):
    a = data(dt, (5000,), seed=4)
    x = nt.asarray(a)
    for kth in (0, 2500, 4999, -7, list(range(0, 5000, 97))):
        check_partition(nt.partition(x, kth), nt.argpartition(x, kth), a, kth, -1)
    b = data(dt, (40, 300), seed=5)
    y = nt.asarray(b)[::-3, ::-2]
    check_partition(nt.partition(y, 7, axis=0), nt.argpartition(y, 7, axis=0), b[::-3, ::-2],
                    7, 0)
    check_partition(nt.partition(y.T, 10), nt.argpartition(y.T, 10),
                    b[::-3, ::-2].T, 10, -1)


def test_partition_methods_and_edges():
    a = data('float64', (20, 30), seed=6)
    x = nt.asarray(a)
    y = x.copy()
    y.partition(4)
    check_partition(y, x.argpartition(4), a, 4, -1)
    check_partition(nt.partition(nt.asarray(np.float64(3)), 0, axis=None),
                    nt.argpartition(nt.asarray(np.float64(3)), 0), np.float64(3), 0, None)
    assert_same(nt.argpartition(nt.asarray(5), 0), np.argpartition(np.array(5), 0))
    e = nt.zeros((0, 4))
    assert_same(nt.partition(e, 2), np.partition(np.zeros((0, 4)), 2))
    # np.partition on an ndtile array dispatches here
    check_partition(np.partition(x, 3), np.argpartition(x, 3), a, 3, -1)
    for kth, axis in ((30, -1), (-31, -1), (1.5, -1), ([[1]], -1), ([], -1), (0, 2)):
        raised, _ = check_same_error(lambda: nt.partition(x, kth, axis=axis),
                                     lambda: np.partition(a, kth, axis=axis))
        assert raised
    assert check_same_error(lambda: nt.partition(x, 1, kind='quick'),
                            lambda: np.partition(a, 1, kind='quick'))[0]
    assert check_same_error(lambda: nt.partition(nt.asarray(5), 0),
                            lambda: np.partition(np.array(5), 0))[0]


@pytest.mark.parametrize("dt", NAMES)
def test_searchsorted_dtypes(dt):
    a = np.sort(data(dt, (900,), seed=7))
    v = data(dt, (31, 40), seed=8)
    x, y = nt.asarray(a), nt.asarray(v)
    for side in ('left', 'right'):
        assert_same(nt.searchsorted(x, y, side=side), np.searchsorted(a, v, side=side))
        assert_same(x.searchsorted(y[::-2, 3:], side), a.searchsorted(v[::-2, 3:], side))


def test_searchsorted_sorter_scalars_promotion():
    a = data('float64', (1000,), seed=9)
    srt = np.argsort(a, kind='stable')
    x = nt.asarray(a)
    v = np.array([-30.0, -3.0, 0.0, 2.5, np.nan, 30.0])
    assert_same(nt.searchsorted(x, v, sorter=nt.asarray(srt)), np.searchsorted(a, v, sorter=srt))
    assert_same(nt.searchsorted(x[srt[::-1]][::-1], 2.0), np.searchsorted(a[srt], 2.0))
    ai = np.arange(0, 3000, 3, dtype=np.int16)
    xi = nt.asarray(ai)
    assert_same(nt.searchsorted(xi, 7), np.searchsorted(ai, 7))
    assert_same(nt.searchsorted(xi, [7.5, 100000]), np.searchsorted(ai, [7.5, 100000]))
    assert_same(nt.searchsorted(xi, nt.asarray(np.int64(9))), np.searchsorted(ai, np.int64(9)))
    assert_same(nt.searchsorted(nt.zeros(0), [1.0, 2.0]), np.searchsorted(np.zeros(0), [1., 2.]))
    assert_same(nt.searchsorted(xi, np.zeros((2, 0))), np.searchsorted(ai, np.zeros((2, 0))))
    for args, kw in (((np.ones((2, 2)), 1), {}), ((np.array(1.0), 1), {}),
                     ((ai, 1), dict(side='x')), ((ai, 1), dict(side='RIGHT')),
                     ((ai, 1), dict(sorter=[0, 1]))):
        nargs = tuple(nt.asarray(q) if isinstance(q, np.ndarray) else q for q in args)
        assert check_same_error(lambda: nt.searchsorted(*nargs, **kw),
                                lambda: np.searchsorted(*args, **kw))[0]


@pytest.mark.parametrize("dt", NAMES)
def test_unique_dtypes(dt):
    a = data(dt, (37, 61), seed=10)
    x = nt.asarray(a)
    assert_same(nt.unique(x), np.unique(a))
    got = nt.unique(x[::-1, ::2], return_index=True, return_inverse=True, return_counts=True)
    exp = np.unique(a[::-1, ::2], return_index=True, return_inverse=True, return_counts=True)
    assert_same(got, exp)


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_unique_complex_nan_is_the_first_in_input_order(dt):
    # NumPy 2.4's unique without indices or counts hashes: of the complex
    # values with a NaN (one value under equal_nan) it keeps the first of
    # the input, not the first in sorted order (nan-infj before nan+infj),
    # which it keeps when asked for counts or indices. Compared bit for bit:
    # every NaN compares equal, so a value comparison cannot see it.
    rng = np.random.default_rng(5)
    n = 100_000
    a = (rng.integers(-3, 4, n) + 1j * rng.integers(-3, 4, n)).astype(dt)
    nans = [complex(np.nan, np.inf), complex(np.nan, -np.inf), complex(1, np.nan),
            complex(np.nan, -2), complex(np.nan, np.nan)]
    for first in range(len(nans)):
        b = a.copy()
        order = nans[first:] + nans[:first]
        for k, v in enumerate(order):
            b[50_000 + 7 * k] = v
        x = nt.asarray(b)
        for kw in ({}, {"return_counts": True}, {"return_index": True},
                   {"return_inverse": True}, {"equal_nan": False}):
            got, exp = nt.unique(x[::-1] if first == 2 else x, **kw), \
                np.unique(b[::-1] if first == 2 else b, **kw)
            got = got[0] if isinstance(got, tuple) else got
            exp = exp[0] if isinstance(exp, tuple) else exp
            got = np.asarray(got)
            assert got.dtype == exp.dtype and got.shape == exp.shape, (kw, got, exp)
            assert got.tobytes() == exp.tobytes(), (first, kw, got[-3:], exp[-3:])


@pytest.mark.parametrize("n", [9, 40001])
def test_unique_axis_of_a_1d_array(n, request):
    """unique(a 1-d array, axis=0 or -1) is unique of its values, equal_nan
    included, as NumPy (ndtile took NaN rows as never equal: [0, nan, nan]
    for [nan, 0, 0, nan]); an axis of another type or beyond raises as in
    NumPy."""
    if n > 32768:
        request.getfixturevalue("default_settings")
    a = (np.arange(n) % 5).astype(np.float64)
    a[::4] = np.nan
    x = nt.asarray(a)
    for ax in (0, -1):
        for en in (True, False):
            for kw in ({}, dict(return_index=True, return_inverse=True, return_counts=True)):
                assert_same(nt.unique(x, axis=ax, equal_nan=en, **kw),
                            np.unique(a, axis=ax, equal_nan=en, **kw))
        assert_same(nt.unique(x[::-3], axis=ax), np.unique(a[::-3], axis=ax))
    for ax in (0.0, 1, -2):
        assert check_same_error(lambda: nt.unique(x, axis=ax), lambda: np.unique(a, axis=ax))[0]
    with pytest.raises(TypeError, match="integer argument expected"):
        nt.unique(x, axis=0.0)


def test_unique_variants():
    a = data('float64', (3000,), seed=11)
    x = nt.asarray(a)
    for eq in (True, False):
        assert_same(nt.unique(x, return_counts=True, equal_nan=eq),
                    np.unique(a, return_counts=True, equal_nan=eq))
    c = data('complex128', (500,), seed=12)
    assert_same(nt.unique(nt.asarray(c), return_inverse=True),
                np.unique(c, return_inverse=True))
    m = data('int16', (20, 30), seed=13)
    y = nt.asarray(m)
    # unique_values' order is unspecified (NumPy 2.4 hashes)
    assert_same(nt.sort(nt.unique_values(y)), np.sort(np.unique_values(m)))
    for f in ('unique_counts', 'unique_inverse', 'unique_all'):
        got, exp = getattr(nt, f)(y), getattr(np, f)(m)
        assert type(got).__name__ == type(exp).__name__
        assert_same(tuple(got), tuple(exp))
    g, e = nt.unique_all(nt.asarray(a)), np.unique_all(a)     # NaNs stay apart
    assert_same(tuple(g), tuple(e))
    assert_same(nt.unique(nt.asarray(np.int8(4)), return_index=True, return_inverse=True),
                np.unique(np.array(np.int8(4)), return_index=True, return_inverse=True))
    z = np.zeros((2, 0))
    assert_same(nt.unique(nt.asarray(z), return_index=True, return_inverse=True,
                          return_counts=True),
                np.unique(z, return_index=True, return_inverse=True, return_counts=True))
    assert_same(np.unique(y), np.unique(m))


@pytest.mark.parametrize("dt", NAMES)
def test_isin_dtypes(dt):
    a = data(dt, (40, 70), seed=14)
    t = data(dt, (300,), seed=15)
    x, y = nt.asarray(a), nt.asarray(t)
    assert_same(nt.isin(x, y), np.isin(a, t))
    assert_same(nt.isin(x[::-3], y[::2], invert=True), np.isin(a[::-3], t[::2], invert=True))


def test_isin_variants():
    a = np.arange(-50, 3000)
    x = nt.asarray(a)
    for t in ([1, 5, 2999, -50], np.array([2.5, 7.0]), [], np.array([], np.int8)):
        assert_same(nt.isin(x, t), np.isin(a, t))
        assert_same(nt.isin(x, t, invert=True, assume_unique=True),
                    np.isin(a, t, invert=True, assume_unique=True))
    assert_same(nt.isin(nt.asarray(3), [3]), np.isin(3, [3]))
    assert_same(nt.isin(x, [3, 4], kind='table'), np.isin(a, [3, 4], kind='table'))
    assert_same(nt.isin(x, [3, 4], kind='sort'), np.isin(a, [3, 4], kind='sort'))
    assert_same(np.isin(x, [3]), np.isin(a, [3]))
    for kw in (dict(kind='x'),):
        assert check_same_error(lambda: nt.isin(x, [1], **kw), lambda: np.isin(a, [1], **kw))[0]
    f = a.astype(float)
    assert check_same_error(lambda: nt.isin(nt.asarray(f), [1.0], kind='table'),
                            lambda: np.isin(f, [1.0], kind='table'))[0]


def test_isin_table_range_beyond_the_test_dtype():
    """kind='table' needs the test values' range in their own dtype: NumPy
    raises RuntimeError beyond it (ndtile made a presence table of 2**63
    entries: MemoryError), and kind=None sorts instead."""
    a = np.arange(-5, 40000)
    for dt in (np.int8, np.int32, np.int64):
        info = np.iinfo(dt)
        t = np.array([-1, info.max, 7], dtype=dt)
        e = a.astype(dt) if dt != np.int8 else (a % 200 - 100).astype(np.int16)
        x, y = nt.asarray(e), nt.asarray(t)
        assert check_same_error(lambda: nt.isin(x, y, kind='table'),
                                lambda: np.isin(e, t, kind='table'))[0]
        with pytest.raises(RuntimeError, match="exceed the maximum"):
            nt.isin(x, y, kind='table')
        assert_same(nt.isin(x, y), np.isin(e, t))
        assert_same(nt.isin(x[::-3], y, invert=True), np.isin(e[::-3], t, invert=True))
    # int8 test values [-128, 127] span 255 > 127: table refused, sort agrees
    e, t = np.array([0, 0, 1, 1, -128], np.int16), np.array([-128, 0, 127], np.int8)
    assert check_same_error(lambda: nt.isin(nt.asarray(e), nt.asarray(t), kind='table'),
                            lambda: np.isin(e, t, kind='table'))[0]
    assert_same(nt.isin(nt.asarray(e), nt.asarray(t)), np.isin(e, t))


@pytest.mark.parametrize("dt", ['bool', 'int8', 'uint16', 'int32', 'int64', 'uint32'])
def test_bincount(dt):
    a = make(dt, (5000,), seed=16, lo=0, hi=60)
    x = nt.asarray(a)
    assert_same(nt.bincount(x), np.bincount(a))
    assert_same(nt.bincount(x[::-7], minlength=100), np.bincount(a[::-7], minlength=100))
    w = make('float64', (5000,), seed=17)
    assert_same(nt.bincount(x, weights=nt.asarray(w)), np.bincount(a, weights=w), rtol=1e-12)
    wi = make('int32', (5000,), seed=18)
    assert_same(nt.bincount(x, wi), np.bincount(a, wi))
    assert_same(np.bincount(x), np.bincount(a))


def test_bincount_edges_and_errors():
    assert_same(nt.bincount([]), np.bincount([]))
    with pytest.warns(DeprecationWarning):
        assert_same(nt.bincount([1.0, 3.0]), np.bincount(np.array([1, 3])))
    assert_same(nt.bincount(nt.zeros(0, dtype=np.int64), minlength=3),
                np.bincount(np.zeros(0, np.int64), minlength=3))
    for args, kw in ((([1, -1],), {}), ((np.array(3),), {}), ((np.ones((2, 2), int),), {}),
                     (([1, 2],), dict(weights=[1.0])), (([1, 2],), dict(minlength=-1)),
                     (([1, 2],), dict(weights=[1j, 2j]))):
        nargs = tuple(nt.asarray(q) if isinstance(q, np.ndarray) else q for q in args)
        assert check_same_error(lambda: nt.bincount(*nargs, **kw),
                                lambda: np.bincount(*args, **kw))[0]
    # the negative value and the largest one in late blocks of many
    late = np.arange(30000) % 50
    late[-3], late[-700] = -2, 90
    assert check_same_error(lambda: nt.bincount(nt.asarray(late)), lambda: np.bincount(late))[0]
    late[-3] = 4
    assert_same(nt.bincount(nt.asarray(late)), np.bincount(late))
    u = np.array([1, 7, 7], np.uint64)
    assert_same(nt.bincount(nt.asarray(u)), np.bincount(u))
    with pytest.raises(ValueError, match="'list' argument must have no negative elements"):
        nt.bincount(nt.asarray(np.arange(-1, 3000)))


@pytest.mark.parametrize("dt", ['int8', 'int64', 'uint64', 'bool'])
def test_bincount_empty_input_ignores_weights(dt):
    # an empty input gives minlength zeros of intp before NumPy reads the
    # weights: their dtype (float, complex) and length are not looked at
    # (ndtile gave float64 zeros for float weights and raised for a length
    # mismatch; fuzz seeds 20251, 21437)
    x = np.zeros((8, 0), dt)[0]
    for w in (None, np.zeros(0), np.zeros(0, np.int64), np.ones(3), np.array([1j]),
              np.zeros((4, 2))[:0, 1]):
        for ml in (0, 3):
            nw = None if w is None else nt.asarray(w)
            exp = np.bincount(x, w, minlength=ml)
            assert_same(nt.bincount(nt.asarray(x), nw, minlength=ml), exp)
            assert_same(nt.bincount(nt.asarray(np.zeros((3, 4), dt))[1:1, 0], nw, minlength=ml),
                        exp)
    assert check_same_error(lambda: nt.bincount(nt.asarray(x), minlength=-1),
                            lambda: np.bincount(x, minlength=-1))[0]


def test_bincount_float_weights_same_bits_any_workers():
    a = make('int64', (20000,), seed=19, lo=0, hi=9)
    w = make('float64', (20000,), seed=20)
    x, y = nt.asarray(a), nt.asarray(w)
    res = for_workers(lambda: np.asarray(nt.bincount(x, y)))
    assert res[0].tobytes() == res[1].tobytes()


@pytest.mark.parametrize("dt", ['uint8', 'int32', 'int64'])
def test_bincount_minlength_one_pass(dt):
    """With minlength at least max + 1, bincount counts and finds the bounds
    in one pass; past it, a second pass counts into max + 1 bins. Both give
    NumPy's values, and float weights the same bits either way (the same
    blocks, added in the same order)."""
    a = make(dt, (30001,), seed=21, lo=0, hi=80)
    a[-5] = 99
    x = nt.asarray(a)
    w = make('float64', (30001,), seed=22)
    w32 = (np.arange(30001) % 7).astype(np.float32)     # whole photons, as in the X-ray job
    for ml in (100, 101, 250, 7):                        # exactly max + 1, more, too few
        assert_same(nt.bincount(x, minlength=ml), np.bincount(a, minlength=ml))
        assert_same(nt.bincount(x[::-3], minlength=ml), np.bincount(a[::-3], minlength=ml))
        assert_same(nt.bincount(x, nt.asarray(w32), ml), np.bincount(a, w32, ml))
        got = nt.bincount(x, nt.asarray(w), ml)
        assert_same(got, np.bincount(a, w, ml), rtol=1e-12)
        got = np.asarray(got)
        two_pass = np.asarray(nt.bincount(x, nt.asarray(w)))
        n = min(len(got), len(two_pass))
        assert got[:n].tobytes() == two_pass[:n].tobytes()
    bad = a.astype(np.int64)
    bad[-2] = -1
    for ml in (3, 200):
        assert check_same_error(lambda: nt.bincount(nt.asarray(bad), minlength=ml),
                                lambda: np.bincount(bad, minlength=ml))[0]


@pytest.mark.parametrize("dt", ['int16', 'uint8', 'float32', 'float64'])
def test_digitize(dt):
    a = data(dt, (60, 70), seed=21)
    x = nt.asarray(a)
    bins = np.array([-15, -3, 0, 0, 2, 9, 19], dtype=dt if dt != 'uint8' else 'int64')
    if dt == 'uint8':
        bins = np.abs(bins)
        bins.sort()
    for b in (bins, bins[::-1]):
        for right in (False, True):
            assert_same(nt.digitize(x, b, right=right), np.digitize(a, b, right=right))
    assert_same(nt.digitize(x[::-1, ::3], nt.asarray(bins)), np.digitize(a[::-1, ::3], bins))
    assert_same(nt.digitize(2.5, [1, 2, 3]), np.digitize(2.5, [1, 2, 3]))
    assert_same(nt.digitize(x, []), np.digitize(a, []))
    assert_same(np.digitize(x, bins), np.digitize(a, bins))
    nb = np.array([1.0, 2.0, np.nan, np.nan])      # NaNs do not break monotonicity
    assert_same(nt.digitize(x, nb), np.digitize(a, nb))
    assert_same(nt.digitize(x, nb[::-1], right=True), np.digitize(a, nb[::-1], right=True))
    for xx, bb in ((2, [[1, 2]]), (2, 1), (2, [1, 3, 2]), (1j, [1, 3]), (2, [1j, 2j])):
        assert check_same_error(lambda: nt.digitize(xx, bb), lambda: np.digitize(xx, bb))[0]


@pytest.mark.parametrize("dt", REAL[1:])
def test_histogram_uniform(dt):
    a = data(dt, (3000,), seed=22, nan=False)
    x = nt.asarray(a)
    for bins in (1, 10, 37):
        assert_same(nt.histogram(x, bins), np.histogram(a, bins))
    assert_same(nt.histogram(x[::-3], 7, range=(-5, 12.5)), np.histogram(a[::-3], 7,
                                                                         range=(-5, 12.5)))
    w = make('float32', (3000,), seed=23)
    assert_same(nt.histogram(x, 9, weights=nt.asarray(w)), np.histogram(a, 9, weights=w),
                rtol=1e-5)
    assert_same(nt.histogram(x, 9, density=True), np.histogram(a, 9, density=True), rtol=1e-12)


def test_histogram_edges_rounding():
    # values on and near bin edges: NumPy's rounding fix-up
    edges = np.linspace(0.1, 0.7, 13)
    a = np.concatenate([edges, np.nextafter(edges, 0), np.nextafter(edges, 1),
                        np.linspace(0, 1, 2000)])
    for dt in ('float64', 'float32'):
        b = a.astype(dt)
        x = nt.asarray(b)
        assert_same(nt.histogram(x, 12, range=(0.1, 0.7)), np.histogram(b, 12, range=(0.1, 0.7)))
        assert_same(nt.histogram(x, 12), np.histogram(b, 12))
        assert_same(nt.histogram(x, 12, range=(np.float32(0.1), 0.7)),
                    np.histogram(b, 12, range=(np.float32(0.1), 0.7)))
    u = np.arange(0, 3000, 7, dtype=np.uint64)
    assert_same(nt.histogram(nt.asarray(u), 9, range=(-3, 2000)),
                np.histogram(u, 9, range=(-3, 2000)))
    c = np.full(50, 3.0)
    assert_same(nt.histogram(nt.asarray(c), 4), np.histogram(c, 4))
    assert_same(nt.histogram(nt.zeros(0), 3), np.histogram(np.zeros(0), 3))
    assert_same(np.histogram(nt.asarray(a), 5), np.histogram(a, 5))


def test_histogram_explicit_edges():
    a = data('float64', (4000,), seed=24)
    x = nt.asarray(a)
    for e in ([-10, -2, 0, 0, 3, 15], np.array([-20, 20]), np.arange(-21, 21, 0.5), [0, 1]):
        assert_same(nt.histogram(x, e), np.histogram(a, e))
    w = make('float64', (4000,), seed=25)
    e = [-10, -2.5, 0, 3, 15]
    assert_same(nt.histogram(x, e, weights=nt.asarray(w)), np.histogram(a, e, weights=w),
                rtol=1e-12)
    assert_same(nt.histogram(x, e, density=True), np.histogram(a, e, density=True), rtol=1e-12)
    ai = make('int32', (3000,), seed=26)
    assert_same(nt.histogram(nt.asarray(ai), [-3, 0, 4.5, 10]), np.histogram(ai, [-3, 0, 4.5, 10]))


def test_histogram_errors():
    a = np.array([1.0, 2.0])
    x = nt.asarray(a)
    for kw in (dict(bins=0), dict(bins=2.5), dict(bins=[[1, 2]]), dict(bins=[3, 1]),
               dict(weights=[1.0]), dict(range=(3, 1)), dict(range=(0, np.inf))):
        nkw = {k: (nt.asarray(v) if k == 'weights' else v) for k, v in kw.items()}
        assert check_same_error(lambda: nt.histogram(x, **nkw), lambda: np.histogram(a, **kw))[0]
    n = np.array([1.0, np.nan])
    assert check_same_error(lambda: nt.histogram(nt.asarray(n)), lambda: np.histogram(n))[0]
    # a range too narrow for distinct edges: NumPy's 'Too many bins' ValueError
    t = np.tile([1.0, 1.0 + 2e-16], 20000)
    for f in ('histogram', 'histogram_bin_edges'):
        for b in (10, 2):
            with pytest.raises(ValueError) as en:
                getattr(np, f)(t, bins=b)
            with pytest.raises(ValueError) as eg:
                getattr(nt, f)(nt.asarray(t), bins=b)
            assert str(eg.value) == str(en.value)
        assert_same(getattr(nt, f)(nt.asarray(t), bins=1), getattr(np, f)(t, bins=1))
    t32 = np.array([1.0, 1.0 + 1e-7], np.float32)
    assert check_same_error(lambda: nt.histogram(nt.asarray(t32), bins=4),
                            lambda: np.histogram(t32, bins=4))[0]


def test_histogram2d_dd():
    rng = np.random.default_rng(27)
    xs, ys = rng.random(3000) * 4 - 2, rng.normal(size=3000)
    w = rng.random(3000)
    x, y = nt.asarray(xs), nt.asarray(ys)
    assert_same(nt.histogram2d(x, y), np.histogram2d(xs, ys))
    assert_same(nt.histogram2d(x, y, bins=(5, [-3, -1, 0, 0.5, 3]), density=True),
                np.histogram2d(xs, ys, bins=(5, [-3, -1, 0, 0.5, 3]), density=True), rtol=1e-12)
    assert_same(nt.histogram2d(x, y, bins=4, range=[[-1, 1], [0, 2]], weights=nt.asarray(w)),
                np.histogram2d(xs, ys, bins=4, range=[[-1, 1], [0, 2]], weights=w), rtol=1e-12)
    s = np.stack([xs, ys, xs * ys], axis=1)
    hn, en = np.histogramdd(s, bins=(3, 4, 5))
    hg, eg = nt.histogramdd(nt.asarray(s), bins=(3, 4, 5))
    assert_same(hg, hn)
    assert len(eg) == 3 and all(np.array_equal(np.asarray(g), e) for g, e in zip(eg, en))
    hn, en = np.histogramdd(xs, bins=6)
    hg, eg = nt.histogramdd(x, bins=6)
    assert_same(hg, hn)
    s32 = s.astype(np.float32)
    hn, en = np.histogramdd(s32[::-2], bins=7, density=True)
    hg, eg = nt.histogramdd(nt.asarray(s32)[::-2], bins=7, density=True)
    assert_same(hg, hn, rtol=1e-12)
    for kw in (dict(bins=(2, 3)), dict(range=[(0, 1)]), dict(bins=(0, 2, 2)),
               dict(bins=(2, [3, 1], 2))):
        assert check_same_error(lambda: nt.histogramdd(nt.asarray(s), **kw),
                                lambda: np.histogramdd(s, **kw))[0]


METHODS = ['linear', 'lower', 'higher', 'nearest', 'midpoint', 'inverted_cdf',
           'averaged_inverted_cdf', 'closest_observation', 'interpolated_inverted_cdf', 'hazen',
           'weibull', 'median_unbiased', 'normal_unbiased']


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dt", ['int16', 'uint8', 'float32', 'float64'])
def test_quantile_methods(dt, method):
    a = data(dt, (30, 41), seed=28, nan=False)
    x = nt.asarray(a)
    for q in (0.5, [0.0, 0.25, 1.0], np.float32(0.3), np.array([[0.1], [0.9]])):
        if np.ndim(q) > 1 and method != 'linear':
            continue
        assert_same(nt.quantile(x, q, method=method), np.quantile(a, q, method=method))
    assert_same(nt.quantile(x, [0.3, 0.7], axis=0, method=method),
                np.quantile(a, [0.3, 0.7], axis=0, method=method))
    assert_same(nt.percentile(x[::-1, ::2], 37.5, axis=1, method=method, keepdims=True),
                np.percentile(a[::-1, ::2], 37.5, axis=1, method=method, keepdims=True))
    assert_same(nt.nanpercentile(x, [5, 95], axis=(0, 1), method=method),
                np.nanpercentile(a, [5, 95], axis=(0, 1), method=method))


@pytest.mark.parametrize("dt", ['float32', 'float64'])
def test_quantile_nans(dt):
    a = data(dt, (25, 160), seed=29)
    a[3] = np.nan                                  # a line of NaNs only
    x = nt.asarray(a)
    for method in METHODS:
        for axis in (None, 1, 0):
            assert_same(nt.quantile(x, [0.2, 0.5], axis=axis, method=method),
                        np.quantile(a, [0.2, 0.5], axis=axis, method=method))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                exp = np.nanquantile(a, 0.4, axis=axis, method=method)
                got = nt.nanquantile(x, 0.4, axis=axis, method=method)
            assert_same(got, exp)
    assert_same(nt.nanpercentile(x[:3], [10, 90], axis=1, keepdims=True),
                np.nanpercentile(a[:3], [10, 90], axis=1, keepdims=True))
    # a 0-d result of a line with a NaN, and an all-NaN first line, keep the
    # input's dtype as in NumPy
    assert_same(nt.quantile(x, np.float64(0.3)), np.quantile(a, np.float64(0.3)))
    assert_same(nt.quantile(x, np.float64(0.3), keepdims=True),
                np.quantile(a, np.float64(0.3), keepdims=True))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert_same(nt.nanquantile(x[3:], [0.5], axis=1), np.nanquantile(a[3:], [0.5], axis=1))


def test_quantile_shapes_out_and_errors():
    a = data('float64', (4, 5, 6), seed=30, nan=False)
    x = nt.asarray(a)
    for axis in (None, 0, -1, (0, 2), (2, 1)):
        for keep in (False, True):
            assert_same(nt.quantile(x, [0.1, 0.6], axis=axis, keepdims=keep),
                        np.quantile(a, [0.1, 0.6], axis=axis, keepdims=keep))
    assert_same(nt.quantile(x, 1, axis=1), np.quantile(a, 1, axis=1))
    assert_same(nt.percentile(nt.asarray(np.float64(2)), 50),
                np.percentile(np.float64(2), 50))
    big = data('float64', (5000,), seed=31, nan=False)
    assert_same(nt.percentile(nt.asarray(big), [1, 50, 99.9]), np.percentile(big, [1, 50, 99.9]))
    out = nt.zeros((2, 5))
    r = nt.quantile(x, [0.2, 0.8], axis=(0, 2), out=out)
    assert r is out
    assert_same(out, np.quantile(a, [0.2, 0.8], axis=(0, 2)))
    assert_same(np.quantile(x, 0.5), np.quantile(a, 0.5))
    for f, q, msg in ((nt.quantile, 1.5, r"Quantiles must be in the range \[0, 1\]"),
                      (nt.percentile, [-1, 50], r"Percentiles must be in the range \[0, 100\]"),
                      (nt.nanpercentile, 101, r"Percentiles must be in the range \[0, 100\]"),
                      (nt.nanquantile, -0.1, r"Quantiles must be in the range \[0, 1\]")):
        with pytest.raises(ValueError, match=msg):
            f(x, q)
    with pytest.raises(TypeError):
        nt.quantile(nt.asarray(np.ones(3, complex)), 0.5)
    with pytest.raises(ValueError):
        nt.quantile(x, 0.5, method='foo')
    with pytest.raises(np.exceptions.AxisError):
        nt.quantile(x, 0.5, axis=3)
