"""Subclassing ndtile.ndarray (NumPy's subclassing guide, basics.subclassing).

Every subclass here is defined twice by one factory, once on numpy.ndarray
(the oracle) and once on ndtile.ndarray, and the same code runs on both:
results, result classes, attributes and the sequence of __array_finalize__
/ __array_wrap__ / __array_ufunc__ calls are compared."""
import copy
import functools
import operator
import pickle

import numpy
import pytest

import ndtile
from ndtile import _core

MODS = {'numpy': numpy, 'ndtile': ndtile}


def tname(x):
    """The class of x, the same word for numpy's and ndtile's plain arrays."""
    t = type(x)
    if t is numpy.ndarray or t is ndtile.ndarray:
        return 'ndarray'
    if x is None:
        return 'None'
    if isinstance(x, (numpy.generic, int, float, bool, complex)):
        return 'scalar'
    return t.__name__


def val(x):
    return numpy.asarray(x).tolist() if isinstance(x, (numpy.ndarray, ndtile.ndarray)) else x


def same(a, b):
    """Same class (by name), values, shape and dtype."""
    assert tname(a) == tname(b), (tname(a), tname(b))
    if isinstance(a, numpy.ndarray):
        assert a.shape == b.shape and a.dtype == b.dtype, (a.shape, b.shape, a.dtype, b.dtype)
        numpy.testing.assert_array_equal(numpy.asarray(b), numpy.asarray(a).view(numpy.ndarray))
    else:
        assert type(a) is type(b) or (isinstance(a, numpy.generic) and
                                       isinstance(b, numpy.generic)), (a, b)
        assert a == b or (a != a and b != b), (a, b)


# ---- the guide's classes, made for either module ---------------------------------------
def classes(xp, log):
    base = xp.ndarray

    class InfoArray(base):
        # the guide's explicit constructor: super().__new__ with shape, buffer...
        def __new__(subtype, shape, dtype=float, buffer=None, offset=0, strides=None,
                    order=None, info=None):
            obj = super().__new__(subtype, shape, dtype, buffer, offset, strides, order)
            obj.info = info
            return obj

        def __array_finalize__(self, obj):
            if obj is None:
                return
            self.info = getattr(obj, 'info', None)

    class RealisticInfoArray(base):
        def __new__(cls, input_array, info=None):
            obj = xp.asarray(input_array).view(cls)
            obj.info = info
            return obj

        def __array_finalize__(self, obj):
            if obj is None:
                return
            self.info = getattr(obj, 'info', None)

    class MySubClass(base):
        """The guide's class printing its hooks' calls (here: logging them)."""
        def __new__(cls, input_array, info=None):
            obj = xp.asarray(input_array).view(cls)
            obj.info = info
            return obj

        def __array_finalize__(self, obj):
            log.append(('finalize', tname(self), tname(obj), getattr(obj, 'shape', None)))
            self.info = getattr(obj, 'info', None)

        def __array_wrap__(self, out_arr, context=None, return_scalar=False):
            log.append(('wrap', tname(self), tname(out_arr),
                        context[0].__name__ if context else None, return_scalar))
            return super().__array_wrap__(out_arr, context, return_scalar)

    class Symmetric(base):
        """A symmetric matrix: writes land in [i, j] and [j, i]."""
        def __new__(cls, input_array):
            a = xp.asarray(input_array, dtype=float)
            return ((a + a.T) / 2).view(cls)

        def __setitem__(self, key, value):
            super().__setitem__(key, value)
            if isinstance(key, tuple) and len(key) == 2:
                super().__setitem__((key[1], key[0]), value)

    class Quantity(base):
        """Units: __array_ufunc__ unwraps the inputs and rewraps the result."""
        def __new__(cls, value, unit=''):
            obj = xp.asarray(value).view(cls)
            obj.unit = unit
            return obj

        def __array_finalize__(self, obj):
            self.unit = getattr(obj, 'unit', '')

        def __array_ufunc__(self, ufunc, method, *inputs, out=None, **kwargs):
            log.append(('ufunc', ufunc.__name__, method, tuple(tname(x) for x in inputs),
                        tuple(sorted(kwargs)), None if out is None else len(out)))
            units = [x.unit for x in inputs if isinstance(x, Quantity)]
            name = ufunc.__name__
            if name in ('add', 'subtract', 'maximum', 'minimum', 'less', 'greater', 'equal'):
                if len(set(units)) > 1:
                    raise ValueError(f"incompatible units {units}")
                unit = units[0]
            elif name == 'multiply':
                unit = '*'.join(u for u in units if u)
            elif name == 'square':
                unit = units[0] + '^2'
            elif name == 'sqrt':
                unit = f"sqrt({units[0]})"
            else:
                unit = units[0]
            args = [x.view(base) if isinstance(x, Quantity) else x for x in inputs]
            if out is not None:
                kwargs['out'] = tuple(o.view(base) if isinstance(o, Quantity) else o
                                      for o in out)
            res = super().__array_ufunc__(ufunc, method, *args, **kwargs)
            if res is NotImplemented:
                return NotImplemented
            if out is not None:
                if isinstance(out[0], Quantity):
                    out[0].unit = unit
                return out[0]
            if name in ('less', 'greater', 'equal'):
                return res
            r = xp.asarray(res).view(Quantity)
            r.unit = unit
            return r

    class Low(base):
        __array_priority__ = 5.0

        def __array_wrap__(self, arr, context=None, return_scalar=False):
            log.append(('wrap', tname(self), context[0].__name__ if context else None))
            return super().__array_wrap__(arr, context, return_scalar)

    class High(Low):
        __array_priority__ = 50.0

    class Other(base):      # unrelated to Low/High, priority 50 too
        __array_priority__ = 50.0

    return dict(InfoArray=InfoArray, RealisticInfoArray=RealisticInfoArray,
                MySubClass=MySubClass, Symmetric=Symmetric, Quantity=Quantity, Low=Low,
                High=High, Other=Other)


def both(fn):
    """Runs fn(xp, K, log) for numpy and ndtile; returns both results and logs."""
    out = {}
    for name, xp in MODS.items():
        log = []
        K = classes(xp, log)
        out[name] = (fn(xp, K, log), log)
    return out['numpy'], out['ndtile']


def check(fn, logs=True):
    (a, la), (b, lb) = both(fn)
    assert len(a) == len(b)
    for x, y in zip(a, b):
        if isinstance(x, tuple) and not isinstance(x, numpy.ndarray):
            assert len(x) == len(y)
            for p, q in zip(x, y):
                same(p, q)
        else:
            same(x, y)
    if logs:
        assert la == lb, "\n".join(map(str, ["numpy:"] + la + ["ndtile:"] + lb))
    return a, b


# ---- the three ways an instance comes to exist ------------------------------------------
def test_explicit_constructor_info_array():
    def f(xp, K, log):
        IA = K['InfoArray']
        obj = IA(shape=(3,), info='information')
        buf = IA((4,), dtype=numpy.int32, buffer=numpy.arange(4, dtype=numpy.int32).tobytes(),
                 info='b')
        v = obj[1:]
        arr = xp.arange(10)
        cast = arr.view(IA)
        return [(tname(obj), obj.shape, obj.dtype, obj.info), buf, buf.info,
                (tname(v), v.info), cast, cast.info, isinstance(obj, xp.ndarray),
                isinstance(obj, IA), type(obj[0:2]) is IA]
    (a, _), (b, _) = both(f)
    assert a[0] == b[0] and a[0][3] == 'information'
    for x, y in zip(a[1:], b[1:]):
        same(x, y)


def test_info_array_through_slices_and_ufuncs():
    def f(xp, K, log):
        IA = K['InfoArray']
        obj = xp.arange(12.).reshape(3, 4).view(IA)
        obj.info = 'x'
        res = [obj[1:], obj[1], obj[..., ::-2], obj[None], obj[[0, 2]], obj[obj > 5],
               obj + 1, 1 + obj, obj * obj, xp.sqrt(obj), -obj, abs(obj), obj ** 2, obj ** 3,
               obj == 3, obj.copy(), obj.astype(numpy.int32), obj.reshape(4, 3), obj.T,
               obj.transpose(), obj.ravel(), obj.flatten(), obj.sum(axis=0), obj.sum(),
               obj.max(axis=1), obj.mean(axis=0), obj.cumsum(), obj.squeeze(),
               obj.swapaxes(0, 1), obj.diagonal(), obj.take([1, 2]), obj.repeat(2),
               obj.argmax(axis=0), obj.clip(2, 5), obj.real, obj.imag, obj.flat[2:5],
               copy.copy(obj), copy.deepcopy(obj), obj.view(), obj @ obj.T,
               xp.add(obj, 1.5), xp.maximum(obj, 4), xp.add.reduce(obj), obj.all(), obj.any(),
               obj.prod(axis=1), obj.std(axis=0), obj.var()]
        return [(tname(r), val(r), getattr(r, 'info', 'missing')) for r in res]
    check(f)


def test_view_casting_realistic_info_array():
    def f(xp, K, log):
        R = K['RealisticInfoArray']
        a = R([1, 2, 3], info='hello')
        b = a[1:]
        c = a + 10
        d = a.view(xp.ndarray)
        e = xp.arange(3).view(R)
        return [(tname(x), val(x), getattr(x, 'info', 'missing')) for x in (a, b, c, d, e)]
    check(f)


def test_finalize_and_wrap_call_sequence():
    # the guide's MySubClass: the hooks are called in NumPy's order, with the
    # same kinds of objects
    def f(xp, K, log):
        M = K['MySubClass']
        obj = M(xp.arange(5.), info='spam')
        arr = xp.arange(5)
        ops = [
            lambda: obj[1:], lambda: obj[1], lambda: obj[[0, 1]], lambda: obj[obj > 2],
            lambda: xp.add(arr, obj), lambda: obj + 1, lambda: 1 + obj, lambda: -obj,
            lambda: obj.copy(), lambda: obj.astype(float), lambda: obj.reshape(5, 1),
            lambda: obj.T, lambda: obj.sum(), lambda: obj.reshape(5, 1).sum(axis=0),
            lambda: obj.max(), lambda: xp.sqrt(obj), lambda: obj == obj,
            lambda: xp.asarray(obj), lambda: xp.asanyarray(obj), lambda: xp.array(obj),
            lambda: xp.array(obj, subok=True), lambda: xp.zeros_like(obj),
            lambda: obj.ravel(), lambda: obj.flatten(), lambda: obj.view(M),
            lambda: obj.view(xp.ndarray), lambda: abs(obj), lambda: obj ** 2,
            lambda: obj ** 3, lambda: obj[()], lambda: obj[0:1].reshape(())[()],
            lambda: xp.sqrt(obj[0:1].reshape(())), lambda: obj.mean(),
            lambda: obj.reshape(5, 1).mean(axis=0),
            lambda: xp.arange(6).reshape(2, 3).view(M).mean(axis=1),
        ]
        res = []
        for op in ops:
            log.append('--')
            r = op()
            res.append((tname(r), val(r), getattr(r, 'info', 'missing')))
        log.append('-- iadd')
        obj += 1
        res.append((tname(obj), val(obj)))
        return res
    check(f)


