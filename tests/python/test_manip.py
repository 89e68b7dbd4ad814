"""Joining, splitting, broadcasting, where, and other composed functions."""
import os
import warnings

import numpy as np
import pytest

import ndtile as nt
from _helpers import DTYPES, NAMES, make, assert_same, check_same_error


def test_broadcast_to_and_arrays():
    a = make(np.float64, (3, 1))
    x = nt.asarray(a)
    for shape in [(3, 4), (2, 3, 5), (3, 1)]:
        assert_same(nt.broadcast_to(x, shape), np.broadcast_to(a, shape))
    with pytest.raises(ValueError):
        nt.broadcast_to(x, (4, 4))
    b = make(np.int8, (4,))
    r = nt.broadcast_arrays(x, nt.asarray(b))
    e = np.broadcast_arrays(a, b)
    assert len(r) == 2
    for g, w in zip(r, e):
        assert_same(g, w)
    assert nt.broadcast_shapes((3, 1), (4,)) == np.broadcast_shapes((3, 1), (4,))
    with pytest.raises(ValueError):
        nt.broadcast_shapes((3,), (4,))


@pytest.mark.parametrize("big", [False, pytest.param(True, marks=pytest.mark.default_settings)])
def test_broadcast_object(big):
    # np.broadcast over ndtile arrays: NumPy's attributes, iteration and
    # errors, and iterators whose base is the operand itself (it was
    # NumPy's broadcast on gathered copies: iters[i].base was a NumPy copy;
    # NumPy's test_numeric TestBroadcast)
    n = 300 if big else 5
    for dt in (np.float64, np.int8, np.complex64, np.bool_):
        a, b, c = make(dt, (n, 1, 7)), make(dt, (6, 1), seed=1), make(dt, (7,), seed=2)
        xs = [nt.asarray(v) for v in (a, b, c)]
        for args, nargs in (((a, b, c), xs), ((a,), xs[:1]), ((2, c), (2, xs[2])),
                            ((np.broadcast(a, b), c), (nt.broadcast(*xs[:2]), xs[2])),
                            ((), ())):
            e, g = np.broadcast(*args), nt.broadcast(*nargs)
            assert (g.shape, g.ndim, g.nd, g.numiter, g.size, g.index) == \
                (e.shape, e.ndim, e.nd, e.numiter, e.size, e.index)
            ops = [o for o in nargs if not isinstance(o, nt.broadcast)]
            if nargs and isinstance(nargs[0], nt.broadcast):
                ops = list(xs[:2]) + ops
            for o, it in zip(ops, g.iters):
                if isinstance(o, nt.ndarray):
                    assert it.base is o
            for _ in range(min(e.size, 40)):
                assert_same(next(g), next(e))
            assert g.index == e.index
            assert [it.index for it in g.iters] == [it.index for it in e.iters]
            g.reset()
            e.reset()
            assert g.index == e.index == 0
        assert_same(list(nt.broadcast(xs[2][:3], xs[1][:2])), list(np.broadcast(c[:3], b[:2])))
    for bad in (lambda m: m.broadcast(1, x=1), lambda m: m.broadcast(*[1] * 65),
                lambda m: m.broadcast([[1, 2, 3]], [[4], [5]], [6, 7])):
        with pytest.raises(ValueError) as en:
            bad(np)
        with pytest.raises(ValueError) as eg:
            bad(nt)
        assert str(eg.value) == str(en.value)


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_concatenate_stack(dt):
    a, b = make(dt, (3, 4), 1), make(dt, (2, 4), 2)
    x, y = nt.asarray(a), nt.asarray(b)
    assert_same(nt.concatenate([x, y]), np.concatenate([a, b]))
    assert_same(nt.concatenate([x[::-1], y[:, ::-1]], axis=0),
                np.concatenate([a[::-1], b[:, ::-1]], axis=0))
    assert_same(nt.concatenate([x.T, y.T], axis=1), np.concatenate([a.T, b.T], axis=1))
    assert_same(nt.concatenate([x, y], axis=None), np.concatenate([a, b], axis=None))
    assert_same(nt.concatenate([x, a[:1]], axis=-2), np.concatenate([a, a[:1]], axis=-2))
    assert_same(nt.stack([x, x]), np.stack([a, a]))
    assert_same(nt.stack([x, x], axis=-1), np.stack([a, a], axis=-1))
    assert_same(nt.vstack([x, y]), np.vstack([a, b]))
    assert_same(nt.hstack([x, x]), np.hstack([a, a]))
    assert_same(nt.hstack([x[0], y[0]]), np.hstack([a[0], b[0]]))
    assert_same(nt.dstack([x, x]), np.dstack([a, a]))
    assert_same(nt.column_stack([x[0], x[1]]), np.column_stack([a[0], a[1]]))


@pytest.mark.parametrize("shape", [(3, 4), (40, 300)])
def test_row_stack_is_vstack_with_numpys_warning(shape):
    a, b = make(np.float64, shape, 1), make(np.int32, shape, 2)
    for kw in ({}, {'dtype': np.float32}):
        with pytest.warns(DeprecationWarning, match="`row_stack` alias is deprecated") as w:
            r = nt.row_stack([nt.asarray(a), nt.asarray(b)], **kw)
        assert w[0].filename == __file__       # the caller's line
        with pytest.warns(DeprecationWarning):
            assert_same(r, np.row_stack([a, b], **kw))


