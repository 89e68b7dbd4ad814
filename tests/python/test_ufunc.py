"""Every core ufunc against NumPy: values, dtype and shape, for all 13 dtypes,
0-d, empty, one-element and multi-tile arrays, mixed dtypes and Python
scalars (NEP 50), operators (plain, reflected, in-place), out= and where=."""
import operator
import warnings

import numpy as np
import pytest

import ndtile as nt
from _helpers import (DTYPES, NAMES, SHAPES, make, assert_same, tol_for, check_same_error)

BINARY = ['add', 'subtract', 'multiply', 'divide', 'floor_divide', 'remainder', 'power',
          'equal', 'not_equal', 'less', 'less_equal', 'greater', 'greater_equal',
          'logical_and', 'logical_or', 'logical_xor', 'bitwise_and', 'bitwise_or',
          'bitwise_xor', 'left_shift', 'right_shift', 'maximum', 'minimum', 'fmax', 'fmin',
          'arctan2', 'hypot', 'copysign', 'fmod', 'logaddexp', 'nextafter']
UNARY = ['negative', 'positive', 'absolute', 'sign', 'logical_not', 'invert', 'sqrt', 'cbrt',
         'square', 'reciprocal', 'exp', 'exp2', 'expm1', 'log', 'log2', 'log10', 'log1p',
         'sin', 'cos', 'tan', 'arcsin', 'arccos', 'arctan', 'sinh', 'cosh', 'tanh', 'arcsinh',
         'arccosh', 'arctanh', 'floor', 'ceil', 'trunc', 'rint', 'isnan', 'isinf', 'isfinite',
         'signbit', 'conjugate', 'deg2rad', 'rad2deg']
EXTRA = ['fabs', 'float_power', 'degrees', 'radians']
EXACT = {'add', 'subtract', 'multiply', 'divide', 'equal', 'not_equal', 'less', 'less_equal',
         'greater', 'greater_equal', 'logical_and', 'logical_or', 'logical_xor', 'maximum',
         'minimum', 'fmax', 'fmin', 'copysign', 'nextafter', 'negative', 'positive', 'sign',
         'logical_not', 'floor', 'ceil', 'trunc', 'rint', 'isnan', 'isinf', 'isfinite',
         'signbit', 'conjugate', 'square', 'floor_divide', 'remainder', 'fmod', 'fabs'}
ZERO_FREE = {'floor_divide', 'remainder', 'fmod', 'reciprocal', 'divide'}
SHIFTS = {'left_shift', 'right_shift'}


def _tol(name, dt):
    dt = np.dtype(dt)
    if dt.kind not in 'fc':
        return 0
    if name in EXACT and not (dt.kind == 'c' and name in ('multiply', 'divide', 'square',
                                                            'sign')):
        return 0
    return tol_for(dt, 'math')


def _inputs(name, dt, shape, seed):
    if name == 'power':
        if np.dtype(dt).kind in 'iub':
            return make(dt, shape, seed, lo=-3, hi=3), make(dt, shape, seed + 1, lo=0, hi=3)
        return make(dt, shape, seed, lo=0.1, hi=3), make(dt, shape, seed + 1, lo=-2, hi=2)
    if name in SHIFTS:
        return make(dt, shape, seed), make(dt, shape, seed + 1, lo=0, hi=6)
    if name == 'reciprocal' and np.dtype(dt).kind in 'iu':
        return (make(dt, shape, seed, lo=-3, hi=3, nonzero=True),)
    a = make(dt, shape, seed)
    b = make(dt, shape, seed + 1, nonzero=name in ZERO_FREE)
    return a, b


def _compare(name, np_args, nt_args, rtol=None, **kw):
    f_np = getattr(np, name)
    f_nt = getattr(nt, name)
    raised, exp = check_same_error(lambda: f_nt(*nt_args, **kw), lambda: f_np(*np_args, **kw))
    if raised:
        return
    got = f_nt(*nt_args, **kw)
    if rtol is None:
        rtol = _tol(name, exp.dtype)
    assert_same(got, exp, rtol)


