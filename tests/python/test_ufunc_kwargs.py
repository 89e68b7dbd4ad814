"""The ufunc call's keywords and methods as NumPy's own test files use them
(tools/numpy_tests.py _core/tests/test_ufunc.py, test_umath.py), each
compared with NumPy: where= without out= (NumPy's UserWarning), where= of
lists and scalars, out=... and the out= rules of ufuncs with two outputs,
__signature__ and pickling, reduce(initial=None) and its positional out,
at() on 0-d arrays, vecdot of object and subclass operands, ldexp of Python
scalars, and ComplexWarning where a ufunc or reduction casts complex values
to a real dtype (dtype=, a masked out=, a reduction's out=)."""
import inspect
import os
import pickle
import runpy
import sys
import warnings

import numpy as np
import pytest

import ndtile as nt
from _helpers import assert_same, make

CW = np.exceptions.ComplexWarning
TOOL = os.path.join(os.path.dirname(__file__), '..', '..', 'tools', 'numpy_tests.py')
WHERE_MSG = "'where' used without 'out'"
DTYPES = [np.dtype(t) for t in (np.bool_, np.int8, np.uint16, np.int32, np.int64, np.float32,
                                np.float64, np.complex64, np.complex128)]


def _warned(fn, category):
    """fn's result and how many warnings of category it raised."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        r = fn()
    return r, sum(1 for x in w if issubclass(x.category, category))


def _views(dtype, n=7):
    """(numpy, ndtile) operands: 1-d, a strided view, 0-d and empty."""
    a = make(dtype, (2 * n,), seed=3)
    yield a[:n], nt.asarray(a[:n])
    yield a[::2], nt.asarray(a)[::2]
    yield a[3].reshape(()), nt.asarray(a[3].reshape(()))
    yield a[:0], nt.asarray(a[:0])


# -- where= -------------------------------------------------------------------

@pytest.mark.parametrize('dt', DTYPES, ids=str)
def test_where_without_out_warns_as_numpy(dt):
    for a, x in _views(dt):
        m = [True] * a.size if a.ndim else [True]
        for kw in ({'where': m}, {'where': np.True_}, {'where': False}):
            _, n_np = _warned(lambda: np.negative(a, **kw) if dt.kind != 'b' else
                              np.invert(a, **kw), UserWarning)
            _, n_nt = _warned(lambda: nt.negative(x, **kw) if dt.kind != 'b' else
                              nt.invert(x, **kw), UserWarning)
            assert n_np == n_nt == 1, (kw, n_np, n_nt)
        # quiet: out=None given, where=True, or an out array
        for kw in ({'where': m, 'out': None}, {'where': True}, {}):
            r, n = _warned(lambda: nt.add(x, x, **kw), UserWarning)
            assert n == 0
            assert_same(r, np.add(a, a, **kw))   # (m: all True)
    with pytest.warns(UserWarning, match=WHERE_MSG):
        nt.add(1.0, 2.0, where=[True, False])      # scalars (NumPy's call) too


def test_where_without_out_warns_once_for_subclasses():
    class SubNp(np.ndarray):
        pass

    class SubNt(nt.ndarray):
        pass
    a, x = np.arange(3.).view(SubNp), nt.arange(3.).view(SubNt)
    m = [True, False, True]
    for kw, n in (({'where': m}, 1), ({'where': m, 'out': None}, 0)):
        r_np, n_np = _warned(lambda: np.add(a, 1, **kw), UserWarning)
        r_nt, n_nt = _warned(lambda: nt.add(x, 1, **kw), UserWarning)
        assert n_np == n_nt == n
        assert type(r_nt) is SubNt and type(r_np) is SubNp


@pytest.mark.parametrize('name', ['maximum', 'minimum', 'fmax', 'add'])
@pytest.mark.parametrize('shape', [(), (5,), (40, 300)])
def test_positional_out_of_extremum_warns_as_numpy(name, shape):
    # NumPy 2.4 deprecates maximum(a, b, out) and minimum(a, b, out) (out
    # positionally), not other ufuncs' positional out
    a, b = make(np.float64, shape), make(np.float64, shape, seed=1)
    o_np, o_nt = np.zeros(shape), nt.zeros(shape)
    r_np, n_np = _warned(lambda: getattr(np, name)(a, b, o_np), DeprecationWarning)
    r_nt, n_nt = _warned(lambda: getattr(nt, name)(nt.asarray(a), nt.asarray(b), o_nt),
                         DeprecationWarning)
    assert n_np == n_nt == (1 if name in ('maximum', 'minimum') else 0)
    assert r_nt is o_nt
    assert_same(o_nt, o_np)
    for kw in ({'out': o_nt}, {}):
        _, n = _warned(lambda: getattr(nt, name)(nt.asarray(a), b, **kw), DeprecationWarning)
        assert n == 0


def test_array_wrap_of_fewer_arguments_is_retried_as_numpy():
    # an array-like's __array_wrap__ that takes (arr, context) or (arr) only:
    # NumPy calls it with 3, then 2, then 1 argument, and warns once
    for xp in (np, nt):
        class Ctx:
            def __array__(self, dtype=None, copy=None):
                return xp.arange(4)

            def __array_wrap__(self, arr, context=None):
                self.got = (arr.tolist(), context is not None)
                return 'ctx'

        class Arr(Ctx):
            def __array_wrap__(self, arr):
                self.got = arr.tolist()
                return 'arr'

        class Neither(Ctx):
            def __array_wrap__(self):
                return 'never'
        c, a = Ctx(), Arr()
        assert _warned(lambda: xp.negative(c), DeprecationWarning) == ('ctx', 1)
        assert c.got == ([0, -1, -2, -3], True)
        assert _warned(lambda: xp.negative(a), DeprecationWarning) == ('arr', 1)
        assert a.got == [0, -1, -2, -3]
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter('always')
            with pytest.raises(TypeError):
                xp.negative(Neither())
        assert not [x for x in w if issubclass(x.category, DeprecationWarning)]


@pytest.mark.parametrize('dt', DTYPES, ids=str)
def test_where_list_and_scalar_cast_to_bool(dt):
    for a, x in _views(dt):
        if a.ndim == 0:
            wheres = [1, 0, np.int64(1), 2.5]
        else:
            wheres = [[1, 0, 2, 0, 1, 0, 3][:a.size], 0, 1, np.int64(0), 0.5]
        for w in wheres:
            o_np = np.zeros(a.shape, a.dtype)
            o_nt = nt.zeros(a.shape, a.dtype)
            assert_same(nt.add(x, x, out=o_nt, where=w), np.add(a, a, out=o_np, where=w))
        # an array mask must be bool (casting='safe'), NumPy's or ndtile's
        if a.size:
            im = np.ones(a.shape, np.int64)
            for m in (im, nt.asarray(im)):
                with pytest.raises(TypeError, match="to dtype\\('bool'\\)"):
                    nt.add(x, x, out=nt.zeros(a.shape, a.dtype), where=m)
                with pytest.raises(TypeError, match="to dtype\\('bool'\\)"):
                    nt.add.reduce(x, where=m)


def test_where_wrong_shape_is_numpys_error():
    a = np.arange(3.)
    with pytest.raises(ValueError, match="non-broadcastable output"):
        np.add(a, 1, out=np.zeros(3), where=[[1, 0, 1]])
    with pytest.raises(ValueError, match="non-broadcastable output"):
        nt.add(nt.asarray(a), 1, out=nt.zeros(3), where=[[1, 0, 1]])


# -- out=... and the out= of two-output ufuncs ---------------------------------

@pytest.mark.parametrize('dt', [np.dtype(np.int32), np.dtype(np.float64)], ids=str)
def test_out_ellipsis_gives_arrays(dt):
    for a, x in _views(dt):
        assert_same(nt.add(x, 2, out=...), np.add(a, 2, out=...))
        assert_same(nt.add.reduce(x, out=...), np.add.reduce(a, out=...))
        assert_same(nt.divmod(x, 3, out=...), np.divmod(a, 3, out=...))
    for f in ('add', 'subtract'):
        r = getattr(nt, f)(1, 2, out=...)
        assert isinstance(r, nt.ndarray) and r.ndim == 0
    assert_same(nt.modf(5.5, out=...), np.modf(5.5, out=...))
    assert_same(nt.add.reduce(1, out=...), np.add.reduce(1, out=...))


def test_out_ellipsis_errors():
    x = nt.arange(3.)
    pos = r"out=\.\.\. is only allowed as a keyword argument\."
    tup = r"must use `\.\.\.` as `out=\.\.\.` and not per-operand/in a tuple"
    for fn, msg in ((lambda m: m.add(1, 2, ...), pos),
                    (lambda m: m.add.reduce(1, (), None, ...), pos),
                    (lambda m: m.negative(1, out=(...,)), tup),
                    (lambda m: m.divmod(1, 2, out=(m.empty(()), ...)), tup),
                    (lambda m: m.add.reduce(1, out=(...,)), tup),
                    (lambda m: m.modf(m.arange(3.), ...), pos)):
        with pytest.raises(TypeError, match=msg):
            fn(np)
        with pytest.raises(TypeError, match=msg):
            fn(nt)
    assert x.sum() == 3


@pytest.mark.parametrize('name', ['modf', 'frexp', 'divmod'])
def test_two_output_out_rules(name):
    a = np.linspace(-3, 3, 7)
    x = nt.asarray(a)

    def call(m, *args, **kw):
        f = getattr(m, name)
        arr = a if m is np else x
        return f(arr, 2, *args, **kw) if name == 'divmod' else f(arr, *args, **kw)
    second = np.int32 if name == 'frexp' else np.float64
    cases = [((), {'out': None}), ((), {'out': 'z'}), (('z',), {}), (('z', None), {}),
             ((None, None), {}), ((), {'out': (None,)}), ((), {'out': (None, None)}),
             ((), {'out': ('z', None)}), ((), {'out': ('z', 'i')}), (('z',), {'out': (None, None)}),
             ((), {'out': ('z', 'i'), 'where': [True, False] * 3 + [True]})]
    for args, kw in cases:
        def mk(m, v):
            if v == 'z':
                return m.zeros(7)
            if v == 'i':
                return m.zeros(7, second)
            return v
        res = []
        for m in (np, nt):
            a2 = tuple(mk(m, v) for v in args)
            k2 = {k: (tuple(mk(m, v) for v in v_) if isinstance(v_, tuple) else mk(m, v_))
                  for k, v_ in kw.items()}
            try:
                res.append(call(m, *a2, **k2))
            except Exception as e:
                res.append(e)
        if isinstance(res[0], Exception):
            assert type(res[1]) is type(res[0]) and str(res[1]) == str(res[0]), (args, kw, res)
        else:
            assert_same(res[1], res[0])


# -- attributes, signature, pickling -----------------------------------------

@pytest.mark.parametrize('name', ['log', 'add', 'gcd', 'frexp', 'divmod', 'matvec', 'vecdot',
                                  'matmul', 'isnat'])
def test_signature_is_numpys(name):
    f = getattr(nt, name)
    assert isinstance(f.__signature__, inspect.Signature)
    assert inspect.signature(f) == inspect.signature(getattr(np, name))
    assert (f.nin, f.nout, f.ntypes, f.types, f.identity, f.signature) == \
        tuple(getattr(getattr(np, name), k)
              for k in ('nin', 'nout', 'ntypes', 'types', 'identity', 'signature'))
    assert nt.ufunc.__signature__ is None


@pytest.mark.parametrize('name', ['sin', 'add', 'divmod', 'frexp', 'matmul', 'vecdot', 'gcd',
                                  'ldexp', 'isnat'])
def test_pickle_gives_the_same_ufunc(name):
    f = getattr(nt, name)
    for proto in range(2, pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(f, protocol=proto)) is f


# -- methods --------------------------------------------------------------------

@pytest.mark.parametrize('dt', [np.dtype(t) for t in (np.bool_, np.int16, np.float32,
                                                      np.complex128)], ids=str)
def test_reduce_initial_none(dt):
    for shape, axis in (((0,), 0), ((0, 3), 1), ((3, 0), 1), ((0, 0), 1), ((0, 3), None),
                        ((0, 3), 0), ((2, 0, 3), (0, 1)), ((4, 5), 0), ((4, 5), None), ((), None)):
        a = make(dt, shape)
        for x in (a, nt.asarray(a), nt.asarray(a).T if len(shape) == 2 else a):
            for u in ('add', 'multiply', 'minimum', 'logical_or'):
                xx = a if x is a else (a.T if x is not a and getattr(x, 'ndim', 0) == 2
                                       and x.shape != a.shape else a)
                try:
                    exp = getattr(np, u).reduce(xx, axis=axis, initial=None)
                except (ValueError, TypeError) as e:
                    with pytest.raises(type(e), match=str(e)[:30].replace('(', '.')):
                        getattr(nt, u).reduce(x, axis=axis, initial=None)
                    continue
                assert_same(getattr(nt, u).reduce(x, axis=axis, initial=None), exp, 1e-5)
    x = nt.arange(3.)
    with pytest.raises(ValueError, match="to use a where mask one has to specify 'initial'"):
        nt.add.reduce(x, where=nt.asarray([True, False, True]), initial=None)
    with pytest.raises(ValueError, match="zero-size array to reduction operation add"):
        nt.add.reduce([], initial=None, dtype=object)
    assert nt.add.reduce([], initial=np._NoValue) == 0


def test_reduce_positional_arguments():
    a = np.arange(6.).reshape(2, 3)
    x = nt.asarray(a)
    o_np, o_nt = np.zeros((1, 3)), nt.zeros((1, 3))
    assert_same(nt.add.reduce(x, 0, None, o_nt, True, 5, True),
                np.add.reduce(a, 0, None, o_np, True, 5, True))
    assert_same(o_nt, o_np)
    assert_same(nt.add.reduce(x, 0, None, None, True), np.add.reduce(a, 0, None, None, True))
    assert_same(nt.add.reduce(x, 1, None, None, initial=2.0),
                np.add.reduce(a, 1, None, None, initial=2.0))


def test_at_on_0d():
    for k in [(), Ellipsis, (Ellipsis,), None, (None,), True, False, np.True_]:
        a, x = np.array(5), nt.asarray(np.array(5))
        np.add.at(a, k, 1)
        nt.add.at(x, k, 1)
        assert_same(x, a)
    for k in ([], [0], 0, slice(None), np.array([], int), (0, 0)):
        x = nt.asarray(np.array(5))
        with pytest.raises(IndexError, match="too many indices for array: array is "
                                             "0-dimensional"):
            nt.add.at(x, k, 1)
        with pytest.raises(IndexError):
            np.add.at(np.array(5), k, 1)


def test_vecdot_object_subclass_and_axes():
    a1, a2 = np.array([1, 2j, 3]), np.array([1, 2, 3])
    exp = np.vecdot(a1.astype(object), a2.astype(object))
    assert nt.vecdot(nt.asarray(a1).astype(object), nt.asarray(a2).astype(object)) == exp
    arr = np.array(["1", "2"], dtype=object)
    with pytest.raises(AttributeError, match="conjugate"):
        nt.vecdot(arr, arr)

    class Sub(nt.ndarray):
        pass
    r = nt.vecdot(nt.arange(6).reshape((2, 3)).view(Sub), nt.arange(3).reshape((1, 3)).view(Sub))
    assert isinstance(r, Sub)
    assert_same(r.view(nt.ndarray), np.vecdot(np.arange(6).reshape((2, 3)), np.arange(3)))
    a = np.arange(27.).reshape((3, 3, 3))
    b = np.arange(10., 19.).reshape((3, 1, 3))
    x, y = nt.asarray(a), nt.asarray(b)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', RuntimeWarning)     # (keywords run in NumPy)
        for kw in ({'axes': [(-1,), (-1,), ()]}, {'axes': [0, 0, ()]},
                   {'axis': 0, 'keepdims': True}, {'axes': [(-1,), (-1,), (-1,)],
                                                   'keepdims': True}):
            assert_same(nt.vecdot(x, y, **kw), np.vecdot(a, b, **kw))
    assert_same(nt.vecdot(x, y, axis=0), np.vecdot(a, b, axis=0))


def test_ldexp_python_scalars():
    with np.errstate(over='ignore'):
        for m, e in ((2., 2**63 - 1), (2., -2**63), (2, 2**40), (2., 2**31)):
            assert_same(nt.ldexp(m, e), np.ldexp(m, e))
        for m in (np.float64(2.), nt.asarray([2.]), nt.asarray(2.)):
            with pytest.raises(OverflowError, match="out of bounds for int32"):
                nt.ldexp(m, 2**40)
        with pytest.raises(OverflowError):
            nt.ldexp(2., 2**64)


# -- ComplexWarning -------------------------------------------------------------

def _same_warning(fn_np, fn_nt):
    r_np, n_np = _warned(fn_np, CW)
    r_nt, n_nt = _warned(fn_nt, CW)
    assert (n_np > 0) == (n_nt > 0), (n_np, n_nt)
    return r_np, r_nt


@pytest.mark.parametrize('cdt', [np.complex64, np.complex128])
@pytest.mark.parametrize('to', [np.int8, np.int64, np.uint32, np.float32, np.float64, np.bool_,
                                np.complex64])
def test_complex_warning_ufunc_dtype(cdt, to):
    for a, x in _views(cdt):
        for f in ('add', 'multiply', 'subtract'):
            if f == 'subtract' and to is np.bool_:
                continue
            e, g = _same_warning(lambda: getattr(np, f)(a, 1, dtype=to, casting='unsafe'),
                                 lambda: getattr(nt, f)(x, 1, dtype=to, casting='unsafe'))
            assert_same(g, e)
        e, g = _same_warning(lambda: np.negative(a, dtype=to, casting='unsafe')
                             if to is not np.bool_ else None,
                             lambda: nt.negative(x, dtype=to, casting='unsafe')
                             if to is not np.bool_ else None)
        if e is not None:
            assert_same(g, e)
    # a Python complex operand is cast too; real arrays with it
    r = np.arange(3.)
    e, g = _same_warning(lambda: np.add(r, 1j, dtype=to, casting='unsafe'),
                         lambda: nt.add(nt.asarray(r), 1j, dtype=to, casting='unsafe'))
    assert_same(g, e)
    _, n = _warned(lambda: nt.add(1 + 2j, 1, dtype=float, casting='unsafe'), CW)
    assert n == 1       # (once: NumPy's own call)


@pytest.mark.parametrize('cdt', [np.complex64, np.complex128])
@pytest.mark.parametrize('to', [np.int16, np.float32, np.float64, np.bool_])
def test_complex_warning_reductions_dtype(cdt, to):
    for a, x in _views(cdt):
        for f, kw in (('sum', {}), ('prod', {}), ('cumsum', {}), ('cumprod', {}), ('mean', {}),
                      ('nansum', {}), ('sum', {'keepdims': True})):
            if f in ('mean',) and (to is np.bool_ or np.dtype(to).kind == 'i'):
                continue
            e, g = _same_warning(lambda: getattr(np, f)(a, dtype=to, **kw),
                                 lambda: getattr(nt, f)(x, dtype=to, **kw))
            assert_same(g, e, 1e-5)
        for u in ('add', 'multiply', 'maximum'):
            if a.ndim == 0 or a.size == 0:
                continue
            e, g = _same_warning(lambda: getattr(np, u).reduce(a, dtype=to),
                                 lambda: getattr(nt, u).reduce(x, dtype=to))
            assert_same(g, e, 1e-5)
        if a.ndim:
            e, g = _same_warning(lambda: np.add.accumulate(a, dtype=to),
                                 lambda: nt.add.accumulate(x, dtype=to))
            assert_same(g, e, 1e-5)


@pytest.mark.parametrize('to', [np.int16, np.float32, np.float64, np.bool_])
def test_complex_warning_masked_out_and_reduction_out(to):
    for a, x in _views(np.complex128):
        m = (np.arange(a.size) % 2 == 0).reshape(a.shape)
        for mask in (m, m.tolist(), np.zeros_like(m)):
            o_np, o_nt = np.zeros(a.shape, to), nt.zeros(a.shape, to)
            e, g = _same_warning(lambda: np.add(a, 1, out=o_np, where=mask, casting='unsafe'),
                                 lambda: nt.add(x, 1, out=o_nt, where=mask, casting='unsafe'))
            assert_same(o_nt, o_np)
        # the masked out's cast follows casting= (same_kind: NumPy's UFuncTypeError)
        if to is not np.bool_ and a.size:
            with pytest.raises(np._core._exceptions._UFuncOutputCastingError):
                np.add(a, 1, out=np.zeros(a.shape, to), where=m)
            with pytest.raises(np._core._exceptions._UFuncOutputCastingError):
                nt.add(x, 1, out=nt.zeros(a.shape, to), where=m)
        for f in ('sum', 'max', 'mean', 'cumsum'):
            shape = (a.size,) if f == 'cumsum' else ()
            if f == 'max' and not a.size:
                continue
            o_np, o_nt = np.zeros(shape, to), nt.zeros(shape, to)
            _same_warning(lambda: getattr(np, f)(a, out=o_np), lambda: getattr(nt, f)(x, out=o_nt))
            assert_same(o_nt, o_np, 1e-5)


def test_complex_warning_points_at_the_caller():
    z = nt.asarray([1 + 2j, 3j])
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        nt.add(z, 1, dtype=float, casting='unsafe')
        nt.add(z, 1, out=nt.zeros(2), casting='unsafe', where=[True, False])
        nt.sum(z, dtype=float)
        z.sum(dtype=float)
        nt.sum(z, out=nt.zeros(()))
    assert [x.category for x in w] == [CW] * 5
    assert all(x.filename == __file__ for x in w), [x.filename for x in w]


@pytest.mark.default_settings
def test_complex_warning_large_arrays():
    n = 300_000                     # 4.8 MB of complex128: several 2 MiB tiles
    a = (np.arange(n) + 1j * np.arange(n)[::-1]).astype(np.complex128)
    x = nt.asarray(a)
    e, g = _same_warning(lambda: np.add(a, 1, dtype=np.float64, casting='unsafe'),
                         lambda: nt.add(x, 1, dtype=np.float64, casting='unsafe'))
    assert_same(g, e)
    e, g = _same_warning(lambda: np.sum(a[::3], dtype=np.float64),
                         lambda: nt.sum(x[::3], dtype=np.float64))
    assert_same(g, e, 1e-12)
    m = np.arange(n) % 3 == 0
    o_np, o_nt = np.zeros(n), nt.zeros(n)
    _same_warning(lambda: np.multiply(a, 2, out=o_np, where=m, casting='unsafe'),
                  lambda: nt.multiply(x, 2, out=o_nt, where=nt.asarray(m), casting='unsafe'))
    assert_same(o_nt, o_np)
    with pytest.warns(UserWarning, match=WHERE_MSG):
        nt.add(x, 1, where=nt.asarray(m))


# -- NumPy's errors, on every call ----------------------------------------------

def _same_error(fn):
    with pytest.raises(Exception) as e_np:
        fn(np)
    with pytest.raises(type(e_np.value)) as e_nt:
        fn(nt)
    assert str(e_nt.value) == str(e_np.value)


@pytest.mark.parametrize('shape', [(3,), (), (0,), (4, 5)])
def test_no_loop_errors_are_numpys_every_time(shape):
    for name, dts in (('arctan2', ('?', 'F')), ('left_shift', ('?', 'f')), ('invert', ('f',)),
                      ('divmod', ('?', 'D')), ('floor_divide', ('b', 'F')), ('remainder', ('d', 'D'))):
        for _ in range(3):      # (the second call took a cached fast path)
            _same_error(lambda m: getattr(m, name)(*[m.ones(shape, d) for d in dts]))


def test_out_cast_errors_name_numpys_ufunc_and_loop():
    for name, dts in (('fabs', ('h',)), ('fabs', ('b',)), ('nextafter', ('?', '?')),
                      ('spacing', ('b',)), ('fabs', ('d',))):
        for out in ('i', 'l', 'B'):
            _same_error(lambda m: getattr(m, name)(*[m.ones(3, d) for d in dts],
                                                   out=m.zeros(3, out)))


@pytest.mark.parametrize('dt', ['?', 'f', 'd'])
def test_reduce_type_errors_are_numpys(dt):
    for kw in ({}, {'axis': None}, {'axis': 1, 'keepdims': True}, {'dtype': 'd'},
               {'initial': 2}):
        _same_error(lambda m: m.gcd.reduce(m.ones((3, 4), dt), **kw))
    _same_error(lambda m: m.gcd.reduce(m.ones((3, 4), dt), axis=1, out=m.zeros(3, 'd')))
    for u in ('logical_and', 'logical_or'):
        _same_error(lambda m: getattr(m, u).reduce(m.ones((3, 4), dt), dtype='d'))


@pytest.mark.parametrize('dt', ['?', 'b', 'l', 'f', 'D'])
@pytest.mark.parametrize('u', ['logical_and', 'logical_or'])
def test_logical_reduce_initial(dt, u):
    a = make(dt, (3, 4), seed=5)
    x = nt.asarray(a)
    for kw in ({'initial': 0}, {'initial': 1}, {'initial': 5, 'axis': 1},
               {'initial': 0, 'axis': None}, {'initial': 1, 'where': [True, False, True, True]},
               {'initial': 0, 'where': [True, False, True, True]}, {'initial': False, 'keepdims': True}):
        assert_same(getattr(nt, u).reduce(x, **kw), getattr(np, u).reduce(a, **kw))
        assert_same(getattr(nt, u).reduce(x[:0], **kw), getattr(np, u).reduce(a[:0], **kw))
        assert_same(getattr(nt, u).reduce(x[::2, ::-1], **kw),
                    getattr(np, u).reduce(a[::2, ::-1], **kw))
    o_np, o_nt = np.ones(4, bool), nt.ones(4, bool)
    getattr(np, u).reduce(a, initial=0, out=o_np)
    getattr(nt, u).reduce(x, initial=0, out=o_nt)
    assert_same(o_nt, o_np)


def test_at_names_the_first_bad_index():
    for n, idx in ((0, [0, 0, 2]), (3, [1, 5, 7, -9]), (3, [-4, 5]), (3, [2, 1, 3, 0])):
        _same_error(lambda m: m.add.at(m.zeros(n), idx, 1))


# -- tools/numpy_tests.py: NumPy's ufunc module as ndtile's ufuncs ----------------

def test_numpy_tests_maps_numpys_umath_to_ndtiles_ufuncs(tmp_path, monkeypatch):
    tool = runpy.run_path(TOOL)
    text = tool['rewrite']("import numpy as np\nimport numpy._core.umath as ncu\n"
                           "UFUNCS = [obj for obj in np._core.umath.__dict__.values()\n"
                           "          if isinstance(obj, np.ufunc)]\n")
    assert 'import ndtile as np' in text and 'import _nt_umath as ncu' in text
    assert '_nt_umath.__dict__.values()' in text
    (tmp_path / '_nt_umath.py').write_text(tool['_UMATH_SHIM'])
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, '_nt_umath', raising=False)
    ns = {}
    exec(compile(text, str(tmp_path / 'probe.py'), 'exec'), ns)
    names = {u.__name__ for u in ns['UFUNCS']}
    # every NumPy ufunc ndtile has, as ndtile's object; NumPy's constants stay
    assert {'add', 'arctan', 'divmod', 'matmul', 'frexp', 'isnat'} <= names
    assert all(u is getattr(nt, u.__name__) for u in ns['UFUNCS'])
    assert ns['ncu'].arctan is nt.arctan and ns['ncu'].PZERO == 0.0
    assert ns['ncu'].BUFSIZE == np._core.umath.BUFSIZE
    assert ns['ncu'].str_len is np._core.umath.str_len     # (none in ndtile)


def test_operand_whose_array_is_an_ndtile_array():
    """An object whose __array__ returns an ndtile array (a program's own
    class, written with np = ndtile) is an array operand, not a scalar:
    NumPy's scalar call refused it ('object __array__ method not producing
    an array')."""
    class Holder:
        def __init__(self, data):
            self.data = data

        def __array__(self, dtype=None, copy=None):
            return nt.asarray(self.data)

    class NpHolder(Holder):
        def __array__(self, dtype=None, copy=None):
            return np.asarray(self.data)
    for dt in (np.int16, np.float64, np.complex64):
        for data in (np.arange(5, dtype=dt), np.arange(6, dtype=dt).reshape(2, 3)[:, ::2],
                     np.array(3, dtype=dt), np.zeros(0, dt)):
            h = Holder(data)
            assert_same(nt.add(h, 1), np.add(NpHolder(data), 1))
            assert_same(nt.negative(h), np.negative(NpHolder(data)))
            if dt is not np.complex64:
                assert_same(nt.modf(h), np.modf(NpHolder(data)))
            assert_same(nt.multiply(h, h), np.multiply(data, data))


