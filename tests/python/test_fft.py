"""ndtile.fft against numpy.fft: every transform, every input dtype, lengths
with small and large prime factors, n padding/truncation, the three norms,
lines along every axis of multi-tile arrays (4096-byte tiles in tests),
strided / negative-step / transposed views, multi-axis transforms with s and
axes, single precision, out=, the shifts and frequencies, and NumPy's errors.
NDTILE_FALLBACK=error proves every call runs natively. Tolerances scale with
log2(n) * eps * the size of the result."""
import numpy as np
import pytest

import ndtile as nt
from _helpers import DTYPES, NAMES, make, assert_same


@pytest.fixture(autouse=True)
def _native_only(monkeypatch):
    monkeypatch.setenv('NDTILE_FALLBACK', 'error')


def close(got, exp, n=None):
    """Same kind, dtype, shape; values within log2(n)*eps*max|exp|."""
    assert isinstance(got, nt.ndarray), type(got)
    g = np.asarray(got)
    assert g.dtype == exp.dtype, f"dtype {g.dtype} != {exp.dtype}"
    assert g.shape == exp.shape, f"shape {g.shape} != {exp.shape}"
    if exp.size == 0:
        return
    n = max(2, n or max(exp.shape))
    eps = np.finfo(exp.dtype).eps
    scale = max(1.0, float(np.abs(exp).max()))
    err = float(np.abs(g.astype(np.complex128) - exp).max())
    assert err <= 4 * eps * (np.log2(n) + 1) * scale, (err, scale, n)


FUNCS1 = ['fft', 'ifft', 'rfft', 'irfft', 'hfft', 'ihfft']
LENS = [1, 2, 3, 4, 5, 7, 12, 16, 45, 64, 97, 131, 210, 1024, 1031, 1500]


@pytest.mark.parametrize('n', LENS)
@pytest.mark.parametrize('fn', FUNCS1)
def test_1d_lengths(fn, n):
    dt = np.complex128 if fn in ('fft', 'ifft', 'irfft', 'hfft') else np.float64
    x, a = make(dt, (n,), seed=n), None
    a = nt.asarray(x)
    if fn in ('irfft', 'hfft') and n == 1:
        with pytest.raises(ValueError, match=r"Invalid number of FFT data points \(0\)"):
            getattr(nt.fft, fn)(a)
        return
    close(getattr(nt.fft, fn)(a), getattr(np.fft, fn)(x), 2 * n)


@pytest.mark.parametrize('dt', NAMES)
@pytest.mark.parametrize('fn', FUNCS1)
def test_dtypes(fn, dt):
    if fn in ('rfft', 'ihfft') and np.dtype(dt).kind == 'c':
        x = make(dt, (6,))
        with pytest.raises(TypeError):
            np.fft.rfft(x)
        with pytest.raises(TypeError):
            getattr(nt.fft, fn)(nt.asarray(x))
        return
    x = make(dt, (3, 10), seed=3)
    close(getattr(nt.fft, fn)(nt.asarray(x)), getattr(np.fft, fn)(x), 20)


@pytest.mark.parametrize('norm', [None, 'backward', 'ortho', 'forward'])
@pytest.mark.parametrize('fn', FUNCS1)
def test_norms_and_n(fn, norm):
    dt = np.complex64 if fn in ('fft', 'ifft', 'irfft', 'hfft') else np.float32
    x = make(dt, (4, 9), seed=1)
    a = nt.asarray(x)
    for n in (None, 1, 5, 9, 16, 31):
        if n == 1 and fn in ('irfft', 'hfft'):
            continue
        f = getattr(nt.fft, fn)
        close(f(a, n=n, axis=1, norm=norm), getattr(np.fft, fn)(x, n=n, axis=1, norm=norm), 32)
        close(f(a, n=n, axis=0, norm=norm), getattr(np.fft, fn)(x, n=n, axis=0, norm=norm), 32)


