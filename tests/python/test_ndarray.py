"""ndarray attributes, methods and conversions against numpy.ndarray."""
import copy
import inspect
import operator
import pickle
import warnings

import numpy as np
import pytest

import ndtile as nt
from _helpers import DTYPES, NAMES, make, assert_same, check_same_error


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_attributes(dt):
    for shape in [(), (0,), (1,), (3, 4), (2, 3, 5), (1000,)]:
        a = make(dt, shape)
        x = nt.asarray(a)
        assert isinstance(x, nt.ndarray)
        assert x.shape == a.shape and type(x.shape) is tuple
        assert x.dtype == a.dtype and isinstance(x.dtype, np.dtype)
        assert x.dtype is a.dtype or x.dtype == a.dtype
        assert x.ndim == a.ndim and x.size == a.size
        assert x.itemsize == a.itemsize and x.nbytes == a.nbytes
        assert x.strides == a.strides
        assert_same(x.T, a.T)
        assert_same(x.real, a.real)
        assert_same(x.imag, a.imag)
        if a.ndim >= 2:
            assert_same(x.mT, a.mT)


def test_dtype_objects_are_numpy():
    assert nt.float32 is np.float32
    assert nt.dtype is np.dtype
    assert nt.int64 is np.int64 and nt.bool_ is np.bool_ and nt.complex128 is np.complex128
    assert nt.pi == np.pi and nt.e == np.e and nt.inf == np.inf and nt.nan != nt.nan
    assert nt.newaxis is None
    assert nt.finfo is np.finfo and nt.iinfo is np.iinfo
    assert nt.zeros(3, dtype=nt.float32).dtype == np.float32
    assert nt.zeros(3, dtype='i2').dtype == np.int16
    assert nt.zeros(3, dtype=float).dtype == np.float64
    assert nt.zeros(3, dtype=complex).dtype == np.complex128
    assert nt.zeros(3, dtype=bool).dtype == np.bool_


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_astype(dt):
    a = make(dt, (5, 6))
    x = nt.asarray(a)
    for to in DTYPES:
        assert_same(x.astype(to), a.astype(to))
        assert_same(x[::2, ::-1].astype(to), a[::2, ::-1].astype(to))
        for casting in ('safe', 'same_kind'):
            raised, exp = check_same_error(lambda: x.astype(to, casting=casting),
                                           lambda: a.astype(to, casting=casting))
            if not raised:
                assert_same(x.astype(to, casting=casting), exp)
    assert x.astype(dt, copy=False) is x
    assert_same(nt.astype(x, np.float32), a.astype(np.float32))
    h = x.astype(np.float16)
    assert type(h) is np.ndarray and h.dtype == np.float16


def test_copy_fill_view():
    a = make(np.float64, (4, 5))
    x = nt.asarray(a)
    c = x.copy()
    c[0, 0] = 100
    assert x[0, 0] == a[0, 0]
    v = x.view()
    v[0, 0] = 100
    assert x[0, 0] == 100
    x.fill(3)
    assert_same(x, np.full((4, 5), 3.0))
    x[1].fill(-1.5)
    e = np.full((4, 5), 3.0)
    e[1] = -1.5
    assert_same(x, e)
    xi = nt.zeros(3, np.int8)
    xi.fill(2.7)
    assert_same(xi, np.array([2, 2, 2], np.int8))
    assert_same(copy.copy(x), e)
    assert_same(copy.deepcopy(x), e)


def test_copy_module_keeps_layout():
    # copy.copy / copy.deepcopy are NumPy's a.copy(order='K'): a Fortran-ordered
    # array (or a transposed view) stays Fortran-ordered
    for shape in [(3, 4), (300, 200)]:
        a = make(np.float64, shape)
        for src in (np.asfortranarray(a), a.T, a, a[::2, ::-1], a[:, 1:]):
            x = nt.asarray(src)
            for f in (copy.copy, copy.deepcopy):
                got, want = f(x), f(src)
                assert_same(got, want)
                assert got.flags.c_contiguous == want.flags.c_contiguous
                assert got.flags.f_contiguous == want.flags.f_contiguous
                assert not nt.shares_memory(got, x)