def _outcome(f):
    try:
        return 'ok', f()
    except Exception as e:       # the exception's type and words, as NumPy's
        return type(e).__name__, str(e)


def _same_outcome(f):
    (kn, rn), (kt, rt) = _outcome(lambda: f(np)), _outcome(lambda: f(nt))
    assert kt == kn, (rt, rn)
    if kn == 'ok':
        assert_same(rt, rn)
    else:
        assert rt == rn


@pytest.mark.parametrize('dt', ['int8', 'uint16', 'int64', 'float32', 'float64', 'complex128'])
@pytest.mark.parametrize('shape', [(), (0,), (3, 4), 'strided'])
def test_order_keyword_is_checked(dt, shape):
    def data(m):
        a = m.asarray(make(dt, (6, 8) if shape == 'strided' else shape, 1))
        return a[::2, ::2] if shape == 'strided' else a
    for order in ('K', 'C', 'F', 'A', 'c', 'k', None, 'X', 'kk', '', 1):
        _same_outcome(lambda m: m.add(data(m), 1, order=order).tolist())
        _same_outcome(lambda m: m.negative(data(m), order=order).tolist())
        _same_outcome(lambda m: m.add(data(m), data(m), order=order, out=None).tolist())


@pytest.mark.parametrize('shape', [(), (0,), (5,), (3, 4)])
def test_out_tuple_needs_one_entry_per_output(shape):
    a = make('float64', shape, 2)
    for out in ((None, None), (), (None,), (None, None, None)):
        _same_outcome(lambda m: m.add(m.asarray(a), 1, out=out))
        _same_outcome(lambda m: m.sqrt(m.asarray(a), out=out))
    _same_outcome(lambda m: m.add(m.asarray(a), 1, out=(m.zeros(shape), None)))