@pytest.mark.parametrize('shape', [(33, 47), (300, 20), (7, 700)])
def test_multitile_axes(shape):
    x = make(np.complex128, shape, seed=5)
    a = nt.asarray(x)
    for ax in (0, 1, -1, -2):
        close(nt.fft.fft(a, axis=ax), np.fft.fft(x, axis=ax))
        close(nt.fft.ifft(a, axis=ax), np.fft.ifft(x, axis=ax))
    r = make(np.float64, shape, seed=6)
    close(nt.fft.rfft(nt.asarray(r), axis=0), np.fft.rfft(r, axis=0))
    close(nt.fft.irfft(a, axis=0), np.fft.irfft(x, axis=0))


def test_views():
    x = make(np.complex128, (40, 60), seed=7)
    a = nt.asarray(x)
    for sl in [np.s_[::2, 1::3], np.s_[::-1, ::-2], np.s_[5:30, ::-1], np.s_[:, 3]]:
        close(nt.fft.fft(a[sl]), np.fft.fft(x[sl]))
        close(nt.fft.fft(a[sl], axis=0), np.fft.fft(x[sl], axis=0))
    close(nt.fft.fft(a.T), np.fft.fft(x.T))
    close(nt.fft.rfft(a.real[::-3]), np.fft.rfft(x.real[::-3]))
    close(nt.fft.fft(a.imag, axis=0), np.fft.fft(x.imag, axis=0))
    # a broadcast (stride 0) input
    b = nt.broadcast_to(a[0], (5, 60))
    close(nt.fft.fft(b, axis=0), np.fft.fft(np.broadcast_to(x[0], (5, 60)), axis=0))


NDCASES = [dict(), dict(axes=(0, 2)), dict(axes=(1,)), dict(s=(3, 8), axes=(0, 2)),
           dict(s=(-1, 5, 4), axes=(2, 0, 1)), dict(axes=(1, 1)), dict(s=(2, 7), axes=(-1, -3))]


@pytest.mark.parametrize('kw', NDCASES)
@pytest.mark.parametrize('fn', ['fftn', 'ifftn', 'rfftn', 'irfftn'])
def test_nd(fn, kw):
    dt = np.float64 if fn == 'rfftn' else np.complex128
    x = make(dt, (6, 5, 8), seed=8)
    if fn == 'irfftn' and kw.get('axes') == (1, 1):
        kw = dict(axes=(1, 2))
    close(getattr(nt.fft, fn)(nt.asarray(x), **kw), getattr(np.fft, fn)(x, **kw), 64)


@pytest.mark.parametrize('fn', ['fft2', 'ifft2', 'rfft2', 'irfft2'])
def test_2d(fn):
    dt = np.float32 if fn == 'rfft2' else np.complex64
    x = make(dt, (2, 30, 40), seed=9)
    f, g = getattr(nt.fft, fn), getattr(np.fft, fn)
    close(f(nt.asarray(x)), g(x))
    close(f(nt.asarray(x), s=(16, 10), norm='ortho'), g(x, s=(16, 10), norm='ortho'))
    close(f(nt.asarray(x), axes=(0, 2)), g(x, axes=(0, 2)))
    with pytest.raises(IndexError):
        f(nt.asarray(x[0, 0]))


def test_round_trips_and_0d_axes():
    x = make(np.float64, (12, 9), seed=10)
    a = nt.asarray(x)
    close(nt.fft.irfftn(nt.fft.rfftn(a), a.shape, axes=(0, 1)), x)
    close(nt.fft.ifftn(nt.fft.fftn(a)), np.fft.ifftn(np.fft.fftn(x)))
    # no axes: NumPy returns the input unchanged
    r = nt.fft.fftn(a, axes=())
    assert_same(r, np.fft.fftn(x, axes=()))


def test_deprecated_s_without_axes():
    x = make(np.complex128, (4, 6))
    with pytest.warns(DeprecationWarning):
        r = nt.fft.fftn(nt.asarray(x), s=(3, 5))
    with pytest.warns(DeprecationWarning):
        e = np.fft.fftn(x, s=(3, 5))
    close(r, e)