# SHAPES in two tests each: the shapes that are one tile of the suite's
# 4096 bytes in every dtype (at most 256 elements of complex128: 0-d, empty,
# one element, small) and those of several tiles (1500 and 33x47 elements;
# one tile in 1- and 2-byte dtypes). An array of one tile has one owner on
# any rank count, so tests/mpi/run.py runs the one-tile tests with the rest
# of the suite on 2 ranks (ONE_TILE_TESTS) and only the multi-tile ones on
# 3. Each shape keeps its seed, its index in SHAPES.
ONE_TILE = [(i, s) for i, s in enumerate(SHAPES) if int(np.prod(s)) * 16 <= 4096]
MANY_TILES = [(i, s) for i, s in enumerate(SHAPES) if int(np.prod(s)) * 16 > 4096]
UNARY_ALL = UNARY + ['fabs', 'degrees', 'radians']
BINARY_ALL = BINARY + ['float_power']


def _unary(name, dt, shapes):
    for i, shape in shapes:
        a = _inputs(name, dt, shape, i)[0]
        _compare(name, (a,), (nt.asarray(a),))


def _binary(name, dt, shapes):
    for i, shape in shapes:
        a, b = _inputs(name, dt, shape, i)
        _compare(name, (a, b), (nt.asarray(a), nt.asarray(b)))


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
@pytest.mark.parametrize("name", UNARY_ALL)
def test_unary(name, dt):
    _unary(name, dt, MANY_TILES)


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
@pytest.mark.parametrize("name", UNARY_ALL)
def test_unary_one_tile(name, dt):
    _unary(name, dt, ONE_TILE)


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
@pytest.mark.parametrize("name", BINARY_ALL)
def test_binary_same_dtype(name, dt):
    _binary(name, dt, MANY_TILES)


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
@pytest.mark.parametrize("name", BINARY_ALL)
def test_binary_same_dtype_one_tile(name, dt):
    _binary(name, dt, ONE_TILE)


@pytest.mark.parametrize("name", BINARY)
def test_binary_mixed_dtypes_broadcast(name):
    for da in DTYPES:
        for db in DTYPES:
            a, _ = _inputs(name, da, (3, 4), 1)
            _, b = _inputs(name, db, (4,), 2)
            _compare(name, (a, b), (nt.asarray(a), nt.asarray(b)))


PY_SCALARS = [True, False, 3, -2, 0, 2.5, -0.0, 1 + 2j, 300, -129, 2**40, 2**63, 2**70]


@pytest.mark.parametrize("name", BINARY)
def test_binary_python_scalars(name):
    for dt in DTYPES:
        a, _ = _inputs(name, dt, (7,), 3)
        x = nt.asarray(a)
        for s in PY_SCALARS:
            if name in ZERO_FREE and s == 0:
                continue
            if name in SHIFTS and (not isinstance(s, int) or s < 0 or s > 6):
                continue
            if name == 'power' and isinstance(s, int) and abs(s) > 3:
                continue
            _compare(name, (a, s), (x, s))
            _compare(name, (s, a), (s, x))


def test_numpy_scalars_are_strong():
    a = make(np.float32, (5,))
    x = nt.asarray(a)
    for s in (np.float64(2.5), np.int64(3), np.int8(-2), np.uint8(7), np.complex64(1j),
              np.bool_(True), np.float32(1.5)):
        assert_same(x + s, a + s)
        assert_same(s * x, s * a)
        assert_same(x - s, a - s)
        assert_same(np.add(x, s), np.add(a, s))


def test_scalar_only_calls_give_numpy_scalars():
    assert_same(nt.sqrt(2.0), np.sqrt(2.0))
    assert_same(nt.add(1, 2), np.add(1, 2))
    assert_same(nt.maximum(np.float32(1), 2), np.maximum(np.float32(1), 2))


