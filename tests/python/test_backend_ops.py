"""The backend harness's Python side: the op x dtype x layout table of
tests/backend/test_backend_ops.c, run through ndtile's Python API and
compared with NumPy (the oracle): result kind, dtype, shape and values.

Values are compared bitwise where ndtile promises NumPy's bits (integer and
bool results, casts, copies, writes into views, sorting and searching,
selection, min/max/arg reductions, the exactly rounded float ops) and with
the tolerances the rest of the suite uses elsewhere (_helpers.tol_for and
test_ufunc._tol: a few ULP for SLEEF's transcendental functions and complex
products, the summation-order tolerance for float sums, 4 n eps for scans as
docs/fuzzing.md, test_fft's bound for transforms). Random fills do not match
NumPy's streams; they are checked for dtype, shape and the same bits for any
workers and tile size.

Layouts: contiguous, strided, negative steps, transposed, broadcast (stride
0), 0-d, empty, and large (many of the suite's 4096-byte tiles), contiguous
and transposed. `make test-backend` runs this with the C harness."""
import numpy as np
import pytest

import ndtile as nt
from _helpers import DTYPES, NAMES, make, assert_same, tol_for, check_same_error, for_workers
import test_ufunc as tu

# NumPy's float16 loops (nextafter of bools, sqrt into a float16 view) and
# argwhere of a 0-d array run through the fallback; that is not the subject
pytestmark = pytest.mark.filterwarnings("ignore:ndtile does not implement:RuntimeWarning")

LAYOUTS = ['contig', 'strided', 'negstep', 'transposed', 'broadcast', '0d', 'empty', 'big',
           'big-transposed']
SMALL = (13, 17)
BIG = (61, 263)


def view(lib, base, lay):
    """The layout's view of base (made by base_shape), in NumPy or ndtile."""
    if lay == 'strided':
        return base[::2, 1::3]
    if lay == 'negstep':
        return base[::-1, ::-2]
    if lay in ('transposed', 'big-transposed'):
        return base.T
    if lay == 'broadcast':
        return lib.broadcast_to(base, (SMALL[0], base.shape[1]))
    return base


def base_shape(lay, shape=SMALL):
    r, c = BIG if lay.startswith('big') else shape
    return {'contig': (r, c), 'big': (r, c), 'strided': (2 * r, 3 * c),
            'negstep': (r, 2 * c), 'transposed': (c, r), 'big-transposed': (c, r),
            'broadcast': (1, c), '0d': (), 'empty': (0, c)}[lay]


def both(dt, lay, seed, base=None, **kw):
    """(NumPy view, ndtile view) of the same data in the layout."""
    b = make(dt, base_shape(lay), seed, **kw) if base is None else base
    return view(np, b, lay), view(nt, nt.asarray(b), lay)


def compare(f_np, f_nt, rtol=0):
    raised, exp = check_same_error(f_nt, f_np)
    if not raised:
        assert_same(f_nt(), exp, rtol)
    return exp


# ---- ufuncs -------------------------------------------------------------
@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
@pytest.mark.parametrize("name", tu.UNARY)
def test_unary(name, dt):
    f_np, f_nt = getattr(np, name), getattr(nt, name)
    for i, lay in enumerate(LAYOUTS):
        base = tu._inputs(name, dt, base_shape(lay), i)[0]
        a, x = both(dt, lay, i, base)
        raised, e = check_same_error(lambda: f_nt(x), lambda: f_np(a))
        if not raised:
            assert_same(f_nt(x), e, tu._tol(name, np.asarray(e).dtype))


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
@pytest.mark.parametrize("name", tu.BINARY)
def test_binary(name, dt):
    f_np, f_nt = getattr(np, name), getattr(nt, name)
    for i, lay in enumerate(LAYOUTS):
        if lay == 'broadcast':   # (r, 1) against (c,)
            a0, b0 = tu._inputs(name, dt, SMALL, i)
            a, b = a0[:, :1], b0[0]
            x, y = nt.asarray(a0)[:, :1], nt.asarray(b0)[0]
        else:
            a0, b0 = tu._inputs(name, dt, base_shape(lay), i)
            (a, x), (b, y) = both(dt, lay, i, a0), both(dt, lay, i, b0)
        raised, e = check_same_error(lambda: f_nt(x, y), lambda: f_np(a, b))
        if not raised:
            assert_same(f_nt(x, y), e, tu._tol(name, np.asarray(e).dtype))


