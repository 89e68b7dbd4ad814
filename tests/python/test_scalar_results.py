"""0-d results as NumPy returns them: a ufunc or an operator whose result is
0-d gives a NumPy scalar unless out= is given (then out itself; out=...
gives a 0-d array), an in-place operator keeps the 0-d array, and the
functions NumPy builds on ufuncs follow (docs/design.md, "0-d results").
Every case is compared with NumPy: the result's exact type, dtype and bits.
"""
import operator
import warnings

import numpy
import pytest

import ndtile as np
from ndtile import _umath

DTYPES = ['bool', 'int8', 'uint16', 'int64', 'float32', 'float64', 'complex128']


def _value(dt):
    return {'b': True, 'i': 3, 'u': 5, 'f': 0.75, 'c': 0.5 - 1.25j}[numpy.dtype(dt).kind]


def _same(r_nd, r_np):
    """r_nd is what NumPy gave: a tuple item by item; a scalar of the same
    type and bits; an array of the same type of container, shape and dtype."""
    if isinstance(r_np, tuple):
        assert type(r_nd) is tuple and len(r_nd) == len(r_np)
        for x, y in zip(r_nd, r_np):
            _same(x, y)
        return
    if isinstance(r_np, numpy.ndarray):
        assert isinstance(r_nd, (np.ndarray, numpy.ndarray)), type(r_nd)
        assert r_nd.shape == r_np.shape and r_nd.dtype == r_np.dtype
        assert numpy.asarray(r_nd).tobytes() == r_np.tobytes()
        return
    assert type(r_nd) is type(r_np), (type(r_nd), type(r_np))
    if isinstance(r_np, numpy.generic):
        assert r_nd.dtype == r_np.dtype
        if numpy.asarray(r_nd).tobytes() != numpy.asarray(r_np).tobytes():
            # the vectorised transcendental functions: within 4 ULP
            # (deviations.md 4); NaNs of any sign (deviations.md 7)
            assert r_np.dtype.kind in 'fc'
            for x, y in ((r_nd.real, r_np.real), (r_nd.imag, r_np.imag)):
                assert (numpy.isnan(x) and numpy.isnan(y)) or x == y or \
                    abs(x - y) <= 4 * numpy.spacing(abs(y))
    else:
        assert r_nd == r_np


