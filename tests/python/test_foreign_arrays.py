"""Other people's arrays (issue 20): ndtile functions and ufuncs called with
NumPy subclasses (masked arrays, np.matrix, user subclasses of
numpy.ndarray) or objects with their own __array_function__ /
__array_ufunc__ leave them to their own implementation, as NumPy's
protocols say; numpy.ma on ndtile arrays works as on NumPy arrays."""
import numbers
import os
import subprocess
import sys
import textwrap
import warnings

import numpy
import pytest

import ndtile as nt


def run_default(code):
    env = {k: v for k, v in os.environ.items() if not k.startswith("NDTILE_")}
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr


def same_masked(got, want):
    if type(want) is numpy.ndarray:
        # a plain result: an ndtile array (the program goes on in ndtile)
        assert type(got) is nt.ndarray, type(got)
        got = numpy.asarray(got)
    assert type(got) is type(want), (type(got), type(want))
    if isinstance(want, numpy.ma.MaskedArray):
        assert got.dtype == want.dtype and got.shape == want.shape
        assert numpy.array_equal(numpy.ma.getmaskarray(got), numpy.ma.getmaskarray(want))
        assert numpy.array_equal(got.filled(0), want.filled(0))
    elif isinstance(want, numpy.ndarray):
        assert got.dtype == want.dtype and numpy.array_equal(got, want)
    else:
        assert got == want or (got is numpy.ma.masked and want is numpy.ma.masked)


@pytest.fixture(autouse=True)
def _no_fallback(monkeypatch):
    # handing a call to NumPy's protocols is not a fallback
    monkeypatch.setenv("NDTILE_FALLBACK", "error")


def masked(m):
    return m.ma.MaskedArray(m.array([1, 2, 3, -99, 5]), mask=[0, 0, 0, 1, 0])


FUNCS = [
    lambda m, x: m.mean(x), lambda m, x: m.sum(x), lambda m, x: m.min(x),
    lambda m, x: m.max(x), lambda m, x: m.argmin(x), lambda m, x: m.std(x),
    lambda m, x: m.prod(x), lambda m, x: m.cumsum(x), lambda m, x: m.sort(x),
    lambda m, x: m.reshape(x, (5, 1)), lambda m, x: m.transpose(x),
    lambda m, x: m.concatenate([x, x]), lambda m, x: m.where(x > 2, x, 0),
    lambda m, x: m.clip(x, 0, 3), lambda m, x: m.zeros_like(x), lambda m, x: m.asanyarray(x),
    lambda m, x: m.asarray(x), lambda m, x: m.array(x), lambda m, x: m.median(x),
    lambda m, x: m.count_nonzero(x), lambda m, x: m.diff(x),
    # ufuncs and their methods
    lambda m, x: m.sqrt(x), lambda m, x: m.add(x, 1), lambda m, x: m.add(1.5, x),
    lambda m, x: m.multiply(x, x), lambda m, x: m.less(x, 3), lambda m, x: m.add.reduce(x),
    lambda m, x: m.maximum.accumulate(x), lambda m, x: m.add.outer(x, m.arange(2)),
    lambda m, x: m.negative(x), lambda m, x: m.exp(x),
    # submodules
    lambda m, x: m.linalg.norm(x), lambda m, x: m.fft.fft(x),
]


@pytest.mark.parametrize("k", range(len(FUNCS)))
def test_masked_array_keeps_its_semantics(k):
    f = FUNCS[k]
    with numpy.errstate(all='ignore'):
        want = f(numpy, masked(numpy))
        got = f(nt, masked(nt))
    same_masked(got, want)


def test_issue_examples():
    x = nt.array([1, 2, 3, -99, 5])
    mx = nt.ma.MaskedArray(x, mask=[0, 0, 0, 1, 0])
    assert nt.mean(mx) == 2.75 and nt.sum(mx) == 11 and nt.min(mx) == 1
    r = nt.sqrt(nt.ma.MaskedArray([4.0, -1.0], mask=[0, 1]))
    assert isinstance(r, numpy.ma.MaskedArray) and r.mask.tolist() == [False, True]
    assert r[0] == 2.0
    mx[1] = 9                        # the masked array shares x's memory, as in NumPy
    assert int(x[1]) == 9


def test_operators_with_masked_arrays():
    a = nt.arange(5)
    an = numpy.arange(5)
    with numpy.errstate(all='ignore'):
        for f in (lambda p, q: p + q, lambda p, q: q * p, lambda p, q: p / q,
                  lambda p, q: p < q, lambda p, q: p ** abs(q), lambda p, q: p - q):
            same_masked(f(a, masked(nt)), f(an, masked(numpy)))


