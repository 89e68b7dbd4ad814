"""In-place elementwise arithmetic (x += y, x *= 2, out= the second operand,
x += x, overlapping views): the loops' in-place fast paths and their SIMD
copies give NumPy's values bit for bit, for every kind of dtype, one-tile
and many-tile arrays, and lengths that leave a vector remainder."""
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