OPS = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv,
       operator.mod, operator.pow, operator.and_, operator.or_, operator.xor,
       operator.lshift, operator.rshift, operator.eq, operator.ne, operator.lt, operator.le,
       operator.gt, operator.ge]
IOPS = [operator.iadd, operator.isub, operator.imul, operator.itruediv, operator.ifloordiv,
        operator.imod, operator.ipow, operator.iand, operator.ior, operator.ixor,
        operator.ilshift, operator.irshift]


def _op_inputs(op, dt, shape, seed):
    name = {operator.pow: 'power', operator.ipow: 'power', operator.lshift: 'left_shift',
            operator.rshift: 'right_shift', operator.ilshift: 'left_shift',
            operator.irshift: 'right_shift', operator.floordiv: 'floor_divide',
            operator.ifloordiv: 'floor_divide', operator.mod: 'remainder',
            operator.imod: 'remainder', operator.truediv: 'divide',
            operator.itruediv: 'divide'}.get(op, 'add')
    return name, _inputs(name, dt, shape, seed)


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
@pytest.mark.parametrize("op", OPS, ids=lambda f: f.__name__)
def test_operators(op, dt):
    for i, shape in enumerate([(), (1,), (6,), (3, 4), (1200,)]):
        name, (a, b) = _op_inputs(op, dt, shape, i)
        x, y = nt.asarray(a), nt.asarray(b)
        raised, exp = check_same_error(lambda: op(x, y), lambda: op(a, b))
        if not raised:
            assert_same(op(x, y), exp, _tol(name, exp.dtype))
        # mixed with NumPy arrays on either side
        raised, exp = check_same_error(lambda: op(x, b), lambda: op(a, b))
        if not raised:
            assert_same(op(x, b), exp, _tol(name, exp.dtype))
            assert_same(op(a, y), exp, _tol(name, exp.dtype))
        # Python scalars on either side (reflected)
        for s in (2, 1.5, True):
            if name in SHIFTS and not isinstance(s, int):
                continue
            raised, exp = check_same_error(lambda: op(x, s), lambda: op(a, s))
            if not raised:
                assert_same(op(x, s), exp, _tol(name, exp.dtype))
            raised, exp = check_same_error(lambda: op(s, x), lambda: op(s, a))
            if not raised:
                assert_same(op(s, x), exp, _tol(name, exp.dtype))


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
@pytest.mark.parametrize("op", IOPS, ids=lambda f: f.__name__)
def test_inplace_operators(op, dt):
    for i, shape in enumerate([(), (6,), (3, 4), (1200,)]):
        name, (a, b) = _op_inputs(op, dt, shape, i)
        for other in (b, 2, 1.5):
            if name in SHIFTS and not isinstance(other, (int, np.ndarray)):
                continue
            a2 = a.copy()
            x = nt.asarray(a)
            y = nt.asarray(other) if isinstance(other, np.ndarray) else other

            def run_np():
                c = a2.copy()
                return op(c, other)
            raised, exp = check_same_error(lambda: op(nt.asarray(a), y), run_np)
            if raised:
                continue
            ident = x
            res = op(x, y)
            assert res is ident, "in-place operator must return the same object"
            assert_same(res, exp, _tol(name, exp.dtype))


def test_inplace_casting_error():
    x = nt.arange(5)
    with pytest.raises(TypeError) as ei:
        x += 1.5
    with pytest.raises(TypeError):
        np.arange(5).__iadd__(1.5)
    assert "Cannot cast ufunc 'add' output" in str(ei.value)


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_unary_operators(dt):
    for shape in [(), (5,), (40, 30)]:
        a = make(dt, shape)
        x = nt.asarray(a)
        for op in (operator.neg, operator.pos, abs, operator.invert):
            raised, exp = check_same_error(lambda: op(x), lambda: op(a))
            if not raised:
                assert_same(op(x), exp, 0 if dt.kind != 'c' or op is not abs
                            else tol_for(dt, 'math'))


