"""Which loop a ufunc call runs, and which floating-point errors it reports,
compared with NumPy: dtype= names the loop's output (absolute of complex
with dtype=float is the complex -> real loop, not a cast of the input),
an integer dtype= of power checks the exponents the loop sees, where=
reports no error of an element it leaves out (divide(a, b, out=...,
where=b != 0)) and refuses the output's cast before any warning, and
ufunc.at reports its errors as "at" except in NumPy's indexed loops, and
runs NumPy's float16 loops (hypot of uint8) as NumPy; matmul takes no
where= and refuses an output cast with NumPy's exception class."""
import warnings

import numpy as np
import pytest

import ndtile as nt
from ndtile import _core
from _helpers import assert_big, assert_same, make

CW = np.exceptions.ComplexWarning


def _run(mod, fn):
    """fn(mod)'s result as a NumPy array (or its exception's type) and the
    warnings it gave, as (category, message) pairs, fallback notes left out."""
    with warnings.catch_warnings(record=True) as w, np.errstate(all='warn'):
        # (the suite ignores floating-point errors: conftest.py)
        warnings.simplefilter('always')
        try:
            r = fn(mod)
            r = tuple(np.asarray(x) for x in r) if isinstance(r, tuple) else np.asarray(r)
        except Exception as e:
            r = type(e)
    return r, sorted({(x.category.__name__, str(x.message)) for x in w
                      if 'ndtile does not implement' not in str(x.message)})


def _same(fn, messages=True):
    """fn(nt) gives fn(np)'s values (to the last bits of a float), dtype,
    exception type and warnings (their categories only, not messages=)."""
    got, w_nt = _run(nt, fn)
    exp, w_np = _run(np, fn)
    if not messages:
        w_nt, w_np = {c for c, _ in w_nt}, {c for c, _ in w_np}
    if isinstance(exp, type):
        assert isinstance(got, type) and issubclass(got, exp), (got, exp)
    else:
        assert not isinstance(got, type), got
        assert got.dtype == exp.dtype and got.shape == exp.shape, (got.dtype, exp.dtype)
        if exp.dtype.kind in 'fc':      # (SLEEF's last bit, docs/guide/deviations.md)
            np.testing.assert_allclose(got, exp, rtol=1e-6, equal_nan=True)
        else:
            np.testing.assert_array_equal(got, exp, strict=True)
    assert w_nt == w_np


def _views(mod, dtype, n=9, seed=1):
    """An operand, a strided view, a 0-d array and an empty one."""
    a = mod.asarray(make(dtype, (2 * n,), seed=seed))
    return [a[:n], a[::2], a[3], a[:0]]


# -- dtype= names the loop's output -------------------------------------------

@pytest.mark.parametrize('dt', ['complex64', 'complex128'])
@pytest.mark.parametrize('out_dt', ['float32', 'float64', 'int64'])
@pytest.mark.parametrize('casting', ['same_kind', 'unsafe'])
@pytest.mark.parametrize('name', ['absolute', 'fabs', 'negative', 'sqrt', 'add'])
def test_dtype_is_the_loops_output(dt, out_dt, casting, name):
    # absolute(complex128, dtype=float64) is NumPy's complex -> real loop
    # (|3+4j| = 5); with dtype=float32 under same_kind NumPy refuses the
    # input's cast, and under unsafe casts the input (3), warning
    # ComplexWarning
    for i in range(4):
        def fn(m):
            x = _views(m, dt)[i]
            f = getattr(m, name)
            return f(x, x, dtype=out_dt, casting=casting) if name == 'add' else \
                f(x, dtype=out_dt, casting=casting)
        _same(fn)


def test_dtype_of_absolute_values():
    z = [3 + 4j, 1 - 1j, -5j, 0j]
    for dt, out_dt in (('complex128', 'float64'), ('complex64', 'float64'),
                       ('complex64', 'float32')):
        exp = np.absolute(np.array(z, dt), dtype=out_dt)
        assert_same(nt.absolute(nt.array(z, dt), dtype=out_dt), exp)
        assert_same(nt.abs(nt.array(z, dt)[::-2], dtype=out_dt),
                    np.abs(np.array(z, dt)[::-2], dtype=out_dt))


