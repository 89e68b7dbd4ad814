"""Fused elementwise chains and writes into existing arrays at default
settings (2 MiB tiles), where the runtime defers and fuses them: chains
with and without temporaries held, in-place operators, out=, slice
assignment (several writes into one array, stepped, reversed, overlapping
the source), compared with NumPy doing the same steps."""
import numpy as np
import pytest

import ndtile as nt
from _helpers import ABOVE_INLINE, n_tiles, make, assert_big

pytestmark = pytest.mark.default_settings

N = n_tiles(np.float64)             # 2.5 tiles


def _five(dt, n=N):
    arrs = [make(dt, n, seed=s, lo=1, hi=9, nonzero=True) for s in range(5)]
    return arrs, [nt.asarray(a) for a in arrs]


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int64, np.int16, np.complex128])
def test_fused_chain(dt):
    (a, b, c, d, e), (x, y, z, w, v) = _five(dt)
    assert_big(x * y + z * w - v, a * b + c * d - e, rtol=1e-6 if dt == np.float32 else 0)
    # temporaries held: each must keep its own value after the chain runs
    t1 = x * y
    t2 = z * w
    r = t1 + t2 - v
    r2 = r * 2 + t1
    assert_big(r2, (a * b + c * d - e) * 2 + a * b)
    assert_big(r, a * b + c * d - e)
    assert_big(t1, a * b)
    assert_big(t2, c * d)
    # an input rebound in the chain
    q = x.copy()
    q = q * y
    q = q + z
    assert_big(q, a * b + c)
    assert_big(x, a)
    # mixed with scalars and a broadcast row
    m = a[: N - N % 500].reshape(-1, 500)
    mx = x[: N - N % 500].reshape(-1, 500)
    row, rowx = b[:500], y[:500]
    assert_big((mx * 3 - rowx) * rowx + 1, (m * 3 - row) * row + 1)


def test_fused_chain_math_and_reduction():
    (a, b, c, d, e), (x, y, z, w, v) = _five(np.float64)
    assert_big(nt.sqrt(x * y) + nt.exp(-z) * nt.sin(w), np.sqrt(a * b) + np.exp(-c) * np.sin(d),
               rtol=1e-13)
    s = (x * y + z).sum()
    assert s == pytest.approx((a * b + c).sum(), rel=1e-12)
    assert_big(((x > y) & (z < w)), (a > b) & (c < d))
    assert_big(nt.where(x > y, x - y, z), np.where(a > b, a - b, c))
    # comparisons feed a cast and a count
    assert int(nt.count_nonzero(x * 2 > y + z)) == int(np.count_nonzero(a * 2 > b + c))
    assert_big((x > y).astype(np.int8) + (z > w), (a > b).astype(np.int8) + (c > d))


@pytest.mark.parametrize("dt", [np.float64, np.int32, np.uint8, np.complex64, np.bool_])
def test_inplace_operators_and_out(dt):
    n = n_tiles(dt, 1.7)
    a, b = make(dt, n, 1), make(dt, n, 2)
    x, y = nt.asarray(a), nt.asarray(b)
    if dt == np.bool_:
        a |= b
        x |= y
        a &= b[::-1]
        x &= y[::-1]
    else:
        a += b
        x += y
        a *= 3
        x *= 3
        a -= b[::-1]
        x -= y[::-1]
        a[::2] += 1
        x[::2] += 1
    assert_big(x, a)
    o = make(dt, n, 3)
    ox = nt.asarray(o)
    np.multiply(a, b, out=o)
    nt.multiply(x, y, out=ox)
    assert_big(ox, o)
    np.add(a[::3], b[::-3], out=o[::3])          # out= a stepped view: the rest stays
    nt.add(x[::3], y[::-3], out=ox[::3])
    assert_big(ox, o)