def test_out_and_where_with_foreign():
    # an ndtile out= written by NumPy's ufunc on a masked input
    out = nt.zeros(5)
    r = nt.add(masked(nt), 1.0, out=out)
    want = numpy.add(masked(numpy), 1.0, out=numpy.zeros(5))
    assert nt.asarray(out).tolist() == numpy.asarray(want).tolist()
    assert r is out or isinstance(r, (nt.ndarray, numpy.ndarray))


def test_matrix_stays_matrix():
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', PendingDeprecationWarning)
        mt = numpy.matrix([[1, 2], [3, 4]])
        for f in (lambda m: m.sum(mt, axis=0), lambda m: m.mean(mt, axis=1),
                  lambda m: m.dot(mt, mt), lambda m: m.multiply(mt, 2), lambda m: m.sqrt(mt),
                  lambda m: m.transpose(mt), lambda m: m.add.reduce(mt, axis=0),
                  lambda m: m.asarray(mt), lambda m: m.asanyarray(mt), lambda m: m.max(mt)):
            got, want = f(nt), f(numpy)
            assert type(got) is type(want) or (type(want) is numpy.ndarray and
                                               type(got) is nt.ndarray), (type(got), type(want))
            assert numpy.array_equal(numpy.asarray(got), numpy.asarray(want))


class MyNP(numpy.ndarray):
    """A user subclass of numpy.ndarray (its own finalize and a tag)."""

    def __array_finalize__(self, obj):
        self.tag = getattr(obj, 'tag', 'fresh')


def test_user_numpy_subclass_is_not_stripped():
    a = numpy.arange(4.0).view(MyNP)
    a.tag = 'mine'
    for f in (lambda m: m.sqrt(a), lambda m: m.add(a, 1), lambda m: m.reshape(a, (2, 2)),
              lambda m: m.concatenate([a, a]), lambda m: m.negative(a)):
        got, want = f(nt), f(numpy)
        if type(want) is numpy.ndarray:     # NumPy made a plain array: ndtile's is ndtile's
            assert type(got) is nt.ndarray
            got = numpy.asarray(got)
        else:
            assert type(got) is type(want) is MyNP
            assert got.tag == want.tag
        assert numpy.array_equal(got, want)


class Duck:
    """An array-like with its own protocols (as dask or CuPy arrays)."""

    def __init__(self, v):
        self.v = numpy.asarray(v)

    def __array_function__(self, func, types, args, kwargs):
        return ('duck-function', func.__name__)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return ('duck-ufunc', ufunc.__name__, method)


def test_array_function_objects_dispatch():
    d = Duck([1, 2])
    for name in ('sum', 'mean', 'concatenate', 'where', 'reshape'):
        args = {'concatenate': ([d, d],), 'where': (d, 1, 2), 'reshape': (d, 2)}.get(name, (d,))
        assert getattr(nt, name)(*args) == getattr(numpy, name)(*args) == \
            ('duck-function', name)
    assert nt.sqrt(d) == numpy.sqrt(d) == ('duck-ufunc', 'sqrt', '__call__')
    assert nt.add(nt.arange(2), d) == numpy.add(numpy.arange(2), d)
    assert nt.add.reduce(d) == numpy.add.reduce(d) == ('duck-ufunc', 'add', 'reduce')


def test_array_function_objects_dispatch_in_submodules():
    # NumPy's stride_tricks.sliding_window_view takes __array_function__
    # (ndtile's read the object as an array: pint's Quantity lost its units);
    # as_strided and random's functions take none
    d = Duck([1, 2, 3])
    got = nt.lib.stride_tricks.sliding_window_view(d, 2)
    assert got == numpy.lib.stride_tricks.sliding_window_view(d, 2) == \
        ('duck-function', 'sliding_window_view')
    assert nt.linalg.norm(d) == numpy.linalg.norm(d) == ('duck-function', 'norm')
    assert nt.fft.fft(d) == numpy.fft.fft(d) == ('duck-function', 'fft')
    m = numpy.ma.MaskedArray(numpy.arange(4.0), mask=[0, 1, 0, 0])
    for mod in (nt, numpy):
        w = mod.lib.stride_tricks.sliding_window_view(m, 2, subok=True)
        assert type(w) is numpy.ma.MaskedArray   # NumPy's: the subclass kept
    a = nt.arange(6.0)[::2]
    w = nt.lib.stride_tricks.sliding_window_view(a, 2)
    assert type(w) is nt.ndarray and nt.shares_memory(w, a)
    numpy.testing.assert_array_equal(
        numpy.asarray(w), numpy.lib.stride_tricks.sliding_window_view(numpy.arange(6.0)[::2], 2))
    s = nt.lib.stride_tricks.as_strided(a, (2,), (16,))
    assert type(s) is nt.ndarray


