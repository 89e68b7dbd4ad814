"""gcd, lcm, heaviside, ldexp, frexp, modf, logaddexp2, spacing, bitwise_count,
matvec and vecmat: native (NDTILE_FALLBACK=error) and equal to NumPy over
every dtype, shapes spanning many tiles, views, broadcasting, out=/where=,
special values and NumPy's errors."""
import numpy as np
import pytest

import ndtile as nt
from _helpers import DTYPES, INTS, FLOATS, make, both, assert_same, tol_for, check_same_error
from _helpers import assert_same as _same

BINARY = ['gcd', 'lcm', 'heaviside', 'logaddexp2']
UNARY = ['spacing', 'bitwise_count', 'frexp', 'modf']
INT_MIN = {np.dtype(t): np.iinfo(t).min for t in (np.int8, np.int16, np.int32, np.int64)}


@pytest.fixture(autouse=True)
def _native_only(monkeypatch):
    monkeypatch.setenv("NDTILE_FALLBACK", "error")


def _tol(name, dt):
    return tol_for(dt, 'math') if name == 'logaddexp2' else 0


def _call_both(name, np_args, nt_args, rtol=0, **kw):
    """Runs the ufunc in both; NumPy's error means ndtile raises the same type."""
    try:
        exp = getattr(np, name)(*np_args, **kw)
    except Exception as e:
        with pytest.raises(type(e) if not isinstance(e, TypeError) else TypeError):
            getattr(nt, name)(*nt_args, **kw)
        return None
    got = getattr(nt, name)(*nt_args, **kw)
    assert_same(got, exp, rtol)
    return got


@pytest.mark.parametrize('name', BINARY)
def test_binary_every_dtype_pair(name):
    for d1 in DTYPES:
        a = make(d1, (9,), 1, lo=-6, hi=6)
        x = nt.asarray(a)
        for d2 in DTYPES:
            b = make(d2, (9,), 2, lo=-6, hi=6)
            _call_both(name, (a, b), (x, nt.asarray(b)), _tol(name, np.result_type(d1, d2)))


def test_ldexp_every_dtype_pair():
    for d1 in DTYPES:
        a = make(d1, (7,), 1)
        x = nt.asarray(a)
        for d2 in DTYPES:
            b = make(d2, (7,), 2, lo=-5, hi=5)
            _call_both('ldexp', (a, b), (x, nt.asarray(b)))


@pytest.mark.parametrize('name', UNARY)
def test_unary_every_dtype(name):
    for d in DTYPES:
        a = make(d, (11,), 3, lo=-50, hi=50)
        _call_both(name, (a,), (nt.asarray(a),))


@pytest.mark.parametrize('shape', [(), (0,), (1,), (2, 0, 3), (33, 47), (4, 5, 6)])
def test_shapes_many_tiles(shape):
    a, x = both(np.int64, shape, seed=4, lo=-300, hi=300)
    b, y = both(np.int64, shape, seed=5, lo=-300, hi=300)
    f, u = both(np.float64, shape, seed=6, lo=-40, hi=40)
    g, v = both(np.float32, shape, seed=7, lo=-40, hi=40)

    def assert_same(got, exp, rtol=0):   # ndtile keeps 0-d arrays
        _same(got, exp, rtol)
    for name in ('gcd', 'lcm'):
        assert_same(getattr(nt, name)(x, y), getattr(np, name)(a, b))
    assert_same(nt.bitwise_count(x), np.bitwise_count(a))
    assert_same(nt.heaviside(u, v), np.heaviside(f, g))
    assert_same(nt.logaddexp2(u, v), np.logaddexp2(f, g), 1e-13)
    assert_same(nt.ldexp(u, y % 40), np.ldexp(f, b % 40))
    assert_same(nt.spacing(v), np.spacing(g))
    assert_same(nt.frexp(u), np.frexp(f))
    assert_same(nt.modf(v), np.modf(g))