@pytest.mark.default_settings
def test_dtype_of_absolute_at_default_settings():
    a = make('complex128', (300_001,), seed=5)        # 4.8 MB: several tiles
    x = nt.asarray(a)
    assert_big(nt.absolute(x, dtype='float64'), np.absolute(a, dtype='float64'))
    assert_big(nt.absolute(x[::3], dtype='float64'), np.absolute(a[::3], dtype='float64'))


# -- power with an integer dtype= ----------------------------------------------

@pytest.mark.parametrize('dt', ['float32', 'float64', 'uint8', 'int16', 'complex128'])
@pytest.mark.parametrize('loop', ['int8', 'int64', 'uint16'])
def test_integer_power_dtype_checks_the_cast_exponent(dt, loop):
    # the loop sees the exponent cast to the integer dtype: -1.5 is -1,
    # uint8 255 as int8 is -1 (NumPy's ValueError), -0.5 is 0 (no error)
    base = np.array([2, 3, 1, 0, 4])
    for e in ([1, 2, -1.5, 0, 3], [1, 2, 255, 0, 3], [1, -0.5, 2, 0, 1], [1, 2, 3, 0, 1]):
        if np.dtype(dt).kind in 'iu' and any(v != int(v) or v < 0 for v in e):
            continue
        for casting in ('unsafe', 'same_kind'):
            _same(lambda m: m.power(m.asarray(base.astype(dt)), m.asarray(np.array(e).astype(dt)),
                                    dtype=loop, casting=casting))
            _same(lambda m: m.power(m.asarray(base.astype(dt))[::-1], e[2], dtype=loop,
                                    casting=casting))


# -- where= reports only the elements it selects -------------------------------

@pytest.mark.parametrize('dt', ['bool', 'int8', 'uint16', 'int64', 'float32', 'float64',
                                'complex128'])
def test_where_reports_no_error_of_left_out_elements(dt):
    # the safe-division idiom: NumPy's loop never divides by the zeros it
    # leaves out, so it warns of nothing
    for i in range(4):
        def div(m):
            a, b = _views(m, dt, seed=2)[i], _views(m, dt, seed=3)[i]
            b = b * 0 if i == 2 else b
            if b.ndim:
                b[::3] = 0
            return m.divide(a, b, out=m.zeros(a.shape, 'float64' if dt != 'complex128' else dt),
                            where=b != 0)

        def fdiv(m):
            a, b = _views(m, dt, seed=2)[i], _views(m, dt, seed=3)[i]
            if b.ndim:
                b[1::2] = 0
            return m.floor_divide(a, b, out=m.ones_like(a), where=b != 0) if dt != 'complex128' \
                else m.zeros(0)
        _same(div)
        _same(fdiv)


@pytest.mark.parametrize('name', ['log', 'sqrt', 'arctanh', 'arccosh', 'reciprocal', 'log1p'])
@pytest.mark.parametrize('dt', ['float32', 'float64', 'int32', 'complex64'])
def test_where_unary_domain_idioms(name, dt):
    data = np.array([0, 1, -1, 2, 0.5, -3, 1e-300, np.inf, -np.inf, 0])
    if np.dtype(dt).kind == 'i':
        data = data[np.isfinite(data)]
    base = data.astype(dt)
    for sel in (base > 0, base < 0, np.zeros(base.shape, bool), np.array(True),
                np.array(False)):
        for view in (slice(None), slice(None, None, -2)):
            def fn(m):
                x = m.asarray(base)[view]
                w = m.asarray(sel)[view] if sel.ndim else m.asarray(sel)
                o = m.full(x.shape, 7, dtype=np.result_type(dt, np.float16))
                return getattr(m, name)(x, out=o, where=w)
            _same(fn)