def test_numpy_function_on_mixed_ndtile_and_masked():
    # numpy's own functions called with ndtile arrays and a masked array
    m = masked(numpy)
    x = nt.arange(5)
    got = numpy.concatenate([x, m])
    want = numpy.concatenate([numpy.arange(5), m])
    same_masked(got, want)
    same_masked(numpy.add(x, m), numpy.add(numpy.arange(5), m))


def test_plain_calls_stay_native():
    # the check lets exact ndtile/NumPy arrays and scalars through to
    # ndtile's own code: results are ndtile arrays, no warning
    a = nt.arange(6.0)
    assert type(nt.sum(a, axis=0, keepdims=True)) is nt.ndarray
    assert type(nt.concatenate([a, numpy.arange(2.0)])) is nt.ndarray
    assert type(nt.sqrt(numpy.arange(3.0))) is nt.ndarray
    assert type(nt.add(a, 1)) is nt.ndarray
    assert nt.sum.__wrapped__ is not None and nt.sum.__name__ == 'sum'


def test_np_ma_on_ndtile_arrays_at_default_tiles():
    run_default("""
        import numpy, ndtile as np
        n = 400_000
        x = np.arange(n) - 3; xn = numpy.arange(n) - 3
        assert x._ntiles > 1
        m = np.ma.masked_where(x < 0, x); mn = numpy.ma.masked_where(xn < 0, xn)
        assert type(m) is numpy.ma.MaskedArray
        assert float(np.mean(m)) == float(numpy.mean(mn))
        assert int(np.sum(m)) == int(numpy.sum(mn)) and int(np.min(m)) == int(numpy.min(mn))
        r = np.sqrt(m); rn = numpy.sqrt(mn)
        assert type(r) is numpy.ma.MaskedArray and (r.mask == rn.mask).all()
        s = x + m
        assert type(s) is numpy.ma.MaskedArray and bool((s == xn + mn).all())
        shared = np.ma.MaskedArray(x, mask=x < 0)
        shared[10] = -5
        assert int(x[10]) == -5            # MaskedArray(x) shares x's memory
        assert float(np.ma.median(m)) == float(numpy.ma.median(mn))
    """)


def test_entry_check_keeps_functions_functions():
    import inspect
    import pickle
    for f in (nt.sum, nt.concatenate, nt.linalg.norm, nt.fft.fft):
        assert pickle.loads(pickle.dumps(f)) is f
        assert f.__name__ == f.__wrapped__.__name__
        assert inspect.signature(f) == inspect.signature(f.__wrapped__)
    # a type the check has not seen is judged once (numpy scalars: plain)
    assert type(nt.add(nt.arange(3), numpy.float32(1))) is nt.ndarray
    assert type(nt.sum(nt.arange(3), dtype=numpy.int32)) is numpy.int32


def test_self_containing_list_does_not_hang():
    # The entry check looks into nested lists by their first element; a list
    # that holds itself once made that walk endless (np.array hung in C, a
    # ufunc recursed in Python). NumPy makes an object array 64 dimensions
    # deep; ndtile returns NumPy's array for the object dtype.
    code = """
        import numpy, ndtile as nt
        l = []
        l.append(l)
        for args in (([l, l, l],), ([l],), (l,)):
            want = numpy.array(*args, dtype=object)
            got = nt.array(*args, dtype=object)
            assert got.shape == want.shape and got.dtype == want.dtype, got.shape
            assert nt.asarray(*args, dtype=object).shape == want.shape
        for f in (lambda m: m.equal([l], [l]), lambda m: m.concatenate([[l], [l]]),
                  lambda m: m.add((l, l), 1)):
            kinds = []
            for m in (numpy, nt):
                try:
                    f(m)
                    kinds.append(None)
                except Exception as e:
                    kinds.append(type(e))
            assert kinds[0] is kinds[1], kinds
        # plain nested lists still go to ndtile, a masked array in a list to NumPy
        assert type(nt.add([[1, 2]], 1)) is nt.ndarray
        ma = numpy.ma.array([1, 2], mask=[0, 1])
        assert type(nt.concatenate([ma, ma])) is numpy.ma.MaskedArray
        print("ok")
    """
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0 and "ok" in r.stdout, r.stdout + r.stderr