def test_wrap_with_too_many_arguments():
    # super().__array_wrap__(self, out_arr, context, return_scalar) passes
    # self twice: NumPy's default refuses it with a TypeError, so does ndtile's
    for xp in MODS.values():
        class G(xp.ndarray):
            def __array_wrap__(self, out_arr, context=None, return_scalar=False):
                return super().__array_wrap__(self, out_arr, context, return_scalar)
        g = xp.arange(4.).view(G)
        with pytest.raises(TypeError):
            xp.add(g, 10)


@pytest.mark.parametrize("shape", [(), (3,), (40, 300)])
def test_default_wrap_gives_self_class(shape):
    # ndarray.__array_wrap__(arr): arr as type(self), for any pair of a plain
    # array and subclasses (a plain self's result was arr's subclass); a
    # plain 0-d one decays to a scalar only with return_scalar
    def f(xp, K, log):
        IA, RA = K['InfoArray'], K['RealisticInfoArray']
        out = []
        for self_cls in (None, RA):
            for arr_cls in (None, RA, IA):
                s = xp.arange(3.0)
                s = s if self_cls is None else s.view(self_cls)
                a = xp.arange(int(numpy.prod(shape)), dtype=xp.int8).reshape(shape)
                a = a if arr_cls is None else a.view(arr_cls)
                for rs in (False, True):
                    r = s.__array_wrap__(a, None, rs)
                    out.append((tname(r), val(r), getattr(r, 'shape', None)))
        return out
    check(f, logs=False)


def test_symmetric_matrix():
    def f(xp, K, log):
        S = K['Symmetric']
        s = S([[1., 2., 3.], [4., 5., 6.], [7., 8., 9.]])
        s[0, 2] = 100
        s[1, 0] = -1
        t = s[1:, 1:]
        t[0, 1] = 7          # a view of the subclass: writes both, into s too
        u = s + s.T
        return [(tname(x), val(x)) for x in (s, t, u, s.T, s.copy())] + \
            [bool((numpy.asarray(s) == numpy.asarray(s).T).all())]
    a, b = check(f)
    assert a[-1] is True


def test_units_array_ufunc():
    def f(xp, K, log):
        Q = K['Quantity']
        m = Q([1., 2., 3.], 'm')
        s = Q([2., 4., 8.], 's')
        res = [m + m, m * s, m * 2, 3 * m, m ** 2, xp.sqrt(m), -m, m.sum(), m.max(), m.mean(),
               m.sum(axis=0, keepdims=True), m < m, xp.add(m, m), xp.multiply(m, s)]
        out = [(tname(r), val(r), getattr(r, 'unit', 'missing')) for r in res]
        with pytest.raises(ValueError, match="incompatible units"):
            m + s
        k = Q([1., 1., 1.], 'm')
        k += m
        out.append((tname(k), val(k), k.unit))
        o = Q(xp.zeros(3), 'x')
        r = xp.add(m, m, out=o)
        out.append((tname(r), val(r), r.unit, r is o))
        return out
    check(f)


def test_all_not_implemented_raises_typeerror():
    def f(xp, K, log):
        class N(xp.ndarray):
            def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
                return NotImplemented
        n = xp.arange(3).view(N)
        msgs = []
        for op in (lambda: n + 1, lambda: xp.add(n, n), lambda: xp.negative(n), lambda: n.sum()):
            with pytest.raises(TypeError) as e:
                op()
            msgs.append(str(e.value).split(':')[0])
        return msgs
    (a, _), (b, _) = both(f)
    assert a == b


def test_array_ufunc_order_subclass_first():
    # NEP 13: a subclass's override runs before its base class's
    def f(xp, K, log):
        class P(xp.ndarray):
            def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
                log.append(('P', tname(self)))
                return NotImplemented

        class S(P):
            def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
                log.append(('S', tname(self)))
                args = [x.view(xp.ndarray) for x in inputs]
                return getattr(ufunc, method)(*args, **kwargs)
        p = xp.arange(3).view(P)
        s = xp.arange(3).view(S)
        return [xp.add(p, s), xp.add(s, p)]
    check(f)


def test_array_priority_picks_the_wrapper():
    def f(xp, K, log):
        lo = xp.arange(3.).view(K['Low'])
        hi = xp.arange(3.).view(K['High'])
        ot = xp.arange(3.).view(K['Other'])
        plain = xp.arange(3.)
        res = [lo + hi, hi + lo, xp.multiply(lo, hi), lo + plain, plain + lo, ot + hi,
               hi + ot, xp.add(plain, ot)]
        return [(tname(r), val(r)) for r in res]
    check(f)


def test_legacy_priority_defers_binop():
    # an object without __array_ufunc__ but a higher __array_priority__ gets
    # its reflected operator (NumPy's binop deferral), for plain arrays too
    class Obj:
        __array_priority__ = 1000.0

        def __radd__(self, other):
            return 'radd'

        def __rmul__(self, other):
            return 'rmul'

    for xp in MODS.values():
        a = xp.arange(3.)
        assert a + Obj() == 'radd'
        assert a * Obj() == 'rmul'


def test_asarray_asanyarray_and_subok():
    def f(xp, K, log):
        R = K['RealisticInfoArray']
        a = R(xp.arange(6.).reshape(2, 3), info='i')
        out = []
        for r in (xp.asarray(a), xp.asanyarray(a), xp.array(a), xp.array(a, subok=True),
                  xp.array(a, copy=False, subok=True), xp.zeros_like(a), xp.ones_like(a),
                  xp.empty_like(a).shape, xp.full_like(a, 7), xp.zeros_like(a, subok=False),
                  xp.full_like(a, 2, subok=False), xp.copy(a), xp.copy(a, subok=True),
                  xp.broadcast_to(a, (2, 2, 3)), xp.broadcast_to(a, (2, 2, 3), subok=True),
                  a.astype(numpy.int64), a.astype(numpy.int64, subok=False),
                  xp.ascontiguousarray(a)):
            out.append((tname(r), val(r) if tname(r) != 'tuple' else r,
                        getattr(r, 'info', 'missing')))
        b = xp.asarray(a)
        b[0, 0] = 99            # asarray is a view: the write lands in a
        out.append(val(a))
        out.append(xp.asanyarray(a) is a)
        out.append(a.astype(float, copy=False) is a)
        # subok=False never returns the subclass: a base-class copy
        r = a.astype(float, copy=False, subok=False)
        out.append((tname(r), val(r), r is a, xp.shares_memory(r, a)))
        return out
    check(f)


def test_repr_str_and_isinstance():
    def f(xp, K, log):
        IA = K['InfoArray']
        out = []
        for x in (xp.arange(3).view(IA), xp.arange(3, dtype=numpy.int32).view(IA),
                  xp.asarray(3.).view(IA), xp.zeros((0, 3)).view(IA),
                  xp.arange(12.).reshape(3, 4).view(IA), xp.arange(2000.).view(IA)):
            out.append((repr(x), str(x), isinstance(x, xp.ndarray), isinstance(x, IA)))
        return out
    (a, _), (b, _) = both(f)
    assert a == b
    assert a[0][0] == 'InfoArray([0, 1, 2])'


class _PickNp(numpy.ndarray):
    def __array_finalize__(self, obj):
        self.info = getattr(obj, 'info', None)


class _PickNd(ndtile.ndarray):
    def __array_finalize__(self, obj):
        self.info = getattr(obj, 'info', None)


def _keep(base):
    class Keep(base):
        # NumPy's recipe for pickling an attribute: append it to the state
        def __array_finalize__(self, obj):
            self.info = getattr(obj, 'info', None)

        def __reduce__(self):
            r = super().__reduce__()
            return (r[0], r[1], r[2] + (self.info,))

        def __setstate__(self, state):
            self.info = state[-1]
            super().__setstate__(state[0:-1])
    return Keep


_KeepNp = _keep(numpy.ndarray)
_KeepNp.__qualname__ = '_KeepNp'
_KeepNd = _keep(ndtile.ndarray)
_KeepNd.__qualname__ = '_KeepNd'


@pytest.mark.parametrize('pair', [(_PickNp, _PickNd), (_KeepNp, _KeepNd)])
def test_pickle_round_trips_the_class(pair):
    res = []
    for cls, xp in zip(pair, (numpy, ndtile)):
        a = xp.arange(6.).reshape(2, 3).view(cls)
        a.info = 'kept?'
        b = pickle.loads(pickle.dumps(a))
        c = pickle.loads(pickle.dumps(a[:, ::-1]))
        assert type(b) is cls and type(c) is cls
        res.append((val(b), b.info, val(c), c.shape))
    assert res[0] == res[1]


def test_plain_arrays_unchanged():
    # plain arrays stay plain (and take the C fast paths)
    a = ndtile.arange(5.)
    for r in (a + 1, a[1:], -a, a.reshape(5, 1), a.sum(axis=0), ndtile.add(a, a), a.T,
              ndtile.asarray(a), ndtile.asanyarray(a), a.copy(), a ** 2):
        assert type(r) is ndtile.ndarray or isinstance(r, numpy.generic)
    assert ndtile.asarray(a) is a and ndtile.asanyarray(a) is a
    assert a.real is a and numpy.arange(3.).real is not None


def test_real_of_a_real_array_is_itself():
    # NumPy: a real array's .real is the array itself (ndtile gave a new view)
    for xp in MODS.values():
        a = xp.arange(3.)
        assert a.real is a
        c = xp.arange(3.) + 1j
        assert c.real is not c


