"""matmul, @, dot, vdot and inner run in the core: compare with NumPy."""
import os
import re

import numpy as np
import pytest

import ndtile as nt
from _helpers import assert_same, make

PAIRS = [((5,), (5,)), ((3, 4), (4,)), ((4,), (4, 6)), ((2, 3, 4), (4, 5)),
         ((1, 3, 4), (2, 4, 2)), ((40, 33), (33, 50)), ((0, 3), (3, 2)), ((3, 0), (0, 2))]
DTS = [np.float32, np.float64, np.complex64, np.complex128, np.int32, np.int64, np.uint8,
       np.bool_]


_ON_DEVICES = os.environ.get("NDTILE_DEVICES", "none") not in ("", "none")


def _close(got, exp, dt):
    g = np.asarray(got)
    assert g.dtype == np.asarray(exp).dtype and g.shape == np.shape(exp)
    tol = 1e-4 if np.dtype(dt) in (np.float32, np.complex64) else 1e-12
    np.testing.assert_allclose(g, exp, rtol=tol, atol=tol)


@pytest.mark.parametrize("dt", DTS)
@pytest.mark.parametrize("sa,sb", PAIRS)
def test_matmul(dt, sa, sb):
    a, b = make(dt, sa, seed=1, lo=-3, hi=3), make(dt, sb, seed=2, lo=-3, hi=3)
    _close(nt.asarray(a) @ nt.asarray(b), a @ b, dt)
    _close(nt.matmul(nt.asarray(a), nt.asarray(b)), np.matmul(a, b), dt)


@pytest.mark.parametrize("dt", [np.float64, np.int64, np.complex128])
def test_matmul_views_and_out(dt):
    a = make(dt, (30, 20), seed=3, lo=-3, hi=3)
    x = nt.asarray(a)
    _close(x.T @ x, a.T @ a, dt)
    _close(x[::-2, 1::3] @ x[3:10, ::-1], a[::-2, 1::3] @ a[3:10, ::-1], dt)
    out = nt.zeros((20, 20), dtype=dt)
    r = nt.matmul(x.T, x, out=out)
    assert r is out
    _close(out, a.T @ a, dt)


@pytest.mark.parametrize("dt", [np.float64, np.int32])
def test_dot_vdot_inner(dt):
    a, b = make(dt, (4, 5), seed=4), make(dt, (5, 3), seed=5)
    v, w = make(dt, (5,), seed=6), make(dt, (5,), seed=7)
    _close(nt.dot(nt.asarray(a), nt.asarray(b)), np.dot(a, b), dt)
    _close(nt.asarray(a).dot(nt.asarray(v)), a.dot(v), dt)
    _close(nt.dot(nt.asarray(v), nt.asarray(w)), np.dot(v, w), dt)
    _close(nt.vdot(nt.asarray(v), nt.asarray(w)), np.vdot(v, w), dt)
    _close(nt.inner(nt.asarray(a), nt.asarray(v)), np.inner(a, v), dt)
    _close(nt.inner(nt.asarray(a), nt.asarray(a)), np.inner(a, a), dt)


def test_matmul_errors():
    with pytest.raises(ValueError):
        nt.ones((2, 3)) @ nt.ones((4, 3))
    with pytest.raises(ValueError):
        nt.matmul(nt.asarray(3.0), nt.ones(3))
    with pytest.raises(ValueError):
        nt.dot(nt.ones((2, 3)), nt.ones((4, 5)))


@pytest.mark.parametrize("sa,sb", [((3,), (3,)), ((300, 300), (300,)), ((), (3, 3)),
                                   ((3,), (3, 3)), ((4, 300), (300, 300)),
                                   ((2, 300, 300), (300, 300))])
def test_imatmul_shapes(sa, sb):
    # a @= b keeps a's shape: NumPy raises ValueError unless a has a
    # dimension and b two (1-d @= 1-d was accepted, broadcast into a)
    a, b = make(np.float64, sa, seed=4), make(np.float64, sb, seed=5)
    x, y = nt.asarray(a), nt.asarray(b)
    try:
        a @= b
    except ValueError as e:
        with pytest.raises(ValueError, match=re.escape(str(e))):
            x @= y
        with pytest.raises(ValueError, match=re.escape(str(e))):
            x @= b.tolist()
        return
    x0 = x
    x @= y
    assert x is x0
    _close(x, a, np.float64)


def test_matmul_defers_to_priority():
    # an object without __array_ufunc__ but of higher __array_priority__
    # and with the reflected operator gets the operator (NumPy's deferral);
    # __array_ufunc__ = None always does
    class Prio:
        __array_priority__ = 1000

        def __rmatmul__(self, other):
            return "reflected"

        def __radd__(self, other):
            return "reflected"

    class NoUfunc:
        __array_ufunc__ = None

        def __rmatmul__(self, other):
            return "reflected"

        def __radd__(self, other):
            return "reflected"

    for m in (np, nt):
        assert m.ones(2) @ Prio() == "reflected"
        assert m.ones(2) @ NoUfunc() == "reflected"
        # in place: the legacy priority defers, __array_ufunc__ = None does
        # not (the ufunc refuses the operand): NumPy's binop_should_defer
        for op in ('@=', '+='):
            x = m.ones((2, 2))
            x = eval_inplace(x, op, Prio())
            assert x == "reflected"
            with pytest.raises(TypeError, match="does not support ufuncs"):
                eval_inplace(m.ones((2, 2)), op, NoUfunc())


def eval_inplace(x, op, y):
    if op == '@=':
        x @= y
    else:
        x += y
    return x


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("sa,sb", [((1024, 16), (16,)), ((16,), (16, 1024)), ((300, 200), (200,)),
                                   ((200,), (200, 300)), ((40000, 3), (3,))])