def test_views_with_steps_and_broadcasting():
    a, x = both(np.int32, (40, 60), seed=1, lo=-1000, hi=1000)
    b, y = both(np.int32, (60,), seed=2, lo=-1000, hi=1000)
    f, u = both(np.float64, (40, 60), seed=3)
    assert_same(nt.gcd(x[::-2, 3::3], y[3::3]), np.gcd(a[::-2, 3::3], b[3::3]))
    assert_same(nt.lcm(x.T[::3], x.T[1::3]), np.lcm(a.T[::3], a.T[1::3]))
    assert_same(nt.heaviside(u[:, ::-1], u[0]), np.heaviside(f[:, ::-1], f[0]))
    assert_same(nt.ldexp(u[::3, ::-5], x[::3, ::-5] % 20), np.ldexp(f[::3, ::-5], a[::3, ::-5] % 20))
    assert_same(nt.frexp(u.T[::2]), np.frexp(f.T[::2]))
    assert_same(nt.modf(u[5, ::-1]), np.modf(f[5, ::-1]))
    assert_same(nt.spacing(u[::7, None, ::9]), np.spacing(f[::7, None, ::9]))
    assert_same(nt.bitwise_count(x[:, ::-4]), np.bitwise_count(a[:, ::-4]))
    assert_same(nt.logaddexp2(u[:, :1], u[0]), np.logaddexp2(f[:, :1], f[0]), 1e-13)


def test_python_scalars_and_numpy_scalars():
    a, x = both(np.int16, (50,), seed=1, lo=-100, hi=100)
    f, u = both(np.float32, (50,), seed=2)
    assert_same(nt.gcd(x, 6), np.gcd(a, 6))
    assert_same(nt.lcm(4, x), np.lcm(4, a))
    assert_same(nt.gcd(x, np.int64(10)), np.gcd(a, np.int64(10)))
    assert_same(nt.heaviside(u, 0.5), np.heaviside(f, 0.5))
    assert_same(nt.heaviside(x, 0.5), np.heaviside(a, 0.5))
    assert_same(nt.ldexp(u, 3), np.ldexp(f, 3))
    assert_same(nt.ldexp(2.0, x % 10), np.ldexp(2.0, a % 10))
    assert_same(nt.ldexp(3, x[:10] % 10), np.ldexp(3, a[:10] % 10))
    assert_same(nt.ldexp(u, True), np.ldexp(f, True))
    for e in (2**40, 2**70):
        check_same_error(lambda: nt.ldexp(u, e), lambda: np.ldexp(f, e))
    with pytest.raises(TypeError):
        nt.ldexp(u, 3.0)
    assert_same(nt.logaddexp2(u, 1.0), np.logaddexp2(f, 1.0), 1e-6)
    # scalars only: NumPy's scalars
    assert_same(nt.gcd(12, 18), np.gcd(12, 18))
    assert_same(nt.frexp(3.0), np.frexp(3.0))
    assert_same(nt.modf(-2.5), np.modf(-2.5))
    assert_same(nt.spacing(np.float32(1)), np.spacing(np.float32(1)))


def test_small_int_inputs_float16_results():
    # NumPy runs these in float16; the core computes in float32 and rounds,
    # spacing follows NumPy's float16 ULP rule
    for a in (np.arange(-128, 128, dtype=np.int8), np.arange(256, dtype=np.uint8),
              np.array([True, False])):
        x = nt.asarray(a)
        for name in ('spacing', 'frexp', 'modf'):
            assert_same(getattr(nt, name)(x), getattr(np, name)(a))
        assert_same(nt.heaviside(x, x[::-1]), np.heaviside(a, a[::-1]))
        assert_same(nt.logaddexp2(x, x[::-1]), np.logaddexp2(a, a[::-1]))
        assert_same(nt.ldexp(x, x[::-1] % 9), np.ldexp(a, a[::-1] % 9))


