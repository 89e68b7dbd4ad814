"""Fallback to NumPy for what ndtile does not implement: it works, returns
ndtile arrays, warns once per function naming the caller's file and line,
and NDTILE_FALLBACK=error turns it into NotImplementedError.

test_list_of_fallbacks lists the NumPy functions that fall back today."""
import importlib
import inspect
import warnings

import numpy as np
import pytest

import ndtile as nt
from ndtile import _fallback
from _helpers import make, assert_same


def test_warns_once_with_user_location(fallback_warnings):
    x = nt.arange(10.0)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        line = inspect.currentframe().f_lineno + 1
        nt.i0(x)
        nt.i0(x)
    msgs = [m for m in w if issubclass(m.category, RuntimeWarning)]
    assert len(msgs) == 1, [str(m.message) for m in msgs]
    m = msgs[0]
    assert "i0" in str(m.message)
    assert m.filename == __file__ and m.lineno == line
    assert f"{__file__}:{line}" in str(m.message)


def test_fallback_through_numpy_dispatch_points_at_user(fallback_warnings):
    x = nt.arange(10.0)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        line = inspect.currentframe().f_lineno + 1
        np.i0(x)
    m = [m for m in w if issubclass(m.category, RuntimeWarning)][0]
    assert m.filename == __file__ and m.lineno == line


def test_fallback_error_mode(monkeypatch, fallback_warnings):
    monkeypatch.setenv("NDTILE_FALLBACK", "error")
    with pytest.raises(NotImplementedError, match="i0"):
        nt.i0(nt.arange(5.0))
    with pytest.raises(NotImplementedError, match="ndarray.getfield"):
        nt.arange(5).getfield(np.int64)
    # native functions are unaffected
    assert nt.sum(nt.arange(5)) == 10


def test_fallback_ignore_mode(monkeypatch, fallback_warnings):
    monkeypatch.setenv("NDTILE_FALLBACK", "ignore")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert_same(nt.i0(nt.asarray([3.0, 1.0, 2.0])), np.i0(np.array([3.0, 1.0, 2.0])))


def test_results_converted_and_outputs_written_back(fallback_warnings):
    a = make(np.float64, (5, 6))
    x = nt.asarray(a)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = nt.take(x, [4, 0, 2], axis=0)
        assert isinstance(r, nt.ndarray)
        out = nt.zeros((3, 6))
        r = nt.take(x, [4, 0, 2], axis=0, out=out)
        assert r is out
        assert_same(out, np.take(a, [4, 0, 2], axis=0), 1e-12)
        u, c = nt.unique(nt.asarray([3, 1, 3, 2]), return_counts=True)
        assert_same(u, np.array([1, 2, 3]))
        assert_same(c, np.array([1, 1, 2]))
        y = nt.zeros(5)
        nt.put(y, [0, 2], [7, 8])
        assert_same(y, np.array([7.0, 0, 8, 0, 0]))
        z = nt.arange(6.0)
        nt.random.shuffle(z)
        assert sorted(z.tolist()) == list(range(6))
        v = nt.zeros(4)
        nt.add.at(v, [0, 0, 1], 1)
        assert_same(v, np.array([2.0, 1, 0, 0]))
        w = nt.arange(5.0)[::-1]
        np.copyto(w, 1.0)
        assert_same(w, np.ones(5))


@pytest.mark.parametrize("shape", [(), (7, 300)])
def test_numpy_function_writing_its_argument_through_dispatch(fallback_warnings, shape):
    # numpy.lib.recfunctions.assign_fields_by_name(dst, src) of unstructured
    # ndtile arrays assigns dst[...] = src: NumPy's function on gathered
    # copies lost the write (dst kept its values, silently)
    from numpy.lib.recfunctions import assign_fields_by_name
    src = make(np.int64, shape)
    dst_np = np.zeros(shape, np.int64)
    dst = nt.asarray(dst_np)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert assign_fields_by_name(dst, nt.asarray(src)) is None
    assign_fields_by_name(dst_np, src)
    assert_same(dst, dst_np)
    assert_same(dst, src)


def test_unknown_name_is_attribute_error():
    with pytest.raises(AttributeError):
        nt.this_is_not_numpy
    with pytest.raises(AttributeError):
        nt.linalg.not_a_function