def test_reshape_ravel_flatten_transpose():
    a = make(np.int32, (4, 6))
    x = nt.asarray(a)
    for shape in [(24,), (6, 4), (2, 3, 4), (-1,), (3, -1), (1, 24, 1)]:
        assert_same(x.reshape(shape), a.reshape(shape))
        assert_same(x.reshape(*shape), a.reshape(*shape))
        assert_same(nt.reshape(x, shape), np.reshape(a, shape))
        assert_same(x.T.reshape(shape), a.T.reshape(shape))
    with pytest.raises(ValueError):
        x.reshape(5, 5)
    assert_same(x.ravel(), a.ravel())
    assert_same(x.T.ravel(), a.T.ravel())
    assert_same(x.flatten(), a.flatten())
    assert_same(x.transpose(), a.transpose())
    assert_same(x.transpose(1, 0), a.transpose(1, 0))
    b = make(np.float64, (2, 3, 4))
    y = nt.asarray(b)
    for axes in [(0, 1, 2), (2, 0, 1), (-1, 0, 1), (1, 2, 0)]:
        assert_same(y.transpose(axes), b.transpose(axes))
        assert_same(nt.transpose(y, axes), np.transpose(b, axes))
    with pytest.raises(ValueError):
        y.transpose(0, 1)
    assert_same(y.swapaxes(0, 2), b.swapaxes(0, 2))
    assert_same(nt.moveaxis(y, 0, -1), np.moveaxis(b, 0, -1))
    # a view where NumPy gives one: writes land in the base
    r = x.reshape(6, 4)
    r[0, 0] = 1000
    assert x[0, 0] == 1000


def test_squeeze_expand_dims():
    a = make(np.float32, (1, 3, 1, 4))
    x = nt.asarray(a)
    assert_same(x.squeeze(), a.squeeze())
    assert_same(x.squeeze(0), a.squeeze(0))
    assert_same(x.squeeze((0, 2)), a.squeeze((0, 2)))
    assert_same(nt.squeeze(x, axis=-2), np.squeeze(a, axis=-2))
    with pytest.raises(ValueError):
        x.squeeze(1)
    for axis in [0, -1, 2, (0, 1), (0, -1)]:
        assert_same(nt.expand_dims(x, axis), np.expand_dims(a, axis))


@pytest.mark.parametrize("n", [30, 40000])
def test_clip_two_python_int_bounds(n, request):
    """Two Python scalar bounds (and where's two scalar branches) each get
    their own weak 0-d array: the binding's scalar cache could evict and
    free the first bound for the second (clip(int64, 0, 34) raised
    'invalid dtype <garbage>', a read of freed memory)."""
    if n > 32768:
        request.getfixturevalue("default_settings")
    a = np.arange(n, dtype=np.int64) % 97 - 20
    x = nt.asarray(a)
    for lo in range(0, 40, 3):
        for hi in (lo, lo + 1, 34, 64, 90):
            assert_same(nt.clip(x, lo, hi), np.clip(a, lo, hi))
            assert_same(x[::-2].clip(lo, float(hi)), a[::-2].clip(lo, float(hi)))
    c = a % 3 == 0
    for u, v in [(0, 34), (1, 2), (7.5, -1), (True, 3)]:
        assert_same(nt.where(nt.asarray(c), u, v), np.where(c, u, v))


def test_clip_round():
    for dt in DTYPES:
        a = make(dt, (30,))
        x = nt.asarray(a)
        for lo, hi in [(-2, 3), (None, 2), (0, None), (1.5, 2.5)]:
            raised, exp = check_same_error(lambda: x.clip(lo, hi), lambda: a.clip(lo, hi))
            if not raised:
                assert_same(x.clip(lo, hi), exp)
                assert_same(nt.clip(x, lo, hi), np.clip(a, lo, hi))
        if dt.kind in 'fc':
            for d in (0, 1, 2, -1):
                assert_same(x.round(d), a.round(d), 1e-6 if dt.itemsize <= 8 else 1e-13)
                assert_same(nt.round(x, d), np.round(a, d), 1e-6 if dt.itemsize <= 8
                            else 1e-13)
        elif dt.kind in 'iu':
            assert_same(x.round(), a.round())
            assert_same(nt.around(x, 1), np.around(a, 1))
    lo = make(np.float64, (30,), 1)
    hi = lo + 5
    a = make(np.float64, (30,), 2)
    assert_same(nt.clip(nt.asarray(a), nt.asarray(lo), nt.asarray(hi)), np.clip(a, lo, hi))