def test_out_argument():
    a, b = make(np.float64, (30, 40), 1), make(np.float64, (30, 40), 2)
    x, y = nt.asarray(a), nt.asarray(b)
    out = nt.empty((30, 40))
    r = nt.add(x, y, out=out)
    assert r is out
    assert_same(out, a + b)
    r = nt.multiply(x, y, out=(out,))
    assert r is out
    assert_same(out, a * b)
    # positional out, casting into float32, strided view out
    o32 = nt.zeros((30, 40), np.float32)
    nt.subtract(x, y, o32)
    assert_same(o32, np.subtract(a, b, np.zeros((30, 40), np.float32)))
    big = nt.zeros((60, 40))
    nt.add(x, 1, out=big[::2])
    exp = np.zeros((60, 40))
    np.add(a, 1, out=exp[::2])
    assert_same(big, exp)
    # out of the wrong shape
    with pytest.raises(ValueError):
        nt.add(x, y, out=nt.empty((3,)))
    # NumPy array out
    o = np.empty((30, 40))
    r = nt.add(x, y, out=o)
    assert r is o
    np.testing.assert_array_equal(o, a + b)
    # casting rule
    oi = nt.zeros((30, 40), np.int64)
    with pytest.raises(TypeError):
        nt.add(x, y, out=oi)
    nt.add(x, y, out=oi, casting='unsafe')
    assert_same(oi, np.add(a, b, out=np.zeros((30, 40), np.int64), casting='unsafe'))


def test_where_argument():
    a, b = make(np.float64, (50, 7), 1), make(np.float64, (50, 7), 2)
    m = make(np.bool_, (50, 7), 3)
    x, y = nt.asarray(a), nt.asarray(b)
    out_np = np.full((50, 7), -1.0)
    out_nt = nt.full((50, 7), -1.0)
    np.add(a, b, out=out_np, where=m)
    nt.add(x, y, out=out_nt, where=nt.asarray(m))
    assert_same(out_nt, out_np)
    np.multiply(a, 2, out=out_np, where=m[0])
    nt.multiply(x, 2, out=out_nt, where=m[0])
    assert_same(out_nt, out_np)


def test_dtype_argument():
    a = make(np.int16, (20,))
    x = nt.asarray(a)
    assert_same(nt.add(x, x, dtype=np.float32), np.add(a, a, dtype=np.float32))
    assert_same(nt.multiply(x, 3, dtype='int64'), np.multiply(a, 3, dtype='int64'))
    assert_same(nt.sqrt(x, dtype=np.float64), np.sqrt(a, dtype=np.float64), 1e-13)


def test_ufunc_attributes():
    for name in BINARY + UNARY:
        u, n = getattr(nt, name), getattr(np, name)
        assert u.__name__ == n.__name__
        assert u.nin == n.nin and u.nout == n.nout
        assert isinstance(u, nt.ufunc)
        assert repr(u) == repr(n)
    assert nt.divide is nt.true_divide
    assert nt.abs is nt.absolute
    assert nt.divmod.nout == 2


def test_divmod():
    for dt in (np.int32, np.float64, np.uint8):
        a, b = make(dt, (30,), 1), make(dt, (30,), 2, nonzero=True)
        x, y = nt.asarray(a), nt.asarray(b)
        assert_same(divmod(x, y), divmod(a, b))
        assert_same(nt.divmod(x, y), np.divmod(a, b))
        assert_same(divmod(x, 3), divmod(a, 3))
        assert_same(divmod(7, y), divmod(7, b))


@pytest.mark.parametrize("name", ['add', 'multiply', 'minimum', 'maximum', 'logical_and',
                                  'logical_or', 'fmax', 'fmin'])
