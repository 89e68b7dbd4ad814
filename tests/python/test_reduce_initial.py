"""sum/prod/nansum/nanprod (and add/multiply.reduce) with initial=: the
core's fold starts from initial= where NumPy's accumulator does (initial +
pairwise sum, initial * x0 * x1 ...), so float and complex results have
NumPy's bits, the sign of a zero included, on every path of the core's
reductions (one pairwise line, buffered casts, lines along an axis, the
block partials, the direct fold, products in order), over many tiles and
at the default settings. None of them falls back to NumPy."""
import numpy as np
import pytest

import ndtile as nt
from _helpers import raises_same

pytestmark = pytest.mark.usefixtures("native_only")


def bits_equal(got, exp):
    """got (ndtile result) is NumPy's exp bit for bit (NaNs: any NaN)."""
    g = np.asarray(got.__array__() if isinstance(got, nt.ndarray) else got)
    e = np.asarray(exp)
    assert type(got) is type(exp) or isinstance(got, nt.ndarray), (type(got), type(exp))
    assert g.dtype == e.dtype, (g.dtype, e.dtype)
    assert g.shape == e.shape, (g.shape, e.shape)
    parts = (lambda a: (a.real, a.imag)) if e.dtype.kind == 'c' else (lambda a: (a,))
    for gp, ep in zip(parts(g), parts(e)):
        if gp.dtype.kind == 'f':
            nan = np.isnan(ep)
            np.testing.assert_array_equal(np.isnan(gp), nan)
            u = np.dtype(f"u{gp.dtype.itemsize}")
            gb = np.ascontiguousarray(gp).view(u)[~nan]
            eb = np.ascontiguousarray(ep).view(u)[~nan]
            bad = np.flatnonzero(gb != eb)
            assert bad.size == 0, (gp[~nan][bad[:5]], ep[~nan][bad[:5]])
        else:
            np.testing.assert_array_equal(gp, ep, strict=True)


def _bits_same(got, exp):
    try:
        bits_equal(got, exp)
        return True
    except AssertionError:
        return False


def seeded_equal(f, x, a, initial, **kw):
    """f(x, initial=) is NumPy's f(a, initial=) bit for bit where the
    unseeded f(x) is (a view whose summation order is not NumPy's,
    deviations.md 4, is as close as its unseeded sum)."""
    with np.errstate(all='ignore'):
        exp = getattr(np, f)(a, initial=initial, **kw)
        got = getattr(nt, f)(x, initial=initial, **kw)
        if _bits_same(getattr(nt, f)(x, **kw), getattr(np, f)(a, **kw)):
            bits_equal(got, exp)
        else:
            # within the summation error bound's scale: eps * sum(|x|)
            g = np.asarray(got.__array__() if isinstance(got, nt.ndarray) else got)
            assert g.dtype == np.asarray(exp).dtype and g.shape == np.shape(exp)
            eps = 64 * np.finfo(g.dtype).eps
            scale = np.sum(np.abs(np.nan_to_num(a)), **kw) + abs(initial) if 'sum' in f else 0
            np.testing.assert_allclose(g, exp, rtol=eps, atol=eps * float(np.max(scale)))