def test_matvec_out_same_bits(dt, sa, sb):
    # dot/matmul of a matrix and a vector with out= ran the general product:
    # other rounding than the same product without out= (23% of 1024
    # elements differed in the last bits; NumPy's out= changes no bits)
    # On devices a float product's bits are the processor's that ran each
    # block (cuBLAS's or the CPU's, within the stated bound: design.md), and
    # out= may place blocks otherwise than a fresh result (an out on the host
    # keeps a small product there): there the same bits are not promised.
    same = (lambda g, w: _close(g, w, dt)) if _ON_DEVICES else np.testing.assert_array_equal
    a, b = make(dt, sa, seed=6), make(dt, sb, seed=7)
    x, y = nt.asarray(a), nt.asarray(b)
    for f in (nt.dot, nt.matmul):
        want = np.asarray(f(x, y))
        _close(want, np.dot(a, b), dt)
        o = nt.empty(want.shape, dtype=dt)
        assert f(x, y, out=o) is o
        same(np.asarray(o), want)
    # out= a strided view (matmul; dot wants a C-contiguous out, as NumPy's)
    big = nt.zeros(2 * want.shape[0], dtype=dt)
    nt.matmul(x, y, out=big[::2])
    same(np.asarray(big[::2]), want)
    with pytest.raises(ValueError):
        np.dot(a, b, out=np.zeros(2 * want.shape[0], dtype=dt)[::2])
    with pytest.raises(ValueError):
        nt.dot(x, y, out=big[::2])
    # out= the vector operand itself (overlap)
    n = sb[0] if len(sb) == 1 else sa[0]
    sq, v = make(dt, (n, n), seed=8), make(dt, (n,), seed=9)
    want = np.asarray(nt.dot(nt.asarray(sq), nt.asarray(v)))
    xv = nt.asarray(v)
    nt.dot(nt.asarray(sq), xv, out=xv)
    same(np.asarray(xv), want)


@pytest.mark.default_settings
@pytest.mark.parametrize("sa,sb", [((400000, 3), (3,)), ((3,), (3, 400000)), ((700, 600), (600,))])
def test_matvec_out_same_bits_default_tiles(sa, sb):
    test_matvec_out_same_bits(np.float64, sa, sb)


@pytest.mark.parametrize("priority", [None, "raise", "x"])
def test_binop_bad_priority_is_a_scalars(priority):
    # an __array_priority__ that is not a number, or raises, counts as a
    # scalar's (NumPy's PyArray_GetPriority): no deferral, no error from the
    # comparison (ndtile raised TypeError / the RuntimeError)
    class Bad:
        @property
        def __array_priority__(self):
            if priority == "raise":
                raise RuntimeError("bad priority")
            return priority

        def __radd__(self, other):
            return "reflected"

        def __rmatmul__(self, other):
            return "reflected"

    for m in (np, nt):
        r = m.arange(3.0) + Bad()
        assert r.shape == (3,) and list(r) == ["reflected"] * 3
    for m in (np, nt):
        with pytest.raises(ValueError, match="does not have enough dimensions"):
            m.ones(2) @ Bad()


# Skinny products whose operands span several tiles that are not one buffer
# (stores under 4 MiB, see ndt__alloc_data_run): the pieces are gathered and
# scattered a run of rows per tile, not a row at a time (k-means: X @ C.T
# and onehot.T @ X); larger stores are read in place.
def _skinny_cases(n):
    return [((n, 8), (16, 8), lambda x, c: x @ c.T),
            ((n, 16), (n, 8), lambda o, x: o.T @ x),
            ((n, 8), (16, 8), lambda x, c: x[::-1] @ c.T),
            ((n, 10), (16, 5), lambda x, c: x[:, ::2] @ c.T),
            ((n, 8), (8, 16), lambda x, c: x.T[:, ::3] @ x[::3])]


def _check_skinny(n):
    for dt in [np.float64, np.float32, np.int64, np.int32, np.complex128, np.bool_]:
        for sa, sb, f in _skinny_cases(n):
            a, b = make(dt, sa, seed=4, lo=-3, hi=3), make(dt, sb, seed=5, lo=-3, hi=3)
            got, exp = f(nt.asarray(a), nt.asarray(b)), f(a, b)
            if np.dtype(dt).kind in 'biu':
                assert_same(got, exp)
            elif _ON_DEVICES and dt == np.float32:
                # on devices the products are cuBLAS's (another order of the
                # n-term sums): within the stated bound (docs/design.md),
                # 2 (K + 2) eps |A| |B| elementwise, K <= n
                g = np.asarray(got)
                assert g.dtype == exp.dtype and g.shape == exp.shape
                ab = f(np.abs(a).astype(np.float64), np.abs(b).astype(np.float64))
                bound = 2 * (n + 2) * np.finfo(np.float32).eps * ab
                assert (np.abs(g.astype(np.float64) - exp) <= bound).all()
            else:
                _close(got, exp, dt)
    # operands cast to the compute dtype while gathered
    a, b = make(np.int32, (n, 8), seed=6), make(np.float64, (16, 8), seed=7)
    _close(nt.asarray(a) @ nt.asarray(b).T, a @ b.T, np.float64)
    _close(nt.asarray(b) @ nt.asarray(a).T[:, ::-1], b @ a.T[:, ::-1], np.float64)


def test_skinny_products_across_tiles():
    _check_skinny(3000)


@pytest.mark.default_settings
def test_skinny_products_across_tiles_default_tiles():
    _check_skinny(40000)   # 40000 x 8 float64: 2.4 MiB, two tiles apart
    _check_skinny(70000)   # 70000 x 16 float64: 8.5 MiB, one buffer
