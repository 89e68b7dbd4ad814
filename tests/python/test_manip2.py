"""Rearranging, gathering, scattering and contractions: roll, rot90, tile,
repeat, take, take_along_axis, put, put_along_axis, diag, diagonal, trace,
tensordot, einsum, convolve, correlate. NDTILE_FALLBACK=error proves they
run natively."""
import numpy as np
import pytest

import ndtile as nt
from _helpers import DTYPES, NAMES, make, assert_same, tol_for, raises_same as errs, \
    check_same_error


pytestmark = pytest.mark.usefixtures("native_only")


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_roll_tile_repeat_dtypes(dt):
    a = make(dt, (37, 41))           # many tiles
    x = nt.asarray(a)
    assert_same(nt.roll(x, 5, 0), np.roll(a, 5, 0))
    assert_same(nt.roll(x, (-3, 50), (0, 1)), np.roll(a, (-3, 50), (0, 1)))
    assert_same(nt.roll(x, 7), np.roll(a, 7))
    assert_same(nt.tile(x[::-2, ::3], (2, 1, 3)), np.tile(a[::-2, ::3], (2, 1, 3)))
    assert_same(nt.repeat(x, 3, axis=1), np.repeat(a, 3, axis=1))
    assert_same(x.repeat(2), a.repeat(2))
    r = np.arange(37) % 3
    assert_same(nt.repeat(x, r, axis=0), np.repeat(a, r, axis=0))


def test_roll_edge_cases():
    for shape in [(), (0,), (5,), (3, 0)]:
        a = make(np.int32, shape)
        x = nt.asarray(a)
        assert_same(nt.roll(x, 2), np.roll(a, 2))
    a = make(np.float64, (4, 5, 6))
    x = nt.asarray(a)
    assert_same(nt.roll(x, [1, 2], axis=[0, 0]), np.roll(a, [1, 2], axis=[0, 0]))
    assert_same(nt.roll(x, -1, axis=-1), np.roll(a, -1, axis=-1))
    assert_same(nt.roll(x, 0, axis=1), np.roll(a, 0, axis=1))
    errs(lambda: nt.roll(x, 1, axis=3), lambda: np.roll(a, 1, axis=3))
    errs(lambda: nt.roll(x, [1, 2, 3], axis=[0, 1]), lambda: np.roll(a, [1, 2, 3], axis=[0, 1]))


def test_rot90():
    a = make(np.int64, (3, 4, 5))
    x = nt.asarray(a)
    for k in range(-2, 6):
        assert_same(nt.rot90(x, k), np.rot90(a, k))
        assert_same(nt.rot90(x, k, axes=(2, 0)), np.rot90(a, k, axes=(2, 0)))
    errs(lambda: nt.rot90(x, axes=(0, 0)), lambda: np.rot90(a, axes=(0, 0)))
    errs(lambda: nt.rot90(x, axes=(0, 3)), lambda: np.rot90(a, axes=(0, 3)))
    errs(lambda: nt.rot90(x, axes=(0,)), lambda: np.rot90(a, axes=(0,)))
    errs(lambda: nt.rot90(x[0, 0]), lambda: np.rot90(a[0, 0]))