@pytest.mark.parametrize('dt', ['int32', 'float64', 'complex64', 'bool'])
@pytest.mark.parametrize('name', ['add', 'multiply', 'maximum'])
def test_accumulate_and_reduceat_axis_forms(dt, name):
    base = make(dt, (6, 8), 3)
    for view in (lambda m: m.asarray(base), lambda m: m.asarray(base)[::2, 1::3],
                 lambda m: m.asarray(base)[:0]):
        for axis in (0, 1, -1, (0,), (-1,), (1,), None, (0, 1), (), [1], 5, (5,)):
            _same_outcome(lambda m: getattr(m, name).accumulate(view(m), axis=axis))
            _same_outcome(lambda m: getattr(m, name).reduceat(view(m), [0, 1], axis=axis))
    for axis in (None, (0,), (0, 1)):
        _same_outcome(lambda m: getattr(m, name).accumulate(m.asarray(base)[0, 0], axis=axis))


@pytest.mark.default_settings
def test_accumulate_tuple_axis_large():
    a = make('float64', (300, 1100), 4)      # 2.6 MB: several 2 MiB tiles
    for axis in ((0,), (-1,)):
        assert_same(nt.add.accumulate(nt.asarray(a), axis=axis), np.add.accumulate(a, axis=axis),
                    rtol=1e-12)
    _same_outcome(lambda m: m.add.accumulate(m.asarray(a), axis=None))