@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_ufunc_reduce(name, dt):
    for shape in [(5,), (3, 4), (700,), (21, 33)]:
        if name == 'multiply' and len(shape) == 1 and shape[0] > 100:
            shape = (40,)     # no overflow (its handling depends on the order)
        a = make(dt, shape, lo=-3, hi=3) if name != 'multiply' else make(dt, shape, lo=-1,
                                                                          hi=1)
        x = nt.asarray(a)
        un, ut = getattr(np, name), getattr(nt, name)
        for axis in (0, -1, None, (0,)):
            for keepdims in (False, True):
                raised, exp = check_same_error(
                    lambda: ut.reduce(x, axis=axis, keepdims=keepdims),
                    lambda: un.reduce(a, axis=axis, keepdims=keepdims))
                if not raised:
                    assert_same(ut.reduce(x, axis=axis, keepdims=keepdims), exp,
                                tol_for(exp.dtype, 'sum'))
    with pytest.raises(ValueError):
        nt.minimum.reduce(nt.zeros((0,), dt) if dt.kind != 'b' else nt.zeros((0,), bool))


def test_ufunc_outer_accumulate():
    a, b = make(np.float64, (5,), 1), make(np.float64, (3, 2), 2)
    assert_same(nt.multiply.outer(nt.asarray(a), nt.asarray(b)), np.multiply.outer(a, b))
    assert_same(nt.subtract.outer(a, b), np.subtract.outer(a, b))
    r = nt.add.accumulate(nt.asarray(a))     # native (src/ops/scan.c)
    assert_same(r, np.add.accumulate(a), 1e-12)
    for dt in (np.int8, np.uint16, np.bool_, np.float32):
        c = make(dt, (4, 30), 3)
        for u in ('add', 'multiply'):
            assert_same(getattr(nt, u).accumulate(nt.asarray(c)), getattr(np, u).accumulate(c),
                        1e-5)
            assert_same(getattr(nt, u).accumulate(nt.asarray(c), axis=1),
                        getattr(np, u).accumulate(c, axis=1), 1e-5)


def test_float16_results_of_small_ints():
    for dt in (np.int8, np.uint8, np.int16, np.uint16, np.bool_):
        a = make(dt, (40,), lo=0, hi=9)
        x = nt.asarray(a)
        for name in ('sqrt', 'exp', 'sin', 'log1p', 'cbrt', 'arctan'):
            exp = getattr(np, name)(a)
            got = getattr(nt, name)(x)
            assert exp.dtype == (np.float16 if dt in (np.int8, np.uint8, np.bool_)
                                 else np.float32)
            assert_same(got, exp, tol_for(exp.dtype, 'math'))


def test_float16_loop_with_out_of_another_dtype():
    """NumPy's loop for exp(int8) is float16 whatever out is: out=float64
    holds float16 values (1, 2.71875, 7.390625), not float32 ones; the
    same under casting='unsafe', and same_kind refusals raise NumPy's
    _UFuncOutputCastingError. Arrays of many tiles and below the inline
    threshold."""
    for n in (40, 300_000):
        for dt in (np.int8, np.uint8, np.bool_):
            a = make(dt, (n,), lo=0, hi=9)
            x = nt.asarray(a)
            for name in ('exp', 'sqrt', 'sin', 'log1p'):
                for odt in (np.float64, np.float32, np.complex128):
                    o = nt.zeros(n, odt)
                    r = getattr(nt, name)(x, out=o)
                    assert r is o
                    exp = getattr(np, name)(a, out=np.zeros(n, odt))
                    assert_same(o, exp)
                o = nt.zeros(n, np.int16)
                getattr(nt, name)(x, out=o, casting='unsafe')
                assert_same(o, getattr(np, name)(a, out=np.zeros(n, np.int16), casting='unsafe'))
                with pytest.raises(type(_raised(lambda: getattr(np, name)(
                        a, out=np.zeros(n, np.int32))))) as ei:
                    getattr(nt, name)(x, out=nt.zeros(n, np.int32))
                assert 'from dtype(\'float16\') to dtype(\'int32\')' in str(ei.value)


def _raised(fn):
    try:
        fn()
    except Exception as e:
        return e
    raise AssertionError('NumPy did not raise')


