"""Elementwise ufuncs at default settings (2 MiB tiles): every arity, every
dtype just past the inline threshold, several tiles for one dtype of each
kind, stepped and reversed views, broadcasting and scalars; compared with
NumPy on the same inputs."""
import numpy as np
import pytest

import ndtile as nt
from _helpers import DTYPES, ABOVE_INLINE, n_tiles, make, raises_same, assert_big
from test_ufunc import BINARY, UNARY, EXTRA, _inputs, _tol
from test_ufunc2 import BINARY as BINARY2, UNARY as UNARY2

pytestmark = pytest.mark.default_settings

# one dtype of each kind at several tiles
WIDE = [np.dtype(t) for t in (np.bool_, np.int16, np.uint32, np.int64, np.float32,
                              np.float64, np.complex128)]
VIEWS = [np.dtype(np.int64), np.dtype(np.float64)]   # views and broadcasting at several tiles
DOMAIN = {'arcsin': (-1, 1), 'arccos': (-1, 1), 'arctanh': (-0.99, 0.99),
          'arccosh': (1, 10), 'log': (0.01, 10), 'log2': (0.01, 10), 'log10': (0.01, 10),
          'sqrt': (0, 10), 'log1p': (-0.99, 10)}


def _unary_in(name, dt, n, seed):
    if name in DOMAIN and np.dtype(dt).kind == 'f':
        lo, hi = DOMAIN[name]
        return make(dt, n, seed, lo=lo, hi=hi)
    if name == 'spacing' or name in ('exp', 'exp2', 'expm1', 'sinh', 'cosh'):
        return make(dt, n, seed, lo=-5, hi=5)
    return _inputs(name, dt, n, seed)[0]


def _binary_in(name, dt, n, seed):
    if name in BINARY2:
        if name in ('gcd', 'lcm'):
            return make(dt, n, seed, lo=-50, hi=50), make(dt, n, seed + 1, lo=-50, hi=50)
        return make(dt, n, seed), make(dt, n, seed + 1)
    return _inputs(name, dt, n, seed)


def _cmp(name, np_args, nt_args, **kw):
    """One call each (the arrays are large): the same result, or errors of
    one kind."""
    f_np, f_nt = getattr(np, name), getattr(nt, name)
    try:
        exp = f_np(*np_args, **kw)
    except Exception:
        raises_same(lambda: f_nt(*nt_args, **kw), lambda: f_np(*np_args, **kw))
        return
    e = exp[0] if isinstance(exp, tuple) else exp
    assert_big(f_nt(*nt_args, **kw), exp, _tol(name, np.asarray(e).dtype))


@pytest.mark.parametrize("name", UNARY + EXTRA + UNARY2)
def test_unary(name):
    if name == 'float_power':
        pytest.skip("binary")
    for i, dt in enumerate(DTYPES):
        a = _unary_in(name, dt, ABOVE_INLINE, i)
        _cmp(name, (a,), (nt.asarray(a),))
    for i, dt in enumerate(WIDE):
        a = _unary_in(name, dt, n_tiles(dt, 1.3), i)
        x = nt.asarray(a)
        _cmp(name, (a,), (x,))
        if dt not in VIEWS:
            continue
        _cmp(name, (a[::-3],), (x[::-3],))                   # a reversed stepped view
        m = a[: a.size - a.size % 1000].reshape(-1, 1000)
        y = nt.asarray(m)
        _cmp(name, (m[1::2, 3:-5:2],), (y[1::2, 3:-5:2],))   # 2-d, both axes stepped
        _cmp(name, (m.T,), (y.T,))