def test_concatenate_mixed_dtypes_and_errors():
    a, b = make(np.int8, (3,)), make(np.float32, (2,))
    assert_same(nt.concatenate([nt.asarray(a), nt.asarray(b)]), np.concatenate([a, b]))
    assert_same(nt.concatenate([a, nt.asarray(b)]), np.concatenate([a, b]))
    assert_same(nt.concatenate([a, b], dtype=np.float64), np.concatenate([a, b],
                                                                        dtype=np.float64))
    with pytest.raises(ValueError):
        nt.concatenate([nt.zeros((2, 3)), nt.zeros((2, 4))])
    with pytest.raises(ValueError):
        nt.concatenate([nt.zeros((2, 3)), nt.zeros(3)])
    with pytest.raises(ValueError):
        nt.concatenate([nt.asarray(1.0), nt.asarray(2.0)])
    with pytest.raises(np.exceptions.AxisError):
        nt.concatenate([nt.zeros(3), nt.zeros(3)], axis=1)
    with pytest.raises(TypeError):
        nt.concatenate([nt.zeros(3), nt.zeros(3)], dtype=np.int32, casting='safe')
    with pytest.raises(ValueError):
        nt.stack([nt.zeros(3), nt.zeros(4)])
    out = nt.zeros(5, np.float32)
    assert nt.concatenate([a, b], out=out) is out
    assert_same(out, np.concatenate([a, b]).astype(np.float32))


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_concatenate_python_scalars_are_weak(dt):
    # NEP 50: with axis=None a Python int, float or complex among the
    # arrays is weak (NumPy: concatenate([float32(1), 1.], axis=None) is
    # float32; ndtile made it float64)
    a = make(dt, (7,), 3)
    x = nt.asarray(a)
    for scalars in ([1.5], [2], [1j], [True], [2, 0.5], [dt.type(1), 3]):
        for pre in ([a], [a[::-2]], [a[:0]], [a[0]], []):
            args = pre + scalars
            nargs = [nt.asarray(v) if isinstance(v, np.ndarray) else v for v in args]
            with warnings.catch_warnings():
                warnings.simplefilter('ignore', np.exceptions.ComplexWarning)
                assert_same(nt.concatenate(nargs, axis=None), np.concatenate(args, axis=None))
    # a value out of the weak scalar's result dtype wraps, as NumPy's cast does
    if dt.kind in 'iu' and dt.itemsize == 1:
        assert_same(nt.concatenate([x, 300], axis=None), np.concatenate([a, 300], axis=None))
    # casting= is not asked of weak scalars; dtype= and out= still check them
    for casting in ('no', 'equiv', 'safe'):
        raised, exp = check_same_error(lambda: nt.concatenate([x, 1], axis=None, casting=casting),
                                       lambda: np.concatenate([a, 1], axis=None, casting=casting))
        if not raised:
            assert_same(nt.concatenate([x, 1], axis=None, casting=casting), exp)
    with pytest.raises(TypeError):
        nt.concatenate([nt.zeros(2, np.int8), 1.5], axis=None, dtype=np.int8)


def test_split():
    a = make(np.float64, (10, 6))
    x = nt.asarray(a)
    for args in [(2,), ([3, 5],), (5, 0), (3, 1), ([1, 4], 1)]:
        r, e = nt.split(x, *args), np.split(a, *args)
        assert len(r) == len(e)
        for g, w in zip(r, e):
            assert_same(g, w)
    for g, w in zip(nt.array_split(x, 3), np.array_split(a, 3)):
        assert_same(g, w)
    with pytest.raises(ValueError):
        nt.split(x, 3)
    for g, w in zip(nt.hsplit(x, 2), np.hsplit(a, 2)):
        assert_same(g, w)
    for g, w in zip(nt.vsplit(x, 5), np.vsplit(a, 5)):
        assert_same(g, w)
    parts = nt.split(x, 2)      # views, as in NumPy
    parts[0][0, 0] = 100
    assert x[0, 0] == 100


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_where(dt):
    c = make(np.bool_, (5, 6), 1)
    a, b = make(dt, (5, 6), 2), make(dt, (6,), 3)
    assert_same(nt.where(nt.asarray(c), nt.asarray(a), nt.asarray(b)), np.where(c, a, b))
    assert_same(nt.where(c, nt.asarray(a), 0), np.where(c, a, 0))
    assert_same(nt.where(nt.asarray(c), 1.5, nt.asarray(a)), np.where(c, 1.5, a))
    assert_same(nt.where(nt.asarray(a), 1, 2), np.where(a, 1, 2))
    assert_same(nt.where(nt.asarray(c), 1, 2.0), np.where(c, 1, 2.0))


def test_where_one_argument_falls_back():
    c = make(np.bool_, (5, 6), 1)
    r = nt.where(nt.asarray(c))
    e = np.where(c)
    assert len(r) == 2
    for g, w in zip(r, e):
        assert_same(g, w)


def test_diff_n0_returns_its_argument():
    """diff(a, n=0) is a itself, as in NumPy (a list stays that list; an
    array is not copied nor wrapped anew)."""
    lst = [3, 1, 2]
    assert nt.diff(lst, n=0) is lst
    x = nt.arange(5.)
    assert nt.diff(x, n=0) is x
    v = x[::-2]
    assert nt.diff(v, n=0) is v


@pytest.mark.parametrize("big", [False, pytest.param(True, marks=pytest.mark.default_settings)])
@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_diff_prepend_append_native(dt, big, native_only):
    """diff(prepend=, append=) (in the array API standard) runs in ndtile
    (it fell back to NumPy with a warning): NumPy's values and dtype, a 0-d
    prepend/append broadcast to one step along the axis, dtypes promoted,
    on strided views, with n > 1 and along either axis."""
    a = make(dt, (600, 700) if big else (6, 9), 3)       # big: > 2 MiB for 4-byte dtypes
    views = [(a, nt.asarray(a)), (a[::-2, 1::3], nt.asarray(a)[::-2, 1::3])]
    pre0, app0 = a.flat[0], a.flat[1]
    for e, x in views:
        cases = [dict(prepend=pre0), dict(append=app0), dict(prepend=pre0, append=app0, n=2),
                 dict(axis=0, prepend=e[:1], append=e[-2:]), dict(prepend=e[:, :1], n=3),
                 dict(append=np.ones((e.shape[0], 1), np.int8)), dict(prepend=1.5),
                 dict(axis=0, append=[e[0]])]
        for kw in cases:
            ntkw = {k: nt.asarray(v) if isinstance(v, np.ndarray) and v.ndim else v
                    for k, v in kw.items()}
            exp = np.diff(e, **kw)
            got = nt.diff(x, **ntkw)         # native_only: no fallback to NumPy
            assert isinstance(got, nt.ndarray)
            assert_same(got, exp)
    # what NumPy raises: a 0-d a, a prepend of another shape, a bad axis
    x = nt.asarray(a)
    for args, kw in [((a[0, 0],), dict(prepend=0)), ((a,), dict(prepend=a[:2, :2])),
                     ((a,), dict(axis=2, append=0))]:
        with pytest.raises(Exception) as en:
            np.diff(*args, **kw)
        with pytest.raises(type(en.value)):
            nt.diff(*[nt.asarray(v) for v in args], **kw)
    assert nt.diff(x, n=0, prepend=0) is x