def test_slices_of_one_array_written_several_times():
    # the bug this file exists for: of two writes into one array only the last landed
    for n in (65538, N, 3 * N + 1):
        r = nt.zeros(n)
        h = n // 2 + 1
        r[:h] = 1
        r[h:] = 1
        assert float(r.sum()) == float(n)
    ref, got = np.zeros(N), nt.zeros(N)
    pieces = [(0, 70000, 1.0), (70000, 300000, 2.0), (300000, N, 3.0), (50000, 400000, 4.0),
              (0, 70000, 5.0), (N - 10, N, 6.0), (123457, 123458, 7.0)]
    for lo, hi, val in pieces:
        ref[lo:hi] = val
        got[lo:hi] = val
    assert_big(got, ref)
    # writes of arrays, stepped and reversed, and a read between them
    src = make(np.float64, N, 9)
    ref, got = np.zeros(N), nt.zeros(N)
    ref[::2] = src[::2]
    got[::2] = nt.asarray(src)[::2]
    ref[1::2] = -src[1::2]
    got[1::2] = -nt.asarray(src)[1::2]
    ref[::-7] = 0.5
    got[::-7] = 0.5
    ref[10:-10:3] *= 2
    got[10:-10:3] *= 2
    assert float(got[12345]) == ref[12345]
    ref[:1000] = ref[-1000:]
    got[:1000] = got[-1000:]
    assert_big(got, ref)
    # 2-d: row blocks, column blocks, a block in the middle
    ref, got = np.zeros((700, 800)), nt.zeros((700, 800))
    for sl, val in (((slice(0, 350),), 1.0), ((slice(350, None),), 2.0),
                    ((slice(None), slice(0, 400)), 3.0), ((slice(100, 600), slice(200, 700)), 4.0),
                    ((slice(None, None, 3), slice(1, None, 5)), 5.0)):
        ref[sl] = val
        got[sl] = val
    assert_big(got, ref)