def test_where_errors_of_selected_elements_still_reported():
    for mode in ('warn', 'raise'):
        def fn(m):
            x = m.asarray([0.0, 1.0, 0.0, -1.0])
            with m.errstate(all=mode):
                return m.log(x, out=m.ones(4), where=m.asarray([True, False, False, True]))
        _same(fn)


def test_where_refuses_the_output_cast_before_any_warning():
    # NumPy resolves the loop (float64 for int / int) and refuses its cast
    # into an int out= before it divides: no divide-by-zero warning
    for dt in ('int8', 'int64', 'bool'):
        _same(lambda m: m.divide(m.asarray([1, 0, 2]).astype(dt), m.asarray([0, 0, 1]).astype(dt),
                                 out=m.ones(3, dt), where=m.asarray([True, False, True])))
        _same(lambda m: m.sqrt(m.asarray([-1, 4]).astype(dt), out=m.ones(2, dt),
                               where=m.asarray([True, False])))


@pytest.mark.default_settings
def test_where_at_default_settings():
    n = 300_001          # 2.4 MB of float64: more than one tile
    b = make('float64', (n,), seed=7)
    b[::5] = 0
    a = make('float64', (n,), seed=8)
    for view in (slice(None), slice(None, None, 3)):
        def fn(m):
            x, y = m.asarray(a)[view], m.asarray(b)[view]
            return m.divide(x, y, out=m.zeros(x.shape), where=y != 0)
        _same(fn)


# -- ufunc.at: errors named as NumPy names them, float16 loops -----------------

# (ufunc, a's dtype, b's dtype, a, b): NumPy's indexed loops (add, subtract,
# multiply of inexact, divide of float, floor_divide of int and float, with
# a and b of the loop's dtype) report under the ufunc's name, every other at
# under "at"
_AT_CASES = [
    ('add', 'float64', 'float64', [np.inf, 1, 2], [-np.inf] * 3),
    ('add', 'float32', 'float32', [np.inf, 1, 2], [-np.inf] * 3),
    ('add', 'float32', 'float64', [np.inf, 1, 2], [-np.inf] * 3),
    ('add', 'complex128', 'complex128', [np.inf, 1, 2], [-np.inf] * 3),
    ('add', 'int64', 'float64', [1, 2, 3], [np.inf] * 3),
    ('multiply', 'float64', 'float64', [np.inf, 1, 2], [0, 0, 0]),
    ('multiply', 'float64', 'int64', [np.inf, 1, 2], [0, 0, 0]),
    ('divide', 'float64', 'float64', [0, 1, 2], [0, 0, 0]),
    ('divide', 'complex128', 'complex128', [0, 1, 2], [0, 0, 0]),
    ('divide', 'int32', 'int32', [0, 1, 2], [0, 0, 0]),
    ('floor_divide', 'int64', 'int64', [0, 1, 2], [0, 0, 0]),
    ('floor_divide', 'int8', 'int64', [0, 1, 2], [0, 0, 0]),
    ('floor_divide', 'float32', 'float32', [0, 1, 2], [0, 0, 0]),
    ('floor_divide', 'bool', 'bool', [0, 1, 1], [0, 0, 0]),
    ('remainder', 'float64', 'float64', [0, 1, 2], [0, 0, 0]),
    ('remainder', 'int16', 'int16', [0, 1, 2], [0, 0, 0]),
    ('power', 'float64', 'float64', [0, 1, 2], [-1, -1, -1]),
    ('hypot', 'int64', 'float64', [0, 1, 2], [np.nan, 1, 1]),
    ('sqrt', 'float64', None, [-1, 4, 2], None),
    ('log', 'float32', None, [0, 4, -2], None),
    ('exp', 'float64', None, [1000, 1, 2], None),
]