@pytest.mark.parametrize("lay", LAYOUTS)
def test_where_clip(lay):
    for i, dt in enumerate(DTYPES):
        c, cn = both(np.bool_, lay, i)
        a, x = both(dt, lay, i + 1)
        b, y = both(dt, 'contig' if lay == 'broadcast' else lay, i + 2)
        compare(lambda: np.where(c, a, b), lambda: nt.where(cn, x, y))
        if dt.kind in 'iuf':
            compare(lambda: np.clip(a, dt.type(1), dt.type(5)),
                    lambda: nt.clip(x, dt.type(1), dt.type(5)))


@pytest.mark.parametrize("lay", ['strided', 'negstep', 'transposed', 'big-transposed'])
@pytest.mark.parametrize("name", ['add', 'multiply', 'sqrt', 'negative', 'less'])
def test_out_into_view(name, lay):
    f_np, f_nt = getattr(np, name), getattr(nt, name)
    nin = f_np.nin
    for i, dt in enumerate(DTYPES):
        src = make(dt, BIG if lay.startswith('big') else SMALL, i)
        try:
            rt = f_np(*[src[:1, :1]] * nin).dtype
        except TypeError:
            continue
        base = make(rt, base_shape(lay), i + 7)
        nb = nt.asarray(base)
        with np.errstate(all='ignore'):
            f_np(*[src] * nin, out=view(np, base, lay))
        f_nt(*[nt.asarray(src)] * nin, out=view(nt, nb, lay))
        assert_same(nb, base, 0 if name in tu.EXACT or dt.kind not in 'fc' else
                    tol_for(rt, 'math'))


# ---- casts, copies, writes ------------------------------------------------
@pytest.mark.parametrize("lay", LAYOUTS)
def test_astype(lay):
    for i, src in enumerate(DTYPES):
        a, x = both(src, lay, i)
        for dst in DTYPES:
            if src.kind == 'c' and dst.kind != 'c':
                continue   # ComplexWarning; the real part (test_ndarray covers it)
            if src.kind == 'f' and dst.kind in 'iu':
                continue   # out-of-range float -> int is NumPy's undefined C cast
            assert_same(x.astype(dst), a.astype(dst))


@pytest.mark.parametrize("lay", LAYOUTS)
def test_copy_assign_fill(lay):
    for i, dt in enumerate(DTYPES):
        a, x = both(dt, lay, i)
        assert_same(x.copy(), a.copy())
        if lay == 'broadcast':
            continue   # read-only
        tb = make(dt, base_shape(lay), i + 3)
        tgt_np, tgt_nt = view(np, tb, lay), view(nt, nbase := nt.asarray(tb), lay)
        tgt_np[...] = a
        tgt_nt[...] = x
        assert_same(nbase, tb)
        if lay != '0d':
            row = make(dt, (tgt_np.shape[1],), i + 4)
            tgt_np[...] = row
            tgt_nt[...] = nt.asarray(row)
            assert_same(nbase, tb)
        tgt_np.fill(dt.type(3))
        tgt_nt.fill(dt.type(3))
        assert_same(nbase, tb)


# ---- reductions, scans ------------------------------------------------------
REDUCE = ['sum', 'prod', 'min', 'max', 'any', 'all', 'mean', 'var', 'std', 'argmin', 'argmax',
          'nansum', 'nanprod', 'nanmin', 'nanmax', 'count_nonzero']