def test_new_with_init_order():
    # __new__, __array_finalize__(None), then __init__ (the guide's C class)
    def f(xp, K, log):
        class C(xp.ndarray):
            def __new__(cls, *args, **kwargs):
                log.append(('new', cls.__name__))
                return super().__new__(cls, *args, **kwargs)

            def __init__(self, *args, **kwargs):
                log.append(('init', type(self).__name__))

            def __array_finalize__(self, obj):
                log.append(('finalize', tname(self), tname(obj)))
        c = C((10,))
        log.append('--')
        v = c[1:]
        log.append('--')
        w = xp.arange(3).view(C)
        return [(tname(c), c.shape), (tname(v), v.shape), (tname(w), val(w))]
    check(f)


@pytest.fixture
def default_tiles():
    """NDTILE's default 2 MiB tiles (the suite runs with 4 KiB tiles)."""
    import os
    _core.set_tile_bytes(2 << 20)
    try:
        yield
    finally:
        _core.set_tile_bytes(int(os.environ.get("NDTILE_TILE_BYTES", "4096")))


def test_large_arrays_default_tiles(default_tiles):
    # over a 2 MiB tile (deferred, tiled paths rather than the inline ones)
    def f(xp, K, log):
        IA = K['InfoArray']
        M = K['MySubClass']
        Q = K['Quantity']
        n = 600_000           # 4.8 MB of float64: three tiles
        a = (xp.arange(n, dtype=float) % 1000).view(IA)
        a.info = 'big'
        m = M(xp.arange(n, dtype=float) % 7, info='m')
        q = Q(xp.arange(n, dtype=float) % 13, 'm')
        res = [a[::3], a + a, xp.sqrt(a), a.sum(), a.reshape(600, 1000).sum(axis=0),
               a.reshape(600, 1000).T[5], a.copy(), a.astype(numpy.float32), a > 500,
               m[1:] * 2, m.max(), q + q, q.sum(), xp.asarray(q)]
        out = [(tname(r), getattr(r, 'info', getattr(r, 'unit', 'missing')),
                numpy.asarray(r).ravel()[::9973].tolist(), numpy.shape(r)) for r in res]
        a[1] = -5.0
        return out + [float(a[1])]
    check(f)


def test_ufunc_methods_on_subclasses():
    # reduce, accumulate and outer go through __array_ufunc__ with their
    # method's name, and their results through __array_wrap__
    def f(xp, K, log):
        Q = K['Quantity']
        M = K['MySubClass']
        q = Q([1., 2., 3.], 'm')
        m = M(xp.arange(6.).reshape(2, 3), info='i')
        res = [xp.add.reduce(q), xp.add.accumulate(q), xp.multiply.outer(q, q),
               xp.add.reduce(m, axis=1), xp.add.accumulate(m),
               xp.maximum.reduce(m, axis=None), xp.add.reduce(m, axis=0, keepdims=True)]
        return [(tname(r), val(r), getattr(r, 'unit', getattr(r, 'info', 'missing')))
                for r in res]
    check(f)

    def g(xp, K, log):
        m = K['MySubClass'](xp.arange(6.).reshape(2, 3), info='i')
        r = xp.multiply.outer(m[0], m[1])
        return [(tname(r), val(r), r.info)]
    check(g, logs=False)     # NumPy's outer reshapes the subclass inputs first


def test_ufunc_subok_false_gives_base_arrays():
    # subok=False: the result is the base class, __array_wrap__ not called
    # (ndtile wrapped it in the subclass)
    def f(xp, K, log):
        m = K['MySubClass'](xp.arange(6.).reshape(2, 3), info='i')
        res = [xp.add(m, 2, subok=False), xp.sin(m, subok=False),
               xp.divmod(m, 4, subok=False)[1], xp.add(m, 2, subok=True)]
        return [(tname(r), val(r)) for r in res]
    check(f)


@pytest.mark.parametrize('n', [6, pytest.param(300000, marks=pytest.mark.default_settings)])
def test_override_calling_ndarray_method_explicitly(n):
    # a subclass override that calls ndarray's method by name (not super()):
    # np.mean(s) -> S.mean -> ndarray.mean(self) is ndarray's own computation
    # (ndtile's dispatched back to S.mean until RecursionError)
    def f(xp, K, log):
        class S(xp.ndarray):
            def mean(self, *a, **k):
                return xp.ndarray.mean(self, *a, **k) * 2
            def sum(self, *a, **k):
                return xp.ndarray.sum(self, *a, **k) + 1
            def std(self, *a, **k):
                return xp.ndarray.std(self, *a, **k)
            def argsort(self, *a, **k):
                return xp.ndarray.argsort(self, *a, **k)
        s = (xp.arange(float(n)) % 7).view(S)
        res = [s.mean(), xp.mean(s), xp.sum(s), xp.sum(s.reshape(2, -1), axis=0),
               xp.std(s), s.std(), xp.argsort(s, kind='stable')]
        return [(tname(r), val(r)) for r in res]
    check(f, logs=False)


def test_array_ufunc_none_opts_out():
    for xp in MODS.values():
        class NoUfunc(xp.ndarray):
            __array_ufunc__ = None
        n = xp.arange(3.).view(NoUfunc)
        with pytest.raises(TypeError, match="does not support ufuncs"):
            xp.add(n, 1)
        with pytest.raises(TypeError):
            n + 1
        assert type(n[1:]) is NoUfunc


def test_subclass_paths_do_not_leak():
    from test_leaks import no_growth
    log = []
    K = classes(ndtile, log)
    IA, Q, M = K['InfoArray'], K['Quantity'], K['MySubClass']
    a = (ndtile.arange(20_000.0).reshape(100, 200) / 7).view(IA)
    a.info = 'i'
    q = Q(ndtile.arange(5000.0), 'm')

    def step():
        r = [a[3:], a + a, -a, a.sum(axis=0), a.T.copy(), ndtile.sqrt(a), a.reshape(-1),
             q * q, q.sum(), ndtile.zeros_like(a), ndtile.asarray(a), a.view(M),
             pickle.loads(pickle.dumps(a[:2].view(_KeepNd)))]
        log.clear()
        del r
    no_growth(step, [a, q])


def test_finalize_none_and_plain_default():
    # __array_finalize__ = None is not callable (NumPy 2 raises TypeError);
    # ndarray's own is a no-op method that subclasses may call through super()
    def f(xp, K, log):
        class N(xp.ndarray):
            __array_finalize__ = None

        class S(xp.ndarray):
            def __array_finalize__(self, obj):
                super().__array_finalize__(obj)
                self.seen = tname(obj)
        with pytest.raises(TypeError):
            xp.arange(4.).view(N)
        s = xp.arange(4.).view(S)
        return [(tname(s[1:]), s[1:].seen, (s * 2).seen),
                xp.ndarray.__array_finalize__(xp.arange(2), None)]
    check(f)


def test_module_functions_call_the_subclass_methods():
    # np.sum(a), np.reshape(a, ...), ...: NumPy's functions call the method
    # of a subclass instance (so its overrides and class carry through)
    def f(xp, K, log):
        IA = K['InfoArray']
        Q = K['Quantity']
        v = xp.arange(6.).reshape(2, 3).view(IA)
        v.info = 'i'
        q = Q([3., 1., 2.], 'm')
        res = [xp.sum(v), xp.sum(v, axis=0), xp.prod(v, 1), xp.max(v), xp.amin(v, 0),
               xp.any(v), xp.all(v, 0), xp.mean(v), xp.mean(v, 0), xp.var(v, ddof=1),
               xp.std(v, 0), xp.argmax(v, 0), xp.argmin(v), xp.cumsum(v), xp.cumprod(v, 1),
               xp.reshape(v, (3, 2)), xp.ravel(v), xp.transpose(v), xp.transpose(v, (1, 0)),
               xp.swapaxes(v, 0, 1), xp.squeeze(v[None]), xp.diagonal(v), xp.take(v, [0, 2]),
               xp.repeat(v, 2), xp.sort(v[:, ::-1]), xp.argsort(v), xp.expand_dims(v, 0),
               xp.moveaxis(v, 0, 1), xp.flip(v), xp.fliplr(v), xp.roll(v, 1), xp.tile(v, 2),
               xp.real(v), xp.imag(v), xp.trace(v),
               xp.sum(q), xp.max(q), xp.mean(q), xp.sort(q), xp.reshape(q, (3, 1))]
        return [(tname(r), val(r), getattr(r, 'info', getattr(r, 'unit', 'missing')))
                for r in res]
    check(f)


def test_squeeze_of_a_subclass_whose_method_takes_no_axis():
    # np.squeeze(a) calls a.squeeze() without axis= when axis is None (a
    # subclass written before NumPy 1.7 has squeeze(self)); ndtile passed
    # axis=None and the method raised TypeError
    def f(xp, K, log):
        class Old(xp.ndarray):
            def squeeze(self):
                log.append('squeeze()')
                return super().squeeze()

        res = []
        for n in (3, 50000):
            v = xp.arange(n * 1.0).reshape(1, n, 1).view(Old)
            res += [xp.squeeze(v), xp.squeeze(v[:, ::-2])]
        try:
            xp.squeeze(v, axis=0)
        except TypeError:
            res.append('TypeError')
        return res
    check(f)

@pytest.mark.parametrize("n", [3, 200])
def test_nanmin_nanmax_of_a_subclass_instance(n):
    """nanmin/nanmax of a subclass instance: ndarray has no such method, so
    NumPy reduces the instance itself (NaNs left out, all-NaN lines NaN with
    'All-NaN axis encountered'); the result is of the instance's class.
    ndtile called a.nanmin(): AttributeError."""
    import warnings
    res = {}
    for name, xp in MODS.items():
        class Mine(xp.ndarray):
            pass
        m = xp.asarray(numpy.arange(n * n, dtype=float).reshape(n, n)[::-1]).view(Mine)
        m[1] = numpy.nan
        out = []
        for f in ('nanmin', 'nanmax'):
            for kw in ({'axis': 0}, {'axis': 1}, {}, {'axis': 1, 'keepdims': True}):
                with warnings.catch_warnings(record=True) as w:
                    warnings.simplefilter('always')
                    r = getattr(xp, f)(m, **kw)
                out.append((tname(r), r.shape, numpy.asarray(r).tolist(),
                            [str(x.message) for x in w]))
        res[name] = out
    assert repr(res['ndtile']) == repr(res['numpy'])