@pytest.mark.parametrize('dt', ['int16', 'uint32', 'float32', 'float64', 'complex128'])
@pytest.mark.parametrize('shape', [(0, 3), (2, 3), 'strided'])
def test_reduce_takes_out_as_a_tuple_of_one(dt, shape):
    base = make(dt, (4, 6) if shape == 'strided' else shape, 5)

    def data(m):
        a = m.asarray(base)
        return a[::2, ::2] if shape == 'strided' else a

    n = 3
    for name in ('add', 'multiply', 'maximum'):
        if name == 'maximum' and shape == (0, 3):
            continue
        _same_outcome(lambda m: getattr(m, name).reduce(data(m), axis=0, out=(m.zeros(n, dt),)))
        for out in ((None,), (), (None, None)):
            _same_outcome(lambda m: getattr(m, name).reduce(data(m), axis=0, out=out))
        _same_outcome(lambda m: getattr(m, name).reduce(data(m), axis=0,
                                                        out=(m.zeros(n, dt), None)))


F16_LOOPS = ['sqrt', 'exp', 'rint', 'cbrt', 'deg2rad', 'spacing', 'modf', 'frexp', 'arctan2',
             'nextafter']


def _f16_outcome(f):
    """(kind, dtype, values) of f's result, NaN-safe (float16 loops)."""
    k, r = _outcome(f)
    if k != 'ok':
        return k, r
    rs = r if isinstance(r, tuple) else (r,)
    return k, [(numpy_dtype(x), np.asarray(x).astype(np.float64).tolist()) for x in rs]