def test_out():
    x = make(np.complex128, (5, 8), seed=11)
    a = nt.asarray(x)
    o = nt.zeros((5, 8), complex)
    r = nt.fft.fft(a, out=o)
    assert r is o
    close(o, np.fft.fft(x))
    o32 = np.zeros((5, 8), np.complex64)
    r = nt.fft.fft(a, axis=0, out=o32)
    assert r is o32
    np.testing.assert_allclose(o32, np.fft.fft(x, axis=0), rtol=1e-5, atol=1e-5)
    o2 = nt.zeros((5, 8), complex)
    nt.fft.fftn(a, out=o2)
    close(o2, np.fft.fftn(x))
    ro = nt.zeros((5, 8))
    nt.fft.irfft(a[:, :5], n=8, out=ro)
    close(ro, np.fft.irfft(x[:, :5], n=8))
    oi = nt.zeros((5, 5), complex)
    nt.fft.ihfft(a.real, out=oi)
    close(oi, np.fft.ihfft(x.real))
    oi32 = np.zeros((5, 5), np.complex64)
    assert nt.fft.ihfft(a.real, out=oi32) is oi32
    np.testing.assert_allclose(oi32, np.fft.ihfft(x.real), rtol=1e-5, atol=1e-5)
    oh = nt.zeros((5, 8))           # NumPy's hfft ignores out
    r = nt.fft.hfft(a[:, :5], out=oh)
    assert r is not oh and float(nt.abs(oh).max()) == 0
    close(r, np.fft.hfft(x[:, :5]))
    with pytest.raises(ValueError, match="output array has wrong shape"):
        nt.fft.fft(a, out=nt.zeros((5, 9), complex))
    with pytest.raises(ValueError, match="output array has wrong shape"):
        nt.fft.ihfft(a.real, out=nt.zeros((5, 4), complex))
    with pytest.raises(TypeError):
        nt.fft.fft(a, out=nt.zeros((5, 8)))
    # an out= that is not an array: NumPy's ufunc TypeError, for every
    # transform (an AttributeError before)
    for bad in ('', 3, [[0j] * 8] * 5):
        for f in (nt.fft.fft, nt.fft.rfft, nt.fft.fftn, nt.fft.ihfft):
            with pytest.raises(TypeError, match="must be of ArrayType"):
                f(a.real, out=bad)
            with pytest.raises(TypeError, match="must be of ArrayType"):
                getattr(np.fft, f.__name__)(np.asarray(a.real), out=bad)


def test_errors():
    a = nt.asarray(make(np.complex128, (3, 4)))
    for f in (nt.fft.fft, nt.fft.ifft, nt.fft.rfft, nt.fft.irfft):
        with pytest.raises(ValueError, match=r"Invalid number of FFT data points \(0\)"):
            f(a.real, n=0)
        with pytest.raises(ValueError, match=r"Invalid number of FFT data points \(-2\)"):
            f(a.real, n=-2)
    with pytest.raises(ValueError, match=r"Invalid number of FFT data points \(0\)"):
        nt.fft.fft(nt.zeros((2, 0)))
    close(nt.fft.fft(nt.zeros((0, 3))), np.fft.fft(np.zeros((0, 3))))
    close(nt.fft.fft(nt.zeros((2, 0)), n=3), np.fft.fft(np.zeros((2, 0)), n=3))
    with pytest.raises(IndexError):
        nt.fft.fft(nt.asarray(1.0))            # 0-d: NumPy's shape[axis] fails
    with pytest.raises(np.exceptions.AxisError):
        nt.fft.fft(nt.asarray(1.0), n=2)
    with pytest.raises(IndexError):
        nt.fft.fft(a, axis=2)
    with pytest.raises(np.exceptions.AxisError):
        nt.fft.fft(a, n=4, axis=-3)
    with pytest.raises(ValueError, match="Invalid norm value"):
        nt.fft.fft(a, norm='bad')
    with pytest.raises(ValueError, match="Invalid norm value"):
        nt.fft.hfft(a, norm='bad')
    with pytest.raises(TypeError):
        nt.fft.fft(a, n=4.0)
    with pytest.raises(ValueError, match="Shape and axes have different lengths"):
        nt.fft.fftn(a, s=(2,), axes=(0, 1))
    with pytest.raises(IndexError):
        nt.fft.fftn(a, axes=(0, 5))
    with pytest.raises(IndexError):
        nt.fft.rfftn(a.real, axes=())
    with pytest.raises(TypeError):
        nt.fft.rfft(a)


