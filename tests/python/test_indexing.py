"""Indexing: basic (views), Ellipsis, newaxis, negative steps; integer
arrays and boolean masks, to read and to assign; aliasing as in NumPy."""
import math
import warnings

import numpy as np
import pytest

import ndtile as nt
from ndtile import _core
from _helpers import DTYPES, NAMES, make, assert_same, check_same_error

BASIC_KEYS = [0, -1, 3, slice(None), slice(2, 8), slice(None, None, -1), slice(8, 1, -3),
              slice(-3, None), slice(100, 200), (1, 2), (slice(None), 2), (Ellipsis, 1),
              (None, 1), (1, None, slice(None, None, 2)), (Ellipsis,), (), (2, Ellipsis, None),
              (slice(1, None, 2), slice(None, None, -2)), (-1, -1), np.int64(2),
              (np.int32(1), slice(np.int64(1), None))]


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_basic_getitem(dt):
    a = make(dt, (10, 12))
    x = nt.asarray(a)
    for key in BASIC_KEYS:
        exp = a[key]
        got = x[key]
        assert_same(got, exp)
    b = make(dt, (4, 5, 6))
    y = nt.asarray(b)
    for key in [(1, ..., 2), (..., None), (slice(None), 0, slice(None, None, -1)), (0, 0, 0),
                (None, None, 1), (Ellipsis, 5)]:
        assert_same(y[key], b[key])
    z = nt.asarray(make(dt, ()))
    assert_same(z[()], make(dt, ())[()])
    assert_same(z[...], make(dt, ())[...])
    assert_same(z[None], make(dt, ())[None])


def test_integer_index_returns_numpy_scalar():
    x = nt.arange(10.0).reshape(2, 5)
    v = x[1, 2]
    assert type(v) is np.float64 and v == 7.0
    assert type(x[0][0]) is np.float64
    assert type(nt.arange(3, dtype=np.uint8)[1]) is np.uint8


def test_basic_index_errors():
    x = nt.zeros((3, 4))
    for key in [3, -4, (0, 4), (0, 0, 0), (Ellipsis, Ellipsis)]:
        with pytest.raises(IndexError):
            x[key]
        with pytest.raises(IndexError):
            np.zeros((3, 4))[key]
    with pytest.raises(IndexError):
        x[1.0]
    with pytest.raises((TypeError, IndexError)):
        x[0:2.5]
    with pytest.raises(ValueError):
        x[::0]


def test_views_alias_base():
    a = np.arange(40.0).reshape(5, 8)
    x = nt.asarray(a)
    v = x[1:4, ::2]
    w = a[1:4, ::2]
    v[...] = -1
    w[...] = -1
    assert_same(x, a)
    t = x.T
    t[0, 0] = 99
    a.T[0, 0] = 99
    assert_same(x, a)
    r = x.reshape(40)
    r[5] = 1234
    a.reshape(40)[5] = 1234
    assert_same(x, a)
    n = x[::-1, ::-1]
    n[0] = 7
    a[::-1, ::-1][0] = 7
    assert_same(x, a)
    v2 = x[2]
    v2 += 100
    a[2] += 100
    assert_same(x, a)
    s = x[:, 3]
    s *= 2
    a[:, 3] *= 2
    assert_same(x, a)
    c = nt.asarray(np.arange(6) + 1j * np.arange(6))
    c.real[1:3] = 50
    c.imag[::2] = -1
    cn = np.arange(6) + 1j * np.arange(6)
    cn.real[1:3] = 50
    cn.imag[::2] = -1
    assert_same(c, cn)


def test_view_of_view_of_view_writes_through():
    a = np.zeros((6, 7, 8))
    x = nt.zeros((6, 7, 8))
    x[1:5][::-1, 2][..., 3:7:2] = 5
    a[1:5][::-1, 2][..., 3:7:2] = 5
    assert_same(x, a)


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_basic_setitem(dt):
    a = make(dt, (10, 12))
    vals = [1, 0, True, 2.5, -3, make(dt, (12,), 9), make(dt, (3, 1), 8), make(dt, (), 3)]
    keys = [(0,), (slice(2, 5), slice(None)), (Ellipsis, 3), (slice(None, None, -2), 1),
            (slice(None), slice(None)), (slice(7, 4, -1),)]
    for key in keys:
        for v in vals:
            b = a.copy()
            try:
                b[key] = v
            except Exception as e:
                with pytest.raises(type(e)):
                    x2 = nt.asarray(a)
                    x2[key] = v
                continue
            x2 = nt.asarray(a)
            x2[key] = nt.asarray(v) if isinstance(v, np.ndarray) and v.ndim else v
            assert_same(x2, b)


def test_setitem_python_scalar_rules():
    x = nt.zeros(5, np.int8)
    with pytest.raises(OverflowError):
        x[0] = 300
    with pytest.raises(OverflowError):
        np.zeros(5, np.int8)[0] = 300
    xi = nt.zeros(5, np.int64)
    with pytest.raises(ValueError):
        xi[0] = np.nan
    xi[1] = 2.7
    assert xi[1] == 2
    xf = nt.zeros(3)
    with pytest.raises(TypeError):
        xf[0] = 1j
    xu = nt.zeros(3, np.uint8)
    with pytest.raises(OverflowError):
        xu[1] = -1
    xb = nt.zeros(3, bool)
    xb[0] = 5
    assert xb[0]


ADV_KEYS = [[0, 2, 4], np.array([1, -1, 3]), (np.array([0, 1]), np.array([2, 3])),
            (slice(None), [1, 3]), ([[0, 1], [2, 3]],), (np.array([2]), Ellipsis),
            (Ellipsis, [0, 0, 1]), (1, [2, 3]), ([1, 2], slice(2, 5))]


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_advanced_getitem(dt):
    a = make(dt, (6, 7))
    x = nt.asarray(a)
    for key in ADV_KEYS:
        assert_same(x[key], a[key])
    m = make(np.bool_, (6, 7), 3)
    assert_same(x[m], a[m])
    assert_same(x[nt.asarray(m)], a[m])
    assert_same(x[m[:, 0]], a[m[:, 0]])
    assert_same(x[:, m[0]], a[:, m[0]])
    assert_same(x[nt.asarray(np.array([1, 2]))], a[np.array([1, 2])])
    assert_same(x[x > x.mean() if dt.kind != 'c' else m], a[a > a.mean() if dt.kind != 'c'
                                                         else m])
    assert_same(x[nt.asarray(np.int64(2))], a[np.int64(2)])
    assert_same(x[True], a[True])
    with pytest.raises(IndexError):
        x[[0, 10]]


