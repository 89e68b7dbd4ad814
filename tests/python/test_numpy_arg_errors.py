"""NumPy's exceptions, in NumPy's order, for arguments that NumPy refuses
before it computes: Python ints out of a dtype's range (NEP 50) in gufuncs,
round's arguments, random size=, out= of ufuncs of several outputs and of
cumulative sums; and the warning of a result the program drops. Each case
runs under NumPy and ndtile and compares exception type and message (or
values, dtype and warnings)."""
import warnings

import numpy as np
import pytest

import ndtile as nt

# multi-tile at 4 KiB tiles (the tests' setting) and above a 2 MiB tile and
# the inline threshold at the default settings
BIG = 300_000


def outcome(f, xp):
    """('ok', value) or (exception class, message), and the RuntimeWarnings."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        try:
            r = f(xp)
            if isinstance(r, tuple):
                r = tuple(np.asarray(x) for x in r)
            elif r is not None:
                r = np.asarray(r)
            res = ('ok', r)
        except Exception as e:      # noqa: BLE001 - the exception is the result
            res = (type(e), str(e))
    msgs = sorted(str(m.message) for m in w if m.category is RuntimeWarning
                  and 'does not implement' not in str(m.message))
    return res, msgs


def same(f):
    want, got = outcome(f, np), outcome(f, nt)
    (wk, wv), (gk, gv) = want[0], got[0]
    assert gk is wk, (got, want)
    if wk == 'ok':
        if isinstance(wv, tuple):
            for g, r in zip(gv, wv):
                np.testing.assert_array_equal(g, r, strict=True)
        else:
            np.testing.assert_array_equal(gv, wv, strict=True)
    else:
        assert gv == wv
    assert got[1] == want[1]


# ---- Python ints out of range (NEP 50) ------------------------------------

GUFUNC_CASES = {
    'matmul': lambda xp: xp.arange(5, dtype=xp.int8) @ 300,
    'rmatmul': lambda xp: 300 @ xp.arange(5, dtype=xp.int8),
    'matmul 2d': lambda xp: xp.ones((3, 3), xp.int8) @ -129,
    'np.matmul uint8': lambda xp: xp.matmul(xp.ones(3, xp.uint8), -1),
    'matmul 0-d ok int': lambda xp: xp.arange(5, dtype=xp.int8) @ 3,
    'matmul float big': lambda xp: xp.ones(3) @ 2**70,
    'matvec': lambda xp: xp.matvec(xp.ones((4, 4), xp.int8), 300),
    'vecmat': lambda xp: xp.vecmat(300, xp.ones((4, 4), xp.int8)),
    'vecdot': lambda xp: xp.vecdot(xp.arange(5, dtype=xp.int8), 300),
    'vecdot beyond long': lambda xp: xp.vecdot(xp.arange(5, dtype=xp.int8), 2**70),
    'vecdot ok': lambda xp: xp.vecdot(xp.arange(5, dtype=xp.int16), 300),
}


@pytest.mark.parametrize('case', list(GUFUNC_CASES))
def test_gufunc_python_int_out_of_range(case):
    same(GUFUNC_CASES[case])


@pytest.mark.parametrize('dt', ['int8', 'uint8', 'int64', 'uint64'])
@pytest.mark.parametrize('v', [2**63 - 1, 2**63, 2**64 - 1, 2**64, -2**63, -2**63 - 1, -1])
def test_python_int_bounds_message(dt, v):
    # beyond a C long NumPy's words are "Python int too large to convert to
    # C long", whatever the dtype (uint64 holds [2**63, 2**64) all the same)
    same(lambda xp: xp.arange(1, 4, dtype=dt) + v)


# ---- round ----------------------------------------------------------------

ROUND_CASES = {
    'around dtype=': lambda xp: xp.around(xp.arange(5.0), dtype=int),
    'round dtype=': lambda xp: xp.round(xp.arange(5.0), dtype=int),
    'around 4 args': lambda xp: xp.around(xp.arange(5.0), 1, None, 3),
    'decimals float': lambda xp: xp.round(xp.arange(5.0), 1.5),
    'decimals None': lambda xp: xp.round(xp.arange(5.0), None),
    'decimals 2**31': lambda xp: xp.round(xp.arange(5.0), 2**31),
    'decimals -2**31-1': lambda xp: xp.round(xp.arange(5.0), -2**31 - 1),
    'decimals 2**70': lambda xp: xp.round(xp.arange(5.0), 2**70),
    'decimals 400': lambda xp: xp.round(xp.linspace(0, 1, 5), 400),
    'decimals -400': lambda xp: xp.round(xp.linspace(0, 1, 5), -400),
    'method keyword': lambda xp: xp.arange(5.0).round(foo=1),
    'method twice': lambda xp: xp.arange(5.0).round(1, decimals=2),
    'method 3 positional': lambda xp: xp.arange(5.0).round(1, None, 3),
    'method keywords': lambda xp: xp.arange(5.0).round(out=None, decimals=1, foo=2),
    'method dtype=': lambda xp: xp.arange(5.0).round(dtype=int),
    'out list': lambda xp: xp.round(xp.arange(5.0), out=[0] * 5),
    'out scalar': lambda xp: xp.around(xp.arange(5.0), out=5),
}


@pytest.mark.parametrize('case', list(ROUND_CASES))
def test_round_argument_errors(case):
    same(ROUND_CASES[case])


@pytest.mark.parametrize('dt', ['float64', 'float32', 'int64', 'complex128'])
@pytest.mark.parametrize('decimals', [0, 2, -1])
@pytest.mark.parametrize('out', [(3,), (2, BIG // 50), ('int64',), ('bool',), ('float32',)])
def test_round_out_checked_first(dt, decimals, out):
    # NumPy's PyArray_Round: out= an array of a's shape (never broadcast),
    # then the cast of its first step into it (rint, multiply or divide;
    # integers copied by same_kind; complex into complex only)
    n = BIG // 50
    if isinstance(out[0], str):
        def mk(xp):
            return xp.zeros(n, out[0])
    else:
        def mk(xp):
            return xp.zeros(out)

    def f(xp):
        a = (xp.arange(n) * 1.37).astype(dt)
        if dt == 'int64' and decimals < 0:
            a = xp.arange(n)
        return xp.round(a, decimals, out=mk(xp))
    same(f)


@pytest.mark.parametrize('decimals', [9, 15, 22, 23, 25, 30, 100])
def test_round_power_of_ten_bits(decimals):
    # 10**decimals as NumPy's power_of_ten makes it (products of 10.0)
    same(lambda xp: xp.round(xp.linspace(0, 1, 7) * 7.123456789, decimals))


# ---- random size= -----------------------------------------------------------

@pytest.mark.parametrize('size', ['0d float', '0d bool', '0d int', 'str', 'bytes', 'float'])
def test_random_size_errors(size):
    def f(xp):
        s = {'0d float': lambda: xp.array(2.0), '0d bool': lambda: xp.array(True),
             '0d int': lambda: xp.array(3), 'str': lambda: 'ab', 'bytes': lambda: b'\x03',
             'float': lambda: xp.float64(2)}[size]()
        return xp.random.default_rng(0).uniform(size=s).shape
    same(f)


@pytest.mark.parametrize('sub', [False, True])
def test_random_zero_d_bounds(sub):
    # a 0-d array (or subclass) as low/high: a Python float, as NumPy's
    def f(xp):
        lo, hi = xp.array(1.0), xp.array(2.0)
        if sub:
            lo = lo.view(type('Sub', (xp.ndarray,), {}))
        g = xp.random.default_rng(0)
        r, s = g.uniform(lo, hi), g.uniform(lo, hi, xp.array(3))
        n = g.normal(lo, hi)
        return type(r).__name__, type(n).__name__, s.shape, s.dtype.name, 1 <= r < 2
    same(f)


# ---- out= before any work: ufuncs of several outputs, cumulative sums -----

def zeros(xp, shape, dt='float64'):
    return xp.zeros(shape, dt)


OUT_CASES = {
    'divmod o2 shape': lambda xp: xp.divmod(xp.arange(BIG) - 2.0, 0.0,
                                            out=(zeros(xp, BIG), zeros(xp, 3))),
    'divmod o1 shape': lambda xp: xp.divmod(xp.arange(BIG) - 2.0, zeros(xp, BIG),
                                            out=(zeros(xp, 3), zeros(xp, BIG))),
    'divmod o1 None': lambda xp: xp.divmod(xp.arange(BIG) - 2.0, 0.0, out=(None, zeros(xp, 3))),
    'divmod broadcast out': lambda xp: xp.divmod(xp.arange(6) - 2.0, 0.0,
                                                 out=(zeros(xp, 1), zeros(xp, 6))),
    'divmod bigger out': lambda xp: xp.divmod(xp.arange(6) - 2.0, 4.0,
                                              out=(zeros(xp, (2, 6)), None)),
    'divmod o1 cast': lambda xp: xp.divmod(xp.arange(6) - 2.0, 0.0,
                                           out=(zeros(xp, 6, 'int64'), zeros(xp, 3))),
    'divmod o2 cast': lambda xp: xp.divmod(xp.arange(6) - 2.0, 0.0,
                                           out=(zeros(xp, 3), zeros(xp, 6, 'int64'))),
    'divmod o2 list': lambda xp: xp.divmod(xp.arange(6) - 2.0, 0.0,
                                           out=(zeros(xp, 6), [0] * 6)),
    'divmod int overflow': lambda xp: xp.divmod(xp.arange(6, dtype=xp.int8), 300,
                                                out=(zeros(xp, 6, 'int8'),) * 2),
    'divmod ok': lambda xp: xp.divmod(xp.arange(BIG) - 2.0, 0.0,
                                      out=(zeros(xp, BIG), zeros(xp, BIG))),
    'modf shape': lambda xp: xp.modf(xp.arange(BIG) / 3, out=(zeros(xp, BIG), zeros(xp, 3))),
    'frexp cast': lambda xp: xp.frexp(xp.arange(6.0), out=(zeros(xp, 6, 'int64'), None)),
    'cumsum wrong size': lambda xp: xp.cumsum(xp.arange(BIG) * 1e300, out=zeros(xp, 3)),
    'cumsum 2-d out': lambda xp: xp.cumsum(xp.arange(6.0), out=zeros(xp, (2, 3))),
    'cumsum list': lambda xp: xp.cumsum(xp.arange(6.0), out=[0] * 6),
    'cumsum axis first': lambda xp: xp.cumsum(xp.arange(6.0), axis=3, out=zeros(xp, 3)),
    'cumprod wrong size': lambda xp: xp.cumprod(xp.arange(BIG) + 1e300, out=zeros(xp, 3)),
    'method cumsum': lambda xp: (xp.arange(BIG) * 1e300).cumsum(out=zeros(xp, 7)),
    'nancumsum': lambda xp: xp.nancumsum(xp.arange(6.0), out=zeros(xp, 3)),
    'cumulative_sum': lambda xp: xp.cumulative_sum(xp.arange(6.0), out=zeros(xp, 3)),
    'cumulative_sum initial': lambda xp: xp.cumulative_sum(xp.arange(6.0), include_initial=True,
                                                           out=zeros(xp, 7)),
    'cumsum ok': lambda xp: xp.cumsum(xp.arange(BIG) * 1e300, out=zeros(xp, BIG)),
}


@pytest.mark.parametrize('case', list(OUT_CASES))
def test_out_checked_before_work(case):
    same(OUT_CASES[case])


@pytest.mark.parametrize('case', ['divmod o2 shape', 'divmod o1 cast', 'modf shape',
                                  'cumsum wrong size', 'cumprod wrong size'])
def test_out_error_before_fp_raise(case):
    # under 'raise' NumPy's argument error comes first: no work ran
    for xp in (np, nt):
        with xp.errstate(all='raise'), pytest.raises((ValueError, TypeError)) as e:
            OUT_CASES[case](xp)
        assert not isinstance(e.value, FloatingPointError)


# ---- a dropped result warns ---------------------------------------------------

@pytest.mark.parametrize('expr', ['divide', 'chain', 'rebound'])
def test_dropped_result_warns(expr):
    def f(xp):
        a = xp.arange(BIG) - 1.0
        if expr == 'divide':
            a / 0
        elif expr == 'chain':
            b = a * 2
            b + a / 0               # the sum is dropped, b stays alive
        else:
            x = xp.sqrt(a - 3)      # invalid: rebound before it is read
            x = a + 1
            del x
        if xp is nt:
            nt.sync()
        return None
    same(f)


# ---- found by NumPy's test_overrides.py -------------------------------------

@pytest.mark.parametrize('bad', ['args', 'kwargs'])
def test_array_function_guards(bad):
    def f(xp):
        a = xp.array([1, 2])
        if bad == 'args':
            return a.__array_function__(xp.reshape, (xp.ndarray,), a, (2, 1))
        return a.__array_function__(xp.reshape, (xp.ndarray,), (a,), (2, 1))
    same(f)


def test_reduction_calls_subclass_method_as_numpy():
    # np.sum(sub) calls sub.sum(axis=, out=) and only the keywords given
    def f(xp):
        class Sub(xp.ndarray):
            def sum(self, axis, out):
                return xp.array(7)

            def any(self, axis, out, keepdims):
                return xp.array(keepdims)
        a = xp.arange(6.0).reshape(2, 3).view(Sub)
        return xp.sum(a), xp.sum(a, axis=0), xp.any(a, keepdims=True)
    same(f)
