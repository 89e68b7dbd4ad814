"""An element's result and the floating-point errors an operation reports
depend on the values only, not on the layout, the tiling or the
neighbouring elements.

sin/cos/tan: SLEEF's plain vector functions chose the range reduction
once per vector, so one large lane (3e38, inf, NaN; |x| >= 125 for float32)
sent the whole vector down the slow reduction, 1 ulp off for the ordinary
lanes, and where a tile boundary cut a row decided the bits. The reference
for each element here is its value computed among values that take the same
reduction step (so that no vector mixes steps), and NumPy's bits for values
where they equal NumPy's.

Integer reciprocal: reciprocal(0) is (T)(1.0 / 0) in NumPy and raises
"divide by zero" and "invalid value" on every layout.

Each case runs at a small size (inline), at N > the inline threshold with
the suite's 4 KiB tiles (tile boundaries cut the rows) and with the
runtime's default settings."""
import warnings
import zlib

import numpy
import pytest

import ndtile

N = 40000                  # above NDTILE_INLINE_ELEMS
SIZES = [40, N]

# The steps of SLEEF's range reduction (3.5, u10 sin/cos/tan): an element's
# bits are checked against the same value among values of its own step.
STEPS = {'float32': (125.0,), 'float64': (15.0, 1e14)}
LARGE = {
    'float32': [3e38, -3e38, numpy.inf, -numpy.inf, numpy.nan, 125.0, -1e4, 1e30, 71476.5],
    'float64': [1e300, -1e300, numpy.inf, -numpy.inf, numpy.nan, 15.0, -1e5, 1e14, 1e20, -3e8],
}
# Values whose result in an ordinary vector is NumPy's to the bit and whose
# slow-reduction result is not (found with a 3e38 / 1e300 neighbour).
PINNED = {
    ('sin', 'float32'): ['0x1.34c52ep+2', '-0x1.026d3cp+6', '0x1.02fb30p+6', '-0x1.b79e70p+5'],
    ('cos', 'float32'): ['0x1.5447e6p+6', '-0x1.d16314p+6', '0x1.9d7bccp+6'],
    ('tan', 'float64'): ['-0x1.a52c4021d80f4p+3', '0x1.d453afdfef46fp+3', '-0x1.3e0f7b7b4b126p+2'],
}


def step(x, dt):
    """The reduction step each element takes (NaN: the last)."""
    a = numpy.abs(x.astype(dt))
    s = numpy.full(x.shape, len(STEPS[dt]), dtype=numpy.int8)
    for k, t in reversed(list(enumerate(STEPS[dt]))):
        s[a < t] = k
    return s


def bits(a):
    a = numpy.ascontiguousarray(a)
    return a.view(f'u{a.dtype.itemsize}')


def layouts(x):
    """(name, ndtile view) of the 2-D data x in several layouts."""
    r, c = x.shape
    wide = numpy.zeros((r + 1, 3 * c + 2), x.dtype)
    wide[1:, 2::3] = x
    return [
        ('contiguous', ndtile.asarray(x)),
        ('transposed', ndtile.asarray(numpy.ascontiguousarray(x.T)).T),
        ('strided', ndtile.asarray(wide)[1:, 2::3]),
        ('reversed', ndtile.asarray(numpy.ascontiguousarray(x[::-1, ::-1]))[::-1, ::-1]),
    ]