def test_lists_float16_and_dispatch():
    close(nt.fft.fft([1, 2, 3]), np.fft.fft([1, 2, 3]))
    h = np.arange(6, dtype=np.float16)
    close(nt.fft.fft(h), np.fft.fft(h))
    close(nt.fft.rfft(h), np.fft.rfft(h))
    x = make(np.float64, (10,))
    a = nt.asarray(x)
    # NumPy's functions on ndtile arrays run ndtile's (fallbacks raise here)
    close(np.fft.fft(a), np.fft.fft(x))
    close(np.fft.fftshift(a), np.fft.fftshift(x))
    close(np.fft.irfft2(nt.asarray(make(np.complex128, (4, 5)))),
          np.fft.irfft2(make(np.complex128, (4, 5))))


def test_workers_bitwise():
    x = make(np.complex128, (64, 96), seed=12)
    a = nt.asarray(x)
    old = nt._core.workers()
    try:
        nt.set_workers(1)
        r1 = np.asarray(nt.fft.fft2(a))
        nt.set_workers(3)
        r3 = np.asarray(nt.fft.fft2(a))
    finally:
        nt.set_workers(old)
    assert r1.tobytes() == r3.tobytes()


SHIFT_SHAPES = [(0,), (1,), (5,), (6,), (3, 4), (7, 300), (4, 5, 6)]


@pytest.mark.parametrize('shape', SHIFT_SHAPES)
@pytest.mark.parametrize('fn', ['fftshift', 'ifftshift'])
def test_shifts(fn, shape):
    x = make(np.int32, shape, seed=13)
    a = nt.asarray(x)
    f, g = getattr(nt.fft, fn), getattr(np.fft, fn)
    assert_same(f(a), g(x))
    assert_same(f(a, axes=0), g(x, axes=0))
    assert_same(f(a, axes=-1), g(x, axes=-1))
    if len(shape) > 1:
        assert_same(f(a, axes=(1, 0, 1)), g(x, axes=(1, 0, 1)))
        assert_same(f(a[::-1, ::2]), g(x[::-1, ::2]))


def test_shift_errors_and_dtypes():
    for dt in DTYPES:
        x = make(dt, (5, 4))
        assert_same(nt.fft.fftshift(nt.asarray(x)), np.fft.fftshift(x))
    a = nt.arange(5)
    with pytest.raises(IndexError):
        nt.fft.fftshift(a, axes=3)
    with pytest.raises(IndexError):
        nt.fft.fftshift(a, axes=(0, 3))
    with pytest.raises(ValueError):
        nt.fft.fftshift(nt.asarray(3.0))
    assert_same(nt.fft.fftshift([[1, 2, 3], [4, 5, 6]]), np.fft.fftshift([[1, 2, 3], [4, 5, 6]]))


def test_freqs():
    for n in (1, 2, 5, 8, 1001):
        for d in (1.0, 0.1, 3):
            close(nt.fft.fftfreq(n, d), np.fft.fftfreq(n, d))
            close(nt.fft.rfftfreq(n, d), np.fft.rfftfreq(n, d))
    close(nt.fft.fftfreq(7, np.float32(0.3)), np.fft.fftfreq(7, np.float32(0.3)))
    close(nt.fft.fftfreq(np.int64(6)), np.fft.fftfreq(np.int64(6)))
    with pytest.raises(ValueError, match="n should be an integer"):
        nt.fft.fftfreq(4.0)
    with pytest.raises(ValueError, match="n should be an integer"):
        nt.fft.rfftfreq(4.0)
    with pytest.raises(ZeroDivisionError):
        nt.fft.fftfreq(0)


def same_zero_signs(got, exp):
    """Values close; where both are exactly zero, NumPy's sign of zero."""
    close(got, exp)
    g = np.asarray(got)
    parts = (np.real, np.imag) if exp.dtype.kind == 'c' else (np.asarray,)
    for part in parts:
        pg, pe = part(g), part(exp)
        z = (pg == 0) & (pe == 0)
        assert (np.signbit(pg[z]) == np.signbit(pe[z])).all(), (pg[z], pe[z])


