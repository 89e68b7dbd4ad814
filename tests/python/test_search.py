"""bincount, nonzero, argwhere and flatnonzero run in the core: compare with NumPy."""
import warnings

import numpy as np
import pytest

import ndtile as nt
from _helpers import DTYPES, NAMES, SHAPES, make


def _same(got, exp):
    g = np.asarray(got)
    assert g.dtype == exp.dtype and g.shape == exp.shape
    np.testing.assert_array_equal(g, exp)


@pytest.mark.parametrize("dt", [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8,
                                np.uint16, np.uint32])
@pytest.mark.parametrize("n", [0, 1, 7, 3001])
def test_bincount_counts(dt, n):
    a = np.random.default_rng(n).integers(0, 40, n).astype(dt)
    _same(nt.bincount(nt.asarray(a)), np.bincount(a))
    _same(nt.bincount(nt.asarray(a), minlength=50), np.bincount(a, minlength=50))


@pytest.mark.parametrize("wdt", [np.float32, np.float64, np.int32, np.bool_])
def test_bincount_weights(wdt):
    rng = np.random.default_rng(3)
    a = rng.integers(0, 90, 5000)
    w = make(wdt, (5000,), seed=4)
    got = np.asarray(nt.bincount(nt.asarray(a), weights=nt.asarray(w), minlength=3))
    exp = np.bincount(a, weights=w, minlength=3)
    assert got.dtype == exp.dtype and got.shape == exp.shape
    np.testing.assert_allclose(got, exp, rtol=1e-12)


def test_bincount_strided_view_and_errors():
    a = np.arange(200) % 17
    _same(nt.bincount(nt.asarray(a)[::-3]), np.bincount(a[::-3]))
    with pytest.raises(ValueError):
        nt.bincount(nt.asarray([1, -1, 2]))
    with pytest.raises(TypeError):
        nt.bincount(nt.asarray([1.5, 2.0]))
    with pytest.raises(ValueError):
        nt.bincount(nt.asarray([[1, 2]]))
    with pytest.raises(ValueError):
        nt.bincount(nt.asarray([1, 2]), weights=nt.asarray([1.0]))


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
@pytest.mark.parametrize("shape", [s for s in SHAPES if s != ()])
def test_nonzero_argwhere(dt, shape):
    a = make(dt, shape, seed=sum(shape) + 1, lo=-1, hi=1)
    x = nt.asarray(a)
    got = nt.nonzero(x)
    exp = np.nonzero(a)
    assert len(got) == len(exp)
    for g, e in zip(got, exp):
        _same(g, e)
    _same(nt.argwhere(x), np.argwhere(a))
    _same(nt.flatnonzero(x), np.flatnonzero(a))
    for g, e in zip(x.nonzero(), a.nonzero()):
        _same(g, e)


def test_nonzero_of_views():
    a = make(np.float64, (40, 37), seed=9, lo=-1, hi=1)
    a[a > 0.3] = 0
    x = nt.asarray(a)
    for key in [(slice(None, None, -2), slice(3, None, 3)), (slice(None), 5)]:
        got, exp = nt.nonzero(x[key]), np.nonzero(a[key])
        for g, e in zip(got, exp):
            _same(g, e)
    t = nt.asarray(a).T
    for g, e in zip(nt.nonzero(t), np.nonzero(a.T)):
        _same(g, e)


class _Wrapping:
    """An array-like with __array_wrap__ and no nonzero: NumPy's _wrapit."""

    def __array__(self, dtype=None, copy=None):
        return np.array([0, 1, 2])

    def __array_wrap__(self, arr, context=None, return_scalar=False):
        return ('wrapped', np.asarray(arr).tolist())


class _OddNonzero:
    """Its nonzero takes an argument: NumPy's _wrapfunc falls through on the
    TypeError to the array's nonzero."""

    def __array__(self, dtype=None, copy=None):
        return np.array([3, 0, 4])

    def nonzero(self, x):
        return 'not called'


class _OwnNonzero:
    def nonzero(self):
        return ('own',)


def test_nonzero_of_other_objects():
    # NumPy's fromnumeric _wrapfunc: an object's own method, a subclass's
    # (a masked array's honours the mask), lists and 0-d: results as NumPy's
    # (index arrays as ndtile arrays), nonzero of an ndtile array through
    # NumPy's namespace with no fallback
    objs = [[0, 1, 2], [[0, 1], [2, 0]], (1, 0), [], np.array([0, 3, 0]), np.zeros((2, 0)),
            np.arange(6).reshape(2, 3)[:, ::-2], np.ma.masked_array([0, 1, 2], mask=[0, 1, 0]),
            np.ma.masked_array([[0, 1], [2, 3]], mask=[[0, 1], [0, 0]]), _OddNonzero()]
    for o in objs:
        for f in ('nonzero', 'argwhere', 'flatnonzero'):
            exp = getattr(np, f)(o)
            got = getattr(nt, f)(o)
            if f == 'nonzero':
                assert type(got) is tuple and len(got) == len(exp)
                for g, e in zip(got, exp):
                    assert isinstance(g, nt.ndarray)
                    _same(g, e)
            else:
                _same(got, exp)
    assert nt.nonzero(_OwnNonzero()) == np.nonzero(_OwnNonzero()) == ('own',)
    w = nt.nonzero(_Wrapping())
    assert w == np.nonzero(_Wrapping()) == ('wrapped', [[1, 2]])
    for o in (0, 3, np.array(5), np.float64(0), nt.asarray(2), True):
        for m in (np, nt):
            with pytest.raises(ValueError, match="Calling nonzero on 0d arrays"):
                m.nonzero(o)
    x = nt.arange(5) % 2
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        got = np.nonzero(x)
        assert type(got) is tuple and isinstance(got[0], nt.ndarray)
        _same(got[0], np.array([1, 3]))
        _same(np.argwhere(x), np.array([[1], [3]]))