def test_advanced_result_is_a_copy():
    x = nt.arange(10)
    y = x[[1, 2, 3]]
    y[0] = 100
    assert x[1] == 1


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_advanced_setitem(dt):
    a = make(dt, (6, 7))
    m = make(np.bool_, (6, 7), 3)
    for key, val in [([0, 2], 1), ((slice(None), [1, 3]), make(dt, (6, 2), 4)), (m, 0),
                     (m, True), (m[:, 0], make(dt, (7,), 5)), ((np.array([1, 2]), 3), 5),
                     (m, make(dt, (int(m.sum()),), 6))]:
        b = a.copy()
        b[key] = val
        x = nt.asarray(a)
        x[key] = val
        assert_same(x, b)
        x = nt.asarray(a)
        x[nt.asarray(key) if isinstance(key, np.ndarray) else key] = \
            nt.asarray(val) if isinstance(val, np.ndarray) else val
        assert_same(x, b)


def test_mask_assignment_through_view():
    a = make(np.float64, (8, 9))
    x = nt.asarray(a)
    v = x[::2]
    v[v > 0] = 0
    w = a[::2]
    w[w > 0] = 0
    assert_same(x, a)


def test_iteration_and_len():
    a = make(np.float64, (4, 3))
    x = nt.asarray(a)
    assert len(x) == 4
    for r, s in zip(x, a):
        assert_same(r, s)
    assert [type(v) for v in x[0]] == [np.float64] * 3
    assert list(nt.arange(3)) == [0, 1, 2]
    with pytest.raises(TypeError):
        len(nt.asarray(1.0))
    with pytest.raises(TypeError):
        iter(nt.asarray(1.0))


def test_flat():
    a = make(np.int32, (3, 4))
    x = nt.asarray(a)
    assert list(x.flat) == list(a.flat)
    assert x.flat[5] == a.flat[5]
    x.T.flat[3] = 100
    a.T.flat[3] = 100
    assert_same(x, a)
    assert len(x.flat) == 12


# ---- advanced reads and writes in the core (no fallback) ----------------------------

_A = np.random.default_rng(0).standard_normal((6, 7, 8))
CORE_KEYS = [
    ([1, 2],), (np.array([0, -1, 3]),), ([1, 2], [3, 4]), ([1, 2], slice(None), [3, 4]),
    (slice(None), [1, 2]), (slice(1, 5, 2), [0, 6], [1, 7]), (0, slice(None), [1, 2]),
    (Ellipsis, [1, 2]), ([[0, 1], [2, 3]], Ellipsis), (_A[:, 0, 0] > 0,),
    (_A[:, :, 0] > 0, slice(None)), (slice(None, None, -1), [2, 2, 5]), (2, [1, 3]),
    ([1], [2], [3]), ([], slice(None)), (slice(None), np.array([], dtype=np.int64)),
    ([5, 0, 5],), (np.array([[1]]), slice(0, 3), 0), (slice(None), _A[0] > 0.5),
]


@pytest.mark.parametrize('key', CORE_KEYS, ids=range(len(CORE_KEYS)))
@pytest.mark.parametrize('dtype', [np.float64, np.int16, np.complex64, np.bool_])
def test_advanced_read_write_native(key, dtype, monkeypatch):
    monkeypatch.setenv('NDTILE_FALLBACK', 'error')
    a = (_A * 10).astype(dtype)
    exp = a[key]
    assert_same(nt.asarray(a)[key], exp)
    for val in (np.ones((), dtype), (np.arange(exp.size) % 3).astype(dtype).reshape(exp.shape),
                (np.arange(exp.shape[-1]) % 2).astype(dtype) if exp.ndim else None):
        if val is None:
            continue
        b = a.copy()
        b[key] = val
        x = nt.asarray(a)
        x[key] = nt.asarray(val)
        assert_same(x, b)


def test_advanced_write_last_wins_views_and_many_tiles(monkeypatch):
    monkeypatch.setenv('NDTILE_FALLBACK', 'error')
    b = np.zeros(5)
    b[[1, 1, 3, 1]] = [1, 2, 3, 4]
    y = nt.zeros(5)
    y[[1, 1, 3, 1]] = nt.asarray([1., 2, 3, 4])
    assert_same(y, b)
    big = np.arange(3000 * 7, dtype=np.float32).reshape(3000, 7)   # many tiles
    idx = np.random.default_rng(1).integers(0, 3000, 500)
    b = big.copy()
    b[idx, 3] = -b[idx, 2]
    x = nt.asarray(big)
    x[idx, 3] = -x[idx, 2]
    assert_same(x, b)
    b = big.copy()
    v = b[::-3, 1::2]
    v[[0, 5, 999], [1, 2, 0]] = 42
    x = nt.asarray(big)
    w = x[::-3, 1::2]
    w[[0, 5, 999], [1, 2, 0]] = 42
    assert_same(x, b)
    b = big.copy()
    b[b % 7 == 0] = np.arange((b % 7 == 0).sum(), dtype=np.float32)
    x = nt.asarray(big)
    x[x % 7 == 0] = nt.arange(int((x % 7 == 0).sum()), dtype=np.float32)
    assert_same(x, b)


@pytest.mark.parametrize('key, val', [(([1, 7],), 0), (([1, 2], [1, 2, 3]), 0),
                                      (([0, 1],), np.ones(3)), ((slice(None), [9]), 0),
                                      ((_A[:2, 0, 0] > 0,), 0)])
def test_advanced_write_errors(key, val):
    with pytest.raises(Exception) as en:
        _A.copy()[key] = val
    x = nt.asarray(_A)
    with pytest.raises(type(en.value)) as eg:
        x[key] = val
    assert str(eg.value) == str(en.value)