def _both(f, *args, **kwargs):
    """f(ndtile, *args) against f(numpy, *args): the same result, or the
    same exception class."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            want = f(numpy, *args, **kwargs)
    except Exception as e:
        # (NumPy's private classes, _UFuncNoLoopError, by their public base)
        cls = next(c for c in type(e).__mro__ if not c.__name__.startswith('_'))
        with pytest.raises(cls):
            with warnings.catch_warnings():
                warnings.simplefilter('ignore')
                f(np, *args, **kwargs)
        return None
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        got = f(np, *args, **kwargs)
    _same(got, want)
    return got


UFUNCS = [(name, u) for name, u in _umath.all_numpy_ufuncs() if name not in ('isnat',)]


@pytest.mark.parametrize('dt', DTYPES)
@pytest.mark.parametrize('name', [n for n, _ in UFUNCS])
def test_every_ufunc_of_0d_arrays_gives_numpys_scalar(name, dt):
    nu = getattr(numpy, name)
    v = _value(dt)

    def call(m):
        a = m.array(v, dtype=dt)
        return getattr(m, name)(*([a] * nu.nin))
    got = _both(call)
    if got is not None and nu.nin == 2:
        # a 0-d array with a Python scalar (weak) and with a NumPy scalar
        _both(lambda m: getattr(m, name)(m.array(v, dtype=dt), 2))
        _both(lambda m: getattr(m, name)(numpy.float32(2), m.array(v, dtype=dt)))


@pytest.mark.parametrize('name', ['add', 'sin', 'divmod', 'frexp', 'less', 'logical_not'])
def test_out_given_is_returned_and_out_ellipsis_is_an_array(name):
    nu = getattr(numpy, name)
    for m in (numpy, np):
        a = m.array(1.5)
        args = [a] * nu.nin
        outs = tuple(m.empty((), dtype=d) for d in
                     nu.resolve_dtypes((numpy.dtype(float),) * nu.nin + (None,) * nu.nout)[nu.nin:])
        r = getattr(m, name)(*args, out=outs if nu.nout > 1 else outs[0])
        if nu.nout > 1:
            assert type(r) is tuple and all(x is o for x, o in zip(r, outs))
        else:
            assert r is outs[0]
        r = getattr(m, name)(*args, out=...)
        rs = r if nu.nout > 1 else (r,)
        assert all(type(x) is m.ndarray and x.ndim == 0 for x in rs)
    _both(lambda m: getattr(m, name)(*[m.array(1.5)] * nu.nin))


def test_where_and_dtype_give_scalars():
    _both(lambda m: m.add(m.array(2.0), 1, where=True))
    _both(lambda m: m.add(m.array(2.0), 1, out=None, where=m.array(True)))
    _both(lambda m: m.add(m.array(2), 1, dtype=m.float32))
    _both(lambda m: m.multiply(m.array(2), m.array(3), dtype=m.complex64))
    _both(lambda m: m.sqrt(m.array(4), dtype=m.float32, casting='unsafe'))
    _both(lambda m: m.negative(m.array(3, dtype=m.int8), order='C'))


BINARY = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv,
          operator.mod, operator.pow, operator.lt, operator.le, operator.eq, operator.ne,
          operator.gt, operator.ge, divmod]
INTEGER = [operator.lshift, operator.rshift, operator.and_, operator.or_, operator.xor]
OTHERS = [lambda m: 2, lambda m: 2.5, lambda m: True, lambda m: 1 - 2j,
          lambda m: numpy.float32(2), lambda m: numpy.int8(3), lambda m: numpy.float64(0.5),
          lambda m: m.array(2, dtype=m.int16), lambda m: m.array(1.25, dtype=m.float32)]


@pytest.mark.parametrize('op', BINARY + INTEGER)
@pytest.mark.parametrize('k', range(len(OTHERS)))
@pytest.mark.parametrize('dt', ['int32', 'float64', 'bool'])
def test_operators_and_reflected_operators(op, k, dt):
    if op in INTEGER and (dt == 'float64' or k in (1, 3, 4, 6, 8)):
        return
    _both(lambda m: op(m.array(_value(dt), dtype=dt), OTHERS[k](m)))
    _both(lambda m: op(OTHERS[k](m), m.array(_value(dt), dtype=dt)))


@pytest.mark.parametrize('dt', ['int32', 'float64', 'bool', 'complex64'])
def test_unary_operators(dt):
    for op in (operator.neg, operator.pos, abs, operator.invert):
        if op is operator.pos and dt == 'bool':
            continue    # (+ of a bool array of any shape: TypeError, not NumPy's subclass)
        _both(lambda m: op(m.array(_value(dt), dtype=dt)))
    _both(lambda m: m.array(_value(dt), dtype=dt) ** 2)        # the power shortcuts
    _both(lambda m: m.array(_value(dt), dtype=dt) ** 0.5)
    _both(lambda m: m.array(_value(dt), dtype=dt) ** -1)


@pytest.mark.parametrize('op', [operator.iadd, operator.isub, operator.imul, operator.itruediv,
                                operator.ifloordiv, operator.imod, operator.ipow])
def test_inplace_operators_keep_the_0d_array(op):
    for m in (numpy, np):
        a = m.array(2.0)
        r = op(a, 3)
        assert r is a and type(r) is m.ndarray and r.ndim == 0
    a, b = numpy.array(2.0), np.array(2.0)
    assert numpy.asarray(op(b, 3)).tobytes() == op(a, 3).tobytes()


def test_inplace_on_a_scalar_result_rebinds_the_name():
    # skyfield's Timescale.utc: seconds added with += to a NumPy scalar plus
    # a 0-d array (deviations.md, formerly item 3)
    for m in (numpy, np):
        s = numpy.float64(1) + m.array(2.0)
        assert type(s) is numpy.float64
        t = s
        s += 1
        assert t == 3.0 and s == 4.0
        s += m.arange(3)
        assert type(s) is m.ndarray and s.tolist() == [4.0, 5.0, 6.0]


def test_0d_views_of_larger_arrays():
    for m in (numpy, np):
        a = m.arange(24.0).reshape(4, 6)
        assert type(a[1, 2]) is numpy.float64                  # indexing: already a scalar
        v = a[1:2, 2].reshape(())
        w = a[1, 2, ...]
        assert type(v) is m.ndarray and type(w) is m.ndarray    # views: arrays
        assert type(v + 1) is numpy.float64 and v + 1 == 9.0
        assert type(m.sqrt(w)) is numpy.float64
        w += 1                                                    # in place: the view
        assert a[1, 2] == 9.0 and type(w) is m.ndarray
        assert type(v[()]) is numpy.float64 and type(v[...]) is m.ndarray


@pytest.mark.default_settings
def test_a_0d_result_of_deferred_work(default_settings):
    """A 0-d view of an array still being computed: the scalar waits for
    its value (arrays above the inline threshold, several tiles)."""
    n = 1_500_000
    x = np.arange(n, dtype=np.float64)
    y = np.sin(x) * 2.0 + x                                      # deferred
    v = y[n - 7:n - 6].reshape(())
    r = v * 3.0
    xn = numpy.arange(n, dtype=numpy.float64)
    want = (numpy.sin(xn) * 2.0 + xn)[n - 7:n - 6].reshape(()) * 3.0
    assert type(r) is numpy.float64
    assert abs(r - want) <= 4 * numpy.spacing(abs(want))


def test_functions_built_on_ufuncs():
    a = lambda m: m.array(0.5)      # noqa: E731
    c = lambda m: m.array(1 + 2j)   # noqa: E731
    for f in [lambda m: m.clip(a(m), 0, 0.25), lambda m: a(m).clip(0, 1),
              lambda m: m.angle(c(m)), lambda m: m.isclose(a(m), 0.5),
              lambda m: m.isreal(c(m)), lambda m: m.isposinf(a(m)), lambda m: m.fix(a(m)),
              lambda m: m.sinc(a(m)), lambda m: m.heaviside(a(m), 0.5),
              lambda m: m.nan_to_num(a(m)), lambda m: m.nan_to_num(c(m)),
              lambda m: m.nanmean(a(m)), lambda m: m.nanstd(c(m)), lambda m: m.nanmax(a(m)),
              lambda m: m.nanargmin(a(m)), lambda m: m.ptp(a(m)),
              lambda m: m.corrcoef(a(m)), lambda m: m.spacing(m.array(True)),
              lambda m: m.vecdot(m.arange(3.0), m.arange(3.0)),
              lambda m: m.power(m.array(3), m.array(3)), lambda m: m.round(a(m)),
              lambda m: m.isin(a(m), m.array([0.5, 1.0])),       # NumPy's 0-d array
              lambda m: m.where(a(m) > 0, a(m), 0),                # NumPy's 0-d array
              lambda m: m.copy(a(m)), lambda m: m.asarray(a(m)), lambda m: a(m).astype(int),
              lambda m: m.triu_indices(m.array(True), m.array(True)),
              lambda m: m.interp(a(m), [0, 1], [0, 2])]:
        _both(f)


class Sub(np.ndarray):
    pass


class NSub(numpy.ndarray):
    pass


def test_a_subclass_keeps_its_0d_array():
    s, ns = np.array(2.0).view(Sub), numpy.array(2.0).view(NSub)
    for r, nr in [(s + 1, ns + 1), (np.sin(s), numpy.sin(ns)), (-s, -ns)]:
        assert type(nr) is NSub and nr.ndim == 0
        assert type(r) is Sub and r.ndim == 0 and float(r) == float(nr)


def test_same_answer_on_every_rank():
    """Under mpirun (tests/mpi/run.py runs this module on ranks) every rank
    reads the scalars (the 0-d results' tiles are computed on one rank) and
    checks them against NumPy's."""
    a, na = np.array(3.25), numpy.array(3.25)
    for f in (lambda m, x: x + 1, lambda m, x: m.exp(x), lambda m, x: x < 4,
              lambda m, x: divmod(x, 2), lambda m, x: m.frexp(x),
              lambda m, x: m.float32(2) * x):
        _same(f(np, a), f(numpy, na))
    b = np.arange(100.0) * 2          # a 0-d view of work recorded on several ranks
    _same(b[37:38].reshape(()) + 1, numpy.float64(75.0))


@pytest.mark.parametrize('draw', [
    lambda g: g.standard_t(3.0, size=()), lambda g: g.lognormal(size=()),
    lambda g: g.beta(2.0, 3.0, size=()), lambda g: g.weibull(2.0, size=()),
    lambda g: g.f(5, 2, size=()), lambda g: g.geometric(0.5, size=()),
    lambda g: g.noncentral_chisquare(3.0, 2.0, size=()), lambda g: g.standard_t(3.0),
    lambda g: g.multinomial(10, [0.2, 0.8])])
def test_random_draws_of_size_0d_stay_arrays(draw):
    """The samplers compute with ufuncs and operators on 0-d draws: size=()
    is NumPy's 0-d array, size=None its Python scalar (values are ndtile's
    own streams: deviations.md 15)."""
    a, b = draw(numpy.random.default_rng(0)), draw(np.random.default_rng(0))
    assert type(b) is (np.ndarray if isinstance(a, numpy.ndarray) else type(a))
    assert numpy.shape(a) == numpy.shape(b) and numpy.asarray(a).dtype == numpy.asarray(b).dtype