def _data(dt, shape, kind, seed=0):
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    if kind == 'negzero':
        a = np.full(n, -0.0)
    elif kind == 'big':               # products overflow; a zero late in the line
        a = rng.uniform(1e30, 1e38, n)
        a[n * 3 // 4] = 0.0
    elif kind == 'nan':
        a = rng.standard_normal(n)
        a[::7] = np.nan
    else:
        a = rng.standard_normal(n) * 1e3
    if np.dtype(dt).kind == 'c':
        b = a[::-1].copy() if kind != 'negzero' else a.copy()
        a = a + 1j * b
    return a.astype(dt).reshape(shape)


VIEWS = {
    'c': lambda x: x,
    'T': lambda x: x.T,
    'step': lambda x: x[::2, ::-3],
}


@pytest.mark.parametrize("dt", ['f4', 'f8', 'c8', 'c16'])
@pytest.mark.parametrize("name", ['sum', 'prod'])
@pytest.mark.parametrize("kind", ['normal', 'negzero', 'big'])
@pytest.mark.parametrize("initial", [-0.0, 0.0, 2.5, 1e300])
def test_full_line(dt, name, kind, initial):
    # one line of many tiles (pairwise leaves; a product's chain), one of
    # two blocks (their partials, then the start) and a short one
    for n in (5000, 520, 7):
        a = _data(dt, (n,), kind)
        seeded_equal(name, nt.asarray(a), a, initial)


@pytest.mark.parametrize("dt", ['f8', 'c8'])
@pytest.mark.parametrize("name", ['sum', 'prod', 'nansum', 'nanprod'])
@pytest.mark.parametrize("view", sorted(VIEWS))
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
def test_axes_and_views(dt, name, view, axis):
    for kind, initial in (('normal', -7.25), ('negzero', -0.0), ('nan', 1.0), ('big', 0.0)):
        a = VIEWS[view](_data(dt, (120, 45), kind))
        x = VIEWS[view](nt.asarray(_data(dt, (120, 45), kind)))
        for keepdims in (False, True):
            seeded_equal(name, x, a, initial, axis=axis, keepdims=keepdims)


def test_ufunc_reduce_and_dtypes():
    a = _data('f8', (60, 70), 'normal')
    x = nt.asarray(a)
    for ax in (0, 1, None):
        bits_equal(nt.add.reduce(x, axis=ax, initial=-0.0), np.add.reduce(a, axis=ax, initial=-0.0))
        bits_equal(nt.multiply.reduce(x / 100, axis=ax, initial=3.0),
                   np.multiply.reduce(a / 100, axis=ax, initial=3.0))
    # the buffered cast sum (ints into float32, float64 into float32)
    i = np.arange(-20000, 20000, 3, dtype=np.int32)
    bits_equal(nt.sum(nt.asarray(i), dtype=np.float32, initial=0.1),
               np.sum(i, dtype=np.float32, initial=0.1))
    bits_equal(nt.sum(x, dtype=np.float32, initial=-0.0), np.sum(a, dtype=np.float32, initial=-0.0))
    bits_equal(nt.prod(nt.asarray(i[:500]), dtype=np.float64, initial=-1.0),
               np.prod(i[:500], dtype=np.float64, initial=-1.0))
    # integers and bools: the accumulator's dtype (int64, uint64) from initial
    for v in (np.arange(-50, 3000, dtype=np.int16), np.arange(4000, dtype=np.uint8),
              np.arange(3000) % 3 == 0):
        for f in ('sum', 'prod'):
            for init in (5, -3) if v.dtype.kind != 'u' else (5,):
                bits_equal(getattr(nt, f)(nt.asarray(v), initial=init),
                           getattr(np, f)(v, initial=init))
    # into out= of the accumulator's dtype
    o, on = nt.zeros(70), np.zeros(70)
    r = nt.sum(x, axis=0, initial=-0.5, out=o)
    assert r is o
    bits_equal(o, np.sum(a, axis=0, initial=-0.5, out=on))


def test_empty_and_0d():
    for shape, axis in (((0,), None), ((0, 4), 0), ((4, 0), 1), ((), None)):
        a = np.full(shape, 1.5)
        for f in ('sum', 'prod', 'nansum', 'nanprod'):
            bits_equal(getattr(nt, f)(nt.asarray(a), axis=axis, initial=-0.0),
                       getattr(np, f)(a, axis=axis, initial=-0.0))
    # a bad initial: NumPy's error (ValueError for floats, TypeError for
    # ints; a complex into floats)
    for a in (np.arange(3.0), np.arange(3)):
        for bad in ([1, 2], 1j, 'x'):
            for f in ('sum', 'prod'):
                raises_same(lambda: getattr(nt, f)(nt.asarray(a), initial=bad),
                            lambda: getattr(np, f)(a, initial=bad))


@pytest.mark.default_settings
def test_default_tiles():
    # above the inline threshold and larger than a 2 MiB tile: the pairwise
    # leaves, the block partials along the last axis, the direct fold over
    # axis 0, products in order
    a = _data('f8', (600, 520), 'normal')
    x = nt.asarray(a)
    for ax in (None, 0, 1):
        bits_equal(nt.sum(x, axis=ax, initial=-3.5), np.sum(a, axis=ax, initial=-3.5))
        bits_equal(nt.prod(x / 1e3, axis=ax, initial=0.0), np.prod(a / 1e3, axis=ax, initial=0.0))
    z = np.full(300000, -0.0)
    bits_equal(nt.sum(nt.asarray(z), initial=-0.0), np.sum(z, initial=-0.0))
    c = _data('c16', (400, 400), 'normal')
    bits_equal(nt.sum(nt.asarray(c), axis=1, initial=1j), np.sum(c, axis=1, initial=1j))


def test_negative_zero_runs():
    # the pairwise kernel's short runs start from -0.0, as NumPy's: a
    # reduceat segment of -0.0s is -0.0 (its first element, then the
    # pairwise sum of the rest), and a plain sum of them stays +0.0 (0 + ...)
    for n in (3, 5, 20, 300):
        a = np.full(n, -0.0)
        for idx in ([0], [0, 2], [0, 1, n - 1]):
            bits_equal(nt.add.reduceat(nt.asarray(a), idx), np.add.reduceat(a, idx))
        bits_equal(nt.sum(nt.asarray(a)), np.sum(a))
        bits_equal(nt.nansum(nt.asarray(a)), np.nansum(a))
        c = a.astype(np.complex64) * (1 + 1j) - 0.0j
        bits_equal(nt.add.reduceat(nt.asarray(c), [0, 1]), np.add.reduceat(c, [0, 1]))


@pytest.mark.parametrize("dt", ['f8', 'f4', 'c16'])
def test_lines_per_block(dt):
    # reduced axes that do not coalesce (a slice of the last axis): NumPy
    # adds each line's pairwise sum to the start in turn; blocks hold
    # several lines of a result element, or pieces of one line
    base = _data(dt, (4, 10, 40), 'normal', seed=3)
    a, x = base[:, :, :30], nt.asarray(base)[:, :, :30]
    for axes in ((1, 2), (0, 2), (0, 1, 2), 2):
        for init in (1.5, -0.0):
            seeded_equal('sum', x, a, init, axis=axes)
            seeded_equal('prod', x / 1e3, a / 1e3, init, axis=axes)
