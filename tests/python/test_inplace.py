"""In-place elementwise arithmetic (x += y, x *= 2, out= the second operand,
x += x, overlapping views): the loops' in-place fast paths and their SIMD
copies give NumPy's values bit for bit, for every kind of dtype, one-tile
and many-tile arrays, and lengths that leave a vector remainder."""
import warnings

import numpy as np
import pytest

import ndtile as nt
from _helpers import make, assert_same

DTS = [np.float64, np.float32, np.int64, np.int32, np.int16, np.uint8]
OPS = ['add', 'subtract', 'multiply', 'maximum', 'minimum']
SIZES = [1, 7, 1000, 1023, 300_001]


@pytest.mark.parametrize('dt', DTS)
@pytest.mark.parametrize('n', SIZES)
def test_out_is_first_second_or_both_operands(dt, n):
    a, b = make(dt, n, 1), make(dt, n, 2)
    for name in OPS:
        f, g = getattr(np, name), getattr(nt, name)
        # out is the first operand
        x, y = a.copy(), nt.asarray(a)
        f(x, b, out=x)
        g(y, nt.asarray(b), out=y)
        assert_same(y, x)
        # out is the second operand
        x, y = b.copy(), nt.asarray(b)
        f(a, x, out=x)
        g(nt.asarray(a), y, out=y)
        assert_same(y, x)
        # both operands and out are one array
        x, y = a.copy(), nt.asarray(a)
        f(x, x, out=x)
        g(y, y, out=y)
        assert_same(y, x)
        # a scalar operand
        x, y = a.copy(), nt.asarray(a)
        f(x, dt(3), out=x)
        g(y, dt(3), out=y)
        assert_same(y, x)


@pytest.mark.parametrize('dt', [np.float64, np.float32, np.int32])
def test_augmented_assignment_loop_and_special_values(dt):
    n = 1000
    a, b = make(dt, n, 3), make(dt, n, 4)
    if np.dtype(dt).kind == 'f':
        a[:4] = [np.nan, np.inf, -0.0, -np.inf]
        b[:4] = [1.0, -np.inf, 0.0, np.nan]
    x, y = a.copy(), nt.asarray(a)
    yb = nt.asarray(b)
    for _ in range(5):
        x += 2 * b
        y += 2 * yb
        x -= b
        y -= yb
        if np.dtype(dt).kind == 'f':
            x *= dt(0.5)
            y *= dt(0.5)
    assert_same(y, x)


