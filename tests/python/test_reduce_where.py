"""sum, nansum, add.reduce and mean under where=: NumPy's bits for float and
complex sums (NumPy adds each run of True mask elements of its inner loop as
one pairwise sum), natively for a C-contiguous input and mask of one shape
(native_only), NumPy's own computation (a fallback) for other layouts.
Values compared bit for bit, with dtype, shape and exceptions, at small
tiles (the suite's) and default settings."""
import warnings
import zlib

import numpy as np
import pytest

import ndtile as nt
from ndtile import _fallback

FLOATS = [np.float32, np.float64, np.complex64, np.complex128]


def _data(rng, shape, dt):
    """Values over many magnitudes (so the order of additions shows in the
    bits), NaNs and signed zeros among them."""
    v = rng.standard_normal(shape) * np.exp(rng.uniform(-12, 12, shape))
    if np.dtype(dt).kind == 'c':
        v = v + 1j * rng.standard_normal(shape) * np.exp(rng.uniform(-12, 12, shape))
    return np.asarray(v).astype(dt)


def _same_bits(r, e):
    r = np.asarray(r) if isinstance(r, nt.ndarray) else r
    assert type(r) is type(e), (type(r), type(e))
    r, e = np.asarray(r), np.asarray(e)
    assert r.dtype == e.dtype and r.shape == e.shape
    assert r.tobytes() == e.tobytes(), (r, e)


def _axes(nd):
    out = [None]
    for k in range(nd):
        out += [k, k - nd]
    if nd >= 2:
        out += [(0, nd - 1), tuple(range(nd - 1)), tuple(range(1, nd))]
    if nd >= 3:
        out += [(0, 2), (1,), (0, 1, 2)]
    return out


SHAPES = [(), (0,), (1,), (7,), (100,), (9000,), (20000,), (3, 4), (33, 47), (2, 0, 3),
          (5, 7, 300), (3, 10000), (10000, 3), (20, 30, 40), (1, 17, 1)]


@pytest.mark.usefixtures("native_only")
@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_sum_where_bits(shape, dt):
    # (a seed every rank computes alike: str's hash differs per process)
    rng = np.random.default_rng(zlib.crc32(repr((shape, np.dtype(dt).name)).encode()))
    x = _data(rng, shape, dt)
    a = nt.asarray(x)
    for p in (0.5, 0.97, 1.0, 0.0):
        w = rng.random(shape) < p
        wn = nt.asarray(w)
        for ax in _axes(len(shape)):
            for kd in (False, True):
                _same_bits(nt.sum(a, axis=ax, where=wn, keepdims=kd),
                           np.sum(x, axis=ax, where=w, keepdims=kd))
        # the mask as NumPy's array, a nested list and the method's
        _same_bits(a.sum(where=w), x.sum(where=w))
        if x.size:
            _same_bits(nt.sum(a, axis=-1, where=w.tolist()), np.sum(x, axis=-1, where=w.tolist()))
    # one value for the mask
    for w in (False, np.True_, np.array(False)):
        for ax in (None, -1):
            _same_bits(nt.sum(a, axis=ax, where=w, initial=-0.0),
                       np.sum(x, axis=ax, where=w, initial=-0.0))


@pytest.mark.usefixtures("native_only")
@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: np.dtype(d).name)
def test_sum_where_initial_out(dt):
    rng = np.random.default_rng(3)
    x = _data(rng, (6, 9001), dt)
    w = rng.random(x.shape) < 0.7
    a, wn = nt.asarray(x), nt.asarray(w)
    for init in (0.0, -0.0, 1.5, 1e30, -3):
        for ax in (None, 0, 1):
            _same_bits(nt.sum(a, axis=ax, where=wn, initial=init),
                       np.sum(x, axis=ax, where=w, initial=init))
    # -0.0s: initial=-0.0 keeps the sign where every element is masked or -0.0
    z = np.full((4, 5), -0.0, dt)
    wz = np.zeros((4, 5), bool)
    wz[1, 2] = True
    for ax in (None, 0, 1):
        _same_bits(nt.sum(nt.asarray(z), axis=ax, where=nt.asarray(wz), initial=-0.0),
                   np.sum(z, axis=ax, where=wz, initial=-0.0))
    # out= of the sum's dtype, returned as it is
    o, on = np.empty(9001, dt), nt.empty(9001, dt)
    r = nt.sum(a, axis=0, where=wn, out=on)
    assert r is on
    np.sum(x, axis=0, where=w, out=o)
    _same_bits(on, o)