@pytest.mark.parametrize("name", ["float", "object", "Inf", "NaN", "round_"])
def test_removed_name_is_numpys_attribute_error_under_ndtiles_name(name):
    # NumPy's error says what replaced a removed name (`np.float` was a
    # deprecated alias for the builtin, `np.Inf` was removed in NumPy 2.0)
    with pytest.raises(AttributeError) as e_np:
        getattr(np, name)
    with pytest.raises(AttributeError) as e_nt:
        getattr(nt, name)
    assert str(e_nt.value) == str(e_np.value).replace("module 'numpy'", "module 'ndtile'")
    assert "\n" in str(e_np.value) or "removed" in str(e_np.value)
    with pytest.raises(AttributeError, match="^module 'ndtile.linalg' has no attribute 'nope'$"):
        nt.linalg.nope


# The only NumPy functions (and ufuncs without a core loop) that fall back to
# NumPy today: file I/O, datetime/string helpers, Python callbacks and a
# few others. A function leaving this list is progress (remove it here); a
# function joining it is a regression and fails the test.
EXPECTED_FALLBACKS = set("""
apply_along_axis apply_over_axes bmat busday_count busday_offset
datetime_as_string datetime_data frompyfunc i0 is_busday
kaiser test
""".split())


def test_list_of_fallbacks(capsys):
    native, fallback = [], []
    for name in dir(np):
        if name.startswith('_'):
            continue
        obj = getattr(np, name)
        if isinstance(obj, type) or not callable(obj):
            continue
        mine = getattr(nt, name)
        if _fallback.is_fallback(mine) or (type(mine) is nt.ufunc and mine._op is None):
            fallback.append(name)
        else:
            native.append(name)
    unexpected = sorted(set(fallback) - EXPECTED_FALLBACKS)
    assert not unexpected, f"these NumPy functions fall back now: {unexpected}"
    for name in ('sum', 'add', 'zeros', 'reshape', 'concatenate', 'where', 'mean', 'clip'):
        assert name in native
    with capsys.disabled():
        print(f"\nndtile: {len(native)} NumPy functions native, {len(fallback)} fall back:")
        print("  " + " ".join(sorted(fallback)))
    methods = sorted(n for n in dir(nt.ndarray) if _fallback.is_fallback(getattr(nt.ndarray, n)))
    with capsys.disabled():
        print(f"ndarray methods that fall back ({len(methods)}): " + " ".join(methods))