@pytest.mark.parametrize("big", [False, pytest.param(True, marks=pytest.mark.default_settings)])
def test_isclose_weak_scalars_and_invalid_tolerances(big):
    # NumPy keeps a Python scalar b and Python scalar tolerances weak (NEP
    # 50): isclose(float32 1.0, 2, atol=0, rtol=0.4999999999999999)
    # compares in float32, where the tolerance rounds to 0.5 (ndtile took
    # abs(b) as a float64 array: False); a NumPy scalar tolerance is strong.
    # A non-finite atol or rtol warns (or raises, per errstate)
    import warnings
    n = 40000 if big else 7
    half = float(1.0 - np.finfo('f8').eps) / 2
    for dt in (np.float32, np.float64):
        a = np.ones(n, dt)
        a[::3] = 1.0 + 1e-7
        x = nt.asarray(a)
        for b, kw in ((2, dict(atol=0, rtol=half)), (1.0 - 1e-17, dict(atol=0, rtol=0)),
                      (0.0, dict(atol=half * 2)), (np.float32(0), dict(atol=np.float64(half * 2))),
                      (2, dict(atol=0, rtol=np.float64(half))), (1.5, dict(rtol=[0.5] * n)),
                      (np.asarray(2, dt), dict(atol=0, rtol=half))):
            want = np.isclose(a, b, **kw)
            got = nt.isclose(x, b, **kw)
            assert_same(got, want)
            assert_same(nt.isclose(x[::-2], b, **{k: v[::-2] if isinstance(v, list) else v
                                                 for k, v in kw.items()}),
                        np.isclose(a[::-2], b, **{k: v[::-2] if isinstance(v, list) else v
                                                 for k, v in kw.items()}))
    x = nt.ones(n)
    for atol, rtol in ((np.inf, 1e-5), (1e-8, np.nan), (np.nan, np.inf)):
        with warnings.catch_warnings(record=True) as w, np.errstate(invalid='warn'):
            warnings.simplefilter("always")
            nt.isclose(x, x, atol=atol, rtol=rtol)
        assert len(w) == 1 and issubclass(w[0].category, RuntimeWarning)
        assert f"One of rtol or atol is not valid, atol: {atol}, rtol: {rtol}" in str(w[0].message)
        with np.errstate(invalid='raise'), pytest.raises(FloatingPointError):
            nt.isclose(x, x, atol=atol, rtol=rtol)
    with warnings.catch_warnings(), np.errstate(invalid='warn'):
        warnings.simplefilter("error")
        nt.isclose(x, x, atol=1.0, rtol=nt.zeros(n))


def test_array_equiv_foreign_dtypes_and_astype_function_inputs():
    # NumPy's array_equiv compares with ==, which is False where no loop
    # exists (a str array and an int array; ndtile raised the ufunc's no-loop
    # error); the astype function takes arrays and NumPy scalars only
    # (TypeError for a list, NumPy's AttributeError for a Python float)
    big = make(np.int64, (40000,))
    cases = [(np.array("foo"), np.array(1)), (np.array(["a", "b"]), np.array(["a", "b"])),
             (np.array(["a", "b"]), big[:2]), ([1, 2], [[1, 2], [1, 2]]), (big, big[::-1]),
             (big, big.copy()), (np.arange(3), np.arange(4))]
    for x, y in cases:
        want = np.array_equiv(x, y)
        for cx in (lambda v: v, lambda v: nt.asarray(v) if v.dtype.kind in 'iufcb' else v):
            xx = cx(np.asarray(x))
            assert nt.array_equiv(xx, y) is want
            assert nt.array_equal(xx, y) is np.array_equal(x, y)
    for bad, exc in (([1, 2], TypeError), ((1.0, 2.0), TypeError), (1.5, AttributeError)):
        with pytest.raises(exc) as en:
            np.astype(bad, np.float32)
        with pytest.raises(exc) as eg:
            nt.astype(bad, np.float32)
        assert str(eg.value) == str(en.value)
    assert_same(nt.astype(nt.asarray(big), np.int8), np.astype(big, np.int8))
    assert float(nt.astype(np.float64(1.5), np.float32)) == 1.5


def test_flip_diff_isclose_misc():
    a = make(np.float64, (5, 7))
    x = nt.asarray(a)
    assert_same(nt.flip(x), np.flip(a))
    assert_same(nt.flip(x, 1), np.flip(a, 1))
    assert_same(nt.fliplr(x), np.fliplr(a))
    assert_same(nt.flipud(x), np.flipud(a))
    assert_same(nt.diff(x), np.diff(a))
    assert_same(nt.diff(x, 2, axis=0), np.diff(a, 2, axis=0))
    assert_same(nt.diff(nt.asarray(a > 0)), np.diff(a > 0))
    b = a + 1e-9
    assert_same(nt.isclose(x, nt.asarray(b)), np.isclose(a, b))
    assert nt.allclose(x, b) == np.allclose(a, b)
    assert nt.allclose(x, a + 1) == np.allclose(a, a + 1)
    assert nt.array_equal(x, a) and not nt.array_equal(x, a + 1)
    assert not nt.array_equal(x, a[:2])
    assert_same(nt.outer(x[0], x[1]), np.outer(a[0], a[1]))
    assert_same(nt.angle(nt.asarray(a + 1j * a[::-1])), np.angle(a + 1j * a[::-1]), 1e-13)
    for m, e in zip(nt.meshgrid(x[0], x[1, :3]), np.meshgrid(a[0], a[1, :3])):
        assert_same(m, e)
    for m, e in zip(nt.meshgrid(x[0], x[1, :3], indexing='ij', sparse=True),
                    np.meshgrid(a[0], a[1, :3], indexing='ij', sparse=True)):
        assert_same(m, e)
    assert_same(nt.indices((3, 4)), np.indices((3, 4)))
    assert nt.shape(x) == (5, 7) and nt.ndim(x) == 2 and nt.size(x) == 35
    assert nt.result_type(x, np.int8, 1.0) == np.result_type(a, np.int8, 1.0)
    assert nt.can_cast(x, np.float32) == np.can_cast(a.dtype, np.float32)
    assert nt.iscomplexobj(nt.zeros(2, complex)) and nt.isrealobj(x)
    assert nt.may_share_memory(x, x[1:]) and not nt.may_share_memory(x, x.copy())