def sign_inputs(n, dt):
    """All-zero, real-only, imaginary-only, a delta and ones (exact zeros in
    their transforms), and small integers."""
    rng = np.random.default_rng(n)
    re = rng.integers(-3, 4, n).astype(dt)
    delta = np.zeros(n, dt)
    delta[0] = 1
    return [np.zeros(n, dt), re, (1j * re).astype(dt), delta, np.ones(n, dt),
            (re + 1j * rng.integers(-3, 4, n)).astype(dt)]


# (lengths where NumPy's pocketfft does not use Bluestein's algorithm, whose
# all-zero input can give it -0.0 parts: 97, 101, 1031 do; 67 and ndtile's
# own Bluestein lengths give +0.0)
SIGN_LENS = [1, 2, 3, 5, 8, 12, 64, 67, 210, 1000, 1024]


@pytest.mark.parametrize('n', SIGN_LENS)
@pytest.mark.parametrize('dt', [np.complex128, np.complex64])
def test_inverse_zero_signs(n, dt):
    # the backward transform keeps the signs of zeros (it was
    # conj(forward(conj(x))): ifft of zeros gave -0.0 imaginary parts)
    for x in sign_inputs(n, dt):
        for norm in (None, 'ortho', 'forward'):
            a = nt.asarray(x)
            same_zero_signs(nt.fft.ifft(a, norm=norm), np.fft.ifft(x, norm=norm))
            same_zero_signs(nt.fft.fft(a, norm=norm), np.fft.fft(x, norm=norm))
            h = x[:n // 2 + 1]
            same_zero_signs(nt.fft.irfft(nt.asarray(h), n, norm=norm),
                            np.fft.irfft(h, n, norm=norm))
            same_zero_signs(nt.fft.hfft(nt.asarray(h), n, norm=norm),
                            np.fft.hfft(h, n, norm=norm))


@pytest.mark.parametrize('shape', [(3, 4), (5, 8), (2, 3, 5), (64, 3), (7, 67)])
def test_inverse_zero_signs_nd(shape):
    rng = np.random.default_rng(1)
    re = rng.integers(-3, 4, shape).astype(float)
    for dt in (np.complex128, np.complex64):
        for x in (np.zeros(shape, dt), re.astype(dt), (1j * re).astype(dt)):
            a = nt.asarray(x)
            for norm in (None, 'ortho'):
                same_zero_signs(nt.fft.ifft2(a, norm=norm), np.fft.ifft2(x, norm=norm))
                same_zero_signs(nt.fft.ifftn(a, norm=norm), np.fft.ifftn(x, norm=norm))
                # along a strided axis (lines transformed together)
                same_zero_signs(nt.fft.ifft(a, axis=0, norm=norm),
                                np.fft.ifft(x, axis=0, norm=norm))
                same_zero_signs(nt.fft.ifft(a[..., ::-2], norm=norm),
                                np.fft.ifft(x[..., ::-2], norm=norm))
        z = np.zeros(shape[:-1] + (shape[-1] // 2 + 1,), np.complex128)
        ax = tuple(range(len(shape)))
        same_zero_signs(nt.fft.irfftn(nt.asarray(z), shape, axes=ax),
                        np.fft.irfftn(z, shape, axes=ax))
        same_zero_signs(nt.fft.irfft2(nt.asarray(z), shape[-2:], axes=(-2, -1)),
                        np.fft.irfft2(z, shape[-2:], axes=(-2, -1)))


def test_inverse_zero_signs_default(default_settings):
    # arrays larger than a 2 MiB tile, at the default settings
    rng = np.random.default_rng(2)
    re = rng.integers(-3, 4, (300, 1024)).astype(float)
    for x in (np.zeros((300, 1024), np.complex128), re.astype(np.complex128),
              (1j * re).astype(np.complex64)):
        a = nt.asarray(x)
        same_zero_signs(nt.fft.ifft(a), np.fft.ifft(x))
        same_zero_signs(nt.fft.ifft(a, axis=0), np.fft.ifft(x, axis=0))
        same_zero_signs(nt.fft.ifft2(a), np.fft.ifft2(x))
        same_zero_signs(nt.fft.irfft(a), np.fft.irfft(x))