def test_tile_repeat_edge_cases():
    for shape, reps in [((), 3), ((), (2, 2)), ((0,), 2), ((3,), (2, 0)), ((2, 3), 1),
                        ((2, 3), (2, 2, 2)), ((1500,), 2)]:
        a = make(np.float32, shape)
        assert_same(nt.tile(nt.asarray(a), reps), np.tile(a, reps))
    a = make(np.int16, (4, 3))
    x = nt.asarray(a)
    assert_same(nt.repeat(x, 0, axis=0), np.repeat(a, 0, axis=0))
    assert_same(nt.repeat(x, [0, 5, 0], axis=1), np.repeat(a, [0, 5, 0], axis=1))
    assert_same(nt.repeat(x, [2], axis=1), np.repeat(a, [2], axis=1))
    assert_same(nt.repeat(nt.asarray(np.float64(2.5)), 3), np.repeat(np.float64(2.5), 3))
    assert_same(nt.repeat(nt.asarray(np.float64(2.5)), 2, axis=0),
                np.repeat(np.float64(2.5), 2, axis=0))
    assert_same(nt.repeat(x[::-1], np.arange(12) % 4), np.repeat(a[::-1], np.arange(12) % 4))
    errs(lambda: nt.repeat(x, [1, 2], axis=1), lambda: np.repeat(a, [1, 2], axis=1))
    errs(lambda: nt.repeat(x, [1, -1, 2], axis=1), lambda: np.repeat(a, [1, -1, 2], axis=1))
    errs(lambda: nt.repeat(x, -1), lambda: np.repeat(a, -1))
    errs(lambda: nt.repeat(x, 2, axis=2), lambda: np.repeat(a, 2, axis=2))
    errs(lambda: nt.tile(x, -1), lambda: np.tile(a, -1))


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_take_dtypes(dt):
    a = make(dt, (30, 50))
    x = nt.asarray(a)
    idx = np.array([[0, 49, -1], [7, 7, -50]])
    assert_same(nt.take(x, idx, axis=1), np.take(a, idx, axis=1))
    assert_same(x.take([3, 1400]), a.take([3, 1400]))
    assert_same(nt.take(x, 5), np.take(a, 5))


def test_take_modes_and_errors():
    a = make(np.float64, (6, 7, 8))
    x = nt.asarray(a)
    ix = np.array([-20, -1, 0, 3, 9, 100])
    for mode in ('wrap', 'clip'):
        for ax in (0, 1, -1, None):
            assert_same(nt.take(x, ix, axis=ax, mode=mode), np.take(a, ix, axis=ax, mode=mode))
    assert_same(nt.take(x[::-1, ::2], [[1], [2]], axis=2),
                np.take(a[::-1, ::2], [[1], [2]], axis=2))
    assert_same(nt.take(x, [], axis=1), np.take(a, np.array([], int), axis=1))
    assert_same(nt.take(x, nt.asarray(np.int8(2)), axis=0), np.take(a, np.int8(2), axis=0))
    out = nt.zeros((6, 2, 8))
    r = nt.take(x, [1, 2], axis=1, out=out)
    assert r is out
    assert_same(out, np.take(a, [1, 2], axis=1))
    errs(lambda: nt.take(x, [7], axis=1), lambda: np.take(a, [7], axis=1))
    errs(lambda: nt.take(x, [-8], axis=1), lambda: np.take(a, [-8], axis=1))
    errs(lambda: nt.take(x, [1], axis=3), lambda: np.take(a, [1], axis=3))
    errs(lambda: nt.take(x, [1], mode='foo'), lambda: np.take(a, [1], mode='foo'))
    errs(lambda: nt.take(nt.zeros(0), [0]), lambda: np.take(np.zeros(0), [0]))
    errs(lambda: nt.take(x, [1.5 + 1j]), lambda: np.take(a, [1.5 + 1j]))
    errs(lambda: nt.take(x, nt.asarray(np.ones(2))), lambda: np.take(a, np.ones(2)))
    assert_same(nt.take(x, [1.7, True]), np.take(a, [1.7, True]))


@pytest.mark.parametrize("dt", [np.bool_, np.int8, np.uint64, np.float32, np.complex128])
def test_take_put_along_axis(dt):
    a = make(dt, (20, 60))
    x = nt.asarray(a)
    rng = np.random.default_rng(1)
    idx = rng.integers(-60, 60, (20, 5))
    assert_same(nt.take_along_axis(x, idx, axis=1), np.take_along_axis(a, idx, axis=1))
    assert_same(nt.take_along_axis(x, idx[:1], 1), np.take_along_axis(a, idx[:1], 1))
    i0 = rng.integers(0, 20, (3, 60))
    assert_same(nt.take_along_axis(x, i0, axis=0), np.take_along_axis(a, i0, axis=0))
    flat = rng.integers(0, 1200, 7)
    assert_same(nt.take_along_axis(x, flat, axis=None), np.take_along_axis(a, flat, axis=None))
    v = make(dt, (20, 5), seed=3)
    b, y = a.copy(), nt.asarray(a)
    np.put_along_axis(b, idx, v, axis=1)
    assert nt.put_along_axis(y, idx, nt.asarray(v), axis=1) is None
    assert_same(y, b)
    b, y = a.copy(), nt.asarray(a)
    np.put_along_axis(b, i0, v[0, 0], axis=0)       # duplicates: the last write wins
    nt.put_along_axis(y, i0, v[0, 0], axis=0)
    assert_same(y, b)