def test_nansum_nancumsum_of_a_subclass_instance():
    """nansum, nanprod, nancumsum and nancumprod of a subclass instance:
    results of its class with NumPy's values (ndtile called a.nansum():
    AttributeError)."""
    res = {}
    for name, xp in MODS.items():
        class Mine(xp.ndarray):
            pass
        m = xp.asarray(numpy.arange(1.0, 401.0).reshape(20, 20) / 100).view(Mine)
        m[1, ::3] = numpy.nan
        out = []
        for f in ('nansum', 'nanprod', 'nancumsum', 'nancumprod'):
            for kw in ({'axis': 0}, {}, {'axis': 1}):
                r = getattr(xp, f)(m, **kw)
                out.append((f, tname(r), r.shape, numpy.asarray(r).tolist()))
        res[name] = out
    assert repr(res['ndtile']) == repr(res['numpy'])


def test_insert_delete_average_keep_the_subclass():
    """insert, delete and average of a subclass instance (average also of
    subclass weights) return its class, as NumPy wraps its results; ndtile
    gave plain arrays for insert and delete."""
    res = {}
    for name, xp in MODS.items():
        class Mine(xp.ndarray):
            pass
        a = xp.asarray(numpy.arange(600).reshape(20, 30)).view(Mine)
        w = xp.asarray(numpy.arange(1.0, 601.0).reshape(20, 30)).view(Mine)
        rs = [xp.insert(a, 0, [7]), xp.insert(a, [], []), xp.insert(a, [1, 5], 9, axis=1),
              xp.delete(a, 0), xp.delete(a, [0, 3], axis=1), xp.delete(a[::-1], slice(2, 9), 0),
              xp.average(a), xp.average(a, axis=0, weights=w),
              *xp.average(a, weights=w[0], axis=1, returned=True),
              xp.average(xp.ones((20, 30)), weights=w)]
        res[name] = [(tname(r), numpy.asarray(r).tolist()) for r in rs]
    assert repr(res['ndtile']) == repr(res['numpy'])


def test_median_unique_keep_the_subclass():
    """median (a NaN result too) and unique's values and first indices of a
    subclass instance are of its class, as NumPy's; the inverse and counts
    are plain. ndtile gave plain arrays and NumPy scalars."""
    res = {}
    for name, xp in MODS.items():
        class Mine(xp.ndarray):
            pass
        rs = []
        for v in ([1.0, 2.0, 3.0], [1.0, numpy.nan, 3.0], numpy.nan, 0.0):
            rs.append(xp.median(xp.asarray(numpy.array(v)).view(Mine)))
        m = xp.asarray(numpy.arange(40000.0).reshape(200, 200) % 7).view(Mine)
        rs += [xp.median(m, axis=0), xp.median(m[::-3], axis=1, keepdims=True)]
        rs += list(xp.unique(m, return_index=True, return_inverse=True, return_counts=True))
        rs += [xp.unique(m[:, 0])]
        res[name] = [(tname(r), numpy.asarray(r).tolist()) for r in rs]
    assert repr(res['ndtile']) == repr(res['numpy'])


def test_nanmean_nanvar_nanargmin_keep_the_subclass():
    """nanmean, nanvar, nanstd (any axis) and nanargmin/nanargmax (along an
    axis; a full one is NumPy's int) of a subclass instance are of its
    class, as NumPy's; ndtile gave plain arrays."""
    res = {}
    for name, xp in MODS.items():
        class Mine(xp.ndarray):
            pass
        m = xp.asarray(numpy.arange(400.0).reshape(20, 20) % 9).view(Mine)
        m[1, ::3] = numpy.nan
        out = []
        for f in ('nanmean', 'nanvar', 'nanstd', 'nanargmin', 'nanargmax'):
            for kw in ({'axis': 0}, {'axis': 1}, {}, {'axis': 0, 'keepdims': True}):
                r = getattr(xp, f)(m, **kw)
                out.append((f, tname(r), numpy.asarray(r).tolist()))
        res[name] = out
    assert repr(res['ndtile']) == repr(res['numpy'])


def test_apply_along_axis_keeps_the_results_class():
    """apply_along_axis stacks the results in the class of the first
    function result (NumPy wraps with it): a subclass instance's lines give
    a subclass result; ndtile gave a plain array."""
    res = {}
    for name, xp in MODS.items():
        class Mine(xp.ndarray):
            pass
        m = xp.asarray(numpy.arange(600).reshape(20, 30)).view(Mine)
        rs = [xp.apply_along_axis(lambda r: r * 2, 0, m),
              xp.apply_along_axis(lambda r: r[::-1], 1, m[::-1]),
              xp.apply_along_axis(lambda r: r[:, None] * r[None, :2], 1, m),
              xp.apply_along_axis(lambda r: r.sum(), 1, xp.asarray(numpy.ones((4, 3))))]
        res[name] = [(tname(r), numpy.asarray(r).tolist()) for r in rs]
    assert repr(res['ndtile']) == repr(res['numpy'])


def test_as_strided_and_sliding_window_subok():
    """as_strided and sliding_window_view of a subclass instance: a view of
    its class (finalized from it) with subok=True, a plain array without,
    as NumPy's; ndtile ignored subok=True."""
    res = {}
    for name, xp in MODS.items():
        class Mine(xp.ndarray):
            def __array_finalize__(self, obj):
                self.info = getattr(obj, 'info', 'fresh')
        m = xp.asarray(numpy.arange(40.0)).view(Mine)
        m.info = 'mine'
        st = xp.lib.stride_tricks
        rs = [st.as_strided(m, shape=(5,), strides=(2 * m.itemsize,)),
              st.as_strided(m, shape=(5,), strides=(2 * m.itemsize,), subok=True),
              st.sliding_window_view(m, 4), st.sliding_window_view(m, 4, subok=True)]
        res[name] = [(tname(r), getattr(r, 'info', None), numpy.asarray(r).tolist()) for r in rs]
    assert repr(res['ndtile']) == repr(res['numpy'])


def test_index_results_and_trace_class():
    # NumPy: searchsorted gives base-class indices; argpartition (method and
    # function) keeps the class, as argsort does; trace of a stack keeps it
    # (a scalar for one matrix). ndtile had searchsorted and argpartition
    # the other way round and trace always plain
    def f(xp, K, log):
        IA = K['InfoArray']
        a = xp.arange(40000).view(IA)
        a.info = 'i'
        s = xp.arange(8.).reshape(2, 2, 2).view(IA)
        s.info = 's'
        res = [a.searchsorted(a[5:9]), xp.searchsorted(a, a[5:9], side='right'),
               a.searchsorted(7), a[::-1].argpartition(2), xp.argpartition(a[::-1], [1, 3]),
               s.trace(), xp.trace(s, axis1=1, axis2=2), s[0].trace(), xp.trace(s[1])]
        # argpartition's order past kth is free: its first max(kth) + 1, sorted
        return [(tname(r), val(xp.sort(xp.asarray(r)[:i])) if i in (3, 4) else val(r),
                 getattr(r, 'info', 'missing')) for i, r in enumerate(res)]
    check(f)


def test_linalg_results_take_the_operand_class():
    # NumPy's linalg passes some results through an operand's __array_wrap__
    # (solve, lstsq: b's; inv, cholesky, pinv, qr, the vectors of eig/eigh,
    # u and vh of svd, tensorsolve: a's), empty matrices too; eigenvalues,
    # det, singular values stay plain. ndtile returned plain arrays
    def f(xp, K, log):
        IA = K['InfoArray']
        L = xp.linalg
        a = (xp.arange(8.).reshape(2, 2, 2) + xp.eye(2) * 5).view(IA)
        a.info = 'a'
        b = xp.arange(6.).reshape(1, 2, 3).view(IA)
        b.info = 'b'
        big = (xp.ones((200, 200)) + xp.eye(200) * 300).view(IA)
        res = [L.solve(a.view(xp.ndarray), b), L.solve(a, b.view(xp.ndarray)), L.inv(a),
               L.inv(a[:, 0:0, 0:0]), L.solve(a[:, 0:0, 0:0], b[:, 0:0, :]),
               L.cholesky(a @ a.mT), L.pinv(big), *L.qr(a[0]), L.qr(a[0], 'r'),
               *L.qr(a[0], 'raw'), *L.eigh(a), *L.svd(a), L.svd(a, compute_uv=False),
               *L.lstsq(a[0], b[0]), L.tensorsolve(a[0], b[0, :, 0]), L.det(a),
               L.eigvals(a), L.inv(big)]
        return [(tname(r), getattr(r, 'info', 'missing'), getattr(r, 'shape', None))
                for r in res]
    check(f, logs=False)


@pytest.mark.parametrize("n", [5, pytest.param(300000, marks=pytest.mark.default_settings)])
def test_linspace_logspace_geomspace_of_subclass_bounds(n):
    """linspace (and logspace, geomspace through it) of subclass-instance
    bounds is of the subclass of highest __array_priority__, its step too,
    as NumPy's (its arithmetic on the bounds wraps); ndtile gave plain
    arrays (NumPy's _core test_function_base TestLinspace/TestLogspace
    test_subclass)."""
    res = {}
    for name, xp in MODS.items():
        class Hi(xp.ndarray):
            __array_priority__ = 10

        class Plain(xp.ndarray):
            pass
        a, b = xp.array(1).view(Hi), xp.array(7).view(Hi)
        v = xp.array([1.0, 2.0]).view(Plain)
        rs = [xp.linspace(a, b, n), *xp.linspace(a, b, n, retstep=True), xp.logspace(a, b, n),
              xp.logspace(a, b, 1), xp.geomspace(a, b, 3), xp.linspace(0, b, 3),
              xp.linspace(v, b, 3), xp.linspace(a, b, 0), *xp.linspace(a, b, 1, retstep=True),
              xp.linspace(v, 5, 3, dtype=int), *xp.linspace(v, 5, 4, retstep=True, axis=1),
              xp.linspace(a, 2.5, 4, dtype=xp.float32)]
        res[name] = rs
    assert [(tname(r), numpy.asarray(r).dtype.str, numpy.shape(r)) for r in res['ndtile']] == \
        [(tname(r), numpy.asarray(r).dtype.str, numpy.shape(r)) for r in res['numpy']]
    for g, e in zip(res['ndtile'], res['numpy']):
        # (power's last bits: deviation 4)
        numpy.testing.assert_allclose(numpy.asarray(g), numpy.asarray(e), rtol=1e-15)