def test_tolist_item():
    for dt in DTYPES:
        a = make(dt, (3, 4))
        x = nt.asarray(a)
        assert x.tolist() == a.tolist()
        assert x.item(5) == a.item(5) and type(x.item(5)) is type(a.item(5))
        assert x.item(1, 2) == a.item(1, 2)
        assert x[1:2, 2:3].item() == a[1:2, 2:3].item()
        assert nt.asarray(a[0, 0]).tolist() == a[0, 0].tolist()
    with pytest.raises(ValueError):
        nt.zeros(3).item()


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_scalar_conversions(dt):
    a = make(dt, (), seed=4)
    x = nt.asarray(a)
    for f in (bool, float, complex):
        raised, exp = check_same_error(lambda: f(x), lambda: f(a))
        if not raised:
            assert f(x) == exp
    raised, exp = check_same_error(lambda: int(x), lambda: int(a))
    if not raised:
        assert int(x) == exp
    raised, exp = check_same_error(lambda: operator.index(x), lambda: operator.index(a))
    if not raised:
        assert operator.index(x) == exp
    one = make(dt, (1, 1))
    y = nt.asarray(one)
    assert bool(y) == bool(one)
    for f in (int, float, complex, bool, operator.index):
        check_same_error(lambda: f(nt.asarray(make(dt, (3,)))), lambda: f(make(dt, (3,))))
        check_same_error(lambda: f(nt.asarray(make(dt, (0,)))), lambda: f(make(dt, (0,))))
        check_same_error(lambda: f(y), lambda: f(one))


def test_truth_value_errors():
    with pytest.raises(ValueError, match="ambiguous"):
        bool(nt.arange(3))
    with pytest.raises(ValueError):
        bool(nt.zeros(0))
    assert [10, 20, 30][nt.asarray(1)] == 20
    assert range(10)[nt.asarray(np.int8(3))] == 3


def test_pickle():
    a = make(np.complex64, (5, 3))
    x = nt.asarray(a)
    y = pickle.loads(pickle.dumps(x))
    assert isinstance(y, nt.ndarray)
    assert_same(y, a)


def test_contains_and_format():
    x = nt.arange(5)
    assert 3 in x and 7 not in x
    assert f"{nt.asarray(1.5):.2f}" == "1.50"
    assert f"{nt.arange(3)}" == str(np.arange(3))
    with pytest.raises(TypeError):
        f"{nt.arange(3):.2f}"


def test_method_fallbacks_work(fallback_warnings):
    a = make(np.float64, (4, 5))
    x = nt.asarray(a)
    assert_same(x.cumsum(axis=1), a.cumsum(axis=1), 1e-12)    # native now: no warning
    assert_same(x.diagonal(), a.diagonal())    # native now: no warning
    assert_same(x.compress([True, False, True], axis=1), a.compress([True, False, True],
                                                                    axis=1))   # native
    assert_same(x.byteswap(), a.byteswap())    # native now: no warning
    with pytest.warns(RuntimeWarning):
        assert_same(x.getfield(np.int64), a.getfield(np.int64))
    assert_same(x.argsort(axis=0), a.argsort(axis=0))    # native now: no warning
    y = x.copy()
    b = a.copy()
    y.sort(axis=1)
    b.sort(axis=1)
    assert_same(y, b)
    r = x.nonzero()         # native now: no warning
    assert_same(r, a.nonzero())
    assert_same(x.dot(nt.asarray(a.T)), a.dot(a.T), 1e-12)