def test_every_listed_fallback_runs(fallback_warnings):
    a = make(np.float64, (6,))
    x = nt.asarray(a)
    cases = {
        'sort': (x,), 'argsort': (x,), 'cumsum': (x,), 'median': (x,), 'unique': (x,),
        'repeat': (x, 2), 'tile': (x, 2), 'roll': (x, 1), 'diag': (x,), 'trace': (nt.eye(3),),
        'dot': (x, x), 'searchsorted': (nt.sort(x), x), 'nonzero': (x,),
        'percentile': (x, 50), 'pad': (x, 1), 'append': (x, [1.0]), 'tril': (nt.ones((3, 3)),),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, args in cases.items():
            nargs = tuple(np.asarray(v) if isinstance(v, nt.ndarray) else v for v in args)
            got = getattr(nt, name)(*args)
            exp = getattr(np, name)(*nargs)
            if isinstance(exp, tuple):
                for g, e in zip(got, exp):
                    assert_same(g, e, 1e-12)
            else:
                assert_same(got, exp, 1e-12)


def test_nanmedian_of_timedeltas_skips_nat():
    """nanmedian of a dtype ndtile does not hold runs NumPy's nanmedian
    (NaT skipped as NaN); it ran median, whose result was NaT."""
    a = np.array([[1, 'NaT', 3, 8], [4, 5, 'NaT', 'NaT'], ['NaT'] * 4], 'm8[s]')
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', RuntimeWarning)
        for kw in ({}, {'axis': 1}, {'axis': 0, 'keepdims': True}):
            g, e = nt.nanmedian(a, **kw), np.nanmedian(a, **kw)
            assert type(g) is type(e) and g.dtype == e.dtype
            np.testing.assert_array_equal(g, e)


def test_cov_corrcoef_dtype_ndtile_does_not_hold():
    """cov/corrcoef with dtype=float16 or longdouble (NumPy arrays, item 2
    of deviations.md) give NumPy's result; cov of an ndtile array failed on
    a NumPy intermediate (AttributeError), corrcoef on the fallback's NumPy
    result (TypeError)."""
    a = make(np.float64, (4, 300))
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', RuntimeWarning)
        for dt in (np.float16, np.longdouble):
            for f in ('cov', 'corrcoef'):
                for src in (a, a.astype(dt)):
                    arg = nt.asarray(src) if src.dtype == np.float64 else src
                    g, e = getattr(nt, f)(arg, dtype=dt), getattr(np, f)(src, dtype=dt)
                    assert np.asarray(g).dtype == e.dtype
                    np.testing.assert_allclose(np.asarray(g, float), e.astype(float),
                                               rtol=1e-3 if dt == np.float16 else 1e-12)


def test_layout_functions_and_windows_on_dtypes_ndtile_does_not_hold():
    """fliplr, flipud, rot90, rollaxis and matrix_transpose of a float16 or
    longdouble array, and the windows of a longdouble M, give NumPy's
    results (NumPy arrays, deviations.md item 2); they raised TypeError
    'ndtile arrays cannot hold dtype ...' or gave float64 windows."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', RuntimeWarning)
        for dt in (np.float16, np.longdouble):
            a = np.arange(24, dtype=dt).reshape(2, 3, 4)
            for f, args in (('fliplr', ()), ('flipud', ()), ('rot90', ()), ('rot90', (3, (2, 0))),
                            ('rollaxis', (2,)), ('matrix_transpose', ())):
                g, e = getattr(nt, f)(a, *args), getattr(np, f)(a, *args)
                assert g.dtype == e.dtype and g.shape == e.shape, f
                np.testing.assert_array_equal(g, e)
        for M in (np.longdouble(10), np.longdouble(1), np.longdouble(0)):
            for f in ('bartlett', 'blackman', 'hamming', 'hanning'):
                g, e = getattr(nt, f)(M), getattr(np, f)(M)
                assert np.asarray(g).dtype == e.dtype, (f, M)
                np.testing.assert_array_equal(np.asarray(g), e)
        assert_same(nt.hanning(10), np.hanning(10))
        assert_same(nt.fliplr(nt.asarray(np.eye(3))), np.fliplr(np.eye(3)))


def test_sort_complex_of_longdouble_is_clongdouble():
    """sort_complex of a longdouble array is clongdouble, as NumPy's (it was
    complex128)."""
    a = np.array([3.0, -1.5, 2.25, 0.0], np.longdouble)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', RuntimeWarning)
        g, e = nt.sort_complex(a), np.sort_complex(a)
    assert g.dtype == e.dtype == np.clongdouble
    np.testing.assert_array_equal(g, e)


def test_histogram_with_a_longdouble_range():
    """histogram of an ndtile array with a longdouble range has longdouble
    edges (a NumPy array), as NumPy's; it raised TypeError 'ndtile arrays
    cannot hold dtype float128'."""
    a = make(np.float32, (40000,))
    r = (np.longdouble(-3), np.longdouble(4))
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', RuntimeWarning)
        gh, ge = nt.histogram(nt.asarray(a), bins=7, range=r)
    eh, ee = np.histogram(a, bins=7, range=r)
    assert np.asarray(ge).dtype == ee.dtype == np.longdouble
    np.testing.assert_array_equal(np.asarray(gh), eh)
    np.testing.assert_array_equal(np.asarray(ge), ee)


@pytest.mark.parametrize("sub", ["ma", "polynomial", "polynomial.polynomial",
                                 "polynomial.chebyshev", "dtypes", "exceptions",
                                 "lib.recfunctions", "lib.format", "lib.mixins",
                                 "lib.scimath", "char", "strings", "rec",
                                 "ctypeslib", "typing"])
def test_numpy_submodules_import_by_ndtile_name(sub):
    # `import numpy.ma as ma`, `from numpy.polynomial import Polynomial`, `from
    # numpy.lib.recfunctions import repack_fields` with ndtile's name: NumPy's
    # own module (what the attribute ndtile.<sub> is), its spec left NumPy's
    m = importlib.import_module("ndtile." + sub)
    npm = importlib.import_module("numpy." + sub)
    assert m is npm
    assert npm.__spec__.name == "numpy." + sub
    parent, _, leaf = ("ndtile." + sub).rpartition(".")
    assert getattr(importlib.import_module(parent), leaf) is npm


def test_own_submodules_stay_ndtile_and_unknown_ones_fail():
    assert importlib.import_module("ndtile.lib.stride_tricks").__name__ == "ndtile.lib.stride_tricks"
    assert importlib.import_module("ndtile.random").__name__ == "ndtile.random"
    for name in ("ndtile.no_such_module", "ndtile._no_such", "ndtile.lib.no_such"):
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module(name)