def numpy_dtype(x):
    return str(np.asarray(x).dtype)


@pytest.mark.parametrize('dt', ['bool', 'int8', 'uint8'])
@pytest.mark.parametrize('shape', [(), (0,), (7,), 'strided'])
@pytest.mark.parametrize('name', F16_LOOPS)
def test_float16_loops_with_where_and_out(dt, shape, name):
    base = make(dt, (14,) if shape == 'strided' else shape, 6, lo=0, hi=9)
    wbase = make('bool', (14,) if shape == 'strided' else shape, 7)

    def data(m, b):
        a = m.asarray(b)
        return a[::2] if shape == 'strided' else a

    def call(m, **kw):
        u = getattr(m, name)
        a = data(m, base)
        args = (a, a) if u.nin == 2 else (a,)
        n = a.shape
        if 'out' in kw:
            o = m.zeros(n, kw['out'])
            kw['out'] = (o, None) if u.nout == 2 else o
        if 'where' in kw:
            kw['where'] = data(m, wbase)
        return u(*args, **kw)

    for kw in [dict(where=1, out='float64'), dict(where=1, out='float32'),
               dict(where=1, out='complex128'), dict(out='float64'),
               dict(out='float32', casting='same_kind'), dict(out='int16'),
               dict(out='int16', casting='unsafe'), dict(where=1, out='int8'),
               dict(where=1, out=None)]:
        if name in ('frexp', 'modf') and kw.get('out') is None and 'where' in kw:
            continue     # (NumPy's result holds uninitialised values there)
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            got = _f16_outcome(lambda: call(nt, **dict(kw)))
            exp = _f16_outcome(lambda: call(np, **dict(kw)))
        if 'where' in kw and exp[0] == 'ok':
            # where= with an output not given (out=None, the second of
            # out=(o, None)): its masked-out elements are NumPy's
            # uninitialised memory; compare the computed ones
            w = np.asarray(data(np, wbase), bool)
            given = [kw.get('out') is not None] + [False] * (len(exp[1]) - 1)
            exp = (exp[0], [(d, v if g else np.asarray(v)[w].tolist())
                            for g, (d, v) in zip(given, exp[1])])
            got = (got[0], [(d, v if g else np.asarray(v)[w].tolist())
                            for g, (d, v) in zip(given, got[1])])
        assert got == exp, kw


