"""Statistics: nanargmax/nanargmin, nanvar/nanstd, cov, corrcoef, gradient
against NumPy, with NDTILE_FALLBACK=error to prove they run natively."""
import warnings

import numpy as np
import pytest

import ndtile as nt
from _helpers import (DTYPES, NAMES, make, assert_same, tol_for, raises_same as errs,
                      for_workers)


pytestmark = pytest.mark.usefixtures("native_only")


def with_nans(dt, shape, seed=0, frac=0.2):
    a = make(dt, shape, seed=seed)
    if np.dtype(dt).kind in 'fc':
        rng = np.random.default_rng(seed + 10)
        a[rng.random(shape) < frac] = np.nan
    return a


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_nanargmax_nanargmin(dt):
    a = with_nans(dt, (30, 70))
    x = nt.asarray(a)
    for f in ('nanargmax', 'nanargmin'):
        for ax in (None, 0, 1, -1):
            assert_same(getattr(nt, f)(x, axis=ax), getattr(np, f)(a, axis=ax))
        assert_same(getattr(nt, f)(x[::-1, ::3], axis=0, keepdims=True),
                    getattr(np, f)(a[::-1, ::3], axis=0, keepdims=True))


def _warned(fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = fn()
    return r, [(x.category, str(x.message)) for x in w]


@pytest.mark.parametrize("n", [30, 40000])
@pytest.mark.parametrize("f", ["nanmin", "nanmax"])
def test_nanmin_nanmax_all_nan_warning(f, n, request):
    """An all-NaN slice gives NaN and NumPy's RuntimeWarning ('All-NaN
    slice encountered' for arrays, '... axis ...' for lists and scalars);
    ndtile gave the NaN silently."""
    if n > 32768:
        request.getfixturevalue("default_settings")
    for dt in (np.float32, np.float64, np.complex128):
        a = make(dt, (3, n))
        a[1] = np.nan
        x = nt.asarray(a)
        for kw in ({}, {'axis': 1}, {'axis': 0}, {'axis': 1, 'keepdims': True}):
            r, w = _warned(lambda: getattr(nt, f)(x, **kw))
            e, we = _warned(lambda: getattr(np, f)(a, **kw))
            assert_same(r, e)
            assert w == we, (kw, w, we)
        for v in (a[1], a[1, ::-7], a[1, :1].reshape(())):
            r, w = _warned(lambda: getattr(nt, f)(nt.asarray(v)))
            e, we = _warned(lambda: getattr(np, f)(v))
            assert w == we and len(we) == 1
        r, w = _warned(lambda: getattr(nt, f)(x, axis=1, initial=3.0))
        e, we = _warned(lambda: getattr(np, f)(a, axis=1, initial=3.0))
        assert w == we
    for v in ([np.nan, np.nan], np.float64(np.nan)):
        r, w = _warned(lambda: getattr(nt, f)(v))
        e, we = _warned(lambda: getattr(np, f)(v))
        assert w == we and len(we) == 1
    r, w = _warned(lambda: getattr(nt, f)(nt.arange(5)))
    assert w == [] and r == (0 if f == 'nanmin' else 4)


@pytest.mark.parametrize("n", [4, 4000])
def test_nan_quantiles_warn_once_per_all_nan_line(n, request):
    """nanmedian, nanquantile and nanpercentile warn 'All-NaN slice
    encountered' once per all-NaN line, as NumPy's per-line loop does (once
    for a full reduction); ndtile warned once per call."""
    if n > 1000:
        request.getfixturevalue("default_settings")
    a = np.full((3, n, 5), np.nan)
    a[0, 0] = 1.0
    a[1, 2, 3] = 2.0
    x = nt.asarray(a)
    for f, args in (('nanmedian', ()), ('nanquantile', (0.3,)), ('nanpercentile', ([30, 60],))):
        for ax in (None, 0, 2, -2, (0, 1), (0, 2)):
            r, w = _warned(lambda: getattr(nt, f)(x, *args, axis=ax))
            e, we = _warned(lambda: getattr(np, f)(a, *args, axis=ax))
            assert w == we, (f, ax, len(w), len(we))
            assert_same(r, e)
        r, w = _warned(lambda: getattr(nt, f)(nt.asarray(a[2]), *args))
        e, we = _warned(lambda: getattr(np, f)(a[2], *args))
        assert w == we and len(w) == 1


def _runtime_messages(fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = fn()
    return r, [str(x.message) for x in w if x.category is RuntimeWarning
               and 'encountered' not in str(x.message)]


@pytest.mark.parametrize("big", [False, True])
def test_mean_var_of_no_elements_warn(big, request):
    """mean of no elements warns 'Mean of empty slice', var/std with ddof >=
    the count 'Degrees of freedom <= 0 for slice' (NumPy's RuntimeWarnings,
    before the NaN); median of no elements is that mean (it fell back to
    NumPy with a fallback warning). ndtile gave the NaN with only the
    divide's warning."""
    if big:
        request.getfixturevalue("default_settings")
    n = 40000 if big else 30
    cases = [(np.zeros(0), {}), (np.zeros((0, n)), {'axis': 0}), (np.zeros((0, n)), {'axis': 1}),
             (np.zeros((n, 0), np.int32), {'axis': 1, 'keepdims': True}),
             (np.ones((n, 1)), {'axis': 1, 'ddof': 1}), (np.ones(1), {'ddof': 1}),
             (np.ones(n), {'ddof': 1}), (np.ones((2, n)), {'axis': 0, 'ddof': 2.0}),
             (np.zeros((0, 3)), {'axis': (0, 1)})]
    for a, kw in cases:
        x = nt.asarray(a)
        for f in ('mean', 'var', 'std', 'median'):
            k = {k: v for k, v in kw.items() if k != 'ddof' or f in ('var', 'std')}
            if f == 'median' and (a.size or isinstance(k.get('axis'), tuple)):
                continue
            r, w = _runtime_messages(lambda: getattr(nt, f)(x, **k))
            e, we = _runtime_messages(lambda: getattr(np, f)(a, **k))
            assert w == we, (f, a.shape, kw, w, we)
            assert_same(r, e)
            if f in ('mean', 'var'):
                r, w = _runtime_messages(lambda: getattr(x, f)(**k))
                assert w == we, (f, 'method', a.shape, kw)


def test_nanarg_errors():
    a = np.array([[np.nan, 1.0], [np.nan, np.nan]])
    x = nt.asarray(a)
    assert_same(nt.nanargmax(x[:1], axis=1), np.array([1]))
    for f in ('nanargmax', 'nanargmin'):
        errs(lambda: getattr(nt, f)(x, axis=1), lambda: getattr(np, f)(a, axis=1))
        errs(lambda: getattr(nt, f)(x, axis=2), lambda: getattr(np, f)(a, axis=2))
        errs(lambda: getattr(nt, f)(nt.zeros(0)), lambda: getattr(np, f)(np.zeros(0)))
        # an empty input: argmin's error, not the all-NaN one
        for ax in (0, None):
            with pytest.raises(ValueError) as en:
                getattr(np, f)(np.zeros((0, 3)), axis=ax)
            with pytest.raises(ValueError) as eg:
                getattr(nt, f)(nt.zeros((0, 3)), axis=ax)
            assert str(eg.value) == str(en.value)
        assert_same(getattr(nt, f)(nt.zeros((0, 3)), axis=1), getattr(np, f)(np.zeros((0, 3)), axis=1))
    with pytest.raises(ValueError, match="All-NaN slice encountered"):
        nt.nanargmin(nt.asarray(np.full(3, np.nan)))
    out = nt.zeros(2, dtype=np.int64)
    assert nt.nanargmax(x[:, 1:], axis=0, out=out[:1]) is not None


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_nanvar_nanstd(dt):
    a = with_nans(dt, (40, 60))
    x = nt.asarray(a)
    for f in ('nanvar', 'nanstd'):
        for ax, ddof, kd in [(None, 0, False), (0, 1, False), (1, 0, True), ((0, 1), 2, True)]:
            exp = getattr(np, f)(a, axis=ax, ddof=ddof, keepdims=kd)
            got = getattr(nt, f)(x, axis=ax, ddof=ddof, keepdims=kd)
            assert_same(got, exp, rtol=tol_for(exp.dtype, 'sum') * 100)


def test_nanvar_options_and_warnings():
    a = with_nans(np.float32, (5, 300))
    x = nt.asarray(a)
    exp = np.nanvar(a, axis=1, dtype=np.float64)
    assert_same(nt.nanvar(x, axis=1, dtype=np.float64), exp, rtol=1e-12)
    assert_same(nt.nanstd(x[::-1, ::7], axis=0, correction=1),
                np.nanstd(a[::-1, ::7], axis=0, correction=1), rtol=1e-5)
    out = nt.zeros(5, dtype=np.float32)
    assert nt.nanvar(x, axis=1, out=out) is out
    assert_same(out, np.nanvar(a, axis=1), rtol=1e-5)
    b = np.array([[np.nan, np.nan], [1.0, 2.0], [3.0, np.nan]])
    y = nt.asarray(b)
    for f in ('nanvar', 'nanstd'):
        with pytest.warns(RuntimeWarning, match="Degrees of freedom <= 0 for slice"):
            got = getattr(nt, f)(y, axis=1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exp = getattr(np, f)(b, axis=1)
        assert_same(got, exp, rtol=1e-12)
    assert_same(nt.nanvar(nt.asarray(np.float64(3.0))), np.nanvar(np.float64(3.0)))
    errs(lambda: nt.nanvar(y, axis=2), lambda: np.nanvar(b, axis=2))


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_cov_corrcoef_dtypes(dt):
    a = make(dt, (6, 500))
    x = nt.asarray(a)
    for rowvar in (True, False):
        m, xm = (a, x) if rowvar else (a.T, x.T)
        exp = np.cov(m, rowvar=rowvar)
        assert_same(nt.cov(xm, rowvar=rowvar), exp, rtol=1e-9 if exp.dtype.itemsize >= 8
                    else 1e-4, atol=1e-9)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exp = np.corrcoef(m, rowvar=rowvar)
        assert_same(nt.corrcoef(xm, rowvar=rowvar), exp, rtol=1e-9, atol=1e-9)


def test_cov_options():
    a, b = make(np.float64, (3, 40)), make(np.float64, (2, 40), seed=1)
    x, y = nt.asarray(a), nt.asarray(b)
    fw = np.arange(40) % 4
    aw = np.linspace(0.5, 2.0, 40)
    for kw in [dict(bias=True), dict(ddof=3), dict(fweights=fw), dict(aweights=aw),
               dict(fweights=fw, aweights=aw), dict(fweights=fw, aweights=aw, ddof=0),
               dict(aweights=aw, bias=True), dict(dtype=np.float32)]:
        exp = np.cov(a, **kw)
        assert_same(nt.cov(x, **kw), exp, rtol=1e-5 if 'dtype' in kw else 1e-11)
    assert_same(nt.cov(x, y), np.cov(a, b), rtol=1e-11)
    assert_same(nt.cov(x[0], y[1]), np.cov(a[0], b[1]), rtol=1e-11)
    assert_same(nt.cov(x[0]), np.cov(a[0]), rtol=1e-11)         # 0-d result
    assert_same(nt.corrcoef(x, y), np.corrcoef(a, b), rtol=1e-11)
    assert_same(nt.corrcoef(x[::-1, ::3]), np.corrcoef(a[::-1, ::3]), rtol=1e-11)
    c = make(np.complex128, (3, 30))
    assert_same(nt.cov(nt.asarray(c)), np.cov(c), rtol=1e-11)
    assert_same(nt.corrcoef(nt.asarray(c)), np.corrcoef(c), rtol=1e-11, atol=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exp = np.corrcoef(a[0])
    assert_same(nt.corrcoef(x[0]), exp)
    assert_same(nt.cov(nt.zeros((0, 3))), np.cov(np.zeros((0, 3))))
    with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
        nt.cov(x[:, :1])
    errs(lambda: nt.cov(nt.zeros((2, 2, 2))), lambda: np.cov(np.zeros((2, 2, 2))))
    errs(lambda: nt.cov(x, fweights=aw), lambda: np.cov(a, fweights=aw))
    errs(lambda: nt.cov(x, fweights=-fw), lambda: np.cov(a, fweights=-fw))
    errs(lambda: nt.cov(x, aweights=aw[:5]), lambda: np.cov(a, aweights=aw[:5]))
    errs(lambda: nt.cov(x, ddof=1.5), lambda: np.cov(a, ddof=1.5))


@pytest.mark.parametrize("dt", [np.int8, np.int64, np.uint16, np.float32, np.float64,
                                np.complex64, np.complex128])
def test_gradient_dtypes(dt):
    a = make(dt, (30, 70))
    x = nt.asarray(a)
    exp = np.gradient(a)
    got = nt.gradient(x)
    rt = tol_for(exp[0].dtype, 'math') * 10
    assert_same(got, exp, rtol=rt, atol=rt)
    for eo in (1, 2):
        exp = np.gradient(a, 0.5, axis=1, edge_order=eo)
        assert_same(nt.gradient(x, 0.5, axis=1, edge_order=eo), exp, rtol=rt, atol=rt)


def test_gradient_spacing_and_errors():
    a = make(np.float64, (12, 1500))
    x = nt.asarray(a)
    cx = np.cumsum(np.linspace(0.5, 1.5, 12))
    cy = np.arange(1500) * 3           # uniform integer coordinates
    for eo in (1, 2):
        exp = np.gradient(a, cx, cy, edge_order=eo)
        got = nt.gradient(x, nt.asarray(cx), cy, edge_order=eo)
        assert_same(got, exp, rtol=1e-10, atol=1e-10)
        exp = np.gradient(a[::-1, ::5], 2.0, np.arange(300) ** 1.5, edge_order=eo)
        got = nt.gradient(x[::-1, ::5], 2.0, np.arange(300) ** 1.5, edge_order=eo)
        assert_same(got, exp, rtol=1e-10, atol=1e-10)
    v = make(np.float32, (7,))
    assert_same(nt.gradient(nt.asarray(v)), np.gradient(v), rtol=1e-6)
    assert_same(nt.gradient(x, axis=-1), np.gradient(a, axis=-1), rtol=1e-12)
    errs(lambda: nt.gradient(x[:1]), lambda: np.gradient(a[:1]))
    errs(lambda: nt.gradient(x[:2], edge_order=2), lambda: np.gradient(a[:2], edge_order=2))
    errs(lambda: nt.gradient(x, edge_order=3), lambda: np.gradient(a, edge_order=3))
    errs(lambda: nt.gradient(x, 1, 2, 3), lambda: np.gradient(a, 1, 2, 3))
    errs(lambda: nt.gradient(x, cx[:5], 1.0), lambda: np.gradient(a, cx[:5], 1.0))
    errs(lambda: nt.gradient(x, np.ones((12, 2)), 1.0),
         lambda: np.gradient(a, np.ones((12, 2)), 1.0))
    errs(lambda: nt.gradient(x, axis=2), lambda: np.gradient(a, axis=2))


@pytest.mark.parametrize("n", [18, 40002])
def test_gradient_zero_d_array_spacing(n, request):
    """A 0-d array spacing is a uniform step, as a Python float is (it was
    taken for coordinates and sliced: IndexError)."""
    if n > 32768:
        request.getfixturevalue("default_settings")
    a = make(np.float64, (n,))
    x = nt.asarray(a)
    for eo in (1, 2):
        assert_same(nt.gradient(x, nt.asarray(0.25), edge_order=eo),
                    np.gradient(a, np.array(0.25), edge_order=eo), rtol=1e-12)
        assert_same(nt.gradient(x[::-3], nt.asarray(2.0), edge_order=eo),
                    np.gradient(a[::-3], np.array(2.0), edge_order=eo), rtol=1e-12)
    b = make(np.float32, (6, n // 6))
    assert_same(nt.gradient(nt.asarray(b), nt.asarray(1.5)),
                np.gradient(b, np.array(1.5)), rtol=1e-6)
    assert_same(nt.gradient(nt.asarray(b), nt.asarray(1.5), np.arange(n // 6) ** 1.5),
                np.gradient(b, np.array(1.5), np.arange(n // 6) ** 1.5), rtol=1e-5)


@pytest.mark.parametrize("n", [5, 200])
def test_cov_one_observation_rowvar_false(n, request):
    """rowvar=False transposes any 2-d m, a (1, n) one too (n variables of
    one observation: an (n, n) result, NaN for ddof=1); the empty result
    is float64 whatever dtype= says, as in NumPy."""
    if n * n > 32768:
        request.getfixturevalue("default_settings")
    a = make(np.float64, (1, n))
    x = nt.asarray(a)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for ddof in (0, 1):
            assert_same(nt.cov(x, rowvar=False, ddof=ddof), np.cov(a, rowvar=False, ddof=ddof),
                        rtol=1e-12)
            assert_same(nt.cov(x.T, ddof=ddof), np.cov(a.T, ddof=ddof), rtol=1e-12)
        assert_same(nt.cov(x[:, ::-1], rowvar=False, bias=True),
                    np.cov(a[:, ::-1], rowvar=False, bias=True), rtol=1e-12)
        assert_same(nt.cov(nt.zeros((0, 3)), dtype=np.float32),
                    np.cov(np.zeros((0, 3)), dtype=np.float32))


def test_registered_native():
    from ndtile import _fallback
    for name in ('nanargmax', 'nanargmin', 'nanvar', 'nanstd', 'cov', 'corrcoef', 'gradient'):
        assert getattr(np, name) in _fallback.NATIVE, name
    x = nt.arange(12.).reshape(3, 4)
    assert_same(np.cov(x), np.cov(np.arange(12.).reshape(3, 4)), rtol=1e-12)


def test_same_bits_for_any_workers():
    a = make(np.float64, (40, 300))
    v = make(np.complex128, (3000,))

    def run():
        x = nt.asarray(a)
        return [np.asarray(r) for r in (
            nt.cov(x), nt.corrcoef(x), nt.nanvar(x, axis=1), nt.gradient(x, axis=1),
            nt.convolve(nt.asarray(v), x[0], 'same'), nt.einsum('ij,kj->ik', x, x))]
    res = for_workers(run)
    for g, e in zip(*res):
        np.testing.assert_array_equal(g, e)