@pytest.mark.parametrize("name", BINARY + BINARY2 + ['float_power', 'ldexp'])
def test_binary(name):
    def ins(dt, n, seed):
        if name == 'ldexp':
            return make(dt, n, seed), make(np.int32, n, seed + 1, lo=-10, hi=10)
        return _binary_in(name, dt, n, seed)
    for i, dt in enumerate(DTYPES):
        a, b = ins(dt, ABOVE_INLINE, i)
        _cmp(name, (a, b), (nt.asarray(a), nt.asarray(b)))
    for i, dt in enumerate(DTYPES):
        # Python and NumPy scalars on either side
        a, b = ins(dt, ABOVE_INLINE, i)
        x, y = nt.asarray(a), nt.asarray(b)
        for s in (3, 1.5, np.float32(2), True):
            if name in ('left_shift', 'right_shift', 'gcd', 'lcm', 'ldexp') and \
                    not isinstance(s, (int, bool)):
                continue
            _cmp(name, (a, s), (x, s))
            _cmp(name, (s, b), (s, y))
    for i, dt in enumerate(WIDE):
        n = n_tiles(dt, 1.3)
        a, b = ins(dt, n, i)
        x, y = nt.asarray(a), nt.asarray(b)
        _cmp(name, (a, b), (x, y))
        if dt not in VIEWS:
            continue
        h = n // 2
        _cmp(name, (a[::-1][:h], b[::2][:h]), (x[::-1][:h], y[::2][:h]))
        # broadcasting: a row against a matrix, a column against a matrix
        m = a[: n - n % 1000].reshape(-1, 1000)
        r, c = b[:1000], b[: m.shape[0]].reshape(-1, 1)
        ym = nt.asarray(m)
        _cmp(name, (m, r), (ym, nt.asarray(r)))
        _cmp(name, (c, m), (nt.asarray(c), ym))
        _cmp(name, (m.T, c.T), (ym.T, nt.asarray(c).T))
    # mixed dtypes past the inline threshold
    for da, db in ((np.int8, np.float32), (np.uint16, np.int16), (np.float32, np.complex64),
                   (np.bool_, np.int64), (np.uint64, np.int64), (np.int32, np.float64)):
        a, _ = ins(da, ABOVE_INLINE, 3)
        _, b = ins(db, ABOVE_INLINE, 4)
        _cmp(name, (a, b), (nt.asarray(a), nt.asarray(b)))


def test_two_outputs_and_out():
    for dt in (np.float64, np.float32, np.int32):
        n = n_tiles(dt)
        a, b = make(dt, n, 1), make(dt, n, 2, nonzero=True)
        x, y = nt.asarray(a), nt.asarray(b)
        _cmp('divmod', (a, b), (x, y))
        if dt != np.int32:
            _cmp('modf', (a,), (x,))
            _cmp('frexp', (a,), (x,))
        # out= for both results, into views of larger arrays
        q, r = np.zeros(2 * n, dt), np.zeros(2 * n, dt)
        qx, rx = nt.asarray(q), nt.asarray(r)
        np.divmod(a, b, out=(q[::2], r[1::2]))
        res = nt.divmod(x, y, out=(qx[::2], rx[1::2]))
        assert_big(qx, q)
        assert_big(rx, r)
        assert_big(res[0], q[::2])


@pytest.mark.parametrize("dt", DTYPES, ids=[d.name for d in DTYPES])
def test_out_where_dtype(dt):
    n = n_tiles(dt, 1.5)
    a, b = make(dt, n, 1), make(dt, n, 2)
    x, y = nt.asarray(a), nt.asarray(b)
    mask = make(np.bool_, n, 3)
    o = make(dt, n, 4)
    ox = nt.asarray(o)
    r1 = np.add(a, b, out=o, where=mask)
    r2 = nt.add(x, y, out=ox, where=nt.asarray(mask))
    assert r2 is ox
    assert_big(ox, o)
    assert r1 is o
    # out= a different dtype with casting, and dtype=
    if dt.kind in 'biu':
        o2 = np.zeros(n, np.float64)
        o2x = nt.asarray(o2)
        np.multiply(a, b, out=o2)
        nt.multiply(x, y, out=o2x)
        assert_big(o2x, o2)
        assert_big(nt.add(x, y, dtype=np.float32), np.add(a, b, dtype=np.float32))
    # out aliasing an input: in place through a ufunc
    np.maximum(a, b, out=a)
    nt.maximum(x, y, out=x)
    assert_big(x, a)
