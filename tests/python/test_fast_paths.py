"""The front end's fast paths for small, common calls (ufunc out=, arange of
ints, concatenate of one dtype, astype, the *_like functions, a[int array]
and small index arrays' extents) against NumPy: the inputs each takes and
the cases next to them that go the general way (0-d, empty, strided views,
other dtypes, negative and out-of-bounds indices, read-only and aliased out=,
subclasses)."""
import warnings

import numpy as np
import pytest

import ndtile as nt
from ndtile import _dtypes, _indexing

from _helpers import make

DTS = [np.bool_, np.int8, np.uint8, np.int32, np.int64, np.uint64, np.float32, np.float64,
       np.complex128]


class Sub(nt.ndarray):
    pass


def _same(r, e):
    """r (ndtile's) equals e (NumPy's): type kind, dtype, shape, values."""
    if isinstance(e, np.ndarray):
        # (dtypes ndtile does not hold: float16, non-native, object stay NumPy's)
        assert isinstance(r, nt.ndarray) or _dtypes.code(e.dtype) is None, type(r)
        assert r.dtype == e.dtype and r.shape == e.shape, (r.dtype, e.dtype, r.shape, e.shape)
        np.testing.assert_array_equal(np.asarray(r), e)
    else:
        assert type(r) is type(e), (type(r), type(e))
        assert r == e or (r != r and e != e)