def test_along_axis_errors():
    a = np.ones((2, 3))
    x = nt.asarray(a)
    errs(lambda: nt.take_along_axis(x, np.ones((2, 3)), 1),
         lambda: np.take_along_axis(a, np.ones((2, 3)), 1))
    errs(lambda: nt.take_along_axis(x, np.ones(2, int), 1),
         lambda: np.take_along_axis(a, np.ones(2, int), 1))
    errs(lambda: nt.take_along_axis(x, np.full((2, 3), 5), 1),
         lambda: np.take_along_axis(a, np.full((2, 3), 5), 1))
    errs(lambda: nt.take_along_axis(x, np.zeros((2, 3), int), 2),
         lambda: np.take_along_axis(a, np.zeros((2, 3), int), 2))
    errs(lambda: nt.put_along_axis(x, np.full((2, 3), 5), 1., 1),
         lambda: np.put_along_axis(a.copy(), np.full((2, 3), 5), 1., 1))
    # boolean indices are refused (IndexError), not cast to 0/1 positions
    for b in (np.ones((2, 3), bool), np.zeros((2, 1), bool)):
        errs(lambda: nt.take_along_axis(x, nt.asarray(b), 1),
             lambda: np.take_along_axis(a, b, 1))
        errs(lambda: nt.put_along_axis(x, nt.asarray(b), 2., 1),
             lambda: np.put_along_axis(a.copy(), b, 2., 1))
    with pytest.raises(IndexError):
        nt.take_along_axis(nt.ones((200, 300)), nt.ones((200, 300), bool), 0)


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_put(dt):
    a = make(dt, (40, 30))
    v = make(dt, (7,), seed=2)
    ind = np.array([0, 1199, 5, 5, -1, 600, 5])
    b, y = a.copy(), nt.asarray(a)
    np.put(b, ind, v)
    nt.put(y, ind, nt.asarray(v))
    assert_same(y, b)
    b, y = a.copy(), nt.asarray(a)
    b.put([3, 2000, -5000], v[:2], mode='wrap')
    y.put([3, 2000, -5000], nt.asarray(v[:2]), mode='wrap')
    assert_same(y, b)


def test_put_views_and_errors():
    a = make(np.float64, (10, 12))
    b, y = a.copy(), nt.asarray(a)
    np.put(b[::-2, 1::3], [0, 3, 14], [1.5, 2.5])
    nt.put(y[::-2, 1::3], [0, 3, 14], [1.5, 2.5])
    assert_same(y, b)
    np.put(b, [200, -300], 9, mode='clip')
    nt.put(y, [200, -300], 9, mode='clip')
    assert_same(y, b)
    np.put(b, [1, 2], [])
    nt.put(y, [1, 2], [])
    assert_same(y, b)
    c, z = np.arange(5), nt.arange(5)
    np.put(c, [0, 1], [2.7, -1.2])
    nt.put(z, [0, 1], [2.7, -1.2])
    assert_same(z, c)
    errs(lambda: nt.put(y, [120], 1.0), lambda: np.put(b, [120], 1.0))
    errs(lambda: nt.put([1, 2], [0], [1]), lambda: np.put([1, 2], [0], [1]))
    errs(lambda: nt.put(y, [1], 1.0, mode='bad'), lambda: np.put(b, [1], 1.0, mode='bad'))
    assert_same(y, b)     # nothing written by the failed calls


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_diag_diagonal_trace(dt):
    a = make(dt, (25, 40))
    x = nt.asarray(a)
    for k in (-30, -3, 0, 2, 39, 45):
        assert_same(nt.diagonal(x, k), np.diagonal(a, k))
        assert_same(nt.diag(x, k), np.diag(a, k))
        t = np.trace(a, k)
        assert_same(nt.trace(x, k), t, rtol=tol_for(t.dtype, 'sum'))
    v = a[0, :7]
    for k in (-2, 0, 3):
        assert_same(nt.diag(nt.asarray(v), k), np.diag(v, k))


