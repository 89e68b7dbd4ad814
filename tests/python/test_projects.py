"""What other projects' NumPy test suites found (tools/project_tests.py:
a project's pytest suite with its numpy imports rewritten to ndtile, beside
the same suite under NumPy), and the tool itself with the import rewriting
it shares with tools/numpy_tests.py and tools/run_scripts.py
(tools/ndtile_imports.py). Each behaviour compared with NumPy's."""
import json
import os
import runpy
import textwrap
import types
import typing
import warnings

import numpy
import pytest

import ndtile as nt

TOOLS = os.path.join(os.path.dirname(__file__), '..', '..', 'tools')
IMPORTS = runpy.run_path(os.path.join(TOOLS, 'ndtile_imports.py'))
PROJECT = runpy.run_path(os.path.join(TOOLS, 'project_tests.py'))


# -- where of scalars: an ndtile 0-d array (autograd's where wrapper) -----------

SCALARS = [
    (True, 3.0, 4.0), (False, 1, 2.0), (True, 1, 2), (False, 1, 2), (True, 1j, 2),
    (numpy.bool_(True), numpy.float32(1.5), 2), (0, numpy.int8(3), numpy.int16(-4)),
    (numpy.float64(2.0), False, True), (True, numpy.uint64(2**63), -1.5),
    (1.5, numpy.complex64(1 + 2j), numpy.float32(3)), (False, 2**62, numpy.int32(1)),
]


@pytest.mark.parametrize("c,x,y", SCALARS)
def test_where_of_scalars_is_an_ndtile_array(c, x, y):
    # NumPy's where gives a 0-d array (never a scalar); ndtile's gave
    # NumPy's own array, which `isinstance(r, np.ndarray)` refused
    r, e = nt.where(c, x, y), numpy.where(c, x, y)
    assert isinstance(r, nt.ndarray) and not isinstance(r, numpy.ndarray)
    assert r.shape == e.shape == () and r.dtype == e.dtype
    assert r.item() == e.item() and type(r.item()) is type(e.item())
    assert r.flags.writeable
    r[...] = y
    assert r.item() == numpy.where(False, x, y).item()


def test_where_of_scalars_errors():
    for args in ((True, 1), (numpy.bool_(False), 2.0)):
        en = et = None
        try:
            numpy.where(*args)
        except Exception as e:      # noqa: BLE001 - the exception is compared
            en = e
        try:
            nt.where(*args)
        except Exception as e:      # noqa: BLE001
            et = e
        assert type(en) is type(et)


# -- ndarray[shape, dtype]: annotations (numdifftools' cast(np.ndarray[Any, Any], x)) --

@pytest.mark.parametrize("item", [(typing.Any, typing.Any), int,
                                  (tuple[int, int], numpy.dtype[numpy.float64]), (int,)])
def test_ndarray_class_getitem(item):
    r, e = nt.ndarray[item], numpy.ndarray[item]
    assert type(r) is type(e) is types.GenericAlias
    assert typing.get_origin(r) is nt.ndarray and typing.get_args(r) == typing.get_args(e)
    x = nt.arange(3.0)
    assert typing.cast(nt.ndarray[item], x) is x

    class Sub(nt.ndarray):
        pass
    assert typing.get_origin(Sub[item]) is Sub


@pytest.mark.parametrize("item", [(), (int, int, int)])
def test_ndarray_class_getitem_arguments(item):
    with pytest.raises(TypeError) as en:
        numpy.ndarray[item]
    with pytest.raises(TypeError) as et:
        nt.ndarray[item]
    assert str(et.value) == str(en.value).replace('numpy', 'ndtile')


# -- ravel_multi_index of ndtile arrays (numdifftools' limits): ndtile's own ---------

def _outcome(f):
    try:
        return f(), None
    except Exception as e:      # noqa: BLE001 - the exception is compared
        return None, e


def _same_ravel(mi, dims, *a, **k):
    """ravel_multi_index of the coordinates as ndtile arrays and as NumPy
    arrays: the same values, dtype, type (a NumPy scalar for 0-d), or the
    same exception; and no fallback to NumPy."""
    tm = tuple(nt.asarray(m) if isinstance(m, numpy.ndarray) else m for m in mi)
    en_r, en = _outcome(lambda: numpy.ravel_multi_index(mi, dims, *a, **k))
    with warnings.catch_warnings():
        warnings.simplefilter('error', RuntimeWarning)
        et_r, et = _outcome(lambda: nt.ravel_multi_index(tm, dims, *a, **k))
    if en is not None or et is not None:
        assert type(en) is type(et) and str(en) == str(et), (en, et)
        return
    if isinstance(en_r, numpy.ndarray):
        assert isinstance(et_r, nt.ndarray)
        assert et_r.shape == en_r.shape and et_r.dtype == en_r.dtype
        numpy.testing.assert_array_equal(numpy.asarray(et_r), en_r)
    else:
        assert type(et_r) is type(en_r) and et_r == en_r