def test_resize_to_nothing_keeps_the_subclass():
    """np.resize of a subclass instance to (or from) no elements is NumPy's
    zeros_like(a, shape=...): of a's class, as the other sizes already were
    (NumPy's test_numeric TestResize test_subclass); ndtile gave a plain
    array."""
    res = {}
    for name, xp in MODS.items():
        class Mine(xp.ndarray):
            __array_priority__ = 1.
        rs = []
        for a in (xp.array([1]).view(Mine), xp.array([]).view(Mine),
                  xp.arange(6.0).reshape(2, 3).view(Mine)):
            for s in (5, 0, (2, 0), (3, 2)):
                rs.append(xp.resize(a, s))
        res[name] = [(tname(r), numpy.asarray(r).dtype.str, numpy.asarray(r).tolist())
                     for r in rs]
    assert repr(res['ndtile']) == repr(res['numpy'])


@pytest.mark.skipif(ndtile.nranks() > 1, reason="its float32 sum is split by ranks (deviation 4)")
@pytest.mark.parametrize("n", [4, pytest.param(400, marks=pytest.mark.default_settings)])
def test_require_as_numpy(n):
    """np.require is NumPy's: 'E' gives a base-class array of a subclass
    instance (ndtile kept the subclass: NumPy's test_numeric TestRequire
    test_ensure_array), other flags keep it and copy only when a flag is
    missing (in the asked order, owning its data); a string of flags is
    read letter by letter."""
    res = {}
    for name, xp in MODS.items():
        class Mine(xp.ndarray):
            pass
        base = xp.arange(n * 1000.0).reshape(n, 1000)
        out = []
        for a in (base, base.view(Mine), base.T, base[::2], base.T.view(Mine), [[1, 2], [3, 4]]):
            for req in (None, 'E', ['E'], 'C', ['F'], ['F', 'E'], 'W', 'O', ['A', 'W', 'O'],
                        ['C', 'F'], 'CONTIGUOUS', ['C_CONTIGUOUS', 'OWNDATA'], ['fortran'],
                        ['aligned', 'E'], 'OE'):
                for dt in (None, 'f4'):
                    try:
                        r = xp.require(a, dt, req)
                    except (ValueError, KeyError) as e:
                        out.append(('error', type(e).__name__))
                        continue
                    out.append((tname(r), r.dtype.str, r.flags.c_contiguous, r.flags.f_contiguous,
                                r.flags.writeable, r is a, numpy.asarray(r).sum().item()))
                    if req in ('O', ['C_CONTIGUOUS', 'OWNDATA']):
                        out.append(r.flags.owndata)
        res[name] = out
    assert res['ndtile'] == res['numpy']


def test_apply_along_axis_numpy_results():
    """apply_along_axis whose function returns what ndtile does not hold is
    NumPy's: an object array of sets keeps the sets as elements (ndtile
    stored 0-d arrays holding them: its indices lacked NumPy's Ellipsis),
    and masked-array results stack into a masked array (NumPy wraps its
    buffer with the first result's class). NumPy's lib test_shape_base
    TestApplyAlongAxis test_with_iterable_object, test_axis_insertion_ma."""
    res = {}
    for name, xp in MODS.items():
        d = numpy.array([[{1, 11}, {2, 22}, {3, 33}], [{4, 44}, {5, 55}, {6, 66}]])
        r1 = xp.apply_along_axis(lambda a: set.union(*a), 0, d)
        r2 = xp.apply_along_axis(lambda a: set.union(*a), 1, d)

        def f1to2(x):
            x = numpy.asarray(x)
            r = x[::-1] * x[1:, None]
            return numpy.ma.masked_where(r % 5 == 0, r)
        a = xp.arange(6 * 3).reshape((6, 3))
        r3 = xp.apply_along_axis(f1to2, 0, a)
        r4 = xp.apply_along_axis(lambda v: xp.asarray(v) * 2, 1, a)
        res[name] = [(type(r1).__name__, r1.dtype.str, [type(v).__name__ for v in r1.flat],
                      r1.tolist()),
                     (type(r2).__name__, r2.tolist()),
                     (type(r3).__name__, r3.shape, r3.mask.tolist(), r3.data.tolist()),
                     (tname(r4), numpy.asarray(r4).tolist())]
    assert repr(res['ndtile']) == repr(res['numpy'])


@pytest.mark.parametrize("n", [4, pytest.param(300000, marks=pytest.mark.default_settings)])
def test_median_calls_the_subclass_mean(n):
    """np.median of an instance whose class has its own mean averages the
    middle elements with that mean, as NumPy's (gh-3846: NumPy's
    test_function_base TestMedian test_subclass); ndtile's ignored it.
    NaN lines stay NaN."""
    res = {}
    for name, xp in MODS.items():
        class Seven(xp.ndarray):
            def mean(self, axis=None, dtype=None, out=None):
                return -7

        class Tenfold(xp.ndarray):
            def mean(self, axis=None, dtype=None, out=None):
                return super().mean(axis=axis, dtype=dtype, out=out) * 10
        base = numpy.arange(3.0 * n).reshape(3, n) % 7
        base[1, 1] = numpy.nan
        b = xp.asarray(base).view(Tenfold)
        c = xp.asarray(base[::2, ::-1]).view(Tenfold)
        rs = [xp.median(xp.asarray([1, 2, 3]).view(Seven)),
              xp.median(xp.asarray([[4, 1, 2]]).view(Seven), axis=1)]
        for x in (b, c, c.astype(numpy.float32), xp.asarray(base[::2].astype(int)).view(Tenfold)):
            for ax in (None, 0, 1, -1):
                rs.append(xp.median(x, axis=ax))
        res[name] = [(tname(r), numpy.asarray(r).dtype.str, numpy.asarray(r).tolist())
                     for r in rs]
    assert repr(res['ndtile']) == repr(res['numpy'])


# ---- objects (not arrays) with __array__ and __array_wrap__ ----------------
# NumPy wraps a ufunc's result (and reduce's, accumulate's) with the
# __array_wrap__ of the input of highest __array_priority__ that has one:
# context (ufunc, inputs, output index), None for the methods.

def _wrapper_classes(mod, data):
    calls = []

    class W:
        def __array__(self, dtype=None, copy=None):
            return mod.asarray(data)

        def __array_wrap__(self, arr, context, return_scalar):
            ctx = None if context is None else (context[0].__name__,
                                                [tname(a) for a in context[1]], context[2])
            calls.append((type(self).__name__, tname(arr), arr.dtype.name, arr.shape, ctx,
                          return_scalar))
            return type(self)

    class Hi(W):
        __array_priority__ = 5.0

    return calls, W, Hi


def _wrap_calls(mod, data, calls_of):
    calls, W, Hi = _wrapper_classes(mod, data)
    res = []
    for f in calls_of:
        try:
            r = f(mod, W, Hi)
            res.append(tuple(x.__name__ for x in r) if isinstance(r, tuple)
                       else r.__name__ if isinstance(r, type) else numpy.asarray(r).tolist())
        except Exception as e:
            res.append(type(e).__name__)
    return res, calls


@pytest.mark.parametrize("dt", ['bool', 'int8', 'uint32', 'int64', 'float32', 'float64',
                                'complex128'])
@pytest.mark.parametrize("shape", [(), (0,), (5,), (3, 4), 'strided'])
def test_array_wrap_of_objects_with_array(dt, shape):
    base = numpy.arange(24).reshape(4, 6).astype(dt)
    data = base[::2, ::3] if shape == 'strided' else numpy.resize(base, shape).astype(dt)
    calls_of = [
        lambda m, W, Hi: m.add(W(), 1),
        lambda m, W, Hi: m.multiply(m.asarray(data), W()),
        lambda m, W, Hi: m.negative(W()) if dt != 'bool' else m.logical_not(W()),
        lambda m, W, Hi: m.add(W(), Hi()),
        lambda m, W, Hi: m.add(Hi(), W()),
        lambda m, W, Hi: m.less(W(), 2),
        lambda m, W, Hi: m.add(W(), 1, subok=False),
        lambda m, W, Hi: m.add.reduce(W(), axis=None),
        lambda m, W, Hi: m.maximum.reduce(W()),
        lambda m, W, Hi: m.add.accumulate(W()),
        lambda m, W, Hi: m.modf(W()) if dt.startswith('float') else m.divmod(W(), 3),
        lambda m, W, Hi: m.sqrt(W()),
    ]
    assert _wrap_calls(ndtile, data, calls_of) == _wrap_calls(numpy, data, calls_of)


@pytest.mark.default_settings
def test_array_wrap_of_an_object_with_a_large_array():
    data = numpy.arange(400000.0)          # 3.2 MB: several 2 MiB tiles
    calls_of = [lambda m, W, Hi: m.add(W(), 1.5), lambda m, W, Hi: m.add.reduce(W())]
    assert _wrap_calls(ndtile, data, calls_of) == _wrap_calls(numpy, data, calls_of)


def test_array_wrap_of_objects_errors_and_none():
    for mod in MODS.values():
        class Bad:
            def __array__(self, dtype=None, copy=None):
                return mod.zeros(2)

            def __array_wrap__(self, arr, context, return_scalar):
                raise RuntimeError

        class Nothing(Bad):
            def __array_wrap__(self, arr, context=None, return_scalar=False):
                return None

        with pytest.raises(RuntimeError):
            mod.maximum(Bad(), Bad())
        with pytest.raises(RuntimeError):
            mod.maximum.reduce(Bad())
        assert mod.maximum(Nothing(), Nothing()) is None


def test_out_subclass_wrap_context_names_the_outputs():
    seen = {}
    for name, mod in MODS.items():
        class S(mod.ndarray):
            def __array_wrap__(self, obj, context=None, return_scalar=False):
                seen.setdefault(name, []).append([tname(a) for a in context[1]])
                return obj

        a = mod.zeros(()).view(S)
        mod.add(0, 0, a)
        mod.add(0, 0, out=(a,))
        mod.add(0, 0, a, where=False)
        mod.add(a, 0, out=(None,))
    assert seen['ndtile'] == seen['numpy']


def test_where_subclass_takes_part_in_the_override_protocol():
    res = {}
    for name, mod in MODS.items():
        class Plain(mod.ndarray):
            pass

        class Refuses(mod.ndarray):
            def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
                return NotImplemented

        got = []
        a = mod.arange(4.0)
        w = mod.array([True, False, True, False])
        r = mod.negative(a, where=w.view(Plain), out=mod.zeros(4))
        got.append((tname(r), r.tolist()))
        r = mod.add(a, 1, where=w.view(Plain), out=mod.zeros(4).view(Plain))
        got.append((tname(r), r.tolist()))
        with pytest.raises(TypeError):
            mod.negative(a, where=w.view(Refuses), out=mod.zeros(4))
        res[name] = got
    assert res['ndtile'] == res['numpy']