def test_diagonal_views_and_errors():
    a = make(np.float64, (4, 5, 6))
    x = nt.asarray(a)
    assert_same(x.diagonal(1, 2, 0), a.diagonal(1, 2, 0))
    assert_same(nt.diagonal(x[::-1, :, ::2], -1, -1, 1), np.diagonal(a[::-1, :, ::2], -1, -1, 1))
    assert_same(x.trace(0, 1, 2, dtype=np.float32), a.trace(0, 1, 2, dtype=np.float32),
                rtol=1e-6)
    out = nt.zeros(4)
    assert nt.trace(x, axis1=1, axis2=2, out=out) is out
    assert_same(out, np.trace(a, axis1=1, axis2=2), rtol=1e-12)
    assert_same(nt.trace(nt.asarray(np.ones((3, 3), np.int8))),
                np.trace(np.ones((3, 3), np.int8)))
    d = nt.diagonal(x)                 # a view of x
    assert d._same_store(x)
    assert_same(nt.diag(nt.zeros(0)), np.diag(np.zeros(0)))
    errs(lambda: nt.diagonal(x, 0, 1, 1), lambda: np.diagonal(a, 0, 1, 1))
    errs(lambda: nt.diagonal(x, 0, 0, 3), lambda: np.diagonal(a, 0, 0, 3))
    errs(lambda: nt.diagonal(x[0, 0]), lambda: np.diagonal(a[0, 0]))
    errs(lambda: nt.diag(x), lambda: np.diag(a))


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_tensordot_dtypes(dt):
    a, b = make(dt, (6, 5, 4)), make(dt, (5, 4, 3), seed=1)
    exp = np.tensordot(a, b)
    assert_same(nt.tensordot(nt.asarray(a), nt.asarray(b)), exp, rtol=tol_for(exp.dtype, 'sum'))
    exp = np.tensordot(a, b, ([1], [0]))
    assert_same(nt.tensordot(nt.asarray(a), nt.asarray(b), ([1], [0])), exp,
                rtol=tol_for(exp.dtype, 'sum'))


def test_tensordot_cases():
    a, b = make(np.float64, (40, 30)), make(np.float64, (30, 50), seed=1)
    x, y = nt.asarray(a), nt.asarray(b)
    assert_same(nt.tensordot(x, y, 1), np.tensordot(a, b, 1), rtol=1e-12)
    assert_same(nt.tensordot(x, y, 0), np.tensordot(a, b, 0))
    assert_same(nt.tensordot(x.T, y.T, ([0], [1])), np.tensordot(a.T, b.T, ([0], [1])),
                rtol=1e-12)
    assert_same(nt.tensordot(x[:, :0], y[:0], 1), np.tensordot(a[:, :0], b[:0], 1))
    c = make(np.int32, (3, 4))
    assert_same(nt.tensordot(nt.asarray(c), nt.asarray(c), ([0, 1], [0, 1])),
                np.tensordot(c, c, ([0, 1], [0, 1])))
    errs(lambda: nt.tensordot(x, y, ([0], [0])), lambda: np.tensordot(a, b, ([0], [0])))
    errs(lambda: nt.tensordot(x, y, ([0, 1], [0])), lambda: np.tensordot(a, b, ([0, 1], [0])))