@pytest.mark.parametrize("shape", [(3, 4), (600, 400)])
def test_astype_copy_false_keeps_self_only_in_the_asked_layout(shape):
    # copy=False returns the array itself only when order's layout holds
    # ('F' of a C array copies into Fortran order); _CopyMode is refused
    a = np.arange(np.prod(shape), dtype=np.float64).reshape(shape)
    x = nt.asarray(a)
    for o in "KACF":
        for (va, vx) in ((a, x), (a.T, x.T), (a[:, ::2], x[:, ::2])):
            r, q = va.astype(np.float64, order=o, copy=False), vx.astype(np.float64, order=o, copy=False)
            assert (r is va) == (q is vx), (o, va.shape)
            assert (r.flags.c_contiguous, r.flags.f_contiguous) == \
                (q.flags.c_contiguous, q.flags.f_contiguous), (o, va.shape)
            np.testing.assert_array_equal(np.asarray(q), r)
    with pytest.raises(ValueError, match="_CopyMode enum is not allowed"):
        x.astype(np.float32, copy=np._CopyMode.NEVER)


@pytest.mark.parametrize("shape", [(2, 3), (0, 3), (3, 0, 2), (), (200, 201)])
def test_flatiter_protocol(shape):
    # a.flat is its own iterator with NumPy's read-only index, coords and
    # base (index was writable and missing, coords missing, iter(it) a new
    # iterator); del it[k] is NumPy's TypeError; __array__ is read-only
    # unless NumPy's would be a view of a writeable contiguous array
    def steps(m):
        a = m.arange(int(np.prod(shape))).reshape(shape)
        it = a.flat
        out = [it.index, it.coords, iter(it) is it, len(it)]
        if a.size:
            out += [int(next(it)), it.index, it.coords]
        out += [sum(1 for _ in it), it.index, it.coords, list(it)]
        for attr in ('base', 'coords', 'index'):
            with pytest.raises(AttributeError):
                setattr(it, attr, 3)
        with pytest.raises(TypeError, match="Cannot delete iterator elements"):
            del it[0]
        ro = m.arange(6)
        ro.flags.writeable = False
        out += [a.flat.__array__().flags.writeable, ro.flat.__array__().flags.writeable,
                m.arange(6)[::2].flat.__array__().flags.writeable]
        return out
    assert steps(nt) == steps(np)


@pytest.mark.parametrize("dt", [np.complex128, np.float64, np.int32])
def test_conj_method_out(dt):
    # a.conj(out) / a.conjugate(out): NumPy's methods take an output array
    # positionally (ndtile's took no argument: TypeError)
    a = (np.arange(40000) * (1 - 2j)).astype(dt) if dt == np.complex128 else \
        np.arange(40000).astype(dt)
    x = nt.asarray(a)
    for name in ('conj', 'conjugate'):
        o = nt.empty_like(x)
        assert getattr(x, name)(o) is o
        assert_same(o, np.conjugate(a))
        o2 = nt.empty(20000, dtype=dt)
        getattr(x[::-2], name)(o2)
        assert_same(o2, np.conjugate(a[::-2]))
        for m, arr in ((np, a), (nt, x)):
            with pytest.raises(TypeError, match="at most 1 argument"):
                getattr(arr, name)(m.empty_like(arr), m.empty_like(arr))
            with pytest.raises(TypeError, match="output must be an array"):
                getattr(arr, name)(3)
    assert (x.conj() is x) == (a.conj() is a)


@pytest.mark.parametrize("name", ["astype", "byteswap"])
def test_cast_method_signatures_are_numpys(name):
    # NumPy's text signatures: self positional-only (NumPy's own test)
    assert inspect.signature(getattr(nt.ndarray, name)) == \
        inspect.signature(getattr(np.ndarray, name))


def _ownership(r):
    return (bool(r.flags.owndata), r.base is None, bool(r.flags.c_contiguous), r.dtype.str,
            r.shape)


_NEW_ARRAYS = [
    lambda xp, a, b: a + 1, lambda xp, a, b: xp.sin(a), lambda xp, a, b: a * 2 + 1,
    lambda xp, a, b: a == 1, lambda xp, a, b: -a, lambda xp, a, b: a.sum(axis=0),
    lambda xp, a, b: a.max(axis=1), lambda xp, a, b: a.any(axis=0),
    lambda xp, a, b: a.argmax(axis=0), lambda xp, a, b: xp.count_nonzero(a, axis=0),
    lambda xp, a, b: a.mean(axis=0), lambda xp, a, b: xp.repeat(b, 2),
    lambda xp, a, b: xp.repeat(a, 3, axis=1), lambda xp, a, b: xp.repeat(a, 2, axis=0),
    lambda xp, a, b: xp.searchsorted(b, b[::2]), lambda xp, a, b: xp.vander(b[:6]),
    lambda xp, a, b: xp.vander(b[:6], 4, increasing=True), lambda xp, a, b: xp.vander(b[:6], 1),
    lambda xp, a, b: xp.digitize(b, b[:3]), lambda xp, a, b: xp.vecdot(a, a)]