def test_array_ufunc_called_directly():
    for mod in MODS.values():
        a = mod.array(1)
        with pytest.raises(TypeError):
            a.__array_ufunc__()
        with pytest.raises(TypeError):
            a.__array_ufunc__(1, 2)
        with pytest.raises(AttributeError):
            a.__array_ufunc__(mod.add, 'nomethod', a)
        assert int(a.__array_ufunc__(mod.add, '__call__', a, a)) == 2


@pytest.mark.parametrize("name", ['modf', 'frexp', 'divmod'])
def test_two_output_ufunc_override_sees_the_ufunc_and_its_outputs(name):
    res = {}
    for mname, mod in MODS.items():
        seen = []

        class A(mod.ndarray):
            def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
                seen.append((ufunc.__name__, method, [tname(x) for x in inputs],
                             [tname(o) for o in kwargs.get('out', ())]))
                ins = [x.view(mod.ndarray) if isinstance(x, A) else x for x in inputs]
                if 'out' in kwargs:
                    kwargs['out'] = tuple(o.view(mod.ndarray) if isinstance(o, A) else o
                                          for o in kwargs['out'])
                return super().__array_ufunc__(ufunc, method, *ins, **kwargs)

        d = mod.arange(1.0, 6.0)
        args = (d, 2.0) if name == 'divmod' else (d,)
        dt = 'int32' if name == 'frexp' else 'float64'
        b = mod.zeros(5, dtype=dt).view(A)
        r = getattr(mod, name)(*args, out=(None, b))
        seen.append([tname(x) for x in r] + [r[1] is b, numpy.asarray(r[0]).tolist()])
        r = getattr(mod, name)(*args[:0], args[0].view(A), *args[1:])
        seen.append([tname(x) for x in r])
        res[mname] = seen
    assert res['ndtile'] == res['numpy']


def test_plain_array_ufunc_defers_to_another_librarys_override():
    for mod in MODS.values():
        class B:
            def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
                return NotImplemented

        class Never:
            __array_ufunc__ = None

        a = mod.arange(5.0)
        assert a.__array_ufunc__(mod.add, '__call__', a, B()) is NotImplemented
        assert a.__array_ufunc__(mod.add, '__call__', a, Never()) is NotImplemented
        assert a.__array_ufunc__(mod.add, '__call__', a, numpy.ones(5)) is not NotImplemented


def _own(x):
    """A result's class, OWNDATA and where its .base points (by name)."""
    return (tname(x), bool(x.flags.owndata), tname(x.base))


# methods called through ndarray itself (np.ndarray.NAME(s), as a subclass's
# override calls them by name), with their arguments
_UNBOUND = [('reshape', (-1, 2)), ('ravel', ()), ('flatten', ()), ('transpose', ()),
            ('swapaxes', (0, 1)), ('squeeze', ()), ('copy', ()), ('diagonal', ()),
            ('repeat', (2,)), ('take', ([1, 2],)), ('__copy__', ()), ('argsort', ()),
            ('argmax', (0,)), ('clip', (1, 5)), ('round', ()), ('compress', ([1, 0],)),
            ('cumsum', (0,)), ('cumprod', (0,)), ('argpartition', (1,)), ('trace', ()),
            ('sum', (0,)), ('prod', (1,)), ('max', (0,)), ('min', (0,)), ('any', (0,)),
            ('all', (0,)), ('var', (0,)), ('std', (0,)), ('mean', (0,)),
            ('astype', (numpy.float32,))]


@pytest.mark.parametrize("dtype", [numpy.int64, numpy.float64, numpy.complex128])
@pytest.mark.parametrize("n", [4, pytest.param(300000, marks=pytest.mark.default_settings)])
def test_unbound_methods_keep_the_subclass(dtype, n):
    """np.ndarray.reshape(s) and the other methods called through ndarray on
    a subclass instance give the subclass (with __array_finalize__), as
    NumPy's; ndtile's gave plain arrays (its subclass wrappers sit on the
    subclass only). Plain arrays are unchanged."""
    res = {}
    for name, xp in MODS.items():
        class S(xp.ndarray):
            def __array_finalize__(self, obj):
                self.info = getattr(obj, 'info', None)
        base = (numpy.arange(6 * n) % 11).astype(dtype).reshape(6, n)
        s = xp.asarray(base).view(S)
        s.info = 'x'
        out = []
        for m, args in _UNBOUND:
            for x in (s, s[::2, ::-1], xp.asarray(base)):
                r = getattr(xp.ndarray, m)(x, *args)
                out.append((m, tname(r), getattr(r, 'info', '-'), numpy.asarray(r).dtype.str,
                            numpy.asarray(r).shape))
        res[name] = out
    assert res['ndtile'] == res['numpy']


@pytest.mark.parametrize("dtype", [numpy.int32, numpy.float64, numpy.bool_])
@pytest.mark.parametrize("n", [4, pytest.param(300000, marks=pytest.mark.default_settings)])
def test_subclass_copies_own_their_data(dtype, n):
    """A copy of a subclass instance (copy, astype, flatten, take, the
    *_like functions, np.array/np.copy with subok, ...) owns its data
    (flags.owndata, .base None), as NumPy's; ndtile's were views of a plain
    copy. Results NumPy makes by a ufunc stay views of a plain array (its
    __array_wrap__), in both."""
    res = {}
    for name, xp in MODS.items():
        class S(xp.ndarray):
            pass
        base = (numpy.arange(4 * n) % 7).astype(dtype).reshape(4, n)
        s = xp.asarray(base).view(S)
        cases = [s.copy(), s.copy('F'), s.astype(float), s.flatten(), s.take([1, 2]),
                 s.repeat(2), s.argsort(), s.compress([1, 0, 1]), s.__copy__(),
                 copy.deepcopy(s), s.T.ravel(), xp.zeros_like(s), xp.empty_like(s),
                 xp.ones_like(s), xp.full_like(s, 1), xp.array(s, subok=True),
                 xp.copy(s, subok=True), xp.require(s.T, requirements='C'), xp.sort(s),
                 s.argmax(axis=0), S((2, 3)), s + 1, xp.multiply(s, s), s.sum(axis=0), s[[1, 2]],
                 s.cumsum(), s.clip(1, 3), s[::-1].copy()[::2].copy()]
        res[name] = [_own(r) for r in cases]
    assert res['ndtile'] == res['numpy']


def test_view_base_is_numpys():
    """.base of a view of a subclass instance is the instance it was taken
    from while that one is a view of another class (s[:3].base is s for
    s = a.view(S)), and a chain of views of one class collapses to its
    first; plain views name the array owning the memory. ndtile named the
    memory's owner always."""
    res = {}
    for name, xp in MODS.items():
        class S(xp.ndarray):
            pass

        class S2(S):
            pass
        a = xp.arange(24.0)
        s = a.view(S)
        v = s[:12]
        vv = v[1:]
        w = s.reshape(4, 6)
        o = s.copy()
        p = a[2:]
        objs = {'a': a, 's': s, 'v': v, 'vv': vv, 'w': w, 'o': o, 'p': p}

        def who(x):
            return next((k for k, y in objs.items() if y is x), tname(x))
        rs = [s[:3], v[:2], vv[::2], s.T, w.T, w[1], s.view(S), s.view(S2), s.view(S2)[1:],
              w.diagonal(), w.swapaxes(0, 1), s[...], s.reshape(2, 12), o[1:], o.view(S)[1:],
              xp.asarray(s), p[1:], p.view(S), p.view(S)[1:], list(w)[0], w.real, a.view(S)]
        res[name] = [(tname(r), who(r.base), bool(r.flags.owndata)) for r in rs]
    assert res['ndtile'] == res['numpy']


def test_vectorize_keeps_the_subclass():
    """np.vectorize of a subclass instance returns that class (the input of
    highest priority's __array_wrap__, owning its data), as NumPy's; ndtile
    returned plain arrays."""
    res = {}
    for name, xp in MODS.items():
        class S(xp.ndarray):
            def __array_finalize__(self, obj):
                self.info = getattr(obj, 'info', 'none')

        class T(xp.ndarray):
            __array_priority__ = 5
        s = xp.arange(4.0).view(S)
        s.info = 'x'
        t = xp.arange(4.0).view(T)
        f = xp.vectorize(lambda x: x + 1)
        g = xp.vectorize(lambda x, y: x + y)
        rs = [f(s), f(s[1:2].reshape(())), f(xp.float64(2.0)), g(s, t), g(xp.arange(4.0), s),
              g(s, y=t), xp.vectorize(lambda x: x + 1, otypes=[int])(s), f([1, 2]),
              xp.vectorize(lambda x: x, otypes=[float])(s[:0])]
        out = [(tname(r), getattr(r, 'info', '-'), numpy.asarray(r).dtype.str,
                numpy.asarray(r).tolist()) for r in rs]
        two = xp.vectorize(lambda x: (x, x * 2))(s)
        out.append([(tname(r), r.info) for r in two])
        r = xp.vectorize(lambda x: x.sum(), signature='(n)->()')(s.reshape(2, 2))
        out.append((tname(r), r.tolist()))
        res[name] = out
    assert repr(res['ndtile']) == repr(res['numpy'])


def test_broadcast_arrays_subok():
    """broadcast_arrays of subclass instances: plain arrays without subok
    (those not broadcast too), the class (finalized) with subok=True, as
    NumPy's; ndtile returned the unbroadcast instances as they were and
    plain arrays for the broadcast ones whatever subok said."""
    res = {}
    for name, xp in MODS.items():
        class S(xp.ndarray):
            def __array_finalize__(self, obj):
                self.info = getattr(obj, 'info', '') + ' fin'
        a = xp.arange(4).view(S)
        a.info = 'x'
        b = xp.arange(4).reshape(-1, 1)
        out = []
        for subok in (False, True):
            for args in [(a, b), (a,), (a, a), (b, a), (a, 0), (a.reshape(4, 1), b), (a[:0],)]:
                r = xp.broadcast_arrays(*args, subok=subok)
                out.append([(tname(x), getattr(x, 'info', '-'), x.shape,
                             i < len(args) and x is args[i], numpy.asarray(x).tolist())
                            for i, x in enumerate(r)])
        res[name] = out
    assert res['ndtile'] == res['numpy']