def mixin_array_like(m):
    """NumPy's NDArrayOperatorsMixin docstring example, written against the
    module m (as a program under import ndtile as np writes it): it handles
    m.ndarray and numbers, and declines anything else."""

    class ArrayLike(m.lib.mixins.NDArrayOperatorsMixin):
        _HANDLED_TYPES = (m.ndarray, numbers.Number)

        def __init__(self, value):
            self.value = m.asarray(value)

        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
            for x in inputs + kwargs.get('out', ()):
                if not isinstance(x, self._HANDLED_TYPES + (ArrayLike,)):
                    return NotImplemented
            inputs = tuple(x.value if isinstance(x, ArrayLike) else x for x in inputs)
            if 'out' in kwargs:
                kwargs['out'] = tuple(x.value if isinstance(x, ArrayLike) else x
                                      for x in kwargs['out'])
            r = getattr(ufunc, method)(*inputs, **kwargs)
            if type(r) is tuple:
                return tuple(ArrayLike(x) for x in r)
            return None if method == 'at' else ArrayLike(r)

    return ArrayLike


@pytest.mark.parametrize('dtype', ['int64', 'float64', 'complex128', 'bool'])
@pytest.mark.parametrize('shape', [(), (0,), (6,), (3, 4)])
def test_overrides_written_for_ndtile_arrays(dtype, shape):
    # an __array_ufunc__ class that handles m.ndarray (and so declines NumPy's
    # arrays under ndtile) gets ndtile's arrays and ufunc when an ndtile array
    # meets it: ndtile gave NumPy copies of the arrays and raised TypeError
    # ("operand type(s) all returned NotImplemented")
    def run(m):
        W = mixin_array_like(m)
        base = (m.arange(2 * max(1, int(numpy.prod(shape)))) % 3).astype(dtype)[::2]
        a = base[:int(numpy.prod(shape))].reshape(shape)   # a strided view
        w = W(m.ones(shape, dtype=dtype))
        res = [a + w, w + a, a * w, m.add(a, w), m.maximum(w, a), a == w, m.add.outer(a, w)]
        if dtype != 'bool':
            res.append(m.subtract(a, w))
        if a.ndim == 1:
            res += [a @ w, m.matmul(w, a), m.add.accumulate(W(a))]
        if a.ndim == 1 and dtype != 'bool':
            v = W(m.array(a))
            m.negative.at(v, m.array([0, 0]) if a.size else m.array([], dtype=int))
            res.append(v)
        c = m.array(a)
        c += w                   # c is now a W over the array it wrote into
        res.append(c)
        return [(type(r).__name__, type(r.value), r.value.dtype, numpy.asarray(r.value))
                for r in res]
    for (n1, t1, d1, v1), (n2, t2, d2, v2) in zip(run(nt), run(numpy), strict=True):
        assert n1 == n2 == 'ArrayLike'
        assert (t1, t2) == (nt.ndarray, numpy.ndarray)
        assert d1 == d2
        numpy.testing.assert_array_equal(v1, v2)


def test_declining_overrides_without_ndtile_operands_are_asked_once():
    # NumPy asks each operand's __array_ufunc__ once; when every one declined
    # and no operand was an ndtile array, ndtile asked them all a second time
    # (its retry with ndtile's ufunc and arrays, for classes written for
    # ndtile's arrays), so a counting override saw two calls
    # (NumPy's test_umath.py::TestSpecialMethods::test_ufunc_override_mro)
    def run(m):
        class C:
            def __init__(self):
                self.count = 0

            def __array_ufunc__(self, func, method, *inputs, **kwargs):
                self.count += 1
                return NotImplemented

        class CSub(C):
            pass

        class A:
            def __array_ufunc__(self, func, method, *inputs, **kwargs):
                return "A"

        counts = []
        for call in (lambda c, d: m.multiply(c, d), lambda c, d: m.multiply(2, c),
                     lambda c, d: m.add(c, c), lambda c, d: m.add.reduce(c),
                     lambda c, d: m.negative(c, out=(d,)), lambda c, d: m.add.outer(c, d)):
            c, d = C(), CSub()
            try:
                r = call(c, d)
            except TypeError as e:
                r = type(e).__name__
            counts.append((r, c.count, d.count))
        c = C()
        counts.append((m.multiply(c, A()), c.count))
        return counts

    assert run(nt) == run(numpy)