def test_special_values():
    vals = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e-310, 1e308, -2.5])
    for dt in (np.float32, np.float64):
        a = vals.astype(dt)
        x = nt.asarray(a)
        for name in ['isnan', 'isinf', 'isfinite', 'signbit', 'sign', 'floor', 'ceil',
                     'absolute', 'negative', 'rint', 'trunc']:
            assert_same(getattr(nt, name)(x), getattr(np, name)(a))
        for name in ['maximum', 'minimum', 'fmax', 'fmin', 'add', 'multiply', 'less',
                     'equal', 'copysign', 'divide']:
            b = a[::-1].copy()
            assert_same(getattr(nt, name)(x, nt.asarray(b)), getattr(np, name)(a, b))


@pytest.mark.parametrize("n", [None, pytest.param(300000, marks=pytest.mark.default_settings)])
@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("name", ['exp', 'expm1', 'exp2', 'sinh', 'cosh'])
def test_growth_functions_at_the_overflow_edge(name, dt, n):
    """The last values below the overflow threshold give NumPy's finite
    results, not inf, and no overflow warning (SLEEF's double exp overflowed
    about 1e-12 early: exp(709.782712893384) was inf); the first values
    above it give inf with NumPy's warning. Contiguous, strided, in place."""
    fi = np.finfo(dt)
    edge = {'exp': np.log(fi.max, dtype=np.float64), 'expm1': np.log(fi.max, dtype=np.float64),
            'exp2': float(fi.maxexp), 'sinh': np.log(fi.max, dtype=np.float64) + np.log(2),
            'cosh': np.log(fi.max, dtype=np.float64) + np.log(2)}[name]
    v = np.array([edge], dtype=dt)
    below = [v]
    for _ in range(300):
        v = np.nextafter(v, dt(0)); below.append(v)
    below = np.concatenate(below)
    below = below[np.isfinite(getattr(np, name)(below))]
    f, g = getattr(np, name), getattr(nt, name)
    a = below if n is None else np.resize(below, n)
    def ulps(got, want):                    # finite and within 4 ULP (deviations 4)
        got = np.asarray(got)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert np.isfinite(got).all()
        assert (np.abs(got - want) <= 4 * np.spacing(want)).all()
    with np.errstate(over='raise'):
        want = f(a)
        ulps(g(nt.asarray(a)), want)
        ulps(g(nt.asarray(a)[::-3]), want[::-3])
        x = nt.asarray(a)
        g(x, out=x)
        ulps(x, want)
    above = np.nextafter(np.array([max(below)] * 4, dtype=dt), dt(np.inf)) * dt(1.001)
    with np.errstate(over='raise'):
        with pytest.raises(FloatingPointError, match='overflow'):
            f(above)
        with pytest.raises(FloatingPointError, match='overflow'):
            g(nt.asarray(above))
    with np.errstate(over='ignore'):
        assert_same(g(nt.asarray(above)), f(above))


def test_integer_division_by_zero():
    for dt in (np.int8, np.int32, np.int64, np.uint8, np.uint64):
        a = make(dt, (20,), lo=-5, hi=5)
        b = np.zeros(20, dt)
        x, y = nt.asarray(a), nt.asarray(b)
        for name in ('floor_divide', 'remainder', 'fmod'):
            assert_same(getattr(nt, name)(x, y), getattr(np, name)(a, b))


def test_integer_power_negative_exponent_raises():
    with pytest.raises(ValueError):
        nt.arange(5) ** -1
    with pytest.raises(ValueError):
        np.arange(5) ** -1


def test_non_contiguous_and_negative_step_inputs():
    a = make(np.float64, (40, 60), 1)
    b = make(np.float64, (60, 40), 2)
    x, y = nt.asarray(a), nt.asarray(b)
    assert_same(x[::-2, 3::3] + y.T[::-2, 3::3], a[::-2, 3::3] + b.T[::-2, 3::3])
    assert_same(nt.sin(x[:, ::-1]), np.sin(a[:, ::-1]), 1e-13)
    assert_same(x[1:] * x[:-1], a[1:] * a[:-1])
    assert_same(x[5, ::-1] - y[:, 7], a[5, ::-1] - b[:, 7])