def test_special_values():
    fl = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, -np.nan, 5e-324, -5e-324,
                   1.7976931348623157e308, -1.7976931348623157e308, 0.5, 2.5, -2.5, 1e-310])
    for dt in FLOATS:
        f = fl.astype(dt)
        x = nt.asarray(f)
        assert_same(nt.spacing(x), np.spacing(f))
        assert_same(nt.frexp(x), np.frexp(f))
        assert_same(nt.modf(x), np.modf(f))
        h = f[::-1].copy()
        assert_same(nt.heaviside(x, nt.asarray(h)), np.heaviside(f, h))
        assert_same(nt.logaddexp2(x, nt.asarray(h)), np.logaddexp2(f, h), tol_for(dt, 'math'))
        assert_same(nt.logaddexp2(x, x), np.logaddexp2(f, f))
        e = np.array([0, 1, -1, 2000, -2000, 1, 3, 0, 60, -60, 1, 1, 1, 0, 0, 10], np.int64)
        assert_same(nt.ldexp(x, nt.asarray(e)), np.ldexp(f, e))
        big = np.array([2**40, -2**40, 2**31, -2**31 - 1] * 4, np.int64)
        assert_same(nt.ldexp(x, nt.asarray(big)), np.ldexp(f, big))
    for dt in INTS:
        info = np.iinfo(dt)
        v = np.array([info.min, info.max, 0, 1, -1 if dt.kind == 'i' else 3, info.min + 1, 6,
                      0], dt)
        w = np.array([0, info.max, 0, info.min, info.min, 2, 4, 5], dt)
        x, y = nt.asarray(v), nt.asarray(w)
        assert_same(nt.gcd(x, y), np.gcd(v, w))
        assert_same(nt.lcm(x, y), np.lcm(v, w))
        assert_same(nt.lcm(x, x[::-1]), np.lcm(v, v[::-1]))
        assert_same(nt.bitwise_count(x), np.bitwise_count(v))


def test_out_where_dtype():
    a, x = both(np.int32, (30, 40), seed=1, lo=-50, hi=50)
    b, y = both(np.int32, (40,), seed=2, lo=-50, hi=50)
    m = make(np.bool_, (30, 40), 3)
    o = nt.zeros((30, 40), np.int64)
    r = nt.gcd(x, y, out=o)
    assert r is o
    assert_same(o, np.gcd(a, b).astype(np.int64))
    o2 = nt.full((30, 40), -7, np.int32)
    on = np.full((30, 40), -7, np.int32)
    nt.lcm(x, y, out=o2, where=nt.asarray(m))
    np.lcm(a, b, out=on, where=m)
    assert_same(o2, on)
    assert_same(nt.gcd(x, y, dtype=np.int64), np.gcd(a, b, dtype=np.int64))
    f, u = both(np.float64, (30, 40), seed=4)
    of = nt.zeros((30, 40))
    nt.heaviside(u, 0.5, out=of, where=nt.asarray(m))
    exp = np.zeros((30, 40))
    np.heaviside(f, 0.5, out=exp, where=m)
    assert_same(of, exp)
    ol = nt.zeros((30, 40), np.float32)
    nt.ldexp(u, x % 8, out=ol)      # float64 -> float32: same_kind
    assert_same(ol, np.ldexp(f, a % 8).astype(np.float32))
    with pytest.raises(TypeError):
        nt.ldexp(u, x, out=nt.zeros((30, 40), np.int64))
    nt.spacing(u, out=of)
    assert_same(of, np.spacing(f))
    # two outputs
    m1, e1 = nt.zeros((30, 40)), nt.zeros((30, 40), np.int32)
    r = nt.frexp(u, m1, e1)
    assert r[0] is m1 and r[1] is e1
    assert_same((m1, e1), np.frexp(f))
    fr, ip = nt.zeros((30, 40)), nt.zeros((30, 40))
    nt.modf(u, out=(fr, ip))
    assert_same((fr, ip), np.modf(f))
    fr2 = nt.zeros((30, 40))
    nt.modf(u, out=(fr2, None), where=nt.asarray(m))
    efr = np.zeros((30, 40))
    np.modf(f, out=(efr, None), where=m)
    assert_same(fr2, efr)
    ob = nt.zeros((30, 40), np.uint8)
    nt.bitwise_count(x, out=ob)
    assert_same(ob, np.bitwise_count(a))