def test_copyto():
    a = make(np.float64, (4, 5))
    dst = nt.zeros((4, 5))
    nt.copyto(dst, nt.asarray(a))
    assert_same(dst, a)
    m = make(np.bool_, (4, 5), 2)
    d2 = nt.zeros((4, 5))
    nt.copyto(d2, 7.0, where=nt.asarray(m))
    e = np.zeros((4, 5))
    np.copyto(e, 7.0, where=m)
    assert_same(d2, e)
    with pytest.raises(TypeError):
        nt.copyto(nt.zeros(3, np.int32), nt.ones(3))
    nd = np.zeros((4, 5))
    nt.copyto(nd, nt.asarray(a))
    np.testing.assert_array_equal(nd, a)


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_copyto_read_only_destination_first(dt):
    # NumPy checks that the destination is writeable before the value's cast
    # rule and shape (a Python int's OverflowError aside, which comes first);
    # ndtile raised the cast's TypeError (fuzz seed 5225, copyto on a
    # broadcast_to result with casting='no')
    for shape in [(3,), (), (0, 2), (3, 4)]:
        a = np.broadcast_to(make(dt, (1,) * len(shape)), shape)
        x = nt.broadcast_to(nt.asarray(make(dt, (1,) * len(shape))), shape)
        for src in (300, -1, 1.5, 1j, True, np.int64(7), np.ones(4), np.ones(shape, 'complex128')):
            for casting in ('no', 'same_kind', 'unsafe'):
                for where in (True, make(np.bool_, shape, 1)):
                    try:
                        np.copyto(a, src, casting=casting, where=where)
                        exp = None
                    except Exception as e:      # noqa: BLE001
                        exp = type(e)
                    assert exp is not None
                    with pytest.raises(exp):
                        nt.copyto(x, src, casting=casting, where=where)


def test_copyto_value_with_leading_ones_and_onto_itself():
    # NumPy strips a value's leading length-1 axes beyond the destination's
    # (with where= too), and a copy of an array onto itself is skipped
    # before any check (read-only, where='s shape); fuzz seeds 300003150,
    # 300003756, 901074
    for dt in (np.float64, np.uint8, np.complex64):
        for dshape, sshape, wshape in [((1,), (1, 1, 1), None), ((1,), (1, 1, 1), (1,)),
                                       ((2, 3), (1, 1, 3), (3,)), ((2, 300), (1, 1, 2, 300),
                                                                   (2, 300)),
                                       ((2, 3), (2, 1, 3), None), ((0,), (1, 1, 0), (1, 0)),
                                       ((1,), (1, 1, 1), (1, 1, 1))]:
            src = make(dt, sshape, seed=3)
            w = True if wshape is None else make(np.bool_, wshape, seed=4)
            d = make(dt, dshape)
            x = nt.asarray(d)
            raised, _ = check_same_error(lambda: nt.copyto(x, nt.asarray(src), where=w),
                                         lambda: np.copyto(d, src, where=w))
            if not raised:
                nt.copyto(x, nt.asarray(src), where=w)
            assert_same(x, d)
    a = np.broadcast_to(make(np.float64, (3,)), (2, 3))
    x = nt.broadcast_to(nt.asarray(make(np.float64, (3,))), (2, 3))
    for w in (True, make(np.bool_, (5, 5))):
        np.copyto(a, a, where=w)
        nt.copyto(x, x, where=w)
        assert_same(x, a)


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_putmask_read_only_first(dt):
    # NumPy's putmask checks that the array is writeable before the mask's
    # size and the values (ndtile did nothing for an empty value list or an
    # all-False mask, and raised the size or the conversion error; fuzz seed
    # 901593)
    for shape in [(4,), (2, 3), (0,)]:
        a = np.broadcast_to(make(dt, (1,) * len(shape)), shape)
        x = nt.broadcast_to(nt.asarray(make(dt, (1,) * len(shape))), shape)
        d = np.diagonal(make(dt, (3, 3)))
        y = nt.diagonal(nt.asarray(make(dt, (3, 3))))
        for size in (a.size, a.size + 1):
            for values in ([], [1], [1j], [2**70]):
                mask = make(np.bool_, (size,), 1)
                for p, q in ((x, a), (y, d)):
                    if size != a.size and q is d:
                        continue
                    m = mask[:q.size + size - a.size]
                    check_same_error(lambda: nt.putmask(p, nt.asarray(m), values),
                                     lambda: np.putmask(q, m, values))


def test_atleast():
    for v in (1.0, [1, 2], [[1, 2]], np.zeros((2, 3, 4))):
        for f in ('atleast_1d', 'atleast_2d', 'atleast_3d'):
            assert_same(getattr(nt, f)(nt.asarray(v)), getattr(np, f)(np.asarray(v)))


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_pad_constant(dt):
    a = make(dt, (3, 4))
    x = nt.asarray(a)
    for pw in [1, (1, 2), [(0, 0), (2, 1)], ((1, 0), (0, 3))]:
        for cv in (0, 1):
            assert_same(nt.pad(x, pw, constant_values=cv), np.pad(a, pw, constant_values=cv))
    assert_same(nt.pad(x[::-1, 1:], 2), np.pad(a[::-1, 1:], 2))
    # a value per side, per axis and side, as arrays; the corners take the
    # last axis's (ran NumPy's pad on gathered data before)
    pw = ((2, 1), (1, 3))
    for cv in ((0, 0), (1, 2), ((1, 2), (3, 4)), [[5], [6]], nt.asarray([1, 0])):
        want = np.pad(a, pw, constant_values=np.asarray(cv))
        for src, ref in ((x, a), (x[::-1, ::2], a[::-1, ::2]), (x[:0], a[:0])):
            with warnings.catch_warnings():
                warnings.simplefilter("error")      # no fallback warning
                got = nt.pad(src, pw, constant_values=cv)
            assert_same(got, np.pad(ref, pw, constant_values=np.asarray(cv)))
        assert_same(nt.pad(x, pw, constant_values=cv), want)
    for cv in (((1, 2),) * 3, [[1, 2, 3]]):
        check_same_error(lambda: nt.pad(x, 1, constant_values=cv),
                         lambda: np.pad(a, 1, constant_values=cv))