SUMS = {'sum', 'prod', 'mean', 'var', 'std', 'nansum', 'nanprod'}


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
@pytest.mark.parametrize("name", REDUCE)
def test_reduce(name, dt):
    f_np, f_nt = getattr(np, name), getattr(nt, name)
    for i, lay in enumerate(LAYOUTS):
        kw = dict(lo=-1, hi=1) if name in ('prod', 'nanprod') else {}
        a, x = both(dt, lay, i, **kw)
        for axis in ([None] if lay == '0d' else [None, 0, 1]):
            if name in ('nanmin', 'nanmax', 'nansum', 'nanprod') and dt.kind == 'c':
                continue
            raised, e = check_same_error(lambda: f_nt(x, axis=axis), lambda: f_np(a, axis=axis))
            if raised:
                continue
            ea = np.asarray(e)
            tol = tol_for(ea.dtype, 'sum') if name in SUMS and ea.dtype.kind in 'fc' else 0
            # sums: within rounding of the largest result (docs/fuzzing.md)
            fin = np.abs(ea[np.isfinite(ea)]) if tol else ()
            atol = tol * max(1.0, float(fin.max())) if len(fin) else None
            assert_same(f_nt(x, axis=axis), e, tol, atol=atol)


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
@pytest.mark.parametrize("name", ['cumsum', 'cumprod', 'nancumsum', 'nancumprod'])
def test_scan(name, dt):
    if name.startswith('nan') and dt.kind == 'c':
        pytest.skip("NumPy's nancum* of complex: test_scan covers it")
    for i, lay in enumerate(LAYOUTS):
        a, x = both(dt, lay, i, **(dict(lo=-1, hi=1) if 'prod' in name else {}))
        for axis in ([None] if lay == '0d' else [None, 0, 1]):
            e = getattr(np, name)(a, axis=axis)
            tol = 4 * max(1, a.size) * np.finfo(e.dtype).eps if e.dtype.kind in 'fc' else 0
            assert_same(getattr(nt, name)(x, axis=axis), e, tol, atol=tol if tol else None)


# ---- sorting, searching, selection ---------------------------------------------
@pytest.mark.parametrize("lay", LAYOUTS)
def test_sort_search(lay):
    for i, dt in enumerate(DTYPES):
        a, x = both(dt, lay, i, lo=-5, hi=5)
        for axis in ([None] if lay == '0d' else [-1, 0, None]):
            assert_same(nt.sort(x, axis=axis), np.sort(a, axis=axis))
            assert_same(nt.argsort(x, axis=axis, kind='stable'),
                        np.argsort(a, axis=axis, kind='stable'))
            if lay not in ('0d', 'empty'):
                k = 3
                got = np.asarray(nt.partition(x, k, axis=axis))
                exp = np.partition(a, k, axis=axis)
                sl = (slice(None),) * ((got.ndim + axis) % got.ndim if axis is not None else 0)
                np.testing.assert_array_equal(got[sl + (k,)], exp[sl + (k,)], strict=True)
        s = np.sort(make(dt, (50,), i + 9, lo=-5, hi=5))
        for side in ('left', 'right'):
            assert_same(nt.searchsorted(nt.asarray(s), x, side=side),
                        np.searchsorted(s, a, side=side))
        assert_same(nt.argwhere(x), np.argwhere(a))


# ---- products, transforms ------------------------------------------------------
def _assert_product(got, exp, a, b):
    """A matrix product: exact for integers and bool; for floats within the
    rounding bound of its k-term dot products, |error| <= 4 k eps (|a| @ |b|)
    elementwise. NumPy's bundled OpenBLAS and ndtile's add in orders that
    depend on the CPU's kernels and on NumPy's thread count (on an AMD EPYC,
    complex64 (263, 61) @ (61, 9) with cancellation differed from NumPy's by
    1.8e-5 relative in one element, within 0.2 % of this bound), so a
    relative tolerance on the result alone fails where the sum cancels."""
    if exp.dtype.kind not in 'fc':
        assert_same(got, exp, 0)
        return
    assert isinstance(got, nt.ndarray), type(got)
    g = got.__array__()
    assert g.dtype == exp.dtype and g.shape == exp.shape, (g.dtype, exp.dtype, g.shape, exp.shape)
    k = a.shape[-1] if a.ndim else 1
    mag = np.matmul(np.abs(a).astype(np.float64), np.abs(b).astype(np.float64))
    bound = 4 * max(k, 1) * np.finfo(exp.dtype).eps * mag
    err = np.abs(g.astype(np.complex128) - exp)
    assert np.all(err <= bound), (float((err - bound).max()), k)