_POINT_FUNCTIONS = [('polynomial', 'polyval'), ('chebyshev', 'chebval'),
                    ('legendre', 'legval'), ('laguerre', 'lagval'),
                    ('hermite', 'hermval'), ('hermite_e', 'hermeval')]


@pytest.mark.parametrize("sub,name", _POINT_FUNCTIONS)
@pytest.mark.parametrize("big", [False, pytest.param(True, marks=pytest.mark.default_settings)])
def test_numpy_polynomial_evaluates_ndtile_points_as_numpy_points(sub, name, big):
    # numpy.polynomial's evaluation functions reshape the coefficients for
    # tensor=True only where isinstance(x, np.ndarray): ndtile's points were
    # broadcast against 2-d coefficients, a wrong shape and wrong values
    # with no error (polyval(x, [[1, 2], [3, 4]]) gave [4, 10], not 2 x 2)
    f = getattr(importlib.import_module("ndtile.polynomial." + sub), name)
    g = getattr(importlib.import_module("numpy.polynomial." + sub), name)
    n = 300_000 if big else 5                # 2.4 MiB of float64 points at default settings
    xs = [np.linspace(-1.0, 1.0, n), np.linspace(-1.0, 1.0, 2 * n).reshape(2, n)[:, ::-2],
          np.array(0.5), np.linspace(0, 1, 0)]
    cs = [[1.0, 2.0, -3.0], [[1, 2], [3, 4], [5, 6]], np.arange(12.0).reshape(3, 2, 2)]
    for x in xs:
        for c in cs:
            for tensor in (True, False):
                try:
                    want = g(x, c, tensor=tensor)
                except ValueError as e:
                    with pytest.raises(type(e)):
                        f(nt.asarray(x), c, tensor=tensor)
                    continue
                got = f(nt.asarray(x), c, tensor=tensor)
                assert isinstance(got, nt.ndarray) == isinstance(want, np.ndarray)
                assert np.shape(got) == np.shape(want)
                np.testing.assert_array_equal(np.asarray(got), want)
    # points that are no ndtile array are NumPy's call unchanged
    assert f(0.5, [1.0, 2.0]) == g(0.5, [1.0, 2.0])
    np.testing.assert_array_equal(f([0.5, 1.0], [1.0, 2.0]), g([0.5, 1.0], [1.0, 2.0]))


def test_numpy_polyvalfromroots_and_grids_of_ndtile_points():
    P = importlib.import_module("ndtile.polynomial.polynomial")
    NP = np.polynomial.polynomial
    x = np.array([1.0, 2.0, -0.5])
    r2 = [[1, 2], [3, 4], [0.5, 0.25]]
    for tensor in (True, False):
        want = NP.polyvalfromroots(x[:2] if not tensor else x, r2 if tensor else [[1, 2], [3, 4]],
                                   tensor=tensor)
        got = P.polyvalfromroots(nt.asarray(x[:2] if not tensor else x),
                                 r2 if tensor else [[1, 2], [3, 4]], tensor=tensor)
        assert got.shape == want.shape
        np.testing.assert_array_equal(np.asarray(got), want)
    with pytest.raises(ValueError):        # x.ndim >= r.ndim with tensor=False, as NumPy
        P.polyvalfromroots(nt.asarray(x), [1.0, 2.0], tensor=False)
    c = np.arange(6.0).reshape(2, 3)
    for grid, ngrid in ((P.polygrid2d, NP.polygrid2d),
                        (nt.polynomial.chebyshev.chebgrid2d, np.polynomial.chebyshev.chebgrid2d)):
        got = grid(nt.asarray(x), nt.asarray(x[::-1]), c)
        want = ngrid(x, x[::-1], c)
        assert got.shape == want.shape
        np.testing.assert_array_equal(np.asarray(got), want)