@pytest.mark.default_settings
def test_float16_loop_with_where_and_out_large():
    a = make('int8', (2_500_000,), 8)                 # > 2 MiB: several tiles
    w = make('bool', (2_500_000,), 9)
    for name in ('sqrt', 'spacing'):
        o_np, o_nt = np.zeros(a.shape), nt.zeros(a.shape)
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            getattr(np, name)(a, where=w, out=o_np)
            getattr(nt, name)(nt.asarray(a), where=nt.asarray(w), out=o_nt)
        assert_same(o_nt, o_np)


def test_no_loop_and_output_cast_errors_are_numpys():
    for f in (lambda m: m.sign(m.ones(3, bool), out=m.zeros(3), casting='unsafe'),
              lambda m: m.positive(m.ones(3, bool), out=m.zeros(3), casting='unsafe'),
              lambda m: m.modf(m.arange(3.0), out=(m.zeros(3, 'i4'), None)),
              lambda m: m.frexp(m.arange(3.0), out=(None, m.zeros(3, bool))),
              lambda m: m.modf(m.arange(3.0), m.zeros(3, 'i8'))):
        (kn, rn), (kt, rt) = _outcome(lambda: f(np)), _outcome(lambda: f(nt))
        assert (kt, rt) == (kn, rn)


@pytest.mark.parametrize('dt', ['bool', 'int8', 'uint8', 'int64', 'uint64', 'float32', 'float64',
                                'complex128'])