@pytest.mark.parametrize("dt", [np.float64, np.int8, np.complex128])
def test_assign_whole_and_views(dt):
    n = n_tiles(dt, 1.5)
    a, b = make(dt, n, 1), make(dt, n, 2)
    x, y = nt.asarray(a), nt.asarray(b)
    x[...] = y
    a[...] = b
    assert_big(x, a)
    x[:] = 3
    a[:] = 3
    x[::2] = y[::2]
    a[::2] = b[::2]
    assert_big(x, a)
    x[1::2] = y[:: -2][: n // 2]
    a[1::2] = b[:: -2][: n // 2]
    assert_big(x, a)
    # a broadcast row into a 2-d block
    m = a[: n - n % 600].reshape(-1, 600)
    mx = x[: n - n % 600].reshape(-1, 600)
    m[...] = b[:600]
    mx[...] = y[:600]
    assert_big(x, a)


@pytest.mark.parametrize("dt", [np.float64, np.int16, np.complex64])
def test_overlapping_self_assignment(dt):
    n = n_tiles(dt, 2.2)
    a = make(dt, n, 1)
    cases = [
        lambda v: v.__setitem__(slice(1, None), v[:-1]),
        lambda v: v.__setitem__(slice(None, -1), v[1:]),
        lambda v: v.__setitem__(slice(None), v[::-1]),
        lambda v: v.__setitem__(slice(None, n - 1, 2), v[1::2]),
        lambda v: v.__setitem__(slice(300000, None), v[: n - 300000]),   # shift past a tile
        lambda v: v.__setitem__(slice(None, n - 300000), v[300000:]),
        lambda v: v.__setitem__(slice(None, n // 2), v[::-2][: n // 2]),
        # 1-d targets whose source overlaps them with strides the same way:
        # NumPy's loop writes element by element (no copy first), so values
        # written early are read again later (issue: fuzz seed 73003012)
        lambda v: v.__setitem__(slice(None, None, 3), v[::2][: len(v[::3])]),
        lambda v: v.__setitem__(slice(7, 7 + 2 * len(v[1::3]), 2), v[1::3]),
        lambda v: v.__setitem__(slice(None, None, -3), v[::-2][: len(v[::-3])]),
        lambda v: v[: n - n % 600].reshape(-1, 600).__setitem__(
            (slice(None), 5), v[1200: 1200 + (n - n % 600) // 600]),
    ]
    for i, case in enumerate(cases):
        ref = a.copy()
        got = nt.asarray(a)
        case(ref)
        case(got)
        assert_big(got, ref)
    # in-place operators with an overlapping operand
    ref, got = a.copy(), nt.asarray(a)
    ref[1:] += ref[:-1]
    got[1:] += got[:-1]
    assert_big(got, ref)
    ref, got = a.copy(), nt.asarray(a)
    ref += ref[::-1]
    got += got[::-1]
    assert_big(got, ref)
    ref, got = a.copy(), nt.asarray(a)
    np.add(ref[:-1], ref[1:], out=ref[1:])
    nt.add(got[:-1], got[1:], out=got[1:])
    assert_big(got, ref)
    # a square matrix plus its own transpose, in place
    k = int(np.sqrt(n))
    ref = a[: k * k].reshape(k, k).copy()
    got = nt.asarray(ref)
    ref += ref.T
    got += got.T
    assert_big(got, ref)


def test_writes_through_views_reach_base():
    a = make(np.float64, N, 1)
    x = nt.asarray(a)
    m, mx = a[: N - N % 1000].reshape(-1, 1000), x[: N - N % 1000].reshape(-1, 1000)
    m.T[5] = -1
    mx.T[5] = -1
    m[::-3, ::7] *= 2
    mx[::-3, ::7] *= 2
    r, rx = m.ravel(), mx.ravel()      # a view: contiguous
    r[:10] = 9
    rx[:10] = 9
    s, sx = m[:, 3], mx[:, 3]
    s += 100
    sx += 100
    assert_big(x, a)
    assert_big(rx, r)
    # a write after a pending read of the old values
    old = x[:ABOVE_INLINE] * 1
    x[:] = 0
    assert_big(old, a[:ABOVE_INLINE] * 1)
    assert float(x.sum()) == 0.0


# --- strided views whose elements leave whole tiles out --------------------
# A task on a block of a.T or of a stepped view names only the tiles its
# elements lie in (the runtime's access lists, src/runtime/bind.c
# ndt__view_tiles): these check that what depends on the real overlaps is
# still ordered, at 2 MiB tiles, where rows of 2.4 MB and steps of
# several rows skip whole tiles.

@pytest.mark.parametrize("dt", [np.float64, np.int32, np.complex128])
def test_transposed_copy_and_writes_skipping_tiles(dt):
    a = make(dt, (8, 300_000), seed=3)
    x = nt.asarray(a)
    assert_big(x.T.copy(), a.T.copy())
    assert_big(nt.ascontiguousarray(x[:, ::-1].T), np.ascontiguousarray(a[:, ::-1].T))
    # a write through the transpose, then reads through views that
    # interleave with it (rows, columns, a stepped block)
    b, y = a.copy(), x.copy()
    b.T[100:150_000] = b.T[150_000:299_900] * 2
    y.T[100:150_000] = y.T[150_000:299_900] * 2
    assert_big(y[3].copy(), b[3].copy())
    assert_big(y[:, 149_990:150_010].copy(), b[:, 149_990:150_010].copy())
    assert_big(y[::3, ::1000] + 1, b[::3, ::1000] + 1)
    assert_big(y, b)


def test_stepped_writes_then_interleaved_reads():
    a = make(np.float64, (30, 100_000), seed=4)
    x = nt.asarray(a)
    b, y = a.copy(), x.copy()
    b[::7] = 5.0
    y[::7] = 5.0
    b[1:29:7] = b[0:28:7] + b[2:30:7]
    y[1:29:7] = y[0:28:7] + y[2:30:7]
    assert_big(y.sum(axis=1), b.sum(axis=1), rtol=1e-12)
    b.T[::20_000] = -b.T[1::20_000]
    y.T[::20_000] = -y.T[1::20_000]
    assert_big(y[:, :3].copy(), b[:, :3].copy())
    assert_big(y, b)
    # a flat stepped view: one element in every few tiles
    f = make(np.float64, 3_000_001, seed=5)
    g = nt.asarray(f)
    f[::400_000] = f[1::400_000] + 1
    g[::400_000] = g[1::400_000] + 1
    assert_big(g[::400_000] * 1, f[::400_000] * 1)
    assert_big(g, f)