@pytest.mark.parametrize('case', _AT_CASES, ids=lambda c: f'{c[0]}-{c[1]}-{c[2]}')
def test_at_reports_errors_as_numpy(case):
    name, adt, bdt, av, bv = case
    for idx in ([0, 1, 1], slice(None, 2), (np.array([2, 0]),)):
        def fn(m):
            a = m.asarray(np.array(av).astype(adt))
            rest = () if bdt is None else \
                (m.asarray(np.array(bv).astype(bdt))[:(2 if isinstance(idx, slice) else
                                                      len(idx) if isinstance(idx, list)
                                                      else 2)],)
            getattr(m, name).at(a, idx, *rest)
            return a
        _same(fn)


@pytest.mark.default_settings
def test_at_errors_at_default_settings():
    n = 300_001
    a = make('float64', (n,), seed=9)
    idx = np.arange(0, n, 7)
    for name, b in (('divide', 0.0), ('sqrt', None), ('add', np.inf)):
        def fn(m):
            x = m.asarray(a)
            x[::11] = -np.inf
            getattr(m, name).at(x, m.asarray(idx), *(() if b is None else (b,)))
            return x
        _same(fn)


@pytest.mark.parametrize('name', ['hypot', 'arctan2', 'logaddexp', 'exp', 'sqrt'])
@pytest.mark.parametrize('dt', ['uint8', 'int8', 'bool'])
def test_at_float16_loops_as_numpy(name, dt):
    # NumPy's loop for these of (u)int8 and bool is float16: its rounding
    # decides the value written back (hypot.at(uint8) of 3, 255, 254, ...: 104)
    u = getattr(np, name)
    vals = make(dt, (60,), seed=4, lo=0, hi=255)
    def fn(m):
        a = m.zeros(5, dt)
        args = (a, m.asarray(np.arange(60) % 3)) + ((m.asarray(vals),) if u.nin == 2 else ())
        getattr(m, name).at(*args)
        return a
    _same(fn)


def test_at_indexed_loop_only_for_one_dimension():
    # NumPy's indexed loop: a 1-d, one index (array or integer), b of at
    # most one dimension; a 2-d a, a slice or a 2-d b report "at"
    for shape, idx, bshape in (((3,), [0, 1, 1], (3,)), ((3,), 1, ()), ((3,), slice(0, 2), (2,)),
                               ((3, 2), [0, 1], (2, 2)), ((3, 2), 1, (2,)),
                               ((3,), np.array([[0], [1]]), (2, 1)), ((3,), [True, False, True],
                                                                      (2,))):
        def fn(m):
            a = m.full(shape, np.inf)
            m.add.at(a, idx, m.full(bshape, -np.inf))
            return a
        _same(fn)


# -- matmul: a gufunc's keywords and its output cast ---------------------------

@pytest.mark.parametrize('dt', ['bool', 'int32', 'float32', 'float64', 'complex128'])
def test_matmul_refuses_where_and_names_the_output_cast(dt):
    def operands(m):
        return (m.asarray(make(dt, (3, 4), seed=1)), m.asarray(make(dt, (4, 5), seed=2))[:, ::-1])
    for where in (True, False, [True]):
        # a gufunc takes no where=, not even where=True (NumPy's TypeError)
        _same(lambda m: m.matmul(*operands(m), where=where))
    for out_dt in ('int8', 'int64', 'float32', 'complex64', 'bool'):
        for casting in ('same_kind', 'unsafe'):
            def fn(m):
                o = m.zeros((3, 5), out_dt)
                return m.matmul(*operands(m), out=o, casting=casting) if casting != 'same_kind' \
                    else m.matmul(*operands(m), out=o)
            _same(fn)
    if dt != 'bool':
        # NumPy's own exception class, not only its UFuncTypeError base
        with pytest.raises(np._core._exceptions._UFuncOutputCastingError):
            nt.matmul(*operands(nt), out=nt.zeros((3, 5), 'bool'))


# -- a reduction's out= chooses its loop ----------------------------------------

_RED = ['sum', 'prod', 'nansum', 'nanprod', 'cumsum', 'cumprod', 'nancumsum', 'nancumprod',
        'add.reduce', 'multiply.reduce', 'add.accumulate']