def _same_layout(got, exp):
    assert (got.flags.c_contiguous, got.flags.f_contiguous) == \
        (exp.flags.c_contiguous, exp.flags.f_contiguous)


@pytest.mark.parametrize("big", [False, pytest.param(True, marks=pytest.mark.default_settings)])
def test_pad_keeps_fortran_order(big):
    # NumPy pads a Fortran-ordered array into a Fortran-ordered result in
    # every mode (lib/tests/test_arraypad.py test_memory_layout_persistence);
    # ndtile's were C-ordered. Per-axis values and the corners (written by
    # the last axis) stay NumPy's
    shape = (600, 700) if big else (5, 6)
    modes = [('constant', {}), ('constant', {'constant_values': ((1, 2), (3, 4))}),
             ('edge', {}), ('wrap', {}), ('reflect', {}), ('symmetric', {}),
             ('reflect', {'reflect_type': 'odd'}), ('mean', {'stat_length': ((1, 2), (3, 1))}),
             ('linear_ramp', {'end_values': ((1, 2), (3, 4))}), ('maximum', {}), ('empty', {})]
    for dt in (np.float64, np.int32, np.complex64, np.bool_):
        base = make(dt, shape)
        for a in (np.asfortranarray(base), base, base.T[::2], np.asfortranarray(base[:0])):
            x = nt.asarray(a)
            assert x.flags.f_contiguous == a.flags.f_contiguous
            for mode, kw in modes:
                if dt is np.bool_ and mode in ('mean', 'linear_ramp'):
                    continue
                for pw in (2, (1, 3), ((2, 0), (1, 4)), {1: (2, 1)}):
                    try:
                        e = np.pad(a, pw, mode, **kw)
                    except ValueError:
                        with pytest.raises(ValueError):
                            nt.pad(x, pw, mode, **kw)
                        continue
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore", RuntimeWarning)    # fallback modes
                        g = nt.pad(x, pw, mode, **kw)
                    _same_layout(g, e)
                    assert g.flags.owndata
                    if mode != 'empty':
                        assert_same(g, e)


def test_nan_to_num_of_0d_arrays_is_a_scalar():
    # NumPy's nan_to_num returns x[()]: a 0-d array gives a NumPy scalar
    # (NumPy's lib test_type_check TestNanToNum test_complex_bad); ndtile
    # gave a 0-d array
    for v in (1 + 1j, np.nan, -np.inf, complex(np.nan, np.inf), 3, True, 2.5):
        for dt in (None, np.float32, np.complex64):
            if dt is not None and isinstance(v, complex) and dt is np.float32:
                continue
            a = np.array(v, dtype=dt)
            for kw in ({}, {'nan': 7.0, 'posinf': 1.0}, {'copy': False}):
                e = np.nan_to_num(a.copy(), **kw)
                x = nt.asarray(a)
                g = nt.nan_to_num(x, **kw)
                assert_same(g, e)
                if kw.get('copy') is False:
                    assert_same(x, np.array(np.nan_to_num(a)))    # written in place
    big = make(np.float64, (300000,))
    big[::7] = np.nan
    assert_same(nt.nan_to_num(nt.asarray(big)), np.nan_to_num(big))



def test_nan_to_num_in_place_into_a_numpy_array():
    # copy=False writes into x itself and returns it, a NumPy array too
    # (ndtile wrote into a copy in tiles and left x as it was); read-only:
    # NumPy's copyto message
    for dt in (np.float64, np.complex64, np.int32):
        for shape, key in (((7,), Ellipsis), ((4, 6), (slice(None), slice(None, None, -2))),
                           ((), Ellipsis), ((0, 3), Ellipsis)):
            base = make(dt, shape)
            if base.dtype.kind in 'fc' and base.size:
                base.flat[::2] = np.nan
                base.flat[1::3] = np.inf
            e, g = base.copy()[key], base.copy()[key]
            re, rg = np.nan_to_num(e, copy=False), nt.nan_to_num(g, copy=False)
            if shape:
                assert rg is g and re is e
            else:
                assert type(rg) is type(re) and rg == re     # NumPy's x[()]
            np.testing.assert_array_equal(g, e)
            g.flags.writeable = False
            x = nt.asarray(base.copy())
            x.flags.writeable = False
            for arr in (g, x):
                if base.dtype.kind in 'fc':
                    with pytest.raises(ValueError, match="assignment destination is read-only"):
                        nt.nan_to_num(arr, copy=False)


@pytest.mark.parametrize("big", [False, pytest.param(True, marks=pytest.mark.default_settings)])
def test_nan_to_num_array_valued_replacements(big):
    # NumPy's nan_to_num takes array_like nan/posinf/neginf and broadcasts
    # them against x (its docstring example); ndtile raised TypeError
    # (float() of the array)
    n = 70000 if big else 12
    for dt in (np.float32, np.float64, np.complex128):
        a = make(dt, (5, n))
        a[:, ::3] = np.inf
        a[:, 1::3] = -np.inf
        a[:, 2::5] = np.nan
        if dt == np.complex128:
            a.imag[:, ::4] = np.nan
            a.imag[:, 1::4] = -np.inf
        for x in (a, a[:, ::2], a[1:, 1::3], a[:0], a[2, 4]):
            row = np.arange(x.shape[-1] if x.ndim else 1) * 10.0 + 1.0
            for kw in ({'nan': row, 'posinf': row + 1, 'neginf': -row},
                       {'posinf': [7.0]},
                       {'nan': np.arange(x.shape[-1] if x.ndim else 1, dtype=np.int64)}):
                e = np.nan_to_num(x, **kw)
                g = nt.nan_to_num(nt.asarray(x),
                                  **{k: nt.asarray(v) if isinstance(v, np.ndarray) else v
                                     for k, v in kw.items()})
                assert_same(g, e)
            y = np.array(x)
            t = nt.asarray(y)
            if y.ndim:
                r = nt.nan_to_num(t, copy=False, posinf=row, neginf=row)
                assert r is t
                assert_same(t, np.nan_to_num(y, posinf=row, neginf=row))