def _outcome(f, *args, **kw):
    """(result, None, warnings) or (None, exception class, warnings): the
    warnings' classes, less ndtile's fallback notes (float16 out=)."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            r, exc = f(*args, **kw), None
            for x in r if isinstance(r, tuple) else (r,):
                if isinstance(x, nt.ndarray):
                    np.asarray(x)   # a read: on ranks the warnings come at it
        except Exception as e:      # noqa: BLE001 (compared with NumPy's)
            r, exc = None, type(e)
    return r, exc, [x.category for x in w if "does not implement" not in str(x.message)]


def _both(fnd, fnp):
    r, er, wr = _outcome(fnd)
    e, ee, we = _outcome(fnp)
    assert (er is None) == (ee is None), (er, ee)
    if ee is not None:
        assert issubclass(er, ee) or issubclass(ee, er), (er, ee)
    else:
        _same(r, e)
    assert wr == we, (wr, we)
    return r, e


# -- ufunc out= ---------------------------------------------------------------------------

@pytest.mark.parametrize("dt", DTS)
@pytest.mark.parametrize("name", ["add", "multiply", "less", "maximum", "logical_and",
                                  "true_divide", "sqrt", "negative", "absolute"])
@pytest.mark.parametrize("shape", [(), (0,), (7,), (3, 4)])
def test_ufunc_out(dt, name, shape):
    a, b = make(dt, shape, 1), make(dt, shape, 2, nonzero=True)
    fnp, fnd = getattr(np, name), getattr(nt, name)
    ins_np = (a, b)[:fnp.nin]
    try:
        rdt = np.asarray(fnp(*ins_np)).dtype
    except TypeError:
        rdt = np.float64     # (bool negative: both raise below)
    for odt in (rdt, np.float64, np.int8):
        oe = np.zeros(shape, odt)
        od = nt.asarray(oe.copy())
        r, e = _both(lambda: fnd(*[nt.asarray(x) for x in ins_np], out=od),
                     lambda: fnp(*ins_np, out=oe))
        if e is not None:
            assert r is od
            np.testing.assert_array_equal(np.asarray(od), oe)


@pytest.mark.parametrize("dt", [np.int64, np.float64, np.uint8])
def test_ufunc_out_scalars_views_aliasing(dt):
    base = make(dt, (20,), 3)
    for scalar in (2, 2.0, True, 100, 200, -1, 3 + 1j):
        e = base.copy()
        d = nt.asarray(base.copy())
        _both(lambda: nt.add(d, scalar, out=d), lambda: np.add(e, scalar, out=e))
        np.testing.assert_array_equal(np.asarray(d), e)
        _both(lambda: nt.multiply(scalar, d[::3], out=d[1::3]),
              lambda: np.multiply(scalar, e[::3], out=e[1::3]))
        np.testing.assert_array_equal(np.asarray(d), e)
    # out= aliasing an input, reversed
    e = base.copy()
    d = nt.asarray(base.copy())
    _both(lambda: nt.add(d, d[::-1], out=d), lambda: np.add(e, e[::-1], out=e))
    np.testing.assert_array_equal(np.asarray(d), e)
    # shapes that do not broadcast into out; out of another shape that does
    _both(lambda: nt.add(d, d, out=nt.zeros(3, dt)), lambda: np.add(e, e, out=np.zeros(3, dt)))
    _both(lambda: nt.add(d[:1], d[:1], out=nt.zeros((2, 20), dt)),
          lambda: np.add(e[:1], e[:1], out=np.zeros((2, 20), dt)))


def test_ufunc_out_read_only_and_subclass():
    e = np.arange(6.0)
    d = nt.asarray(e.copy())
    ro = nt.asarray(e.copy())
    ro.flags.writeable = False
    ero = e.copy()
    ero.flags.writeable = False
    _both(lambda: nt.add(d, 1.0, out=ro), lambda: np.add(e, 1.0, out=ero))
    s = nt.zeros(6).view(Sub)
    r = nt.add(d, 1.0, out=s)
    assert r is s and type(r) is Sub
    np.testing.assert_array_equal(np.asarray(s), e + 1)
    # out= as a 1-tuple, and NumPy's array as out
    o = nt.zeros(6)
    assert nt.add(d, d, out=(o,)) is o
    np.testing.assert_array_equal(np.asarray(o), e + e)
    onp = np.zeros(6)
    assert nt.add(d, d, out=onp) is onp
    np.testing.assert_array_equal(onp, e + e)


def test_ufunc_out_overflow_warning():
    e = np.array([1e308, 1.0])
    d = nt.asarray(e)
    with np.errstate(over="warn"):
        _both(lambda: nt.multiply(d, 10.0, out=nt.zeros(2)),
              lambda: np.multiply(e, 10.0, out=np.zeros(2)))


# -- arange --------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [(100,), (0,), (-5,), (3, 17), (17, 3), (3, 17, 4), (17, 3, -2),
                                  (0, 10, 3), (-7, 7, 5), (5, 5), (2**53 - 2,),
                                  (2**53 - 3, 2**53 - 1), (2**53,), (2**53 + 1, 2**53 + 3),
                                  (1, 5, 0), (True,), (2, 9.0), (2.0, 9), (1, 2, 0.25),
                                  (np.int32(4),), (-2**63, -2**63 + 3)])
def test_arange(args):
    _both(lambda: nt.arange(*args), lambda: np.arange(*args))
    _both(lambda: nt.arange(*args, dtype=np.int32), lambda: np.arange(*args, dtype=np.int32))


# -- concatenate ---------------------------------------------------------------------------

@pytest.mark.parametrize("dt", DTS)
def test_concatenate_one_dtype(dt):
    for shapes, axis in [([(7,), (3,)], 0), ([(7,), (0,)], 0), ([(0,), (0,)], 0),
                         ([(2, 3), (4, 3)], 0), ([(2, 3), (2, 5)], 1), ([(2, 3), (2, 5)], -1),
                         ([(2, 3), (2, 5), (2, 1)], -1), ([(2, 3), (4, 3)], 1),
                         ([(2, 3), (2, 3)], 2), ([(2, 3), (2, 3)], -3), ([(2, 3), (3,)], 0),
                         ([(), ()], 0), ([(2, 0, 3), (2, 4, 3)], 1)]:
        xs = [make(dt, s, i) for i, s in enumerate(shapes)]
        for seq in (tuple, list):
            r, e = _both(lambda: nt.concatenate(seq(nt.asarray(x) for x in xs), axis=axis),
                         lambda: np.concatenate(seq(xs), axis=axis))
            if e is not None and e.size:
                # a new array: writing it leaves the inputs alone
                d0 = nt.asarray(xs[0])
                r = nt.concatenate((d0, nt.asarray(xs[1])), axis=axis)
                r[...] = 0
                np.testing.assert_array_equal(np.asarray(d0), xs[0])


def test_concatenate_views_mixed_and_subclass():
    a = np.arange(40.0).reshape(4, 10)
    d = nt.asarray(a)
    _both(lambda: nt.concatenate((d[::2, ::3], d[1::2, 1::3])),
          lambda: np.concatenate((a[::2, ::3], a[1::2, 1::3])))
    _both(lambda: nt.concatenate((d[:, ::-1], d.T[:10, :4].T), axis=1),
          lambda: np.concatenate((a[:, ::-1], a.T[:10, :4].T), axis=1))
    i = np.arange(5, dtype=np.int32)
    _both(lambda: nt.concatenate((d[0], nt.asarray(i))), lambda: np.concatenate((a[0], i)))
    _both(lambda: nt.concatenate((d[0], i)), lambda: np.concatenate((a[0], i)))
    _both(lambda: nt.concatenate((d[0], [1, 2])), lambda: np.concatenate((a[0], [1, 2])))
    _both(lambda: nt.concatenate((d[0], d[1]), axis=None),
          lambda: np.concatenate((a[0], a[1]), axis=None))
    _both(lambda: nt.concatenate((d[0], d[1]), axis=True),
          lambda: np.concatenate((a[0], a[1]), axis=True))
    _both(lambda: nt.concatenate((d[0], d[1]), axis=np.int64(0)),
          lambda: np.concatenate((a[0], a[1]), axis=np.int64(0)))
    _both(lambda: nt.concatenate((d[0], d[1]), dtype=np.float32),
          lambda: np.concatenate((a[0], a[1]), dtype=np.float32))
    _both(lambda: nt.concatenate((d[0],)), lambda: np.concatenate((a[0],)))
    s = d.view(Sub)
    r = nt.concatenate((s[0], s[1]))
    np.testing.assert_array_equal(np.asarray(r), np.concatenate((a[0], a[1])))


# -- astype --------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", DTS)
def test_astype(dt):
    base = make(dt, (6, 8), 4)
    d = nt.asarray(base)
    views = [(d, base), (d[::2, 1::3], base[::2, 1::3]), (d.T, base.T), (d[2], base[2]),
             (d[0, 0:0], base[0, 0:0]), (nt.asarray(base[1, 2]), np.asarray(base[1, 2])),
             (d[::-1], base[::-1])]
    for to in (np.float32, np.int64, np.uint8, np.bool_, np.complex64, float, int, complex,
               np.dtype('f8'), np.dtype('>f8'), np.dtype('<i2'), 'f4', np.float16, dt):
        for x, e in views:
            r, ex = _both(lambda: x.astype(to), lambda: e.astype(to))
            if ex is not None and isinstance(r, nt.ndarray):
                assert r.flags.c_contiguous == ex.flags.c_contiguous
                assert r.flags.f_contiguous == ex.flags.f_contiguous
                assert not np.shares_memory(np.asarray(r), base) and r is not x
    s = d.view(Sub)
    assert type(s.astype(np.float32)) is Sub
    assert type(s.astype(np.float32, subok=False)) is nt.ndarray


def test_astype_bad_dtype():
    d = nt.arange(4)
    _both(lambda: d.astype("not a dtype"), lambda: np.arange(4).astype("not a dtype"))
    _both(lambda: d.astype(np.ndarray), lambda: np.arange(4).astype(np.ndarray))


# -- the *_like functions ------------------------------------------------------------------

@pytest.mark.parametrize("name", ["empty_like", "zeros_like", "ones_like", "full_like"])
def test_like(name):
    base = make(np.int32, (4, 6), 5)
    d = nt.asarray(base)
    fnd, fnp = getattr(nt, name), getattr(np, name)
    extra = (7,) if name == "full_like" else ()
    for x, e in [(d, base), (d.T, base.T), (d[::2, ::-3], base[::2, ::-3]), (d[1], base[1]),
                 (nt.asarray(base[0, 0]), np.asarray(base[0, 0])), (d[:0], base[:0])]:
        r = fnd(x, *extra)
        ex = fnp(e, *extra)
        assert type(r) is nt.ndarray and r.dtype == ex.dtype and r.shape == ex.shape
        assert r.flags.c_contiguous == ex.flags.c_contiguous
        assert r.flags.f_contiguous == ex.flags.f_contiguous
        if name != "empty_like":
            np.testing.assert_array_equal(np.asarray(r), ex)
        assert r is not x
    assert type(fnd(d.view(Sub), *extra)) is Sub
    assert type(fnd(d.view(Sub), *extra, subok=False)) is nt.ndarray


# -- a[integer array] ----------------------------------------------------------------------

@pytest.mark.parametrize("idt", [np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint32,
                                 np.uint64])
def test_index_array(idt):
    base = np.arange(60.0).reshape(12, 5)
    d = nt.asarray(base)
    for a, e in [(d, base), (d[:, 0], base[:, 0]), (d[::-2], base[::-2]),
                 (d[1::3, ::2], base[1::3, ::2]), (d.reshape(3, 4, 5), base.reshape(3, 4, 5)),
                 (d[:, :0], base[:, :0])]:
        n = e.shape[0]
        cands = [[0], [n - 1], [1, 0, 2, 1], [[0, 1], [2, 0]], [], [n], [n - 1, n + 3]]
        if np.iinfo(idt).min < 0:
            cands += [[-1], [-n], [-n - 1], [2, -1]]
        for vals in cands:
            ix = np.array(vals, dtype=idt)
            for key in (nt.asarray(ix), ix, nt.asarray(ix)[::-1], (nt.asarray(ix),)):
                kn = key if isinstance(key, np.ndarray) else \
                    tuple(np.asarray(k) for k in key) if isinstance(key, tuple) else np.asarray(key)
                r, ex = _both(lambda: a[key], lambda: e[kn])
                if ex is not None and ex.size:
                    r[...] = -1      # a copy
                    np.testing.assert_array_equal(np.asarray(a), e)


def test_index_array_extents_paths():
    base = np.arange(2 * 3 * 40000 // 40000 * 20000.0).reshape(6, 20000)
    d = nt.asarray(base)
    i0 = np.array([0, 5, 2, 3])
    i1 = np.arange(0, 20000, 7)[:100]
    for k0, k1 in [(i0, i0), (i0[:, None], i1[None, :]), (i0.astype(np.int8), i0),
                   (i0, i0.astype(np.uint64)), (i0, np.array([1, -2, 3, 19999])),
                   (i0, np.array([1, 20000, 3, 4])), (i0, i0[:3])]:
        _both(lambda: d[nt.asarray(k0), nt.asarray(k1)], lambda: base[k0, k1])
    big = np.arange(_indexing._SMALL_EXTENTS + 5) % 20000
    _both(lambda: d[1, nt.asarray(big)], lambda: base[1, big])
    _both(lambda: d[0][nt.asarray(big)], lambda: base[0][big])
    big[7] = 20000
    _both(lambda: d[0][nt.asarray(big)], lambda: base[0][big])
    mid = np.arange(100) * 3
    _both(lambda: d[0][nt.asarray(mid)], lambda: base[0][mid])
    mid[50] = -20001
    _both(lambda: d[0][nt.asarray(mid)], lambda: base[0][mid])


def test_index_array_messages():
    d = nt.arange(10)
    with pytest.raises(IndexError, match="index 12 is out of bounds for axis 0 with size 10"):
        d[nt.asarray([1, 12, 15])]
    with pytest.raises(IndexError, match="index -11 is out of bounds"):
        d[np.array([-11, 2])]
    with pytest.raises(IndexError):
        nt.asarray(np.float64(1.0))[nt.asarray([0])]


@pytest.mark.default_settings
def test_index_array_default_settings():
    n = 600_000     # 4.8 MB of float64: more than a 2 MiB tile
    base = np.arange(n, dtype=np.float64)
    d = nt.asarray(base)
    for ix in (np.array([0, n - 1, 300_000, 5]), np.arange(0, n, 9973)[:60],
               np.arange(0, n, 31)):
        _both(lambda: d[nt.asarray(ix)], lambda: base[ix])
        _both(lambda: d[ix], lambda: base[ix])
    _both(lambda: nt.concatenate((d, d[::-1])), lambda: np.concatenate((base, base[::-1])))
    _both(lambda: d.astype(np.float32), lambda: base.astype(np.float32))
    e = base.copy()
    o = nt.asarray(base.copy())
    _both(lambda: nt.add(o, d[::-1], out=o), lambda: np.add(e, base[::-1], out=e))
    np.testing.assert_array_equal(np.asarray(o), e)


# -- asarray and ravel ---------------------------------------------------------------------

def test_asarray_and_ravel():
    base = np.arange(24.0).reshape(4, 6)
    d = nt.asarray(base)
    assert nt.asarray(d) is d
    s = d.view(Sub)
    r = nt.asarray(s)
    assert type(r) is nt.ndarray and r is not s and nt.shares_memory(r, s)
    for kw in ({"copy": True}, {"order": "F"}, {"order": "C"}, {"dtype": np.float32},
               {"dtype": np.float64}, {"copy": False}):
        for x, e in [(d, base), (d.T, base.T), (d[::2, ::-1], base[::2, ::-1])]:
            r, ex = _both(lambda: nt.asarray(x, **kw), lambda: np.asarray(e, **kw))
            if ex is not None:
                assert (r is x) == (ex is e)
                assert r.flags.c_contiguous == ex.flags.c_contiguous
                assert r.flags.f_contiguous == ex.flags.f_contiguous
    views = [lambda v: v, lambda v: v.T, lambda v: v[::2, ::-1], lambda v: v[1, 1],
             lambda v: v[:0]]
    for order in ("C", "F", "A", "K", None, "c", "x", 1):
        for view in views:
            e0 = np.arange(24.0).reshape(4, 6)
            x0 = nt.asarray(e0.copy())
            x, e = view(x0), view(e0)
            if not isinstance(x, nt.ndarray):
                x, e = nt.asarray(x), np.asarray(e)
            r, ex = _both(lambda: x.ravel(order), lambda: e.ravel(order))
            if ex is not None:
                # a view where NumPy's is one: a write shows through the same way
                r[...] = -1
                ex[...] = -1
                np.testing.assert_array_equal(np.asarray(x0), e0)
    assert type(s.ravel()) is Sub