_GRID_CHECK = """
import numpy as np
{first}
import numpy.polynomial.polynomial as P, numpy.polynomial.chebyshev as C
import numpy.polynomial.legendre as L, numpy.polynomial.laguerre as La
import numpy.polynomial.hermite as H, numpy.polynomial.hermite_e as He
{second}
x, y, z = np.linspace(0, 1, 3), np.linspace(0, 2, 4), np.linspace(-1, 1, 2)
c2, c3 = np.arange(6.0).reshape(2, 3), np.arange(12.0).reshape(2, 3, 2)
calls = {{'grid2d': (x, y, c2), 'grid3d': (x, y, z, c3), 'val2d': (x, x, c2),
         'val3d': (x, x, x, c3), 'val': (x, c2)}}
for m, p in ((P, 'poly'), (C, 'cheb'), (L, 'leg'), (La, 'lag'), (H, 'herm'), (He, 'herme')):
    for kind, args in calls.items():
        f = getattr(m, p + kind)
        want, got = f(*args), f(*[nt.asarray(a) for a in args])
        assert type(got) is nt.ndarray, (p + kind, type(got))
        assert got.shape == want.shape, (p + kind, got.shape, want.shape)
        np.testing.assert_array_equal(np.asarray(got), want)
print('ok')
"""


@pytest.mark.skipif(nt.nranks() > 1, reason="a rank's child process cannot start MPI")
@pytest.mark.parametrize("ndtile_first", [True, False])
def test_numpy_polynomial_by_numpys_names_takes_ndtile_points(ndtile_first):
    # numpy.polynomial imported by NumPy's names (import
    # numpy.polynomial.chebyshev as C), before or after ndtile, is the
    # adapted module as ndtile's name for it is: chebgrid2d, hermgrid3d,
    # leggrid2d, ... of ndtile points broadcast them against the
    # coefficients (shape (4,) for (3, 4)), silently; legval2d & co gave
    # NumPy arrays. polygrid2d/polyval2d (NumPy dispatches them) fall back.
    import subprocess
    import sys
    imp = "import ndtile as nt"
    code = _GRID_CHECK.format(first=imp if ndtile_first else "",
                              second="" if ndtile_first else imp)
    out = subprocess.run([sys.executable, '-W', 'ignore::RuntimeWarning', '-c', code],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and out.stdout.strip().endswith('ok'), out.stderr


def test_polynomial_fit_and_masked_array_by_submodule_import():
    P = importlib.import_module("ndtile.polynomial").Polynomial
    x = nt.arange(6.0)
    p = P.fit(x, x ** 2, 2)
    q = np.polynomial.Polynomial.fit(np.arange(6.0), np.arange(6.0) ** 2, 2)
    np.testing.assert_allclose(p.convert().coef, q.convert().coef, atol=1e-12)
    ma = importlib.import_module("ndtile.ma")
    assert ma.masked_array(nt.arange(4), mask=[0, 1, 0, 0]).sum() == 5


@pytest.mark.parametrize("cls", ["Polynomial", "Chebyshev", "Legendre", "Laguerre", "Hermite",
                                 "HermiteE"])
@pytest.mark.parametrize("big", [False, pytest.param(True, marks=pytest.mark.default_settings)])
def test_numpy_polynomial_classes_evaluate_ndtile_points_to_ndtile_arrays(cls, big):
    # Polynomial(c)(x): NumPy's mapdomain made a NumPy array of ndtile
    # points, and the values came back as one; now an ndtile array of
    # NumPy's values (a 0-d point gives NumPy's scalar, as NumPy's 0-d does)
    poly = importlib.import_module("ndtile.polynomial")
    assert poly is np.polynomial
    n = 300_000 if big else 5
    xs = [np.linspace(-1.0, 1.0, n), np.linspace(-1.0, 1.0, 2 * n).reshape(2, n)[:, ::-2],
          np.array(0.5), np.linspace(0, 1, 0), np.arange(n, dtype=np.int32),
          np.linspace(0, 1, n).astype(np.float32)]
    for c, kw in (([1.0, 2.0, -3.0], {}), ([1 + 2j, 0.5], {}), ([2, 1], {'domain': [0, 4]}),
                  ([1.5], {'window': [-2, 2]})):
        p = getattr(poly, cls)(c, **kw)
        for x in xs:
            want = p(x)
            got = p(nt.asarray(x))
            assert isinstance(got, nt.ndarray) == isinstance(want, np.ndarray)
            assert type(got) is type(want) or isinstance(got, nt.ndarray)
            assert np.shape(got) == np.shape(want) and np.asarray(got).dtype == want.dtype
            np.testing.assert_array_equal(np.asarray(got), want)
        assert type(p([0.5, 1.0])) is np.ndarray     # other points: NumPy's call unchanged
        assert isinstance(p(2.0), np.generic)