def test_type_errors():
    f, u = both(np.float64, (5,), seed=1)
    c, z = both(np.complex128, (5,), seed=2)
    b, t = both(np.bool_, (5,), seed=3)
    i, k = both(np.int64, (5,), seed=4)
    q, w = both(np.uint64, (5,), seed=5)
    cases = [('gcd', (f, i)), ('gcd', (b, b)), ('lcm', (i, q)), ('lcm', (f, f)),
             ('heaviside', (c, f)), ('logaddexp2', (c, c)), ('ldexp', (f, f)),
             ('ldexp', (f, q)), ('ldexp', (c, i)), ('spacing', (c,)), ('bitwise_count', (f,)),
             ('frexp', (c,)), ('modf', (z,))]
    nmap = {id(f): u, id(c): z, id(b): t, id(i): k, id(q): w}
    for name, args in cases:
        nargs = tuple(nmap.get(id(a), a) for a in args)
        raised, _ = check_same_error(lambda: getattr(nt, name)(*nargs),
                                     lambda: getattr(np, name)(*args))
        assert raised, name
    with pytest.raises(TypeError, match="ufunc 'gcd' did not contain a loop"):   # NumPy's message
        nt.gcd(u, k)
    with pytest.raises(TypeError):
        nt.gcd(t, t)
    with pytest.raises(TypeError):
        nt.bitwise_count(z)


@pytest.mark.parametrize('dt', [np.float64, np.float32, np.int32, np.int64, np.uint8,
                                np.bool_, np.complex128, np.complex64])
def test_matvec_vecmat(dt):
    A, X = both(dt, (3, 4, 5), seed=1, lo=-5, hi=5)
    v, V = both(dt, (5,), seed=2, lo=-5, hi=5)
    w, W = both(dt, (4,), seed=3, lo=-5, hi=5)
    tol = tol_for(dt, 'sum')
    assert_same(nt.matvec(X, V), np.matvec(A, v), tol)
    assert_same(nt.vecmat(W, X), np.vecmat(w, A), tol)
    # broadcasting of the loop dimensions, strided views
    B, Y = both(dt, (2, 1, 4, 5), seed=4, lo=-5, hi=5)
    vv, VV = both(dt, (3, 5), seed=5, lo=-5, hi=5)
    assert_same(nt.matvec(Y, VV), np.matvec(B, vv), tol)
    assert_same(nt.vecmat(VV[:, ::-1][:, :4], X[:, :, ::2]), np.vecmat(vv[:, ::-1][:, :4],
                                                                       A[:, :, ::2]), tol)
    assert_same(nt.matvec(X.transpose(0, 2, 1), W), np.matvec(A.transpose(0, 2, 1), w), tol)


def test_matvec_large_and_empty_and_out():
    A, X = both(np.float64, (70, 60), seed=1)
    v, V = both(np.float64, (60,), seed=2)
    assert_same(nt.matvec(X, V), np.matvec(A, v), 1e-12)
    assert_same(nt.vecmat(V[:60], X.T), np.vecmat(v, A.T), 1e-12)
    e, E = both(np.float64, (0, 3), seed=3)
    assert_same(nt.matvec(E, nt.ones(3)), np.matvec(e, np.ones(3)))
    z, Z = both(np.float64, (2, 0), seed=3)
    assert_same(nt.matvec(Z, nt.ones(0)), np.matvec(z, np.ones(0)))
    o = nt.zeros(70)
    r = nt.matvec(X, V, out=o)
    assert r is o
    assert_same(o, np.matvec(A, v), 1e-12)