def _reduction(m, name):
    if '.' in name:
        u, meth = name.split('.')
        return getattr(getattr(m, u), meth)
    return getattr(m, name)


@pytest.mark.parametrize('name', _RED)
@pytest.mark.parametrize('dt', ['bool', 'uint8', 'int8', 'uint64', 'float64', 'complex64'])
def test_reduction_loop_is_outs_and_the_inputs(name, dt):
    # without dtype=, NumPy's loop is the ufunc's for (out's dtype, the
    # input's): sum of uint8 [128, 128] into a bool out adds in uint8 (0:
    # False), into int16 in int16 (256), of uint64 into float32 in float64
    data = {'bool': [True, True, False], 'uint8': [128, 128, 56], 'int8': [100, 100, -100],
            'uint64': [2**62, 2**62, 2**63], 'float64': [1.5, np.nan, 2.5],
            'complex64': [1 + 1j, 2, 3j]}[dt]
    base = np.array(data * 3, dt)
    for out_dt in ('bool', 'uint8', 'int16', 'int64', 'float32', 'complex128'):
        for view in (slice(None), slice(None, None, -2), slice(0, 0)):
            def fn(m):
                x = m.asarray(base)[view]
                o = m.ones(x.shape if 'cum' in name or 'accumulate' in name else (), out_dt)
                _reduction(m, name)(x, out=o)
                return o
            # (NumPy names an invalid cast into out "reduce", "accumulate"
            # or "cast"; ndtile "cast")
            _same(fn, messages=False)


@pytest.mark.default_settings
def test_reduction_loop_of_out_at_default_settings():
    a = (np.arange(3_000_001) % 251).astype(np.uint8)       # more than one 2 MiB tile
    x = nt.asarray(a)
    for out_dt in ('bool', 'int16', 'float32'):
        for name in ('sum', 'add.reduce', 'cumsum'):
            o_nt = nt.zeros(a.shape if name == 'cumsum' else (), out_dt)
            o_np = np.zeros(a.shape if name == 'cumsum' else (), out_dt)
            _reduction(nt, name)(x[::2] if name != 'cumsum' else x, out=o_nt[...] if name !=
                                 'cumsum' else o_nt)
            _reduction(np, name)(a[::2] if name != 'cumsum' else a, out=o_np)
            assert_big(o_nt, o_np)


# -- out= under another casting rule: the cast is the loop's -------------------

@pytest.mark.parametrize('casting', ['no', 'equiv', 'safe', 'unsafe'])
@pytest.mark.parametrize('dt', ['bool', 'int8', 'int64', 'float32', 'float64'])
def test_out_cast_errors_are_the_ufuncs(dt, casting):
    # NumPy refuses the output's cast before its loop runs (no warning),
    # casts into out inside its loop (sqrt of -1 into an int out warns once,
    # "invalid value encountered in sqrt"), and checks an integer power's
    # exponents whatever out= is
    def x(m):
        return m.asarray(np.array([-2, 0, 3, 1, -1, 2]).astype(dt))
    for out_dt in ('bool', 'int32', 'float64', 'complex64'):
        for name in ('sqrt', 'divide', 'power', 'add', 'negative'):
            def fn(m):
                o = m.zeros(6, out_dt)
                u = getattr(m, name)
                return u(x(m), out=o, casting=casting) if u.nin == 1 else \
                    u(x(m), x(m)[::-1], out=o, casting=casting)
            _same(fn)


def test_out_casting_twice_then_other_calls():
    # (a group of errors named by the ufunc's own name string: the binding
    # once released a reference it did not own, and a later call crashed)
    x = nt.asarray([True, False])
    for _ in range(50):
        nt.add(x, x, out=nt.zeros(2, '?'), casting='equiv')
        assert_same(nt.add(x, x, dtype='f8', casting='safe'), np.array([2.0, 0.0]))
    names = [''.join(['ad', 'd']) for _ in range(200)]     # equal to an interned 'add'
    for name in names:
        _core.fp_group_begin(name)
        _core.fp_group_end()
    assert all(n == 'add' for n in names)