RNG = numpy.random.default_rng(26)


@pytest.mark.parametrize("dt", [numpy.int8, numpy.uint8, numpy.int16, numpy.int32, numpy.int64,
                                numpy.uint32, numpy.uint64, numpy.bool_])
@pytest.mark.parametrize("mode", ['raise', 'wrap', 'clip', ('clip', 'wrap', 'raise')])
@pytest.mark.parametrize("order", ['C', 'F'])
def test_ravel_multi_index(dt, mode, order):
    dims = (3, 5, 2)
    lo = 0 if mode == 'raise' or numpy.dtype(dt).kind in 'ub' else -7
    hi = 1 if dt == numpy.bool_ else (2 if mode == 'raise' else 9)
    mi = tuple(RNG.integers(lo, hi, (4, 6), endpoint=True).astype(dt) for _ in dims)
    if mode == 'raise':
        mi = tuple(numpy.minimum(m, d - 1).astype(dt) for m, d in zip(mi, dims))
    _same_ravel(mi, dims, mode=mode, order=order)
    # strided views, broadcasting, 0-d and empty coordinates
    _same_ravel((mi[0][::2, ::-3], mi[1][0], mi[2][1::2, :2]), dims, mode, order)
    _same_ravel((mi[0][0, 0], mi[1][1, 1], mi[2][2, 2]), dims, mode, order)
    _same_ravel(tuple(m[:0] for m in mi), dims, mode, order)
    _same_ravel(tuple(m[:0] for m in mi), (3, 0, 2), mode, order)


def test_ravel_multi_index_errors():
    a = numpy.array([1, 2])
    _same_ravel((a, numpy.array([3, 5])), (3, 4))                       # out of bounds
    _same_ravel((a, numpy.array([-1, 0])), (3, 4))
    _same_ravel((a, numpy.array([3, 0])), (3, 4), mode='bad')
    _same_ravel((a, numpy.array([3, 0])), (3, 4), mode=('clip',))
    _same_ravel((a, numpy.array([3, 0])), (3, 4), order='A')
    _same_ravel((a, numpy.array([3, 0, 1])), (3, 4))                    # broadcast
    _same_ravel((numpy.zeros((2, 3), int), numpy.zeros((4, 3), int)), (3, 4))
    _same_ravel((a,), (3, 4))                                           # too few
    _same_ravel((a, numpy.array([1.0, 2.0])), (3, 4))                   # float
    _same_ravel((a, numpy.array([3, 0])), (3, -4))
    _same_ravel((a, numpy.array([0, 0])), (0, 4))
    _same_ravel((a, numpy.array([3, 0])), (2**40, 2**40))
    _same_ravel((a, numpy.array([3, 0])), (3.0, 4))
    _same_ravel((a, []), (3, 4))                                        # an empty list
    _same_ravel((a, [3, 0]), (3, 4))                                    # mixed with a list
    _same_ravel((a, 3), (3, 4), mode='wrap')


def test_ravel_multi_index_result_is_new():
    # one dimension: the result is a new array, not the coordinates
    x = nt.arange(5)
    r = nt.ravel_multi_index((x,), (5,))
    r[0] = 9
    assert int(x[0]) == 0
    # an ndtile array of coordinates (its rows)
    m = numpy.array([[1, 2], [3, 0]])
    _same_ravel(tuple(m), (3, 4))
    numpy.testing.assert_array_equal(nt.ravel_multi_index(nt.asarray(m), (3, 4)),
                                     numpy.ravel_multi_index(m, (3, 4)))


def test_ravel_multi_index_large(default_settings):
    n = 400_000        # 3.2 MB coordinates: several 2 MiB tiles
    dims = (1000, 700, 30)
    mi = tuple(RNG.integers(-50, d + 50, n) for d in dims)
    for mode in ('wrap', 'clip'):
        _same_ravel(mi, dims, mode=mode)
    _same_ravel(tuple(m % d for m, d in zip(mi, dims)), dims, order='F')
    bad = tuple(m % d for m, d in zip(mi, dims))
    bad[1][n - 1] = 700
    _same_ravel(bad, dims)


# -- inner of a scalar, norm of any vector order (autograd's tests): ndtile's own --

def _warned(f):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        r = f()
    return r, sorted((type(x.message).__name__, str(x.message)) for x in w)