def test_matvec_errors():
    a2 = np.ones((2, 3))
    cases = [('matvec', a2, np.ones(4)), ('matvec', np.ones(3), np.ones(3)),
             ('matvec', a2, np.ones(())), ('vecmat', np.ones(3), np.ones((4, 2))),
             ('vecmat', np.ones(3), np.ones(3)), ('matvec', np.ones((2, 2, 3)), np.ones((3, 3)))]
    for name, a, b in cases:
        raised, _ = check_same_error(lambda: getattr(nt, name)(nt.asarray(a), nt.asarray(b)),
                                     lambda: getattr(np, name)(a, b))
        assert raised
    with pytest.raises(ValueError, match="mismatch in its core dimension 0"):
        nt.matvec(nt.ones((2, 3)), nt.ones(4))
    with pytest.raises(ValueError, match="Output operand 0"):
        nt.matvec(nt.ones((2, 3)), nt.ones(3), out=nt.ones(3))
    with pytest.raises(TypeError, match="Cannot cast ufunc 'matvec'"):
        nt.matvec(nt.ones((2, 3)), nt.ones(3), out=nt.ones(2, np.int64))


def test_numpy_dispatch_and_ufunc_attributes():
    a, x = both(np.int64, (20,), seed=1, lo=-30, hi=30)
    f, u = both(np.float64, (20,), seed=2)
    r = np.gcd(x, 12)
    assert isinstance(r, nt.ndarray)
    assert_same(r, np.gcd(a, 12))
    m, e = np.frexp(u)
    assert isinstance(m, nt.ndarray) and isinstance(e, nt.ndarray)
    assert_same((m, e), np.frexp(f))
    assert isinstance(np.matvec(nt.ones((2, 3)), nt.ones(3)), nt.ndarray)
    assert nt.frexp.nin == 1 and nt.frexp.nout == 2 and nt.modf.nout == 2
    assert nt.gcd.identity == 0 and nt.matvec.signature == '(m,n),(n)->(m)'
    assert_same(nt.gcd.outer(x[:5], x[5:9]), np.gcd.outer(a[:5], a[5:9]))


@pytest.mark.parametrize('dt', [np.int8, np.uint16, np.int32, np.int64, np.uint64])
def test_gcd_reduce(dt):
    a = (make(dt, (7, 30, 5), 1, lo=1, hi=6) * make(dt, (7, 30, 5), 2, lo=1, hi=4)).astype(dt)
    x = nt.asarray(a)
    for kw in ({}, dict(axis=1), dict(axis=-1, keepdims=True), dict(axis=2, initial=4),
               dict(axis=None), dict(axis=(0, 2), keepdims=True), dict(axis=()),
               dict(axis=1, dtype=np.int64)):
        assert_same(nt.gcd.reduce(x, **kw), np.gcd.reduce(a, **kw))
    assert_same(nt.gcd.reduce(x[::-2, 3:20:3, 0]), np.gcd.reduce(a[::-2, 3:20:3, 0]))
    assert_same(nt.gcd.reduce(x[:1]), np.gcd.reduce(a[:1]))
    assert_same(nt.gcd.reduce(x[:, :, 0], axis=None), np.gcd.reduce(a[:, :, 0], axis=None))


def test_gcd_lcm_reduce_empty_and_errors(monkeypatch):
    e = np.zeros((0, 3), np.int64)
    assert_same(nt.gcd.reduce(nt.asarray(e)), np.gcd.reduce(e))
    with pytest.raises(TypeError):
        nt.gcd.reduce(nt.ones(3, bool))
    with pytest.raises(TypeError):
        nt.gcd.reduce(nt.ones(3))
    # lcm.reduce runs NumPy's (sequential, wrapping) version
    monkeypatch.setenv("NDTILE_FALLBACK", "ignore")
    a = make(np.int8, (7, 30), 1, lo=1, hi=9)
    assert_same(nt.lcm.reduce(nt.asarray(a), axis=1), np.lcm.reduce(a, axis=1))
    with pytest.raises(ValueError, match="no identity"):
        nt.lcm.reduce(nt.asarray(e))
    with pytest.raises(np.exceptions.AxisError):
        nt.gcd.reduce(nt.ones(3, np.int32), axis=1)
    o = nt.zeros(3, np.int64)
    r = nt.gcd.reduce(nt.asarray(np.arange(12).reshape(4, 3) * 4), out=o)
    assert r is o
    assert_same(o, np.gcd.reduce(np.arange(12).reshape(4, 3) * 4))