def test_small_compositions():
    a = make(np.float64, (5, 6))
    a[0, 0], a[1, 1], a[2, 2] = np.nan, np.inf, -np.inf
    x = nt.asarray(a)
    assert_same(nt.isposinf(x), np.isposinf(a))
    assert_same(nt.isneginf(x), np.isneginf(a))
    assert_same(nt.nan_to_num(x), np.nan_to_num(a))
    assert_same(nt.nan_to_num(x, nan=-1.0, posinf=9.0), np.nan_to_num(a, nan=-1.0, posinf=9.0))
    c = a + 1j * a[::-1]
    assert_same(nt.nan_to_num(nt.asarray(c)), np.nan_to_num(c))
    assert_same(nt.isreal(nt.asarray(c)), np.isreal(c))
    assert_same(nt.iscomplex(nt.asarray(c)), np.iscomplex(c))
    assert_same(nt.isreal(x), np.isreal(a))
    b = make(np.int32, (4, 6))
    for k in (-2, 0, 1, 3):
        assert_same(nt.tril(nt.asarray(b), k), np.tril(b, k))
        assert_same(nt.triu(nt.asarray(b), k), np.triu(b, k))
        assert_same(nt.tri(3, 5, k), np.tri(3, 5, k))
    assert_same(nt.logspace(0, 3, 7), np.logspace(0, 3, 7), 1e-13)
    assert_same(nt.logspace(0, 1, 5, base=2.0, endpoint=False),
                np.logspace(0, 1, 5, base=2.0, endpoint=False), 1e-13)


def test_stack_family_refuses_generators():
    """NumPy refuses a generator of arrays (TypeError) in concatenate and
    the stack functions; ndtile consumed it."""
    for name in ('concatenate', 'stack', 'vstack', 'hstack', 'dstack', 'column_stack'):
        with pytest.raises(TypeError) as en:
            getattr(np, name)(np.arange(3) for _ in range(2))
        with pytest.raises(TypeError) as eg:
            getattr(nt, name)(nt.arange(3) for _ in range(2))
        assert str(eg.value) == str(en.value), name
        # sequences still work: lists, tuples, an array (its rows)
        a = make(np.float64, (4, 50))
        x = nt.asarray(a)
        assert_same(getattr(nt, name)([x, x[::-1]]), getattr(np, name)([a, a[::-1]]))
        assert_same(getattr(nt, name)(x), getattr(np, name)(a))


def test_real_imag_isposinf_of_scalars():
    """real, imag, isposinf and isneginf of a Python or NumPy scalar give
    what NumPy gives (the scalar's .real: real(1) is the int 1; a NumPy bool
    scalar), not a 0-d ndtile array; arrays stay ndtile arrays."""
    for v in (1, 1.5, 1 + 2j, True, np.float32(2), np.complex64(1 + 1j), np.int8(-3)):
        for f in ('real', 'imag'):
            g, e = getattr(nt, f)(v), getattr(np, f)(v)
            assert type(g) is type(e) and g == e, (f, v, g, e)
    for v in (np.inf, -np.inf, 1.0, np.float32(-np.inf), 3, np.float64(np.nan)):
        for f in ('isposinf', 'isneginf'):
            g, e = getattr(nt, f)(v), getattr(np, f)(v)
            assert type(g) is type(e) and g == e, (f, v, g, e)
    a = make(np.complex128, (200, 300))
    x = nt.asarray(a)
    assert_same(nt.real(x[::-1]), np.real(a[::-1]))
    assert_same(nt.imag([1 + 2j, 3]), np.imag([1 + 2j, 3]))
    assert_same(nt.isposinf(nt.asarray(np.array([np.inf, -np.inf]))),
                np.isposinf(np.array([np.inf, -np.inf])))