@pytest.mark.parametrize("n", [6, pytest.param(300000, marks=pytest.mark.default_settings)])
@pytest.mark.parametrize("dt", ['int32', 'float64'])
def test_new_arrays_own_their_data(n, dt):
    """The arrays NumPy makes new (ufunc results, reductions over an axis,
    repeat, searchsorted, vander) own their data (flags.owndata, .base None)
    and are C-ordered. ndtile's were views of an internal array: fused
    elementwise results of several tiles and reductions over axes named
    themselves as .base (x.base is x), repeat named its copy, vander was a
    reversed view."""
    for f in _NEW_ARRAYS:
        res = {}
        for xp in (np, nt):
            a = xp.asarray((np.arange(4 * n) % 7).astype(dt).reshape(4, n))
            b = xp.asarray(np.arange(n).astype(dt))
            res[xp.__name__] = _ownership(f(xp, a, b))
        assert res['ndtile'] == res['numpy'], (f.__code__.co_firstlineno, res)


def test_method_arguments_as_numpys():
    """ndarray.nonzero/tolist take self by position only, swapaxes and fill
    no keywords, conj(None) is conj() - NumPy's method signatures; a
    read-only attribute set or deleted raises NumPy's AttributeError."""
    for xp in (np, nt):
        a = xp.arange(6.0).reshape(2, 3)
        for f in (lambda: xp.ndarray.nonzero(self=a), lambda: xp.ndarray.tolist(self=a),
                  lambda: a.swapaxes(axis1=0, axis2=1), lambda: a.copy().fill(value=1)):
            with pytest.raises(TypeError):
                f()
        z = xp.asarray([1 + 2j, 3j])
        assert z.conj(None).tolist() == [1 - 2j, -3j]
        with pytest.raises(TypeError, match="output must be an array"):
            z.conj([1, 2])
    # every method's self is positional-only, as in NumPy's C methods
    for name in dir(np.ndarray):
        m = getattr(np.ndarray, name)
        if not callable(m) or not getattr(m, '__text_signature__', None) or \
                not m.__text_signature__.startswith('($self, /'):
            continue
        sig = inspect.signature(getattr(nt.ndarray, name))
        assert sig.parameters['self'].kind is inspect.Parameter.POSITIONAL_ONLY, name
    for name in ('ndim', 'size', 'itemsize', 'nbytes', 'T', 'mT', 'base', 'flags', 'data',
                 'ctypes', 'device', '__array_interface__'):
        msg = f"attribute '{name}' of 'numpy.ndarray' objects is not writable"
        for xp in (np, nt):
            a = xp.arange(4.0).reshape(2, 2)
            with pytest.raises(AttributeError, match=msg):
                setattr(a, name, 1)
            with pytest.raises(AttributeError, match=msg):
                delattr(a, name)


def _outcome(f):
    try:
        r = f()
    except Exception as e:       # the exception's class and message, as NumPy's
        return (type(e).__name__, str(e))
    return (type(r).__name__ if not hasattr(r, 'tolist') else np.asarray(r).tolist(),
            getattr(r, 'shape', None))