@pytest.mark.parametrize("big", [False, pytest.param(True, marks=pytest.mark.default_settings)])
def test_copy_false_of_a_numpy_subclass_raises_as_for_a_numpy_array(tmp_path, big):
    # np.asarray(memmap, copy=False) ran NumPy's asarray (a view of the map)
    # and then copied the view into tiles: the promise of no copy broken
    # silently, writes through the result missing the file. ndtile copies
    # every NumPy array into tiles (design.md), so copy=False raises NumPy's
    # ValueError, as for a plain NumPy array; without copy=False the values
    # are NumPy's (deviations.md 22)
    n = 300 * 1024 if big else 12          # 2.4 MiB of float64 at default settings
    mm = numpy.memmap(tmp_path / "m.dat", dtype=numpy.float64, mode="w+", shape=(n,))
    mm[:] = numpy.arange(n)
    objs = [mm, mm[::3], numpy.ma.MaskedArray(numpy.arange(n), mask=numpy.arange(n) % 2),
            numpy.arange(n)]
    for x in objs:
        for fn in (nt.asarray, nt.array):
            with pytest.raises(ValueError, match="Unable to avoid copy"):
                fn(x, copy=False)
            for kw in ({}, {'copy': None}, {'copy': True}):
                r = fn(x, **kw)
                assert type(r) is nt.ndarray
                assert numpy.array_equal(numpy.asarray(r), numpy.asarray(x))
        if type(x) is numpy.ndarray:
            continue
        # a subclass NumPy keeps (asanyarray), and copy=False where it means
        # "if it can be avoided" (astype, meshgrid): NumPy's result
        assert type(nt.asanyarray(x, copy=False)) is type(numpy.asanyarray(x, copy=False))
        r, want = nt.astype(x, numpy.float32, copy=False), numpy.astype(x, numpy.float32,
                                                                       copy=False)
        assert numpy.array_equal(numpy.asarray(r), numpy.asarray(want))
        nt.meshgrid(x[:3], x[:2], copy=False)      # views where it can: no error
    del mm


def quantity_like(m):
    """An array-like with its own protocols whose __array__ gives the
    module's array (pint's Quantity under `import ndtile as np`: an ndtile
    array) and whose __array_function__ declines what it does not know."""
    class Q:
        def __init__(self, v):
            self.v = v

        def __array__(self, dtype=None, copy=None):
            return m.asarray(self.v, dtype=dtype)

        def __array_function__(self, func, types, args, kwargs):
            return NotImplemented

        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
            return NotImplemented
    return Q


@pytest.mark.parametrize('dtype', ['int64', 'float64', 'complex128', 'bool'])
@pytest.mark.parametrize('shape', [(), (0,), (6,), (3, 4)])
@pytest.mark.parametrize("big", [False, pytest.param(True, marks=pytest.mark.default_settings)])
def test_constructors_of_objects_whose_array_is_ndtiles(dtype, shape, big):
    # np.asarray(obj) calls obj.__array__ whatever obj's __array_function__
    # (NumPy's constructors take none): ndtile sent such an object to NumPy's
    # asarray, which refused the ndtile array its __array__ gave ("object
    # __array__ method not producing an array": pint's np.asarray(q)), and
    # a.put's values took NumPy's asarray too (pint's q.put(i, [1.0, 2.0]))
    if big:
        shape = (300 * 1024,) if len(shape) == 1 else shape   # 2.4 MiB of float64
    n = int(numpy.prod(shape))

    def run(m):
        Q = quantity_like(m)
        base = (m.arange(2 * max(1, n)) % 3).astype(dtype)[::2]
        q = Q(base[:n].reshape(shape))            # a strided view
        res = [m.asarray(q), m.asarray(q, dtype=numpy.float32), m.array(q),
               m.array(q, dtype='f8', ndmin=2), m.asanyarray(q), m.ascontiguousarray(q),
               m.asfortranarray(q)]
        if shape:
            res.append(m.array([q, q]))     # (NumPy's TypeError for 0-d ones)
        a = m.zeros(max(n, 2), dtype=dtype)
        a.put([0, 1], Q(m.ones(2, dtype=dtype)))    # the method: no dispatch on values
        res.append(a)
        return res
    for got, want in zip(run(nt), run(numpy), strict=True):
        assert type(got) is nt.ndarray, type(got)
        assert got.dtype == want.dtype and got.shape == want.shape
        numpy.testing.assert_array_equal(numpy.asarray(got), want)