def test_array_finalize_looked_up_on_the_class():
    """__array_finalize__ is the class's attribute called with the new
    instance, as NumPy calls it: a property there raises TypeError (not the
    property's own error), a staticmethod gets (new, obj)."""
    res = {}
    for name, xp in MODS.items():
        log = []

        class P(xp.ndarray):
            @property
            def __array_finalize__(self):
                raise RuntimeError("boohoo!")

        class Two(xp.ndarray):
            def __array_finalize__(self):
                raise RuntimeError("boohoo!")

        class Three(xp.ndarray):
            def __array_finalize__(self, obj):
                raise RuntimeError("boohoo!")

        class St(xp.ndarray):
            @staticmethod
            def __array_finalize__(new, obj):
                log.append((tname(new), tname(obj)))
        out = []
        for c in (P, Two, Three, St):
            for a in (xp.arange(3), xp.arange(6.0).reshape(2, 3)[:, 1:]):
                try:
                    out.append(tname(a.view(c)))
                except Exception as e:
                    out.append((type(e).__name__, str(e)))
        res[name] = (out, log)
    assert res['ndtile'] == res['numpy']


def test_ptp_of_a_subclass_goes_through_its_wrap():
    # NumPy's ptp is subtract(maximum.reduce, minimum.reduce): the result is
    # of the subclass, its __array_wrap__ called for each step
    def f(xp, K, log):
        m = K['MySubClass'](xp.arange(6.).reshape(2, 3), info='i')
        res = [xp.ptp(m), xp.ptp(m, axis=0), xp.ptp(m, axis=1, keepdims=True)]
        return [(tname(r), val(r), getattr(r, 'info', 'missing')) for r in res]
    check(f)


def _duck_classes(xp, log):
    class Wrapped:
        """No array: __array__ and __array_wrap__ (NumPy's fromnumeric
        wraps the ufunc reductions' and the _wrapfunc functions' results)."""
        def __init__(self, a):
            self.a = a

        def __array__(self, dtype=None, copy=None):
            return xp.asarray(self.a)

        def __array_wrap__(self, arr, context=None, return_scalar=False):
            log.append(('wrap', tname(arr), getattr(arr, 'shape', None), str(arr.dtype),
                        context[0].__name__ if context else None, return_scalar))
            return ('W', val(arr))

    class Methods:
        """No array: __array__ and methods of NumPy's names (pandas-like),
        which NumPy's functions call."""
        def __init__(self, a):
            self.a = a

        def __array__(self, dtype=None, copy=None):
            return xp.asarray(self.a)

        def __getattr__(self, name):
            if name in ('sum', 'prod', 'max', 'min', 'any', 'all', 'mean', 'std', 'var',
                        'argmax', 'argmin', 'cumsum', 'cumprod', 'clip', 'round',
                        'transpose', 'swapaxes', 'squeeze', 'take', 'repeat', 'argsort',
                        'searchsorted', 'compress', 'reshape'):
                return lambda *args, **kw: ('M', name, args, sorted(kw.items()))
            raise AttributeError(name)
    return Wrapped, Methods


def test_module_functions_of_objects_with_array_wrap_or_methods():
    def f(xp, K, log):
        Wrapped, Methods = _duck_classes(xp, log)
        res = []
        for obj in (Wrapped(numpy.arange(6.).reshape(2, 3)),
                    Methods(numpy.arange(6.).reshape(2, 3))):
            res += [xp.sum(obj), xp.sum(obj, axis=0), xp.prod(obj, axis=1, keepdims=True),
                    xp.max(obj), xp.min(obj, axis=0), xp.any(obj), xp.all(obj, axis=1),
                    xp.sum(obj, dtype=numpy.int32), xp.argmax(obj), xp.argmin(obj, axis=1),
                    xp.cumsum(obj), xp.cumprod(obj, axis=0), xp.clip(obj, 1, 4),
                    xp.round(obj, 1), xp.around(obj), xp.transpose(obj),
                    xp.transpose(obj, (1, 0)), xp.swapaxes(obj, 0, 1), xp.squeeze(obj),
                    xp.take(obj, [0, 2], axis=1), xp.repeat(obj, 2), xp.argsort(obj),
                    xp.compress([True, False], obj, axis=0), xp.reshape(obj, (3, 2))]
            # mean/std/var: an object's own method only (NumPy's _methods
            # take an array of the rest, no __array_wrap__)
            res += [xp.mean(obj), xp.std(obj, axis=0), xp.var(obj, ddof=1)]
        res.append(xp.searchsorted(Methods(numpy.arange(3.)), 1.5))
        res.append(xp.searchsorted(Wrapped(numpy.arange(3.)), [0.5, 1.5]))
        return [r if isinstance(r, tuple) else (tname(r), val(r)) for r in res]
    a, b = check(f)
    assert ('W', 15.0) in a


def test_module_functions_of_plain_objects_stay_arrays():
    # __array__ alone (no wrap, no methods): the functions of its array
    def f(xp, K, log):
        class Plain:
            def __array__(self, dtype=None, copy=None):
                return xp.arange(6.).reshape(2, 3)
        p = Plain()
        res = [xp.sum(p), xp.sum(p, axis=0), xp.argmax(p), xp.cumsum(p), xp.clip(p, 1, 3),
               xp.transpose(p), xp.ptp(p), xp.mean(p), xp.round(p)]
        return [(tname(r), val(r)) for r in res]
    check(f)


def test_writeable_through_a_writeable_base_between_view_and_read_only_owner():
    # NumPy's _IsWriteable: a view may be made writeable again where a base
    # array between it and the owner is writeable; a subclass view's views
    # have that view as .base (NumPy stops collapsing bases at a class change)
    def f(xp, K, log):
        S = K['MySubClass']
        out = []

        def settable(a):
            try:
                a.flags.writeable = True
            except ValueError as e:
                return str(e)
            return a.flags.writeable

        b = xp.arange(6.)
        v = b.view(S)
        b.flags.writeable = False
        w = v[1:]
        out.append((v.flags.writeable, w.flags.writeable, w.base is v))
        w.flags.writeable = False
        out.append(settable(w))
        w[0] = 7                          # NumPy writes through it into b
        out.append(val(b))
        v.flags.writeable = False
        out.append(settable(v))           # its base is b, read-only
        u = v[::2]
        out.append(settable(u))           # v and b read-only
        out.append(settable(b[2:]))       # b owns its data, read-only
        c = xp.arange(4.)
        c.flags.writeable = False
        d = c.view(S)
        out.append(settable(d))
        e = xp.arange(4.).view(S)
        e.flags.writeable = False
        g = e.view(S)[1:]
        out.append(settable(g))           # the owner is writeable
        h = xp.arange(4.).view(S)
        h2 = h[1:]
        h.flags.writeable = False
        h2.flags.writeable = False
        h2.setflags(write=False)
        try:
            h2.setflags(write=True)
            out.append(h2.flags.writeable)
        except ValueError as ex:
            out.append(str(ex))
        return [out]
    a, b = check(f, logs=False)
    assert a[0][1] is True


def test_ufunc_made_methods_call_the_subclass_wrap():
    # cumsum/cumprod (accumulate), clip (the clip ufunc) and trace (add.reduce
    # of the diagonal) wrap through the instance's __array_wrap__, as NumPy's
    # do; round keeps the class where NumPy's goes through ufuncs and is a
    # base-class array where NumPy's PyArray_Round allocates one
    def f(xp, K, log):
        m = K['MySubClass'](xp.arange(6.).reshape(2, 3), info='i')
        res = []
        for name, fn in [('cumsum', lambda: m.cumsum()), ('cumsum0', lambda: m.cumsum(0)),
                         ('npcumsum', lambda: xp.cumsum(m, axis=1)),
                         ('cumprod', lambda: m.cumprod(axis=1)), ('cumprod1', lambda: m[0].cumprod()),
                         ('clip', lambda: m.clip(1, 3)), ('npclip', lambda: xp.clip(m, 1, 3)),
                         ('trace', lambda: m.trace()), ('nptrace', lambda: xp.trace(m, 1))]:
            log.append(name)
            r = fn()
            res.append((name, tname(r), val(r), getattr(r, 'info', 'missing')))
        return res
    check(f)

    def g(xp, K, log):
        # (NumPy's internal steps of round - rint, views of the parts of a
        # complex array - are not followed call by call: results only)
        res = []
        for dt in ('f8', 'i8', 'c16'):
            p = K['MySubClass'](xp.arange(3, dtype=dt) * 7, info='p')
            for d in (0, 1, -1):
                for r in (p.round(d), xp.round(p, d), xp.around(p, d)):
                    res.append((dt, d, tname(r), val(r), getattr(r, 'info', 'missing')))
        return res
    check(g, logs=False)


def test_clip_round_nonzero_call_the_subclass_methods():
    def f(xp, K, log):
        class S(xp.ndarray):
            def clip(self, *args, **kw):
                return ('clip', args, sorted(kw))

            def round(self, *args, **kw):
                return ('round', args, sorted(kw))

            def nonzero(self):
                return 'nonzero'
        s = xp.arange(3.).view(S)
        return [xp.clip(s, 0, 1), xp.round(s, 2), xp.around(s), xp.nonzero(s),
                xp.clip(s, min=1)]
    check(f)


def _scalar_comparisons(M):
    """NumPy scalars and arrays compared with instances of M.ndarray
    subclasses: overriding the reflected comparison, with __array_priority__,
    with their own __array_ufunc__, or none of these."""
    class Cmp(M.ndarray):
        __array_priority__ = 100

        def __eq__(self, o):
            return ('Cmp.eq', type(o).__name__, numpy.ndim(o))

        def __gt__(self, o):
            return 'Cmp.gt'

        def __le__(self, o):
            return NotImplemented       # declined: the ufunc's answer

    class Eq(M.ndarray):
        def __eq__(self, o):
            return 'Eq.eq'

    class Uf(M.ndarray):
        def __array_ufunc__(self, uf, method, *a, **k):
            return 'Uf.ufunc'

    class Pr(M.ndarray):
        __array_priority__ = 100

    class No(M.ndarray):
        __array_ufunc__ = None      # NumPy's TypeError, for == and != too

    out = []
    for x in (M.arange(3).view(Cmp), M.arange(3.0).view(Eq), M.arange(3).view(Uf),
              M.arange(3).view(Pr), M.arange(3).view(No)):
        for sc in (numpy.int32(1), numpy.float64(1.5), numpy.bool_(True), numpy.complex64(1),
                   numpy.arange(3), numpy.array(2)):
            for f in (lambda a, b: a == b, lambda a, b: a != b, lambda a, b: a < b,
                      lambda a, b: a >= b, lambda a, b: a + b, lambda a, b: b == a,
                      lambda a, b: b != 1):
                try:
                    r = f(sc, x)
                except TypeError as e:
                    r = str(e)
                out.append((type(x).__name__, repr(sc), r if isinstance(r, (str, tuple))
                            else (type(r).__name__, numpy.asarray(r).tolist())))
    return out