def _warned(f):
    """f()'s result (or exception type) and the warnings' categories it gave."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        try:
            r = f()
        except Exception as e:     # noqa: BLE001 - compared with NumPy's
            r = type(e)
    return r, [x.category for x in w]


_WRITES = {
    'setitem': lambda m, a: a.__setitem__((0, 0), 7),
    'setitem_all': lambda m, a: a.__setitem__(Ellipsis, 7),
    'setitem_mask': lambda m, a: a.__setitem__(m.ones(a.shape, bool), 7),
    'fill': lambda m, a: a.fill(7),
    'iadd': lambda m, a: a.__iadd__(1),
    'ufunc_out': lambda m, a: m.add(a, 1, out=a),
    'copyto': lambda m, a: m.copyto(a, 7),
    'put': lambda m, a: a.put(0, 7),
    'putmask': lambda m, a: m.putmask(a, m.ones(a.shape, bool), 7),
    'place': lambda m, a: m.place(a, m.ones(a.shape, bool), 7),
    'sort': lambda m, a: a.sort(),
    'partition': lambda m, a: a.partition(0),
    'flat': lambda m, a: a.flat.__setitem__(0, 7),
    'flat_set': lambda m, a: setattr(a, 'flat', 7),
    'byteswap': lambda m, a: a.byteswap(inplace=True),
    'put_along_axis': lambda m, a: m.put_along_axis(a, m.zeros((a.shape[0], 1), m.intp), 7,
                                                    axis=1),
    'view_setitem': lambda m, a: a[0].__setitem__(0, 7),
    'ipow': lambda m, a: a.__ipow__(2),
    'imul': lambda m, a: a.__imul__(2),
    'clip_out': lambda m, a: m.clip(a, 0, 1, out=a),
    'matmul_out': lambda m, a: m.matmul(m.ones((a.shape[0], 1), a.dtype),
                                        m.ones((1, a.shape[1]), a.dtype), out=a),
    'reduce_out': lambda m, a: m.add.reduce(m.ones((2, a.shape[1]), a.dtype), axis=0, out=a[0]),
    'where_out': lambda m, a: m.add(a, 1, out=a, where=m.ones(a.shape, bool)),
}


@pytest.mark.parametrize("n", [5, pytest.param(300_001, marks=pytest.mark.default_settings)])
def test_broadcast_arrays_ufunc_at_warn_on_write(n):
    # NumPy's ufunc.at into a broadcast_arrays result: one element by
    # integers or index arrays without a word (the flag stays), a slice
    # with the warning
    for m in (np, nt):
        a, _ = m.broadcast_arrays(m.arange(n), m.zeros((2, n), m.int64))
        with warnings.catch_warnings():
            warnings.simplefilter('error')
            m.add.at(a, (0, 1), 1)
            m.add.at(a, ([0, 1], [2, 2]), 1)
            assert int(a[1, 1]) == 2 and int(a[0, 2]) == 4
            assert 'WARN_ON_WRITE' in repr(a.flags)
            with pytest.raises(DeprecationWarning):
                m.add.at(a, (0, slice(None)), 1)
        assert int(a[1, 1]) == 2


@pytest.mark.parametrize("write", list(_WRITES))
@pytest.mark.parametrize("dt", ['int64', 'float32', 'complex128', 'bool'])
@pytest.mark.parametrize("n", [5, pytest.param(300_001, marks=pytest.mark.default_settings)])
def test_broadcast_arrays_warn_on_write(write, dt, n):
    # NumPy's WARN_ON_WRITE: the first write into a broadcast result warns
    # (DeprecationWarning) once; as an error, nothing is written and the flag
    # stays; a write into a view warns on the view and leaves the base's flag
    f = _WRITES[write]
    got = []
    for m in (np, nt):
        x = m.arange(n).astype(dt)
        y = m.zeros((2, n), dt)
        a, b = m.broadcast_arrays(x, y)
        assert b is y
        before = a.copy()
        with warnings.catch_warnings():
            warnings.simplefilter('error')
            try:
                f(m, a)
                err = None
            except Exception as e:     # noqa: BLE001 - compared with NumPy's
                err = type(e)
                if err is DeprecationWarning:
                    assert str(e).startswith('Numpy has detected that you (may be) writing')
        after_error = a.copy()
        r1 = _warned(lambda: f(m, a))
        r2 = _warned(lambda: f(m, a))
        # (the values written are not compared: which of the overlapping
        # writes wins is deviation 8)
        got.append((err, before, after_error, r1[0] is None, r1[1], r2[1], repr(a.flags)))
    assert got[0][0] is DeprecationWarning or dt == 'bool'     # (not vacuous)
    for g, w in zip(got[1], got[0]):
        if isinstance(w, np.ndarray):
            assert_same(g, w)
        else:
            assert g == w


_WRITES_PY = {   # writes NumPy makes in its own Python code
    'np_put': lambda m, a: m.put(a, [0], [7]),
    'fill_diagonal': lambda m, a: m.fill_diagonal(a, 7),
}


@pytest.mark.parametrize("write", list(_WRITES) + list(_WRITES_PY))
@pytest.mark.parametrize("n", [5, pytest.param(300_001, marks=pytest.mark.default_settings)])
def test_broadcast_arrays_warn_on_write_location(write, n):
    # the DeprecationWarning names the line that wrote, as NumPy's does for
    # the writes it makes in C (methods, .flat, ufuncs, copyto, putmask, ...),
    # not ndtile's own line; where NumPy writes from its own Python code
    # (np.place, np.put, fill_diagonal, put_along_axis, clip with out=)
    # NumPy names that file and ndtile
    # the user's line (deviations.md 20)
    f = {**_WRITES, **_WRITES_PY}[write]
    got = []
    for m in (np, nt):
        a, _ = m.broadcast_arrays(m.arange(n), m.zeros((2, n), m.int64))
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter('always')
            f(m, a)
        got.append([(x.filename, x.lineno) for x in w if x.category is DeprecationWarning])
    want, have = got
    assert len(want) == 1 and have == [(__file__, have[0][1])], (want, have)
    if want[0][0] == __file__:
        assert have == want
    else:
        assert want[0][0].startswith(os.path.dirname(np.__file__)), want
        assert write in ('place', 'np_put', 'fill_diagonal', 'put_along_axis', 'clip_out')


# Every other entry that writes into an existing array, for the two checks
# NumPy makes before it writes: a read-only array raises ValueError, a
# broadcast_arrays result warns (DeprecationWarning; FutureWarning where NumPy
# only reads flags.writeable: random's shuffle). a is 2-d (2, n) and NumPy's
# own functions take it as it is.
_ALL_WRITES = {
    **_WRITES,
    'setitem_fancy': lambda m, a: a.__setitem__(([0, 1], [1, 0]), 7),
    'setitem_row': lambda m, a: a.__setitem__(0, m.ones(a.shape[1], a.dtype)),
    'flat_slice': lambda m, a: a.flat.__setitem__(slice(1, 4), 7),
    'flat_fancy': lambda m, a: a.flat.__setitem__([0, 3], 7),
    'np_put': lambda m, a: m.put(a, [0], [7]),
    'copyto_where': lambda m, a: m.copyto(a, 7, where=m.ones(a.shape, bool)),
    'copyto_array': lambda m, a: m.copyto(a, m.ones(a.shape, a.dtype)),
    'ufunc_out_tuple': lambda m, a: m.add(1, 1, out=(a,)),
    'divmod_out': lambda m, a: m.divmod(m.ones(a.shape), 3, out=(a, m.empty(a.shape))),
    'modf_out': lambda m, a: m.modf(m.ones(a.shape), out=(m.empty(a.shape), a)),
    'sum_out': lambda m, a: m.sum(m.ones((3,) + a.shape), axis=0, out=a),
    'cumsum_out': lambda m, a: m.cumsum(m.ones(a.shape), axis=1, out=a),
    'accumulate_out': lambda m, a: m.add.accumulate(m.ones(a.shape), axis=1, out=a),
    'mean_out': lambda m, a: m.mean(m.ones((3,) + a.shape), axis=0, out=a),
    'max_out': lambda m, a: m.max(m.ones((3,) + a.shape), axis=0, out=a),
    'median_out': lambda m, a: m.median(m.ones((3,) + a.shape), axis=0, out=a),
    'take_out': lambda m, a: m.take(m.ones(9), m.zeros(a.shape, m.intp), out=a),
    'choose_out': lambda m, a: m.choose(m.zeros(a.shape, m.intp), [m.ones(a.shape)], out=a),
    'concatenate_out': lambda m, a: m.concatenate([m.ones((1, a.shape[1]))] * 2, out=a),
    'einsum_out': lambda m, a: m.einsum('kij->ij', m.ones((2,) + a.shape), out=a),
    'round_out': lambda m, a: m.round(a, out=a),
    'isubtract': lambda m, a: a.__isub__(1),
    'ifloordiv': lambda m, a: a.__ifloordiv__(1),
    'fill_diagonal': lambda m, a: m.fill_diagonal(a, 7),
    'add_at_slice': lambda m, a: m.add.at(a, (0, slice(None)), 1),
    'real_set': lambda m, a: setattr(a, 'real', 7),
    'nan_to_num': lambda m, a: m.nan_to_num(a, copy=False),
    'shuffle_rows': lambda m, a: (m.random.seed(1), m.random.shuffle(a.T)),
    'rng_shuffle': lambda m, a: m.random.default_rng(0).shuffle(a, axis=1),
    'as_strided': lambda m, a: m.lib.stride_tricks.as_strided(a, a.shape, a.strides)
    .__setitem__((0, 0), 7),
    'sliding_window': lambda m, a: m.lib.stride_tricks.sliding_window_view(
        a, 2, axis=1, writeable=True).__setitem__((0, 0, 0), 7),
    'array_method': lambda m, a: a.__array__().__setitem__((0, 0), 7),
}
# ValueError all the same, but another message than NumPy's (its iterator's,
# or WRITEBACKIFCOPY's where it copies out)
_RO_MESSAGE_DIFFERS = {'take_out', 'choose_out', 'einsum_out', 'add_at_slice'}
# NumPy warns for these only where its C code copies a (WRITEBACKIFCOPY): not
# for a C-contiguous view of a broadcast result (a[0] here); ndtile always warns
_NUMPY_SKIPS_CONTIGUOUS = {'place'}


@pytest.mark.parametrize("write", list(_ALL_WRITES))
@pytest.mark.parametrize("n", [5, pytest.param(300_001, marks=pytest.mark.default_settings)])
def test_every_write_checks_read_only_and_warn_on_write(write, n):
    f = _ALL_WRITES[write]
    got = []
    for m in (np, nt):
        ro = m.arange(2 * n, dtype=float).reshape(2, n)
        ro.flags.writeable = False
        views = [ro, ro[:, ::-1]]
        res = []
        for a in views:
            before = a.copy()
            r, w = _warned(lambda: f(m, a))
            msg = None
            if r is ValueError and write not in _RO_MESSAGE_DIFFERS:
                with pytest.raises(ValueError) as e, warnings.catch_warnings():
                    warnings.simplefilter('ignore')
                    f(m, a)
                msg = str(e.value)
            res.append((r if r is ValueError else None, w, msg))
            assert np.array_equal(np.asarray(a), np.asarray(before))
        a, _ = m.broadcast_arrays(m.arange(n, dtype=float), m.zeros((2, n)))
        r, w = _warned(lambda: f(m, a))
        res.append((r if isinstance(r, type) else None, w, repr(a.flags)))
        a, _ = m.broadcast_arrays(m.arange(n, dtype=float), m.zeros((2, 2, n)))
        a = a[0, :1]        # a C-contiguous view
        r, w = _warned(lambda: f(m, a))
        res.append((r if isinstance(r, type) else None, w, repr(a.flags)))
        got.append(res)
    if write in _NUMPY_SKIPS_CONTIGUOUS:
        assert got[0][3][:2] == (None, []) and got[1][3][:2] == (None, [DeprecationWarning])
        got[0].pop(), got[1].pop()
    if write == 'array_method':
        # ndtile's a.__array__() is a copy (flagged as a is): the write warns,
        # and a's own flag stays (NumPy's is a itself)
        got = [[r[:2] for r in g] for g in got]
    assert got[1] == got[0]
    assert got[0][0][0] is ValueError or write in ('array_method', 'as_strided')


@pytest.mark.parametrize("n", [4, pytest.param(300_001, marks=pytest.mark.default_settings)])
def test_broadcast_arrays_warn_on_write_flags(n):
    for m in (np, nt):
        x = m.arange(n)
        a, b = m.broadcast_arrays(x, m.ones((2, n)))
        c, d = m.broadcast_arrays(m.arange(3), m.arange(3))
        assert c.flags.writeable and 'WARN' not in repr(c.flags)
        assert 'WARN' not in repr(m.broadcast_arrays(x)[0].flags)
        assert repr(a.flags).splitlines()[3] == "  WRITEABLE : True  (with WARN_ON_WRITE=True)"
        assert a.flags.num == np.broadcast_arrays(np.arange(n), np.ones((2, n)))[0].flags.num
        # reading WRITEABLE warns (FutureWarning), also by key; repr does not
        assert _warned(lambda: a.flags.writeable) == (True, [FutureWarning])
        assert _warned(lambda: a.flags['W']) == (True, [FutureWarning])
        assert _warned(lambda: repr(a.flags))[1] == []
        assert _warned(lambda: b.flags.writeable) == (True, [])
        # read-only exports (an array spread over ranks lends no memory:
        # BufferError, docs/guide/ranks.md), views inherit the flag; a copy has none
        lends = m is np or nt.nranks() == 1
        if lends:
            assert memoryview(a).readonly
            assert a.__array_interface__['data'][1]
        assert 'WARN' in repr(a[1].flags) and 'WARN' in repr(a.T.flags)
        assert 'WARN' not in repr(a.copy().flags)
        # the flag is private: write-only, and cleared by setting WRITEABLE
        with pytest.raises(AttributeError):
            a.flags._warn_on_write
        with pytest.raises(ValueError, match="cannot clear '_warn_on_write'"):
            a.flags._warn_on_write = False
        v = a[0]
        v.flags.writeable = True
        assert _warned(lambda: v.flags.writeable) == (True, [])
        assert _warned(lambda: v.__setitem__(0, 5)) == (None, [])
        assert 'WARN' in repr(a.flags)
        a.flags.writeable = True
        assert _warned(lambda: a.flags.writeable) == (True, [])
        assert _warned(lambda: a.__setitem__((0, 0), 5)) == (None, [])
        if lends:
            assert not memoryview(a).readonly
        e, _ = m.broadcast_arrays(x, m.ones((2, n)))
        e.flags.writeable = False
        assert 'WARN' not in repr(e.flags)
        # a read-only input stays read-only, without the flag
        x.flags.writeable = False
        r = m.broadcast_arrays(x, m.ones((2, n)))[0]
        assert _warned(lambda: r.flags.writeable) == (False, [])
        # set by hand on any array (NumPy's own test)
        z = m.arange(10)
        z.flags._warn_on_write = True
        assert _warned(lambda: (z.__setitem__(1, 10), z.__setitem__(2, 10))) == (
            (None, None), [DeprecationWarning])