def wrapping_like(m):
    """A Quantity-like: __array__ gives the module's array, __array_ufunc__
    computes on the magnitudes and wraps the result (pint's)."""
    class W:
        def __init__(self, v):
            self.v = v

        def __array__(self, dtype=None, copy=None):
            return m.asarray(self.v, dtype=dtype)

        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
            ins = [x.v if isinstance(x, W) else x for x in inputs]
            return W(getattr(ufunc, method)(*ins, **kwargs))

        def __matmul__(self, other):
            return m.matmul(self, other)

        def __rmatmul__(self, other):
            return m.matmul(other, self)
    return W


@pytest.mark.parametrize('dtype', ['int64', 'float64', 'complex128', 'bool'])
@pytest.mark.parametrize('shapes', [((3, 4), (4, 2)), ((4,), (4, 3)), ((2, 3, 4), (4,)),
                                    ((0, 3), (3, 0))])
@pytest.mark.parametrize("big", [False, pytest.param(True, marks=pytest.mark.default_settings)])
def test_matmul_with_an_array_ufunc_object_whose_array_is_ndtiles(dtype, shapes, big):
    # matmul's fast path read such an operand through its __array__ (units
    # stripped: pint's A @ B gave a plain array) instead of its __array_ufunc__
    s1, s2 = shapes
    if big:
        s1, s2 = (600, 600), (600, 2)            # 2.7 MiB of float64

    def run(m):
        W = wrapping_like(m)
        n1, n2 = int(numpy.prod(s1)), int(numpy.prod(s2))
        a = (m.arange(2 * max(n1, 1)) % 5 - 2).astype(dtype)[::2][:n1].reshape(s1)
        b = (m.arange(n2) % 3 - 1).astype(dtype).reshape(s2)
        res = [m.matmul(W(a), b), m.matmul(a, W(b)), W(a) @ b, a @ W(b), m.matmul(W(a), W(b))]
        return [(type(r).__name__, r.v) for r in res]
    for (n1, v1), (n2, v2) in zip(run(nt), run(numpy), strict=True):
        assert n1 == n2 == 'W'
        assert type(v1) is nt.ndarray and v1.dtype == v2.dtype and v1.shape == v2.shape
        numpy.testing.assert_array_equal(numpy.asarray(v1), v2)


class _ArrayOf:
    """An object whose __array__ hands back a given array (nibabel's
    ArrayProxy hands back a numpy.memmap)."""
    def __init__(self, arr):
        self.arr = arr

    def __array__(self, dtype=None, copy=None):
        return self.arr


@pytest.mark.parametrize('dtype', [None, 'f8', 'i2'])
def test_asanyarray_keeps_the_subclass_array_gives(tmp_path, dtype):
    """asanyarray of an object whose __array__ gives a NumPy subclass
    instance (a memmap, a masked array) is that subclass, as NumPy's;
    a plain result, and asarray, give ndtile arrays."""
    fn = str(tmp_path / 'x.bin')
    numpy.arange(6, dtype='i2').tofile(fn)
    mm = numpy.memmap(fn, dtype='i2', mode='r', shape=(2, 3))
    ma = numpy.ma.masked_array([1, 2, 3], [0, 1, 0])
    for src in (mm, mm[:, ::2], ma):
        want = numpy.asanyarray(_ArrayOf(src), dtype)
        got = nt.asanyarray(_ArrayOf(src), dtype)
        assert type(got) is type(want)
        assert got.dtype == want.dtype and got.shape == want.shape
        numpy.testing.assert_array_equal(got, want)
        assert numpy.shares_memory(got, src) == numpy.shares_memory(want, src)
        assert type(nt.asarray(_ArrayOf(src), dtype)) is nt.ndarray
    plain = numpy.arange(4.0)
    got = nt.asanyarray(_ArrayOf(plain), dtype)
    assert type(got) is nt.ndarray
    numpy.testing.assert_array_equal(got, numpy.asanyarray(_ArrayOf(plain), dtype))
    got = nt.asanyarray(_ArrayOf(nt.arange(3)), dtype)
    assert type(got) is nt.ndarray and got.dtype == (numpy.dtype(dtype) if dtype else numpy.int64)
    del mm