def test_numpy_scalar_comparison_defers_to_subclass_reflected_method():
    # numpy.int32(10) == sub: NumPy compares its scalar as a 0-d array, and
    # Python calls the reflected method of an ndarray subclass first
    assert _scalar_comparisons(ndtile) == _scalar_comparisons(numpy)
    # an explicit ufunc call is the ufunc's, as NumPy's
    for M in (numpy, ndtile):
        class Cmp(M.ndarray):
            def __eq__(self, o):
                return 'Cmp.eq'
        r = numpy.equal(numpy.arange(3), M.arange(3).view(Cmp))
        assert type(r).__name__ == 'Cmp' and numpy.asarray(r).tolist() == [True] * 3


def _scalar_comparisons_by_call(M):
    """NumPy scalars and arrays compared with an M.ndarray subclass instance
    by a call of a function that compares from C: operator's functions
    (by module attribute, by name, through a partial), the scalar's own
    __eq__, sorted, min, max."""
    class Cmp(M.ndarray):
        def __eq__(self, o):
            return 'Cmp.eq'

        def __ne__(self, o):
            return 'Cmp.ne'

        def __lt__(self, o):
            return 'Cmp.lt'

        def __gt__(self, o):
            return 'Cmp.gt'

        def __le__(self, o):
            return 'Cmp.le'

        def __ge__(self, o):
            return 'Cmp.ge'

    def show(r):
        return r if isinstance(r, str) else (type(r).__name__, numpy.asarray(r).tolist())
    s = M.arange(3).view(Cmp)
    out = []
    eq, lt = operator.eq, operator.lt
    for x in (numpy.int32(1), numpy.float64(2.5), numpy.arange(3), numpy.array(1.0)):
        part = functools.partial(operator.ge, x)
        out += [show(operator.eq(x, s)), show(operator.ne(x, s)), show(operator.lt(x, s)),
                show(operator.le(x, s)), show(operator.gt(x, s)), show(operator.ge(x, s)),
                show(operator.__eq__(x, s)), show(eq(x, s)), show(lt(x, s)), show(part(s)),
                show(x.__eq__(s)), show(x.__ge__(s)),
                show(numpy.equal(x, s))]        # the ufunc's, called explicitly
        if numpy.ndim(x) == 0:
            out += [type(min([s, x])).__name__, type(max([x, s])).__name__,
                    [type(v).__name__ for v in sorted([s, x])]]
    return out


def test_numpy_scalar_comparison_by_call_defers_to_subclass_reflected_method():
    # operator.eq(numpy.int32(1), sub) and the like compare from C, as `==`
    # does: NumPy's scalar or array gives way to the subclass's reflected
    # method; ndtile ran the ufunc there (deviations.md, item 16)
    assert _scalar_comparisons_by_call(ndtile) == _scalar_comparisons_by_call(numpy)


def _logging_class(xp, log):
    """A subclass with its own __getitem__, __sub__ and __array_wrap__, each
    logging its call (quantities' Quantity keeps its units so)."""
    class Logged(xp.ndarray):
        def __getitem__(self, key):
            log.append(('getitem', repr(key)))
            return super().__getitem__(key)

        def __sub__(self, other):
            log.append('sub')
            return super().__sub__(other)

        def __array_wrap__(self, obj, context=None, return_scalar=False):
            log.append(('wrap', context[0].__name__ if context else None))
            return super().__array_wrap__(obj, context, return_scalar)
    return Logged


@pytest.mark.parametrize("shape", [(5,), (3, 4), (40, 300)])
def test_iteration_calls_the_subclass_getitem(shape):
    # NumPy iterates an array as Python's sequence iterator, whose item slot
    # is a subclass's own __getitem__: it is called with 0, 1, ... until it
    # raises IndexError (quantities' `for q in qarr` gives Quantity
    # elements); ndtile iterated its own elements. A 0-d instance raises at
    # iter() (ndtile raised at the first next()).
    got = {}
    for name, xp in MODS.items():
        log = []
        Logged = _logging_class(xp, log)

        class Plain(xp.ndarray):
            pass
        a = (xp.arange(numpy.prod(shape)) * 3).reshape(shape).view(Logged)
        items = list(a)
        b = xp.arange(numpy.prod(shape)).reshape(shape).view(Plain)
        with pytest.raises(TypeError, match="iteration over a 0-d array"):
            iter(xp.array(1.5).view(Logged))
        with pytest.raises(TypeError, match="iteration over a 0-d array"):
            iter(xp.array(1.5).view(Plain))
        got[name] = (log, [(tname(x), val(x)) for x in items],
                     [(tname(x), val(x)) for x in b])
    assert got['ndtile'] == got['numpy']


@pytest.mark.parametrize("n,axis", [(1, -1), (2, -1), (1, 0), (3, 1)])
def test_diff_and_ediff1d_keep_the_subclass(n, axis):
    # NumPy's diff slices a subclass instance with its __getitem__ and
    # subtracts with the ufunc (wrapped); ediff1d is ary[1:] - ary[:-1]
    # (the subclass's __sub__), or with to_begin/to_end a result of ary's
    # class. ndtile's diff gave a plain array (quantities lost the units),
    # its ediff1d with to_end a plain one.
    got = {}
    for name, xp in MODS.items():
        log = []
        Logged = _logging_class(xp, log)
        a = (xp.arange(24.0) ** 2).reshape(4, 6).view(Logged)
        out = [xp.diff(a, n, axis), xp.diff(a, n, axis, prepend=1.5),
               xp.diff(a[::2, ::-1], n, axis), xp.ediff1d(a),
               xp.diff(xp.array([True, False, False, True]).view(Logged))]
        calls = list(log)
        # (NumPy writes these through the subclass's __getitem__ views: not compared)
        out += [xp.ediff1d(a, to_end=[9]), xp.ediff1d(a, to_begin=xp.array([2.0, 3.0]), to_end=7)]
        got[name] = (calls, [(tname(x), val(x), str(x.dtype)) for x in out])
        with pytest.raises(TypeError):
            xp.ediff1d(xp.array([True, False]).view(Logged))
    assert got['ndtile'] == got['numpy']


def test_diff_of_a_large_subclass_instance(default_tiles):
    # past one default tile: the subclass's slices are views of it
    want = numpy.diff((numpy.arange(600000.0) ** 2).reshape(3, 200000), 2)
    for xp in MODS.values():
        class S(xp.ndarray):
            pass
        d = xp.diff((xp.arange(600000.0) ** 2).reshape(3, 200000).view(S), 2)
        assert type(d) is S
        numpy.testing.assert_array_equal(numpy.asarray(d.view(xp.ndarray)), want)


def _pickled_info_class(xp, name):
    """quantities' pickling: __reduce__ rebuilds from an empty (0,) int8
    instance and appends an attribute to super()'s state; __setstate__
    passes state[:-1] to ndarray.__setstate__, which takes its shape, dtype
    and data."""
    def rebuild(sub, base, shape, t):
        return sub.__new__(sub, xp.ndarray.__new__(base, shape, t))

    class Info(xp.ndarray):
        def __new__(cls, a, info=None):
            o = xp.asarray(a).view(cls)
            o.info = info
            return o

        def __array_finalize__(self, obj):
            self.info = getattr(obj, 'info', None)

        def __reduce__(self):
            r = super().__reduce__()
            return (rebuild, (type(self), xp.ndarray, (0,), 'b'), r[2] + (self.info,))

        def __setstate__(self, state):
            self.info = state[-1]
            xp.ndarray.__setstate__(self, state[:-1])
    Info.__qualname__ = Info.__name__ = name
    rebuild.__qualname__ = rebuild.__name__ = name + '_rebuild'
    globals()[rebuild.__name__] = rebuild
    return Info


_InfoNumpy = _pickled_info_class(numpy, '_InfoNumpy')
_InfoNdtile = _pickled_info_class(ndtile, '_InfoNdtile')


@pytest.mark.parametrize("make", [lambda xp: xp.arange(6.0).reshape(2, 3),
                                  lambda xp: xp.arange(12, dtype=xp.int32).reshape(3, 4).T[::2],
                                  lambda xp: xp.array(3 + 1j),
                                  lambda xp: xp.arange(300000.0).reshape(3, -1)])
def test_setstate_takes_the_state_shape_and_dtype(make):
    # ndarray.__setstate__ refused a state whose shape was not the array's
    # ("expected the array's data"): quantities' pickles (an empty (0,)
    # int8 instance given its state) failed to load
    got = {}
    for xp, cls in ((numpy, _InfoNumpy), (ndtile, _InfoNdtile)):
        r = pickle.loads(pickle.dumps(cls(make(xp), 'm')))
        assert type(r) is cls
        got[xp.__name__] = (r.info, r.dtype, r.shape, val(r))
    assert got['ndtile'] == got['numpy']


def test_setstate_of_numpy_state():
    # NumPy's state tuples ((version,) shape, dtype, is_fortran, rawdata) and
    # NumPy's errors for a wrong one
    for st in (numpy.arange(6.0).reshape(2, 3).__reduce__()[2],
               numpy.asfortranarray(numpy.arange(6).reshape(2, 3)).__reduce__()[2],
               numpy.arange(6.0).reshape(2, 3).__reduce__()[2][1:],
               numpy.array(2.5, numpy.float32).__reduce__()[2]):
        a, b = numpy.zeros(1, numpy.int8), ndtile.zeros(1, numpy.int8)
        a.__setstate__(st)
        b.__setstate__(st)
        assert a.dtype == b.dtype and a.shape == b.shape and a.tolist() == b.tolist()
    for bad, exc in (((1, 2), TypeError),
                     ((1, (4,), numpy.dtype('i4'), False, bytes(12)), ValueError)):
        for a in (numpy.zeros(1), ndtile.zeros(1)):
            with pytest.raises(exc):
                a.__setstate__(bad)