def test_constructor_array_arguments_and_to_device():
    """ndarray(shape, buffer=, strides=) with ndtile arrays of sizes or
    strides reads their values, as NumPy's (gh-2503's ValueError, not a
    TypeError from NumPy's constructor given an ndtile array); to_device
    with a stream or another device raises NumPy's ValueErrors."""
    res = {}
    for xp in (np, nt):
        x = xp.arange(10)

        def mk(size, offset, strides):
            return xp.ndarray(size, buffer=x, dtype=int, offset=offset * x.itemsize,
                              strides=strides * x.itemsize)
        # (buffer= lends the host memory of one process: on several ranks an
        # array has none of its own to lend: BufferError, docs/guide/ranks.md)
        out = [] if nt.nranks() > 1 else [_outcome(lambda: mk(*args)) for args in [
            (4, 4, -1), (4, 4, -2), (8, 3, 0), ((2, 3), 5, xp.array([-2, -3])), (0, 0, 10),
            (xp.array([2, 2]), 0, xp.array([2, 1])), (xp.array(3), 0, 1)]]
        out.append(_outcome(lambda: xp.ndarray(xp.array([2, 3])).shape))
        a = xp.arange(3)
        out += [_outcome(f) for f in (lambda: a.to_device('cpu', stream=None) is a,
                                      lambda: a.to_device('gpu'),
                                      lambda: a.to_device('gpu', stream=1),
                                      lambda: a.to_device('cpu', stream=1))]
        res[xp.__name__] = out
    assert res['ndtile'] == res['numpy']


def _set_strides(a, st):
    a.strides = st
    return a


@pytest.mark.parametrize("dt", [np.float64, np.int8, np.complex128, np.bool_, np.uint16])
def test_setting_strides(dt):
    # NumPy 2.4's deprecated setter: a DeprecationWarning, then the same
    # memory seen with the new strides in place (views too: writes reach the
    # base), or NumPy's TypeError/ValueError (out of the owner's memory)
    isz = np.dtype(dt).itemsize
    cases = [((12,), None, [(isz,), (2 * isz,), (-isz,), (0,), [3 * isz], 2 * isz, None, 'x',
                            (float(isz),), (isz, isz), (12 * isz,)]),
             ((12,), slice(None, None, 2), [(2 * isz,), (3 * isz,), (-2 * isz,), (isz,)]),
             ((12,), slice(6, None), [(-isz,), (isz,), (2 * isz,)]),
             ((3, 4), None, [(4 * isz, isz), (isz, 3 * isz), (0, isz), (isz, 0), (5 * isz, isz),
                             (-4 * isz, isz)]),
             ((12,), (slice(1, 11),), []),
             ((0, 3), None, [(isz, 2 * isz), (0, 0)]),
             ((), None, [(), (isz,)])]
    for shape, key, strides in cases:
        if key == (slice(1, 11),):
            shape, strides = (2, 5), [(5 * isz, isz), (isz, 2 * isz), (6 * isz, isz),
                                      (isz, 3 * isz)]
        for st in strides:
            a = make(dt, (12,) if shape == (2, 5) else shape)
            x = nt.asarray(a)
            if shape == (2, 5):
                a, x = a[1:11].reshape(2, 5), x[1:11].reshape(2, 5)
            elif key is not None:
                a, x = a[key], x[key]
            with pytest.warns(DeprecationWarning, match="Setting the strides"):
                err, _ = check_same_error(lambda: _set_strides(x, st),
                                          lambda: _set_strides(a, st))
            if err:
                continue
            with pytest.warns(DeprecationWarning, match="Setting the strides"):
                x.strides = st
            assert x.shape == a.shape
            if a.size:
                assert x.strides == a.strides
                assert_same(x, a)
                assert x.flags.c_contiguous == a.flags.c_contiguous
            if a.size and x.flags.writeable:
                x.flat[0] = a.flat[0] = a.flat[-1]     # the same memory as before
                base_x = x.base if x.base is not None else x
                base_a = a.base if a.base is not None else a
                assert_same(base_x, base_a)
    x = nt.arange(4.)
    with pytest.raises(AttributeError, match="Cannot delete array strides"):
        del x.strides
    x.flags.writeable = False
    with pytest.warns(DeprecationWarning):
        x.strides = (8,)
    assert not x.flags.writeable
    with pytest.warns(DeprecationWarning), \
            pytest.raises(ValueError, match="strides is not compatible with available memory"):
        x.strides = (16,)


def test_setting_strides_at_default_settings(default_settings):
    # an array of several 2 MiB tiles: the new view reads across them
    n = 600_000
    a = np.arange(n, dtype=np.float64)
    x = nt.arange(n, dtype=np.float64)
    y = x[::3]
    b = a[::3]
    with pytest.warns(DeprecationWarning):
        y.strides = (8 * 2,)
    with pytest.warns(DeprecationWarning):
        b.strides = (16,)
    assert_same(y, b)
    assert float(y.sum()) == float(b.sum())
    y[...] = -1
    b[...] = -1
    assert_same(x, a)
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="available memory"):
        y.strides = (24 * 2,)