def test_overlapping_1d_assignment_is_numpys_loop():
    # NumPy assigns a 1-d target from a source that overlaps it with
    # strides the same way without a copy first, element by element (in
    # memory order, backwards when the source starts below and reaches the
    # target): a value written early is read again later. Random strided
    # views of one array against NumPy; about 5% of them differ from
    # reading the whole source first.
    rng = np.random.default_rng(3)
    a = np.arange(25, dtype=np.int8).reshape(5, 5)
    b = nt.asarray(a.copy())
    a[:, 3] = a[2]
    b[:, 3] = b[2]
    assert_same(b, a)      # [10 11 12 12 14]: a[3, 3] took a[2, 3]'s new 12
    differ = 0
    for _ in range(600):
        n0 = int(rng.integers(8, 80))
        st, s2 = (int(rng.choice([1, 2, 3, -1, -2, -3])) for _ in range(2))
        m = int(rng.integers(1, n0 // max(abs(st), abs(s2)) + 1))
        def sl(s):
            span = (m - 1) * abs(s)
            lo = int(rng.integers(0, n0 - span)) + (span if s < 0 else 0)
            stop = lo + m * s
            return slice(lo, stop if stop >= 0 else None, s)
        d, s = sl(st), sl(s2)
        base = np.arange(n0, dtype=rng.choice(['int8', 'int64', 'float32', 'complex64']))
        x, y, c = base.copy(), nt.asarray(base.copy()), base.copy()
        x[d] = x[s]
        y[d] = y[s]
        c[d] = c[s].copy()
        differ += not np.array_equal(x, c)
        assert_same(y, x)
    assert differ > 10, differ   # the cases that need NumPy's loop were met


def test_overlapping_1d_copyto_where_is_numpys_loop():
    # copyto(dst, src, where=m) of a 1-d dst from a source of its dtype
    # that overlaps it with strides the same way: NumPy's masked loop makes
    # no copy first either (PyArray_AssignArray), so an element it wrote is
    # read again later where the mask selected it (fuzz seed 38000148:
    # copyto(a[::-3], a[:334][::-1], where=a[:334] < 1)). Random strided
    # views and masks against NumPy, 0-d masks and empty views included.
    x, y = np.arange(10), nt.arange(10)
    np.copyto(x[::3], x[:4], where=np.ones(4, bool))
    nt.copyto(y[::3], y[:4], where=nt.ones(4, bool))
    assert_same(y, x)      # [0 1 2 1 4 5 2 7 8 1]: x[9] took x[3]'s new 1
    rng = np.random.default_rng(5)
    differ = 0
    for _ in range(600):
        n0 = int(rng.integers(8, 80))
        st, s2 = (int(rng.choice([1, 2, 3, -1, -2, -3])) for _ in range(2))
        m = int(rng.integers(0, n0 // max(abs(st), abs(s2)) + 1))
        def sl(s):
            span = max(m - 1, 0) * abs(s)
            lo = int(rng.integers(0, n0 - span)) + (span if s < 0 else 0)
            stop = lo + m * s
            return slice(lo, stop if stop >= 0 else None, s)
        d, s = sl(st), sl(s2)
        dt = rng.choice(['int8', 'int64', 'float32', 'complex64', 'bool'])
        base = np.arange(n0) % 3 == 0 if dt == 'bool' else np.arange(n0, dtype=dt)
        mask = rng.random(m) < 0.7 if rng.random() < 0.9 else np.array(rng.random() < 0.5)
        x, y, c = base.copy(), nt.asarray(base.copy()), base.copy()
        np.copyto(x[d], x[s], where=mask)
        nt.copyto(y[d], y[s], where=nt.asarray(mask))
        np.copyto(c[d], c[s].copy(), where=mask)
        differ += not np.array_equal(x, c)
        assert_same(y, x)
    assert differ > 10, differ   # the cases that need NumPy's loop were met


@pytest.mark.default_settings
@pytest.mark.parametrize('dt', [np.float64, np.uint32, np.int16])
def test_overlapping_copyto_where_across_tiles(dt):
    # the same at default settings on several 2 MiB tiles
    n = (5 << 20) // np.dtype(dt).itemsize
    a = make(dt, n, 7)
    x, y = a.copy(), nt.asarray(a)
    k = n // 3
    np.copyto(x[::-3], x[:k + 1][::-1], where=x[:k + 1] > x[-k - 1:])
    nt.copyto(y[::-3], y[:k + 1][::-1], where=y[:k + 1] > y[-k - 1:])
    assert_same(y, x)
    h = n // 2
    np.copyto(x[1::2], x[:h], where=x[1::2] < x[::2][:h])
    nt.copyto(y[1::2], y[:h], where=y[1::2] < y[::2][:h])
    assert_same(y, x)


@pytest.mark.parametrize('dt', [np.float64, np.int64])
def test_overlapping_views(dt):
    a = make(dt, 5000, 5)
    for k in (1, 3, 1000):
        x, y = a.copy(), nt.asarray(a)
        x[k:] += x[:-k]
        y[k:] += y[:-k]
        assert_same(y, x)
        x, y = a.copy(), nt.asarray(a)
        x[:-k] -= x[k:]
        y[:-k] -= y[k:]
        assert_same(y, x)
    x, y = a.copy(), nt.asarray(a)
    x[::2] *= x[1::2]
    y[::2] *= y[1::2]
    assert_same(y, x)
    x, y = a.copy(), nt.asarray(a)
    x += x[::-1]
    y += y[::-1]
    assert_same(y, x)


def _self_overlapping(mod, base, shape, strides):
    return mod.lib.stride_tricks.as_strided(base, shape, [s * base.itemsize for s in strides])


@pytest.mark.parametrize('dt', DTS + [np.complex128, np.bool_])
@pytest.mark.parametrize('n', [0, 1, 7, pytest.param(300_001, marks=pytest.mark.default_settings)])
def test_out_writing_one_location_more_than_once(dt, n):
    # an out= view that writes some memory more than once (a zero stride, an
    # as_strided view of overlapping rows): NumPy reads the inputs as before
    # the call, so each write of a location writes the same value here
    base = make(dt, n + 2, 3)
    cases = [((3, n), (0, 1)), ((n, 3), (1, 0)), ((max(n - 1, 0), 3), (1, 1))]
    for shape, strides in cases:
        for name in ('negative', 'add', 'multiply', 'square'):
            if dt == np.bool_ and name in ('negative', 'square'):
                continue
            x, y = base.copy(), nt.asarray(base)
            vx, vy = _self_overlapping(np, x, shape, strides), _self_overlapping(nt, y, shape, strides)
            f, g = getattr(np, name), getattr(nt, name)
            if f.nin == 1:
                f(vx, out=vx)
                g(vy, out=vy)
            else:
                f(vx, vx, out=vx)
                g(vy, vy, out=vy)
            assert_same(y, x)


@pytest.mark.parametrize('dt', [np.int64, np.float32])
def test_broadcast_arrays_inplace_reads_the_inputs_first(dt):
    # one tile: the writes land in NumPy's order, the last row wins
    for mod in (np, nt):
        a = mod.arange(2, dtype=dt)
        b = mod.arange(4, dtype=dt).reshape((2, 2))
        u, v = mod.broadcast_arrays(a, b)
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', DeprecationWarning)   # (NumPy's)
            u += v
        if mod is np:
            want = a
    assert_same(a, want)


@pytest.mark.parametrize('dt', [np.float64, np.int32, np.bool_])
@pytest.mark.parametrize('n', [4, pytest.param(300_001, marks=pytest.mark.default_settings)])
def test_masked_write_into_one_location_more_than_once(dt, n):
    # a ufunc's where= and copyto(where=) into a zero-stride out=: NumPy
    # leaves the masked-off elements unwritten, so the masked-on ones decide
    # (reading the out's copy from before the call wrote the old value back)
    for first in (True, False):
        mask = np.array([[first], [not first]])
        got = []
        for mod in (np, nt):
            d = mod.lib.stride_tricks.as_strided(mod.zeros(1, dt), (2, n), (0, 0))
            mod.add(mod.ones((2, n), dt), mod.ones(1, dt), out=d, where=mod.asarray(mask))
            e = mod.lib.stride_tricks.as_strided(mod.zeros(1, dt), (2, n), (0, 0))
            mod.copyto(e, mod.full(n, 3, dt), where=mod.asarray(mask))
            got.append((d.copy(), e.copy()))
        assert_same(got[1][0], got[0][0])
        assert_same(got[1][1], got[0][1])
