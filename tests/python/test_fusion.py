"""Fused elementwise work against NumPy: chains with fresh results, ops into
existing arrays (in-place operators, out=, slice assignment, astype), and the
cases where another view of the written array must not be fused over.

Arrays here are larger than the inline limit, so the ops are deferred into
fusion groups, and span many of the suite's small tiles."""
import numpy as np
import pytest

import ndtile as nt

pytestmark = pytest.mark.usefixtures("native_only")

SHAPE = (230, 190)   # 43,700 elements: above the inline limit, many tiles
DTYPES = [np.float64, np.float32, np.int64, np.int32, np.complex128]


def data(dtype, k=0, shape=SHAPE):
    rng = np.random.default_rng(100 + k)
    x = rng.integers(-50, 50, shape).astype(dtype)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.integers(-50, 50, shape)
    return x


def same(got, want):
    got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", DTYPES)
def test_inplace_chain(dtype):
    a, b, c = (data(dtype, k) for k in range(3))
    na, nb, nc = (nt.asarray(x) for x in (a, b, c))
    t = a * b
    t += c
    t -= a
    r = t * 2
    nt_t = na * nb
    nt_t += nc
    nt_t -= na
    nr = nt_t * 2
    same(nr, r)
    same(nt_t, t)


@pytest.mark.parametrize("dtype", DTYPES)
def test_reads_before_and_after_a_write(dtype):
    a, b = data(dtype, 0), data(dtype, 1)
    na, nb = nt.asarray(a), nt.asarray(b)
    before, nbefore = a * 3, na * 3
    a += b
    na += nb
    after, nafter = a - b * b, na - nb * nb
    a *= b
    na *= nb
    same(nbefore, before)
    same(nafter, after)
    same(na, a)


def test_dropped_inplace_result_is_not_needed():
    a, b = data(np.float64, 0), data(np.float64, 1)
    na, nb = nt.asarray(a), nt.asarray(b)
    t = na * nb
    t += nb
    r = t + 1
    del t
    same(r, a * b + b + 1)


def test_other_views_of_the_written_array():
    a, b = data(np.float64, 0), data(np.float64, 1)
    na, nb = nt.asarray(a), nt.asarray(b)
    # read through a reversed view, then write the array: the read sees old values
    rev = a[::-1] * 2
    nrev = na[::-1] * 2
    a += b
    na += nb
    same(nrev, rev)
    # write, then read a shifted view of it
    shifted = a[1:] + a[:-1]
    nshifted = na[1:] + na[:-1]
    same(nshifted, shifted)
    # an input overlapping the output other than element for element
    a += a[::-1]
    na += na[::-1]
    same(na, a)
    a[...] = a[:, ::-1] * 1
    na[...] = na[:, ::-1] * 1
    same(na, a)


def test_small_reads_of_a_pending_write():
    a, b = data(np.float64, 0), data(np.float64, 1)
    na, nb = nt.asarray(a), nt.asarray(b)
    a += b
    na += nb
    assert float(na[3, 7]) == a[3, 7]
    same(na[0, :5], a[0, :5])
    same(na[10:12].sum(axis=0), a[10:12].sum(axis=0))


@pytest.mark.parametrize("src,dst", [(np.float64, np.float32), (np.int32, np.float64),
                                     (np.float32, np.int64), (np.bool_, np.int16)])
def test_astype_in_a_chain(src, dst):
    a = data(src, 0) if src is not np.bool_ else data(np.int8, 0) > 0
    b = data(np.float64, 1)
    na, nb = nt.asarray(a), nt.asarray(b)
    x = a.astype(dst)
    x += 3
    nx = na.astype(dst)
    nx += 3
    same(nx, x)
    same(nx * nb, x * b)