EINSUM_CASES = [
    ('ij,jk->ik', [(7, 5), (5, 6)]),
    ('ij,jk', [(7, 5), (5, 6)]),
    ('bij,bjk->bik', [(3, 4, 5), (3, 5, 2)]),
    ('ii->i', [(6, 6)]),
    ('ii', [(6, 6)]),
    ('iji->j', [(4, 3, 4)]),
    ('ij->ji', [(3, 5)]),
    ('ij->', [(3, 5)]),
    ('i,i', [(9,), (9,)]),
    ('i,j->ij', [(4,), (3,)]),
    ('i,j', [(4,), (3,)]),
    ('...ij,...jk->...ik', [(2, 3, 4, 5), (5, 2)]),
    ('...i,...i', [(3, 4), (1, 4)]),
    ('ij...,jk...->ik...', [(3, 4, 2), (4, 5, 2)]),
    ('...', [(2, 3)]),
    ('ijk,jil->kl', [(3, 4, 5), (4, 3, 2)]),
    ('ab,bc,cd->ad', [(3, 4), (4, 5), (5, 2)]),
    ('ab,bc,ca->', [(3, 4), (4, 5), (5, 3)]),
    ('ij,ij->ij', [(4, 5), (4, 5)]),
    ('ij,i->j', [(4, 5), (4,)]),
    ('Ab,bC', [(2, 3), (3, 4)]),
    ('i,i->', [(0,), (0,)]),
    ('ij,jk->ik', [(50, 70), (70, 40)]),    # many tiles
    ('ij,j->ij', [(3, 4), (1,)]),            # size-1 labels broadcast
    ('ij,jk->ik', [(3, 1), (4, 5)]),
    ('bij,bjk->bik', [(1, 2, 3), (4, 3, 2)]),
    ('i,j,k->', [(2,), (3,), (4,)]),
    ('ijk,ikj->i', [(2, 3, 4), (2, 4, 3)]),
]


@pytest.mark.parametrize("sub,shapes", EINSUM_CASES, ids=[c[0] for c in EINSUM_CASES])
def test_einsum(sub, shapes):
    ops = [make(np.float64, s, seed=i) for i, s in enumerate(shapes)]
    exp = np.einsum(sub, *ops)
    got = nt.einsum(sub, *[nt.asarray(o) for o in ops])
    assert_same(got, exp, rtol=1e-12)


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_einsum_dtypes(dt):
    a, b = make(dt, (4, 5)), make(dt, (5, 3), seed=1)
    x, y = nt.asarray(a), nt.asarray(b)
    for sub, ops, nops in [('ij,jk->ik', (x, y), (a, b)), ('ij->j', (x,), (a,)),
                           ('ii->i', (x[:4, :4],), (a[:4, :4],)), ('ij,ij->i', (x, x), (a, a))]:
        exp = np.einsum(sub, *nops)
        assert_same(nt.einsum(sub, *ops), exp, rtol=tol_for(exp.dtype, 'sum'))


def test_einsum_options_and_errors():
    a, b = make(np.float32, (4, 5)), make(np.int16, (5, 3), seed=1)
    x, y = nt.asarray(a), nt.asarray(b)
    assert_same(nt.einsum('ij,jk', x, y, optimize=True), np.einsum('ij,jk', a, b, optimize=True),
                rtol=1e-6)
    assert_same(nt.einsum('ij,jk', x, y, optimize='greedy'), np.einsum('ij,jk', a, b),
                rtol=1e-6)
    assert_same(nt.einsum('ij,jk', x, y, dtype=np.float64), np.einsum('ij,jk', a, b,
                dtype=np.float64), rtol=1e-12)
    out = nt.zeros((4, 3), dtype=np.float32)
    assert nt.einsum('ij,jk', x, y, out=out) is out
    assert_same(out, np.einsum('ij,jk', a, b), rtol=1e-6)
    assert_same(nt.einsum('ij->ji', x[::-1, ::2]), np.einsum('ij->ji', a[::-1, ::2]))
    errs(lambda: nt.einsum('ij,jk', x, x), lambda: np.einsum('ij,jk', a, a))
    errs(lambda: nt.einsum('ij', x, y), lambda: np.einsum('ij', a, b))
    errs(lambda: nt.einsum('ijk', x), lambda: np.einsum('ijk', a))
    errs(lambda: nt.einsum('ij->ii', x), lambda: np.einsum('ij->ii', a))
    errs(lambda: nt.einsum('ij->k', x), lambda: np.einsum('ij->k', a))
    errs(lambda: nt.einsum('i1', x), lambda: np.einsum('i1', a))


@pytest.mark.parametrize("order", ['K', 'C'])
@pytest.mark.parametrize("optimize", [False, True, 'greedy', 'optimal'])
@pytest.mark.parametrize("sub,shapes", [
    ('i,i,i->', [(6,), (6,), (6,)]), ('i,i', [(5,), (5,)]), ('ii', [(3, 3)]),
    ('ij,jk,ki', [(2, 3), (3, 4), (4, 2)]), ('i,j->', [(3,), (4,)]), ('ij,ij', [(2, 3), (2, 3)]),
    ('i,i->i', [(0,), (0,)]), ('ij,jk,kl->il', [(2, 3), (3, 4), (4, 5)])])
