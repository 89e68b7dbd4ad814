"""Warnings ndtile gives on the user's behalf name the user's line, as
NumPy's do: its own deprecations and RuntimeWarnings, reached directly or
through NumPy's function (__array_function__), the ComplexWarning of a cast
made deep in the front end, and NumPy's floating-point warnings of the
NumPy code ndtile runs (a ufunc of scalars, a function that falls back).
A fixed stacklevel named ndtile's file (fft's deprecations from
numpy.fft.fftn, cross, polyfit, nanmedian, a ufunc's where= without out=),
and NumPy's ufunc of scalars warned at ndtile's _umath.py for every
program line, so Python's once-per-line filter showed one of them."""
import warnings

import numpy as np
import pytest

import ndtile as nt


@pytest.fixture(autouse=True)
def _numpy_default_errstate():
    # (conftest ignores floating-point errors for the suite)
    with np.errstate(all='warn', under='ignore'):
        yield


def _recorded(fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        fn()
    return [(m.category, str(m.message), m.filename, m.lineno) for m in w]


def _at_caller(fn, want_numpy=None, category=None):
    """fn's warnings (each at fn's own line of this file); with want_numpy,
    NumPy's warnings of the same call, compared by category and text."""
    got = _recorded(fn)
    assert got, "no warning"
    line = fn.__code__.co_firstlineno
    for cat, msg, filename, lineno in got:
        assert (filename, lineno) == (__file__, line), (cat, msg, filename, lineno)
    if category is not None:
        assert any(issubclass(c, category) for c, *_ in got), got
    if want_numpy is not None:
        want = _recorded(want_numpy)
        assert [(c, m) for c, m, *_ in got] == [(c, m) for c, m, *_ in want]
    return got


def test_own_deprecations_at_the_callers_line():
    a = nt.arange(4.0)
    _at_caller(lambda: nt.row_stack([a, a]), category=DeprecationWarning)
    _at_caller(lambda: a.flat[np.array(True)], category=DeprecationWarning)
    _at_caller(lambda: a.flat[1.0], category=DeprecationWarning)
    _at_caller(lambda: nt.cross(nt.ones((2, 2)), nt.ones((2, 2))), category=DeprecationWarning)
    _at_caller(lambda: nt.bincount([1.0, 2.0]), category=DeprecationWarning)
    _at_caller(lambda: nt.maximum(a, a, nt.empty(4)), category=DeprecationWarning)
    _at_caller(lambda: nt.fft.fftn(nt.ones((2, 2)), s=(2, 2)), category=DeprecationWarning)
    _at_caller(lambda: nt.fft.fft2(nt.ones((2, 2)), s=[2, None]), category=DeprecationWarning)
    _at_caller(lambda: nt.random.random_integers(3), category=DeprecationWarning)
    _at_caller(lambda: nt.add(a, 1, where=a > 1), category=UserWarning)
    _at_caller(lambda: nt.polyfit(nt.arange(3.0), nt.arange(3.0), 5),
               category=np.exceptions.RankWarning)
    _at_caller(lambda: nt.random.default_rng(0).multivariate_normal([0, 0], [[1, 2], [3, -1]]),
               category=RuntimeWarning)


def test_through_numpys_functions_at_the_callers_line():
    # NumPy's function of ndtile arrays runs ndtile's through
    # __array_function__ (two more ndtile frames than a direct call)
    two = nt.ones((2, 2))
    _at_caller(lambda: np.cross(two, two), lambda: np.cross(np.ones((2, 2)), np.ones((2, 2))))
    _at_caller(lambda: np.fft.fftn(two, s=(2, 2), axes=None),
               lambda: np.fft.fftn(np.ones((2, 2)), s=(2, 2), axes=None))
    _at_caller(lambda: np.polyfit(nt.arange(3.0), nt.arange(3.0), 5),
               lambda: np.polyfit(np.arange(3.0), np.arange(3.0), 5))
    _at_caller(lambda: np.nanmedian(nt.array([np.nan])), lambda: np.nanmedian(np.array([np.nan])))
    _at_caller(lambda: np.nanpercentile(nt.array([np.nan]), 50),
               lambda: np.nanpercentile(np.array([np.nan]), 50))
    _at_caller(lambda: np.add(nt.ones(3), 1, where=nt.array([True, False, True])),
               category=UserWarning)


@pytest.mark.parametrize("n", [3, 300_000])
def test_complex_cast_warning_at_the_callers_line(n):
    z, zn = nt.ones(n) * (1 + 1j), np.ones(n) * (1 + 1j)
    pairs = [(lambda: nt.asarray(z, dtype=float), lambda: np.asarray(zn, dtype=float)),
             (lambda: nt.array(z, dtype=float), lambda: np.array(zn, dtype=float)),
             (lambda: z.astype(float), lambda: zn.astype(float)),
             (lambda: nt.copyto(nt.ones(n), z, casting='unsafe'),
              lambda: np.copyto(np.ones(n), zn, casting='unsafe')),
             (lambda: nt.asarray([z, z], dtype=float), lambda: np.asarray([zn, zn], dtype=float))]
    for f, g in pairs:
        _at_caller(f, g, category=np.exceptions.ComplexWarning)


_SCALAR_CALLS = [
    ("divide", (1.0, 0.0)), ("log", (0.0,)), ("log", (np.float32(0),)), ("sqrt", (-1.0,)),
    ("arccos", (2.0,)), ("floor_divide", (1, 0)), ("remainder", (1.0, 0.0)),
    ("divmod", (1.0, 0.0)), ("power", (10.0, 400)), ("exp", (1000.0,)),
    ("add", (np.float32(3e38), np.float32(3e38))),
]


@pytest.mark.parametrize("name,args", _SCALAR_CALLS, ids=[c[0] for c in _SCALAR_CALLS])
def test_ufunc_of_scalars_warns_at_the_callers_line_in_the_users_errstate(name, args):
    f, g = getattr(nt, name), getattr(np, name)
    _at_caller(lambda: f(*args), lambda: g(*args), category=RuntimeWarning)
    with np.errstate(all='ignore'):
        assert _recorded(lambda: f(*args)) == []
    with np.errstate(all='raise'):
        with pytest.raises(FloatingPointError) as want:
            g(*args)
        with pytest.raises(FloatingPointError) as got:
            f(*args)
        assert str(got.value) == str(want.value)
    seen = []
    with np.errstate(all='call', call=lambda what, flags: seen.append(what)):
        r = f(*args)
    assert seen
    np.testing.assert_array_equal(r, g(*args))


def test_fallback_floating_point_warnings_at_the_callers_line():
    # NumPy's code run by the fallback warned at ndtile's _fallback.py
    x = nt.array([1.0, 0.0])
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', RuntimeWarning)
        nt.divide.reduce(x)          # (the fallback's own warning, once)
    got = _at_caller(lambda: nt.divide.reduce(x), lambda: np.divide.reduce(np.array([1.0, 0.0])))
    assert len(got) == 1


@pytest.mark.skipif(nt.nranks() > 1, reason="on ranks a floating-point warning of deferred "
                    "work comes at the next agreement of the ranks (docs/guide/ranks.md)")
def test_cov_and_corrcoef_warn_as_numpy():
    # ndtile silenced the divisions' warnings NumPy gives (0 / 0 of a
    # constant variable, 1 / 0 for no degrees of freedom)
    for args in ((np.ones(3), np.ones(3)), (np.ones((2, 3)),), (np.ones((2, 3)) + 1j,),
                 ([0.0, 0.0],)):
        # (read at once: deferred work, on devices, warns at the read)
        _at_caller(lambda: np.asarray(nt.corrcoef(*[nt.asarray(a) for a in args])),
                   lambda: np.corrcoef(*args))
    for args in ((np.ones(1),), (np.ones((2, 1)),)):
        got = _recorded(lambda: np.asarray(nt.cov(*[nt.asarray(a) for a in args])))
        want = _recorded(lambda: np.cov(*args))
        assert [(c, m) for c, m, *_ in got] == [(c, m) for c, m, *_ in want]
        assert all(f == __file__ for _, _, f, _ in got)



def test_numpys_deprecated_names_warn_at_the_callers_line():
    # NumPy's module __getattr__ warns of np.object (then raises), np.str,
    # np.chararray at its caller: ndtile's module_getattr was that caller
    _at_caller(lambda: nt.chararray, lambda: np.chararray, category=DeprecationWarning)
    for name in ('object', 'str'):
        got = _at_caller(lambda: hasattr(nt, name), lambda: hasattr(np, name),
                         category=FutureWarning)
        assert len(got) == 1
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', FutureWarning)
            with pytest.raises(AttributeError, match=f"np.{name}` was a deprecated alias"):
                getattr(nt, name)