@pytest.mark.parametrize("dst", [np.float64, np.float32])
def test_a_view_across_tiles_written_twice(dst):
    # Two ops of one group write the same view, whose rows each cross the
    # destination's tiles (the transpose of a fresh array): a task's block
    # of it spans tiles (on ranks, tiles of several ranks), bound through
    # scratch. The first op's result is dead (the second overwrites it):
    # written back as well, it was scattered after the second's and undid
    # the += (on 2 and 3 ranks; the astype chain above did the same once
    # blocks whose rows cross tiles were one task).
    a = data(np.float64, 0)
    y = np.zeros(SHAPE[::-1], dtype=dst)
    ny = nt.asarray(y)
    yt, nyt = y.T, ny.T
    np.add(a, 1, out=yt, casting="unsafe")
    nt.add(nt.asarray(a), 1, out=nyt, casting="unsafe")
    yt += 3
    nyt += 3
    same(ny, y)
    nyt[...] = nt.asarray(a)
    nyt *= 2
    yt[...] = a
    yt *= 2
    same(ny, y)


def test_out_argument_with_a_cast():
    a, b = data(np.float64, 0), data(np.float64, 1)
    out = np.zeros(SHAPE, dtype=np.int32)
    nout = nt.asarray(out)
    np.multiply(a, b, out=out, casting="unsafe")
    nt.multiply(nt.asarray(a), nt.asarray(b), out=nout, casting="unsafe")
    same(nout, out)
    same(nout + 1, out + 1)


def test_slice_assignment_of_a_fused_expression():
    a, b = data(np.float64, 0), data(np.float64, 1)
    na, nb = nt.asarray(a), nt.asarray(b)
    u = np.zeros((232, 192))
    nu = nt.zeros((232, 192))
    u[1:-1, 1:-1] = a * b + 1
    nu[1:-1, 1:-1] = na * nb + 1
    same(nu, u)
    # strided destination
    u[::2, ::2] = 7.5
    nu[::2, ::2] = 7.5
    same(nu, u)
    v = u[1:-1, 1:-1]
    nv = nu[1:-1, 1:-1]
    v *= b
    nv *= nb
    same(nu, u)


def test_stencil_update_reads_old_values():
    u = data(np.float64, 0, (240, 200))
    nu = nt.asarray(u)
    for _ in range(3):
        u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
        nu[1:-1, 1:-1] = 0.25 * (nu[:-2, 1:-1] + nu[2:, 1:-1] + nu[1:-1, :-2] + nu[1:-1, 2:])
    same(nu, u)


def test_broadcast_inputs_and_zero_dim():
    a = data(np.float32, 0)
    row = data(np.float32, 1, (190,))
    na, nrow = nt.asarray(a), nt.asarray(row)
    a -= row
    na -= nrow
    a *= np.float32(0.5)
    na *= np.float32(0.5)
    same(na, a)
    z = np.array(2.0)
    nz = nt.asarray(z)
    z += 1
    nz += 1
    same(nz, z)
    e = np.zeros((0, 5))
    ne = nt.zeros((0, 5))
    e += 1
    ne += 1
    same(ne, e)


def test_unrelated_work_between_fused_ops():
    """Tasks and reads on other arrays do not flush a pending group; tasks
    that read its results or write its inputs do, in program order."""
    a, b, c = (data(np.float64, k) for k in range(3))
    na, nb, nc = (nt.asarray(x) for x in (a, b, c))
    t = a * b
    nt_t = na * nb
    c2 = (c * c).sum(axis=1)             # a reduction on other data
    nc2 = (nc * nc).sum(axis=1)
    first = float(nc[0, 0])               # a read of other data
    r = t - 2.0 * t + c2[:, None] + first
    nr = nt_t - 2.0 * nt_t + nc2[:, None] + first
    same(nr, r)
    # tasks that write an input of the pending group (a scatter, a sort)
    s = a * 2
    ns = na * 2
    rows = np.arange(0, SHAPE[0], 3)
    a[rows, rows % SHAPE[1]] = -1.0
    na[nt.asarray(rows), nt.asarray(rows % SHAPE[1])] = -1.0
    same(ns, s)
    s = a * 3
    ns = na * 3
    a.sort(axis=1)
    na.sort(axis=1)
    same(ns, s)
    same(na, a)
    # a task that reads a pending result
    u = a + b
    nu = na + nb
    same(nu.sum(axis=0), u.sum(axis=0))
