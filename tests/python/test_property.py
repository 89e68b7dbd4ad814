"""Property tests: random sequences of operations give NumPy's answers,
including writes through views (aliasing as in NumPy)."""
import numpy as np
from hypothesis import given, settings, strategies as st, HealthCheck

import ndtile as nt
from _helpers import make, assert_same


def _same_shape_ops():
    """(name, f(mod, x, y) -> new x); x and y keep their shape."""
    return [
        ('add', lambda m, x, y: x + y),
        ('sub', lambda m, x, y: x - y),
        ('mul', lambda m, x, y: x * y),
        ('scalar', lambda m, x, y: 3 * x - 2),
        ('neg', lambda m, x, y: -x),
        ('abs', lambda m, x, y: m.abs(x)),
        ('max', lambda m, x, y: m.maximum(x, y)),
        ('min', lambda m, x, y: m.minimum(x[::-1], y)),
        ('where', lambda m, x, y: m.where(x > y, x, y)),
        ('flip', lambda m, x, y: x[::-1, ::-1]),
        ('T', lambda m, x, y: x.T.copy().T),
        ('bcast', lambda m, x, y: x + y[:1]),
        ('colsum', lambda m, x, y: x - x.sum(axis=0, keepdims=True)),
        ('rowmax', lambda m, x, y: x + x.max(axis=1, keepdims=True)),
        ('clip', lambda m, x, y: m.clip(x, -5, 5)),
        ('iadd', lambda m, x, y: _iop(x, y)),
        ('setview', lambda m, x, y: _setview(x, y)),
        ('setmask', lambda m, x, y: _setmask(x, y)),
        ('square', lambda m, x, y: x * x % 97),
        ('concat', lambda m, x, y: m.concatenate([x[1:], y[:1]], axis=0)),
        ('roll', lambda m, x, y: m.concatenate([x[:, 1:], x[:, :1]], axis=1)),
    ]


def _iop(x, y):
    z = x.copy()
    z += y
    z[::2] *= 2
    return z


def _setview(x, y):
    z = x.copy()
    v = z[1:, ::-2]
    v[...] = y[:-1, ::2]
    if v.shape[0]:
        v[0] -= 1
    return z


def _setmask(x, y):
    z = x.copy()
    z[z > y] = 7
    return z


OPS = _same_shape_ops()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dt=st.sampled_from([np.int64, np.int32, np.float64]),
       shape=st.sampled_from([(1, 1), (3, 4), (17, 5), (40, 33)]),
       ops=st.lists(st.integers(0, len(OPS) - 1), min_size=1, max_size=8),
       seed=st.integers(0, 1000))
def test_random_operation_sequences(dt, shape, ops, seed):
    a, b = make(dt, shape, seed), make(dt, shape, seed + 1)
    x, y = nt.asarray(a), nt.asarray(b)
    # the largest magnitude any step went through: a sum's rounding (its
    # order of additions differs) is relative to it, and `x * x % 97` keeps
    # the absolute error of a product of that size
    scale = 1.0
    for i in ops:
        name, f = OPS[i]
        prev = a
        a = f(np, a, b)
        x = f(nt, x, y)
        if np.dtype(dt).kind in 'iu':
            a = a % 1000
            x = x % 1000
            assert_same(x, a)
        else:
            big = float(np.abs(prev).max(initial=0))
            scale = max(scale, big * big if name == 'square' else big,
                        float(np.abs(a).max(initial=0)))
            assert_same(x, a, 1e-12, 1e-12 * scale)
    if np.dtype(dt).kind == 'f':
        assert_same(x.sum(), a.sum(), 1e-12, 1e-12 * max(1.0, float(np.abs(a).sum())))
    else:
        assert_same(x.sum(), a.sum())


@settings(max_examples=60, deadline=None)
@given(shape=st.sampled_from([(6,), (4, 5), (3, 4, 5), (50, 30)]),
       data=st.data())
def test_random_basic_indexing_matches_and_aliases(shape, data):
    a = make(np.float64, shape, 1)
    x = nt.asarray(a)
    key = []
    for n in shape:
        kind = data.draw(st.sampled_from(['int', 'slice', 'all', 'none']))
        if kind == 'int':
            key.append(data.draw(st.integers(-n, n - 1)))
        elif kind == 'slice':
            start = data.draw(st.one_of(st.none(), st.integers(-n - 2, n + 2)))
            stop = data.draw(st.one_of(st.none(), st.integers(-n - 2, n + 2)))
            step = data.draw(st.one_of(st.none(), st.integers(-3, 3).filter(lambda s: s != 0)))
            key.append(slice(start, stop, step))
        elif kind == 'none':
            key.append(None)
            key.append(slice(None))
        else:
            key.append(slice(None))
    key = tuple(key)
    assert_same(x[key], a[key])
    # writes through the view land in the base, as in NumPy
    v, w = x[key], a[key]
    if isinstance(w, np.ndarray):
        v[...] = -1.0
        w[...] = -1.0
    else:
        x[key] = -1.0
        a[key] = -1.0
    assert_same(x, a)


@settings(max_examples=40, deadline=None)
@given(dt=st.sampled_from([np.float32, np.int16, np.uint8, np.complex64, np.bool_]),
       n=st.integers(0, 3000), axis=st.sampled_from([None, 0, -1]),
       seed=st.integers(0, 100))
def test_reductions_random_sizes(dt, n, axis, seed):
    a = make(dt, (n, 3), seed)
    x = nt.asarray(a)
    for name in ('sum', 'max', 'any', 'mean'):
        try:
            exp = getattr(np, name)(a, axis=axis)
        except ValueError:
            continue
        got = getattr(nt, name)(x, axis=axis)
        rtol = 1e-5 if np.asarray(exp).dtype.kind in 'fc' else 0
        scale = float(np.abs(a.astype(np.complex128)).sum()) if a.size else 1.0
        assert_same(got, exp, rtol, rtol * max(1.0, scale) if rtol else None)