def test_einsum_optimize_0d_result_kind(sub, shapes, optimize, order):
    # a 0-d result is a scalar from NumPy's C einsum and its multiply, a
    # 0-d array from its optimize= path's matmul reshaped or of an order=
    # (found by the fuzzer's Gen.gap_einsum)
    nops = [make(np.float32, s, seed=i) for i, s in enumerate(shapes)]
    exp = np.einsum(sub, *nops, optimize=optimize, order=order)
    got = nt.einsum(sub, *[nt.asarray(o) for o in nops], optimize=optimize, order=order)
    assert_same(got, exp, rtol=1e-6)


@pytest.mark.parametrize("sub,shape,raises", [
    ('...i->i', (2, 3), True), ('...i->', (2, 3), True), ('...->', (4,), True),
    ('i...->i', (2, 3, 4), True), ('...i->i', (3,), False), ('...ij->j', (2, 3), False),
    ('...ij->j', (0, 5, 2), True), ('...i,...i->i', [(2, 3), (3,)], True),
    ('...i,...i->...', [(2, 3), (3,)], False)])
def test_einsum_ellipsis_not_in_output(sub, shape, raises):
    # an input's '...' covering dimensions with an explicit output that has
    # no '...': NumPy's C einsum (optimize=False, the default) raises, its
    # optimize= path sums them; ndtile summed them always (fuzz seed 6149)
    shapes = shape if isinstance(shape, list) else [shape]
    ops = [make(np.int64, s, seed=i) for i, s in enumerate(shapes)]
    xs = [nt.asarray(o) for o in ops]
    raised, exp = check_same_error(lambda: nt.einsum(sub, *xs), lambda: np.einsum(sub, *ops))
    assert raised == raises
    if not raised:
        assert_same(nt.einsum(sub, *xs), exp)
    assert_same(nt.einsum(sub, *xs, optimize=True), np.einsum(sub, *ops, optimize=True))


@pytest.mark.parametrize("big", [False, pytest.param(True, marks=pytest.mark.default_settings)])
def test_einsum_order(big):
    # einsum's order= in any case runs natively ('c', 'f', 'a', 'k' and 'F'
    # fell back to NumPy, whose layout the conversion lost) with NumPy's
    # layout: 'F', 'C', 'A' (F for Fortran-contiguous operands) for a new
    # result; a view of the one operand stays a view whatever the order
    # (NumPy's test_einsum test_output_order)
    n = 300 if big else 5
    a = np.asfortranarray(make(np.float64, (2, 3, n)))
    b = np.asfortranarray(make(np.float32, (4, 3), seed=1))
    c = make(np.int32, (4, 3), seed=2)
    cases = [('...ft,mf->...mt', (a, b)), ('...ft,mf->...mt', (a, c)), ('ij->ji', (c,)),
             ('ij', (b,)), ('ij->i', (b,)), ('ijk->kj', (a,)), ('ij,ij->ji', (c, c)),
             ('i,j->ji', (c[0], c[1]))]

    def layout(r):
        return r.flags.c_contiguous, r.flags.f_contiguous

    for sub, ops in cases:
        xs = [nt.asarray(o) for o in ops]
        for opt in (False, True):
            for o in 'aAfFcCkK':
                e = np.einsum(sub, *ops, order=o, optimize=opt)
                g = nt.einsum(sub, *xs, order=o, optimize=opt)
                assert_same(g, e, rtol=1e-6)
                if o not in 'kK':
                    assert layout(g) == layout(e), (sub, o, opt)
                assert nt.shares_memory(g, xs[0]) == np.shares_memory(e, ops[0])