def test_flat_assignment_into_a_view_with_shared_elements():
    # a view whose elements share memory (a 0 stride): a.flat[k] = v writes
    # the elements k selects, as NumPy's flatiter does (the others of the
    # gathered copy were written back over them)
    for key, value in [(0, 50), (5, 70), ([0, 1], 5), (slice(1, 3), [8, 9]), (-1, -1),
                       (np.array([True] + [False] * 10 + [True]), [3, 4]), (Ellipsis, 2)]:
        a = np.arange(12.)
        x = nt.arange(12.)
        y = np.lib.stride_tricks.as_strided(a, (3, 4), (0, 8))
        z = nt.lib.stride_tricks.as_strided(x, (3, 4), (0, 8))
        y.flat[key] = value
        z.flat[key] = value
        assert_same(z, y)
        assert_same(x, a)


@pytest.mark.parametrize("dt", [np.float64, np.int32, np.complex64, np.bool_])
def test_flat_assignment_costs_the_selected_elements(dt):
    # a.flat[k] = v on a base that ravels to a copy reads and writes only the
    # elements k selects (it ravelled the base and built arange(base.size)):
    # a 0-stride view of 10**12 elements, as NumPy's flatiter, in a moment
    for key, value in [(5, 1), (-1, 2), ([7, 10 ** 12 - 3, 7], [3, 4, 5]),
                       (slice(10 ** 12 - 5, None, 2), 6), (slice(4, 0, -1), [1, 0]),
                       (np.array([[2, 3]]), 9), (np.int64(10 ** 12 - 1), 0)]:
        a = np.zeros(4, dt)
        x = nt.zeros(4, dt)
        y = np.lib.stride_tricks.as_strided(a, (10 ** 6, 10 ** 6), (0, 0))
        z = nt.lib.stride_tricks.as_strided(x, (10 ** 6, 10 ** 6), (0, 0))
        y.flat[key] = value
        z.flat[key] = value
        assert_same(x, a)
        w = nt.lib.stride_tricks.as_strided(x, (2, 10 ** 6, 5 * 10 ** 5), (0, 0, 0))[:, ::-1]
        w.flat[key] = 1
        np.lib.stride_tricks.as_strided(a, (2, 10 ** 6, 5 * 10 ** 5), (0, 0, 0))[:, ::-1] \
            .flat[key] = 1
        assert_same(x, a)


@pytest.mark.skipif(nt.nranks() > 1, reason="an array over a buffer is one process's "
                    "memory (on ranks: a copy, or BufferError; docs/guide/ranks.md)")
@pytest.mark.parametrize("make_buffer", [
    lambda: bytearray(np.arange(10.).tobytes()), lambda: np.arange(10.),
    lambda: nt.arange(10.), lambda: bytes(np.arange(10.).tobytes())])
def test_strides_of_an_array_over_a_buffer_reach_the_whole_buffer(make_buffer):
    # NumPy's available memory of ndarray(buffer=...) and frombuffer is the
    # buffer's, before the offset too (ndtile's store was the array's bytes)
    for make, n, off in ((lambda m, b: m.ndarray((4,), 'f8', buffer=b, offset=32), 4, 32),
                         (lambda m, b: m.frombuffer(b, 'f8', count=4, offset=32), 4, 32),
                         (lambda m, b: m.frombuffer(b, 'f8', count=3, offset=8), 3, 8)):
        for st in [(-8,), (-16,), (16,), (8,), (24,), (-24,)]:
            if off + (n - 1) * st[0] + 8 > 80:
                continue    # NumPy's check over a Python buffer counts the
                # offset twice and lets these read past the buffer's end
            a = make(np, make_buffer() if not isinstance(make_buffer(), nt.ndarray)
                     else np.arange(10.))
            x = make(nt, make_buffer())
            with pytest.warns(DeprecationWarning):
                err, _ = check_same_error(lambda: _set_strides(x, st),
                                          lambda: _set_strides(a, st))
            if err:
                continue
            with pytest.warns(DeprecationWarning):
                x.strides = st
            assert x.strides == a.strides
            assert_same(x, a)
            assert x.flags.writeable == a.flags.writeable
            assert not x.flags.owndata
    b = bytearray(np.arange(10.).tobytes())
    x = nt.frombuffer(b, 'f8', count=4, offset=32)
    with pytest.warns(DeprecationWarning):
        x.strides = (-8,)
    x[...] = -1                      # into the buffer, in its elements 1..4
    assert np.frombuffer(b).tolist() == [0, -1, -1, -1, -1, 5, 6, 7, 8, 9]