def _same_value(r, e, rtol):
    assert type(r) is type(e) if not isinstance(e, numpy.ndarray) else isinstance(r, nt.ndarray)
    r = numpy.asarray(r)
    assert r.dtype == e.dtype and r.shape == numpy.shape(e)
    numpy.testing.assert_allclose(r, e, rtol=rtol, equal_nan=True)


@pytest.mark.parametrize("a,b", [
    (1.5, 0.3), (3, 4), (numpy.float32(2), numpy.ones(3, numpy.float32)),
    (numpy.ones(3, numpy.float32), 1.5), (3, numpy.arange(4, dtype=numpy.int8)),
    (numpy.int8(3), numpy.arange(4, dtype=numpy.int8)), (True, numpy.array([1, 2], numpy.uint8)),
    (numpy.array(2.0), numpy.array(3.0)), (numpy.arange(6.).reshape(2, 3)[:, ::2], 2j),
    (1j, numpy.zeros(0, numpy.float32)), (numpy.array(5, numpy.int16), numpy.arange(3)),
])
def test_inner_of_a_scalar(monkeypatch, a, b):
    monkeypatch.setenv("NDTILE_FALLBACK", "error")
    e = numpy.inner(a, b)
    r = nt.inner(*(nt.asarray(v) if isinstance(v, numpy.ndarray) else v for v in (a, b)))
    _same_value(r, e, 0)


VECTORS = [
    numpy.random.default_rng(1).standard_normal(9),
    numpy.random.default_rng(2).standard_normal(9).astype(numpy.float32),
    (numpy.arange(7) - 3 + 1j * numpy.arange(7)).astype(numpy.complex64),
    numpy.array([0, 3, -4, 0]), numpy.array([0., 3, 0]), numpy.array([True, False, True]),
    numpy.array([numpy.inf, 1.0]), numpy.array([1e300, 1e300]),
    numpy.random.default_rng(3).standard_normal((3, 4))[:, ::-1],
]


@pytest.mark.parametrize("x", range(len(VECTORS)))
@pytest.mark.parametrize("ord", [3, 4, 0.5, -1, -0.5, -2.5, 0, 3.0, 1e-300])
def test_vector_norm_of_any_order(monkeypatch, x, ord):
    monkeypatch.setenv("NDTILE_FALLBACK", "error")
    x = VECTORS[x]
    axes = [None] if x.ndim == 1 else [0, 1, -1]
    rtol = 1e-5 if x.dtype in (numpy.float32, numpy.complex64) else 1e-12
    for axis in axes:
        for keepdims in (False, True):
            e, we = _warned(lambda: numpy.linalg.norm(x, ord, axis, keepdims))
            r, wr = _warned(lambda: nt.linalg.norm(nt.asarray(x), ord, axis, keepdims))
            _same_value(r, e, rtol)
            assert wr == we


def test_vector_norm_of_any_order_large(default_settings):
    x = numpy.random.default_rng(4).standard_normal(600_000)      # 4.8 MB: several tiles
    for ord in (3, -1.5, 0):
        e = numpy.linalg.norm(x, ord)
        r = nt.linalg.norm(nt.asarray(x), ord)
        assert type(r) is type(e)
        numpy.testing.assert_allclose(r, e, rtol=1e-10)
    m = x.reshape(1000, 600)
    numpy.testing.assert_allclose(nt.linalg.norm(nt.asarray(m), 3, axis=0),
                                  numpy.linalg.norm(m, 3, axis=0), rtol=1e-12)


# -- tools/ndtile_imports.py ----------------------------------------------------

def test_rewrite_imports():
    text = textwrap.dedent('''\
        import numpy as np  # a comment
        import numpy
        import numpy.linalg
        import numpy.testing as npt
        import numpy._core.umath as um
        import numpyro
        from numpy import array
        from numpy.random import default_rng
        from numpy.lib.stride_tricks import as_strided
        from numpy.lib._function_base_impl import _quantile
        from numpy._core.multiarray import normalize_axis_index
        def f():
            import numpy as onp
            from numpy.polynomial import Polynomial
        x = """
        >>> import numpy as np
        """
        ''')
    out = IMPORTS['rewrite'](text).splitlines()
    assert out[:4] == ['import ndtile as np  # a comment', 'import ndtile as numpy',
                       'import ndtile.linalg', 'import ndtile as numpy']
    assert out[4:13] == [
        'import ndtile.testing as npt',
        'import numpy._core.umath as um',           # NumPy's internals stay NumPy's
        'import numpyro',
        'from ndtile import array',
        'from ndtile.random import default_rng',
        'from ndtile.lib.stride_tricks import as_strided',
        'from numpy.lib._function_base_impl import _quantile',
        'from numpy._core.multiarray import normalize_axis_index',
        'def f():']
    assert out[13:15] == ['    import ndtile as onp', '    from ndtile.polynomial import Polynomial']
    assert out[16] == '>>> import numpy as np'       # a docstring's example stays
    # only=: the submodules that take ndtile; plain_numpy=False keeps `numpy`
    out = IMPORTS['rewrite']('import numpy\nfrom numpy.linalg import norm\n'
                             'from numpy.testing import assert_equal\n',
                             only=('', 'testing'), plain_numpy=False)
    assert out == 'import numpy\nfrom numpy.linalg import norm\nfrom ndtile.testing import assert_equal\n'