@pytest.mark.usefixtures("native_only")
@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: np.dtype(d).name)
def test_nansum_add_reduce_where(dt):
    rng = np.random.default_rng(4)
    x = _data(rng, (37, 300), dt)
    x[rng.random(x.shape) < 0.1] = np.nan
    w = rng.random(x.shape) < 0.6
    a, wn = nt.asarray(x), nt.asarray(w)
    for ax in (None, 0, 1, (0, 1)):
        _same_bits(nt.nansum(a, axis=ax, where=wn), np.nansum(x, axis=ax, where=w))
        _same_bits(nt.add.reduce(a, axis=ax, where=wn), np.add.reduce(x, axis=ax, where=w))
    _same_bits(nt.add.reduce(a, axis=1, where=wn, initial=2.5, keepdims=True),
               np.add.reduce(x, axis=1, where=w, initial=2.5, keepdims=True))


@pytest.mark.usefixtures("native_only")
@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: np.dtype(d).name)
def test_mean_where(dt):
    rng = np.random.default_rng(5)
    x = _data(rng, (50, 400), dt)
    w = rng.random(x.shape) < 0.5
    a, wn = nt.asarray(x), nt.asarray(w)
    for ax in (None, 0, 1, -1):
        for kd in (False, True):
            _same_bits(nt.mean(a, axis=ax, where=wn, keepdims=kd),
                       np.mean(x, axis=ax, where=w, keepdims=kd))
    _same_bits(a.mean(axis=1, where=wn), x.mean(axis=1, where=w))
    # an all-False line: NumPy's warning, then 0/0
    w[3] = False
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        r = nt.mean(a, axis=1, where=nt.asarray(w))
    with warnings.catch_warnings(record=True) as want:
        warnings.simplefilter("always")
        e = np.mean(x, axis=1, where=w)
    _same_bits(r, e)
    assert [str(m.message) for m in got if m.category is RuntimeWarning] == \
        [str(m.message) for m in want if m.category is RuntimeWarning]


@pytest.mark.usefixtures("default_settings", "native_only")
@pytest.mark.parametrize("dt", [np.float32, np.complex128], ids=lambda d: np.dtype(d).name)
def test_sum_where_default_settings(dt):
    # arrays above the inline threshold and of many default tiles
    rng = np.random.default_rng(6)
    x = _data(rng, (700, 1500), dt)
    a = nt.asarray(x)
    assert a._ntiles > 1
    for p in (0.5, 0.999):
        w = rng.random(x.shape) < p
        wn = nt.asarray(w)
        for ax in (None, 0, 1):
            _same_bits(nt.sum(a, axis=ax, where=wn), np.sum(x, axis=ax, where=w))
        _same_bits(nt.mean(a, axis=1, where=wn), np.mean(x, axis=1, where=w))


def test_sum_where_other_layouts(fallback_warnings):
    """Layouts whose order NumPy's iterator chooses by its buffering cost
    model (a broadcast mask, strided or transposed views, casting sums):
    NumPy's own computation, its bits."""
    rng = np.random.default_rng(7)
    x = _data(rng, (40, 60), np.float32)
    a = nt.asarray(x)
    cases = [
        (lambda v: v, rng.random(60) < 0.5),                     # broadcast mask
        (lambda v: v[::2, ::3], rng.random((20, 20)) < 0.5),     # a view with steps
        (lambda v: v.T, rng.random((60, 40)) < 0.5),             # transposed
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for view, w in cases:
            for ax in (None, 0, 1):
                _same_bits(nt.sum(view(a), axis=ax, where=w), np.sum(view(x), axis=ax, where=w))
                _same_bits(nt.add.reduce(view(a), axis=ax, where=w),
                           np.add.reduce(view(x), axis=ax, where=w))
        w = rng.random((40, 60)) < 0.5
        _same_bits(nt.sum(a, where=w, dtype=np.float64), np.sum(x, where=w, dtype=np.float64))
        h = x.astype(np.float16)
        _same_bits(nt.sum(nt.asarray(h), where=w), np.sum(h, where=w))
        _same_bits(nt.mean(nt.asarray(h), where=w), np.mean(h, where=w))


@pytest.mark.usefixtures("native_only")
def test_sum_where_ints_bools():
    rng = np.random.default_rng(8)
    for dt in (np.int8, np.int64, np.uint16, np.bool_):
        x = rng.integers(0, 100, (30, 50)).astype(dt)
        w = rng.random(x.shape) < 0.5
        a, wn = nt.asarray(x), nt.asarray(w)
        for ax in (None, 0, 1):
            _same_bits(nt.sum(a, axis=ax, where=wn), np.sum(x, axis=ax, where=w))


def test_sum_where_errors():
    x = np.arange(12.0).reshape(3, 4)
    a = nt.asarray(x)
    for w in (np.ones((4, 3), bool), np.ones((2, 3, 4), bool)):
        with pytest.raises(ValueError) as e1:
            np.sum(x, where=w)
        with pytest.raises(ValueError) as e2:
            nt.sum(a, where=nt.asarray(w))
        assert str(e1.value) == str(e2.value)
    with pytest.raises(np.exceptions.AxisError):
        nt.sum(a, axis=2, where=nt.ones((3, 4), bool))