@pytest.mark.parametrize("big", [False, pytest.param(True, marks=pytest.mark.default_settings)])
def test_einsum_sublist_form(big):
    # einsum(op, sublist, ..., [out_sublist]) runs natively (it fell back to
    # NumPy, a copy where NumPy returns a view) and einsum_path takes it
    # (einsum_path(x, range(26)) recursed between ndtile and NumPy)
    n = 300 if big else 4
    a, b = make(np.float64, (n, 5)), make(np.float64, (5, 3), seed=1)
    x, y = nt.asarray(a), nt.asarray(b)
    for args in (((0, 1), (1, 2)), ((0, 1), (1, 2), (0, 2)), ((0, 1), (1, 2), (2, 0)),
                 ((30, 1), (1, 4)), ((Ellipsis, 1), (1, 2), (Ellipsis, 2))):
        want = np.einsum(a, list(args[0]), b, list(args[1]), *[list(t) for t in args[2:]])
        got = nt.einsum(x, list(args[0]), y, list(args[1]), *[list(t) for t in args[2:]])
        assert_same(got, want, rtol=1e-13)
    for subl in ([Ellipsis], [0, 1], [1, 0], [Ellipsis, 0]):
        got, want = nt.einsum(x, subl), np.einsum(a, subl)
        assert_same(got, want)
        assert nt.shares_memory(got, x) == np.shares_memory(want, a)
    sq = make(np.int32, (n, n))
    assert_same(nt.einsum(nt.asarray(sq), [0, 0]), np.einsum(sq, [0, 0]))
    assert_same(nt.einsum(nt.asarray(sq), [3, 3], [3]), np.einsum(sq, [3, 3], [3]))
    for bad in ([0, 52], [0, -1], [0, 'x'], [0, 1.0]):
        errs(lambda: nt.einsum(x, bad), lambda: np.einsum(a, bad))
    one = np.ones((1,) * 26)
    assert nt.einsum_path(nt.asarray(one), range(26)) == np.einsum_path(one, range(26))
    assert nt.einsum_path(x, [0, 1], y, [1, 2], [0, 2]) == \
        np.einsum_path(a, [0, 1], b, [1, 2], [0, 2])
    errs(lambda: nt.einsum_path(), lambda: np.einsum_path())
    errs(lambda: nt.einsum_path(""), lambda: np.einsum_path(""))


def test_einsum_out_type_and_explicit_path_checked():
    # NumPy: out= that is not an array is a TypeError; an explicit path
    # that does not fit the operands is a RuntimeError (ndtile ignored it)
    a, b, c = (make(np.float64, s, seed=i) for i, s in enumerate([(3, 4), (4, 5), (5, 2)]))
    x, y, z = nt.asarray(a), nt.asarray(b), nt.asarray(c)
    errs(lambda: nt.einsum('ij,jk', x, y, out='test'), lambda: np.einsum('ij,jk', a, b, out='test'))
    errs(lambda: nt.einsum('i', x[0], out=[0, 0, 0, 0]), lambda: np.einsum('i', a[0], out=[0, 0, 0, 0]))
    for path in (['einsum_path', (0, 1)], ['einsum_path', (0,), (0, 1)]):
        errs(lambda: nt.einsum('ij,jk,kl', x, y, z, optimize=path),
             lambda: np.einsum('ij,jk,kl', a, b, c, optimize=path))
    assert_same(nt.einsum('ij,jk,kl', x, y, z, optimize=['einsum_path', (0, 1), (0, 1)]),
                np.einsum('ij,jk,kl', a, b, c, optimize=['einsum_path', (0, 1), (0, 1)]),
                rtol=1e-13)