@pytest.mark.parametrize('odt', ['int8', 'int64', 'float32', 'float64', 'complex64'])
def test_reduceat_into_out_of_another_dtype_runs_numpys_loop(dt, odt):
    # NumPy's loop is the one for (out's dtype, the input's): float input
    # summed in float64 then cast into an int out, int8 summed in int64
    base = (make(dt, (6, 8), 11, lo=-3, hi=3) * (2.7 if dt[0] in 'fc' else 1)).astype(dt)
    for name in ('add', 'multiply', 'maximum', 'bitwise_or', 'logical_and', 'gcd', 'subtract'):
        for view in (lambda m: m.asarray(base), lambda m: m.asarray(base)[::2, 1::2]):
            def f(m):
                v = view(m)
                return getattr(m, name).reduceat(v, [0, 2, 1, 3], axis=1,
                                                 out=m.zeros((v.shape[0], 4), odt))
            with warnings.catch_warnings():
                warnings.simplefilter('ignore')
                _same_outcome(f)


@pytest.mark.default_settings
def test_reduceat_into_out_of_another_dtype_large():
    a = (make('float64', (400_000,), 12) * 0.3)           # 3.2 MB: several tiles
    idx = [0, 1000, 1000, 250_000, 399_999]
    o_np, o_nt = np.zeros(5, 'i8'), nt.zeros(5, 'i8')
    np.add.reduceat(a, idx, out=o_np)
    nt.add.reduceat(nt.asarray(a), idx, out=o_nt)
    assert_same(o_nt, o_np)


@pytest.mark.parametrize('w', [True, False])
def test_scalar_inputs_with_an_array_where(w):
    # scalars only with an ndtile where= array: NumPy's result (it recursed
    # through NumPy's override check until RecursionError), and an int
    # mask's 'safe' cast error with NumPy's words for a 0-d array
    for m in (np.array(w), np.array([w, not w])):
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', UserWarning)   # (where without out)
            want = np.add(1., 2., where=m, out=np.zeros(m.shape))
            got = nt.add(1., 2., where=nt.asarray(m), out=nt.zeros(m.shape))
        assert np.asarray(got).tolist() == want.tolist()
    for bad in (np.array(1), np.array([1, 0])):
        with pytest.raises(TypeError) as e_np:
            np.add(1., 2., where=bad)
        with pytest.raises(TypeError) as e_nt:
            nt.add(1., 2., where=nt.asarray(bad))
        assert str(e_nt.value) == str(e_np.value)