@pytest.mark.parametrize("lay", LAYOUTS)
def test_matmul_dot(lay):
    for i, dt in enumerate(DTYPES):
        a, x = both(dt, lay, i, lo=-3, hi=3)
        k = a.shape[-1] if a.ndim else 1
        for bshape in ((k, 9), (k,)):
            b = make(dt, bshape, i + 1, lo=-3, hi=3)
            y = nt.asarray(b)
            raised, e = check_same_error(lambda: nt.matmul(x, y), lambda: np.matmul(a, b))
            if not raised:
                _assert_product(nt.matmul(x, y), e, a, b)
                _assert_product(nt.dot(x, y), np.dot(a, b), a, b)
        if a.ndim == 2:   # batched
            a3 = np.broadcast_to(a, (3,) + a.shape)
            b = make(dt, (k, 5), i + 2, lo=-3, hi=3)
            _assert_product(nt.matmul(nt.broadcast_to(x, (3,) + a.shape), nt.asarray(b)),
                            np.matmul(a3, b), a3, b)


def _fft_close(got, exp, n):
    g = np.asarray(got)
    assert g.dtype == exp.dtype and g.shape == exp.shape, (g.dtype, exp.dtype, g.shape)
    if exp.size:
        eps = np.finfo(exp.dtype).eps
        scale = max(1.0, float(np.abs(exp).max()))
        err = float(np.abs(g.astype(np.complex128) - exp).max())
        assert err <= 4 * eps * (np.log2(max(2, n)) + 1) * scale, (err, scale, n)


@pytest.mark.parametrize("lay", [l for l in LAYOUTS if l not in ('0d', 'empty')])
@pytest.mark.parametrize("name", ['fft', 'ifft', 'rfft', 'irfft'])
def test_fft(name, lay):
    for i, dt in enumerate([np.dtype(t) for t in ('float32', 'float64', 'complex64',
                                                  'complex128', 'int64')]):
        if name == 'rfft' and dt.kind == 'c':
            continue
        a, x = both(dt, lay, i)
        for axis in (-1, 0):
            for n in (None, a.shape[axis] - 3, a.shape[axis] + 5):
                e = getattr(np.fft, name)(a, n=n, axis=axis)
                _fft_close(getattr(nt.fft, name)(x, n=n, axis=axis), e, n or a.shape[axis])


# ---- random fills ------------------------------------------------------------------
@pytest.mark.parametrize("shape", [SMALL, (), (0, 17), BIG], ids=['small', '0d', 'empty', 'big'])
def test_random_fills(shape):
    def draw():
        g = nt.random.default_rng(12345)
        return [np.asarray(v) for v in (
            g.random(shape), g.random(shape, dtype=np.float32), g.uniform(-3, 5, shape),
            g.standard_normal(shape), g.normal(1, 2, shape), g.exponential(1.5, shape),
            g.gamma(0.7, 2, shape), g.poisson(4.5, shape), g.binomial(20, 0.3, shape),
            g.integers(0, 100, shape), g.integers(0, 100, shape, dtype=np.uint8))]
    g = np.random.default_rng(1)
    ref = [g.random(shape), g.random(shape, dtype=np.float32), g.uniform(-3, 5, shape),
           g.standard_normal(shape), g.normal(1, 2, shape), g.exponential(1.5, shape),
           g.gamma(0.7, 2, shape), g.poisson(4.5, shape), g.binomial(20, 0.3, shape),
           g.integers(0, 100, shape), g.integers(0, 100, shape, dtype=np.uint8)]
    one, three = for_workers(draw)
    for u, v, r in zip(one, three, ref):
        assert u.dtype == np.asarray(r).dtype and u.shape == np.shape(r), (u.dtype, u.shape)
        assert u.tobytes() == v.tobytes()   # the same bits for 1 and 3 workers
