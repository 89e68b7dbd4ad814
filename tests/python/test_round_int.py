"""round/around of integer arrays with decimals < 0, natively: NumPy's
steps (x / 10**-d in float64, rint: ties to even, * 10**-d, then cast back
to x's dtype unsafely), its values and dtype, its overflow (a value past
the dtype's range, or NaN once 10**-d overflows, is the cast's: "invalid
value encountered in cast") and, into out=, the float steps into out."""
import warnings

import numpy as np
import pytest

import ndtile as nt
from _helpers import assert_same

pytestmark = pytest.mark.usefixtures("native_only")

INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


def _data(dt, n=3000):
    info = np.iinfo(dt)
    rng = np.random.default_rng(1)
    a = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
    # ties (..5 at every decimal), the extremes, zero
    ties = np.array([5, 15, 25, 35, 45, 55, 65, 75, 85, 95, 105, 125, 250, 0])
    ties = np.concatenate([ties, -ties]) if info.min < 0 else ties
    ties = ties[(ties >= info.min) & (ties <= info.max)].astype(dt)
    a[:ties.size] = ties
    a[-2:] = (info.min, info.max)
    return a


@pytest.mark.parametrize("dt", INTS)
@pytest.mark.parametrize("decimals", [-1, -2, -3, -7, -19, -20, -400])
def test_round_int_negative_decimals(dt, decimals):
    a = _data(dt)
    views = [lambda v: v, lambda v: v[::-3], lambda v: v.reshape(60, 50).T]
    for view in views:
        for f in ('round', 'around'):
            with warnings.catch_warnings(record=True) as w_np:
                warnings.simplefilter('always')
                exp = getattr(np, f)(view(a), decimals)
            with warnings.catch_warnings(record=True) as w_nt:
                warnings.simplefilter('always')
                got = getattr(nt, f)(view(nt.asarray(a)), decimals)
                got = nt.asarray(got).__array__()
            assert_same(nt.asarray(got), exp)
            assert [type(w.message) for w in w_np] == [type(w.message) for w in w_nt], \
                ([str(w.message) for w in w_np], [str(w.message) for w in w_nt])
        assert_same(view(nt.asarray(a)).round(decimals), view(a).round(decimals))


def test_round_int_0d_empty_out():
    for a in (np.array(1234, np.int32), np.array(-45, np.int64), np.zeros((0, 3), np.int16)):
        exp = np.round(a, -1)
        got = nt.round(nt.asarray(a), -1)
        if a.ndim == 0:
            assert type(got) is type(exp) and got == exp
        else:
            assert_same(got, exp)
    a = np.arange(-500, 500, 7, dtype=np.int32)
    x = nt.asarray(a)
    # into a float out=: NumPy's float steps in out's dtype
    for ot in (np.float64, np.float32):
        o, on = nt.zeros(a.shape, ot), np.zeros(a.shape, ot)
        r = nt.round(x, -2, out=o)
        assert r is o
        assert_same(o, np.round(a, -2, out=on))
    # into an integer out=: NumPy's TypeError (the division's cast)
    with pytest.raises(TypeError):
        np.round(a, -1, out=np.zeros(a.shape, np.int32))
    with pytest.raises(TypeError):
        nt.round(x, -1, out=nt.zeros(a.shape, np.int32))


@pytest.mark.default_settings
def test_round_int_default_tiles():
    a = np.arange(-400000, 400000, 3, dtype=np.int64)
    assert_same(nt.round(nt.asarray(a), -2), np.round(a, -2))