def trig_data(n, dt, rng):
    """n ordinary values (the pinned ones among them) with large values
    scattered in, as 2-D data whose rows do not line up with vectors."""
    fdt = dt if dt in STEPS else 'float32'
    if fdt == dt:
        x = rng.uniform(-STEPS[dt][0], STEPS[dt][0], n).astype(dt)
        pinned = [float.fromhex(v) for (f, d), vs in PINNED.items() if d == dt for v in vs]
        x[:len(pinned)] = pinned
        big = numpy.array(LARGE[dt], dt)
    else:
        info = numpy.iinfo(dt)
        x = rng.integers(max(info.min, -124), min(info.max, 124) + 1, n).astype(dt)
        big = numpy.array([v for v in (127, 126, 125, -128, -125, 200, 255, 30000, -32768)
                           if info.min <= v <= info.max], dt)
    pos = rng.choice(n, size=max(8, n // 50), replace=False)
    pos = pos[pos >= 16]                     # the pinned values stay ordinary
    x[pos] = rng.choice(big, size=pos.size)
    if n >= 16:
        x[15] = big[0]                       # the reproducer's vector
    cols = 51 if n > 100 else n
    return x[: n - n % cols].reshape(-1, cols), fdt


def reference(fn, x, fdt):
    """Each element's result among values of its own step: the elements of
    another step are replaced by one of this step, so no vector mixes them."""
    s = step(x, fdt)
    out = None
    for k in numpy.unique(s):
        y = x.copy()
        y[s != k] = x[s == k].flat[0]
        r = numpy.asarray(getattr(ndtile, fn)(ndtile.asarray(y)))
        if out is None:
            out = numpy.empty_like(r)
        out[s == k] = r[s == k]
    return out


def check_trig(fn, dt, n):
    rng = numpy.random.default_rng(zlib.crc32(f'{fn} {dt} {n}'.encode()))
    x, fdt = trig_data(n, dt, rng)
    want = reference(fn, x, fdt)
    ref_np = getattr(numpy, fn)(x)
    assert want.dtype == ref_np.dtype
    for name, v in layouts(x):
        got = numpy.asarray(getattr(ndtile, fn)(v))
        assert got.dtype == ref_np.dtype and got.shape == x.shape
        nan = numpy.isnan(want)
        assert numpy.array_equal(numpy.isnan(got), nan), name
        bad = (bits(got) != bits(want)) & ~nan
        assert not bad.any(), (name, x[bad][:5], got[bad][:5], want[bad][:5])
    # the pinned values: NumPy's bits, with the large neighbours around them
    flat_x, flat_got = x.ravel(), numpy.asarray(getattr(ndtile, fn)(layouts(x)[2][1])).ravel()
    for v in PINNED.get((fn, dt), []):
        i = numpy.flatnonzero(flat_x == numpy.array(float.fromhex(v), dt))
        assert i.size, v
        assert bits(flat_got[i]).tolist() == bits(getattr(numpy, fn)(flat_x[i])).tolist(), v


@pytest.mark.parametrize('n', SIZES)
@pytest.mark.parametrize('dt', ['float32', 'float64', 'int8', 'uint8', 'int16'])
@pytest.mark.parametrize('fn', ['sin', 'cos', 'tan'])
def test_trig_lanes(fn, dt, n):
    check_trig(fn, dt, n)


@pytest.mark.default_settings
@pytest.mark.parametrize('dt', ['float32', 'float64', 'int8'])
@pytest.mark.parametrize('fn', ['sin', 'cos', 'tan'])
def test_trig_lanes_default_settings(fn, dt):
    check_trig(fn, dt, N)


def test_trig_reproducer():
    a = numpy.full(16, float.fromhex('0x1.34c52ep+2'), numpy.float32)
    b = a.copy()
    b[15] = 3e38
    want = numpy.sin(a)[0]
    assert float(want) == float.fromhex('-0x1.fcc8a2p-1')
    w = bits(numpy.asarray([want])).tolist()
    assert bits(numpy.asarray(ndtile.sin(ndtile.asarray(a)))[:1]).tolist() == w
    assert bits(numpy.asarray(ndtile.sin(ndtile.asarray(b)))[:1]).tolist() == w


# ---- integer reciprocal: NumPy's flags on every layout -----------------------
DEFAULT = dict(divide='warn', over='warn', under='ignore', invalid='warn')


def caught(mod, fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        with numpy.errstate(**DEFAULT):
            r = fn(mod)
            if mod is ndtile:
                r = numpy.asarray(r)
    return sorted(set((x.category.__name__, str(x.message)) for x in w)), r


def recip_views(m, dt, zero):
    base = m.asarray(numpy.where(numpy.arange(26 * 51).reshape(26, 51) % 7 == 3,
                                 0 if zero else 3, 1).astype(dt))
    return {
        'contiguous': lambda: m.reciprocal(base),
        'strided': lambda: m.reciprocal(base[::2, 1::3]),
        'transposed': lambda: m.reciprocal(base.T),
        'reversed': lambda: m.reciprocal(base[::-1]),
        'small': lambda: m.reciprocal(base[3, :5]),
        'small-strided': lambda: m.reciprocal(base[3, ::4]),
        'column': lambda: m.reciprocal(base[:, 3]),
    }


INT_TYPES = ['int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64']


def check_recip(dt, zero):
    for name in recip_views(numpy, dt, zero):
        exp, want = caught(numpy, lambda m: recip_views(m, dt, zero)[name]())
        got, res = caught(ndtile, lambda m: recip_views(m, dt, zero)[name]())
        assert got == exp, (dt, name)
        assert res.dtype == want.dtype and numpy.array_equal(res, want), (dt, name)
        if zero:
            assert len(exp) == 2, exp     # divide by zero and invalid value


# On many ranks the flags are agreed between the ranks: every rank warns
# alike (src/runtime/comm.c).
@pytest.mark.parametrize('zero', [True, False])
@pytest.mark.parametrize('dt', INT_TYPES + ['bool'])
def test_integer_reciprocal_flags(dt, zero):
    if dt == 'bool' and not zero:
        pytest.skip('bool has no value without a zero but 1')
    check_recip(dt, zero)


@pytest.mark.default_settings
@pytest.mark.parametrize('dt', INT_TYPES)
def test_integer_reciprocal_flags_default_settings(dt):
    check_recip(dt, True)


@pytest.mark.default_settings
@pytest.mark.parametrize('dt', ['int8', 'int32', 'uint16', 'int64'])
def test_integer_reciprocal_flags_big(dt):
    """Above the inline threshold, deferred, across tiles."""
    def run(m):
        a = m.zeros((800, 301), dt)
        return m.reciprocal(a[::2, 1::3])
    exp, want = caught(numpy, run)
    got, res = caught(ndtile, run)
    assert got == exp and len(exp) == 2
    assert numpy.array_equal(res, want)