def test_advanced_assignment_value_with_more_dims():
    # NumPy's mapping iterator reshapes a value of more dimensions than the
    # result to its trailing ones when the sizes agree (leading length-1
    # axes, or any leading axes of an empty value), then broadcasts; only
    # then are the index arrays' bounds checked (fuzz 1410005092: NumPy's
    # IndexError, ndtile's ValueError)
    e = np.array([], dtype=np.int64)
    cases = [((0, 1, 0), ([0], -1, slice(None, None, -1)), (0, 1, 0)),
             ((3, 1, 0), ([5], -1, slice(None, None, -1)), (0, 1, 0)),
             ((3, 0), ([5],), (2, 1, 0)), ((3, 0), ([5],), (2, 3, 0)),
             ((3, 0), ([1],), (2, 1, 0)), ((3, 2), ([1],), (2, 1, 2)),
             ((3, 2), ([1],), (1, 1, 2)), ((3,), ([1],), (2, 0)), ((3,), (e,), (2, 0)),
             ((3, 4), (e,), (2, 0, 4)), ((3, 4), (e,), (2, 1, 0)),
             ((3, 4), ([1, 2],), (1, 1, 2, 4)), ((3, 4), ([1, 2],), (1, 2, 1, 4)),
             ((3, 4), ([[1, 2]],), (1, 1, 2, 4)), ((300, 400), ([5, 7, 5],), (1, 1, 3, 400))]
    for shape, key, vshape in cases:
        res = []
        for m in (np, nt):
            a = m.zeros(shape)
            try:
                a[key] = m.arange(math.prod(vshape), dtype=float).reshape(vshape)
                res.append(a)
            except Exception as err:
                res.append((type(err), str(err)))
        if isinstance(res[0], tuple):
            assert res[1] == res[0], (shape, key, vshape)
        else:
            assert_same(res[1], res[0])


@pytest.mark.parametrize("big", [False, pytest.param(True, marks=pytest.mark.default_settings)])
def test_index_outside_intp_and_float_slice_order(big):
    # NumPy: an integer index in [2**63, 2**64) is OverflowError, further out
    # IndexError (ndtile's binding handed such keys back to Python, which
    # recursed: RecursionError), for reads and writes; a float among the
    # components is the IndexError even after a slice with float bounds,
    # which alone is a TypeError
    n = 300 if big else 3
    a = np.arange(n * 4).reshape(n, 4)
    keys = [1 << 64, (0, 1 << 64), (1 << 63,), 1 << 63, (0, 1 << 63), -(1 << 63) - 1,
            np.uint64(1 << 63), (Ellipsis, 1 << 64), (None, 1 << 63), ([0], 1 << 64),
            ([0, 1], 1 << 63), (slice(0.0, None), 0.0), (slice(0.0, None),), slice(0.0, None),
            (slice(0.0, None), [0, 1]), (0.0, slice(1.0, None)), (slice(None, 1 << 64),),
            (slice(None, None, 1 << 64), 1), (slice(1, None, -1), slice(None, 2.5))]
    for k in keys:
        for write in (False, True):
            res = []
            for m in (np, nt):
                x = m.asarray(a.copy())
                try:
                    if write:
                        x[k] = -7
                        res.append(('ok', np.asarray(x).tolist()))
                    else:
                        res.append(('ok', np.asarray(x[k]).tolist()))
                except Exception as e:       # noqa: BLE001 (compared with NumPy's)
                    res.append((type(e), str(e)))
            assert res[0] == res[1], (k, write)


@pytest.mark.parametrize("big", [False, pytest.param(True, marks=pytest.mark.default_settings)])
def test_flat_iterator_keys_as_numpy_reads_them(big):
    # a.flat has its own key rules in NumPy 2.4, not an array's: flat[True]
    # is element 0 and flat[False] nothing (both deprecated: a warning; ndtile
    # gave the whole array as a 0-d boolean index does), a list of booleans
    # and a NumPy bool scalar are IndexErrors, None and strings are refused
    # with the iterator's message, floats (alone or in a list) are truncated
    # with a warning, one-element tuples unwrap, () cannot be assigned, and
    # a wrong-size mask or index has the iterator's own message
    import warnings
    n = 300 if big else 3
    a = np.arange(n * 3).reshape(n, 3)
    size = a.size
    mask = np.arange(size) % 2 == 0
    keys = [True, False, np.True_, [True, True], [True, 1], None, (), Ellipsis, 'a', '', 1.5,
            (0,), (0, 1), [[True, False]], np.zeros(size + 1, bool), np.array(True),
            np.array(False), [], slice(None), np.array([1, 2]).astype(float), (slice(None),),
            (None,), ([1, 2],), mask, (mask,), [-1, -2], np.array([[1, 2], [3, 4]]),
            slice(10, 5), slice(None, None, -1), 4, -1, size, -size - 1, np.int16(3),
            [1.0, 2.0], np.array(["a"], dtype="S").flat, np.array([], dtype="S").flat,
            np.array([1, 2]).flat, [[1.0]]]
    for k in keys:
        for write in (False, True):
            res = []
            for m in (np, nt):
                x = m.asarray(a.copy())
                with warnings.catch_warnings(record=True) as w:
                    warnings.simplefilter("always")
                    try:
                        if write:
                            x.flat[k] = -1
                            res.append(('ok', np.asarray(x).tolist()))
                        else:
                            r = np.asarray(x.flat[k])
                            res.append(('ok', r.tolist(), r.shape, r.dtype))
                    except Exception as e:      # noqa: BLE001 (compared with NumPy's)
                        res.append((type(e), str(e)))
                res[-1] += (sorted({c.category.__name__ for c in w}),)
            assert res[0] == res[1], (k, write)
    x = nt.asarray(a.copy())
    assert_same(x.flat[nt.arange(2).flat], a.flat[np.arange(2).flat])