def test_rewritten_module_runs_on_ndtile(tmp_path):
    code = IMPORTS['rewrite']('import numpy\nimport numpy.testing\nimport numpy.linalg as la\n'
                              'from numpy.testing import assert_allclose\n'
                              'a = numpy.arange(4.0).reshape(2, 2)\n'
                              'assert_allclose(la.inv(la.inv(a)), a)\n')
    ns = {}
    exec(compile(code, str(tmp_path / 'm.py'), 'exec'), ns)
    assert ns['numpy'] is nt and isinstance(ns['a'], nt.ndarray)


# -- tools/project_tests.py -------------------------------------------------------

MINI = {
    'mini/__init__.py': 'import numpy as np\n\n\ndef double(x):\n    return np.asarray(x) * 2\n',
    'tests/test_mini.py': textwrap.dedent('''\
        import numpy
        import pytest
        from numpy.testing import assert_array_equal

        import mini


        def test_double():
            assert_array_equal(mini.double([1, 2]), [2, 4])


        def test_numpys_own_class():
            assert type(mini.double([1])) is __import__('numpy').ndarray


        def test_fails_everywhere():
            assert numpy.sum([1, 2]) == 4


        @pytest.mark.skip(reason='no')
        def test_skipped():
            pass
        '''),
    'pyproject.toml': '[tool.pytest.ini_options]\naddopts = "--cov=mini"\n',
}


def test_project_tests_lists_the_ndtile_only_failures(tmp_path):
    src = tmp_path / 'mini-project'
    for rel, text in MINI.items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(text)
    rep, res = PROJECT['run_project'](str(src), str(tmp_path / 'out'), [], 300, False)
    # (the project's addopts, pytest-cov's --cov, are dropped)
    assert rep['numpy']['counts'] == {'passed': 2, 'failed': 1, 'skipped': 1}
    assert rep['ndtile']['counts'] == {'passed': 1, 'failed': 2, 'skipped': 1}
    assert rep['ndtile']['files_rewritten'] == 2
    assert list(rep['ndtile_only']) == ['tests.test_mini::test_numpys_own_class']
    assert rep['ndtile_only']['tests.test_mini::test_numpys_own_class'].startswith('AssertionError')
    saved = json.loads((tmp_path / 'out' / 'mini-project' / 'report.json').read_text())
    assert saved['ndtile_only'] == rep['ndtile_only']
    # the source checkout is left as it was
    assert (src / 'mini' / '__init__.py').read_text() == MINI['mini/__init__.py']


def test_project_tests_numpy_version_gates(tmp_path):
    # --numpy-version: a project's gate on np.__version__ (ndtile's under
    # ndtile, deviations.md 21) reads NumPy's in the ndtile copy, for every
    # name bound to ndtile; other attributes and names are left alone
    nv = PROJECT['numpy_version']
    text = IMPORTS['rewrite']('import numpy as np\nimport numpy as onp\nimport numpy\n'
                              'a = np.__version__\nb = onp.__version__\nc = numpy.__version__\n'
                              'd = mod.np.__version__\ne = np.version\n'
                              'f = f"numpy-{np.__version__}"\n')
    out = nv(text)
    assert out.count('__import__("numpy").__version__') == 3
    assert 'd = mod.np.__version__' in out and 'e = np.version' in out
    # strings are left alone (in an f-string the new quotes would clash)
    assert 'f = f"numpy-{np.__version__}"' in out
    ns = {'mod': types.SimpleNamespace(np=nt)}
    exec(out, ns)
    assert ns['a'] == ns['b'] == ns['c'] == numpy.__version__
    src = tmp_path / 'gate'
    (src / 'tests').mkdir(parents=True)
    (src / 'tests' / 'test_gate.py').write_text(
        'import numpy as np\n\n\ndef test_gate():\n'
        '    assert np.lib.NumpyVersion(np.__version__) >= "2.0.0"\n')
    for flag, outcome in ((False, 'failed'), (True, 'passed')):
        rep, _ = PROJECT['run_project'](str(src), str(tmp_path / 'out'), [], 300, False,
                                        False, flag)
        assert rep['numpy']['counts'] == {'passed': 1}
        assert rep['ndtile']['counts'] == {outcome: 1}