def test_fallback_ufuncs_still_work(fallback_warnings):
    a = make(np.float64, (20,), 1)
    b = make(np.int32, (20,), 2, lo=0, hi=5)
    x, y = nt.asarray(a), nt.asarray(b)
    with pytest.warns(RuntimeWarning, match="logaddexp.reduce"):
        r = nt.logaddexp.reduce(x)
    assert_same(r, np.logaddexp.reduce(a))
    with pytest.warns(RuntimeWarning):
        assert_same(nt.hypot.accumulate(x), np.hypot.accumulate(a))
    with pytest.warns(RuntimeWarning):
        # (add.reduceat and bitwise_and.reduceat are native now: logaddexp
        # has no native reduce)
        assert_same(nt.logaddexp.reduceat(x, [0, 5, 10]), np.logaddexp.reduceat(a, [0, 5, 10]))
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)   # (no fallback)
        assert_same(nt.bitwise_and.reduceat(y, [0, 5, 10]),
                    np.bitwise_and.reduceat(b, [0, 5, 10]))
        assert_same(nt.bitwise_xor.reduce(y), np.bitwise_xor.reduce(b))
        assert_same(nt.logical_xor.reduce(x), np.logical_xor.reduce(a))


def test_out_empty_tuple_and_positional_tuple():
    # NumPy: out=() is a ValueError (one entry per output), not "no out";
    # a positional out that is itself a tuple is a TypeError
    cases = [lambda m, a, o: m.add(a, 2, out=()), lambda m, a, o: m.frexp(a, out=()),
             lambda m, a, o: m.divmod(a, 2, out=()), lambda m, a, o: m.add(a, 2, (o,)),
             lambda m, a, o: m.frexp(a, (o, None)), lambda m, a, o: m.negative(a, (o,))]
    for n in (1, 40000):
        a = np.linspace(0.5, 3, n)
        for f in cases:
            with pytest.raises(Exception) as en:
                f(np, a, np.empty(n))
            with pytest.raises(type(en.value)) as eg:
                f(nt, nt.asarray(a), nt.empty(n))
            assert str(eg.value) == str(en.value)
    x, o = nt.asarray(np.arange(5.0)), nt.empty(5)
    assert nt.add(x, 1, out=(o,)) is o and nt.add(x, 1, o) is o
    assert_same(nt.add(x, 1, out=(None,)), np.add(np.arange(5.0), 1))


@pytest.mark.parametrize("n", [6, pytest.param(40000, marks=pytest.mark.default_settings)])
def test_dtype_keyword_checks_input_casts_and_loops(n):
    # NumPy casts the inputs to dtype= under the casting rule (same_kind by
    # default: add(int64, 2, dtype=uint16) is a UFuncTypeError) and refuses
    # a dtype= it has no loop for whatever the casting (sqrt(x,
    # dtype=int8), equal(x, 2, dtype=uint16)); ndtile computed anyway
    names = ['add', 'subtract', 'multiply', 'true_divide', 'floor_divide', 'maximum',
             'negative', 'sqrt', 'sin', 'equal', 'logical_and', 'bitwise_and', 'left_shift',
             'power', 'absolute', 'arctan2']
    for name in names:
        for adt in ('i8', 'u1', 'f4', 'c16', '?'):
            base = (np.arange(n) % 7 + 1).astype(adt)
            for dt in (np.uint16, np.int8, np.float32, np.float64, np.complex64, np.bool_):
                for casting in ('same_kind', 'safe', 'unsafe'):
                    def run(m, a):
                        u = getattr(m, name)
                        return u(*((a,) if u.nin == 1 else (a[::-1], 2)), dtype=dt,
                                 casting=casting)
                    try:
                        want = run(np, base)
                    except TypeError as e:
                        with pytest.raises(type(e)):
                            run(nt, nt.asarray(base))
                        continue
                    assert_same(run(nt, nt.asarray(base)), want, rtol=tol_for(want.dtype, "math"))