@pytest.mark.parametrize('dtype', ['int64', 'float64', 'uint8'])
def test_divmod_defers_as_the_other_operators(dtype):
    # divmod(a, x) gives x its __rdivmod__ where NumPy's binop deferral says
    # so (an object of higher __array_priority__ without __array_ufunc__, or
    # __array_ufunc__ = None), as a + x does; ndtile's __divmod__ called the
    # ufunc (which coerced x through __array__)
    class Prio:
        __array_priority__ = 1

        def __array__(self, dtype=None, copy=None):
            raise AssertionError("coerced")

        def __rdivmod__(self, other):
            return "reverse"

        __radd__ = __rdivmod__

    class NoUfunc:
        __array_ufunc__ = None

        def __rdivmod__(self, other):
            return "reverse"

    for x in (np.arange(3, 7, dtype=dtype).reshape(2, 2), np.ones(0, dtype), np.ones((), dtype),
              np.arange(12, dtype=dtype)[::3]):
        for o in (Prio(), NoUfunc()):
            assert divmod(x, o) == divmod(nt.asarray(x), o) == "reverse"
        assert x + Prio() == nt.asarray(x) + Prio() == "reverse"
    # an ndtile or NumPy array, a number: the ufunc
    a = np.arange(1, 7, dtype=dtype)
    for other in (3, nt.asarray(a[::-1]), a[::-1]):
        got, want = divmod(nt.asarray(a), other), divmod(a, other)
        for g, w in zip(got, want, strict=True):
            assert type(g) is nt.ndarray and g.dtype == w.dtype
            np.testing.assert_array_equal(np.asarray(g), w)


FILL_VALUES = [np.float16(np.inf), np.float32(np.nan), np.float64(np.inf), np.float64(300.0),
               np.float64(-1.5), 300.5, 300, -1, 2**64, 1.5, True, 1 + 2j, np.complex64(1 + 2j),
               '7', None, np.int64(-1), np.uint64(2**64 - 1), 1e300, np.array(300.0),
               np.array(-3), np.array(np.inf), np.array(1 + 1j), np.zeros(1), np.zeros((1, 1)),
               np.arange(5.0), np.zeros(0)]


@pytest.mark.parametrize('dt', DTYPES, ids=NAMES)
@pytest.mark.parametrize('shape', [(), (0,), (7,), pytest.param(
    (300000,), marks=pytest.mark.default_settings)])
def test_fill_converts_as_numpys_setitem(dt, shape):
    # fill converts its value as NumPy's does (its setitem of one element):
    # float64(300.0) into int8 raises OverflowError (ndtile: 44), float16 inf
    # into uint8 warns 'invalid value' (ndtile: OverflowError), a 0-d array
    # is cast as an array (array(300.) into int8 is 44; ndtile raised), a
    # one-element array is a scalar to a bool array
    for v in FILL_VALUES:
        a = np.ones(shape, dt)
        x = nt.ones(shape, dt)[::-1] if shape else nt.ones(shape, dt)
        nv = nt.asarray(v) if isinstance(v, np.ndarray) else v
        with warnings.catch_warnings(record=True) as wn:
            warnings.simplefilter('always')
            raised, _ = check_same_error(lambda: x.fill(nv), lambda: a.fill(v))
        if raised:
            continue
        with warnings.catch_warnings(record=True) as wx:
            warnings.simplefilter('always')
            x.fill(nv)
        assert [type(w.message) for w in wx] == [type(w.message) for w in wn], (v, wx, wn)
        assert_same(x, a)