@pytest.mark.parametrize("opt", [False, True, 'optimal', 'greedy'])
@pytest.mark.parametrize("casting", [None, 'safe', 'same_kind', 'unsafe'])
def test_einsum_out_casting_follows_numpys_path(opt, casting):
    # NumPy's optimize= path casts into out= by the way its last contraction
    # writes it: its C einsum checks casting= ('safe' by default), multiply
    # or matmul writing out= the ufunc rule ('same_kind' by default), a
    # product reshaped or transposed first `out[...] = ab` (unsafe, whatever
    # casting= says). ndtile checked 'safe' always: a 0-d int out of
    # 'i,i->' with optimize='optimal' raised (NumPy's test_einsum_0d_out)
    cases = [('i,i->', [(7,), (7,)]), ('ij,ij->i', [(3, 4), (3, 4)]),
             ('ij,kj->i', [(3, 4), (2, 4)]), ('ij,jk->ik', [(3, 4), (4, 2)]),
             ('ij,jk->ki', [(3, 4), (4, 2)]), ('ij,j->ij', [(3, 4), (4,)]),
             ('ij,jk,kl->li', [(2, 3), (3, 4), (4, 5)]), ('ij->j', [(3, 4)]),
             ('...i,...i->...', [(2, 3), (3,)]), ('ijk,jk->ki', [(2, 3, 4), (3, 4)])]
    kw = {} if casting is None else {'casting': casting}
    for sub, shapes in cases:
        ops = [make(np.float64, s, seed=i, lo=-2, hi=2) for i, s in enumerate(shapes)]
        ops[0] = ops[0][..., ::-1]       # a strided view
        xs = [nt.asarray(o) for o in ops]
        shape = np.einsum(sub, *ops).shape
        for dt in (np.int64, np.float32, np.int8, np.bool_, np.complex128, np.float64):
            want, got = np.zeros(shape, dt), nt.zeros(shape, dt)
            raised, _ = check_same_error(
                lambda: nt.einsum(sub, *xs, out=got, optimize=opt, **kw),
                lambda: np.einsum(sub, *ops, out=want, optimize=opt, **kw))
            if not raised:
                assert nt.einsum(sub, *xs, out=got, optimize=opt, **kw) is got
                assert_same(got, want, rtol=1e-6)


CORR_DTYPES = [np.bool_, np.int8, np.int32, np.int64, np.uint16, np.uint64, np.float32,
               np.float64, np.complex64, np.complex128]


@pytest.mark.parametrize("dt", CORR_DTYPES, ids=[np.dtype(d).name for d in CORR_DTYPES])
@pytest.mark.parametrize("mode", ['full', 'same', 'valid'])
def test_convolve_correlate(dt, mode):
    for n1, n2 in [(1, 1), (10, 3), (3, 10), (1500, 31), (31, 1500), (8, 8), (9, 4), (4, 9)]:
        a, v = make(dt, (n1,)), make(dt, (n2,), seed=1)
        x, y = nt.asarray(a), nt.asarray(v)
        exp = np.convolve(a, v, mode)
        assert_same(nt.convolve(x, y, mode), exp, rtol=tol_for(exp.dtype, 'sum') * 10)
        exp = np.correlate(a, v, mode)
        assert_same(nt.correlate(x, y, mode), exp, rtol=tol_for(exp.dtype, 'sum') * 10)


def test_convolve_views_mixed_and_errors():
    a, v = make(np.float64, (3000,)), make(np.complex64, (21,), seed=1)
    x, y = nt.asarray(a), nt.asarray(v)
    assert_same(nt.convolve(x[::-3], y[::2]), np.convolve(a[::-3], v[::2]), rtol=1e-6)
    assert_same(nt.correlate(x[5:900:2], y, 'same'), np.correlate(a[5:900:2], v, 'same'),
                rtol=1e-6)
    assert_same(nt.convolve(nt.asarray(np.float64(2.0)), x[:5]), np.convolve(2.0, a[:5]))
    assert_same(nt.correlate(x[:9], x[:4], mode=1), np.correlate(a[:9], a[:4], mode=1),
                rtol=1e-12)
    errs(lambda: nt.convolve(x, y, 'foo'), lambda: np.convolve(a, v, 'foo'))
    errs(lambda: nt.convolve(x[:0], y), lambda: np.convolve(a[:0], v))
    errs(lambda: nt.correlate(x, y[:0]), lambda: np.correlate(a, v[:0]))
    errs(lambda: nt.convolve(nt.ones((2, 2)), y), lambda: np.convolve(np.ones((2, 2)), v))


def test_registered_native():
    from ndtile import _fallback
    for name in ('roll', 'rot90', 'tile', 'repeat', 'take', 'take_along_axis', 'put',
                 'put_along_axis', 'diag', 'diagonal', 'trace', 'tensordot', 'einsum',
                 'convolve', 'correlate'):
        assert getattr(np, name) in _fallback.NATIVE, name
    x = nt.arange(12.).reshape(3, 4)
    assert_same(np.roll(x, 1), np.roll(np.arange(12.).reshape(3, 4), 1))
    assert_same(np.einsum('ij->i', x), np.einsum('ij->i', np.arange(12.).reshape(3, 4)))