@pytest.mark.parametrize("big", [False, pytest.param(True, marks=pytest.mark.default_settings)])
def test_flat_integer_array_keys_out_of_bounds_as_numpy(big):
    # a.flat[k] = v with a 0-d integer array k out of bounds raised
    # ValueError ("Error setting single item of array.", NumPy's message for
    # a value it cannot set) where NumPy raises IndexError (its
    # test_indexerrors); and an out-of-bounds integer array said "for axis
    # 0 with size n" where NumPy's flat iterator says "for size n"
    n = 300 * 1024 if big else 6          # 2.4 MiB of float64 at default settings
    for shape in [(1, 2, n // 2), (1, 0, 3), (n,), ()]:
        size = math.prod(shape)
        for make_key in (lambda m: m.array(size + 4), lambda m: m.array(-size - 1),
                         lambda m: m.array(size - 1), lambda m: m.array(-size),
                         lambda m: m.array([size + 4]), lambda m: m.array([[size + 4, 0]]),
                         lambda m: m.array(0, dtype=m.uint8),
                         lambda m: m.array(size + 4, dtype=m.uint32),
                         lambda m: (m.array(size),), lambda m: m.array(2.0)):
            for write in (False, True):
                res = []
                for m in (np, nt):
                    x, k = m.zeros(shape), make_key(m)
                    try:
                        if write:
                            x.flat[k] = 5
                            res.append(('ok', float(np.asarray(x).sum())))
                        else:
                            res.append(('ok', np.asarray(x.flat[k]).tolist()))
                    except Exception as e:      # noqa: BLE001 (compared with NumPy's)
                        res.append((type(e), str(e)))
                assert res[0] == res[1], (shape, make_key(np), write)


def test_flat_iterator_method_signatures_are_numpys():
    # inspect sees NumPy's flatiter signatures: self positional-only,
    # __array__(self, dtype=None, /, *, copy=None), copy(self, /)
    import inspect
    for name in ('__array__', 'copy'):
        got = inspect.signature(getattr(nt.flatiter, name))
        want = inspect.signature(getattr(np.flatiter, name))
        assert [(p.name, p.kind, p.default) for p in got.parameters.values()] == \
            [(p.name, p.kind, p.default) for p in want.parameters.values()]
    a = np.arange(40000).reshape(200, 200)
    x = nt.asarray(a)
    assert_same(nt.asarray(np.asarray(x.flat, dtype=np.float32)), np.asarray(a.flat, dtype=np.float32))
    assert_same(x.flat.copy(), a.flat.copy())


@pytest.mark.parametrize("n", [8, pytest.param(40000, marks=pytest.mark.default_settings)])
def test_complex_into_real_warns_as_numpy(n):
    # NumPy warns ComplexWarning when complex values are stored into a real
    # (not bool) array, whatever the path: basic, fancy and boolean item
    # assignment, copyto, astype (ndtile dropped the imaginary part silently)
    import warnings
    cases = [lambda m, z, b: z.__setitem__(([0], [1]), m.array([2 + 1j])),
             lambda m, z, b: z.__setitem__(b, m.array([1j])),
             lambda m, z, b: z.__setitem__(b, m.ones(int(b.sum()), complex)),
             lambda m, z, b: z.__setitem__(slice(0, 1), m.array(1j)),
             lambda m, z, b: z.__setitem__(0, m.ones(z.shape[1], complex)),
             lambda m, z, b: z.__setitem__(Ellipsis, m.ones(z.shape, complex)[::-1]),
             lambda m, z, b: z.__setitem__((0, 0), np.complex128(1j)),
             lambda m, z, b: z.__setitem__(slice(None), np.ones(z.shape, complex)),
             lambda m, z, b: m.copyto(z, m.array(1j), casting='unsafe'),
             lambda m, z, b: z.__setitem__(slice(None), m.ones(z.shape, np.complex64).astype(np.float32)),
             lambda m, z, b: z.__setitem__(slice(None), m.ones(z.shape, complex).astype(bool)),
             lambda m, z, b: z.__setitem__(slice(None), m.ones(z.shape)),
             lambda m, z, b: b.__setitem__(slice(None), m.ones(b.shape, complex)),
             lambda m, z, b: m.zeros(3, int).__setitem__(slice(None), m.array([1j, 2, 3])),
             lambda m, z, b: z.__setitem__(slice(None), m.ones(z.shape, complex).astype(complex))]
    for f in cases:
        res = []
        for m in (np, nt):
            z = m.zeros((n // 8, 8))
            b = m.zeros((n // 8, 8), dtype=bool)
            b[0, 1] = True
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                f(m, z, b)
            res.append((np.asarray(z).tolist(), np.asarray(b).tolist(),
                        [(c.category, str(c.message)) for c in w]))
        assert res[0] == res[1]


class _ArrayLikeIndex:
    """An index object known only by its __array__ (NumPy's test_indexing
    test_scalar_return_type), handing back the array of module m."""

    def __init__(self, m, value):
        self.m, self.value = m, value

    def __array__(self, dtype=None, copy=None):
        return self.m.array(self.value)


@pytest.mark.parametrize("big", [False, pytest.param(True, marks=pytest.mark.default_settings)])
def test_index_by_an_array_like(big):
    # an index whose __array__ returns an ndtile array (code written for
    # import ndtile as np) indexes as that array; NumPy's conversion
    # refused it ('object __array__ method not producing an array')
    n = 700 if big else 7
    for dt in (np.float64, np.int8, np.complex64):
        a = make(dt, (n, 600 if big else 5))
        keys = [lambda m: (0, _ArrayLikeIndex(m, 1)), lambda m: _ArrayLikeIndex(m, [2, 0]),
                lambda m: _ArrayLikeIndex(m, 1), lambda m: (_ArrayLikeIndex(m, [[1], [3]]), -1),
                lambda m: (slice(None), _ArrayLikeIndex(m, [True, False, True, False, True]))]
        if big:
            keys.pop()
        for key in keys:
            x = nt.asarray(a)
            e, g = a[key(np)], x[key(nt)]
            assert_same(g, e)
            if isinstance(e, np.ndarray):
                assert not nt.shares_memory(g, x)
            b = a.copy()
            b[key(np)] = 3
            x[key(nt)] = 3
            assert_same(x, b)


@pytest.mark.parametrize("big", [False, pytest.param(True, marks=pytest.mark.default_settings)])
@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_flat_assignment_values_as_numpy(dt, big):
    # NumPy's flatiter writes a value its own way (iter_ass_subscript): one
    # element by an integer key turns any failure of the value into
    # ValueError("Error setting single item of array.") (ndtile raised the
    # OverflowError or TypeError of the conversion: fuzz seed 24100050,
    # `a.flat[1] = -1` into uint64), and a slice, mask or index list takes
    # the value's elements in C order cyclically whatever its shape, an
    # empty value writing nothing (ndtile broadcast it: ValueError for
    # `flat[:] = [5, 6]`, `flat[1:3] = [1, 2, 3]` or a (2, 4) value). On a
    # contiguous base, through a transposed one (the written copy goes
    # back), and over several 2 MiB tiles at default settings.
    n = 300_000 if big else 12
    base = make(dt, (n // 6, 6), seed=3)
    size = base.size
    mask = np.arange(size) % 3 == 1
    keys = [1, -1, np.int64(2), 2.0, np.array(3), (4,), slice(1, 3), slice(None),
            slice(None, None, -2), [0, 1, 2], [3, 3, 0], [[0, 1], [2, 5]], mask, Ellipsis, []]
    values = [-1, 300, 2 ** 64, 1.5j, 'x', None, [1, 2, 3], [5, 6], [7], [],
              np.arange(8).reshape(2, 4), [[1.5, -2.5]], 9]
    if big:
        keys = [1, slice(None, None, -2), [3, 3, 0], mask]
        values = [-1, 1.5j, [5, 6], [], np.arange(8).reshape(2, 4)]
    for layout in ('c', 't'):
        for k in keys:
            for v in values:
                res = []
                for m in (np, nt):
                    x = m.asarray(base.copy())
                    if layout == 't':
                        x = x.T
                    kk = nt.asarray(k) if m is nt and isinstance(k, np.ndarray) else k
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        try:
                            x.flat[kk] = v
                            res.append(('ok', np.asarray(x).tobytes()))
                        except Exception as e:      # noqa: BLE001 (compared with NumPy's)
                            one = isinstance(k, (int, float)) and not isinstance(k, bool)
                            res.append((type(e), str(e) if one else ''))
                assert res[0] == res[1], (layout, k, v)
    # an ndtile array as the value, and an empty value with an index past the end
    x, a = nt.asarray(base.copy()), base.copy()
    x.flat[::3] = nt.arange(5)
    a.flat[::3] = np.arange(5)
    assert_same(x, a)
    x.flat[[size + 5]] = []
    assert_same(x, a)


ADV_VALUES = [np.float16(np.inf), np.float32(np.nan), np.float64(np.inf), np.float64(300.0),
              np.float64(-1.5), np.uint64(2**64 - 1), np.int64(-1), np.longdouble(1e300),
              np.complex64(1 + 2j), np.str_('7'), np.uint8(200), 300, 300.5, -1]


@pytest.mark.parametrize('dt', DTYPES, ids=NAMES)
@pytest.mark.parametrize('n', [5, pytest.param(300000, marks=pytest.mark.default_settings)])
def test_advanced_assignment_casts_numpy_scalars_as_arrays(dt, n):
    # a[mask] = s and a[idx] = s cast a NumPy scalar s as an array (unsafe,
    # NumPy's 'invalid value' warning for inf/NaN into integers), where a[i] = s
    # checks it as a Python number: float64(300.) into int8 is 44 through a
    # mask (ndtile raised OverflowError), an int8 array stays a[i]'s error
    a0 = np.zeros(n, dt)
    mask = np.arange(n) % 2 == 0
    idx = np.arange(0, n, 3)
    for v in ADV_VALUES:
        for key in (mask, idx, (idx,), mask[::-1]):
            a, x = a0.copy(), nt.asarray(a0)
            nkey = tuple(nt.asarray(k) for k in key) if isinstance(key, tuple) else nt.asarray(key)
            with warnings.catch_warnings(record=True) as wn:
                warnings.simplefilter('always')
                raised, _ = check_same_error(lambda: x.__setitem__(nkey, v),
                                             lambda: a.__setitem__(key, v))
            if raised:
                continue
            with warnings.catch_warnings(record=True) as wx:
                warnings.simplefilter('always')
                x[nkey] = v
            assert [type(w.message) for w in wx] == [type(w.message) for w in wn], (v, wx, wn)
            assert_same(x, a)
        # basic indexing keeps NumPy's scalar checks
        a, x = a0.copy(), nt.asarray(a0)
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            raised, _ = check_same_error(lambda: x.__setitem__(1, v), lambda: a.__setitem__(1, v))
            if not raised:
                x[1] = v
                assert_same(x, a)


# ---- gathers along one axis: each task reads only the part of the source its
# block of the result reaches (ndt_gather_slices). At the suite's 4096-byte
# tiles these arrays span many tiles; the results are NumPy's bits.

GATHER_DTYPES = [np.float64, np.int8, np.uint16, np.complex128, np.bool_]


@pytest.mark.parametrize("dt", GATHER_DTYPES)
def test_take_each_axis_modes_and_out(dt):
    a = make(dt, (11, 12, 9, 1, 30))
    sources = [(a, nt.asarray(a)),
               (a[::-2, 1:, :, :, ::3], nt.asarray(a)[::-2, 1:, :, :, ::3]),    # strided view
               (a.transpose(4, 2, 0, 3, 1), nt.asarray(a).transpose(4, 2, 0, 3, 1))]
    for b, x in sources:
        for ax in range(b.ndim):
            n = b.shape[ax]
            # (indices of one sign above 0: a take from a slice of the axis)
            for idx in ([0, 0, 0], [n - 1, -1, 0, -n], [[1 % n, -1], [0, n - 1]], -1,
                        [n // 2, n - 1, n // 2], [-1, -(n + 1) // 2], [[n - 1]],
                        np.array(0), np.array([], np.int64), np.zeros((2, 0), np.int32)):
                assert_same(nt.take(x, idx, axis=ax), np.take(b, idx, axis=ax))
            for mode in ('wrap', 'clip'):
                idx = [5, -7, 100, -100, 0]
                assert_same(nt.take(x, idx, axis=ax, mode=mode), np.take(b, idx, axis=ax, mode=mode))
            raises_idx = [0, n]
            check_same_error(lambda: nt.take(x, raises_idx, axis=ax),
                             lambda: np.take(b, raises_idx, axis=ax))
            o = np.zeros(np.take(b, [1 % n, 0], axis=ax).shape, dt)
            xo = nt.asarray(o.copy())
            r = nt.take(x, [1 % n, 0], axis=ax, out=xo)
            assert r is xo
            assert_same(xo, np.take(b, [1 % n, 0], axis=ax, out=o))
        assert_same(nt.take(x, [3, -2]), np.take(b, [3, -2]))    # flat


@pytest.mark.parametrize("dt", GATHER_DTYPES)
def test_take_along_axis_and_compress_read_their_rows(dt):
    a = make(dt, (13, 7, 40))
    x = nt.asarray(a)
    for ax in range(3):
        s = np.argsort(a, axis=ax, kind='stable')
        assert_same(nt.take_along_axis(x, nt.asarray(s), axis=ax), np.take_along_axis(a, s, axis=ax))
        # an index of length 1 along another axis, and a source of length 1
        # broadcast against the index (a step-0 axis)
        s1 = np.take(s, [0], axis=(ax + 1) % 3)
        assert_same(nt.take_along_axis(x, nt.asarray(s1), axis=ax),
                    np.take_along_axis(a, s1, axis=ax))
        a1 = np.take(a, [2], axis=(ax + 1) % 3)
        assert_same(nt.take_along_axis(nt.asarray(a1), nt.asarray(s), axis=ax),
                    np.take_along_axis(a1, s, axis=ax))
        neg = -1 - s
        assert_same(nt.take_along_axis(x, nt.asarray(neg), axis=ax),
                    np.take_along_axis(a, neg, axis=ax))
        cond = np.arange(a.shape[ax]) % 3 == 1
        assert_same(nt.compress(cond, x, axis=ax), np.compress(cond, a, axis=ax))
    v = a[::2, ::-1, 5:]
    s = np.argsort(v, axis=-1, kind='stable')
    assert_same(nt.take_along_axis(nt.asarray(a)[::2, ::-1, 5:], nt.asarray(s), axis=-1),
                np.take_along_axis(v, s, axis=-1))


@pytest.mark.parametrize("dt", GATHER_DTYPES)
def test_fancy_index_with_slices_on_other_axes(dt):
    a = make(dt, (20, 9, 31))
    x = nt.asarray(a)
    i = np.array([3, -1, 7, 7, 0])
    for key in [(i,), (slice(None), i), (slice(None, None, -3), i), (i, slice(25, 1, -2)),
                (Ellipsis, i), (slice(2, 18), [[0], [8]], slice(None, None, 4)),
                (i, slice(None), np.array([0, 30, -31, 2, 2])), (i[:, None], 4, slice(3, 4)),
                (np.array(5), slice(None), slice(None, None, 7)), (np.array([], np.int64),),
                (slice(None), np.array([True] + [False] * 7 + [True]))]:
        assert_same(x[key], a[key])
    t = a.transpose(2, 0, 1)[::2]
    y = x.transpose(2, 0, 1)[::2]
    for key in [(i,), (slice(1, None), i), (slice(None), slice(None), [0, -1])]:
        assert_same(y[key], t[key])
    check_same_error(lambda: x[:, [9]], lambda: a[:, [9]])
    check_same_error(lambda: x[::2, [-10]], lambda: a[::2, [-10]])


def test_core_gather_slices_refuses_bad_arguments():
    x = nt.arange(12.0).reshape(3, 4)
    i = nt.asarray(np.array([0, 1], np.int64))
    with pytest.raises(ValueError):
        _core.gather(x, [i, (0, 3, 1)], (2,), None)       # 3 + 1 leaves [0, 4)
    with pytest.raises(ValueError):
        _core.gather(x, [i, (1, 0, 1)], (2,), None)       # no result axis 1
    with pytest.raises(ValueError):
        _core.gather(x, [i, (0, 0, 1)], (2,), [4, 4])      # bound above the axis
    with pytest.raises(ValueError):
        _core.gather(x, [(0, 0, 1), (0, 0, 1)])           # no shape
    with pytest.raises(IndexError):
        # an index at or above its bound is out of bounds
        np.asarray(_core.gather(x, [i, (0, 0, 1)], (2,), [1, 4]))
    r = _core.gather(x, [(0, 2, -1), (1, 3, -1)], (3, 4))   # slices alone
    assert_same(r, np.arange(12.0).reshape(3, 4)[::-1, ::-1])
    r = _core.gather(x, [i, (0, 1, 0)], (2,), [2, 4])       # step 0
    assert_same(r, np.array([1.0, 5.0]))


# --- views whose elements leave whole tiles out (4 KiB tiles) -------------
# Each task names only the tiles its elements lie in (src/runtime/bind.c
# ndt__view_tiles); a write through such a view, then reads through views
# that interleave with it, check that the real overlaps are still ordered.

@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_transposed_and_stepped_views_skipping_tiles(dt):
    a = make(dt, (7, 5003), seed=1)
    x = nt.asarray(a)
    assert_same(x.T.copy(), a.T.copy())
    assert_same(x[:, ::-3].T.copy(), a[:, ::-3].T.copy())
    b, y = a.copy(), x.copy()
    b.T[::9] = b.T[4::9][: b.T[::9].shape[0]]
    y.T[::9] = y.T[4::9][: y.T[::9].shape[0]]
    assert_same(y[2, 1000:1100].copy(), b[2, 1000:1100].copy())
    assert_same(y[::2, 3::9].copy(), b[::2, 3::9].copy())
    assert_same(y, b)
    f = make(dt, 40_001, seed=2)
    g = nt.asarray(f)
    f[::700] = f[350::700][: f[::700].shape[0] - 1].sum() if dt != np.bool_ else True
    g[::700] = g[350::700][: g[::700].shape[0] - 1].sum() if dt != np.bool_ else True
    assert_same(g[::350].copy(), f[::350].copy())
    assert_same(g, f)


def test_writes_through_transposes_ordered_with_reads():
    a = np.arange(9 * 3000, dtype=np.float64).reshape(9, 3000)
    x = nt.asarray(a)
    for k in range(3):
        a.T[k::3] = a.T[(k + 1) % 3::3] + a[:, :1].T * 0.5
        x.T[k::3] = x.T[(k + 1) % 3::3] + x[:, :1].T * 0.5
        a[k::4] = a[k::4, ::-1] - 1
        x[k::4] = x[k::4, ::-1] - 1
    assert_same(x, a)
    assert_same(x.T.copy(), a.T.copy())
    c = np.zeros((64, 1000))
    z = nt.zeros((64, 1000))
    for j in range(0, 1000, 97):
        c[:, j] = c[:, j - 1] + j if j else 1.0
        z[:, j] = z[:, j - 1] + j if j else 1.0
    c[::5] += c[:, ::97].sum()
    z[::5] += z[:, ::97].sum()
    assert_same(z, c)


def _index_layouts(m, dt, rng):
    """Index arrays (module m's, dtype dt) whose out-of-bounds values (for
    a length of 5) come first in different places in C order and in memory
    order: Fortran-ordered, transposed, reversed, sliced, broadcast, 1-d
    reversed, 3-d permuted."""
    def data(shape):
        d = rng.integers(-5 if np.dtype(dt).kind == 'i' else 0, 5, shape).astype(dt)
        flat = d.reshape(-1)
        bad = (7, 9, -8) if np.dtype(dt).kind == 'i' else (7, 9, 2**64 - 2**40)
        for v, p in zip(bad, rng.choice(flat.size, 3, replace=False)):
            flat[p] = v
        return d
    out = []
    for layout in ('C', 'F', 'T', 'neg', 'sliced', 'bcast', '1dneg', 'perm3', 'negT'):
        d = data((4, 6)) if layout != 'perm3' else data((3, 4, 5))
        x = m.array(d)
        x = {'C': lambda: x, 'F': lambda: m.asfortranarray(x), 'T': lambda: x.T,
             'neg': lambda: x[::-1, ::-2], 'sliced': lambda: x[:, 1::2].T,
             'bcast': lambda: m.broadcast_to(x[:1], (3, 6)).T,
             '1dneg': lambda: x.reshape(-1)[::-1],
             'perm3': lambda: x.transpose(1, 2, 0)[:, ::-1], 'negT': lambda: x[::-1].T}[layout]()
        out.append((layout, x))
    return out


_ORDER_OPS = {
    'getitem': lambda m, ix: m.zeros(5)[ix],
    'getitem_int': lambda m, ix: m.zeros((5, 5))[ix, 1],
    'getitem_sliced': lambda m, ix: m.zeros((3, 5))[:, ix],
    'getitem_two': lambda m, ix: m.zeros((5, 5))[ix, m.zeros(ix.shape, np.int64)],
    'setitem': lambda m, ix: m.zeros(5).__setitem__(ix, 1),
    'setitem_values': lambda m, ix: m.zeros(5).__setitem__(ix, m.ones(ix.shape)),
    'setitem_sliced': lambda m, ix: m.zeros((3, 5)).__setitem__((slice(None), ix), 1),
    'take': lambda m, ix: m.take(m.zeros(5), ix),
    'take_axis': lambda m, ix: m.take(m.zeros((5, 2)), ix, axis=0),
    'put': lambda m, ix: m.put(m.zeros(5), ix, 1),
    'add_at': lambda m, ix: m.add.at(m.zeros(5), ix, 1),
    'negative_at': lambda m, ix: m.negative.at(m.zeros(5), ix),
    'add_at_two': lambda m, ix: m.add.at(m.zeros((5, 5)), (ix, 0), 1),
    'take_along_axis': lambda m, ix: m.take_along_axis(
        m.zeros(ix.shape[:-1] + (5,)), ix, axis=-1),
    'take_along_axis_none': lambda m, ix: m.take_along_axis(m.zeros(5), ix.reshape(-1), None),
    'put_along_axis': lambda m, ix: m.put_along_axis(
        m.zeros(ix.shape[:-1] + (5,)), ix, 1, axis=-1),
    'put_along_axis_none': lambda m, ix: m.put_along_axis(m.zeros(5), ix.reshape(-1), 1, None),
    'delete': lambda m, ix: m.delete(m.zeros(5), ix),
    'delete_axis': lambda m, ix: m.delete(m.zeros((2, 5)), ix, axis=1),
    'unravel_index': lambda m, ix: m.unravel_index(ix, (5,)),
    'add_at_pair': lambda m, ix: m.add.at(m.zeros((5, 5)), (ix, ix), 1),
    'flat_get': lambda m, ix: m.zeros(5).flat[ix],
    'flat_set': lambda m, ix: m.zeros(5).flat.__setitem__(ix, 1),
}


@pytest.mark.parametrize("op", sorted(_ORDER_OPS))
@pytest.mark.parametrize("dt", [np.int64, np.int32, np.uint64, np.int16])
def test_out_of_bounds_index_named_in_numpys_order(op, dt):
    # NumPy names the first bad index it meets: take, put and flat in C
    # order; an assignment, ufunc.at, several index arrays (take_along_axis)
    # and delete in memory order (a 1-d intp array in its own order); a
    # getitem's one index array and unravel_index in the strides' order, or
    # C order beside a sliced axis. ndtile named the first in C order
    # everywhere (and delete along another axis names axis 0, NumPy's
    # mask's).
    f = _ORDER_OPS[op]
    rng_np, rng_nt = np.random.default_rng(5), np.random.default_rng(5)
    for case in range(3):
        for (layout, a), (_, x) in zip(_index_layouts(np, dt, rng_np), _index_layouts(nt, dt, rng_nt)):
            try:
                f(np, a)
            except Exception as e:      # noqa: BLE001 - put's TypeError for uint64
                want = e
            else:
                continue
            with pytest.raises(type(want)) as got:
                f(nt, x)
            assert str(got.value) == str(want), (case, layout)


@pytest.mark.parametrize("op", sorted(_ORDER_OPS))
@pytest.mark.parametrize("dt", [np.int64, np.int8, np.uint64])
def test_out_of_bounds_numpy_index_array_named_in_numpys_order(op, dt):
    # the same with NumPy index arrays (transposed, reversed) indexing an
    # ndtile array: the order is the NumPy array's layout's, not that of
    # ndtile's C-ordered copy of it (the first bad index named was -9, not
    # -7, for a[np.array([[-9, 1], [3, -7]])[::-1]] with a of 4 rows)
    f = _ORDER_OPS[op]
    rng = np.random.default_rng(7)
    for case in range(4):
        base = rng.integers(0 if dt == np.uint64 else -12, 12, size=(3, 4)).astype(dt)
        for a in (base.T, base[::-1], base[:, ::-1], base[::-1, ::-2].T, base[1][::-1]):
            try:
                f(np, a)
            except Exception as e:      # noqa: BLE001 - put's TypeError for uint64
                want = e
            else:
                continue
            with pytest.raises(type(want)) as got:
                f(nt, a)
            assert str(got.value) == str(want), (case, a.strides)


@pytest.mark.default_settings
def test_out_of_bounds_index_order_in_tiles():
    # index arrays of several 2 MiB tiles, Fortran-ordered and reversed
    d = np.zeros((700, 600), np.int64)
    d[3, 0], d[0, 500] = 10**6, -10**7     # first in C order: -10**7; in F order: 10**6
    for make_ in (np.asfortranarray, lambda v: v[::-1, ::-1]):
        a = make_(d)
        x = make_(nt.asarray(d)) if make_ is not np.asfortranarray else nt.asfortranarray(d)
        for f in (lambda m, ix: m.zeros(10)[ix], lambda m, ix: m.zeros(10).__setitem__(ix, 1),
                  lambda m, ix: m.add.at(m.zeros(10), ix, 1), lambda m, ix: m.take(m.zeros(10), ix)):
            with pytest.raises(IndexError) as e:
                f(np, a)
            with pytest.raises(IndexError) as got:
                f(nt, x)
            assert str(got.value) == str(e.value)


def test_put_casts_index_arrays_safely():
    # NumPy's put casts an index array to intp by the 'safe' rule (uint64
    # and float arrays are TypeErrors; take's rule is same_kind, so uint64
    # passes there); ndtile's put took uint64 and named same_kind
    for dt in (np.uint64, np.float32, np.complex128, np.uint32, np.int8, np.bool_):
        ind = np.array([1, 0], dt)
        a, x = np.zeros(5), nt.zeros(5)
        raised, _ = check_same_error(lambda: nt.put(x, nt.asarray(ind), 1),
                                     lambda: np.put(a, ind, 1))
        if raised:
            with pytest.raises(TypeError, match="according to the rule 'safe'"):
                x.put(nt.asarray(ind), 1)
        else:
            nt.put(x, nt.asarray(ind), 1)
            assert_same(x, a)
    assert_same(nt.take(nt.arange(5.0), nt.asarray(np.array([4], np.uint64))), np.array([4.0]))


# ---- gathers whose index bounds the core finds per block: take with
# mode='wrap'/'clip', take_along_axis, quantiles, set operations and
# reduceat read, per task, the source between their block's least and
# greatest index (ndt_gather_slices' bounds pass); NumPy's bits and errors.

@pytest.mark.parametrize("dt", GATHER_DTYPES)
def test_take_wrap_clip_and_along_axis_with_local_indices(dt):
    a = make(dt, (60, 7, 23))
    sources = [(a, nt.asarray(a)),
               (a[::-2, :, 1::3], nt.asarray(a)[::-2, :, 1::3]),
               (a.transpose(2, 0, 1), nt.asarray(a).transpose(2, 0, 1))]
    for b, x in sources:
        for ax in range(3):
            n = b.shape[ax]
            for idx in (np.arange(-2 * n, 2 * n), np.arange(3 * n)[::-1].reshape(3, n),
                        np.array(n + 2), np.array([], np.int64), np.array([-1, n, 5 * n])):
                for mode in ('wrap', 'clip'):
                    assert_same(nt.take(x, idx, axis=ax, mode=mode),
                                 np.take(b, idx, axis=ax, mode=mode))
                    assert_same(nt.take(x, nt.asarray(idx.astype(np.int16)), axis=ax, mode=mode),
                                np.take(b, idx.astype(np.int16), axis=ax, mode=mode))
            # each position's neighbour (local indices), negative ones, and
            # one row broadcast
            sh = [1, 1, 1]
            sh[ax] = n
            s = np.minimum(np.arange(n) ^ 1, n - 1).reshape(sh)
            s = np.broadcast_to(s, b.shape).copy()
            assert_same(nt.take_along_axis(x, nt.asarray(s), axis=ax),
                        np.take_along_axis(b, s, axis=ax))
            assert_same(nt.take_along_axis(x, nt.asarray(s - n), axis=ax),
                        np.take_along_axis(b, s - n, axis=ax))
            s1 = np.take(s, [0], axis=(ax + 1) % 3)
            assert_same(nt.take_along_axis(x, nt.asarray(s1), axis=ax),
                        np.take_along_axis(b, s1, axis=ax))
            check_same_error(lambda: nt.take_along_axis(x, nt.asarray(s + 1), axis=ax),
                             lambda: np.take_along_axis(b, s + 1, axis=ax))
    # 0-d and empty sources
    z = np.array(3, dt)
    assert_same(nt.take(nt.asarray(z), [0, 1, -5], mode='wrap'), np.take(z, [0, 1, -5], mode='wrap'))
    e = np.zeros((0, 4), dt)
    assert_same(nt.take(nt.asarray(e), [1, 7], axis=1, mode='clip'),
                np.take(e, [1, 7], axis=1, mode='clip'))


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int16, np.uint8])
def test_order_statistics_set_ops_and_reduceat_across_tiles(dt):
    a = make(dt, (300, 41))
    for b, x in [(a, nt.asarray(a)), (a[::-3, ::2], nt.asarray(a)[::-3, ::2]),
                 (a.T, nt.asarray(a).T)]:
        for ax in (0, 1, None):
            assert_same(nt.median(x, axis=ax), np.median(b, axis=ax))
            for q in (0.3, [0.0, 0.5, 1.0]):
                assert_same(nt.quantile(x, q, axis=ax), np.quantile(b, q, axis=ax))
                assert_same(nt.percentile(x, np.multiply(q, 100), axis=ax, method='nearest'),
                            np.percentile(b, np.multiply(q, 100), axis=ax, method='nearest'))
        if np.dtype(dt).kind == 'f':
            c = b.copy()
            c[::7, 3] = np.nan
            assert_same(nt.nanmedian(nt.asarray(c), axis=1), np.nanmedian(c, axis=1))
            assert_same(nt.nanquantile(nt.asarray(c), [0.1, 0.9], axis=0),
                        np.nanquantile(c, [0.1, 0.9], axis=0))
    e = np.arange(3000, dtype=np.int64) // 3
    t = np.arange(0, 2000, 2)
    for kind in (None, 'sort'):
        assert_same(nt.isin(nt.asarray(e), nt.asarray(t), kind=kind), np.isin(e, t, kind=kind))
        assert_same(nt.isin(nt.asarray(e[::-2]), nt.asarray(t), kind=kind, invert=True),
                    np.isin(e[::-2], t, kind=kind, invert=True))
    for f in ('intersect1d', 'setdiff1d', 'union1d', 'setxor1d', 'unique'):
        args = (e,) if f == 'unique' else (e, t)
        assert_same(getattr(nt, f)(*[nt.asarray(v) for v in args]), getattr(np, f)(*args))
    ix = [0, 40, 7, 299, 3, 3]
    for ax in (0, 1):
        i = [v % a.shape[ax] for v in ix]
        assert_same(nt.add.reduceat(nt.asarray(a), i, axis=ax), np.add.reduceat(a, i, axis=ax))
        assert_same(nt.maximum.reduceat(nt.asarray(a)[::-1], i, axis=ax),
                    np.maximum.reduceat(a[::-1], i, axis=ax))


def test_core_gather_names_the_first_bad_index_in_c_order():
    """Bad indices in several blocks (and index arrays): the error names
    the first index array holding one and its first bad index in C order,
    as NumPy, on every run."""
    x = nt.arange(4000.0).reshape(40, 100)
    i = np.arange(3000) % 40
    j = np.arange(3000) % 100
    i[2500], i[1200], j[5] = 40, -1 + 2 ** 40, 100
    ii, jj = nt.asarray(i), nt.asarray(j)
    for _ in range(10):
        with pytest.raises(IndexError, match=r"^index 1099511627775 is out of bounds for axis 0 "
                                             r"with size 40$"):
            np.asarray(_core.gather(x, [ii, jj]))
    with pytest.raises(IndexError, match=r"^index 100 is out of bounds for axis 1 with size 100$"):
        np.asarray(_core.gather(x, [nt.asarray(np.arange(3000) % 40), jj]))
